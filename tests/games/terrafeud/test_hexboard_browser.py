"""HexBoard (the one board under its first name, on TerraFeud) in a real browser: headless Debian Chromium (Playwright) against served notebooks.

Proves the wiring the Python tests cannot: the anywidget front end loads offline from the local
Jupyter server (Voila and JupyterLab), a click on the SVG reaches the kernel, and the board redraws
from the Python state. Every request not to 127.0.0.1 is blocked; servers and kernels are stopped by PID.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser.conftest import open_page
from browser.serve import NotebookServer, write_notebook

from workbench.games.terrafeud.engine import new_game

pytestmark = pytest.mark.browser

BOARD_CODE = "from workbench.widget import HexBoard\nboard = HexBoard(seed=0)\nboard"


def serve(app: str, tmp_path: Path, lab_theme: str | None = None) -> Iterator[NotebookServer]:
    server = NotebookServer(write_notebook(tmp_path / "board.ipynb", BOARD_CODE), tmp_path, app=app, lab_theme=lab_theme)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def voila(tmp_path: Path) -> Iterator[NotebookServer]:
    yield from serve("voila", tmp_path)


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[NotebookServer]:
    yield from serve("lab", tmp_path, lab_theme="JupyterLab Dark")  # Light is the Voila tests' theme


def wait_for_board(page, server: NotebookServer) -> None:  # noqa: ANN001
    try:
        page.wait_for_selector('svg.tf-svg .tf-piece[data-hex="f3"]', timeout=40_000)
    except Exception:  # playwright's TimeoutError: say what the page and the server saw
        pytest.fail(f"the board never rendered; page errors {page.errors}; blocked {page.blocked}\n{server.log()}")


def play_knight_and_check(page) -> None:  # noqa: ANN001
    """Click the knight f3, then f5: the lit hexes, the redraw and the panel all come from Python."""
    board = page.locator("svg.tf-svg")
    assert board.locator(".tf-piece").count() == len(new_game(seed=0).pieces())
    assert page.locator(".tf-status").get_attribute("data-to-move") == "white"
    board.locator('polygon.tf-hex[data-hex="f3"]').click()
    page.wait_for_selector('polygon.tf-hex.tf-selected[data-hex="f3"]', timeout=15_000)
    page.wait_for_selector('.tf-target[data-hex="f5"][data-target="move"]', timeout=15_000)
    assert page.locator('.tf-target[data-hex="f7"]').get_attribute("data-target") == "stop"
    board.locator('polygon.tf-hex[data-hex="f5"]').click()
    page.wait_for_selector('.tf-piece[data-hex="f5"][data-piece="K"]', timeout=15_000)
    assert board.locator('.tf-piece[data-hex="f3"]').count() == 0
    assert page.locator(".tf-status").get_attribute("data-to-move") == "black"
    assert page.locator(".tf-moves .tf-move-text").all_inner_texts() == ["f3-f5"]
    assert board.locator(".tf-target").count() == 0


def test_voila_click_piece_then_destination_plays_it_in_python(browser, voila: NotebookServer, tmp_path: Path) -> None:  # noqa: ANN001
    page = open_page(browser, voila)
    wait_for_board(page, voila)
    play_knight_and_check(page)
    # An illegal click shows the engine's reason, written by Python into the panel.
    page.locator('svg.tf-svg polygon.tf-hex[data-hex="f5"]').click()
    page.wait_for_function(
        "() => document.querySelector('.tf-message').textContent.includes('white piece')", timeout=15_000
    )
    page.locator("button.tf-btn-undo").click()
    page.wait_for_selector('.tf-piece[data-hex="f3"][data-piece="K"]', timeout=15_000)
    assert page.locator(".tf-move:not(.tf-future)").count() == 0 and page.locator(".tf-move.tf-future").count() == 1
    page.screenshot(path=str(tmp_path / "hexboard-voila.png"))
    # Voila's page template asks a CDN for icon fonts (blocked, harmless); the widget itself needs nothing outside.
    assert not [u for kind, u in page.blocked if kind not in ("stylesheet", "font")], page.blocked


def test_jupyterlab_runs_the_cell_and_plays_a_click(browser, lab: NotebookServer, tmp_path: Path) -> None:  # noqa: ANN001
    page = open_page(browser, lab, width=800, height=900)  # an 800 px window: the notebook leaves the board ~500 px
    page.wait_for_selector("text=Python 3 (ipykernel) | Idle", timeout=40_000)
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    wait_for_board(page, lab)
    play_knight_and_check(page)
    # JupyterLab Dark: the panel's text stays light on the dark ground (it went dark on dark)
    fg, bg = page.evaluate("""() => {
        const rgb = (c) => c.match(/[0-9.]+/g).map(Number);
        const s = document.querySelector('.tf-status');
        let e = s, back = [255, 255, 255];
        while (e) {
            const c = rgb(getComputedStyle(e).backgroundColor);
            if (c.length < 4 || c[3] > 0.5) { back = c.slice(0, 3); break; }
            e = e.parentElement;
        }
        return [rgb(getComputedStyle(s).color).slice(0, 3), back]; }""")
    assert sum(bg) / 3 < 110 and sum(fg) / 3 > 170, (fg, bg)  # light text on the dark theme's ground
    board_box = page.locator(".tf-svg").bounding_box()
    for part in (".tf-status", ".tf-message", ".tf-moves"):  # beside or above the board, never below it
        box = page.locator(part).bounding_box()
        if box:
            assert box["x"] >= board_box["x"] + board_box["width"] - 5 or box["y"] + box["height"] <= board_box["y"] + 5, part
    page.screenshot(path=str(tmp_path / "hexboard-lab.png"))
    assert not [u for kind, u in page.blocked if kind not in ("stylesheet", "font", "image")], page.blocked
