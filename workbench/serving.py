"""The served board (``make play``): Voila with limits, so strangers cannot exhaust the machine.

Every plain GET of a Voila page starts a kernel (~64 MB) and runs the notebook (~1.3 s of CPU)
before any websocket opens, and Voila culls nothing by default: five ``curl`` calls left six
kernels alive. ``python -m workbench.serving NOTEBOOK`` starts Voila with:

- ``BoundedKernelManager``: at most ``max_kernels`` kernels at once (a GET beyond that is a
  503 "busy" page that costs no kernel), and a kernel whose page never opens its websocket
  within ``unconnected_timeout`` seconds (a ``curl``, a crawler, a closed tab) is shut down;
- jupyter_server's culler for the rest: a kernel idle ``cull_idle_timeout`` seconds is shut
  down, connected or not (``cull_connected``), checked every ``cull_interval`` seconds;
- the ``workbench`` template (``workbench/share/jupyter/voila/templates/workbench``): Voila's lab template
  without its Font Awesome links to a CDN, so no page asset comes from outside the machine
  (nothing on the board uses those icons);
- loopback only (``127.0.0.1``) and no tracebacks on the page (the lab template loads no MathJax);
- a warm kernel: served kernels run ``PREWARM`` at start (an IPython startup file in their own
  ``IPYTHONDIR``), importing the board, then every registered game in a background thread while the kernel
  waits for the page;
- progressive rendering: the page's front end boots at once and the kernel's outputs stream into it as
  each cell runs, so the board is drawn well under a second after the kernel has built it (without it,
  Voila's ~2 MB front end only starts after the last cell: 2.5-3.8 s on the loaded 2 cores;
  ``python -m workbench.widget.bench --page``).

``VOILA_SETTINGS`` is the one list of these settings; ``docs/deployment.md`` gives the figures.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Float, Integer

ROOT = Path(__file__).resolve().parents[1]
# holds voila/templates/workbench (JUPYTER_PATH points here); inside the package, so an installed
# workbench serves the same page as a checkout
TEMPLATES = Path(__file__).resolve().parent / "share" / "jupyter"

MAX_KERNELS = 8  # ~64 MB and one notebook run each: 8 visitors at once on a small machine
UNCONNECTED_TIMEOUT = 20.0  # seconds a page has to open its websocket after the GET
IDLE_TIMEOUT = 900  # seconds without a message before an idle kernel is culled (connected too)
CULL_INTERVAL = 10  # seconds between the culler's rounds

VOILA_SETTINGS = [
    "--Voila.ip=127.0.0.1",
    "--no-browser",
    "--template=workbench",
    "--VoilaConfiguration.multi_kernel_manager_class=workbench.serving.BoundedKernelManager",
    f"--BoundedKernelManager.max_kernels={MAX_KERNELS}",
    f"--BoundedKernelManager.unconnected_timeout={UNCONNECTED_TIMEOUT}",
    f"--MappingKernelManager.cull_idle_timeout={IDLE_TIMEOUT}",
    f"--MappingKernelManager.cull_interval={CULL_INTERVAL}",
    "--MappingKernelManager.cull_connected=True",
    "--MappingKernelManager.cull_busy=False",
    "--VoilaConfiguration.show_tracebacks=False",
    "--VoilaConfiguration.progressive_rendering=True",
]


class BoundedKernelManager(AsyncMappingKernelManager):
    """A kernel manager that caps how many kernels run and shuts down those nobody connects to."""

    max_kernels = Integer(MAX_KERNELS, config=True, help="most kernels alive at once; beyond, a GET gets a 503")
    unconnected_timeout = Float(UNCONNECTED_TIMEOUT, config=True,
                                help="seconds a kernel may wait for its first websocket before it is shut down")

    def __init__(self, **kwargs: Any) -> None:  # traitlets configuration
        super().__init__(**kwargs)  # type: ignore[no-untyped-call]  # jupyter_server's own is untyped
        self._starting = 0  # kernels being started right now (they count against the cap)
        self._ever_connected: set[str] = set()

    # the async manager's methods are coroutines; jupyter_client's stubs type the synchronous base class's
    async def start_kernel(self, *args: Any, **kwargs: Any) -> str:  # type: ignore[override]
        kernel_id = kwargs.get("kernel_id")
        if kernel_id is None or kernel_id not in self:
            if len(self.list_kernel_ids()) + self._starting >= self.max_kernels:
                self.log.warning("kernel cap reached (%d running): refusing a new one", self.max_kernels)
                raise web.HTTPError(503, "the board is serving as many visitors as it can; try again in a minute")
            self._starting += 1
            try:
                kernel_id = await super().start_kernel(*args, **kwargs)
            finally:
                self._starting -= 1
            if (kwargs.get("env") or {}).get("VOILA_PREHEAT") != "True":  # a preheated pool's kernel waits on purpose
                asyncio.get_running_loop().call_later(
                    self.unconnected_timeout, lambda: asyncio.ensure_future(self._cull_if_unconnected(kernel_id)))
            return kernel_id
        return await super().start_kernel(*args, **kwargs)

    def notify_connect(self, kernel_id: str) -> None:
        self._ever_connected.add(kernel_id)
        super().notify_connect(kernel_id)  # type: ignore[no-untyped-call]

    async def _cull_if_unconnected(self, kernel_id: str) -> None:
        """Shut down a kernel whose page never opened its websocket (a plain GET)."""
        if kernel_id in self and kernel_id not in self._ever_connected and not self._kernel_connections.get(kernel_id):
            self.log.info("culling kernel %s: no websocket within %.0f s", kernel_id, self.unconnected_timeout)
            try:
                await self.shutdown_kernel(kernel_id)
            except Exception as exc:  # noqa: BLE001 - already gone, or dying: nothing to add
                self.log.debug("kernel %s: %s", kernel_id, exc)

    async def shutdown_kernel(self, kernel_id: str, now: bool = False, restart: bool = False) -> None:  # type: ignore[override]
        self._ever_connected.discard(kernel_id)
        await super().shutdown_kernel(kernel_id, now=now, restart=restart)  # type: ignore[no-untyped-call]


def voila_command(notebook: str | os.PathLike[str], port: int, extra: list[str] | None = None) -> list[str]:
    """The Voila command line of the served board."""
    return [sys.executable, "-m", "voila", str(notebook), f"--Voila.port={port}", "--Voila.port_retries=0",
            *VOILA_SETTINGS, *(extra or [])]


# What a served kernel runs before the notebook: the board's imports, then every game's in a background thread,
# so the notebook's first board is built from warm modules. The games are imported beside the kernel's wait for
# the page rather than before it (the page total fell by ~3 s: `docs/deployment.md`), and the first cell waits for
# them to end. A failure here only leaves the kernel cold.
PREWARM = """\
try:
    import workbench.widget.board

    def _workbench_warm():
        try:
            from workbench.games import get, names
            for name in names():
                get(name)
        except Exception:
            pass

    import threading as _threading
    _workbench_thread = _threading.Thread(target=_workbench_warm, name="workbench-warm", daemon=True)
    _workbench_thread.start()
    # the notebook's first cell waits for the imports to end (at most 30 s), so the first board never shares the
    # interpreter with them
    get_ipython().events.register("pre_run_cell", lambda *_: _workbench_thread.join(30))  # noqa: F821
    del _workbench_warm, _threading
