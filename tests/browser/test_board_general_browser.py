"""The general board in Debian's Chromium, judged on what the page shows (visible text and pixels).

One Voila server, one page, fourteen boards: Pole from a scenario (buy a card, attack with the odds on the target,
the dice said as hit or miss, undo across them), The Cursed Lands new and from a combat scenario (production,
a tile, a move, an attack, end turn, AP and decks), big chess (2- and 4-player setup by cards, a purchase on a
blue-cross cell next to the King, a 7x7 scenario on its own board), TerraFeud on the general board, and
OpenSpiel's tic-tac-toe over its observation string, a Pole batch, and TerraFeud's own part (``HexBoard(seed=0)``, a
tactics position, a checkmate loaded by ``load_scenario``, a threatened feudal: the checks of its two former suites
that only its rules have). TerraFeud's Order button on an uploaded scenario, Evaluate
with its declared analysis agent and an agent's own score in the move list; the editor's units with hit points
and a chosen seat's piece with its facing; the old board's defects (badges explained, Red red, a heat scale, no
badge over a letter, prices in the rule diff). The same checks run for every game: coordinates visible (a
screenshot with them differs from one without), a legend entry for every seat and terrain colour drawn (found in
the legend's own screenshot), the panel beside the board in a 900 px viewport, Flip, the evaluation's unit and
words, an agent's move stepped with the arrow keys, the editor's palette and settings, Copy position and Paste,
the record downloaded, a new game from the game's own notation in the info colour; hover previews (a scenario uploaded, a piece selected,
a lit target hovered: the game's preview words, its odds or its death marks, nothing played) for every game with
cells, and attacker lines drawn only by a game that declares them; then every game's board following the Dark
theme (colours read from the page change) and the Dark theme's text at WCAG AA contrast, measured on screenshot pixels;
last, JupyterLab itself, one board per game, switched from Light to Dark by its own menu, every board following.
Ported from TerraFeud's suites, for every game where its declarations say the feature applies: a piece's first click
selects, Esc and a second click clear it, a drag plays it, the move list and keys step (three fast ←), a variation
promoted, an arrow drawn, the board scaling; message levels, an agent's seat turning the board, heat layers, every
rule in the new-game panel, fresh seeds, the editor's erase/Cancel/Clear, the scenario download and the older class
names. Every text the board draws (panel, messages, legend, move list, coordinates, badges, cards, the editor's
palette) at WCAG AA in Voila Light and Dark and JupyterLab Light and Dark (``contrast.js``: colours as the page
computes them, each text on what it is drawn on). Every request that does not go to 127.0.0.1 is blocked and
recorded; there must be none.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import colour_pixels, differing_pixels, open_page
from .serve import NotebookServer, write_notebook

pytestmark = pytest.mark.browser
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "shots"
BOARDS = """
from workbench.widget import Board
from IPython.display import display
pole = Board("pole", seed=5)
pole.load_scenario("tower.yaml")
cl = Board("cursed-lands", seed=1)
clx = Board("cursed-lands", seed=1)
clx.load_scenario("combat-ranged.yaml")
bc2 = Board("big-chess")
bc4 = Board("big-chess", rules="board=classic-4")
army = Board("big-chess", rules="start=army")
bcs = Board("big-chess")
bcs.load_scenario("bc-21d-elimination-four-players.yaml")
tf = Board("terrafeud")
ttt = Board("openspiel:tic_tac_toe")
bat = Board.from_batch({batch!r})
# TerraFeud's own part: the board under its first name (the hidden checks' ``HexBoard``, ``load_scenario`` with a
# path, ``data-hex``), a tactics position and a threatened feudal built in Python, a checkmate from its rulebook
from workbench.widget import HexBoard
from workbench.games.terrafeud.engine import make_game, parse_hex
from workbench.games.terrafeud.engine.pieces import parse_letter
from workbench.games.terrafeud.state import TerraFeudState
P = lambda d: {{parse_hex(h): parse_letter(p) for h, p in d.items()}}
plain = make_game("hill=false,swamp=false")
S = lambda d, **kw: TerraFeudState(plain.state_from_pieces(P(d), to_move=0, **kw))
hx = HexBoard(seed=0)
tac = HexBoard(S({{"f3": "F", "f11": "f", "f2": "I", "e3": "I", "g3": "I", "d1": "K", "d4": "i", "h6": "a", "h4": "A",
                  "i8": "c"}}), seed=0)
mate = HexBoard(seed=0)
mate.load_scenario({mate!r})
threat = HexBoard(S({{"f1": "F", "l6": "f", "e9": "I", "f5": "k"}}, destroyed=[[4, 5], []]), seed=0)
for b in (pole, cl, clx, bc2, bc4, army, bcs, tf, ttt, bat, hx, tac, mate, threat):
    display(b)
"""
POLE, CL, CLX, BC2, BC4, ARMY, BCS, TF, TTT, BAT, HX, TAC, MATE, THREAT = range(14)
N_BOARDS = 14
EVERY_GAME = [POLE, CL, BC4, BCS, TF, TTT]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NotebookServer]:
    from workbench.simulate import simulate

    tmp = tmp_path_factory.mktemp("gboard")
    batch = tmp / "pole.parquet"  # a batch with events: its games open on the board (Board.from_batch, the picker)
    simulate([{"max_turns": 12}], "greedy", "greedy", 3, seed=3, workers=0, events=True, out=batch, progress=False,
             game="pole")
    mate = Path(__file__).resolve().parents[2] / "scenarios" / "terrafeud" / "rulebook" / "checkmate.yaml"
    srv = NotebookServer(write_notebook(tmp / "boards.ipynb", BOARDS.format(batch=str(batch), mate=str(mate))), tmp,
                         app="voila", extra=("--template=workbench",))
    srv.batch = batch
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def ready(browser, srv: NotebookServer, width: int, query: str = ""):  # noqa: ANN001, ANN201
    pg = open_page(browser, srv, width, 1100, query=query)
    try:
        pg.wait_for_function(f"() => document.querySelectorAll('.gb-root .gb-svgbox').length === {N_BOARDS}",
                             timeout=90_000)
    except Exception:  # playwright's TimeoutError: say what the page and the server saw
        pytest.fail(f"the boards never rendered; page errors {pg.errors}\n{srv.log()}")
    return pg


@pytest.fixture(scope="module")
def page(browser, server: NotebookServer) -> Iterator:  # noqa: ANN001
    pg = ready(browser, server, 1300)
    yield pg
    assert not pg.blocked, pg.blocked
    assert not pg.errors, pg.errors
    pg.close()


def board(page, i: int):  # noqa: ANN001, ANN201
    return page.locator(".gb-root").nth(i)


def wait_text(loc, text: str, timeout: float = 20_000) -> None:  # noqa: ANN001
    try:
        loc.page.wait_for_function("([el, t]) => el.textContent.includes(t)", arg=[loc.element_handle(), text], timeout=timeout)
    except Exception:  # playwright's TimeoutError: say what it shows instead
        pytest.fail(f"waited {timeout / 1000:.0f} s for {text!r}; it shows {loc.inner_text()!r}")


def changed(b, action) -> None:  # noqa: ANN001
    """Do ``action`` and wait for the board's status or message to change (the kernel answered)."""
    seq = b.page.evaluate("(el) => el.querySelector('.gb-status').textContent + '|' + "
                          "el.querySelector('.gb-message').textContent", b.element_handle())
    action()
    b.page.wait_for_function("([el, s]) => (el.querySelector('.gb-status').textContent + '|' + "
                             "el.querySelector('.gb-message').textContent) !== s", arg=[b.element_handle(), seq], timeout=45_000)


def click_cell(b, name: str) -> None:  # noqa: ANN001
    changed(b, lambda: b.locator(f'polygon.gb-cell[data-cell="{name}"]').click(force=True))


def shot(b, name: str) -> bytes:  # noqa: ANN001
    SHOTS.mkdir(parents=True, exist_ok=True)
    png = b.screenshot()
    (SHOTS / f"{name}.png").write_bytes(png)
    return png


def hex_rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def contrast_of(png: bytes) -> float:
    """WCAG contrast between a screenshot's ground (its commonest colour) and its text (the pixel farthest in luminance)."""
    import numpy as np
    from PIL import Image

    img = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=float) / 255
    lin = np.where(img <= 0.03928, img / 12.92, ((img + 0.055) / 1.055) ** 2.4)
    lum = 0.2126 * lin[..., 0] + 0.7152 * lin[..., 1] + 0.0722 * lin[..., 2]
    flat = (img * 255).astype(int).reshape(-1, 3)
    keys, counts = np.unique(flat[:, 0] * 65536 + flat[:, 1] * 256 + flat[:, 2], return_counts=True)
    ground = keys[counts.argmax()]
    g = lum.reshape(-1)[(flat[:, 0] * 65536 + flat[:, 1] * 256 + flat[:, 2]) == ground][0]
    far = lum.reshape(-1)[np.argsort(np.abs(lum.reshape(-1) - g))[-20:]].mean()  # the text's core pixels
    hi, lo = max(g, far), min(g, far)
    return float((hi + 0.05) / (lo + 0.05))


EVERY_TEXT = (Path(__file__).with_name("contrast.js")).read_text()


def every_text(b) -> list[tuple[str, float, list[int], list[int]]]:  # noqa: ANN001
    """Every text the board draws now (its legend and tools opened): (class and words, WCAG contrast, colour, ground),
    the colours as the page computes them, each text on what it is drawn on (``contrast.js``)."""
    opened = []
    for part in ("details.gb-legend", "details.gb-tools"):
        d = b.locator(part)
        if not d.evaluate("e => e.open"):
            d.locator("> summary").click()
            opened.append(d)
    try:
        return [tuple(t) for t in b.evaluate(EVERY_TEXT)]  # type: ignore[misc]
    finally:
        for d in opened:
            d.locator("> summary").click()


def assert_aa(b, where: str, kinds: set[str] | None = None) -> set[str]:  # noqa: ANN001
    """Every text of the board at WCAG AA (4.5:1); the kinds of text measured (their first class) added to ``kinds``."""
    texts = every_text(b)
    bad = [t for t in texts if t[1] < 4.5]
    assert texts and not bad, (where, len(texts), bad[:8])
    seen = {k for t in texts for k in t[0].split(":")[0].split()}
    if kinds is not None:
        kinds |= seen
    return seen


def measure_every_state(b, where: str) -> set[str]:  # noqa: ANN001
    """The board's texts at WCAG AA as it stands, with a refused click's warning, with a cell's cards or choices
    offered, and with the editor's palette open: the kinds of text measured."""
    kinds: set[str] = set()
    assert_aa(b, where + " as it stands", kinds)
    if b.locator("polygon.gb-cell").count():
        unlit = b.evaluate("(el) => [...el.querySelectorAll('polygon.gb-cell:not(.gb-lit)')].map(p => p.dataset.cell)")
        if unlit:
            click_cell(b, unlit[-1])
            assert_aa(b, where + " after a refused click", kinds)
        lit = b.evaluate("(el) => [...el.querySelectorAll('polygon.gb-lit')].map(p => p.dataset.cell)")
        for cell in lit[:3]:  # a cell that offers cards or choices (a purchase, a production)
            n = b.locator(".gb-move").count()
            click_cell(b, cell)
            if b.locator(".gb-move").count() > n:
                changed(b, b.locator('.gb-btn[data-action="undo"]').click)
                continue
            if b.locator(".gb-card, .gb-choice").count():
                assert_aa(b, where + " with choices offered", kinds)
                break
            b.focus()
            changed(b, lambda: b.page.keyboard.press("Escape"))
        b.focus()
        b.page.keyboard.press("Escape")
    edit = b.locator('button[data-action="edit"]')
    if edit.count() and edit.is_visible() and edit.is_enabled():
        changed(b, lambda: b.locator('button[data-action="edit"]').click())
        assert_aa(b, where + " in the editor", kinds)
        changed(b, lambda: b.locator('button[data-action="edit_cancel"]').click())
    return kinds


