"""Issue 24: the served board (``make play``'s settings, ``workbench/serving.py``) cannot be
exhausted by anonymous page loads, and its page fetches nothing from outside the machine.

Figures (printed): kernels alive after 50 plain GETs, and once the unconnected timeout has
passed; the requests a real Chromium page makes and how many leave 127.0.0.1 (must be 0)."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest

from workbench import serving

from .serve import free_port

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "01_play.ipynb"


class Served:
    """The board served exactly as ``make play`` serves it, on a free loopback port."""

    def __init__(self, workdir: Path, extra: list[str] | None = None) -> None:
        self.port = free_port()
        env = serving.voila_env()
        for name in ("runtime", "config", "data"):
            d = workdir / f"jupyter-{name}"
            d.mkdir(exist_ok=True)
            env[f"JUPYTER_{name.upper()}_DIR"] = str(d)
        self.log = workdir / "voila.log"
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(serving.voila_command(NOTEBOOK, self.port, extra), cwd=workdir, env=env,
                                         stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while "is running at" not in self.log.read_text(errors="replace"):
            assert self.proc.poll() is None and time.monotonic() < deadline, self.log.read_text()[-3000:]
            time.sleep(0.3)
        self.url = f"http://127.0.0.1:{self.port}/"

    def kernels(self) -> int:
        """Kernel processes alive (children of the Voila process)."""
        out = subprocess.run(["pgrep", "-P", str(self.proc.pid), "-f", "ipykernel"], capture_output=True, text=True)
        return len(out.stdout.split())

    def stop(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        except ProcessLookupError:
            pass


@pytest.fixture
def served(tmp_path):
    server = Served(tmp_path)
    try:
        yield server
    finally:
        server.stop()


def _get(url: str, codes: list[int]) -> None:
    try:
        with urllib.request.urlopen(url, timeout=120) as r:
            r.read()
            codes.append(r.status)
    except urllib.error.HTTPError as exc:
        codes.append(exc.code)
        body = exc.read().decode("utf-8", "replace")
        assert "Traceback" not in body


def test_fifty_plain_gets_leave_no_kernel_behind(served):
    codes: list[int] = []
    threads = [threading.Thread(target=_get, args=(served.url, codes)) for _ in range(50)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    peak = 0
    while any(t.is_alive() for t in threads):
        peak = max(peak, served.kernels())
        time.sleep(0.2)
    after_gets = served.kernels()
    served_pages, busy = codes.count(200), codes.count(503)
    assert served_pages + busy == 50 and 1 <= served_pages <= serving.MAX_KERNELS
    assert max(peak, after_gets) <= serving.MAX_KERNELS
    while served.kernels() and time.monotonic() - t0 < serving.UNCONNECTED_TIMEOUT + 60:
        time.sleep(1)
    left = served.kernels()
    print(f"50 plain GETs: {served_pages} pages, {busy} busy (503); kernels alive at most {max(peak, after_gets)}, "
          f"{after_gets} when the GETs ended, {left} after {time.monotonic() - t0:.0f} s")
    assert left == 0


def test_the_page_makes_no_request_outside_the_machine_and_keeps_its_kernel(served, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    seen: list[str] = []
    outside: list[str] = []

    def record(route) -> None:  # noqa: ANN001 - playwright's Route
        url = route.request.url
        seen.append(url)
        host = urlparse(url).hostname
        if host in ("127.0.0.1", None) or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    page.route("**/*", record)
    try:
        page.goto(served.url, wait_until="domcontentloaded", timeout=60_000)
        page.wait_for_selector('svg.tf-svg .tf-piece[data-hex="f3"]', timeout=60_000)
        page.wait_for_timeout(1500)  # late assets (fonts, lazy chunks)
        print(f"the served page made {len(seen)} requests, {len(outside)} outside 127.0.0.1: {outside}")
        assert outside == []
        # a visitor who keeps the page open keeps the kernel past the unconnected timeout
        page.wait_for_timeout(int((serving.UNCONNECTED_TIMEOUT + serving.CULL_INTERVAL + 2) * 1000))
        assert served.kernels() == 1
        assert page.locator('svg.tf-svg .tf-piece[data-hex="f3"]').count() >= 1  # the board is still there
    finally:
        page.close()
