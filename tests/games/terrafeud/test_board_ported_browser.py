"""TerraFeud's old browser tests of its own board (``test_board_defects.py``, ``test_board_round2.py``, deleted with
it in 1b4ab38), ported to the one board in Debian's Chromium: what a person sees and can do.

One Voila server serves one notebook of eight boards (``HexBoard``, the one board's first name): tactics, rules,
game, checkmate, threat/promotion, coordinated attack, cavalry in a zone, and a fresh game for variations. The
Light tests share one page (one kernel); the Dark theme gets a second page. Selectors are the one board's
(``gb-*``) or TerraFeud's older names the board still carries (``tf-hex``, ``tf-piece``, ``tf-target``, ``data-hex``).
Colours are the one board's (board.css), so marks are judged by pixels that change, not by TerraFeud's old hues.
Every request that does not go to 127.0.0.1 is blocked and recorded: there must be none.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser.conftest import differing_pixels, open_page
from browser.serve import NotebookServer, write_notebook

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]
BOARDS = f"""
from workbench.widget import HexBoard
from workbench.games.terrafeud.engine import make_game, new_game, parse_hex
from workbench.games.terrafeud.engine.pieces import parse_letter
from workbench.games.terrafeud.state import TerraFeudState
P = lambda d: {{parse_hex(h): parse_letter(p) for h, p in d.items()}}
plain = make_game("hill=false,swamp=false")
S = lambda d, **kw: TerraFeudState(plain.state_from_pieces(P(d), to_move=0, **kw))
tactics = HexBoard(S({{"f3": "F", "f11": "f", "f2": "I", "e3": "I", "g3": "I", "d1": "K", "d4": "i", "h6": "a",
                      "h4": "A", "i8": "c"}}), seed=0)
rules = HexBoard(rules="season=winter,castling=sacrifice", seed=5)
game = HexBoard(TerraFeudState(new_game(seed=0)), seed=0)
game.play("f3-f5", "f9-f7", "d2*d4")
mate = HexBoard(seed=0)
mate.load_scenario({str(ROOT / "scenarios/terrafeud/rulebook/checkmate.yaml")!r})
threat = HexBoard(S({{"f1": "F", "l6": "f", "e9": "I", "f5": "k"}}, destroyed=[[4, 5], []]), seed=0)
coord = HexBoard(seed=0)
coord.load_scenario({str(ROOT / "scenarios/terrafeud/rulebook/coordinated-attack-kills-feudal.yaml")!r})
cav = HexBoard(seed=0)
cav.load_scenario({str(ROOT / "scenarios/terrafeud/rulebook/cavalry-stopped-in-zone.yaml")!r})
fresh = HexBoard(TerraFeudState(new_game(seed=0)), seed=0)
from IPython.display import display
for b in (tactics, rules, game, mate, threat, coord, cav, fresh):
    display(b)