except Exception:
    pass
"""


def kernel_ipython_dir() -> Path:
    """The served kernels' own IPython folder (in the user's cache folder, never a shared temporary one that
    another user could fill): a profile whose startup file is ``PREWARM``, so the served page's kernels start
    warm and a user's own profile is never run by a page."""
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "workbench" / "served-ipython"
    startup = home / "profile_default" / "startup"
    startup.mkdir(parents=True, exist_ok=True, mode=0o700)
    target = startup / "00-workbench-prewarm.py"
    if not target.exists() or target.read_text(encoding="utf-8") != PREWARM:
        target.write_text(PREWARM, encoding="utf-8")
    return home


def voila_env(base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment: this repository first on ``PYTHONPATH`` (the kernel manager class), ``JUPYTER_PATH``
    (the template) and the kernels' ``IPYTHONDIR`` (``PREWARM``)."""
    env = dict(os.environ if base is None else base)
    env["IPYTHONDIR"] = str(kernel_ipython_dir())
    env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(TEMPLATES), env.get("JUPYTER_PATH")]))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


def main(argv: list[str] | None = None) -> int:
    """``python -m workbench.serving NOTEBOOK [--port N] [VOILA ARGS...]``: serve with the limits."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        print("settings:\n  " + "\n  ".join(VOILA_SETTINGS))
        return 0 if args else 2
    notebook, rest = args[0], args[1:]
    port = 8866
    if rest[:1] == ["--port"] and len(rest) >= 2:
        port, rest = int(rest[1]), rest[2:]
    cmd = voila_command(notebook, port, rest)
    os.execvpe(cmd[0], cmd, voila_env())
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
