"""``start=PATH`` (issue 11): a scenario file whose position and rules start every game.

The engine reads no files; the game's package (``games/terrafeud/__init__.py``) installs ``load_start`` as the
engine's start resolver, so ``make_game("start=scenarios/my.yaml")`` works everywhere (simulate, bench, widget).
The effective rules are the file's rules, then every value the caller set to a non-default value,
with ``start`` kept; the terrain is the file's (explicit hexes, or drawn from the file's ``seed``).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from contextvars import ContextVar
from typing import Any

from workbench.core.safefile import PAGE_INPUT, UnsafeFileError, read_text_capped
from workbench.core.scenario import moved_path, read_scenario_data
from workbench.games.terrafeud.engine import Game, RulesConfig, RulesError, state_to_dict
from workbench.games.terrafeud.engine.game import StartPosition, classic_setup
from workbench.games.terrafeud.engine.pieces import WHITE

from .loader import ScenarioError, build_position, scenario_from_data

# The position fields a start carries (rules, seed, ply and result are the game's own).
_POSITION_FIELDS = ("to_move", "pieces", "markers", "ultimatum_pending", "castled", "aura_ready", "destroyed")
_cache: dict[tuple[Any, ...], StartPosition] = {}
_CACHE_MAX = 64
MAX_START_BYTES = 1_000_000  # a scenario file is a few hundred bytes; never read a huge or endless file
# Set while the board handles a browser message: a page (or a file it uploads) must never make the kernel
# open a server path, so ``start=`` is refused there whatever route it came by (new game, compare, an
# uploaded scenario's or record's rules).
NO_SERVER_FILES: ContextVar[bool] = ContextVar("terrafeud_no_server_files", default=False)


def position_digest(position: dict[str, Any], terrain: dict[str, Any]) -> str:
    """12 hex digits of SHA-256 over the canonical JSON of a start's position and terrain."""
    text = json.dumps({"position": position, "terrain": terrain}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def load_start(rules: RulesConfig) -> StartPosition:
    """Resolve ``rules.start``; ``RulesError`` names the parameter, the file and the reason."""
    path = rules.start
    if path is None:
        raise RulesError("parameter start is not set (classic start)")
    if NO_SERVER_FILES.get() or PAGE_INPUT.get() is not None:
        raise RulesError(
            "parameter start names a server file, which the board does not open for the page; "
            "pick a scenario from the list or upload one without start="
        )
    try:
        st = os.stat(path)
        stamp: tuple[Any, ...] = (st.st_mtime_ns, st.st_size, st.st_ino)
    except OSError:
        stamp = ()
    key = (rules, path, stamp)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    start = _load(rules, path)
    if len(_cache) >= _CACHE_MAX:
        _cache.clear()
    _cache[key] = start
    return start


def _load(rules: RulesConfig, path: str) -> StartPosition:
    where = moved_path(path)  # an old scenarios/rulebook/... is read from scenarios/terrafeud/rulebook/...
    try:
        st = os.stat(where)
    except OSError as exc:
        raise RulesError(f"parameter start={path}: the start file does not load: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise RulesError(f"parameter start={path}: the start file does not load: not a regular file")
    if st.st_size > MAX_START_BYTES:
        raise RulesError(f"parameter start={path}: the start file does not load: larger than {MAX_START_BYTES} bytes")
    try:
        text = read_text_capped(where, MAX_START_BYTES)
    except UnsafeFileError as exc:
        raise RulesError(f"parameter start={path}: the start file does not load: {exc}") from None
    try:  # TerraFeud's own dialect: the game reads its file without the tools' loader
        scenario = scenario_from_data(read_scenario_data(text, str(path)), str(path))
    except ScenarioError as exc:
        raise RulesError(f"parameter start={path}: the start file does not load: {exc}") from None
    if scenario.rules.start is not None:
        raise RulesError(f"parameter start={path}: a start file may not itself name start= (it names {scenario.rules.start})")
    overrides = {k: v for k, v in rules.non_default().items() if k != "start"}
    try:
        effective = scenario.rules.replace(**overrides, start=path)
        game = Game(rules=effective.replace(start=None), seed=scenario.seed)
    except RulesError as exc:
        raise RulesError(f"parameter start={path}: {exc}") from None
    try:
        if scenario.position is None:
            state = game.state_from_pieces(classic_setup(), to_move=WHITE)
        else:
            state = build_position(game, scenario.position, str(path))
    except ScenarioError as exc:
        raise RulesError(f"parameter start={path}: the position does not hold under these rules: {exc}") from None
    if state.victory is not None:
        raise RulesError(f"parameter start={path}: the game is already over there ({state.victory}); nothing to play")
    full = state_to_dict(state)
    position = {k: full[k] for k in _POSITION_FIELDS}
    terrain = game.terrain
    return StartPosition(
        id=scenario.id,
        digest=position_digest(position, terrain.to_dict()),
        position=position,
        rules=effective,
        terrain=terrain,
        seed=scenario.seed,
    )