"""
TACTICS, RULES, GAME, MATE, THREAT, COORD, CAV, FRESH = range(8)
N = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NotebookServer]:
    tmp = tmp_path_factory.mktemp("tfboards")
    srv = NotebookServer(write_notebook(tmp / "boards.ipynb", BOARDS), tmp, app="voila", extra=("--template=workbench",))
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def ready(browser, srv: NotebookServer, width: int = 1400, query: str = ""):  # noqa: ANN001, ANN201
    pg = open_page(browser, srv, width, 1000, query=query)
    try:
        pg.wait_for_function(f"() => document.querySelectorAll('.gb-root .gb-svgbox').length === {N}", timeout=90_000)
        pg.wait_for_function("() => document.querySelectorAll('.gb-root')[0].querySelectorAll('.tf-piece').length > 0",
                             timeout=60_000)
    except Exception:  # playwright's TimeoutError: say what the page and the server saw
        pytest.fail(f"the boards never rendered; page errors {pg.errors}\n{srv.log()}")
    return pg


@pytest.fixture(scope="module")
def page(browser, server: NotebookServer) -> Iterator:  # noqa: ANN001
    pg = ready(browser, server)
    yield pg
    assert not pg.blocked, pg.blocked
    assert not pg.errors, pg.errors
    pg.close()


def board(page, i: int):  # noqa: ANN001, ANN201
    return page.locator(".gb-root").nth(i)


def cell(b, h: str):  # noqa: ANN001, ANN201
    return b.locator(f'polygon.tf-hex[data-hex="{h}"]')


def click(b, h: str) -> None:  # noqa: ANN001
    cell(b, h).click()


def hex_shot(b, h: str, pad: float = 4, scroll: bool = True) -> bytes:  # noqa: ANN001
    """A screenshot around hex ``h``'s centre (a fixed size, so two shots compare), as the user sees it (``scroll``
    False: where it is now, so a hover under the pointer stays)."""
    poly = cell(b, h)
    if scroll:
        poly.scroll_into_view_if_needed()
    x, y = centre_of(b, h)
    half = 20 + pad
    return b.page.screenshot(clip={"x": max(0.0, x - half), "y": max(0.0, y - half), "width": 2 * half, "height": 2 * half})


def centre_of(b, h: str) -> tuple[float, float]:  # noqa: ANN001
    for _ in range(20):
        box = cell(b, h).bounding_box()
        if box:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        b.page.wait_for_timeout(100)
    raise AssertionError(f"hex {h} is not on the screen")


def wait_text(locator, text: str, timeout: float = 20_000) -> None:  # noqa: ANN001
    locator.page.wait_for_function("([el, text]) => el.textContent.includes(text)",
                                   arg=[locator.element_handle(), text], timeout=timeout)


def tools(b) -> None:  # noqa: ANN001
    """Open the panel's tools (new game, agents, heat, diff, scenarios, files)."""
    t = b.locator("details.gb-tools")
    if not t.evaluate("e => e.open"):
        t.locator("> summary").click()


# ---------------------------------------------------------------------------- test_board_defects.py


def test_destinations_order_step_and_markers_show_on_pieces(page) -> None:  # noqa: ANN001
    b = board(page, TACTICS)
    before = hex_shot(b, "d4")
    click(b, "d1")  # the knight: an attack on the black infantryman on d4
    b.locator('.tf-target[data-hex="d4"][data-target="attack"]').wait_for()
    assert differing_pixels(before, hex_shot(b, "d4")) > 60, "the attack mark on an occupied hex is not visible"
    before = hex_shot(b, "f2")
    click(b, "f3")  # the feudal: castling with the infantryman on f2
    b.locator('.tf-target[data-hex="f2"][data-target="castle"]').wait_for()
    assert differing_pixels(before, hex_shot(b, "f2")) > 60, "the castling mark is not visible"
    b.focus()
    page.keyboard.press("Escape")  # Esc clears the selection
    click(b, "e3")
    click(b, "e4")  # the Order's first step is drawn (both cells selected) while the next infantryman is picked
    b.locator('polygon.tf-hex.tf-selected[data-hex="e4"]').wait_for()
    assert b.locator('polygon.tf-hex.tf-selected[data-hex="e3"]').count() == 1
    b.locator('.gb-target[data-cell="g3"]').wait_for()  # the Order's next candidates are lit on pieces
    b.locator('.gb-target[data-cell="f2"]').wait_for()
    click(b, "e4")  # clicking the last cell again clears the selection
    page.wait_for_function("() => !document.querySelectorAll('.gb-root')[0].querySelector('.tf-selected')")
    click(b, "h4")
    click(b, "h6")  # the archer marks the black archer: the marker shows on the piece
    b.locator('.gb-markring[data-mark="marked-white"][data-cell="h6"]').wait_for()
    with_marker = hex_shot(b, "h6", pad=12)
    box = b.locator('input.gb-overlay[data-overlay="markers"]')
    if not box.is_visible():
        tools(b)
    box.uncheck()
    page.wait_for_function("() => !document.querySelectorAll('.gb-root')[0].querySelector('.gb-markring[data-mark=\"marked-white\"]')")
    assert differing_pixels(with_marker, hex_shot(b, "h6", pad=12)) > 20, "the archer marker is hidden under the piece"


