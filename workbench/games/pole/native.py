"""Pole on the native core (``workbench._native.pole``): the same game as ``state.PoleState``, faster.

The Python engine is the specification; the Rust core (``native/src/pole``) follows it exactly: same
legal actions in the same order, same states, counters and ``fired``, proven at every ply by
``python -m workbench.games.pole.nativediff``. Starts, scenario positions and ``start`` files are
built by the Python engine and handed over as plain fields, so the native core never parses text.

``NativePoleState`` has the protocol's API. Hot queries (legal actions, apply, undo, evaluation, move
ordering) run in Rust; everything else (notation, ``to_dict``, queries, glyphs, heat) is answered by
a Python mirror of the current position, rebuilt from the native fields when the position changed.
Without the built core, ``available()`` is False and callers play on the Python engine.
"""

from __future__ import annotations

from typing import Any

from workbench.core.agents import NativeTwin, native_params
from workbench.core.protocol import CHANCE, IllegalAction, State
from workbench.core.rulespec import Rules

from .rules import LETTERS, fortress_cells
from .state import OVER_PHASE, PoleState
from .tables import Config, config

try:  # the compiled core is optional (make native); everything runs on Python without it
    from workbench._native import pole as _core
except ImportError:  # pragma: no cover - exercised where cargo is missing
    _core = None

NATIVE_AGENTS = ("random", "greedy", "alphabeta", "mcts", "search", "plan", "turtle")  # turtle: Pole's own (turtle.py)
# eval=NAME: learned weights of analysis.features, read by the core (State::features, the same sum)
_AGENT_PARAMS = frozenset({"depth", "nodes", "seconds", "iterations", "c", "rollout", "scale", "beam", "steps", "reply", "odds", "prior",
                           "epsilon", "eval"})


def available() -> bool:
    """True when the native core is built and holds Pole."""
    return _core is not None


def rules_dict(rules: Rules) -> dict[str, Any]:
    """The rules as the plain values the native core reads (fortresses as cells in board order)."""
    d: dict[str, Any] = {}
    for ch in LETTERS:
        if ch != "P":
            d[f"cost_{ch}"] = rules[f"cost_{ch}"]
        d[f"damage_{ch}"] = rules[f"damage_{ch}"]
        d[f"armour_{ch}"] = rules[f"armour_{ch}"]
    for name in ("income", "purchases_per_turn", "archer_orth", "archer_diag", "ride_orth", "ride_diag",
                 "catapult_orth", "catapult_diag", "catapult_dead", "tower_infantry", "max_turns", "draw_after",
                 "attack_mode", "shot_blocking", "ride_jump", "fortress_rounding", "income_timing", "turn_order",
                 "placement_fortress", "fortress_buildings", "fortress_inside"):
        d[name] = rules[name]
    d["fortress_red"] = list(fortress_cells(rules["fortress_red"]))
    d["fortress_black"] = list(fortress_cells(rules["fortress_black"]))
    return d


def fields_of(state: PoleState) -> dict[str, Any]:
    """A Python state's position, counters and history as the native core's fields."""
    return {"board": list(state.board), "coins": list(state.coins), "to_move": state.to_move, "phase": state.phase,
            "pending": state.pending, "fresh": state.fresh_cells(), "bought": state.bought, "removed": state.removed,
            "quiet": state.quiet, "turn": state.turn_no, "victory": state.victory_kind, "winner": state.winner_side,
            "counters": list(state.cnt), "history": list(state.history)}


def python_state(cfg: Config, f: dict[str, Any], seed: int = 0, origin: dict[str, Any] | None = None,
                 fired: list | None = None) -> PoleState:
    """A Python ``PoleState`` holding the native fields ``f`` (no undo history)."""
    s = PoleState(cfg)
    s.board = list(f["board"])
    s.coins = list(f["coins"])
    s.to_move = f["to_move"]
    s.phase = f["phase"]
    s.pending = f["pending"]
    fresh = 0
    for c in f["fresh"]:
        fresh |= 1 << c
    s.fresh = fresh
    s.bought = f["bought"]
    s.removed = f["removed"]
    s.quiet = f["quiet"]
    s.turn_no = f["turn"]
    s.victory_kind = f["victory"]
    s.winner_side = f["winner"]
    s.cnt = list(f["counters"])
    s.history = list(f["history"])
    s.seed = seed
    s.origin = origin
    s._fired = list(fired or [])
    return s


