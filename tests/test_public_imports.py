"""Every ``import``/``from ... import`` of ``workbench`` that a notebook or a doc shows its reader still imports.

The shims that once kept TerraFeud's names in the tools' packages are gone (issue 29): a game's public names are
imported from its own package (``workbench.games.terrafeud.viz``, ``.widget``, ``.scenarios``, ``.engine``).
This reads the notebooks' code cells and the Python blocks of README.md and docs/*.md, keeps each import
statement that names ``workbench``, and runs them all in one fresh interpreter (imports only; nothing is played).
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"```(?:python|py)?\n(.*?)```", re.S)


def _sources() -> list[tuple[str, str]]:
    out = []
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for i, cell in enumerate(json.loads(nb.read_text())["cells"]):
            if cell["cell_type"] == "code":
                out.append((f"{nb.name} cell {i}", "".join(cell["source"])))
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "workbench").rglob("*.md"))]:
        out += [(f"{doc.relative_to(ROOT)} block {i}", b) for i, b in enumerate(BLOCK.findall(doc.read_text()))]
    return out


def _workbench_imports(where: str, text: str) -> list[tuple[str, str]]:
    """The import statements of ``text`` that name ``workbench`` (a block that is not Python is skipped)."""
    lines = [ln for ln in text.splitlines() if not ln.lstrip().startswith(("%", "!"))]  # IPython magics
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        return []
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "workbench" for a in node.names):
            out.append((where, ast.unparse(node)))
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "workbench":
            out.append((where, ast.unparse(node)))
    return out


def _failing(statements: list[str]) -> list[tuple[str, str]]:
    """The statements that raise, each with its error, run in one fresh interpreter (imports are cached)."""
    code = ("bad = []\n" + "".join(
        f"try:\n    {stmt}\nexcept Exception as exc:\n    bad.append(({stmt!r}, repr(exc)))\n" for stmt in statements)
        + "print(bad)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300,
                         env={"MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr[-2000:]
    bad: list[tuple[str, str]] = ast.literal_eval(out.stdout.strip().splitlines()[-1])
    return bad


def test_every_shown_import_and_every_module_imports() -> None:
    """What notebooks and docs show, and every module of the package (a module naming a deleted one, such as the
    old ``workbench.engine`` alias, fails here rather than in a user's batch)."""
    found = [imp for where, text in _sources() for imp in _workbench_imports(where, text)]
    assert len(found) >= 20, found  # the notebooks alone show more than this: the reader really read them
    mods = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                  for p in (ROOT / "workbench").rglob("*.py"))
    assert len(mods) > 150
    where = {stmt: w for w, stmt in found} | {f"import {m}": "the package" for m in mods}
    bad = _failing(sorted({stmt for _, stmt in found}) + [f"import {m}" for m in mods])
    assert not bad, "imports that fail:\n" + "\n".join(f"{where[s]}: {s}: {e}" for s, e in bad)
