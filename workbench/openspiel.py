"""OpenSpiel both ways: our games as pyspiel games, and pyspiel games through our tools.

``import workbench.openspiel`` registers every game of ``workbench.games`` with pyspiel as
``workbench_<name>`` (underscores: ``workbench_cursed_lands``), so
``pyspiel.load_game("workbench_terrafeud(season=winter)")`` works and OpenSpiel's own tests
(``pyspiel.random_sim_test``) and bots (``MCTSBot`` through ``evaluate_bots``) play our games.
Actions are the games' dense ints (``GameDef.action_to_int``), legal actions sorted ascending.

The other way, ``workbench.games.get("openspiel:breakthrough")`` returns a ``GameDef`` over any
loadable pyspiel game, so ``simulate --game openspiel:connect_four`` and ``report`` run on games
nobody here wrote: the proof that the protocol is general.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import pyspiel

from workbench.core.classes import ActionClasses
from workbench.core.protocol import CHANCE, TERMINAL, GameDef, GameInfo, IllegalAction, Layout, State
from workbench.core.rulespec import Param, Rules, RulesError, RulesSpec, format_value

PREFIX = "workbench_"
SKIP_PARAMS = ("start",)  # when it is text, a file path: OpenSpiel games are made from parameters alone


def _skipped(param: Param) -> bool:
    return param.name in SKIP_PARAMS and param.kind == "text"


def spiel_name(name: str) -> str:
    """``cursed-lands`` -> ``workbench_cursed_lands``."""
    return PREFIX + name.replace("-", "_")


# ---------------------------------------------------------------------------------------- ours -> pyspiel
def _spiel_default(param: Param) -> Any:
    if param.kind == "int" and param.default is None:
        return 0  # "none" for a whole-number rule that may be off (TerraFeud's draw_after)
    if param.kind in ("bool", "int", "float") and param.default is not None:
        return {"bool": bool, "int": int, "float": float}[param.kind](param.default)
    if isinstance(param.default, (tuple, list)):  # OpenSpiel's game strings split on commas: lists use /
        return "/".join(format_value(v) for v in param.default) or "none"
    return format_value(param.default).replace(",", "/")


def _game_type(game: GameDef) -> pyspiel.GameType:
    info = game.info(game.spec.defaults())
    chance = {"explicit": pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC}.get(
        info.chance, pyspiel.GameType.ChanceMode.DETERMINISTIC)
    information = (pyspiel.GameType.Information.PERFECT_INFORMATION if info.perfect_information
                   else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
    utility = pyspiel.GameType.Utility.ZERO_SUM if len(info.teams) == 2 and all(
        len(t) == len(info.teams[0]) for t in info.teams) else pyspiel.GameType.Utility.GENERAL_SUM
    params = {p.name: _spiel_default(p) for p in game.spec if not _skipped(p)}
    return pyspiel.GameType(
        short_name=spiel_name(game.name), long_name=f"Workbench {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL, chance_mode=chance, information=information,
        utility=utility, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(25, info.num_players), min_num_players=2,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=False, parameter_specification=params)


def _rules_from_params(game: GameDef, params: Mapping[str, Any]) -> Rules:
    changed = {}
    for p in game.spec:
        if p.name in params and params[p.name] != _spiel_default(p):
            value = params[p.name]
            if p.kind == "int" and p.default is None and value == 0:
                value = None
            if p.kind not in ("bool", "int", "float"):
                value = str(value)
                if "," in format_value(p.default) and "/" not in format_value(p.default):
                    value = value.replace("/", ",")  # a comma list written with / in a game string
            changed[p.name] = value
    return game.spec.make(changed)


class _Observer:
    """OpenSpiel's PyObserver: the game's own ``observation_string`` (hidden information left out)."""

    def __init__(self, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        import numpy as np

        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: Any, player: int) -> None:
        """Nothing to fill: the games provide strings, not tensors."""

    def string_from(self, state: Any, player: int) -> str:
        return state.inner.observation_string(player)


def _make_classes(game: GameDef) -> tuple[pyspiel.GameType, type]:
    game_type = _game_type(game)

    class SpielState(pyspiel.State):
        """A pyspiel state over one of our states (``inner``)."""

        def __init__(self, spiel_game: Any, inner: State) -> None:
            super().__init__(spiel_game)
            self.inner = inner

        def current_player(self) -> int:
            p = self.inner.current_player()
            if p == TERMINAL:
                return pyspiel.PlayerId.TERMINAL
            if p == CHANCE:
                return pyspiel.PlayerId.CHANCE
            return p

        def _legal_actions(self, player: int) -> list[int]:
            if player != self.inner.current_player():
                return []
            return game.legal_ints(self.inner)

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return sorted((int(o), float(p)) for o, p in self.inner.chance_outcomes())

        def _apply_action(self, action: int) -> None:
            if self.inner.current_player() == CHANCE:
                self.inner.apply_action(int(action))
            else:
                self.inner.apply_action(game.int_to_action(self.inner, int(action)))

        def _action_to_string(self, player: int, action: int) -> str:
            if self.inner.current_player() == CHANCE:
                return self.inner.action_to_string(int(action))
            try:
                return self.inner.action_to_string(game.int_to_action(self.inner, int(action)))
            except IllegalAction:
                return f"action {action}"

        def is_terminal(self) -> bool:
            return self.inner.is_terminal()

        def returns(self) -> list[float]:
            return [float(r) for r in self.inner.returns()]

        def __str__(self) -> str:
            return self.inner.observation_string(None)

    class SpielGame(pyspiel.Game):
        """A pyspiel game over one of ours; parameters are the game's rules spec."""

        def __init__(self, params: Mapping[str, Any] | None = None) -> None:
            params = dict(params or {})
            rules = _rules_from_params(game, params)
            info = game.info(rules)
            game_info = pyspiel.GameInfo(
                num_distinct_actions=game.num_distinct_actions(rules),
                max_chance_outcomes=game.max_chance_outcomes(rules), num_players=info.num_players,
                min_utility=-1.0, max_utility=1.0,
                utility_sum=0.0 if game_type.utility == pyspiel.GameType.Utility.ZERO_SUM else None,
                max_game_length=info.max_game_length)
            super().__init__(game_type, game_info, params)
            self.rules = rules
            self.seed = 0

        def new_initial_state(self) -> SpielState:
            return SpielState(self, game.new_initial_state(self.rules, self.seed))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
            return _Observer(params)

    # pickle (and so OpenSpiel's own tests, which deep-copy games) finds classes by module and name
    for cls, kind in ((SpielGame, "Game"), (SpielState, "State")):
        cls.__name__ = cls.__qualname__ = f"{kind}_{spiel_name(game.name)}"
        cls.__module__ = __name__
        globals()[cls.__name__] = cls
    return game_type, SpielGame


