"""TerraFeud's own agents as game agents (``GameDef.game_agents``): what a seat's name means for TerraFeud.

Its tuned agents search the engine's ``GameState`` (or the native core's ``NativeState``) directly; as game agents
they are handed the protocol's ``TerraFeudState`` like every agent of every game, and read its ``inner`` state.
They take the generic names (``alphabeta`` is TerraFeud's tuned one, in simulate, the ladder, the board, tune
and the studies alike); the generic agent of a name stays reachable as ``generic-<name>``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from workbench.games.terrafeud.state import TerraFeudState


def engine_state(state: Any) -> Any:
    """The engine's state behind ``state``: a protocol ``TerraFeudState``'s ``inner``, else ``state`` itself."""
    return state.inner if isinstance(state, TerraFeudState) else state


#: the tuned agents that search with an evaluation, so learned weights (``eval=NAME``) can replace it; ``random``
#: reads none and ``greedy`` counts material only (the generic ``generic-greedy:eval=NAME`` sums the features)
LEARNED = frozenset({"alphabeta", "search", "mcts"})


def tuned_agent(cls: Any, seed: int | None, params: dict[str, Any], game: Any = None) -> Any:
    """A tuned agent of ``cls`` with the spec's parameters; ``eval=NAME`` (a weights file of ``game`` by name, the
    study's folder then ``data/weights``) becomes its ``learned`` evaluation. ``ValueError`` in words for an agent that
    reads no weights, naming the generic agent that does."""
    from workbench.core.agents import GENERIC_PREFIX

    params = dict(params)
    if "learned" in params:  # the resolved weights: set from eval=NAME only, never typed
        raise ValueError(f"{cls.name}: unknown parameter 'learned' (learned weights are eval=NAME)")
    name = params.pop("eval", None)
    if name is not None:
        if cls.name not in LEARNED:
            raise ValueError(f"TerraFeud's own {cls.name} reads no learned weights (eval=); its "
                             f"{', '.join(sorted(LEARNED))} do, and so does the generic agent: "
                             f"{GENERIC_PREFIX}{cls.name}:eval={name}")
        from .evaluate import learned_evaluation

        params["learned"] = learned_evaluation(game, str(name))
    return cls(seed=seed, **params)


def game_agent(cls: type) -> Callable[..., Any]:
    """The game-agent factory of a tuned agent class (``factory(seed=, game=, rules=, **params)``): the tuned
    agents read the rules from the state they are shown, so the factory keeps the seed and the parameters
    (``eval=NAME`` resolved by ``tuned_agent``)."""

    def factory(seed: int | None = None, game: Any = None, rules: Any = None, **params: Any) -> Any:
        return tuned_agent(cls, seed, params, game)

    factory.__name__ = factory.__qualname__ = f"{cls.__name__}_factory"
    factory.__doc__ = cls.__doc__
    return factory