def seed_key(seed: int | None) -> list[int]:
    """``random.Random(seed)``'s key: the little-endian 32-bit words of ``abs(seed)`` (core's kit)."""
    from workbench.core.agents import seed_key as key

    return key(seed)


class NativePoleState(State):
    """A Pole state in the native core with the protocol's API (see the module docstring)."""

    engine = "native"

    def __init__(self, core: Any, cfg: Config, seed: int = 0, origin: dict[str, Any] | None = None) -> None:
        self.core = core
        self.cfg = cfg
        self.seed = seed
        self.origin = origin
        self._mirror: PoleState | None = None

    @classmethod
    def from_python(cls, state: PoleState) -> NativePoleState:
        """The native twin of a Python state (same position, counters, history)."""
        if _core is None:
            raise RuntimeError("the native core is not built (make native); use the Python engine")
        core = _core.State(rules_dict(state.cfg.rules), fields_of(state))
        return cls(core, state.cfg, state.seed, state.origin)

    # ------------------------------------------------------------------ the mirror
    def py(self) -> PoleState:
        """The Python engine's state for this position (read-only use: it has no undo history)."""
        if self._mirror is None:
            self._mirror = python_state(self.cfg, self.core.fields(), self.seed, self.origin, self.core.fired())
        return self._mirror

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("core", "cfg", "seed", "origin", "_mirror"):
            raise AttributeError(name)
        return getattr(self.py(), name)

    # ------------------------------------------------------------------ protocol, in Rust
    def current_player(self) -> int:
        return self.core.current_player()

    def is_terminal(self) -> bool:
        return self.core.is_terminal()

    def legal_actions(self, player: int | None = None) -> list[int]:
        if player is not None and player != self.core.current_player():
            return []
        return self.core.legal_actions()

    def apply_action(self, action: Any) -> None:
        if not isinstance(action, int) or isinstance(action, bool):
            raise IllegalAction(f"{action!r}: an action is an int (use string_to_action for text)")
        try:
            self.core.apply(action)
        except ValueError:
            py = self.py()
            if py.phase == OVER_PHASE:
                raise IllegalAction(f"{py._name(action)}: the game is over ({py.victory_kind})") from None
            if py.pending >= 0:
                raise IllegalAction(f"{action}: the dice are rolled now; a chance outcome is 0..35") from None
            raise IllegalAction(py.explain_illegal(py._name(action))) from None
        self._mirror = None

    def undo_action(self) -> None:
        try:
            self.core.undo()
        except ValueError:
            raise IllegalAction("nothing to undo") from None
        self._mirror = None

    def clone(self) -> NativePoleState:
        return NativePoleState(self.core.clone(), self.cfg, self.seed, self.origin)

    def returns(self) -> list[float]:
        return self.core.returns()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.core.current_player() != CHANCE:
            return []
        p = 1.0 / 36.0
        return [(o, p) for o in range(36)]

    def move_number(self) -> int:
        return self.core.move_number()

    def evaluate(self, player: int) -> float:
        return self.core.evaluate(player)

    def action_priority(self, action: Any) -> int:
        if self.core.current_player() < 0 or not isinstance(action, int):
            return 0
        return self.core.action_priority(action)

    def fired(self) -> list[tuple[str, int, int | None]]:
        return self.core.fired()

    # ------------------------------------------------------------------ protocol, through the mirror
    def turn(self) -> int:
        return self.py().turn()

    def winner(self) -> int | None:
        return self.py().winner()

    def outcome(self) -> str:
        return self.py().outcome()

    def victory(self) -> str | None:
        return self.py().victory()

    def action_to_string(self, action: Any) -> str:
        return self.py().action_to_string(action)

    def string_to_action(self, text: str) -> int:
        """The Python notation reader on this position, confirmed by the native legal actions."""
        action = self.py().string_to_action(text)
        if self.core.current_player() >= 0 and action not in self.core.legal_actions():
            raise IllegalAction(f"{text}: not among the native core's legal actions (engines disagree: a bug)")
        return action

    def explain_illegal(self, text: str) -> str:
        return self.py().explain_illegal(text)

    def to_dict(self) -> dict[str, Any]:
        return self.py().to_dict()

    def observation_string(self, player: int | None = None) -> str:
        return self.py().observation_string(player)

    def counters(self) -> dict[str, list[int]]:
        return self.py().counters()

    def action_cells(self, action: Any) -> list[int]:
        return self.py().action_cells(action)

    def action_effects(self, action: Any) -> dict[str, Any]:
        return self.py().action_effects(action)

    def attackers(self) -> list[tuple[int, int, int]]:
        return self.py().attackers()

    def attack_lines(self) -> list[tuple[int, int, int]]:
        return self.py().attack_lines()

    def glyphs(self) -> list:
        return self.py().glyphs()

    def heat(self, layer: str, player: int) -> dict[int, float]:
        return self.py().heat(layer, player)

    def __str__(self) -> str:
        return self.py().observation_string()

    def __repr__(self) -> str:
        return f"Native{self.py()!r}"


