"""Seeds and specs: what identifies one game anywhere (a hash of batch seed, cell and index), and the errors of a batch.

The same batch gives the same games on every backend, in any order, and a resumed batch plays exactly
the games that are missing; the game seed draws the rolled terrain and each agent's seed derives from it.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def opening_seed(base: int, index: int, game: str = DEFAULT) -> int:
    """Seed of the random opening of game ``index`` of a batch whose openings are seeded ``base``
    (``<game>-opening``): not the game's seed, so batches that share ``base`` (a ladder's two halves with the
    seats swapped, a trace's rungs, every rule cell) play the same openings, game for game."""
    return derive_seed(f"{game}-opening", base, index)


def agent_seed(game_seed_: int, seat: int, game: str = DEFAULT) -> int:
    """Seed of the agent in seat ``seat`` (0 = the first seat) of the game seeded ``game_seed_`` (``<game>-agent``)."""
    return derive_seed(f"{game}-agent", game_seed_, seat)


@dataclass(frozen=True, init=False)
class GameSpec:
    """Everything needed to play one game anywhere: picklable and small.

    ``agents`` are the seats' agents: one for every seat, one per seat in seat order, or two taking turns by
    seat (``core.rows.seat_agents``). The constructor also takes the older two-seat shorthand in its old
    place, ``GameSpec(id, cell, rules, first, second, seed, ...)``: the first and second seat's agents
    (``white``/``black`` as TerraFeud named them), kept as the spec's ``agents``, so every call written
    before still builds; no tool reads a seat by a colour."""

    game_id: int
    cell: str
    rules: dict[str, Any]
    agents: tuple[str, ...]
    seed: int
    max_plies: int = 300
    events: bool = False
    engine: str = "python"  # "native": played inside the Rust core when both agents have native twins
    game: str = DEFAULT  # a name of workbench.games (or openspiel:NAME), resolved once per worker
    # a fixed random opening: the decisions before ply ``opening`` are uniformly random, drawn from
    # ``opening_seed`` (``core.agents.Opening``); 0: the agents play from the start
    opening: int = 0
    opening_seed: int = 0

    def __init__(self, game_id: int, cell: str, rules: dict[str, Any], white: str | None = None,
                 black: str | None = None, seed: int = 0, max_plies: int = 300, events: bool = False,
                 engine: str = "python", game: str = DEFAULT, agents: Sequence[str] = (), opening: int = 0,
                 opening_seed: int = 0) -> None:
        seats = tuple(agents) or tuple(a for a in (white, black) if a is not None)
        if not seats:
            raise ValueError("a game spec needs its seats' agents (agents=..., or the two-seat shorthand)")
        if agents and any(a is not None and a != seats[i % len(seats)] for i, a in enumerate((white, black))):
            raise ValueError(f"the two-seat shorthand ({white}, {black}) contradicts the seats' agents {list(seats)}: "
                             "give them once, as agents=...")
        for name, value in (("game_id", game_id), ("cell", cell), ("rules", rules), ("agents", seats),
                            ("seed", seed), ("max_plies", max_plies), ("events", events), ("engine", engine),
                            ("game", game), ("opening", int(opening)), ("opening_seed", int(opening_seed))):
            object.__setattr__(self, name, value)


