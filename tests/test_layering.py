"""The layers keep their direction (issue 17): core <- games <- tools; a tool's folder names no game.

Every module under the generic folders is parsed (never imported) and each of its imports, at the top
or inside a function, is resolved; an import of a game package (``workbench.games.terrafeud``,
``from workbench.games import pole``) or of the ``workbench.engine`` alias fails the test. A tool
reaches a game only through the registry (``workbench.games.get(name)``, ``GameDef`` hooks and
``workbench.games.shortcut`` for the names older code imports). The core imports neither games nor
tools. Exceptions are listed below with their reason; each one must still be true, so the list
shrinks as the work lands.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "workbench"
GENERIC = ("scenarios", "agents", "simulate", "balance", "viz", "widget", "tune", "study")
GAMES = tuple(sorted(p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").is_file()))

# module (relative to workbench/) -> why it still imports a game; none today (add one only with its reason).
EXCEPTIONS: dict[str, str] = {}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module an import statement of ``path`` names (``from a import b`` gives ``a`` and ``a.b``)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            if _forbidden(module):
                out.append((node.lineno, module))
            else:  # ``from workbench.games import pole`` names the package workbench.games.pole
                out += [(node.lineno, f"{module}.{alias.name}" if _forbidden(f"{module}.{alias.name}") else module)
                        for alias in node.names]
    return out


def _forbidden(module: str) -> bool:
    if module == "workbench.engine" or module.startswith("workbench.engine."):
        return True
    return any(module == f"workbench.games.{g}" or module.startswith(f"workbench.games.{g}.") for g in GAMES)


def _violations(folders: tuple[str, ...]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for folder in folders:
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            bad = sorted({f"line {n}: {m}" for n, m in _imports(path) if _forbidden(m)})
            if bad:
                found[str(path.relative_to(PACKAGE))] = bad
    return found


def test_the_rule_sees_an_import_of_a_game() -> None:
    """The parser catches every spelling: absolute, from-the-registry, relative, inside a function."""
    probe = PACKAGE / "viz" / "_layering_probe.py"
    probe.write_text("def f():\n    from workbench.games import pole\n    from ..games.terrafeud import engine\n"
                     "    import workbench.engine.state\n")
    try:
        bad = _violations(("viz",))["viz/_layering_probe.py"]
    finally:
        probe.unlink()
    assert sorted(b.split(": ")[1] for b in bad) == ["workbench.engine.state", "workbench.games.pole",
                                                     "workbench.games.terrafeud"], bad


def test_generic_folders_import_no_game() -> None:
    """No module of scenarios, agents, simulate, balance, viz, widget or tune imports a game package."""
    found = _violations(GENERIC)
    unexpected = {m: v for m, v in found.items() if m not in EXCEPTIONS}
    assert not unexpected, "generic modules importing a game (use workbench.games.get / GameDef hooks):\n" + "\n".join(
        f"{m}: {', '.join(v)}" for m, v in unexpected.items())
    stale = [m for m in EXCEPTIONS if m not in found]
    assert not stale, f"these exceptions no longer import a game; drop them from EXCEPTIONS: {stale}"


def test_core_imports_no_game_and_no_tool() -> None:
    """``workbench.core`` is the protocol, below every game and tool, the registry included (a pickled
    ``Rules`` finds its game again through the finder the registry installs, pickled by reference)."""
    for path in sorted((PACKAGE / "core").rglob("*.py")):
        for line, module in _imports(path):
            allowed = not module.startswith("workbench.") or module.startswith("workbench.core")
            assert allowed, (path.name, line, module)
