"""What every game's scenario files share: the error type, a check's result, and a runnable case.

The generic ``workbench.scenarios`` layer reads a file safely (size, YAML limits, line numbers), looks
at ``game:`` and hands the parsed mapping to that game's ``GameDef.scenario(data, where)``, which
returns a ``ScenarioCase``. Mappings and lists from the loader carry ``line_of(key)``; ``line_of``
below reads it without the game needing the YAML layer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PASS_STATUS, FAIL_STATUS, ERROR_STATUS = "pass", "fail", "error"
MAX_REASON = 300  # characters of an error's reason


class ScenarioError(ValueError):
    """A scenario file that cannot be used. ``str()`` is ``file: line N: reason`` (line when known)."""

    def __init__(self, where: str, line: int | None, reason: str) -> None:
        self.where = where
        self.line = line or None
        # A reason may quote a value from the file (a hex name, a key); never at unbounded length.
        self.reason = reason if len(reason) <= MAX_REASON else reason[: MAX_REASON - 3] + "..."
        super().__init__(f"{where}: line {line}: {self.reason}" if line else f"{where}: {self.reason}")


@dataclass
class CheckResult:
    """Outcome of one check: ``status`` is pass, fail or error; ``message`` says what differed.

    ``index`` 0 with status error means the scenario's position itself could not be built
    (for instance a summer-only problem after ``--rules season=summer``).
    """

    index: int
    line: int
    status: str
    message: str = ""

    @property
    def ok(self) -> bool:
        """True when the check passed."""
        return self.status == PASS_STATUS

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form for ``check --json``."""
        return {"index": self.index, "line": self.line, "status": self.status, "message": self.message}


def scenario_status(results: Sequence[CheckResult]) -> str:
    """``error`` if any check errored, else ``fail`` if any failed, else ``pass``."""
    statuses = {r.status for r in results}
    if ERROR_STATUS in statuses:
        return ERROR_STATUS
    return FAIL_STATUS if FAIL_STATUS in statuses else PASS_STATUS


def line_of(container: Any, key: Any, default: int = 0) -> int:
    """The 1-based file line of ``container[key]`` when the loader recorded it, else ``default``."""
    getter = getattr(container, "line_of", None)
    if getter is None:
        return default
    try:
        return int(getter(key)) or default
    except (KeyError, IndexError, TypeError, ValueError):
        return default


class ScenarioCase:
    """A loaded scenario of any game. Games subclass it (or duck-type it) and implement ``run``.

    ``checks`` is the list of parsed checks (its length is reported); ``run(overrides)`` judges every
    check from a fresh copy of the position under the rule overrides (``{"untiled": "plain"}``) and
    never raises for bad data: a position that cannot be built is one error result with index 0.
    ``initial_state(overrides)`` gives the position itself (pictures, the board's picker). ``engines`` names
    the engines its checks can be judged on: a game with a native core lists ``"native"`` and takes
    ``run(overrides, engine="native")`` (``check --engine native``).
    """

    game: str = ""
    engines: tuple[str, ...] = ("python",)
    id: str = ""
    title: str = ""
    ruling: Any = None
    source: str | None = None
    description: str | None = None
    path: Path | None = None
    checks: Sequence[Any] = ()

    def run(self, overrides: Mapping[str, Any] | None = None, engine: str = "python") -> list[CheckResult]:
        """Judge every check on ``engine`` (one of ``engines``); see the class docstring."""
        raise NotImplementedError

    def initial_state(self, overrides: Mapping[str, Any] | None = None) -> Any:
        """The scenario's position as a protocol ``State``."""
        raise NotImplementedError


def read_scenario_data(text: str, where: str) -> Any:
    """A scenario file's YAML text as a line-marked mapping (``yamlmarks``), or ``ScenarioError`` naming ``where``
    and the line: the one reading every game's dialect starts from (the tools' loader, a game's ``start=``)."""
    import yaml

    from .yamlmarks import DuplicateKeyError, KeyTypeError, LimitError, LineDict, error_line, load_with_lines

    try:
        data = load_with_lines(text)
    except DuplicateKeyError as exc:
        raise ScenarioError(where, exc.line, f"duplicate key: {exc}") from None
    except KeyTypeError as exc:
        raise ScenarioError(where, exc.line, str(exc)) from None
    except LimitError as exc:
        raise ScenarioError(where, exc.line, f"refused: {exc.problem}") from None
    except yaml.YAMLError as exc:
        reason = " ".join(str(getattr(exc, "problem", None) or exc).split())
        raise ScenarioError(where, error_line(exc), f"malformed YAML: {reason}") from None
    if not isinstance(data, LineDict):
        raise ScenarioError(where, 1, "a scenario is a YAML mapping with at least id and title")
    return data


MOVED_FILE = "moved.json"  # in a scenarios folder: {"old folder": "its new place", ...}, relative to that folder
MAX_MOVED_BYTES = 16 * 1024


def moved_path(path: str | Path) -> Path:
    """``path`` itself, or where it went when its folder moved (old paths keep working).

    When ``path`` does not exist, the nearest folder above it that does may hold ``moved.json``, a map from an
    old subfolder's name to its new place below that same folder (``{"rulings": "terrafeud/rulings"}``): a
    path through the old folder is read through the new one. Targets stay below the folder holding the map
    (no absolute path, no ``..``); a missing, oversized or malformed map changes nothing.
    """
    import json

    from .safefile import UnsafeFileError, read_text_capped

    p = Path(path)
    if p.exists():
        return p
    base = next((a for a in p.parents if a.is_dir()), None)
    if base is None or not (base / MOVED_FILE).is_file():
        return p
    try:
        moved = json.loads(read_text_capped(base / MOVED_FILE, MAX_MOVED_BYTES))
    except (UnsafeFileError, ValueError):
        return p
    rest = p.relative_to(base).parts
    target = moved.get(rest[0]) if isinstance(moved, dict) and rest else None
    if not isinstance(target, str) or Path(target).is_absolute() or ".." in Path(target).parts:
        return p
    return base.joinpath(target, *rest[1:])
