"""The layers keep their direction (issue 17): core <- games <- tools; a tool's folder names no game.

Every module under the generic folders is parsed (never imported) and each of its imports, at the top
or inside a function, is resolved; an import of a game package (``workbench.games.terrafeud``,
``from workbench.games import pole``) fails the test. A tool reaches a game only through the registry
(``workbench.games.get(name)`` and what the ``GameDef`` declares). The core imports neither games nor
tools. Exceptions are listed below with their reason; each one must still be true, so the list
shrinks as the work lands.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "workbench"
GENERIC = ("scenarios", "agents", "simulate", "balance", "viz", "widget", "tune", "study")
# every game the registry can load: a package (terrafeud, pole, ...) or a module (spiel: ``openspiel:NAME``)
REGISTRY_FILES = ("__init__.py", "cli.py")  # the registry and its listing command (``workbench games``)
GAMES = tuple(sorted(p.name if p.is_dir() else p.stem for p in (PACKAGE / "games").iterdir()
                     if (p / "__init__.py").is_file() or (p.suffix == ".py" and p.name not in REGISTRY_FILES)))

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
                     "    import workbench.games.big_chess.engine\n")
    try:
        bad = _violations(("viz",))["viz/_layering_probe.py"]
    finally:
        probe.unlink()
    assert sorted(b.split(": ")[1] for b in bad) == ["workbench.games.big_chess.engine", "workbench.games.pole",
                                                     "workbench.games.terrafeud"], bad


def _root_violations() -> dict[str, list[str]]:
    """The package's root files (the commands, the OpenSpiel adapter): one command for every game, none imported."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.glob("*.py")):
        bad = sorted({f"line {n}: {m}" for n, m in _imports(path) if _forbidden(m)})
        if bad:
            found[path.name] = bad
    return found


def test_generic_folders_import_no_game() -> None:
    """No module of scenarios, agents, simulate, balance, viz, widget, tune or study, and no root command
    (bench, perft, simbench, nativediff, the dispatcher), imports a game package."""
    found = _violations(GENERIC) | _root_violations()
    unexpected = {m: v for m, v in found.items() if m not in EXCEPTIONS}
    assert not unexpected, "generic modules importing a game (use workbench.games.get / GameDef hooks):\n" + "\n".join(
        f"{m}: {', '.join(v)}" for m, v in unexpected.items())
    stale = [m for m in EXCEPTIONS if m not in found]
    assert not stale, f"these exceptions no longer import a game; drop them from EXCEPTIONS: {stale}"