def test_active_rules_owners_legend_every_rule_and_fresh_terrain(page) -> None:  # noqa: ANN001
    b = board(page, RULES)
    title = b.locator(".gb-title").inner_text()
    assert "season=winter" in title and "castling=sacrifice" in title
    status = b.locator(".tf-status").inner_text()
    assert "season winter" in status and "hill: white" in status and "swamp: white" in status  # who owns the terrain
    tools(b)
    b.locator("button.gb-rule-toggle").click()  # the new-game panel offers every rule, set to the game's
    assert b.locator("select.gb-rule-season").input_value() == "winter"
    assert b.locator("select.gb-rule-castling").input_value() == "sacrifice"
    assert b.locator(".gb-rule-field").count() >= 20
    b.locator("details.gb-legend summary").first.click()
    legend = b.locator(".gb-legend").text_content()
    for word in ("White", "Black", "hill", "swamp", "bridge", "ford"):
        assert word in legend, word
    seeds = [b.locator(".tf-status").inner_text()]
    for _ in range(2):  # a new game without a seed rolls fresh terrain, under the rules in the form
        b.locator('button[data-action="new_game"]').click()
        b.page.wait_for_function("([el, old]) => el.textContent !== old && el.textContent.includes('hill')",
                                 arg=[b.locator(".tf-status").element_handle(), seeds[-1]], timeout=20_000)
        seeds.append(b.locator(".tf-status").inner_text())
    assert all("season winter" in s for s in seeds), seeds
    assert len(set(seeds)) == 3, f"a new game drew the same terrain twice: {seeds}"
    assert b.locator(".gb-coord").count() >= 40 and b.locator(".gb-coord").first.is_visible()


def test_messages_levels_agent_flip_and_heat(page) -> None:  # noqa: ANN001
    b = board(page, RULES)
    click(b, "f6")  # an empty hex: a warning, not an error
    wait_text(b.locator(".tf-message"), "no legal action starts")
    warn_bg = b.locator(".tf-message").evaluate("e => getComputedStyle(e).backgroundColor")
    tools(b)
    b.locator("select.gb-seat").select_option("0")
    b.locator("input.gb-spec").fill("greedy")
    b.locator("button", has_text="Set agent").click()
    wait_text(b.locator(".tf-message"), "played")
    info_bg = b.locator(".tf-message").evaluate("e => getComputedStyle(e).backgroundColor")
    assert info_bg != warn_bg
    page.wait_for_timeout(300)
    f1 = cell(b, "f1").bounding_box()["y"]
    f11 = cell(b, "f11").bounding_box()["y"]
    assert f1 < f11, "the human plays Black against a White agent: Black belongs at the bottom"
    b.locator("button", has_text="Human").click()
    wait_text(b.locator(".tf-message"), "people move every seat")
    assert "played" not in b.locator(".tf-message").inner_text()
    b.locator("select.gb-heat-seat").select_option("0")
    b.locator("select.gb-heat").select_option("threat")  # one heat layer, with its scale in the legend
    b.locator(".gb-heatcell").first.wait_for(state="attached")
    legend = b.locator(".gb-legend").text_content()
    assert "threat" in legend, legend


def test_checkmate_status_and_mated_feudal(page) -> None:  # noqa: ANN001
    b = board(page, MATE)
    status = b.locator(".tf-status").inner_text()
    assert "to move" not in status and "Black won (checkmate)" in status
    b.locator('.gb-markring[data-mark="mated"][data-cell="a1"]').wait_for(state="attached")
    ring = b.locator('.gb-markring[data-mark="mated"][data-cell="a1"]')
    assert ring.get_attribute("stroke") not in (None, "", "none")
    b.locator("details.gb-legend summary").first.click()
    assert "the feudal lost (checkmate)" in b.locator(".gb-legend").text_content()
    b.locator('.gb-attacker-line[data-to="a1"]').first.wait_for(state="attached")  # a mate draws its attackers