_REGISTERED: dict[str, type] = {}


def register_all() -> list[str]:
    """Register every game of the registry with pyspiel (idempotent); the pyspiel names."""
    from workbench.games import get, names

    for name in names():
        short = spiel_name(name)
        if short in _REGISTERED or short in pyspiel.registered_names():
            continue
        game_type, cls = _make_classes(get(name))
        pyspiel.register_game(game_type, cls)
        _REGISTERED[short] = cls
    return sorted(n for n in pyspiel.registered_names() if n.startswith(PREFIX))


# ---------------------------------------------------------------------------------------- pyspiel -> ours
class SpielAdapterState(State):
    """One of pyspiel's states through our protocol (undo by a stack of clones, as pyspiel has none)."""

    __slots__ = ("_stack", "spiel")

    def __init__(self, spiel_state: Any) -> None:
        self.spiel = spiel_state
        self._stack: list[Any] = []

    def current_player(self) -> int:
        p = self.spiel.current_player()
        if self.spiel.is_terminal():
            return TERMINAL
        return CHANCE if p == pyspiel.PlayerId.CHANCE else int(p)

    def legal_actions(self, player: int | None = None) -> list[Any]:
        if self.spiel.is_terminal() or self.spiel.is_chance_node():
            return []
        return list(self.spiel.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(int(a), float(p)) for a, p in self.spiel.chance_outcomes()] if self.spiel.is_chance_node() else []

    def apply_action(self, action: Any) -> None:
        legal = (self.spiel.legal_actions() if not self.spiel.is_chance_node()
                 else [a for a, _ in self.spiel.chance_outcomes()])
        if action not in legal:
            raise IllegalAction(f"action {action!r} is not legal here")
        self._stack.append(self.spiel.clone())
        self.spiel.apply_action(int(action))

    def undo_action(self) -> None:
        self.spiel = self._stack.pop()

    def clone(self) -> SpielAdapterState:
        out = SpielAdapterState(self.spiel.clone())
        out._stack = list(self._stack)
        return out

    def is_terminal(self) -> bool:
        return self.spiel.is_terminal()

    def returns(self) -> list[float]:
        return list(self.spiel.returns())

    def move_number(self) -> int:
        return int(self.spiel.move_number())

    def action_to_string(self, action: Any) -> str:
        return self.spiel.action_to_string(self.spiel.current_player(), int(action))

    def string_to_action(self, text: str) -> Any:
        for a in self.legal_actions() or [o for o, _ in self.chance_outcomes()]:
            if self.action_to_string(a) == text:
                return a
        try:
            number = int(text)
        except ValueError:
            raise IllegalAction(f"{text!r} names no legal action here") from None
        if number in self.legal_actions() or number in [o for o, _ in self.chance_outcomes()]:
            return number
        raise IllegalAction(f"{text!r} names no legal action here")

    def to_dict(self) -> dict[str, Any]:
        return {"game": str(self.spiel.get_game()), "history": [int(a) for a in self.spiel.history()]}

    def observation_string(self, player: int | None = None) -> str:
        return str(self.spiel)

    def outcome(self) -> str:
        if not self.spiel.is_terminal():
            return "ongoing"
        r = self.returns()
        return "win" if max(r) > min(r) else "draw"