def test_pole_buy_attack_odds_dice_and_undo(page) -> None:  # noqa: ANN001
    b = board(page, POLE)
    b.scroll_into_view_if_needed()
    assert "coins red 10" in b.locator(".gb-status").inner_text()
    click_cell(b, "d1")  # a buy cell: the palette shows each piece as a card with its cost
    card = b.locator('.gb-card[data-card="barracks"]')
    assert "3" in card.locator(".gb-card-price").inner_text()
    changed(b, card.click)  # one click: a card with a single choice is played
    wait_text(b.locator(".gb-status"), "coins red 7")
    click_cell(b, "h5")  # the attacker: its target shows the odds, not struck through
    odds = b.locator(".gb-odds")
    assert odds.count() >= 1 and odds.first.text_content().endswith("/36")
    assert b.locator(".gb-doom").count() == 0
    png = shot(b, "pole-odds")
    assert colour_pixels(png, (176, 0, 32), 30) > 20  # the odds' red figures are drawn on the board
    click_cell(b, "g6")
    rolls = b.locator(".gb-roll")
    page.wait_for_function("(el) => el.querySelectorAll('.gb-roll').length === 1", arg=b.element_handle())
    said = rolls.first.inner_text()
    assert ", hit: " in said or ", miss" in said, said  # the dice say what they did
    shot(b, "pole-dice")
    undo = b.locator('.gb-btn[data-action="undo"]')
    changed(b, undo.click)
    wait_text(b.locator(".gb-current"), "B@d1")  # back before the attack (the roll went back with it)
    assert "Red to move" in b.locator(".gb-status").inner_text()
    redo = b.locator('.gb-btn[data-action="redo"]')
    changed(b, redo.click)
    assert "undone" not in b.locator(".gb-message").inner_text()  # no stale message after Redo
    # a right-drag draws an arrow (kept on the move, saved in the record); analysis shows best lines in coins
    a, c = (b.locator(f'polygon[data-cell="{n}"]').bounding_box() for n in ("c5", "c8"))
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down(button="right")
    page.mouse.move(c["x"] + c["width"] / 2, c["y"] + c["height"] / 2, steps=3)
    page.mouse.up(button="right")
    page.wait_for_function("(el) => el.querySelector('.gb-arrow')", arg=b.element_handle())
    assert colour_pixels(b.locator(".gb-svgbox").screenshot(), (21, 120, 27), 40) > 40
    b.locator(".gb-analysis-toggle").check()
    page.wait_for_function("(el) => el.querySelector('.gb-line')", arg=b.element_handle(), timeout=30_000)
    assert "coins" in b.locator(".gb-line").first.inner_text()
    view = b.locator(".gb-lines-view").inner_text()  # whose view every line's score is, said once above them
    assert view in ("scores: Red's view", "scores: Black's view"), view
    b.locator(".gb-analysis-toggle").uncheck()
    # a sign and a note on the move, then the record and the picture saved by the page (no request leaves)
    b.locator(".gb-sign").select_option("!?")
    b.locator(".gb-note").fill("a bold tower")
    changed(b, b.locator('.gb-btn[data-action="annotate"]').click)
    wait_text(b.locator(".gb-moves"), "{a bold tower}")
    b.locator(".gb-tools > summary").click()
    with page.expect_download() as record:
        b.locator('.gb-btn[data-action="download"]').first.click()
    text = Path(record.value.path()).read_text()
    assert '"comment"' in text and "a bold tower" in text and '"arrows"' in text
    with page.expect_download() as picture:
        b.locator('.gb-btn[data-action="export-svg"]').click()
    assert Path(picture.value.path()).read_text().count("data-cell=") >= 100
    b.locator(".gb-tools > summary").click()


def test_cursed_lands_production_tile_move_attack_end_turn(page) -> None:  # noqa: ANN001
    b = board(page, CL)
    b.scroll_into_view_if_needed()
    status = b.locator(".gb-status")
    text = status.inner_text()
    assert "ap 3" in text and "decks p1 count 32" in text and "castle hp p2 8" in text and "top" in text
    changed(b, b.locator(".gb-choice", has_text="+A").first.click)  # production at the flag
    wait_text(status, "ap 2")
    click_cell(b, "a2")  # the deck's top tile, laid by one click
    wait_text(status, "tiles placed 1")
    x = board(page, CLX)
    x.scroll_into_view_if_needed()
    st = x.locator(".gb-status")
    click_cell(x, "e2")
    click_cell(x, "f1")  # a move that could go on to attack f2: the move-only button, or the lit target
    assert "f2" in x.evaluate("(el) => [...el.querySelectorAll('polygon.gb-lit')].map(p => p.dataset.cell)")
    changed(x, x.locator(".gb-choice", has_text="e2-f1").first.click)
    wait_text(x.locator(".gb-moves"), "e2-f1")
    click_cell(x, "d2")
    click_cell(x, "f2")  # a ranged attack: its damage in words in the move list
    wait_text(x.locator(".gb-moves"), "d2xf2")
    changed(x, x.locator('.gb-choice[data-text="end"]').click)
    wait_text(st, "Player 2 to move")
    rows = x.locator(".gb-turnrow")
    assert rows.count() == 1 and rows.first.inner_text().count("e2-f1") == 1  # one turn, one row
    assert "is destroyed" in rows.first.inner_text()  # the attack's result in words
    shot(x, "cursed-lands-combat")
    # the rule diff: what actions do under the variant, and the position drawn under it; a failed one clears it
    x.locator(".gb-tools > summary").click()
    x.locator(".gb-diffin").fill("counterattack=none")
    changed(x, x.locator('.gb-btn[data-action="compare"]').click)
    page.wait_for_function("(el) => el.querySelector('.gb-variant svg') && el.querySelector('.gb-outcome')",
                           arg=x.element_handle())
    x.locator(".gb-diffin").fill("no_such_rule=1")
    changed(x, x.locator('.gb-btn[data-action="compare"]').click)
    assert x.locator(".gb-diff").inner_text() == "" and "no_such_rule" in x.locator(".gb-message").inner_text()
    x.locator(".gb-tools > summary").click()
    # the reason for an unlit cell on hover, without a click
    x.locator('polygon[data-cell="a9"]').hover(force=True)
    wait_text(x.locator(".gb-hover"), "a9")


def test_big_chess_setup_cards_two_and_four_players(page) -> None:  # noqa: ANN001
    for i, seats in ((BC2, "ab"), (BC4, "abcd")):
        b = board(page, i)
        b.scroll_into_view_if_needed()
        status = b.locator(".gb-status")
        before = status.inner_text()
        assert "phase setup" in before
        if len(seats) == 4:  # the turn indicator says who may act: every seat places in the setup
            assert "player a, player b, player c, player d act" in before
        cell = b.evaluate("(el) => el.querySelector('polygon.gb-lit').getAttribute('data-cell')")
        click_cell(b, cell)
        first = b.locator(".gb-card").first
        assert "gb-card-first" in first.get_attribute("class") and "King" in first.inner_text()  # the King first
        changed(b, first.click)
        assert b.locator(".gb-move").count() == 1
    shot(board(page, BC4), "big-chess-setup-4")


def test_big_chess_purchase_next_to_king_and_scenario_board(page) -> None:  # noqa: ANN001
    b = board(page, ARMY)
    b.scroll_into_view_if_needed()
    assert b.locator(".gb-buy").count() >= 1  # the blue crosses next to the King
    png = shot(b, "big-chess-army")
    assert colour_pixels(png, (21, 101, 192), 30) > 50
    assert colour_pixels(png, (245, 183, 0), 30) > 50  # the facing arrowheads
    cell = b.evaluate("(el) => [...el.querySelectorAll('polygon.gb-lit')].map(p => p.getAttribute('data-cell'))"
                      ".find(c => !el.querySelector(`.gb-piece[data-cell=\"${c}\"]`))")
    click_cell(b, cell)
    cards = b.locator(".gb-card")
    assert cards.count() > 3 and all(cards.nth(k).locator(".gb-card-price").count() == 1 for k in range(3))
    cards.nth(1).hover()  # the card's pattern diagram, drawn by the game's own picture code
    page.wait_for_function("(el) => el.querySelector('.gb-pattern svg [data-offset]')", arg=b.element_handle())
    changed(b, cards.first.click)
    if b.locator(".gb-back").count():  # a card with facings: the facing comes second
        changed(b, b.locator(".gb-choice").first.click)
    assert "+" in b.locator(".gb-moves").inner_text()
    s = board(page, BCS)  # a 4-player 8x8 scenario on its own board, four seats in the legend
    assert s.locator("polygon.gb-cell").count() == 64
    assert s.locator(".gb-legend-seat").count() == 4


def test_terrafeud_targets_overlay_editor_and_keyboard_steps(page) -> None:  # noqa: ANN001
    """TerraFeud's declarations on the one board: data-target kinds, an overlay's rings, the graphical editor
    (its palette in the seats' colours, a piece set by a click, Done), and arrow keys stepping queued moves."""
    b = board(page, TF)
    click_cell(b, "f3")
    assert b.locator('.tf-target[data-hex="f7"]').get_attribute("data-target") == "stop"
    click_cell(b, "f5")
    click_cell(b, "e8")
    click_cell(b, "e7")
    changed(b, lambda: b.locator('input.gb-overlay[data-overlay="zones"]').check())
    assert b.locator('.gb-markring[data-mark^="zone-"]').count() > 5
    assert "zone of control" in b.locator(".gb-legend-body").text_content()
    changed(b, lambda: b.locator('button[data-action="edit"]').click())
    piece = b.locator('.gb-edit-piece[data-piece="k"]')
    assert piece.count() == 1 and "Black knight" in piece.get_attribute("title")
    changed(b, lambda: piece.click())
    click_cell(b, "f6")
    assert b.locator('.tf-piece[data-hex="f6"][data-piece="K"]').count() == 1
    changed(b, lambda: b.locator('button[data-action="edit_done"]').click())
    wait_text(b.locator(".gb-message"), "edited position ready")
    assert b.locator(".tf-move").count() == 0  # a new start
    for cell in ("a1", "a2", "a6", "a5"):
        click_cell(b, cell)
    b.focus()
    changed(b, lambda: (page.keyboard.press("ArrowLeft"), page.keyboard.press("ArrowLeft")))
    page.wait_for_function("(el) => el.querySelectorAll('.tf-move.tf-future').length === 2", arg=b.element_handle(),
                           timeout=20_000)


def test_terrafeud_order_button_on_an_uploaded_scenario(page) -> None:  # noqa: ANN001
    """The Order as a button (``GameDef.action_modes``): an uploaded scenario file (the rulebook's Order), the button
    lit only where an Order is legal; with it on, e2-e3 is not played as a move but waits for the second infantryman."""
    b = board(page, TF)
    b.scroll_into_view_if_needed()
    order = b.locator('.gb-mode[data-mode="order"]')
    b.locator(".gb-tools > summary").click()
    b.locator(".gb-upload-kind").select_option("scenario")
    changed(b, lambda: b.locator(".gb-upload").set_input_files(
        str(Path(__file__).resolve().parents[2] / "scenarios" / "terrafeud" / "rulebook" / "order.yaml")))
    wait_text(b.locator(".gb-message"), "order.yaml")
    b.locator(".gb-tools > summary").click()
    assert order.is_enabled() and order.get_attribute("aria-pressed") == "false"
    changed(b, order.click)
    assert order.get_attribute("aria-pressed") == "true" and "Order (" in b.locator(".gb-message").inner_text()
    lit = set(b.evaluate("(el) => [...el.querySelectorAll('polygon.gb-lit')].map(p => p.dataset.cell)"))
    assert lit == {"e2", "g2"}, lit  # the infantry an Order moves, not the feudal
    click_cell(b, "e2")
    click_cell(b, "e3")  # alone an infantryman may not take the knight; in the Order it waits for the second
    assert b.locator(".tf-move").count() == 0 and "click 3 of 4" in b.locator(".gb-message").inner_text()
    click_cell(b, "g2")
    click_cell(b, "g3")
    wait_text(b.locator(".gb-moves"), "order e2xe3 g2-g3")
    assert order.get_attribute("aria-pressed") == "false"  # the mode ends with the action
    # Evaluate runs the game's declared analysis agent and words its score; an agent's move shows its own value
    b.locator('.gb-btn[data-action="evaluate"]').click()  # its answer is the evaluation line, not the message
    page.wait_for_function("(el) => el.querySelector('.gb-eval').textContent.includes('material points')",
                           arg=b.element_handle(), timeout=30_000)
    said = b.locator(".gb-eval").inner_text()
    assert said.startswith("search:") and any(w in said for w in ("better by", "worse by", "level", "by force")), said
    b.locator(".gb-tools > summary").click()
    b.locator(".gb-seat").select_option("1")
    b.locator(".gb-spec").fill("search:depth=1,engine=python")  # an agent that reports its value
    changed(b, lambda: b.locator(".gb-btn", has_text="Set agent").click())
    page.wait_for_function("(el) => el.querySelectorAll('.tf-move').length === 2", arg=b.element_handle(), timeout=30_000)
    assert b.locator(".tf-move").nth(1).locator(".gb-score").inner_text().strip().startswith("~")
    changed(b, lambda: b.locator(".gb-btn", has_text="Human").click())
    b.locator(".gb-tools > summary").click()