def native_state(rules: Rules, seed: int = 0) -> NativePoleState:
    """The start under ``rules`` on the native core (``GAME.new_initial_state(rules, seed, engine="native")``)."""
    from .position import state_from_start

    s = state_from_start(config(rules))
    s.seed = seed
    return NativePoleState.from_python(s)


def agent_params(params: dict[str, Any]) -> dict[str, Any]:
    """An agent spec's parameters as the native core reads them (``engine`` dropped, others refused; learned
    weights by name as the vector of ``analysis.features``)."""
    from . import GAME

    return native_params(params, _AGENT_PARAMS, game=GAME)


class NativeAgent(NativeTwin):
    """A native twin of a generic agent on Pole (``workbench.core.agents.NativeTwin``)."""

    PARAMS = _AGENT_PARAMS
    NAMES = NATIVE_AGENTS

    def core_agent(self, base: str, params: dict[str, float], seed: int | None) -> Any:
        return _core.Agent(base, params, seed_key(seed))

    def core_state(self, state: Any) -> Any:
        return (state if isinstance(state, NativePoleState) else NativePoleState.from_python(state)).core


def has_native(spec: str) -> bool:
    """True when ``spec`` names a generic agent with a native twin and is not pinned to Python."""
    from workbench.core.agents import parse_agent_spec

    try:
        base, params = parse_agent_spec(spec)
    except ValueError:
        return False
    return (available() and base in NATIVE_AGENTS and str(params.get("engine", "auto")).strip().lower() != "python"
            and all(k in _AGENT_PARAMS or k == "engine" for k in params) and not (base == "turtle" and "eval" in params))


# ---------------------------------------------------------------------- whole games (simulate)

def event_rows(plies: list[tuple], game_id: int, players: tuple[str, ...]) -> list[dict[str, Any]]:
    """The events rows of ``protocol_play`` (with ``stats.event_row``'s columns) from the native plies."""
    from .board import NAMES
    from .rules import SIDES
    from .state import PHASES, decision_text, dice_text

    out = []
    ply = 0
    from .state import letter

    for (action, n, phase, turn, side, coins, pending, chance36, removed, turn_after, fired, codes) in plies:
        ply += 1
        chance = phase == 3
        if chance:
            text = dice_text(action)
            notation = f"{decision_text(side, pending)} {text}"
        else:
            text = notation = decision_text(side, action)
        extra = {"phase": "dice" if chance else PHASES[phase], "turn_number": turn, "side": SIDES[side],
                 "notation": notation, "dice": text if chance else "", "chance_36": chance36 if chance36 >= 0 else None,
                 "removed": ",".join(NAMES[c] for c in removed) if chance else "",
                 "removed_kinds": ",".join(letter(v) for v in codes) if chance else "",
                 "coins_red": coins[0], "coins_black": coins[1]}
        rules = ",".join(r if c is None else f"{r}@{NAMES[c]}" for r, _, c in fired)  # cells by name
        out.append({"game_id": game_id, "ply": ply, "turn": turn_after, "side": "chance" if chance else players[side],
                    "action": text, "n_legal": n, "rules": rules, **extra})
    return out