class SpielGameDef(GameDef):
    """A ``GameDef`` over a pyspiel game; its parameters are the rules spec."""

    # OpenSpiel's games name their actions by number only: there are no rulebook classes to bar
    action_classes = ActionClasses(none_reason="an OpenSpiel game's actions are numbers with no rulebook classes; "
                                               "restricted play (ablate) needs a game that declares its classes")

    def __init__(self, short_name: str) -> None:
        if short_name not in pyspiel.registered_names():
            raise RulesError(f"openspiel:{short_name[:40]}: no such pyspiel game")
        self.short_name = short_name
        self.name = f"openspiel:{short_name}"
        base = pyspiel.load_game(short_name)
        self.title = base.get_type().long_name
        params = []
        for key, value in base.get_type().parameter_specification.items():
            kind = {bool: "bool", int: "int", float: "float"}.get(type(value), "text")
            params.append(Param(key, kind, value, f"OpenSpiel parameter of {short_name}", "open_spiel"))
        self._spec = RulesSpec(self.name, params)

    @property
    def spec(self) -> RulesSpec:
        return self._spec

    def _load(self, rules: Rules | None) -> Any:
        values = rules.non_default() if rules is not None else {}
        return pyspiel.load_game(self.short_name, dict(values))

    def info(self, rules: Rules | None = None) -> GameInfo:
        g = self._load(rules)
        n = g.num_players()
        chance = "explicit" if g.get_type().chance_mode != pyspiel.GameType.ChanceMode.DETERMINISTIC else "none"
        perfect = g.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
        return GameInfo(self.name, self.title, tuple(f"p{i + 1}" for i in range(n)),
                        tuple(f"Player {i + 1}" for i in range(n)), tuple((i,) for i in range(n)), chance=chance,
                        perfect_information=perfect, max_game_length=g.max_game_length())

    def new_initial_state(self, rules: Rules | None = None, seed: int = 0) -> SpielAdapterState:
        return SpielAdapterState(self._load(rules).new_initial_state())

    def state_from_dict(self, data: Mapping[str, Any]) -> SpielAdapterState:
        st = SpielAdapterState(pyspiel.load_game(str(data["game"])).new_initial_state())
        for a in data.get("history", []):
            st.apply_action(int(a))
        return st

    def num_distinct_actions(self, rules: Rules | None = None) -> int:
        return self._load(rules).num_distinct_actions()

    def max_chance_outcomes(self, rules: Rules | None = None) -> int:
        return self._load(rules).max_chance_outcomes()

    def layout(self, rules: Rules | None = None) -> Layout:
        return Layout("square", 0.5, ())


@lru_cache(maxsize=64)
def spiel_game(short_name: str) -> SpielGameDef:
    """The ``GameDef`` of the pyspiel game ``short_name`` (``breakthrough``, ``connect_four``, ...)."""
    return SpielGameDef(short_name)


register_all()