def _game_reaches_out(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for module, deps in graph.items():
        parts = module.split(".")
        if len(parts) < 3 or parts[1] != "games" or parts[2] not in GAMES:
            continue
        own = ".".join(parts[:3])
        bad += [f"{module} -> {d}" for d in sorted(deps)
                if not (d.startswith(("workbench.core", own + ".")) or d == own)]
    return bad


def _probe_graph(where: tuple[str, ...], text: str, check: Any) -> tuple[list[str], list[str]]:
    """``check`` run on the import graph with a probe module written in ``where`` (removed again): what it finds of
    the probe (which proves the check sees such imports) and what it finds elsewhere (real breaches)."""
    probe = PACKAGE.joinpath(*where, "_layering_probe.py")
    probe.write_text(text)
    try:
        found = check(import_graph())
    finally:
        probe.unlink()
    prefix = "workbench." + ".".join(where) + "._layering_probe "
    return [b for b in found if b.startswith(prefix)], [b for b in found if not b.startswith(prefix)]


def test_a_game_imports_core_and_itself_only() -> None:
    """A game declares; the tools read the declaration: a game's package imports ``workbench.core``, its own
    modules and the native extension, never a tool, a command, the registry or another game (``layers.json``).
    A probe module that imports simulate and another game inside a function is caught (one graph for both)."""
    caught, bad = _probe_graph(("games", "pole"), "def f():\n    from workbench.simulate import simulate\n"
                               "    from ..big_chess import GAME\n", _game_reaches_out)
    assert caught == ["workbench.games.pole._layering_probe -> workbench.games.big_chess",
                      "workbench.games.pole._layering_probe -> workbench.simulate"], caught
    assert not bad, "games importing beyond core and themselves:\n" + "\n".join(bad)


def test_core_imports_no_game_and_no_tool() -> None:
    """``workbench.core`` is the protocol, below every game and tool, the registry included (a pickled
    ``Rules`` finds its game again through the finder the registry installs, pickled by reference)."""
    for path in sorted((PACKAGE / "core").rglob("*.py")):
        for line, module in _imports(path):
            allowed = not module.startswith("workbench.") or module.startswith("workbench.core")
            assert allowed, (path.name, line, module)


# ---------------------------------------------------------------------- guard rails a string cannot fool
TOOLS = (*GENERIC, "study")
# the files at the package's root: the OpenSpiel adapter and the commands (bench, perft, simbench, nativediff, the
# dispatcher, serving): one command for every game, so they name none either
TOOL_FILES = tuple(sorted(p.name for p in PACKAGE.glob("*.py")))


def _game_names() -> set[str]:
    """The shipped games' names: the registry's ``PACKAGES`` as written (not as tests extend it) and the packages."""
    tree = ast.parse((PACKAGE / "games" / "__init__.py").read_text())
    shipped = next(ast.literal_eval(node.value) for node in ast.walk(tree) if isinstance(node, ast.AnnAssign)
                   and isinstance(node.target, ast.Name) and node.target.id == "PACKAGES")
    names = set(shipped) | set(GAMES)
    return {n.lower() for n in names} | {n.replace("-", "_") for n in names} | {n.replace("_", "-") for n in names}


def _tool_paths() -> list[Path]:
    paths = [p for folder in TOOLS if (PACKAGE / folder).is_dir() for p in sorted((PACKAGE / folder).rglob("*.py"))]
    return paths + [PACKAGE / f for f in TOOL_FILES if (PACKAGE / f).is_file()]


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _names_a_game(text: str, names: set[str]) -> bool:
    """``terrafeud``, ``Pole``, ``terrafeud-game`` (a salt), ``big_chess:`` ...: a game's name as the value."""
    word = text.strip().lower()
    return any(word == n or (word.startswith(n) and word[len(n):len(n) + 1] in "-_:./") for n in names)


def _game_literals(path: Path, names: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    docs = _docstrings(tree)
    return [f"line {node.lineno}: {node.value!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
            and node.value and _names_a_game(node.value, names)]


# tool file -> why it may name games (a command that sits in a tool's folder; each must still name one)
NAME_EXCEPTIONS: dict[str, str] = {
}


def test_no_tool_writes_a_game_name() -> None:
    """A tool never names a game in code (docstrings may say whose idea a feature was): the only game name
    outside the games is the registry's ``DEFAULT``."""
    names = _game_names()
    found = {str(p.relative_to(PACKAGE)): bad for p in _tool_paths() if (bad := _game_literals(p, names))}
    stale = [m for m in NAME_EXCEPTIONS if m not in found]
    assert not stale, f"these files name no game any more; drop them from NAME_EXCEPTIONS: {stale}"
    found = {m: v for m, v in found.items() if m not in NAME_EXCEPTIONS}
    assert not found, "game names in tools (ask the GameDef, or use workbench.games.DEFAULT):\n" + "\n".join(
        f"{m}: {', '.join(v)}" for m, v in found.items())


def test_the_name_rule_sees_a_salt_and_an_fstring() -> None:
    names = _game_names()
    assert _names_a_game("terrafeud-game", names) and _names_a_game("Pole", names)
    assert not _names_a_game("poles apart", names) and not _names_a_game("the game's own cap", names)


def _hook_names() -> set[str]:
    from workbench.core.protocol import GameDef, NativeBackend

    plain = {"name", "title", "rules", "spec", "info"}  # what states and scenario cases also carry
    return {n for n in (*dir(GameDef), *dir(NativeBackend), *RETIRED) if not n.startswith("__") and n not in plain}


RETIRED = ("native_available", "native_twin_of", "native_state", "native_game", "native_play", "native_agent",
           "native_random_playouts", "game_agents", "tuned_agents", "grid_values", "report_sections", "legend")


LOOKUPS = ("getattr", "hasattr", "attrgetter", "methodcaller", "getattr_static")  # name lookups by string


def _hook_lookups(path: Path, hooks: set[str]) -> list[str]:
    """Every lookup of a hook by its name as a string: ``getattr``/``hasattr`` (also ``operator.attrgetter``,
    ``methodcaller``, ``inspect.getattr_static``), and ``vars(x)[...]``/``x.__dict__[...]``/``.get(...)``."""
    tree = ast.parse(path.read_text(), filename=str(path))
    out = []

    def called(func: ast.expr) -> str:
        return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""

    def is_dict(node: ast.expr) -> bool:  # vars(x) or x.__dict__
        return (isinstance(node, ast.Call) and called(node.func) == "vars") or (
            isinstance(node, ast.Attribute) and node.attr == "__dict__")

    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Call) and called(node.func) in LOOKUPS:
            args = node.args[1:] if called(node.func) in ("getattr", "hasattr", "getattr_static") else node.args
            name = next((a.value for a in args[:1] if isinstance(a, ast.Constant) and a.value in hooks), None)
        elif isinstance(node, ast.Subscript) and is_dict(node.value) and isinstance(node.slice, ast.Constant):
            name = node.slice.value if node.slice.value in hooks else None
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
              and is_dict(node.func.value) and node.args and isinstance(node.args[0], ast.Constant)):
            name = node.args[0].value if node.args[0].value in hooks else None
        if name is not None:
            out.append(f"line {node.lineno}: {name!r}")
    return out