def play_game(state: PoleState, agents: list[str], agent_seeds: list[int], chance_seed: int, max_plies: int,
              events: bool, game_id: int = 0, opening: dict[str, Any] | None = None,
              ) -> tuple[PoleState, list[dict[str, Any]], list[int]]:
    """One whole game in Rust with the GIL released, from ``state``: the final state (a Python
    ``PoleState`` of the native fields), the events rows (when asked) and the mover's legal counts.

    The same game as ``protocol_play``'s Python loop: agents seeded ``random.Random(seed)``, dice
    drawn by ``sample_outcome`` from ``random.Random(chance_seed)``; ``opening``: a batch's random opening as
    every seat's core reads it (``core.agents.opening_params``).
    """
    from workbench.core.agents import parse_agent_spec

    from .rules import SIDES

    seats = []
    for spec, seed in zip(agents, agent_seeds, strict=True):
        base, params = parse_agent_spec(spec)
        seats.append((base, {**agent_params(params), **(opening or {})}, seed_key(seed)))
    start_ply = len(state.history)
    fields, plies, n_legal = _core.play_game(rules_dict(state.cfg.rules), fields_of(state), seats,
                                             seed_key(chance_seed), max_plies, events)
    final = python_state(state.cfg, fields, state.seed, state.origin, plies[-1][-1] if plies else None)
    rows = event_rows(plies, game_id, SIDES) if events else []
    for r in rows:
        r["ply"] += start_ply
    return final, rows, n_legal


def native_play(spec: Any, game: Any, rules: Rules, seat_agents: list[str]) -> tuple[PoleState, list, list[int]] | None:
    """``protocol_play``'s fast path: the game natively when asked for and every seat has a twin, else None."""
    if getattr(spec, "engine", "python") != "native" or not available():
        return None
    if not all(has_native(a) for a in seat_agents):
        return None
    from workbench.core.rows import derive

    for a in seat_agents:  # the Python twin validates each agent's parameters (same errors, same rows)
        from workbench.core.agents import protocol_agent

        protocol_agent(a, game, rules, 0)
    start = game.new_initial_state(rules, spec.seed)
    seeds = [derive(f"{spec.game}-agent", spec.seed, i) for i in range(len(seat_agents))]
    from workbench.core.agents import opening_params

    return play_game(start, seat_agents, seeds, derive(f"{spec.game}-chance", spec.seed), spec.max_plies, spec.events,
                     spec.game_id, opening_params(spec.opening, spec.opening_seed))


def play_barred(start: PoleState, seats: Any, masks: Any, n_classes: int, chance_seed: int,
                max_plies: int) -> tuple[PoleState, list[int], list[tuple[int, int, list[int]]]] | None:
    """``GAME.native.play_barred``: one restricted-play game in Rust from ``start`` (None without the core)."""
    if _core is None:
        return None
    agents = [(name, agent_params(params), seed_key(seed)) for name, params, seed in seats]
    fields, n_legal, tallies, illegal = _core.play_barred(rules_dict(start.cfg.rules), fields_of(start), agents,
                                                          [int(m) for m in masks], int(n_classes),
                                                          seed_key(chance_seed), int(max_plies))
    if illegal is not None:
        raise IllegalAction(f"action {illegal[0]} is not among the {illegal[1]} legal actions")
    return python_state(start.cfg, fields, start.seed, start.origin), list(n_legal), list(tallies)


def random_playouts(rules: Rules, games: int, seed: int, max_actions: int) -> int:
    """``bench.protocol_playouts`` natively: games from the start, ``random.Random(seed * 100003 + g)``
    for the decisions and the dice; returns the actions played (equal to the Python run's)."""
    from .position import state_from_start

    if _core is None:
        raise RuntimeError("the native core is not built (make native)")
    start = state_from_start(config(rules))
    return _core.random_playouts(rules_dict(rules), fields_of(start), games, seed, max_actions)
