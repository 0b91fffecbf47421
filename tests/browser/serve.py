"""Serve a notebook with Voila or JupyterLab on 127.0.0.1 for the browser tests; stop server and kernel by PID.

The server runs in its own process group with private Jupyter runtime/config directories, so nothing of
the user's Jupyter set-up leaks in. The kernel is started by jupyter_client in a session of its own,
so the served notebook writes its PID to a file and ``stop`` kills it explicitly.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
KERNEL_PID_ENV = "TF_KERNEL_PID_FILE"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_notebook(path: Path, code: str) -> Path:
    """A one-widget notebook whose first cell records the kernel's PID for the teardown."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            f"import os\n_ = open(os.environ[{KERNEL_PID_ENV!r}], 'w').write(str(os.getpid()))"
        ),
        nbformat.v4.new_code_cell(code),
    ]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path


@dataclass
class NotebookServer:
    """A running Voila (``app="voila"``) or JupyterLab (``app="lab"``) process serving one notebook."""

    notebook: Path
    workdir: Path
    app: str = "voila"
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None
    log_path: Path | None = None
    extra: tuple[str, ...] = ()  # more command-line options (``--theme=dark`` for Voila)
    lab_theme: str | None = None  # JupyterLab's theme ("JupyterLab Dark"), written to the private user settings

    @property
    def url(self) -> str:
        """The page that shows the notebook (Voila renders it; Lab opens it, cells not yet run)."""
        if self.app == "lab":
            return f"http://127.0.0.1:{self.port}/lab/tree/{self.notebook.name}"
        return f"http://127.0.0.1:{self.port}/"

    @property
    def kernel_pid_file(self) -> Path:
        return self.workdir / "kernel.pid"

    def start(self, timeout: float = 30.0) -> None:
        """Start the server and wait until it accepts connections on its port."""
        env = dict(os.environ)
        for name in ("runtime", "config"):
            d = self.workdir / f"jupyter-{name}"
            d.mkdir(exist_ok=True)
            env[f"JUPYTER_{name.upper()}_DIR"] = str(d)
        env[KERNEL_PID_ENV] = str(self.kernel_pid_file)
        if any(x.startswith("--template=workbench") for x in self.extra):  # the served page's template (workbench.serving)
            from workbench.serving import TEMPLATES

            env["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(TEMPLATES), env.get("JUPYTER_PATH")]))
        if self.lab_theme:
            settings = self.workdir / "jupyter-config" / "lab" / "user-settings" / "@jupyterlab" / "apputils-extension"
            settings.mkdir(parents=True, exist_ok=True)
            (settings / "themes.jupyterlab-settings").write_text(json.dumps({"theme": self.lab_theme}))
            env["JUPYTERLAB_SETTINGS_DIR"] = str(self.workdir / "jupyter-config" / "lab" / "user-settings")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parents[2]), env.get("PYTHONPATH")]))
        self.log_path = self.workdir / f"{self.app}.log"
        if self.app == "lab":  # no token: the server listens on loopback only and lives for one test
            cmd = [
                sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={self.port}",
                "--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password=",
                "--allow-root", f"--ServerApp.root_dir={self.notebook.parent}",
                "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            ]
        else:
            cmd = [
                sys.executable, "-m", "voila", str(self.notebook),
                "--no-browser", f"--port={self.port}", "--Voila.ip=127.0.0.1",
                f"--Voila.root_dir={self.notebook.parent}",
            ]
        cmd += list(self.extra)
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                cmd, cwd=self.workdir, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.app} exited with code {self.proc.returncode}:\n{self.log()}")
            try:  # a TCP connect: any GET of the page itself would start a kernel
                with socket.create_connection(("127.0.0.1", self.port), timeout=2):
                    return
            except OSError:
                time.sleep(0.3)
        raise RuntimeError(f"{self.app} did not answer on {self.url} within {timeout} s:\n{self.log()}")

    def log(self) -> str:
        """The server's output so far (for failure messages)."""
        return self.log_path.read_text(errors="replace")[-4000:] if self.log_path and self.log_path.exists() else ""

    def stop(self) -> None:
        """Kill the kernel (its own session: PID from its file), then the server's process group, and reap it."""
        if self.kernel_pid_file.exists():
            text = self.kernel_pid_file.read_text().strip()
            if text.isdigit():
                kill_pid(int(text))
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        except ProcessLookupError:
            self.proc.wait(timeout=10)


def kill_pid(pid: int, grace: float = 5.0) -> None:
    """SIGTERM one process (not our child), then SIGKILL if it is still there after ``grace`` seconds."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
