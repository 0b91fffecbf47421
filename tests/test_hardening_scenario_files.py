"""Issue 13, the scenario reader every game shares (``workbench.scenarios``): hostile YAML (huge numbers, deep
nesting, alias bombs, odd keys) and unreadable files are each one ERROR line in bounded time, and the files after
them still run. Written as TerraFeud files, the game of a file that names none; its own refusals are in
``tests/games/terrafeud/test_hardening_scenarios.py``."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from scenariohelp import GOOD, assert_one_error_line

from workbench.scenarios.loader import MAX_SCENARIO_BYTES


def _billion_laughs() -> str:
    lines = ["title: t", "id:", '  - &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"  - &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


BAD = {
    "seed-digits": ("id: s\ntitle: t\nseed: " + "7" * 5000 + "\n", 3, "a number of 5000 digits"),
    "deep": ("id: d\ntitle: t\nposition: " + "[" * 5000 + "]" * 5000 + "\n", 3, "nested more than"),
    "laughs": (_billion_laughs(), None, "once its aliases (*name) are expanded"),
    "recursive-alias": ("id: r\ntitle: t\nposition: &p {pieces: *p}\n", 3, "recursive alias"),
    "list-key": ("id: k\ntitle: t\n? [a, b]\n: 1\n", 3, "a key must be plain text, not a list"),
}



def test_laughs_file_is_small():
    assert len(_billion_laughs()) < 500  # the file was 487 bytes


@pytest.mark.parametrize("name", sorted(BAD))
def test_each_bad_file_is_one_error_line_and_later_files_still_run(tmp_path, name):
    assert_one_error_line(tmp_path, name, BAD[name])


def test_unreadable_files_are_errors_not_hangs(tmp_path):
    fifo = tmp_path / "a-fifo.yaml"
    os.mkfifo(fifo)
    (tmp_path / "b-binary.yaml").write_bytes(b"id: x\ntitle: \xff\xfe\x00\n")
    (tmp_path / "c-huge.yaml").write_text(GOOD + "#" * MAX_SCENARIO_BYTES)
    (tmp_path / "z-good.yaml").write_text(GOOD)
    paths = [str(fifo), str(tmp_path / "b-binary.yaml"), str(tmp_path / "c-huge.yaml"), str(tmp_path / "z-good.yaml")]
    # A subprocess with a timeout: a regression that opens the FIFO blocking must fail, not hang the suite.
    proc = subprocess.run([sys.executable, "-m", "workbench", "check", *paths], capture_output=True, text=True,
                          timeout=60)
    lines = proc.stdout.splitlines()
    assert lines[0] == f"ERROR {fifo}: cannot read the file: not a regular file (it is a device, pipe or socket)"
    assert lines[1].startswith(f"ERROR {tmp_path / 'b-binary.yaml'}: cannot read the file: not UTF-8 text")
    assert "the limit is" in lines[2] and lines[3] == "PASS good"
