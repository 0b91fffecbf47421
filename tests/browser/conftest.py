"""Shared browser helpers: pages that reach 127.0.0.1 only, pixel counts of screenshots. The ``browser``
fixture (Debian's Chromium through Playwright) is in ``tests/conftest.py``: one for every browser test."""

from __future__ import annotations

import io
from urllib.parse import urlparse

from .serve import NotebookServer


def open_page(browser, server: NotebookServer, width: int = 1400, height: int = 1000, query: str = ""):  # noqa: ANN001, ANN201
    """A page on the server's notebook that may reach 127.0.0.1 only; records what it blocked.

    ``query`` is added to the URL (``?theme=dark``: Voila's Dark theme for this page).
    """
    page = browser.new_page(viewport={"width": width, "height": height}, accept_downloads=True)
    page.blocked = []

    def only_loopback(route) -> None:  # noqa: ANN001 - playwright's Route
        if urlparse(route.request.url).hostname == "127.0.0.1":
            route.continue_()
        else:
            page.blocked.append((route.request.resource_type, route.request.url))
            route.abort()

    page.set_default_timeout(15_000)
    page.route("**/*", only_loopback)
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.goto(server.url + query, wait_until="domcontentloaded", timeout=30_000)
    return page


def colour_pixels(png: bytes, rgb: tuple[int, int, int], tol: int = 40) -> int:
    """How many pixels of a PNG screenshot are within ``tol`` of colour ``rgb`` on every channel."""
    import numpy as np
    from PIL import Image

    img = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int)
    return int((np.abs(img - np.array(rgb)).max(axis=2) <= tol).sum())


def differing_pixels(a: bytes, b: bytes, tol: int = 60) -> int:
    """Pixels that differ by more than ``tol`` on some channel between two same-size screenshots."""
    import numpy as np
    from PIL import Image

    ia, ib = (np.asarray(Image.open(io.BytesIO(x)).convert("RGB"), dtype=int) for x in (a, b))
    return int((np.abs(ia - ib).max(axis=2) > tol).sum())