DRAWN = """(el) => {
  const all = (sel) => [...el.querySelectorAll(sel)].filter((n) => !n.classList.contains("gb-preview-death"))
    .map((n) => n.outerHTML).sort();
  const html = (sel) => el.querySelector(sel).innerHTML;
  return [all(".gb-layer-cells > polygon"), all(".gb-layer-pieces > *"), all(".gb-layer-marks > *"),
    all(".gb-layer-over > *"), all(".gb-layer-heat > *"), all(".gb-layer-shapes > *"), html(".gb-moves"),
    html(".gb-legend-body"), html(".gb-buttons"), html(".gb-cards"), html(".gb-turn"), html(".gb-graph")];
}"""


@pytest.mark.parametrize("index", [ARMY, CLX])
def test_incremental_redraw_draws_what_a_fresh_draw_does(page, index: int) -> None:  # noqa: ANN001
    """The page redraws only the parts and pieces a view changed: after moves (captures, damage), an undo and a
    redo, the board and panel are exactly what a fresh draw of the same view gives (two flips rebuild it all)."""
    b = board(page, index)
    b.scroll_into_view_if_needed()
    for step in range(7):
        lit = b.locator("polygon.gb-lit")
        if step in (4, 5):
            changed(b, b.locator(f'.gb-btn[data-action="{"undo" if step == 4 else "redo"}"]').click)
        elif lit.count():
            target = lit.nth(step % lit.count())
            changed(b, lambda target=target: target.click(force=True))
        elif b.locator(".gb-choice").count():
            changed(b, b.locator(".gb-choice").first.click)
    page.mouse.move(0, 0)  # no hovered cell: a preview must not differ between the two draws
    page.wait_for_timeout(300)
    assert b.locator(".gb-move").count() >= 2
    before = page.evaluate(DRAWN, b.element_handle())
    flip = b.locator('.gb-btn[data-action="flip"]')
    flip.click()
    flip.click()
    after = page.evaluate(DRAWN, b.element_handle())
    for part, (x, y) in enumerate(zip(before, after, strict=True)):
        assert x == y, f"part {part} differs after a fresh draw"


def test_clicks_arrive_as_patches_and_a_lost_one_brings_the_whole_view(page) -> None:  # noqa: ANN001
    """A click's view arrives as a patch of the view the page holds (no whole view after the first); when the page's
    view is not the one a patch was made against (a lost message), it asks once for the whole view, which equals the
    view the patches had built, and the board drawn from it is what a fresh draw gives; then patches resume."""
    b = board(page, ARMY)
    b.scroll_into_view_if_needed()
    h = b.element_handle()
    stats = lambda: page.evaluate("(el) => el.gbPatchStats()", h)  # noqa: E731
    before = stats()
    for step in range(3):
        lit = b.locator("polygon.gb-lit")
        changed(b, lambda lit=lit, step=step: lit.nth(step % lit.count()).click(force=True))
    # the clicks may end with a piece selected; cancel it first (a patch too), so the lost Escape below changes only
    # the message, whichever cells the clicks hit
    seq = page.evaluate("(el) => el.gbView().seq", h)
    b.locator('.gb-btn[data-action="flip"]').focus()
    page.keyboard.press("Escape")
    page.wait_for_function("([el, s]) => el.gbView().seq > s", arg=[h, seq], timeout=45_000)
    after = stats()
    assert after["patches"] >= before["patches"] + 4 and after["fulls"] == before["fulls"] and after["asked"] == before["asked"]
    built = page.evaluate("(el) => el.gbView()", h)
    assert not built["targets"], "nothing is selected after a cancel"
    page.evaluate("(el) => el.gbForget()", h)
    b.locator('.gb-btn[data-action="flip"]').focus()
    page.keyboard.press("Escape")  # a cancel: its patch cannot apply to the forgotten view
    page.wait_for_function("([el, n]) => el.gbPatchStats().fulls > n && el.gbView().seq > 0", arg=[h, after["fulls"]],
                           timeout=45_000)
    whole = page.evaluate("(el) => el.gbView()", h)
    assert stats()["asked"] == after["asked"] + 1 and stats()["fulls"] == after["fulls"] + 1
    same = ("message", "level", "seq", "hover")  # what the Escape itself changed
    assert {k: v for k, v in whole.items() if k not in same} == {k: v for k, v in built.items() if k not in same}
    page.mouse.move(0, 0)
    page.wait_for_timeout(300)
    drawn = page.evaluate(DRAWN, h)
    flip = b.locator('.gb-btn[data-action="flip"]')
    flip.click()
    flip.click()
    assert page.evaluate(DRAWN, h) == drawn
    lit = b.locator("polygon.gb-lit")
    changed(b, lambda: lit.nth(0).click(force=True))
    resumed = stats()  # the click's patch, and a hover's when the pointer crosses a piece on the way
    assert resumed["patches"] >= after["patches"] + 1 and resumed["asked"] == after["asked"] + 1
    assert resumed["fulls"] == after["fulls"] + 1


def test_editor_places_units_with_hit_points_and_a_chosen_seats_piece_with_its_facing(page) -> None:  # noqa: ANN001
    """The editor for the games that declare pieces by position: The Cursed Lands' unit with its hit points (a void
    hex refused with the hex and the rule C2), and big chess's four seats (a seat select, a facing)."""
    b = board(page, CL)
    b.scroll_into_view_if_needed()
    changed(b, lambda: b.locator('button[data-action="edit"]').click())
    changed(b, lambda: b.locator('.gb-edit-piece[data-piece="S"]').click())
    changed(b, lambda: b.locator('.gb-edit-option[data-option="hp"]').select_option("2"))
    click_cell(b, "e5")
    said = b.locator(".gb-message").inner_text()
    assert "e5 is void" in said and "C2" in said and "gb-warn" in b.locator(".gb-message").get_attribute("class")
    changed(b, lambda: b.locator('.gb-edit-piece[data-piece=""]').click())
    click_cell(b, "e5")  # the refused unit off again
    changed(b, lambda: b.locator('.gb-edit-piece[data-piece="S"]').click())
    click_cell(b, "a2")  # the tile laid earlier: a unit with 2 hit points stands there
    assert "hp 2" in b.locator(".gb-message").inner_text()
    assert "2hp" in b.locator('.gb-piece[data-cell="a2"]').text_content()
    changed(b, lambda: b.locator('button[data-action="edit_cancel"]').click())
    s = board(page, BCS)
    s.scroll_into_view_if_needed()
    changed(s, lambda: s.locator('button[data-action="edit"]').click())
    s.locator(".gb-edit-seat").select_option("2")  # player c's cards
    assert set(s.evaluate("(el) => [...el.querySelectorAll('.gb-edit-piece')].map(p => p.dataset.owner)")) == {"2", "-1"}
    changed(s, lambda: s.locator('.gb-edit-piece[data-piece="c:infantry"]').click())
    changed(s, lambda: s.locator('.gb-edit-option[data-option="facing"]').select_option("E"))
    click_cell(s, "3,3")
    assert s.locator('.gb-piece[data-cell="3,3"]').get_attribute("data-owner") == "2"
    changed(s, lambda: s.locator('button[data-action="edit_done"]').click())
    wait_text(s.locator(".gb-message"), "edited position ready")


def test_old_board_defects_badges_explained_red_is_red_heat_scale_no_overlap_and_prices_diffed(page) -> None:  # noqa: ANN001
    """Defects of the old general board (issue 30's "Why"), each seen in the page: the legend explains the badges
    ("a5 d3 10¢"); Red's pieces are red, not cream; a heat layer has its scale; The Cursed Lands' badges do not
    overlap the pieces' letters; the rule diff compares prices (cost_knight: 30 → 50), not only legal actions."""
    b = board(page, POLE)
    b.scroll_into_view_if_needed()
    b.locator(".gb-legend summary").click()
    legend = b.locator(".gb-legend-body").text_content()
    assert "armour" in legend and "damage dealt" in legend and "coins" in legend, legend
    red = b.locator(".gb-legend-seat").nth(0).get_attribute("data-colour")
    r, g, bl = hex_rgb(red)
    assert r > 150 and g < 100 and bl < 100, red  # Red is red
    assert colour_pixels(b.locator(".gb-svgbox").screenshot(), (r, g, bl), 12) > 100  # and its pieces are drawn so
    b.locator(".gb-tools > summary").click()
    b.locator(".gb-heat").select_option("threat")  # the answer is the layer and its legend row, not a message
    page.wait_for_function("(el) => (el.querySelector('.gb-legend-heat') || {dataset: {}}).dataset.scale?.includes(',')",
                           arg=b.element_handle())
    scale = b.locator(".gb-legend-heat").text_content()
    assert "threat for Red" in scale and "…" in scale, scale
    b.locator(".gb-heat").select_option("")
    page.wait_for_function("(el) => !el.querySelector('.gb-legend-heat')", arg=b.element_handle())
    b.locator(".gb-tools > summary").click()
    b.locator(".gb-legend summary").click()
    x = board(page, CLX)
    x.scroll_into_view_if_needed()
    overlaps = x.evaluate("""(el) => [...el.querySelectorAll('.gb-piece')].filter(p => p.querySelector('.gb-badge')
        && p.querySelector('.gb-letter')).map(p => {
          const a = p.querySelector('.gb-badge').getBoundingClientRect(), b = p.querySelector('.gb-letter').getBoundingClientRect();
          return Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
        })""")
    assert overlaps and max(overlaps) < 1.0, overlaps
    c = board(page, BC2)
    c.scroll_into_view_if_needed()
    c.locator(".gb-tools > summary").click()
    c.locator(".gb-diffin").fill("cost_knight=50")
    changed(c, c.locator('.gb-btn[data-action="compare"]').click)
    page.wait_for_function("(el) => el.querySelector('.gb-outcome.gb-changed')", arg=c.element_handle())
    assert "price of Knight: 30 → 50" in c.locator(".gb-outcome.gb-changed").first.inner_text()
    c.locator(".gb-tools > summary").click()


@pytest.mark.parametrize("index", EVERY_GAME)
def test_every_game_coordinates_and_a_legend_entry_for_every_colour(page, index: int) -> None:  # noqa: ANN001
    b = board(page, index)
    b.scroll_into_view_if_needed()
    cells = b.locator("polygon.gb-cell").count()
    if cells:
        with_coords = b.locator(".gb-svgbox").screenshot()
        b.locator(".gb-coords-toggle").uncheck()
        without = b.locator(".gb-svgbox").screenshot()
        b.locator(".gb-coords-toggle").check()
        assert differing_pixels(with_coords, without) > cells * 3  # every cell's name is drawn, and visible
        assert b.locator(".gb-coord").count() == cells and b.locator(".gb-coord").first.is_visible()
    else:
        assert "|" in b.locator(".gb-observation").inner_text() or "." in b.locator(".gb-observation").inner_text()
    # the legend explains every colour drawn: each seat owning a piece and each terrain on the board
    b.locator(".gb-legend summary").click()
    legend = b.locator(".gb-legend")
    png = legend.screenshot()
    owners = set(b.evaluate("(el) => [...el.querySelectorAll('.gb-piece')].map(p => Number(p.dataset.owner))"))
    for o in owners:
        colour = b.locator(".gb-legend-seat").nth(o).get_attribute("data-colour")
        assert colour_pixels(png, hex_rgb(colour), 12) > 30, (index, o, colour)
    fills = set(b.evaluate("(el) => [...el.querySelectorAll('polygon.gb-cell')].map(p => p.style.fill).filter(Boolean)"))
    terrain = b.locator(".gb-legend-terrain")
    assert terrain.count() >= min(1, len(fills)) if index != TTT else True
    for k in range(terrain.count()):
        assert colour_pixels(png, hex_rgb(terrain.nth(k).get_attribute("data-colour")), 12) > 30
    b.locator(".gb-legend summary").click()


def test_every_game_panel_beside_the_board_at_900_and_800(page) -> None:  # noqa: ANN001
    """At 900 and 800 px the panel sits beside every game's board: status, message, Undo and the move list in sight
    (one resize per width for all the boards)."""
    for width in (900, 800):
        page.set_viewport_size({"width": width, "height": 900})
        try:
            for index in EVERY_GAME:
                b = board(page, index)
                assert_panel_beside(b, index, width)
                if width == 900:
                    shot(b, f"board-900-{index}")
        finally:
            page.set_viewport_size({"width": 1300, "height": 1100})


