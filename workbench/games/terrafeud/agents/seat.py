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


def game_agent(cls: type) -> Callable[..., Any]:
    """The game-agent factory of a tuned agent class (``factory(seed=, game=, rules=, **params)``): the tuned
    agents read the rules from the state they are shown, so the factory keeps the seed and the parameters."""

    def factory(seed: int | None = None, game: Any = None, rules: Any = None, **params: Any) -> Any:
        return cls(seed=seed, **params)

    factory.__name__ = factory.__qualname__ = f"{cls.__name__}_factory"
    factory.__doc__ = cls.__doc__
    return factory
