"""Big chess played whole inside the native core: the same games and events rows as ``play_protocol_game``.

``GAME.native.play_game`` (the ``NativeBackend`` hook that ``workbench.simulate.protocol_play`` asks) calls this
module, so the simulate tool names no game; the row helpers it fills are simulate's own.

The core deals the start (the setup phase, the army or the deployed start, checked equal to Python's by the
sweep) and plays the game with the GIL released, with the native twins of the generic agents seeded as the
Python agents are; the trace it returns (action texts, legal counts, movers, and for events the event row's
fields before each action and ``fired`` after it) becomes the rows here, with the Python engine's game
columns read off the final position rebuilt in Python, so a row says the same whichever engine played it,
except ``engine`` and ``seconds``. A game plays here when the core is built and every seat's agent has a twin.
"""

from __future__ import annotations

from typing import Any

GAME_NAME = "big-chess"


def _native_agents(names: list[str]) -> list[tuple[str, dict[str, Any]]] | None:
    from workbench.core.agents import native_agent_specs

    from .native import AGENT_NAMES, AGENT_PARAMS

    return native_agent_specs(names, AGENT_NAMES, AGENT_PARAMS)


def playable(spec: Any, rules: Any) -> bool:
    """True when this game of ``spec`` can be played by the native core."""
    from workbench.core.rows import seat_agents

    from . import GAME
    from .native import available

    if spec.game != GAME_NAME or not available():
        return False
    try:
        return _native_agents(seat_agents(spec, GAME.info(rules).num_players)) is not None
    except ValueError:
        return False


def play_native(spec: Any) -> Any:
    """One game of ``spec`` in the native core; the ``GameResult`` ``play_protocol_game`` would return."""
    from workbench.core.nativekit import CoreGame, native_seats, play_in_core

    from . import GAME
    from .context import context_for
    from .native import AGENT_NAMES, AGENT_PARAMS, core, native_game, python_state

    def body(g: CoreGame) -> None:
        spec, rules = g.spec, g.rules
        info = GAME.info(rules)
        ctx = context_for(rules)
        agents = native_seats(spec, GAME, rules, AGENT_NAMES, AGENT_PARAMS)
        out = core().play_game(native_game(ctx), None, agents, spec.max_plies, spec.events)
        g.state = python_state(ctx, out["final"], spec.seed)
        g.n_legal = list(out["n_legal"])
        if spec.events:
            n = len(ctx.players)
            names_of = ctx.names
            for i, text in enumerate(out["actions"]):
                fired = ",".join(r if c is None else f"{r}@{names_of[c]}" for r, _, c in out["fired"][i])
                ev: dict[str, Any] = {"game_id": spec.game_id, "ply": i + 1, "turn": out["turns"][i],
                                      "side": info.players[out["movers"][i]], "action": text, "n_legal": g.n_legal[i],
                                      "rules": fired, "kind": out["kinds"][i], "piece": out["pieces"][i],
                                      "promotion": "=" in text}
                for p, letter in enumerate(ctx.players):
                    ev[f"treasury_{letter}"] = out["treasury"][i * n + p]
                    ev[f"trophies_{letter}"] = out["trophies"][i * n + p]
                g.events.append(ev)
        if out["stopped"]:
            raise KeyboardInterrupt

    return play_in_core(spec, GAME, body)