def assert_panel_beside(b, index: int, width: int) -> None:  # noqa: ANN001
    """The panel's status, message, Undo and move list are right of the board (a board of cells) or of the
    observation, and start above the board's bottom: in sight without scrolling past the board."""
    b.scroll_into_view_if_needed()
    board_box = b.locator(".gb-svgbox").bounding_box()
    for part in (".gb-status", ".gb-message", '.gb-btn[data-action="undo"]', ".gb-moves"):
        box = b.locator(part).bounding_box()
        if part == ".gb-status":  # the status line heads the board and the panel: above the board, never below
            assert box["y"] + box["height"] <= board_box["y"] + 5, (index, width, part, box, board_box)
            continue
        assert box["x"] >= board_box["x"] + board_box["width"] - 2, (index, width, part, box, board_box)
        assert box["y"] < board_box["y"] + max(board_box["height"], 200), (index, width, part)


def test_a_batch_game_on_the_board_by_its_picker_and_the_scenario_picker_with_verdicts(page, server) -> None:  # noqa: ANN001
    """Beyond an analysis board: a simulate batch's games in a picker (``Board.from_batch``), one stepped through
    with its events (the batch's path never reaches the page); and the scenario picker, each file with its
    checks' verdict."""
    from workbench.simulate.dataset import read_events

    b = board(page, BAT)
    b.scroll_into_view_if_needed()
    options = b.locator(".gb-batch option")
    assert options.count() == 3 and "plies" in options.nth(1).inner_text()
    gid = int(options.nth(1).get_attribute("value"))
    changed(b, lambda: b.locator(".gb-batch").select_option(str(gid)))
    wait_text(b.locator(".gb-message"), f"game {gid}")
    assert b.locator(".gb-current").count() == 0 and b.locator(".gb-future").count() > 0  # at its start
    assert str(server.batch.parent) not in b.inner_html()
    b.focus()
    changed(b, lambda: page.keyboard.press("ArrowRight"))
    events = read_events(server.batch)
    first = events[events["game_id"] == gid].sort_values("ply")["action"].iloc[0]
    assert b.locator(".gb-current .gb-move-text").inner_text().startswith(str(first)[:3])
    b.locator("button", has_text="List scenarios").click()
    page.wait_for_function("(el) => el.querySelectorAll('.gb-picker option').length > 10", arg=b.element_handle(),
                           timeout=60_000)
    verdicts = b.locator(".gb-picker").inner_text()
    assert "pass" in verdicts, verdicts[:300]


GAME_OF = {POLE: "pole", CL: "cursed-lands", BC4: "big-chess", BCS: "big-chess", TF: "terrafeud", TTT: "openspiel:tic_tac_toe"}
OPTION_OF = {CL: ("S", "hp"), BC4: ("a:infantry", "facing"), BCS: ("a:infantry", "facing"), TF: ("marker", "")}
NOTATION = {CL: ("factions=orcs/dwarves", "orcs/dwarves"), BC4: ("teams=ac/bd", "teams=ac,bd")}  # the game's own words


@pytest.mark.parametrize("index", EVERY_GAME)
def test_every_game_flip_evaluation_keys_editor_copy_paste_record_and_new_game(page, index: int) -> None:  # noqa: ANN001
    """The analysis board's features for each of the four games and tic-tac-toe, as a person sees them: Flip turns
    the drawing; an unlit cell's reason on hover; the evaluation bar and Evaluate speak the game's unit, Evaluate in words too; an agent's move,
    then ← and → step it back and forth; the editor's palette (with a seat select beyond two seats, and the
    settings a piece takes); the seat colours of the legend and of every drawn disc are the report's
    (``balance.palette.seat_colour``, one palette); the record downloaded, then uploaded back through the file input
    and replayed; Export SVG (parsed: its cells and its own style) and Export PNG (1200 px, not blank); Copy position
    then Paste; a new game from the game's own notation, said in the info colour, not error red."""
    import json

    from workbench.games import get

    b = board(page, index)
    b.scroll_into_view_if_needed()
    unit = get(GAME_OF[index]).evaluation_unit
    assert unit in b.locator(".gb-evaltext").inner_text()
    # whose view the bar is: the first seat's (with its team); its other side in the opposing team's colour
    assert "'s view" in (b.locator(".gb-evaltext").get_attribute("title") or "")
    if index == BC4:  # classic-4: teams ab and cd
        assert b.locator(".gb-evaltext").get_attribute("title") == "player a's view (team a & b)"
        seat_c = b.evaluate("(el) => el.querySelectorAll('.gb-legend-seat')[2].dataset.colour").lstrip("#")
        bar = b.evaluate("(el) => getComputedStyle(el.querySelector('.gb-evalbar')).backgroundColor")
        assert bar == "rgb({}, {}, {})".format(*(int(seat_c[i:i + 2], 16) for i in (0, 2, 4))), (bar, seat_c)
    cells = b.locator("polygon.gb-cell").count()
    if cells:
        before = b.locator(".gb-svgbox").screenshot()
        b.locator('.gb-btn[data-action="flip"]').click()
        assert differing_pixels(before, b.locator(".gb-svgbox").screenshot()) > cells * 3
        b.locator('.gb-btn[data-action="flip"]').click()
        # the reason for an unlit cell, on hover, with nothing selected (the old board said it only after a selection)
        unlit = b.evaluate("(el) => [...el.querySelectorAll('polygon.gb-cell:not(.gb-lit)')].map(p => p.dataset.cell)")
        b.locator(f'polygon[data-cell="{unlit[-1]}"]').hover(force=True)
        page.wait_for_function("([el, c]) => el.querySelector('.gb-hover').textContent.includes(c)",
                               arg=[b.element_handle(), unlit[-1]])
    # seat colours: the legend's and every drawn disc's (its rendered fill) are the report's (one palette source)
    from workbench.balance.palette import seat_colour

    seats = b.evaluate("(el) => [...el.querySelectorAll('.gb-legend-seat')].map(s => [s.textContent, s.dataset.colour])")
    labels = [text.split(" (team ")[0].split(" — ")[0] for text, _ in seats]
    assert seats and [colour for _, colour in seats] == [seat_colour(i, labels) for i in range(len(labels))], seats
    drawn = b.evaluate("(el) => [...el.querySelectorAll('.gb-piece')].map(g => [g.dataset.owner, "
                       "getComputedStyle(g.querySelector('.gb-disc')).fill])")
    for owner, fill in drawn:
        if int(owner) >= 0:
            assert fill == "rgb({}, {}, {})".format(*hex_rgb(seat_colour(int(owner), labels))), (owner, fill)
    b.locator('.gb-btn[data-action="evaluate"]').click()
    page.wait_for_function("([el, u]) => el.querySelector('.gb-eval').textContent.includes(u)", arg=[b.element_handle(), unit],
                           timeout=30_000)
    said = b.locator(".gb-eval").inner_text()
    assert any(w in said for w in ("better by", "worse by", "level", "by force")), said
    moves = b.locator(".gb-move").count()
    changed(b, b.locator('.gb-btn[data-action="agent_move"]').click)
    page.wait_for_function("([el, n]) => el.querySelectorAll('.gb-move').length > n", arg=[b.element_handle(), moves],
                           timeout=45_000)
    b.focus()
    changed(b, lambda: page.keyboard.press("ArrowLeft"))
    page.wait_for_function("(el) => el.querySelectorAll('.gb-future').length >= 1", arg=b.element_handle())
    changed(b, lambda: page.keyboard.press("ArrowRight"))
    page.wait_for_function("(el) => el.querySelectorAll('.gb-future').length === 0", arg=b.element_handle())
    if index in OPTION_OF:
        code, option = OPTION_OF[index]
        changed(b, lambda: b.locator('button[data-action="edit"]').click())
        owners = set(b.evaluate("(el) => [...el.querySelectorAll('.gb-edit-piece')].map(p => p.dataset.owner)")) - {"-1"}
        assert b.locator(".gb-edit-seat").count() == (1 if index in (BC4, BCS) else 0), owners  # four seats: pick whose
        if index in (BC4, BCS):
            b.locator(".gb-edit-seat").select_option("0")
        changed(b, lambda: b.locator(f'.gb-edit-piece[data-piece="{code}"]').click())
        if option:
            assert b.locator(f'.gb-edit-option[data-option="{option}"]').count() == 1
        changed(b, lambda: b.locator('button[data-action="edit_cancel"]').click())
        assert b.locator(".gb-edit-piece").count() == 0
    b.locator(".gb-tools > summary").click()
    with page.expect_download() as record:
        b.locator('.gb-btn[data-action="download"]').first.click()
    saved = json.loads(Path(record.value.path()).read_text())
    assert saved["game"] == GAME_OF[index] and saved["actions"]  # the agent's move at least
    # the record uploaded back through the file input is replayed: a new tree with every move again
    played = b.locator(".gb-move").count()
    b.locator(".gb-upload-kind").select_option("record")
    b.locator(".gb-upload").set_input_files(record.value.path())
    wait_text(b.locator(".gb-message"), f"{len(saved['actions'])} actions loaded")
    assert "gb-info" in b.locator(".gb-message").get_attribute("class")
    assert b.locator(".gb-move").count() == played > moves
    assert b.locator(".gb-gpoint").count() == (played if played >= 2 else 0)  # each move's evaluation on the graph
    # Export SVG (the drawing with its own style) and Export PNG (a 1200-pixel picture of it), made in the page
    import io
    import xml.etree.ElementTree as ET

    from PIL import Image

    with page.expect_download() as svg_file:
        b.locator('.gb-btn[data-action="export-svg"]').click()
    tree = ET.fromstring(Path(svg_file.value.path()).read_text())
    assert tree.tag.endswith("svg") and len(tree.findall(".//{http://www.w3.org/2000/svg}polygon")) >= cells
    assert tree.find("{http://www.w3.org/2000/svg}style") is not None
    with page.expect_download() as png_file:
        b.locator('.gb-btn[data-action="export-png"]').click()
    picture = Image.open(io.BytesIO(Path(png_file.value.path()).read_bytes()))
    assert picture.format == "PNG" and picture.width == 1200
    if cells:  # the drawn board, not a blank canvas
        assert picture.convert("RGB").getcolors(3) is None  # more than 3 colours
    else:  # a game without cells exports its observation text, every row of it, not a blank canvas
        rows = [r for r in b.locator(".gb-observation").inner_text().splitlines() if r.strip()]
        drawn = [t.text or "" for t in tree.iter("{http://www.w3.org/2000/svg}text")]
        assert rows and all(r in drawn for r in rows), (rows, drawn)
        assert len(picture.convert("RGB").getcolors(1 << 16) or []) > 1, "a blank picture"
        import numpy as np

        dark = int((np.asarray(picture.convert("L")) < 80).sum())
        assert dark > 500, dark  # its rows drawn in dark text on the white ground
    changed(b, lambda: b.locator('.gb-btn[data-action="copy"]', has_text="Copy position").click())
    page.wait_for_function("(el) => el.querySelector('.gb-clip').value.startsWith('{')", arg=b.element_handle())
    changed(b, lambda: b.locator('.gb-btn[data-action="paste"]').click())
    wait_text(b.locator(".gb-message"), "pasted position")
    typed, seen = NOTATION.get(index, ("", ""))
    b.locator(".gb-rules").fill(typed)
    changed(b, lambda: b.locator('.gb-btn[data-action="new_game"]').click())
    wait_text(b.locator(".gb-message"), "new game")
    assert "gb-info" in b.locator(".gb-message").get_attribute("class") and seen in b.locator(".gb-message").inner_text()
    b.locator(".gb-tools > summary").click()


ROOT = Path(__file__).resolve().parents[2]
# per game with cells: a scenario uploaded through the page, the piece clicked (a selection, never a move), the lit
# target hovered, and what its preview must say and mark (the game's own preview text, its odds or its deaths)
PREVIEW = {
    POLE: ("pole/catapult-dead-two.yaml", "e5", "a5", "26/36", "odds"),
    CLX: ("cursed-lands/combat-ranged.yaml", "d2", "f2", "is destroyed", "death"),
    BC2: ("big-chess/bc-26-area-take.yaml", "3,3", "4,4", "3,3x4,4", "death"),
    TF: ("terrafeud/rulebook/coordinated-attack-kills-feudal.yaml", "e3", "e4", "dies (coordinated attack)", "death"),
}
# per game: a piece of the PREVIEW scenario that other pieces attack (its hover draws their lines)
ATTACKED = {POLE: "e9", CLX: "f2", BC2: "4,4", TF: "d4"}
DEBUG = "(el) => [el.querySelector('.gb-tools').open, el.querySelector('.gb-upload-kind').value]"
GAME_AT = {POLE: "pole", CLX: "cursed-lands", BC2: "big-chess", TF: "terrafeud", TTT: "openspiel:tic_tac_toe"}