def test_threatened_feudal_attackers_and_named_promotion_buttons(page) -> None:  # noqa: ANN001
    b = board(page, THREAT)
    assert "white feudal under threat" in b.locator(".tf-status").inner_text()
    b.locator('.gb-markring[data-mark="threatened"][data-cell="f1"]').wait_for(state="attached")
    b.locator('.gb-attacker-line[data-from="f5"][data-to="f1"]').wait_for(state="attached")
    click(b, "e9")
    click(b, "e10")
    b.locator(".gb-choice").first.wait_for()
    assert sorted(b.locator(".gb-choice").all_inner_texts()) == ["promote to A archer", "promote to C cavalry"]
    b.locator(".gb-choice", has_text="archer").click()
    b.locator('.tf-piece[data-hex="e10"][data-piece="A"]').wait_for()


def test_move_list_keys_evaluation_rule_diff_and_scaling(page) -> None:  # noqa: ANN001
    b = board(page, GAME)
    assert b.locator(".gb-lastline").count() == 1  # the last action d2*d4: its line is drawn
    b.locator(".tf-move").first.click()
    wait_text(b.locator(".tf-message"), "after f3-f5")
    assert b.locator('.tf-piece[data-hex="f5"]').count() == 1 and b.locator('.tf-piece[data-hex="f7"]').count() == 0
    b.focus()
    page.keyboard.press("ArrowRight")
    wait_text(b.locator(".tf-message"), "redone f9-f7")
    page.keyboard.press("ArrowRight")
    wait_text(b.locator(".tf-message"), "redone d2*d4")
    b.locator('button[data-action="evaluate"]').click()
    wait_text(b.locator(".gb-eval"), "material points", timeout=30_000)  # the search's score, in stated units
    tools(b)
    b.locator("input.gb-diffin").fill("season=winter")
    b.locator('button[data-action="compare"]').click()
    wait_text(b.locator(".gb-diff"), "legal actions")
    assert "season=winter" in b.locator(".gb-diff").inner_text()
    before = b.locator("svg.tf-svg").bounding_box()["width"]
    page.set_viewport_size({"width": 700, "height": 1000})
    page.wait_for_timeout(400)
    try:
        assert b.locator("svg.tf-svg").bounding_box()["width"] < before, "the board does not scale with the page"
    finally:
        page.set_viewport_size({"width": 1400, "height": 1000})


def test_editor_picker_upload_and_download(page, tmp_path: Path) -> None:  # noqa: ANN001
    b = board(page, TACTICS)
    b.locator('button[data-action="edit"]').click()
    b.locator(".gb-edit-piece").first.wait_for()
    titles = b.locator(".gb-edit-piece").evaluate_all("els => els.map((e) => e.title).join('|')")
    assert "White knight" in titles and "Black archer" in titles
    b.locator('.gb-edit-piece[data-piece=""]').click()
    click(b, "f3")
    b.locator('.tf-piece[data-hex="f3"]').wait_for(state="detached")
    b.locator('button[data-action="edit_cancel"]').click()
    b.locator('.tf-piece[data-hex="f3"]').wait_for()
    b.locator('button[data-action="edit"]').click()
    b.locator('button[data-action="edit_clear"]').click()
    page.wait_for_function("() => document.querySelectorAll('.gb-root')[0].querySelectorAll('.tf-piece').length === 0")
    b.locator('button[data-action="edit_cancel"]').click()
    tools(b)
    with page.expect_download() as dl:
        b.locator('button[data-action="download"]', has_text="Download scenario").click()
    text = Path(dl.value.path()).read_text(encoding="utf-8")
    assert "title:" in text and "checks:" in text
    b.locator("button", has_text="List scenarios").click()
    b.locator('.gb-picker option[value="rulebook/castling-swap.yaml"]').wait_for(state="attached", timeout=60_000)
    b.locator(".gb-picker").select_option("rulebook/castling-swap.yaml")
    wait_text(b.locator(".gb-check"), "PASS")
    assert "f1<>f2" in b.locator(".gb-check").inner_text()
    b.focus()
    page.keyboard.press("End")  # the check's play, stepped: the feudal has castled
    b.locator('.tf-piece[data-hex="f2"][data-piece="F"]').wait_for()
    g = board(page, GAME)
    tools(g)
    record = tmp_path / "game.json"
    with page.expect_download() as dl:
        g.locator('button[data-action="download"]', has_text="Download record").click()
    record.write_text(Path(dl.value.path()).read_text(encoding="utf-8"), encoding="utf-8")
    assert len(json.loads(record.read_text())["actions"]) == 3
    b.locator("select.gb-upload-kind").select_option("record")
    b.locator("input.gb-upload").set_input_files(str(record))
    page.wait_for_function("() => document.querySelectorAll('.gb-root')[0].querySelectorAll('.tf-move').length === 3")
    assert b.locator(".gb-gpoint").count() == 3  # a loaded record shows each move's evaluation on the graph


