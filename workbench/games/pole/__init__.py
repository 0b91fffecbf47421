"""Pole (Поле, Pavel Nemchenko, 2011) on the workbench's game protocol: ``GAME`` is its ``GameDef``.

The engine follows ``shared/pole/RULES-CONTRACT.md``: a 10 x 10 board, two fortresses, a buy phase
and an act phase per turn, and every attack resolved by an explicit chance node of two dice.
See ``README.md`` in this folder for what is where.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.core.classes import load_archetypes
from workbench.core.protocol import CHANCE, Cell, GameDef, GameInfo, IllegalAction, Layout, NativeBackend
from workbench.core.rulespec import Rules, RulesError, RulesSpec

from .analysis import HEAT_LAYERS
from .board import NAMES
from .classes import ACTION_CLASSES
from .position import PositionError, build_state, state_from_start
from .rules import KIND_WORDS, LETTERS, SIDES, SPEC
from .state import (
    ATT0,
    NUM_ACTIONS,
    NUM_OUTCOMES,
    PoleState,
    action_text,
    apply_text,
    dice_text,
    position_dict,
)
from .tables import config

RULE_WORDS = {
    "income": "coins credited (income, section 4)",
    "purchase": "purchases made (section 5)",
    "nobuy": "buy phases passed with nobuy",
    "buy_barracks": "barracks (Гридня) bought",
    "buy_stable": "stables (Конюшня) bought",
    "buy_tower": "towers (Башня) built next to two infantrymen",
    "buy_infantryman": "infantrymen (Ратник) bought",
    "buy_archer": "archers (Лучник) bought",
    "buy_horseman": "horsemen (Всадник) bought",
    "buy_catapult": "catapults (Катапульта) bought",
    "coins_spent": "coins spent on purchases",
    "move": "moves made",
    "prince_move": "moves by the Prince (Князь)",
    "pass": "act phases passed",
    "attack": "attacks made (each rolls two dice)",
    "attack_hit": "attacks that removed at least one piece",
    "attack_miss": "attacks that removed nothing",
    "fortress_halving": "attacks halved by a fortress (damage from outside)",
    "expected_36": "expected removals of the attacks made, in 36ths",
    "prince_destroyed": "enemy Princes destroyed (victory)",
    "building_destroyed": "enemy buildings (B, S, T) destroyed",
    "removed": "enemy pieces removed",
}


def sample_chance(state: PoleState, rng: random.Random) -> int:
    """The dice of the pending attack from ``rng``: r_a first, then r_d (section 8, P43).

    One ``random.Random(seed)`` per game gives the same dice in-process, in a pool or on Dask; a
    player choosing at random must use a separate stream.
    """
    if state.current_player() != CHANCE:
        raise IllegalAction("no attack is waiting for its dice")
    ra = rng.randint(1, 6)
    rd = rng.randint(1, 6)
    return (ra - 1) * 6 + (rd - 1)


def play_random(state: PoleState, seed: int, max_actions: int = 100_000) -> PoleState:
    """Play ``state`` to the end with uniform random decisions; dice and decisions use separate streams."""
    dice = random.Random(seed)
    choice = random.Random(seed ^ 0x5EED)
    n = 0
    while not state.is_terminal() and n < max_actions:
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, dice))
        else:
            acts = state.legal_actions()
            state.apply_action(acts[choice.randrange(len(acts))])
        n += 1
    return state


class PoleNative(NativeBackend):
    """Pole's native core (``native.py``, ``workbench._native.pole``) as the tools ask it (``GAME.native``)."""

    exists = True
    sweep = "workbench.games.pole.nativediff"  # nativediff --game

    def available(self) -> bool:
        """True when the Rust core of Pole is built (``make native``)."""
        from .native import available

        return available()

    def state(self, state: Any) -> Any:
        """The same position on the native core (``NativePoleState``, the protocol's API)."""
        from .native import NativePoleState

        return NativePoleState.from_python(state)

    def new_state(self, rules: Rules | None = None, seed: int = 0) -> Any:
        """The start on the native core (a ``NativePoleState``; RuntimeError when it is not built)."""
        from .native import native_state

        return native_state(GAME._rules(rules), seed)

    def random_playouts(self, rules: Rules, games: int, seed: int, max_actions: int) -> int:
        """``protocol_playouts`` in Rust (the same streams): the number of actions played."""
        from .native import random_playouts

        return random_playouts(GAME._rules(rules), games, seed, max_actions)

    def agent(self, spec: str, rules: Rules, seed: int) -> Any:
        """The native twin of agent ``spec`` for one seat of a Python-loop game (a spec pinned
        ``engine=native``, as the ladder's twin against its Python original), or None without one."""
        from .native import NativeAgent, available

        return NativeAgent.for_seat(spec, GAME, rules, seed, available())

    def play_trace(self, spec: Any, rules: Rules, seats: Sequence[str]) -> Any:
        """simulate's fast path: (final state, events rows, legal counts), or None for Python."""
        from .native import native_play

        return native_play(spec, GAME, rules, list(seats))

    def play_barred(self, start: Any, seats: Sequence[tuple[str, dict[str, float], int]], masks: Sequence[int],
                    n_classes: int, chance_seed: int, max_plies: int) -> Any:
        """Restricted play in Rust (``native/src/pole/classes.rs``): (final state, legal counts, tallies)."""
        from .native import play_barred

        return play_barred(start, seats, masks, n_classes, chance_seed, max_plies)

    def class_bits(self, state: Any, action: Any) -> int:
        """The Rust classifier's bits for ``action`` in a ``NativePoleState``."""
        return int(state.core.classes(int(action)))


