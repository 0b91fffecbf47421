"""Small helpers for engine tests: positions from hex->letter maps, destinations as names."""

from __future__ import annotations

from workbench.games.terrafeud.engine import GameState, state_from_dict
from workbench.games.terrafeud.engine.geometry import hex_name, parse_hex

NO_TERRAIN = {"hill": False, "swamp": False}


def pos(pieces: dict[str, str], to_move: str = "white", rules: dict | None = None, **extra) -> GameState:
    """A position with no terrain unless ``rules`` says otherwise."""
    r = dict(NO_TERRAIN)
    r.update(rules or {})
    return state_from_dict({"rules": r, "pieces": pieces, "to_move": to_move, **extra})


def dest(st: GameState, h: str) -> set[str]:
    """Destination names of the piece on ``h``."""
    return {hex_name(x) for x in st.destinations(parse_hex(h))}


def texts(st: GameState) -> set[str]:
    """All legal actions as notation."""
    return {st.action_to_string(a) for a in st.legal_actions()}


def piece(st: GameState, h: str) -> str | None:
    """Letter on a hex or None."""
    from workbench.games.terrafeud.engine.pieces import letter

    c = st.squares[parse_hex(h)]
    return letter(c) if c else None