def test_the_hook_rule_sees_every_spelling() -> None:
    """getattr, hasattr, attrgetter, methodcaller, getattr_static, vars(...)[...] and __dict__.get all name a hook."""
    probe = PACKAGE / "viz" / "_layering_probe.py"
    probe.write_text("import inspect, operator\n\ndef f(game):\n    getattr(game, 'play_row')\n"
                     "    hasattr(game.native, 'perft')\n    operator.attrgetter('game_agents')(game)\n"
                     "    operator.methodcaller('report_sections', None)(game)\n"
                     "    inspect.getattr_static(game, 'cell_spec')\n    vars(type(game))['blank_row']\n"
                     "    type(game).__dict__.get('check_cell')\n    getattr(game, 'colour', None)\n")
    try:
        found = _hook_lookups(probe, _hook_names())
    finally:
        probe.unlink()
    assert sorted(f.split(": ")[1] for f in found) == sorted(["'play_row'", "'perft'", "'game_agents'", "'cell_spec'",
                                                              "'report_sections'", "'blank_row'", "'check_cell'"]), found


def test_no_tool_discovers_a_hook() -> None:
    """Every optional capability is declared on ``GameDef`` (or its ``NativeBackend``): a tool (and core, which the
    tools build on) reads the attribute, never looks a hook up by its name (``_hook_lookups``)."""
    hooks = _hook_names()
    paths = [*_tool_paths(), *sorted((PACKAGE / "core").rglob("*.py"))]
    found = {str(p.relative_to(PACKAGE)): bad for p in paths if (bad := _hook_lookups(p, hooks))}
    assert not found, "hook discovery in tools (declare it on GameDef):\n" + "\n".join(
        f"{m}: {', '.join(v)}" for m, v in found.items())


# file -> why it still branches on a game's name (each must still be true; the list only shrinks)
BRANCH_EXCEPTIONS: dict[str, str] = {
}


def test_no_branch_on_a_game_name_anywhere() -> None:
    """No ``if game == "pole"`` anywhere in the package, games included: a difference is declared, not branched on."""
    names = _game_names()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if str(path.relative_to(PACKAGE)) in BRANCH_EXCEPTIONS:
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                consts = [s for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)]
                consts += [e for s in sides if isinstance(s, (ast.Tuple, ast.List, ast.Set)) for e in s.elts
                           if isinstance(e, ast.Constant) and isinstance(e.value, str)]
                if any(c.value.strip().lower() in names for c in consts):
                    found.append(f"{path.relative_to(PACKAGE)}: line {node.lineno}")
    assert not found, "branches on a game's name:\n" + "\n".join(found)


