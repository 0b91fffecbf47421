"""The HexBoard in a real browser: headless Debian Chromium (Playwright) against a Voila-served notebook.

Proves the wiring the Python tests cannot: the anywidget front end loads offline from the local
Jupyter server, a click on the SVG reaches the kernel, and the board redraws from the Python state.
Every request not to 127.0.0.1 is blocked; the server and kernel are stopped by PID at the end.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

from workbench.engine import new_game

from .serve import CHROMIUM, CHROMIUM_ARGS, VoilaServer, write_notebook

pytestmark = pytest.mark.browser

BOARD_CODE = "from workbench.widget import HexBoard\nboard = HexBoard(seed=0)\nboard"


@pytest.fixture(scope="module")
def voila(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VoilaServer]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: `make chromium` installs Debian's chromium for the browser tests")
    workdir = tmp_path_factory.mktemp("voila")
    server = VoilaServer(write_notebook(workdir / "board.ipynb", BOARD_CODE), workdir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def page(voila: VoilaServer):  # noqa: ANN201 - playwright's Page
    sync_api = pytest.importorskip("playwright.sync_api")
    blocked: list[tuple[str, str]] = []

    def only_loopback(route) -> None:  # noqa: ANN001 - playwright's Route
        if urlparse(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            blocked.append((route.request.resource_type, route.request.url))
            route.abort()

    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            pg = browser.new_page(viewport={"width": 1200, "height": 900})
            pg.route("**/*", only_loopback)
            errors: list[str] = []
            pg.on("pageerror", lambda exc: errors.append(str(exc)))
            pg.goto(voila.url, wait_until="domcontentloaded", timeout=30_000)
            try:
                pg.wait_for_selector('svg.tf-svg .tf-piece[data-hex="f3"]', timeout=40_000)
            except sync_api.TimeoutError:
                pytest.fail(f"the board never rendered; page errors {errors}; blocked {blocked}\n{voila.log()}")
            pg.blocked = blocked  # type: ignore[attr-defined]
            yield pg
        finally:
            browser.close()


def test_click_piece_then_destination_plays_it_in_python(page, tmp_path: Path) -> None:  # noqa: ANN001
    board = page.locator("svg.tf-svg")
    assert board.locator(".tf-piece").count() == len(new_game(seed=0).pieces())
    assert page.locator(".tf-status").get_attribute("data-to-move") == "white"

    board.locator('polygon.tf-hex[data-hex="f3"]').click()
    # The lit hexes come from Python's legal actions: their arrival proves the first round trip.
    page.wait_for_selector('polygon.tf-hex.tf-selected[data-hex="f3"]', timeout=15_000)
    page.wait_for_selector('.tf-target[data-hex="f5"][data-target="move"]', timeout=15_000)
    assert page.locator('.tf-target[data-hex="f7"]').get_attribute("data-target") == "stop"

    board.locator('polygon.tf-hex[data-hex="f5"]').click()
    page.wait_for_selector('.tf-piece[data-hex="f5"][data-piece="K"]', timeout=15_000)
    assert board.locator('.tf-piece[data-hex="f3"]').count() == 0
    assert page.locator(".tf-status").get_attribute("data-to-move") == "black"
    assert page.locator(".tf-moves li").all_inner_texts() == ["f3-f5"]
    assert board.locator(".tf-target").count() == 0

    # An illegal click shows the engine's reason, written by Python into the panel.
    board.locator('polygon.tf-hex[data-hex="f5"]').click()
    page.wait_for_function(
        "() => document.querySelector('.tf-message').textContent.includes('white piece')", timeout=15_000
    )
    # Undo is a Python round trip too.
    page.locator("button.tf-btn-undo").click()
    page.wait_for_selector('.tf-piece[data-hex="f3"][data-piece="K"]', timeout=15_000)
    assert page.locator(".tf-moves li").count() == 0
    page.screenshot(path=str(tmp_path / "hexboard.png"))
    # Voila's page template asks a CDN for icon fonts (blocked, harmless); the widget itself needs nothing outside.
    assert not [u for kind, u in page.blocked if kind not in ("stylesheet", "font")], page.blocked
