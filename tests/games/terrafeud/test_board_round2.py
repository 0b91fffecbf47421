"""Issue 23 in the real browser: variations, cause and consequence, exact reasons, Jupyter fit.

Judged on what the page shows (pixels and visible text) in Debian's Chromium. One Voila server serves a
notebook of four boards, in the Light theme and (``?theme=dark``) the Dark one; every request that
does not go to 127.0.0.1 is blocked and recorded: the page, served with the project's Voila template
(``workbench.serving``), and the widget must make none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser.conftest import colour_pixels, open_page
from browser.serve import NotebookServer, write_notebook

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[3]
BOARDS = f"""
from workbench.games.terrafeud.widget import HexBoard
from workbench.games.terrafeud.engine import make_game, new_game, parse_hex
from workbench.games.terrafeud.engine.pieces import parse_letter
P = lambda d: {{parse_hex(h): parse_letter(p) for h, p in d.items()}}
plain = make_game("hill=false,swamp=false")
coord = HexBoard()
coord.load_scenario({str(ROOT / "scenarios/terrafeud/rulebook/coordinated-attack-kills-feudal.yaml")!r})
cav = HexBoard()
cav.load_scenario({str(ROOT / "scenarios/terrafeud/rulebook/cavalry-stopped-in-zone.yaml")!r})
game = HexBoard(new_game(seed=0))
threat = HexBoard(plain.state_from_pieces(P({{"f1": "F", "l6": "f", "e9": "I", "f5": "k"}}), to_move=0))
from IPython.display import display
for b in (coord, cav, game, threat):
    display(b)
"""
DEATH, BLOCK, ATTACKER = (208, 2, 27), (255, 140, 0), (255, 23, 68)


def _serve(tmp: Path, *extra: str) -> Iterator[NotebookServer]:
    srv = NotebookServer(write_notebook(tmp / "boards.ipynb", BOARDS), tmp, app="voila", extra=("--template=workbench", *extra))
    try:
        srv.start()
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def light(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NotebookServer]:
    yield from _serve(tmp_path_factory.mktemp("light"))


@pytest.fixture(scope="module")
def light_page(browser, light: NotebookServer):  # noqa: ANN001, ANN201
    """One page (one kernel) for the Light tests: each works on its own board, so they share it."""
    page = ready(browser, light)
    yield page
    page.close()


def ready(browser, server: NotebookServer, width: int = 1400, height: int = 1000, query: str = ""):  # noqa: ANN001, ANN201
    page = open_page(browser, server, width, height, query)
    try:
        page.wait_for_function("() => document.querySelectorAll('.tf-root').length === 4", timeout=60_000)
    except Exception:  # playwright's TimeoutError: say what the page and the server saw
        pytest.fail(f"the boards never rendered; page errors {page.errors}\n{server.log()}")
    return page


def board(page, i: int):  # noqa: ANN001, ANN201 - coord, cav, game, threat
    return page.locator(".tf-root").nth(i)


def wait_text(locator, text: str, timeout: float = 15_000) -> None:  # noqa: ANN001
    locator.page.wait_for_function("([el, text]) => el.textContent.includes(text)",
                                   arg=[locator.element_handle(), text], timeout=timeout)


def hex_shot(b, h: str, pad: float = 4) -> bytes:  # noqa: ANN001
    poly = b.locator(f'polygon.tf-hex[data-hex="{h}"]')
    poly.scroll_into_view_if_needed()
    box = poly.bounding_box()
    return b.page.screenshot(clip={"x": box["x"] - pad, "y": box["y"] - pad, "width": box["width"] + 2 * pad,
                                   "height": box["height"] + 2 * pad})


def centre_of(b, h: str) -> tuple[float, float]:  # noqa: ANN001
    """A hex's centre on the screen (the board redraws its polygons, so ask again if one was just replaced)."""
    for _ in range(20):
        box = b.locator(f'polygon.tf-hex[data-hex="{h}"]').bounding_box()
        if box:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        b.page.wait_for_timeout(100)
    raise AssertionError(f"hex {h} is not on the screen")


def click(b, h: str) -> None:  # noqa: ANN001
    b.locator(f'polygon.tf-hex[data-hex="{h}"]').click()


def remote(page) -> list[tuple[str, str]]:  # noqa: ANN001
    """Requests the page tried outside 127.0.0.1 (each was blocked): there must be none."""
    return list(page.blocked)