class PoleGame(GameDef):
    """Pole's ``GameDef``: rules, start, action encoding, layout, scenario dialect and table columns."""

    name = "pole"
    title = "Pole (Поле)"
    scenario_folder = "pole"
    strength_file = "data/elo.json"  # the ladder's measured Elo table (workbench ladder --write)
    published_file = "data/published.json"  # the contract's section-15 table (workbench published --game pole)
    # the skill-trace benchmark's question (docs/balance.md), capped at 800 turns: at 400 the strongest rung's games
    # mostly hit the cap, and in a pilot no game ended between 631 and 1,600 turns (docs/strength.md)
    headline_grid = {"fortress_rounding": ("exact", "down"), "max_turns": ("800",)}
    skill_trace = "alphabeta:depth=6,nodes=256..2048"  # ... asked at these doubling budgets (docs/strength.md)
    action_classes = ACTION_CLASSES  # buying each kind, a catapult attack, an attack on a fortress
    archetypes = load_archetypes(Path(__file__).parent / "data" / "archetypes.json", ACTION_CLASSES)  # rush, turtle ...
    heat_layers = HEAT_LAYERS
    native = PoleNative()
    evaluation_unit = "coins"
    glyph_words = {"fresh": "bought this turn: acts from its side's next turn", "attacker": "the attacking piece",
                   "target": "the attacked piece", "a#": "armour (a2: two dice pips are needed to pass it)",
                   "d#": "damage dealt by an attack", "#¢": "its side's coins (on the Prince)"}
    # the board's position editor: Red's pieces upper case, Black's lower case (as positions write them)
    edit_palette = tuple((letter if side == 0 else letter.lower(), side, f"{('Red', 'Black')[side]} {words}")
                         for side in (0, 1) for letter, words in zip(LETTERS, KIND_WORDS, strict=True))
    legend = (
        ("field", "#efe6cf", "open field"),
        ("fortress-red", "#e9a9a0", "Red fortress: outside attacks deal half damage"),
        ("fortress-black", "#a9a9b8", "Black fortress: outside attacks deal half damage"),
    )

    def edit_to_move(self, data: dict[str, Any], player: int) -> dict[str, Any]:
        """The edited position with ``player`` to move: Red plays the odd turns, so the turn moves on by one when
        the parity says the other side (the editor's side-to-move box, not a rule change)."""
        out = super().edit_to_move(data, player)
        turn = int(out.get("turn") or 1)
        if (turn % 2 == 1) != (player == 0):
            out["turn"] = turn + 1
        return out

    @property
    def spec(self) -> RulesSpec:
        return SPEC

    def _rules(self, rules: Rules | Mapping[str, Any] | str | None) -> Rules:
        if isinstance(rules, Rules):
            return rules
        return SPEC.make(rules)

    def info(self, rules: Rules | None = None) -> GameInfo:
        r = self._rules(rules)
        per_turn = max(r["purchases_per_turn"], 1) + 2  # purchases or nobuy, the act, its dice
        return GameInfo(name=self.name, title=self.title, players=SIDES, labels=("Red", "Black"),
                        teams=((0,), (1,)), chance="explicit", perfect_information=True,
                        max_game_length=r["max_turns"] * per_turn, turn_word="turn",
                        default_max_plies=r["max_turns"] * per_turn)  # the rules' cap ends a game, not the tool's

    def new_initial_state(self, rules: Rules | None = None, seed: int = 0, engine: str = "python") -> Any:
        """The start under ``rules`` (classic or ``start``); ``seed`` is kept for the dice stream.

        ``engine="native"`` gives the same state on the Rust core (``NativePoleState``, same API);
        ``auto`` takes it when built.
        """
        if engine not in ("python", "native", "auto"):
            raise ValueError(f"engine={engine!r}: one of python, native, auto")
        if engine == "native" or (engine == "auto" and self.native.available()):
            return self.native.new_state(rules, seed)
        s = state_from_start(config(self._rules(rules)))
        s.seed = seed
        return s

    def state_from_dict(self, data: Mapping[str, Any]) -> PoleState:
        """Inverse of ``PoleState.to_dict``; ``ValueError`` naming the field."""
        if not isinstance(data, Mapping):
            raise ValueError("a Pole state is a mapping (see PoleState.to_dict)")
        try:
            rules = SPEC.make(data.get("rules") or {})
        except RulesError as exc:
            raise ValueError(f"rules: {exc}") from None
        pos = {k: data[k] for k in ("to_move", "phase", "turn", "coins", "pieces", "fresh", "bought", "removed",
                                    "quiet", "winner", "victory") if k in data}
        try:
            s = build_state(pos, config(rules))
        except PositionError as exc:
            raise ValueError(f"{exc.key or 'position'}: {exc.reason}") from None
        pending = data.get("pending")
        if pending is not None:
            try:
                s.pending = s.string_to_action(pending)
            except IllegalAction as exc:
                raise ValueError(f"pending: {exc}") from None
            if s.pending < ATT0:
                raise ValueError(f"pending: {pending} is not an attack")
        counters = data.get("counters")
        if counters is not None:
            if not isinstance(counters, list) or len(counters) != len(s.cnt) or not all(
                    isinstance(v, int) and not isinstance(v, bool) for v in counters):
                raise ValueError(f"counters: a list of {len(s.cnt)} whole numbers")
            s.cnt = list(counters)
        history = data.get("history", [])
        if not isinstance(history, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in history):
            raise ValueError("history: a list of action numbers")
        s.history = list(history)
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("seed: a whole number")
        s.seed = seed
        origin = data.get("origin")
        if origin is not None:
            try:
                build_state(origin, s.cfg)
            except (PositionError, TypeError) as exc:
                raise ValueError(f"origin: {exc}") from None
            s.origin = dict(origin)
        return s

    def num_distinct_actions(self, rules: Rules | None = None) -> int:
        return NUM_ACTIONS

    def max_chance_outcomes(self, rules: Rules | None = None) -> int:
        """36: the two dice (r_a - 1) * 6 + (r_d - 1); ``chance_groups`` offers the collapsed form."""
        return NUM_OUTCOMES

    def action_to_int(self, state: Any, action: Any) -> int:
        return int(action)

    def int_to_action(self, state: Any, number: int) -> int:
        return int(number)

    def layout(self, rules: Rules | None = None) -> Layout:
        """Squares of side 1 centred on (file, 9 - (rank - 1)): a1 bottom left, screen y growing down."""
        return Layout("square", 0.5, tuple(Cell(c, NAMES[c], float(c // 10), float(9 - c % 10)) for c in range(100)))

    def scenario(self, data: Mapping[str, Any], where: str) -> Any:
        from .scenario import parse_scenario

        return parse_scenario(data, where)

    def dump_scenario(self, state: Any, id: str, title: str, checks: Sequence[Mapping[str, Any]] = ()) -> str:  # noqa: A002
        from .scenario import dump_scenario

        return dump_scenario(state, id, title, checks)

    def game_row(self, state: Any) -> dict[str, Any]:
        from .stats import game_row

        return game_row(state)

    def event_row(self, state: Any, action: Any) -> dict[str, Any]:
        from .stats import event_row

        return event_row(state, action)

    def rule_words(self) -> dict[str, str]:
        return dict(RULE_WORDS)

    def game_agents(self) -> dict[str, Any]:
        """``turtle``: the contract's section-15 player (``turtle.py``), beside the generic agents."""
        from .turtle import AGENTS

        return dict(AGENTS)

    def evaluation_features(self, state: Any, player: int) -> dict[str, float]:
        """Material per piece kind, coins, tempo, threat, reply, Prince danger and fortress (``analysis.features``);
        a core state's are read in the core (``State::features``, the exact twin)."""
        from .analysis import features
        from .native import NativePoleState

        if isinstance(state, NativePoleState):
            return dict(zip(self._feature_names(), state.core.features(player), strict=True))
        return features(self._python_state(state), player)

    def _feature_names(self) -> list[str]:
        """``analysis.features``' names in their order (the core's vector follows it)."""
        from .rules import KIND_WORDS, P

        return [*(w for k, w in enumerate(KIND_WORDS) if k != P), "coins", "tempo", "threat", "reply", "prince_danger",
                "fortress"]

    def evaluation_weights(self, rules: Rules | None = None) -> dict[str, float]:
        """The hand weights: the kinds' costs under ``rules``, a coin 1, half the income for the tempo, ..."""
        from .analysis import feature_weights

        r = self._rules(rules)
        cfg = self.new_initial_state(r, 0).cfg
        return feature_weights(cfg.cost, cfg.income)

    def _python_state(self, state: Any) -> Any:
        """The Python state of ``state`` (a native state converts through its record)."""
        return state if hasattr(state, "cfg") else self.state_from_dict(state.to_dict())

    def report_sections(self, games: Sequence[Mapping[str, Any]], events: Any = None) -> list[Any]:
        """Luck (was that game decided by dice?), decisiveness and the turtle, and the batch maps (``report.py``)."""
        from .report import report_sections

        rows = games.to_dict("records") if hasattr(games, "to_dict") else games  # frames or rows
        evs = events.to_dict("records") if hasattr(events, "to_dict") else events
        return report_sections(rows, evs)


GAME = PoleGame()

__all__ = ["GAME", "PoleGame", "PoleState", "sample_chance", "play_random", "apply_text", "action_text", "dice_text",
           "position_dict"]