# ---------------------------------------------------------------------------- test_board_round2.py


def test_variation_kept_promoted_keys_drag_and_drawings(page) -> None:  # noqa: ANN001
    b = board(page, FRESH)
    cell(b, "f3").scroll_into_view_if_needed()
    (x1, y1), (x2, y2) = centre_of(b, "f3"), centre_of(b, "f5")
    page.mouse.move(x1, y1)
    page.mouse.down()
    page.mouse.move((x1 + x2) / 2, (y1 + y2) / 2, steps=4)
    page.mouse.move(x2, y2, steps=4)
    page.mouse.up()
    b.locator('.tf-piece[data-hex="f5"][data-piece="K"]').wait_for()  # drag and drop played f3-f5
    for a, t in (("f9", "f7"), ("b1", "d4"), ("b7", "d6")):
        click(b, a)
        b.locator(f'.tf-target[data-hex="{t}"]').wait_for()
        click(b, t)
        b.locator(f'.tf-piece[data-hex="{t}"]').wait_for()
    msg = b.locator(".tf-message")
    b.focus()
    for _ in range(3):  # keys queue: three fast ← land three moves back
        page.keyboard.press("ArrowLeft")
    wait_text(msg, "undone; Black to move")
    page.wait_for_function("() => document.querySelectorAll('.gb-root')[7].querySelectorAll('.tf-move.tf-future').length === 3")
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelectorAll('.gb-root')[7].querySelectorAll('.tf-move.tf-future').length === 0")
    b.locator(".tf-move").first.click()  # back to after move 1, and another black move: a variation
    wait_text(msg, "after f3-f5")
    click(b, "k7")
    b.locator('.tf-target[data-hex="h6"]').wait_for()
    click(b, "h6")
    b.locator(".gb-variation .tf-move", has_text="k7-h6").wait_for()
    main = " ".join(b.locator(".gb-turnrow:not(.gb-variation)").all_inner_texts())
    assert "f9-f7" in main and "b1-d4" in main and "b7-d6" in main and "k7-h6" not in main, main
    b.locator('button[data-action="promote"]').click()  # the variation becomes the main line
    b.locator(".gb-variation .tf-move", has_text="f9-f7").wait_for()
    assert "k7-h6" in " ".join(b.locator(".gb-turnrow:not(.gb-variation)").all_inner_texts())
    (x1, y1), (x2, y2) = centre_of(b, "c5"), centre_of(b, "c7")
    page.mouse.move(x1, y1)
    page.mouse.down(button="right")
    page.mouse.move(x2, y2, steps=5)
    page.mouse.up(button="right")
    b.locator('.gb-arrow[data-shape="c5-c7"]').wait_for(state="attached")  # right-drag draws an arrow


def test_coordinated_attack_previewed_and_deaths_marked(page) -> None:  # noqa: ANN001
    b = board(page, COORD)
    click(b, "e3")
    b.locator('.tf-target[data-hex="e4"]').wait_for()
    before = hex_shot(b, "d4")
    cell(b, "e4").hover()
    wait_text(b.locator(".gb-hover"), "black feudal on d4 dies")
    b.locator('.gb-preview-death[data-cell="d4"]').wait_for(state="attached")  # the deaths previewed on the board
    assert b.locator('.gb-preview-death[data-cell="c3"]').count() == 1
    assert differing_pixels(before, hex_shot(b, "d4", scroll=False)) > 40
    click(b, "e4")
    b.locator('.gb-died[data-died="d4"]').wait_for(state="attached")
    assert b.locator('.gb-died[data-died="c3"]').count() == 1
    page.mouse.move(1, 1)
    assert "black feudal on d4 dies" in b.locator(".gb-current").get_attribute("title")  # the move says what it did
    assert re.search(r"White won", b.locator(".gb-result").inner_text())