def test_variation_kept_promoted_keys_drag_and_drawings(light_page, tmp_path: Path) -> None:  # noqa: ANN001
    page = light_page
    b = board(page, 2)
    moves = b.locator(".tf-moves")
    # drag and drop plays f3-f5 (the knight), then clicks play the rest
    b.locator('polygon.tf-hex[data-hex="f3"]').scroll_into_view_if_needed()
    (x1, y1), (x2, y2) = centre_of(b, "f3"), centre_of(b, "f5")
    page.mouse.move(x1, y1)
    page.mouse.down()
    page.mouse.move((x1 + x2) / 2, (y1 + y2) / 2, steps=4)
    page.mouse.move(x2, y2, steps=4)
    page.mouse.up()
    b.locator('.tf-piece[data-hex="f5"][data-piece="K"]').wait_for()
    for a, t in (("f9", "f7"), ("b1", "d4"), ("b7", "d6")):
        click(b, a)
        b.locator(f'.tf-target[data-hex="{t}"]').wait_for()
        click(b, t)
        b.locator(f'.tf-piece[data-hex="{t}"]').wait_for()
    # keys queue: End, then three fast ← presses land three moves back (none is lost)
    b.locator(".tf-svg").click(position={"x": 5, "y": 5})
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.querySelectorAll('.tf-root')[2].querySelector('.tf-status').textContent.includes('ply 1')")
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelectorAll('.tf-root')[2].querySelector('.tf-status').textContent.includes('ply 4')")
    # go back to after move 1 and play another black move: a variation, the main line kept
    moves.locator('.tf-move[data-ply="1"]').click()
    page.wait_for_function("() => document.querySelectorAll('.tf-root')[2].querySelector('.tf-status').textContent.includes('ply 1')")
    click(b, "k7")
    b.locator('.tf-target[data-hex="h6"]').wait_for()
    click(b, "h6")
    b.locator('.tf-line.tf-depth-1 .tf-move', has_text="k7-h6").wait_for()
    main = " ".join(b.locator(".tf-line.tf-depth-0").all_inner_texts())
    assert "f9-f7" in main and "b1-d4" in main and "b7-d6" in main, main
    assert "k7-h6" not in main
    page.screenshot(path=str(tmp_path / "variation.png"))
    # promote: the variation becomes the main line, the old line an indented variation
    b.locator("button.tf-btn-promote").click()
    b.locator('.tf-line.tf-depth-1 .tf-move', has_text="f9-f7").wait_for()
    assert "k7-h6" in " ".join(b.locator(".tf-line.tf-depth-0").all_inner_texts())
    page.screenshot(path=str(tmp_path / "promoted.png"))
    # End follows the (promoted) main line; Home and → step along it
    b.locator(".tf-svg").click(position={"x": 5, "y": 5})
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelectorAll('.tf-root')[2].querySelector('.tf-status').textContent.includes('ply 2')")
    page.keyboard.press("Home")
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelectorAll('.tf-root')[2].querySelector('.tf-status').textContent.includes('ply 2')")
    # right-drag draws an arrow (saved with the position), drawn in the user's colour
    (x1, y1), (x2, y2) = centre_of(b, "c5"), centre_of(b, "c7")
    page.mouse.move(x1, y1)
    page.mouse.down(button="right")
    page.mouse.move(x2, y2, steps=5)
    page.mouse.up(button="right")
    b.locator('.tf-shape-arrow[data-from="c5"]').wait_for(state="attached")  # a vertical line: no width to be "visible"
    assert not page.errors and not remote(page), (page.errors, page.blocked)


def test_coordinated_attack_previewed_and_deaths_marked(light_page, tmp_path: Path) -> None:  # noqa: ANN001
    page = light_page
    b = board(page, 0)
    click(b, "e3")
    b.locator('.tf-target[data-hex="e4"]').wait_for()
    before = hex_shot(b, "d4")
    b.locator('polygon.tf-hex[data-hex="e4"]').hover()
    b.locator('.tf-preview-death[data-hex="d4"]').wait_for()
    assert b.locator('.tf-preview-death[data-hex="c3"]').count() == 1
    wait_text(b.locator(".tf-hover"), "black feudal on d4 dies")
    assert "wins" in b.locator(".tf-preview-win").text_content()  # the win is previewed on the board
    assert colour_pixels(hex_shot(b, "d4"), DEATH) > colour_pixels(before, DEATH) + 40
    click(b, "e4")
    b.locator('.tf-death[data-hex="d4"][data-piece="f"]').wait_for()
    assert b.locator('.tf-death[data-hex="c3"][data-piece="I"]').count() == 1
    page.mouse.move(1, 1)
    assert colour_pixels(hex_shot(b, "d4"), DEATH) > 60 and colour_pixels(hex_shot(b, "c3"), DEATH) > 60
    assert "✕fd4" in b.locator(".tf-move.tf-current").inner_text()  # the move list says what the move did
    assert "White wins (destroyed)" in b.locator(".tf-result").inner_text()
    assert re.search(r"black f\b", b.locator(".tf-destroyed").inner_text()), b.locator(".tf-destroyed").inner_text()
    page.screenshot(path=str(tmp_path / "coordinated.png"))