def test_import_workbench_and_core_load_no_game() -> None:
    """``import workbench`` and ``import workbench.core`` load no game and no tool (a fresh interpreter)."""
    import subprocess
    import sys

    code = ("import sys, workbench, workbench.core; "
            "print(sorted(m for m in sys.modules if m.startswith('workbench.') and not m.startswith('workbench.core')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]", out.stdout


def import_graph() -> dict[str, set[str]]:
    """Every module of the package -> the package modules it imports (at the top or inside a function)."""
    mods = {_module_name(p): p for p in PACKAGE.rglob("*.py")}

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, path in mods.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        package = m if path.name == "__init__.py" else m.rpartition(".")[0]
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                module = ".".join([*base, node.module] if node.module else base) if node.level else node.module or ""
                names = [module, *(f"{module}.{a.name}" for a in node.names)]
            for name in names:
                target = resolve(name) if name.startswith("workbench") else None
                if target and target != m and target != "workbench":  # "workbench": the _native extension
                    graph[m].add(target)
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_no_import_cycle_across_folders() -> None:
    """Files of different folders never import each other round in a circle (a cycle inside one folder is
    that folder's business); the issue-29 picture: 2 such cycles before, 0 now."""
    def folder(module: str) -> str:
        path = ROOT / Path(*module.split("."))
        return str(path if path.is_dir() else path.parent)

    crossing = [c for c in import_cycles(import_graph()) if len({folder(m) for m in c}) > 1]
    assert not crossing, f"import cycles across folders: {crossing}"


if __name__ == "__main__":  # python tests/test_layering.py: the import picture in figures
    g = import_graph()
    cycles = import_cycles(g)
    print(f"{len(g)} modules, {sum(map(len, g.values()))} imports, {len(cycles)} cycles: {cycles}")


# ---------------------------------------------------------------------- no import runs back up the layers
# The commands stand on top (``layers.json``): the root files, the studies (``study/``: commands above simulate,
# balance and tune) and every tool folder's command modules (its ``cli``, a ``bench``/``*bench`` benchmark); a
# command may import another, nothing below imports one.
COMMAND_FILES = ("__main__", "bench", "perft", "simbench", "nativediff", "serving")
# (lower, higher, why): a lower folder never imports the higher one (the "never" pairs of layers.json)
NEVER_UP = (("agents", "simulate", "an agent plays one game; the ladder is a command"),
            ("simulate", "balance", "simulation produces tables; balance consumes them"),
            ("balance", "tune", "tune builds on balance"))


def _is_command(module: str) -> bool:
    parts = module.split(".")
    if (len(parts) == 2 and parts[1] in COMMAND_FILES) or (len(parts) > 1 and parts[1] == "study"):
        return True
    return len(parts) == 3 and parts[1] in TOOLS and (parts[2] == "cli" or parts[2].endswith("bench"))


def _runs_up(graph: dict[str, set[str]]) -> list[str]:
    def folder(module: str) -> str:
        parts = module.split(".")
        return parts[1] if len(parts) > 2 or (len(parts) == 2 and (PACKAGE / parts[1]).is_dir()) else ""

    bad = []
    for module, deps in graph.items():
        for dep in sorted(deps):
            if _is_command(dep) and not _is_command(module):
                bad.append(f"{module} -> {dep} (a command)")
            for low, high, why in NEVER_UP:
                if folder(module) == low and folder(dep) == high:
                    bad.append(f"{module} -> {dep} ({why})")
    return bad


def test_no_import_runs_up_the_layers() -> None:
    """Nothing below the commands imports a command, and no tool imports a tool above it (``layers.json``'s "never"
    pairs): a probe in ``balance`` that imports tune and the perft command inside a function is caught."""
    caught, bad = _probe_graph(("balance",), "def f():\n    from workbench.tune import tune\n    from workbench import perft\n",
                               _runs_up)
    assert caught == ["workbench.balance._layering_probe -> workbench.perft (a command)",
                      "workbench.balance._layering_probe -> workbench.tune (tune builds on balance)"], caught
    assert not bad, "imports that run back up the layers:\n" + "\n".join(bad)


def test_the_native_protocol_module_uses_no_agent_module() -> None:
    """``core::protocol`` (the ``Game`` trait, the ``Agent`` trait and the play loop) names nothing of
    ``core::generic`` (the agents), which builds on it: no module cycle between the two in the Rust core."""
    text = (ROOT / "native" / "src" / "core" / "protocol.rs").read_text()
    code = "\n".join(line.split("//")[0] for line in text.splitlines())
    assert "generic::" not in code and "pub trait Agent<G: Game>" in code
    generic = (ROOT / "native" / "src" / "core" / "generic" / "mod.rs").read_text()
    assert "pub trait Agent" not in generic and "pub use crate::core::protocol::Agent;" in generic
