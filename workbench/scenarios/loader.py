"""Scenario files of any game: read YAML safely, pick the game from ``game:``, hand it its dialect.

A scenario is a position plus expectations; the same file is a regression test, a picture of a
disputed ruling and a designer's probe for rule variants (``run(overrides)``). This layer knows no
game: it reads the file (regular files only, at most ``MAX_SCENARIO_BYTES``, bounded YAML work with
line numbers, see ``yamlmarks``), reads ``game:`` (``workbench.games.DEFAULT``, TerraFeud, when
absent) and returns that game's ``GAME.scenario(data, where)``, a ``ScenarioCase``. Whatever goes
wrong becomes one ``ScenarioError("file: line N: reason")`` for that file, so the files after it
are still checked.

A game's dialect (TerraFeud's ``Scenario``, ``build_position``, ``dump_scenario``) lives in its package.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from workbench.core.safefile import UnsafeFileError, read_text_capped
from workbench.core.scenario import (  # noqa: F401 - scenario_status re-exported
    ScenarioCase,
    ScenarioError,
    moved_path,
    read_scenario_data,
    scenario_status,
)
from workbench.core.yamlmarks import short
from workbench.games import DEFAULT as DEFAULT_GAME
from workbench.games import UnknownGameError
from workbench.games import get as get_game

MAX_SCENARIO_BYTES = 256 * 1024  # the largest rulebook scenario is about 2 KB


def load_scenario(path: str | Path) -> ScenarioCase:
    """Load one scenario file; raises ``ScenarioError`` naming the file and line. A path through a folder that
    moved (``scenarios/moved.json``: an old ``scenarios/rulings/...``) is read from the folder's new place."""
    path = moved_path(path)
    try:
        text = read_text_capped(path, MAX_SCENARIO_BYTES)
    except UnsafeFileError as exc:
        raise ScenarioError(str(path), None, f"cannot read the file: {exc}") from None
    scenario = load_scenario_text(text, source=str(path))
    scenario.path = path
    return scenario


def load_scenario_text(text: str, source: str = "<string>") -> ScenarioCase:
    """Load a scenario from YAML text; ``source`` names it in error messages."""
    where = source
    if len(text) > MAX_SCENARIO_BYTES:
        raise ScenarioError(where, None, f"the text is {len(text):,} characters; the limit is {MAX_SCENARIO_BYTES:,}")
    data = read_scenario_data(text, where)
    game_name = data.get("game", DEFAULT_GAME)
    if not isinstance(game_name, str):
        raise ScenarioError(where, data.line_of("game"), f"game must be a game's name, got {short(game_name)}")
    try:
        game_def = get_game(game_name)
    except UnknownGameError as exc:
        raise ScenarioError(where, data.line_of("game"), str(exc)) from None
    return game_def.scenario(data, where)  # the game's own dialect (its position and check keys)


def find_scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """Every ``*.yaml``/``*.yml`` under the paths (files are taken as given), sorted, no repeats."""
    out: list[Path] = []
    for p in map(moved_path, paths):
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix in (".yaml", ".yml") and q.is_file()))
        else:
            out.append(p)
    seen: set[Path] = set()
    unique = []
    for p in out:
        if p.resolve() not in seen:
            seen.add(p.resolve())
            unique.append(p)
    return unique


def load_scenarios(paths: Iterable[str | Path]) -> Iterator[tuple[Path, ScenarioCase | ScenarioError]]:
    """Each file under ``paths`` with its scenario or its error; a second use of an id is an error."""
    ids: dict[str, Path] = {}
    for path in find_scenario_files(paths):
        try:
            scenario = load_scenario(path)
        except ScenarioError as exc:
            yield path, exc
            continue
        except Exception as exc:  # noqa: BLE001 - one bad file must never stop the others
            yield path, ScenarioError(str(path), None, f"cannot load this scenario ({type(exc).__name__})")
            continue
        if scenario.id in ids:
            yield path, ScenarioError(str(path), 1, f"id {scenario.id!r} is already used by {ids[scenario.id]}")
            continue
        ids[scenario.id] = path
        yield path, scenario
