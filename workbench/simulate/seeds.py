"""Seeds and specs: what identifies one game anywhere (a hash of batch seed, cell and index), and the errors of a batch.

The same batch gives the same games on every backend, in any order, and a resumed batch plays exactly
the games that are missing; the game seed draws the rolled terrain and each agent's seed derives from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from workbench.core.rows import GameResult as GameResult  # the kit, named here as before
from workbench.core.rows import derive_seed as derive_seed
from workbench.games import DEFAULT

MAX_CELLS = 10_000  # grid cells of one batch (each is checked, then played games times)



class SimulationError(ValueError):
    """A batch that cannot run as asked (bad grid, output clash, resume mismatch)."""


class SimulationNotice(UserWarning):
    """Something a run did on its own that its user should know (a damaged part set aside)."""



# ---------------------------------------------------------------------- seeds and specs
def game_seed(seed: int, cell: int, index: int, game: str = DEFAULT) -> int:
    """Seed of game ``index`` of grid cell ``cell`` in a batch seeded ``seed``, salted with the game's name
    (``<game>-game``), so two games never share a stream."""
    return derive_seed(f"{game}-game", seed, cell, index)


def agent_seed(game_seed_: int, seat: int, game: str = DEFAULT) -> int:
    """Seed of the agent in seat ``seat`` (0 = the first seat) of the game seeded ``game_seed_`` (``<game>-agent``)."""
    return derive_seed(f"{game}-agent", game_seed_, seat)


@dataclass(frozen=True)
class GameSpec:
    """Everything needed to play one game anywhere: picklable and small.

    ``agents`` are the seats' agents (one for every seat, or one per seat in seat order); ``white``/``black``
    are the older two-seat shorthand, the first and second seat's agents whatever the game calls its seats
    (``core.rows.seat_agents`` reads both), kept so that every spec written before still builds."""

    game_id: int
    cell: str
    rules: dict[str, Any]
    white: str
    black: str
    seed: int
    max_plies: int = 300
    events: bool = False
    engine: str = "python"  # "native": played inside the Rust core when both agents have native twins
    game: str = DEFAULT  # a name of workbench.games (or openspiel:NAME), resolved once per worker
    agents: tuple[str, ...] = ()  # one agent for every seat, or one per seat (games of 2+ players)


