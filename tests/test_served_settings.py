"""Issue 24: the served board's kernel limits (``workbench.serving``) without a browser: the cap
refuses a kernel beyond ``max_kernels`` with a 503, a kernel nobody connects to is shut down, and
the template's CDN links are the ones Voila's lab template really has."""

from __future__ import annotations

import asyncio
import concurrent.futures
from pathlib import Path

import pytest
from tornado import web

from workbench import serving


def test_the_cap_and_the_unconnected_timeout(tmp_path, monkeypatch):
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path))

    # a timeout long enough that a kernel slow to start on a loaded machine is still there for the 503
    async def scenario() -> tuple[int, int, int, int]:
        km = serving.BoundedKernelManager(max_kernels=1, unconnected_timeout=4.0, connection_dir=str(tmp_path))
        first = await km.start_kernel(kernel_name="python3")
        with pytest.raises(web.HTTPError) as err:
            await km.start_kernel(kernel_name="python3")
        alive = len(km.list_kernel_ids())
        for _ in range(300):  # the timeout shuts it down: nobody opened a websocket (a loaded CI is slow)
            await asyncio.sleep(0.1)
            if first not in km:
                break
        after = len(km.list_kernel_ids())
        second = await km.start_kernel(kernel_name="python3")  # the slot is free again
        km.notify_connect(second)  # a page connected: the timeout leaves it alone
        await asyncio.sleep(1.5)
        kept = len(km.list_kernel_ids())
        await km.shutdown_all()
        return err.value.status_code, alive, after, kept

    # in its own thread: an earlier test (Playwright's sync API) may leave an event loop running here
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        code, alive, after, kept = pool.submit(asyncio.run, scenario()).result()
    assert (code, alive, after, kept) == (503, 1, 0, 1)


def test_the_template_drops_exactly_the_cdn_links_of_voilas_lab_template():
    import voila

    lab = Path(voila.__file__).resolve().parents[4] / "share" / "jupyter" / "voila" / "templates" / "lab"
    ours = (serving.TEMPLATES / "voila" / "templates" / "workbench" / "index.html.j2").read_text()
    if not (lab / "index.html.j2").exists():
        pytest.skip("Voila's lab template is not where a venv keeps it")
    theirs = (lab / "index.html.j2").read_text()
    links = [line.strip() for line in theirs.splitlines() if "https://" in line and "<link" in line]
    assert links, "Voila's lab template links nothing external any more: the override can go"
    for link in links:
        assert link in ours  # replaced verbatim, so a change in Voila shows here first
    assert "html_head_js_mermaidjs" in ours
    assert "--template=workbench" in serving.VOILA_SETTINGS
    assert serving.voila_env({})["JUPYTER_PATH"].split(":")[0] == str(serving.TEMPLATES)


def test_a_served_kernel_imports_the_board_at_once_and_every_game_in_a_thread(tmp_path: Path) -> None:
    """``PREWARM`` (the served kernels' startup file, run in an IPython shell as a kernel runs it): the board is
    imported before the notebook runs, every registered game in a background thread (beside the kernel's wait for
    the page), and the first cell runs only once they all are (the first board never shares the interpreter)."""
    import os
    import subprocess
    import sys

    probe = ("from IPython.core.interactiveshell import InteractiveShell\n"
             "import sys\n"
             "from traitlets.config import Config\n"
             "config = Config()\n"
             "config.HistoryManager.enabled = False\n"
             "shell = InteractiveShell.instance(config=config)\n"
             "shell.run_cell(sys.argv[1])\n"
             "board = 'workbench.widget.board' in sys.modules\n"
             "shell.run_cell('import threading, sys; from workbench.games import PACKAGES; '\n"
             "               'alive = [t.is_alive() for t in threading.enumerate() if t.name == \"workbench-warm\"]; '\n"
             "               'missing = sorted(set(PACKAGES.values()) - set(sys.modules))')\n"
             "ns = shell.user_ns\n"
             "print(board, ns['alive'], ns['missing'], len(shell.events.callbacks['pre_run_cell']))\n")
    env = {**os.environ, "IPYTHONDIR": str(tmp_path)}  # nobody's own IPython profile
    out = subprocess.run([sys.executable, "-c", probe, serving.PREWARM], capture_output=True, text=True, timeout=180,
                         cwd=Path(serving.ROOT), env=env, check=True).stdout.split()
    assert out == ["True", "[]", "[]", "1"], out  # the thread ended before the cell ran, every game imported
