"""``make lab`` and ``make play`` start (as root too) and listen on 127.0.0.1 only; then they are stopped."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "browser"))
from serve import free_port  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.browser  # a real server, like the browser tests


def listening(port: int) -> set[str]:
    """Local addresses with a LISTEN socket on ``port`` (from /proc/net/tcp and tcp6)."""
    out = set()
    for name, width in (("tcp", 8), ("tcp6", 32)):
        path = Path("/proc/net") / name
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            addr, hexport = fields[1].split(":")
            if fields[3] == "0A" and int(hexport, 16) == port:  # 0A: LISTEN
                if width == 8:
                    out.add(".".join(str(int(addr[i:i + 2], 16)) for i in (6, 4, 2, 0)))
                else:
                    out.add("v6:" + addr)
    return out


@pytest.mark.parametrize("target", ["lab", "play"])
def test_make_server_listens_on_loopback_only(target: str, tmp_path: Path) -> None:
    port = free_port()
    env = dict(os.environ)
    for name in ("runtime", "config", "data"):
        d = tmp_path / name
        d.mkdir()
        env[f"JUPYTER_{name.upper()}_DIR"] = str(d)
    var = "LAB" if target == "lab" else "PLAY"
    args = "--no-browser --LabApp.news_url= --LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate" \
        if target == "lab" else "--no-browser"
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(["make", "-s", "-C", str(ROOT), target, f"{var}_PORT={port}", f"{var}_ARGS={args}"],
                                env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not listening(port):
            assert proc.poll() is None, f"make {target} exited ({os.geteuid()=}):\n{log.read_text()[-3000:]}"
            time.sleep(0.3)
        addrs = listening(port)
        assert addrs == {"127.0.0.1"}, f"make {target} listens on {addrs}:\n{log.read_text()[-2000:]}"
        assert "Running as root is not recommended" not in log.read_text()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
