"""Every test may import the helpers of ``tests/`` (``nbhelp``, ``tinygame``, ``browser``) by name, and the
browser tests (``browser/``: the one board's suite, TerraFeud's own part included, and the served page) share
one Chromium."""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def browser():  # noqa: ANN201 - playwright's Browser
    # One per session: Playwright's sync API refuses a second one while the first runs.
    from browser.serve import CHROMIUM, CHROMIUM_ARGS

    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: `make chromium` installs Debian's chromium for the browser tests")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()