def test_exact_reason_draws_its_blocking_hex_and_attackers_show(light_page, tmp_path: Path) -> None:  # noqa: ANN001
    page = light_page
    b = board(page, 1)
    click(b, "f4")
    b.locator('.tf-target[data-hex="e4"]').wait_for()
    b.locator('polygon.tf-hex[data-hex="d5"]').hover()  # hovering an unlit hex explains it in one line
    wait_text(b.locator(".tf-hover"), "zone of the black pikeman on d4")
    click(b, "d5")
    wait_text(b.locator(".tf-message"), "f4-d5: the gallop stops on e4: it is in the zone of the black pikeman on d4")
    b.locator('.tf-why-block[data-hex="e4"]').wait_for()
    assert b.locator('.tf-why-block[data-hex="d4"]').count() == 1 and b.locator(".tf-why-path").count() == 1
    page.mouse.move(1, 1)
    assert colour_pixels(hex_shot(b, "e4", pad=10), BLOCK) > 80
    page.screenshot(path=str(tmp_path / "reason.png"))
    t = board(page, 3)
    assert "white feudal under threat" in t.locator(".tf-status").inner_text()
    t.locator('.tf-attacker-line[data-from="f5"][data-to="f1"]').wait_for(state="attached")
    t.locator('polygon.tf-hex[data-hex="f3"]').scroll_into_view_if_needed()
    box = t.locator('.tf-attacker-line[data-from="f5"]').bounding_box()
    line = page.screenshot(clip={"x": box["x"] - 3, "y": box["y"], "width": box["width"] + 6, "height": box["height"]})
    assert colour_pixels(line, ATTACKER, tol=50) > 40
    page.screenshot(path=str(tmp_path / "attackers.png"))


def _background(page, selector: str) -> tuple[int, int, int]:  # noqa: ANN001
    """The colour behind an element: its own background or the first ancestor's that is not transparent."""
    rgb = page.evaluate("""(sel) => {
        let e = document.querySelector(sel);
        while (e) {
            const c = getComputedStyle(e).backgroundColor;
            const m = c.match(/rgba?\\(([^)]+)\\)/);
            if (m) { const p = m[1].split(',').map(Number); if (p.length < 4 || p[3] > 0.5) return p.slice(0, 3); }
            e = e.parentElement;
        }
        return [255, 255, 255]; }""", selector)
    return tuple(int(x) for x in rgb)


def _contrast(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    def lum(c: tuple[int, ...]) -> float:
        ch = [x / 255 for x in c]
        ch = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in ch]
        return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_light_and_dark_at_900_and_1400_keep_the_panel_in_sight(browser, theme: str, request, tmp_path: Path) -> None:  # noqa: ANN001
    page = (request.getfixturevalue("light_page") if theme == "light"
            else ready(browser, request.getfixturevalue("light"), query="?theme=dark"))
    for width in (1400, 900):  # one page, resized: the layout follows the width (a container query)
        page.set_viewport_size({"width": width, "height": 900})
        b = board(page, 3)  # the threat board: the other tests only look at it
        b.scroll_into_view_if_needed()
        click(b, "f1")  # a message appears: a refused click gives one
        click(b, "a6")
        wait_text(b.locator(".tf-message"), "f1-a6")
        board_box = b.locator(".tf-svg").bounding_box()
        for part in (".tf-status", ".tf-message", ".tf-moves"):
            box = b.locator(part).bounding_box()
            beside = box["x"] >= board_box["x"] + board_box["width"] - 5
            above = box["y"] + box["height"] <= board_box["y"] + 5
            assert beside or above, (theme, width, part, box, board_box)
            assert box["y"] < board_box["y"] + board_box["height"], (theme, width, part)  # not below the board
        assert not b.locator(".tf-legend").is_visible()  # the legend is collapsed until asked for
        text = page.evaluate("() => getComputedStyle(document.querySelectorAll('.tf-root')[3].querySelector('.tf-status')).color")
        fg = tuple(int(x) for x in re.findall(r"\d+", text)[:3])
        bg = _background(page, ".tf-status")
        assert _contrast(fg, bg) >= 4.5, (theme, width, fg, bg)
        page.screenshot(path=str(tmp_path / f"{theme}-{width}.png"))
        assert not page.errors and not remote(page), (page.errors, page.blocked)
    if theme == "dark":
        assert page.evaluate("() => document.body.dataset.jpThemeLight") == "false"  # JupyterLab Dark is on
        page.close()
