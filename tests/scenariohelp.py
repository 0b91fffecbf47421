"""Shared by the scenario-file hardening tests (the reader every game shares, and TerraFeud's dialect): a bad
file is one ERROR line naming the file, its line and the rule, the files after it still run, and ``--json``
says the same."""

from __future__ import annotations

import io
import json
from pathlib import Path

from workbench.scenarios import cli

GOOD = "id: good\ntitle: a good file after the bad one\nchecks:\n  - legal: [f3-f4]\n"


def check(paths: list[str], *extra: str) -> tuple[int, str]:
    """``python -m workbench check`` in-process: its exit code and what it printed."""
    out = io.StringIO()
    rc = cli.main([*paths, *extra], out=out)
    return rc, out.getvalue()


def assert_one_error_line(folder: Path, name: str, case: tuple[str, int | None, str]) -> None:
    """``case`` = (file text, the line the error names or None, words of the reason), checked before a good file."""
    text, line, reason = case
    (folder / f"a-{name}.yaml").write_text(text)
    (folder / "z-good.yaml").write_text(GOOD)
    rc, out = check([str(folder)])
    lines = out.splitlines()
    assert rc == 1 and len(lines) == 2 and lines[1] == "PASS good", out
    where = f"{folder / f'a-{name}.yaml'}: " + (f"line {line}: " if line else "")
    assert lines[0].startswith(f"ERROR {where}") and reason in lines[0], lines[0]
    assert len(lines[0]) < 450  # nothing from the file is echoed at length
    rc, doc = check([str(folder)], "--json")
    data = json.loads(doc)
    assert data["summary"] == {"pass": 1, "fail": 0, "error": 1}
    assert reason in data["scenarios"][0]["error"]
