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
from typing import Any

import pyspiel

from workbench.core.protocol import CHANCE, TERMINAL, GameDef, IllegalAction, State
from workbench.core.rulespec import Param, Rules, format_value

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
        return str(state.inner.observation_string(player))


def _make_classes(game: GameDef) -> tuple[pyspiel.GameType, type]:
    game_type = _game_type(game)

    class SpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types
        """A pyspiel state over one of our states (``inner``)."""

        def __init__(self, spiel_game: Any, inner: State) -> None:
            super().__init__(spiel_game)
            self.inner = inner

        def current_player(self) -> int:
            p = self.inner.current_player()
            if p == TERMINAL:
                return int(pyspiel.PlayerId.TERMINAL)
            if p == CHANCE:
                return int(pyspiel.PlayerId.CHANCE)
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

    class SpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
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

register_all()