def test_hover_previews_and_attacker_lines_for_every_game(page) -> None:  # noqa: ANN001
    """Hover previews of what an action does, for each game with cells: a scenario uploaded, a piece selected (no
    move played), a lit target hovered; the hover line says the game's preview (odds without claiming the result,
    or the deaths) and the board marks it (the odds figure, or a death ring on each cell the action removes).
    Attacker lines (``State.attack_lines``) are drawn where a game declares them, and by no game that declares none,
    even in a position with attacks (tic-tac-toe included)."""
    from workbench.core.protocol import State
    from workbench.games import get

    for index, game in GAME_AT.items():
        b = board(page, index)
        b.scroll_into_view_if_needed()
        if index in PREVIEW:
            path, piece, target, words, mark = PREVIEW[index]
            b.locator(".gb-tools > summary").click()
            b.locator(".gb-upload-kind").select_option("scenario")
            # (a board may hold this scenario already; the page's messages reach the kernel in order, so the
            # clicks below act on the uploaded position)
            b.locator(".gb-upload").set_input_files(str(ROOT / "scenarios" / path))
            try:
                wait_text(b.locator(".gb-message"), Path(path).name, timeout=45_000)
            except Exception:  # playwright's TimeoutError: say what the board said instead
                pytest.fail(f"{game}: {path} not loaded; the board says {b.locator('.gb-message').inner_text()!r} "
                            f"{b.evaluate(DEBUG)} {page.errors}")
            b.locator(".gb-tools > summary").click()
            moves = b.locator(".gb-move").count()
            click_cell(b, piece)
            page.wait_for_function("([el, c]) => el.querySelector(`polygon.gb-lit[data-cell='${c}']`)",
                                   arg=[b.element_handle(), target])
            b.locator(f'polygon[data-cell="{target}"]').hover(force=True)
            page.wait_for_function("([el, w]) => el.querySelector('.gb-hover').textContent.includes(w)",
                                   arg=[b.element_handle(), words])
            assert b.locator(".gb-move").count() == moves  # the click selected, the hover previewed: nothing played
            if mark == "odds":  # the probability on the target, never the strike of a certain removal
                assert b.locator(f'.gb-odds[data-odds-for="{target}"]').count() >= 1
                assert b.locator(".gb-preview-death").count() == 0
            else:
                dead = set(b.evaluate("(el) => [...el.querySelectorAll('.gb-preview-death')].map(c => c.dataset.cell)"))
                assert dead and (target in dead or index == TF), (index, dead)
                if index == TF:  # the coordinated attack's victims: its own infantryman and the black feudal
                    assert dead == {"c3", "d4"}, dead
            if index == CLX:  # an attack its target survives: the hit points it would lose, written over it
                click_cell(b, "e2")
                page.wait_for_function("(el) => el.querySelector(`polygon.gb-lit[data-cell='f2']`) && "
                                       "el.querySelector('.gb-selected, .gb-sel')", arg=b.element_handle())
                b.locator('polygon[data-cell="f2"]').hover(force=True)
                page.wait_for_function("(el) => el.querySelector('.gb-preview-damage[data-cell=\"f2\"]')",
                                       arg=b.element_handle())
                assert b.locator('.gb-preview-damage[data-cell="f2"]').get_attribute("data-damage") == "2"
                assert "takes 2 damage" in b.locator(".gb-hover").inner_text()
                assert b.locator(".gb-move").count() == moves
        state = get(game).new_initial_state()
        drawn = b.evaluate("(el) => [...el.querySelectorAll('.gb-attacker-line')].map(l => [l.dataset.from, l.dataset.to])")
        if type(state).attack_lines is State.attack_lines:  # declares none: draws none
            assert drawn == [], (game, drawn)
        else:  # declares them: the attackers of the game's key piece here, as the game computes them
            from workbench.widget.board_controller import GameBoardController

            ref = GameBoardController(get(game))
            ref.load_scenario_file(ROOT / "scenarios" / PREVIEW[index][0])
            view = ref.view()
            assert sorted(map(tuple, drawn)) == sorted((a, b) for a, b, _s in view["attack_lines"]), (game, drawn)
            if index == TF:  # the threatened feudal on d4 and its attackers
                assert sorted(map(tuple, drawn)) == [("c3", "d4"), ("e3", "d4")], (game, drawn)
            # hovering a piece draws a line from each of its attackers (State.attackers, every seat's), no more
            cell = ATTACKED[index]
            b.locator(f'polygon[data-cell="{cell}"]').hover(force=True)
            want = sorted((a, cell, seat) for a, seat in view["attackers"][cell])
            page.wait_for_function("([el, n]) => el.querySelectorAll('.gb-hover-attacker').length === n",
                                   arg=[b.element_handle(), len(want)])
            lines = b.evaluate("(el) => [...el.querySelectorAll('.gb-hover-attacker')].map(l => [l.dataset.from, "
                               "l.dataset.to, l.dataset.seat])")
            assert sorted(map(tuple, lines)) == want, (game, lines)
            assert b.locator(".gb-legend-attackers").count() == 1
            b.locator(".gb-hover").hover()  # the pointer off the board: the lines go
            page.wait_for_function("(el) => !el.querySelector('.gb-hover-attacker')", arg=b.element_handle())


THEMED = """(el) => {
  const cs = (n) => n ? getComputedStyle(n) : null;
  const root = cs(el), status = cs(el.querySelector(".gb-status")), cell = cs(el.querySelector("polygon.gb-cell"));
  return [root.backgroundColor, root.color, status.color, cell ? cell.stroke : ""];
}"""