def test_exact_reason_draws_its_blocking_hex(page) -> None:  # noqa: ANN001
    b = board(page, CAV)
    click(b, "f4")
    b.locator('.tf-target[data-hex="e4"]').wait_for()
    cell(b, "d5").hover()  # hovering an unlit hex explains it in one line
    wait_text(b.locator(".gb-hover"), "zone of the black pikeman on d4")
    before = hex_shot(b, "e4", pad=10)
    click(b, "d5")
    wait_text(b.locator(".tf-message"), "f4-d5: the gallop stops on e4: it is in the zone of the black pikeman on d4")
    b.locator('.gb-why-block[data-cell="e4"]').wait_for(state="attached")
    assert b.locator('.gb-why-block[data-cell="d4"]').count() == 1
    page.mouse.move(1, 1)
    assert differing_pixels(before, hex_shot(b, "e4", pad=10)) > 40, "the blocking hex is not drawn"


def _contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    def lum(c: tuple[int, ...]) -> float:
        ch = [x / 255 for x in c]
        ch = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in ch]
        return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _colours(page, i: int) -> tuple[tuple[int, ...], tuple[int, ...]]:  # noqa: ANN001
    fg, bg = page.evaluate("""(i) => {
        const rgb = (c) => c.match(/[0-9.]+/g).map(Number);
        const s = document.querySelectorAll('.gb-root')[i].querySelector('.gb-status');
        let e = s, back = [255, 255, 255];
        while (e) {
            const c = rgb(getComputedStyle(e).backgroundColor);
            if (c.length < 4 || c[3] > 0.5) { back = c.slice(0, 3); break; }
            e = e.parentElement;
        }
        return [rgb(getComputedStyle(s).color).slice(0, 3), back]; }""", i)
    return tuple(int(x) for x in fg), tuple(int(x) for x in bg)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_light_and_dark_at_900_and_1400_keep_the_panel_in_sight(browser, server, page, theme: str) -> None:  # noqa: ANN001
    """Issue 30 puts the panel beside the board from 800 px of page (TerraFeud's board put it above at 900)."""
    pg = page if theme == "light" else ready(browser, server, query="?theme=dark")
    try:
        for width in (1400, 900):
            pg.set_viewport_size({"width": width, "height": 1000})
            b = board(pg, THREAT)
            b.scroll_into_view_if_needed()
            click(b, "a6")  # a refused click gives a message
            wait_text(b.locator(".tf-message"), "a6: ")
            board_box = b.locator("svg.tf-svg").bounding_box()
            for part in (".tf-status", ".tf-message", ".tf-moves"):
                box = b.locator(part).bounding_box()
                beside = box["x"] >= board_box["x"] + board_box["width"] - 5
                above = box["y"] + box["height"] <= board_box["y"] + 5
                assert beside or above, (theme, width, part, box, board_box)
                assert box["y"] < board_box["y"] + board_box["height"], (theme, width, part)  # not below the board
            fg, bg = _colours(pg, THREAT)
            assert _contrast(fg, bg) >= 4.5, (theme, width, fg, bg)
        if theme == "dark":
            assert pg.evaluate("() => document.body.dataset.jpThemeLight") == "false"  # JupyterLab Dark is on
            assert not pg.blocked and not pg.errors, (pg.blocked, pg.errors)
    finally:
        if theme == "dark":
            pg.close()
        else:
            pg.set_viewport_size({"width": 1400, "height": 1000})


def test_terrafeuds_older_class_names_are_on_the_one_board(page) -> None:  # noqa: ANN001
    """TerraFeud's page knew its boards as ``tf-root``, its cells as ``tf-hex`` (``data-hex``), its choice buttons as
    ``tf-choice``: the one board carries those names too (``GameDef.board_aliases``)."""
    assert page.locator(".tf-root").count() == N
    b = board(page, TACTICS)
    assert b.locator("polygon.tf-hex[data-hex]").count() == 91 and b.locator(".tf-coord").count() >= 40
    assert b.locator(".tf-legend").count() == 1 and b.locator("svg.tf-svg").count() == 1
