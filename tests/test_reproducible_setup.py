"""Issue 24: set-ups build the same thing twice. ``make setup`` installs exactly the versions of
``constraints.txt``, the native build passes ``--locked`` (``native/Cargo.lock``), and
``make lock`` is the one command that updates both."""

from __future__ import annotations

import re
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)$")


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        m = PIN.match(line.strip())
        assert m, f"constraints.txt: {line!r} is not an exact pin name==version"
        pins[_norm(m.group(1))] = m.group(2)
    return pins


def test_every_dependency_is_pinned_exactly_and_the_project_is_not():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    pins = _pins()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        wanted += extra
    for req in wanted:
        name = _norm(re.split(r"[\[<>=!~ ;]", req, maxsplit=1)[0])
        if name == _norm(project["name"]):
            continue
        assert name in pins, f"{req} from pyproject.toml has no pin in constraints.txt"
    assert _norm(project["name"]) not in pins
    assert "pip" in pins  # the installer itself is pinned too


def test_the_pins_are_what_this_venv_runs():
    """The lock was frozen from the venv the tests run in: a drift means `make lock` was not rerun."""
    drift = []
    for name, version in _pins().items():
        try:
            have = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue  # another machine's venv may lack a platform-only package
        if have != version:
            drift.append(f"{name}: pinned {version}, installed {have}")
    assert not drift, drift


def test_make_setup_uses_the_pins_and_cargo_builds_locked():
    make = (ROOT / "Makefile").read_text()
    assert "-c $(CONSTRAINTS) -e '.[test]'" in make and "CONSTRAINTS := constraints.txt" in make
    assert "--upgrade pip\n\t$(BIN)" not in make  # pip itself comes from the pins in make setup
    native = make[make.index("\nnative:"):make.index("\nnative-check:")]
    assert "build --quiet --locked" in native
    check = make[make.index("\nnative-check:"):make.index("\ntest:")]
    assert check.count("--locked") == 3
    assert re.search(r"^lock:", make, re.M)
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "native/Cargo.lock"], capture_output=True, text=True)
    assert out.stdout.strip() == "native/Cargo.lock"


@pytest.mark.skipif(shutil.which("cargo") is None, reason="no cargo")
def test_cargo_lock_is_complete():
    out = subprocess.run(["cargo", "metadata", "--locked", "--offline", "--format-version", "1", "--manifest-path",
                          str(ROOT / "native" / "Cargo.toml")], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