def luminance(colour: str) -> float:
    r, g, b = (int(v) / 255 for v in colour[colour.index("(") + 1:colour.index(")")].split(",")[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_dark_theme_text_at_wcag_aa_contrast(browser, server: NotebookServer, page) -> None:  # noqa: ANN001
    """Voila's JupyterLab Dark theme (``?theme=dark``): every game's board follows it (its ground, text and cell
    lines read from the page differ from the Light page's, the ground darker, the text lighter), and its text
    keeps WCAG AA contrast, measured on screenshot pixels."""
    light = {i: board(page, i).evaluate(THEMED) for i in EVERY_GAME}
    pg = ready(browser, server, 1300, query="?theme=dark")
    try:
        assert pg.evaluate("() => document.body.dataset.jpThemeLight") == "false"  # JupyterLab Dark is on
        b = board(pg, POLE)
        b.scroll_into_view_if_needed()
        click_cell(b, "j10")  # a refused click: the message in the warning style
        for part in (".gb-status", ".gb-message", ".gb-title", '.gb-btn[data-action="evaluate"]'):
            ratio = contrast_of(b.locator(part).first.screenshot())
            assert ratio >= 4.5, (part, ratio)
        shot(b, "pole-dark")
        for index in EVERY_GAME:  # every game's status line, title and buttons in Dark, as measured for Pole
            g = board(pg, index)
            g.scroll_into_view_if_needed()
            dark = g.evaluate(THEMED)  # the board follows the theme: ground, text, status and cell lines change
            assert all(a != b for a, b in zip(light[index], dark, strict=True) if a), (index, light[index], dark)
            assert luminance(dark[0]) < 0.3 < luminance(light[index][0]), (index, light[index][0], dark[0])
            assert luminance(dark[1]) > 0.5 > luminance(light[index][1]), (index, light[index][1], dark[1])
            for part in (".gb-status", ".gb-title", '.gb-btn[data-action="evaluate"]'):  # (a disabled Undo is exempt)
                ratio = contrast_of(g.locator(part).first.screenshot())
                assert ratio >= 4.5, (index, part, ratio)
            # every text the board draws, as computed by the page: an agent's move in the list, a refused click,
            # choices offered, the editor's palette
            changed(g, g.locator('.gb-btn[data-action="agent_move"]').click)
            pg.wait_for_function("(el) => el.querySelectorAll('.gb-move').length > 0", arg=g.element_handle(), timeout=45_000)
            kinds = measure_every_state(g, f"Voila Dark, board {index}")
            assert {"gb-status", "gb-message", "gb-legend-row", "gb-move-text"} <= kinds, (index, kinds)
        for width in (900, 800):  # the panel beside every board in Dark too (one resize per width)
            pg.set_viewport_size({"width": width, "height": 900})
            for index in EVERY_GAME:
                assert_panel_beside(board(pg, index), index, width)
        assert not pg.blocked and not pg.errors, (pg.blocked, pg.errors)
    finally:
        pg.close()


LAB_BOARDS = """
from workbench.widget import Board
from IPython.display import display
for name in ("pole", "cursed-lands", "big-chess", "terrafeud", "openspiel:tic_tac_toe"):
    display(Board(name, seed=0))
"""


def test_jupyterlab_light_dark_switch_every_game_follows(browser, tmp_path: Path) -> None:  # noqa: ANN001
    """JupyterLab's own theme switch (Settings > Theme), live in one page: each game's board (the four and
    tic-tac-toe) changes its ground, text, status and cell lines with it, dark ground and light text in Dark."""
    srv = NotebookServer(write_notebook(tmp_path / "lab.ipynb", LAB_BOARDS), tmp_path, app="lab")
    srv.start()
    pg = open_page(browser, srv, 1300, 1000)
    try:
        pg.wait_for_selector("text=Python 3 (ipykernel) | Idle", timeout=60_000)
        pg.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        pg.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        try:
            pg.wait_for_function("() => document.querySelectorAll('.gb-root .gb-status').length === 5 && "
                                 "[...document.querySelectorAll('.gb-root .gb-status')].every(s => s.textContent)",
                                 timeout=90_000)
        except Exception:  # playwright's TimeoutError: say what the page and the server saw
            pytest.fail(f"the boards never rendered in JupyterLab; page errors {pg.errors}\n{srv.log()}")
        assert pg.evaluate("() => document.body.dataset.jpThemeLight") == "true"
        roots = pg.locator(".gb-root")
        light = [roots.nth(i).evaluate(THEMED) for i in range(5)]
        for i in range(5):  # every text of every board at WCAG AA in JupyterLab Light
            roots.nth(i).scroll_into_view_if_needed()
            assert_aa(roots.nth(i), f"JupyterLab Light, board {i}")
        pg.locator(".lm-MenuBar-itemLabel", has_text="Settings").first.click()
        pg.locator(".lm-Menu-itemLabel", has_text="Theme").first.hover()
        pg.locator(".lm-Menu-itemLabel", has_text="JupyterLab Dark").first.click()
        pg.wait_for_function("() => document.body.dataset.jpThemeLight === 'false'", timeout=30_000)
        pg.wait_for_function(f"() => getComputedStyle(document.querySelector('.gb-root')).backgroundColor !== {light[0][0]!r}",
                             timeout=30_000)
        for i in range(5):
            dark = roots.nth(i).evaluate(THEMED)
            assert all(a != b for a, b in zip(light[i], dark, strict=True) if a), (i, light[i], dark)
            assert luminance(dark[0]) < 0.3 < luminance(light[i][0]), (i, light[i][0], dark[0])
            assert luminance(dark[1]) > 0.5 > luminance(light[i][1]), (i, light[i][1], dark[1])
            roots.nth(i).scroll_into_view_if_needed()
            assert_aa(roots.nth(i), f"JupyterLab Dark, board {i}")  # and every text at WCAG AA
        # an 800 px window (the notebook leaves each board ~500 px): the panel's status, message and moves beside
        # or above each board, never below it; a click on TerraFeud's knight reaches the kernel and plays it
        pg.set_viewport_size({"width": 800, "height": 900})
        pg.wait_for_timeout(300)
        for i in range(5):
            r = roots.nth(i)
            r.scroll_into_view_if_needed()
            board_box = r.locator(".gb-svgbox").bounding_box()
            for part in (".gb-status", ".gb-message", ".gb-moves"):
                box = r.locator(part).bounding_box()
                beside = box["x"] >= board_box["x"] + board_box["width"] - 5
                above = box["y"] + box["height"] <= board_box["y"] + 5
                assert beside or above, (i, part, box, board_box)
        tf = roots.nth(3)
        tf.scroll_into_view_if_needed()
        changed(tf, lambda: tf.locator('polygon.tf-hex[data-hex="f3"]').click())
        tf.locator('.tf-target[data-hex="f5"][data-target="move"]').wait_for()
        changed(tf, lambda: tf.locator('polygon.tf-hex[data-hex="f5"]').click())
        tf.locator('.tf-piece[data-hex="f5"][data-piece="K"]').wait_for()
        assert tf.locator(".tf-moves .tf-move-text").all_inner_texts() == ["f3-f5"]
        assert_aa(tf, "JupyterLab Dark at 800 px, after a move")
        assert not pg.errors, pg.errors
        assert not [u for kind, u in pg.blocked if kind not in ("stylesheet", "font", "image")], pg.blocked
    finally:
        pg.close()
        srv.stop()


# ------------------------------------------------------------------ checks ported from TerraFeud's own suites, every game
# (tests/games/terrafeud/test_hexboard_browser.py and test_board_ported_browser.py, folded in here: what they checked of
# the board now runs for every game where the game's declarations say it applies; TerraFeud's own rules stay below)


def tools_open(b, on: bool = True) -> None:  # noqa: ANN001
    """Open (or close) the panel's tools (new game, agents, heat, diff, scenarios, files)."""
    t = b.locator("details.gb-tools")
    if t.evaluate("e => e.open") != on:
        t.locator("> summary").click()


def position(b, game: str):  # noqa: ANN001, ANN201
    """The board's position as the game reads it: the page's Copy position, read back by ``state_from_dict``."""
    import json

    from workbench.games import get

    tools_open(b)
    clip = b.locator(".gb-clip")
    clip.fill("")
    b.locator('.gb-btn[data-action="copy"]', has_text="Copy position").click()
    b.page.wait_for_function("(el) => el.querySelector('.gb-clip').value.startsWith('{')", arg=b.element_handle(),
                             timeout=30_000)
    text = clip.input_value()
    tools_open(b, False)
    return get(game).state_from_dict(json.loads(text))


def click_plan(state, game: str, avoid: tuple[str, ...] = (), avoid_cells: tuple[str, ...] = ()  # noqa: ANN001
               ) -> tuple[str, list[str], str]:
    """How a person plays some legal action here, from the game's own ``action_cells``: ("pair", [piece, target],
    text) for a piece then its destination (the first click only selects); ("cell", [cell], text) for a cell that
    offers a choice (cards, facings); ("button", [], text) for an action without cells (a choice button)."""
    from collections import Counter

    from workbench.games import get

    g = get(game)
    names = {c.id: c.name for c in g.state_layout(state).cells}
    acts = [(tuple(state.action_cells(a)), state.action_to_string(a)) for a in state.legal_actions()]
    acts = [(c, t) for c, t in acts if t not in avoid and not (c and names[c[0]] in avoid_cells)]
    singles = {c[0] for c, _ in acts if len(c) == 1}
    pairs = Counter(c[:2] for c, _ in acts if len(c) >= 2)
    for c, t in acts:
        if len(c) == 2 and pairs[c] == 1 and c[0] not in singles:
            return "pair", [names[c[0]], names[c[1]]], t
    starts = Counter(c[0] for c, _ in acts if c)
    for c, t in acts:
        if len(c) == 1 and starts[c[0]] > 1:
            return "cell", [names[c[0]]], t
    for c, t in acts:
        if not c:
            return "button", [], t
    raise AssertionError(f"{game}: no action a person can click here")


def moves_of(b) -> int:  # noqa: ANN001
    return b.locator(".gb-move").count()


def play_planned(b, plan: tuple[str, list[str], str]) -> str:  # noqa: ANN001
    """Play a ``click_plan`` by clicks (a pair: piece, then target; a cell: it, then its first card or choice); the
    move list's text of what was played."""
    kind, cells, text = plan
    n = moves_of(b)
    if kind == "pair":
        click_cell(b, cells[0])
        click_cell(b, cells[1])
    elif kind == "button":
        changed(b, b.locator(f'.gb-choice[data-text="{text}"]').first.click)
    else:
        click_cell(b, cells[0])
        for _ in range(4):  # a card, then maybe its facing
            if moves_of(b) > n:
                break
            offer = b.locator(".gb-card, .gb-choice")
            changed(b, offer.first.click)
    b.page.wait_for_function("([el, n]) => el.querySelectorAll('.gb-move').length > n", arg=[b.element_handle(), n])
    return b.locator(".gb-current .gb-move-text").inner_text()


def drag(page, b, a: str, c: str, button: str = "left") -> None:  # noqa: ANN001
    """Press on cell ``a``, move to cell ``c`` in steps, release (a right-drag draws an arrow)."""
    p, q = (b.locator(f'polygon.gb-cell[data-cell="{n}"]') for n in (a, c))
    p.scroll_into_view_if_needed()
    pa, pc = p.bounding_box(), q.bounding_box()
    page.mouse.move(pa["x"] + pa["width"] / 2, pa["y"] + pa["height"] / 2)
    page.mouse.down(button=button)
    page.mouse.move(pc["x"] + pc["width"] / 2, pc["y"] + pc["height"] / 2, steps=6)
    page.mouse.up(button=button)


@pytest.mark.parametrize("index", EVERY_GAME)
def test_every_game_clicks_drag_escape_move_list_keys_variation_arrow_and_scaling(page, index: int) -> None:  # noqa: ANN001
    """What TerraFeud's suites checked on its knight, for every game, on an action the game's ``action_cells`` say
    is clicked: a piece's first click selects it (nothing played, its target lit), Esc clears the selection and so
    does a second click on it, dragging the piece to its target plays it (a cell that offers cards shows them
    instead, Esc clears them; a game without cells plays by its choice buttons); the played move is named in the
    list and its cells marked as the last move; a click on a move in the list goes back to it ("after ..."), → plays
    it again ("redone ..."), three fast ← land three moves back and End at the end; another action there starts a
    variation that Promote makes the main line; a right-drag draws an arrow; the board scales with the page."""
    game = GAME_OF[index]
    b = board(page, index)
    b.scroll_into_view_if_needed()
    tools_open(b)
    b.locator(".gb-rules").fill("")
    changed(b, b.locator('.gb-btn[data-action="new_game"]').click)  # a fresh start of this game (its rules kept)
    tools_open(b, False)
    cells = b.locator("polygon.gb-cell").count()
    first = click_plan(position(b, game), game)
    kind, at, text = first
    n = moves_of(b)
    if kind == "pair":
        click_cell(b, at[0])
        assert b.locator(f'polygon.gb-sel[data-cell="{at[0]}"]').count() == 1 and moves_of(b) == n
        assert b.locator(f'polygon.gb-lit[data-cell="{at[1]}"]').count() == 1, (game, at)
        b.focus()
        changed(b, lambda: page.keyboard.press("Escape"))
        assert b.locator("polygon.gb-sel").count() == 0
        click_cell(b, at[0])
        click_cell(b, at[0])  # the selected cell clicked again: the selection ends
        assert b.locator("polygon.gb-sel").count() == 0 and "selection cleared" in b.locator(".gb-message").inner_text()
        changed(b, lambda: drag(page, b, at[0], at[1]))  # the piece dragged to its target plays it
        page.wait_for_function("([el, n]) => el.querySelectorAll('.gb-move').length > n", arg=[b.element_handle(), n])
        assert b.locator(".gb-lastline").count() == 1  # the last move's line from its piece to its target
    elif kind == "cell":
        click_cell(b, at[0])
        assert b.locator(".gb-card, .gb-choice").count() >= 2 and moves_of(b) == n, game  # the cell offers choices
        b.focus()
        changed(b, lambda: page.keyboard.press("Escape"))
        assert b.locator(".gb-card").count() == 0 and moves_of(b) == n
        play_planned(b, first)
    else:
        play_planned(b, first)
    assert text in b.locator(".gb-move-text").nth(n).inner_text() or kind == "cell", (game, text)
    if cells:
        assert b.locator(".gb-lastcell").count() >= 1  # its cells marked as the last move
    second = click_plan(position(b, game), game)
    played = play_planned(b, second)
    play_planned(b, click_plan(position(b, game), game))
    total = moves_of(b)
    # the move list: a click on the first move goes back to it; → plays the next again
    changed(b, b.locator(".gb-move").first.click)
    assert "after " in b.locator(".gb-message").inner_text() and b.locator(".gb-future").count() == total - 1
    b.focus()
    changed(b, lambda: page.keyboard.press("ArrowRight"))
    assert "redone" in b.locator(".gb-message").inner_text()
    changed(b, lambda: page.keyboard.press("End"))
    for _ in range(3):  # keys queue: three fast ← land three moves back
        page.keyboard.press("ArrowLeft")
    page.wait_for_function("([el, n]) => el.querySelectorAll('.gb-future').length === n", arg=[b.element_handle(), 3])
    assert "undone" in b.locator(".gb-message").inner_text()
    changed(b, lambda: page.keyboard.press("End"))
    page.wait_for_function("(el) => el.querySelectorAll('.gb-future').length === 0", arg=b.element_handle())
    # a variation: back to the first move, another action than the main line's second; Promote makes it the main line
    changed(b, b.locator(".gb-move").first.click)
    other = click_plan(position(b, game), game, avoid=(second[2], played),
                       avoid_cells=tuple(second[1][:1]) if second[0] == "cell" else ())
    branch = play_planned(b, other)
    variation = b.locator(".gb-variation")
    page.wait_for_function("(el) => el.querySelector('.gb-variation')", arg=b.element_handle())
    main = " ".join(b.locator(".gb-turnrow:not(.gb-variation)").all_inner_texts())
    assert played in main and branch in variation.first.inner_text(), (game, main, played, branch)
    changed(b, b.locator('.gb-btn[data-action="promote"]').click)
    page.wait_for_function("([el, t, u]) => [...el.querySelectorAll('.gb-turnrow:not(.gb-variation)')].some(r => "
                           "r.textContent.includes(t)) && [...el.querySelectorAll('.gb-variation')].some(r => r.textContent.includes(u))",
                           arg=[b.element_handle(), branch, played])
    if cells:  # a right-drag draws an arrow; the board scales with the page
        names = b.evaluate("(el) => [...el.querySelectorAll('polygon.gb-cell')].map(p => p.dataset.cell)")
        arrows = b.locator(".gb-arrow").count()
        drag(page, b, names[0], names[len(names) // 2], button="right")
        page.wait_for_function("([el, n]) => el.querySelectorAll('.gb-arrow').length > n", arg=[b.element_handle(), arrows])
        wide = b.locator(".gb-svgbox").bounding_box()["width"]
        page.set_viewport_size({"width": 700, "height": 1100})
        try:
            page.wait_for_function("([el, w]) => el.querySelector('.gb-svgbox').getBoundingClientRect().width < w",
                                   arg=[b.element_handle(), wide])
        finally:
            page.set_viewport_size({"width": 1300, "height": 1100})


ALWAYS_DRAWN = ("root", "svg", "cell", "coord", "status", "message", "moves", "undo", "legend")  # parts on every board


@pytest.mark.parametrize("index", EVERY_GAME)
def test_every_game_message_levels_agent_side_heat_rules_fresh_seed_editor_and_older_names(page, index: int) -> None:  # noqa: ANN001
    """What TerraFeud's suites checked of its panel, for every game: a refused click is said in the warning style and
    an agent's move in the info style (different grounds); an agent set on the first seat plays it ("played"), and a
    person left with the second seat of two sees the board turned to their side until "Human" gives the seat back
    ("people move every seat"); each heat layer a game declares is drawn with its name in the legend; the new-game
    panel offers every rule of the game's spec set to the rules in play, and two new games without a seed get fresh
    seeds; the legend names every seat; the editor (where the game declares pieces) erases a piece, Cancel restores
    it, Clear empties the board; Download scenario (where the game writes scenarios) gives a file with its checks;
    and the older class names a game declares (``GameDef.board_aliases``) are on its board."""
    from workbench.core.protocol import GameDef
    from workbench.games import get

    g = get(GAME_OF[index])
    b = board(page, index)
    b.scroll_into_view_if_needed()
    state = position(b, GAME_OF[index])
    labels = list(g.state_info(state).labels)
    root_classes = (b.get_attribute("class") or "").split()
    for part, cls in g.board_aliases.items():  # the older names of the parts every board draws
        if part in ALWAYS_DRAWN and (part != "coord" or b.locator("polygon.gb-cell").count()):
            assert cls in root_classes if part == "root" else b.locator(f".{cls}").count() >= 1, (part, cls)
    from workbench.core.rulespec import format_value

    fields = [p for p in g.spec.params if p.kind != "path"]
    now = (g.state_rules(state) or g.rules()).to_dict()

    def valid(name: str, x: object) -> bool:
        try:
            g.spec.make({**now, name: x})
        except ValueError:  # a combination its rules refuse (big chess's army start on four seats)
            return False
        return True

    pick = next(((p, x) for p in fields if p.kind == "choice" for x in p.choices
                 if x != now.get(p.name, p.default) and valid(p.name, x)), None)
    if pick is not None:  # the rule diff: a declared rule set to another of its choices, the legal actions compared
        rule, value = pick[0], format_value(pick[1])
        tools_open(b)
        b.locator(".gb-diffin").fill(f"{rule.name}={value}")
        changed(b, b.locator('.gb-btn[data-action="compare"]').click)
        try:
            wait_text(b.locator(".gb-diff"), "legal actions", timeout=45_000)
        except BaseException:  # say what the board said instead
            pytest.fail(f"{g.name}: no diff; the board says {b.locator('.gb-message').inner_text()!r}")
        assert f"{rule.name}={value}" in b.locator(".gb-diff").inner_text()
        tools_open(b, False)
    cells = b.locator("polygon.gb-cell").count()
    warn_bg = None
    if cells:  # a refused click: the reason, in the warning style
        unlit = b.evaluate("(el) => [...el.querySelectorAll('polygon.gb-cell:not(.gb-lit)')].map(p => p.dataset.cell)")
        click_cell(b, unlit[-1])
        assert "gb-warn" in b.locator(".gb-message").get_attribute("class"), b.locator(".gb-message").inner_text()
        warn_bg = b.locator(".gb-message").evaluate("e => getComputedStyle(e).backgroundColor")
    tools_open(b)
    flips = cells and len(labels) == 2
    y0 = b.locator("polygon.gb-cell").first.bounding_box()["y"] if cells else 0
    b.locator(".gb-seat").select_option("0")
    b.locator(".gb-spec").fill("greedy")
    changed(b, lambda: b.locator(".gb-btn", has_text="Set agent").click())
    if state.current_player() == 0:
        wait_text(b.locator(".gb-message"), "played", timeout=45_000)
        assert "gb-warn" not in b.locator(".gb-message").get_attribute("class")
        if warn_bg is not None:
            assert b.locator(".gb-message").evaluate("e => getComputedStyle(e).backgroundColor") != warn_bg
    if flips:  # the person holds the second seat: their side at the bottom
        page.wait_for_function("(el) => el.classList.contains('gb-flipped')", arg=b.element_handle())
        assert b.locator("polygon.gb-cell").first.bounding_box()["y"] != y0
    page.wait_for_function("(el) => !el.querySelector('.gb-busy').textContent.trim()", arg=b.element_handle(),
                           timeout=45_000)  # the agent's turn done
    changed(b, lambda: b.locator(".gb-btn", has_text="Human").click())
    try:
        wait_text(b.locator(".gb-message"), "people move every seat", timeout=45_000)
    except Exception:  # playwright's TimeoutError: say what the board said instead
        pytest.fail(f"{g.name}: Human said {b.locator('.gb-message').inner_text()!r}")
    if flips:
        page.wait_for_function("(el) => !el.classList.contains('gb-flipped')", arg=b.element_handle())
    for layer in g.heat_layers[:2]:  # the declared heat layers, drawn with their name and scale in the legend
        b.locator(".gb-heat-seat").select_option("0")
        b.locator(".gb-heat").select_option(layer)
        page.wait_for_function("([el, l]) => (el.querySelector('.gb-legend-heat') || {textContent: ''}).textContent.includes(l)",
                               arg=[b.element_handle(), layer])
        scale = [float(x) for x in b.locator(".gb-legend-heat").get_attribute("data-scale").split(",")]
        if max(map(abs, scale)) > 0:  # a layer with values here draws its cells
            b.locator(".gb-heatcell").first.wait_for(state="attached")
    if g.heat_layers:
        b.locator(".gb-heat").select_option("")
        page.wait_for_function("(el) => !el.querySelector('.gb-legend-heat')", arg=b.element_handle())
    # every rule of the spec (but those naming a file), set to the rules in play
    b.locator("button.gb-rule-toggle").click()
    assert b.locator(".gb-rule-field").count() == len(fields), [p.name for p in fields]
    now = g.state_rules(state) or g.rules()
    for p in fields[:6]:
        value = now.to_dict().get(p.name, p.default)
        assert b.locator(f".gb-rule-{p.name}").input_value() == format_value(p.default if value is None else value), p.name
    b.locator("button.gb-rule-toggle").click()
    seeds = set()
    for _ in range(2):  # a new game without a seed rolls a fresh one
        changed(b, b.locator('.gb-btn[data-action="new_game"]').click)
        wait_text(b.locator(".gb-message"), "new game, seed")
        seeds.add(b.locator(".gb-message").inner_text().split("seed ")[1].split(",")[0])
    assert len(seeds) == 2, seeds
    if type(g).dump_scenario is not GameDef.dump_scenario:  # the position as a scenario file of the game
        with page.expect_download() as dl:
            b.locator('.gb-btn[data-action="download"]', has_text="Download scenario").click()
        text = Path(dl.value.path()).read_text(encoding="utf-8")
        assert "title:" in text and "checks:" in text, text[:200]
    tools_open(b, False)
    state = position(b, GAME_OF[index])  # the new game's seats
    b.locator(".gb-legend summary").click()
    legend = b.locator(".gb-legend").text_content()
    labels = list(g.state_info(state).labels)
    assert all(label in legend for label in labels) or not cells, (labels, legend[:300])
    b.locator(".gb-legend summary").click()
    if cells and g.edit_pieces(g.edit_form(state)):  # the editor: erase a piece, Cancel, Clear
        pieces = b.evaluate("(el) => [...el.querySelectorAll('.gb-piece')].map(p => p.dataset.cell)")
        changed(b, lambda: b.locator('button[data-action="edit"]').click())
        if pieces:
            changed(b, lambda: b.locator('.gb-edit-piece[data-piece=""]').click())
            for piece in pieces[:8]:  # the first the game lets the editor take off (a castle may stay: its rule)
                click_cell(b, piece)
                if b.locator(f'.gb-piece[data-cell="{piece}"]').count() == 0:
                    break
            assert b.locator(f'.gb-piece[data-cell="{piece}"]').count() == 0, (pieces, b.locator(".gb-message").inner_text())
            changed(b, lambda: b.locator('button[data-action="edit_cancel"]').click())
            b.locator(f'.gb-piece[data-cell="{piece}"]').wait_for(state="attached")
            changed(b, lambda: b.locator('button[data-action="edit"]').click())
            changed(b, lambda: b.locator('button[data-action="edit_clear"]').click())  # all the game lets go
            page.wait_for_function("([el, n, c]) => el.querySelectorAll('.gb-piece').length < n && "
                                   "!el.querySelector(`.gb-piece[data-cell='${c}']`)", arg=[b.element_handle(), len(pieces), piece])
        changed(b, lambda: b.locator('button[data-action="edit_cancel"]').click())
        assert b.locator(".gb-edit-piece").count() == 0


# ------------------------------------------------------------------ TerraFeud's own checks (its rules, its first name)


def hexes(b, h: str):  # noqa: ANN001, ANN201
    return b.locator(f'polygon.tf-hex[data-hex="{h}"]')


def hex_shot(b, h: str, pad: float = 4) -> bytes:  # noqa: ANN001
    """A fixed-size screenshot around hex ``h``'s centre (two shots compare)."""
    box = hexes(b, h).bounding_box()
    x, y, half = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, 20 + pad
    return b.page.screenshot(clip={"x": max(0.0, x - half), "y": max(0.0, y - half), "width": 2 * half, "height": 2 * half})


def test_hexboard_plays_the_knight_by_clicks_says_why_not_and_undoes(page) -> None:  # noqa: ANN001
    """``HexBoard(seed=0)``, the board's first name (TerraFeud's hidden checks): its cells carry ``data-hex``, a click
    on the knight f3 lights f5 (a move) and f7 (a stop), f5 plays it in Python, an illegal click says the engine's
    reason, Undo takes it back; its older class names are all there."""
    from workbench.games.terrafeud.engine import new_game

    b = board(page, HX)
    b.scroll_into_view_if_needed()
    assert page.locator(".tf-root").count() == 5  # the four TerraFeud boards of this page and TerraFeud's Board
    assert hexes(b, "a1").count() == 1 and b.locator("polygon.tf-hex[data-hex]").count() == 91
    assert b.locator(".tf-coord").count() >= 40 and b.locator(".tf-legend").count() == 1 and b.locator("svg.tf-svg").count() == 1
    assert b.locator(".tf-piece").count() == len(new_game(seed=0).pieces())
    assert b.locator(".tf-status").get_attribute("data-to-move") == "white"
    changed(b, lambda: hexes(b, "f3").click())
    b.locator('polygon.tf-hex.tf-selected[data-hex="f3"]').wait_for()
    b.locator('.tf-target[data-hex="f5"][data-target="move"]').wait_for()
    assert b.locator('.tf-target[data-hex="f7"]').get_attribute("data-target") == "stop"
    changed(b, lambda: hexes(b, "f5").click())
    b.locator('.tf-piece[data-hex="f5"][data-piece="K"]').wait_for()
    assert b.locator('.tf-piece[data-hex="f3"]').count() == 0 and b.locator(".tf-target").count() == 0
    assert b.locator(".tf-status").get_attribute("data-to-move") == "black"
    assert b.locator(".tf-moves .tf-move-text").all_inner_texts() == ["f3-f5"]
    changed(b, lambda: hexes(b, "f5").click())  # the white knight, with Black to move: the engine's reason
    wait_text(b.locator(".tf-message"), "white piece")
    changed(b, b.locator("button.tf-btn-undo").click)
    b.locator('.tf-piece[data-hex="f3"][data-piece="K"]').wait_for()
    assert b.locator(".tf-move:not(.tf-future)").count() == 0 and b.locator(".tf-move.tf-future").count() == 1


def test_terrafeud_attack_castling_order_step_and_archer_marker_are_drawn(page) -> None:  # noqa: ANN001
    """TerraFeud's marks on occupied hexes are visible (an attack, a castling), the Order's first step stays drawn
    while its next infantry are lit, and an archer's marker shows on the marked piece until its overlay is off;
    its editor's palette names TerraFeud's pieces."""
    b = board(page, TAC)
    b.scroll_into_view_if_needed()
    before = hex_shot(b, "d4")
    click_cell(b, "d1")  # the knight: an attack on the black infantryman on d4
    b.locator('.tf-target[data-hex="d4"][data-target="attack"]').wait_for()
    assert differing_pixels(before, hex_shot(b, "d4")) > 60, "the attack mark on an occupied hex is not visible"
    before = hex_shot(b, "f2")
    click_cell(b, "f3")  # the feudal: castling with the infantryman on f2
    b.locator('.tf-target[data-hex="f2"][data-target="castle"]').wait_for()
    assert differing_pixels(before, hex_shot(b, "f2")) > 60, "the castling mark is not visible"
    b.focus()
    changed(b, lambda: page.keyboard.press("Escape"))
    click_cell(b, "e3")
    click_cell(b, "e4")  # the Order's first step is drawn (both cells selected) while the next infantryman is picked
    b.locator('polygon.tf-hex.tf-selected[data-hex="e4"]').wait_for()
    assert b.locator('polygon.tf-hex.tf-selected[data-hex="e3"]').count() == 1
    b.locator('.gb-target[data-cell="g3"]').wait_for()
    b.locator('.gb-target[data-cell="f2"]').wait_for()
    click_cell(b, "e4")
    assert b.locator(".tf-selected").count() == 0
    click_cell(b, "h4")
    click_cell(b, "h6")  # the archer marks the black archer: the marker shows on the piece
    b.locator('.gb-markring[data-mark="marked-white"][data-cell="h6"]').wait_for()
    with_marker = hex_shot(b, "h6", pad=12)
    tools_open(b)
    b.locator('input.gb-overlay[data-overlay="markers"]').uncheck()
    page.wait_for_function("(el) => !el.querySelector('.gb-markring[data-mark=\"marked-white\"]')", arg=b.element_handle())
    assert differing_pixels(with_marker, hex_shot(b, "h6", pad=12)) > 20, "the archer marker is hidden under the piece"
    b.locator('input.gb-overlay[data-overlay="markers"]').check()
    tools_open(b, False)
    changed(b, lambda: b.locator('button[data-action="edit"]').click())
    titles = b.locator(".gb-edit-piece").evaluate_all("els => els.map((e) => e.title).join('|')")
    assert "White knight" in titles and "Black archer" in titles
    changed(b, lambda: b.locator('button[data-action="edit_cancel"]').click())


def test_terrafeud_checkmate_threat_promotion_and_its_rules_terrain_and_picker(page) -> None:  # noqa: ANN001
    """A checkmate loaded by ``load_scenario`` (a path, from the notebook): the status says who won, the mated feudal is
    ringed, explained in the legend, its attackers drawn; a threatened feudal's status, ring and attacker line, and a
    promotion by named buttons; a new game typed with TerraFeud's rules shows them in the title, the status says who
    owns the terrain, the rule fields hold them, and each new game without a seed rolls fresh terrain; the scenario
    picker plays a rulebook case (castling-swap: PASS) and End steps through its play."""
    b = board(page, MATE)
    b.scroll_into_view_if_needed()
    status = b.locator(".tf-status").inner_text()
    assert "to move" not in status and "Black won (checkmate)" in status
    ring = b.locator('.gb-markring[data-mark="mated"][data-cell="a1"]')
    ring.wait_for(state="attached")
    assert ring.get_attribute("stroke") not in (None, "", "none")
    b.locator(".gb-legend summary").click()
    assert "the feudal lost (checkmate)" in b.locator(".gb-legend").text_content()
    b.locator(".gb-legend summary").click()
    b.locator('.gb-attacker-line[data-to="a1"]').first.wait_for(state="attached")
    t = board(page, THREAT)
    t.scroll_into_view_if_needed()
    assert "white feudal under threat" in t.locator(".tf-status").inner_text()
    t.locator('.gb-markring[data-mark="threatened"][data-cell="f1"]').wait_for(state="attached")
    t.locator('.gb-attacker-line[data-from="f5"][data-to="f1"]').wait_for(state="attached")
    click_cell(t, "e9")
    click_cell(t, "e10")
    named = sorted(x.split(" — ")[0] for x in t.locator(".gb-choice").all_inner_texts())  # (then what it does)
    assert named == ["promote to A archer", "promote to C cavalry"], named
    changed(t, t.locator(".gb-choice", has_text="archer").click)
    t.locator('.tf-piece[data-hex="e10"][data-piece="A"]').wait_for()
    b = board(page, HX)  # TerraFeud's rules typed in the page: the title, the terrain's owners, the rule fields
    b.scroll_into_view_if_needed()
    tools_open(b)
    b.locator(".gb-rules").fill("season=winter,castling=sacrifice")
    b.locator('input[placeholder="seed"]').fill("5")  # a seed whose terrain White owns
    changed(b, b.locator('.gb-btn[data-action="new_game"]').click)
    wait_text(b.locator(".gb-title"), "castling=sacrifice")
    assert "season=winter" in b.locator(".gb-title").inner_text()
    status = b.locator(".tf-status").inner_text()
    assert "season winter" in status and "hill: white" in status and "swamp: white" in status  # who owns the terrain
    b.locator("button.gb-rule-toggle").click()
    assert b.locator("select.gb-rule-season").input_value() == "winter"
    assert b.locator("select.gb-rule-castling").input_value() == "sacrifice" and b.locator(".gb-rule-field").count() >= 20
    b.locator("button.gb-rule-toggle").click()
    b.locator(".gb-rules").fill("")
    b.locator('input[placeholder="seed"]').fill("")
    seen = [status]
    for _ in range(2):  # a new game without a seed rolls fresh terrain, under the rules in the form
        changed(b, b.locator('.gb-btn[data-action="new_game"]').click)
        seen.append(b.locator(".tf-status").inner_text())
    assert all("season winter" in x for x in seen) and len(set(seen)) == 3, seen
    b.locator(".gb-legend summary").click()
    legend = b.locator(".gb-legend").text_content()
    assert all(w in legend for w in ("White", "Black", "hill", "swamp", "bridge", "ford")), legend
    b.locator(".gb-legend summary").click()
    b.locator("button", has_text="List scenarios").click()
    b.locator('.gb-picker option[value="rulebook/castling-swap.yaml"]').wait_for(state="attached", timeout=60_000)
    b.locator(".gb-picker").select_option("rulebook/castling-swap.yaml")
    wait_text(b.locator(".gb-check"), "PASS")
    assert "f1<>f2" in b.locator(".gb-check").inner_text()
    b.focus()
    page.keyboard.press("End")  # the check's play, stepped: the feudal has castled
    b.locator('.tf-piece[data-hex="f2"][data-piece="F"]').wait_for()
    tools_open(b, False)


def test_terrafeud_coordinated_attack_deaths_marked_and_the_exact_reason_draws_its_blocking_hex(page) -> None:  # noqa: ANN001
    """Rulebook scenarios uploaded through the page: the coordinated attack's deaths previewed (visible), then marked
    after it, the move saying what it did and the result; the cavalry stopped in a zone: the reason on hover, and on
    a click in the message with the blocking hexes drawn."""
    b = board(page, HX)
    b.scroll_into_view_if_needed()
    rulebook = ROOT / "scenarios" / "terrafeud" / "rulebook"
    tools_open(b)
    b.locator(".gb-upload-kind").select_option("scenario")
    b.locator(".gb-upload").set_input_files(str(rulebook / "coordinated-attack-kills-feudal.yaml"))
    wait_text(b.locator(".gb-message"), "coordinated-attack-kills-feudal.yaml", timeout=45_000)
    tools_open(b, False)
    click_cell(b, "e3")
    b.locator('.tf-target[data-hex="e4"]').wait_for()
    before = hex_shot(b, "d4")
    hexes(b, "e4").hover(force=True)
    wait_text(b.locator(".gb-hover"), "black feudal on d4 dies")
    b.locator('.gb-preview-death[data-cell="d4"]').wait_for(state="attached")
    assert b.locator('.gb-preview-death[data-cell="c3"]').count() == 1
    assert differing_pixels(before, hex_shot(b, "d4")) > 40
    click_cell(b, "e4")
    b.locator('.gb-died[data-died="d4"]').wait_for(state="attached")
    assert b.locator('.gb-died[data-died="c3"]').count() == 1
    page.mouse.move(1, 1)
    assert "black feudal on d4 dies" in b.locator(".gb-current").get_attribute("title")
    assert "White won" in b.locator(".gb-result").inner_text()
    tools_open(b)
    b.locator(".gb-upload").set_input_files(str(rulebook / "cavalry-stopped-in-zone.yaml"))
    wait_text(b.locator(".gb-message"), "cavalry-stopped-in-zone.yaml", timeout=45_000)
    tools_open(b, False)
    click_cell(b, "f4")
    b.locator('.tf-target[data-hex="e4"]').wait_for()
    hexes(b, "d5").hover(force=True)  # hovering an unlit hex explains it in one line
    wait_text(b.locator(".gb-hover"), "zone of the black pikeman on d4")
    before = hex_shot(b, "e4", pad=10)
    click_cell(b, "d5")
    wait_text(b.locator(".tf-message"), "f4-d5: the gallop stops on e4: it is in the zone of the black pikeman on d4")
    b.locator('.gb-why-block[data-cell="e4"]').wait_for(state="attached")
    assert b.locator('.gb-why-block[data-cell="d4"]').count() == 1
    page.mouse.move(1, 1)
    assert differing_pixels(before, hex_shot(b, "e4", pad=10)) > 40, "the blocking hex is not drawn"


@pytest.mark.parametrize("index", EVERY_GAME)
def test_every_text_of_every_game_at_wcag_aa_in_voila_light(page, index: int) -> None:  # noqa: ANN001
    """WCAG AA (4.5:1) for every text the board draws in Voila's Light theme: its panel, messages (a refused click's
    warning too), legend, move list, coordinates on every cell's ground, badges, cards and the editor's palette."""
    b = board(page, index)
    b.scroll_into_view_if_needed()
    if not b.locator(".gb-move").count():  # a move in the list to measure
        changed(b, b.locator('.gb-btn[data-action="agent_move"]').click)
        page.wait_for_function("(el) => el.querySelectorAll('.gb-move').length > 0", arg=b.element_handle(), timeout=45_000)
    kinds = measure_every_state(b, f"Voila Light, board {index}")
    needed = {"gb-title", "gb-status", "gb-message", "gb-btn", "gb-legend-row", "gb-move-text", "gb-turnno"}
    if b.locator("polygon.gb-cell").count():
        needed.add("gb-coord")
    assert needed <= kinds, (index, needed - kinds, kinds)


SCENARIO_OF = {GAME_AT[i]: PREVIEW[i][0] for i in PREVIEW}  # a rulebook position with pieces, marks and badges


@pytest.mark.parametrize("index", EVERY_GAME)
def test_every_game_legend_explains_every_mark_badge_overlay_and_heat_layer(page, index: int) -> None:  # noqa: ANN001
    """The legend explains every colour drawn, for every game and every layer it declares: on a rulebook position,
    each ring a mark draws has its legend row in the ring's colour (found in the legend's screenshot), with each of
    the game's overlays switched on in turn; badges drawn have their rows; and each declared heat layer, switched on in
    turn, has its row with its name, its seat and its scale."""
    from workbench.games import get

    g = get(GAME_OF[index])
    b = board(page, index)
    b.scroll_into_view_if_needed()
    if g.name in SCENARIO_OF:
        tools_open(b)
        b.locator(".gb-upload-kind").select_option("scenario")
        b.locator(".gb-upload").set_input_files(str(ROOT / "scenarios" / SCENARIO_OF[g.name]))
        wait_text(b.locator(".gb-message"), Path(SCENARIO_OF[g.name]).name, timeout=45_000)
        tools_open(b, False)
    b.locator(".gb-legend summary").click()
    checked = {"marks": 0, "badges": 0, "heat": 0}

    def explained(where: str) -> None:
        rings = b.evaluate("(el) => [...new Map([...el.querySelectorAll('.gb-markring[data-mark]')].map(r => "
                           "[r.dataset.mark, r.getAttribute('stroke')])).entries()]")
        png = b.locator(".gb-legend").screenshot()
        for mark, colour in rings:
            row = b.locator(f'.gb-legend-mark[data-colour="{colour}"]')
            assert row.count() >= 1 and mark in " ".join(row.all_inner_texts()), (g.name, where, mark, colour)
            assert colour_pixels(png, hex_rgb(colour), 12) > 10, (g.name, where, mark, colour)
            checked["marks"] += 1
        if b.locator(".gb-badge").count():
            assert b.locator(".gb-legend-badge").count() >= 1, (g.name, where)
            checked["badges"] += 1

    explained("the position")
    for name, _words in g.overlays:  # each layer the game declares, on in turn
        box = b.locator(f'input.gb-overlay[data-overlay="{name}"]')
        was = box.is_checked()
        changed(b, lambda box=box: box.click())
        explained(f"overlay {name} {'off' if was else 'on'}")
        changed(b, lambda box=box: box.click())
    if g.heat_layers:
        tools_open(b)
        b.locator(".gb-heat-seat").select_option("0")
        for layer in g.heat_layers:
            b.locator(".gb-heat").select_option(layer)
            page.wait_for_function("([el, l]) => (el.querySelector('.gb-legend-heat') || {textContent: ''}).textContent"
                                   ".includes(l + ' for')", arg=[b.element_handle(), layer])
            row = b.locator(".gb-legend-heat")
            assert "…" in row.inner_text() and len(row.get_attribute("data-scale").split(",")) == 2, (g.name, layer)
            checked["heat"] += 1
        b.locator(".gb-heat").select_option("")
        page.wait_for_function("(el) => !el.querySelector('.gb-legend-heat')", arg=b.element_handle())
        tools_open(b, False)
    b.locator(".gb-legend summary").click()
    assert checked["heat"] == len(g.heat_layers)
    if b.locator("polygon.gb-cell").count():  # a rulebook position: something beyond seats and terrain explained
        assert checked["marks"] + checked["badges"] >= 1 or g.name not in SCENARIO_OF, (g.name, checked)


def test_a_legal_list_too_long_to_list_is_counted_and_built_by_clicks(page) -> None:  # noqa: ANN001
    """The Cursed Lands' setup phase (483,840 camps): the panel says how many and how one is chosen, no button is
    drawn, and a camp is built by clicks on the lit camp row, its unit's kind by button (``State.click_step``)."""
    b = board(page, CL)
    b.scroll_into_view_if_needed()
    b.locator(".gb-tools > summary").click()
    b.locator(".gb-rules").fill("setup_phase=true")
    changed(b, b.locator('.gb-btn[data-action="new_game"]').click)
    b.locator(".gb-tools > summary").click()
    wait_text(b.locator(".gb-many-actions"), "483,840 legal actions")
    assert b.locator(".gb-choice").count() == 0
    lit = "(el) => [...el.querySelectorAll('polygon.gb-lit')].map(p => p.dataset.cell).sort()"
    assert b.evaluate(lit) == [f"{c}1" for c in "abcdefghi"]
    for name in ("e1", "b1", "d1", "f1", "h1"):
        click_cell(b, name)
    assert "the hex of starting unit 1 of 1" in b.locator(".gb-message").inner_text()
    click_cell(b, "c1")
    assert b.locator(".gb-choice").count() == 4
    changed(b, b.locator('.gb-choice[data-text="camp castle=e1 C=b1 S=d1 A=f1 R=h1 unit=S@c1"]').click)
    wait_text(b.locator(".gb-moves"), "camp castle=e1")
    assert b.evaluate(lit) == [f"{c}9" for c in "abcdefghi"]  # Player 2's camp row
    b.locator(".gb-tools > summary").click()
    b.locator(".gb-rules").fill("")
    changed(b, b.locator('.gb-btn[data-action="new_game"]').click)
    b.locator(".gb-tools > summary").click()
