"""A plain-text picture of a position, for terminals and notebooks without the SVG layer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .geometry import FILES, hex_at, hex_name
from .pieces import SIDE_NAMES, letter

if TYPE_CHECKING:
    from .state import GameState


def board_text(state: GameState) -> str:
    """Rows of the doubled-row model from the top (Black) down; ``~`` river, ``=`` bridge,
    ``:`` ford, ``^`` hill, ``%`` swamp, ``*`` marker on an empty hex, ``.`` land."""
    bd = state.board
    marked = state.marked_by(0) | state.marked_by(1)
    lines = []
    for y in range(20, -1, -1):
        cells = []
        for q in range(11):
            h = hex_at(q, y)
            if h is None:
                cells.append("  ")
                continue
            c = state.squares[h]
            if c:
                ch = letter(c)
            elif h in marked:
                ch = "*"
            elif h in bd.bridges:
                ch = "="
            elif h in bd.fords:
                ch = ":"
            elif h in bd.river:
                ch = "~"
            elif h in bd.hills:
                ch = "^"
            elif bd.swamp_owner[h] >= 0:
                ch = "%"
            else:
                ch = "."
            cells.append(ch + " ")
        lines.append(f"{y:2d} " + "".join(cells).rstrip())
    lines.append("   " + " ".join(FILES))
    status = (
        f"{(state.winner_name() or 'nobody')} won ({state.victory})"
        if state.victory
        else f"{SIDE_NAMES[state.to_move]} to move"
    )
    info = [f"ply {state.ply}, {status}, {state.rules.label()}"]
    for s in (0, 1):
        if state.markers[s]:
            info.append(
                f"{SIDE_NAMES[s]} markers: "
                + ", ".join(f"{hex_name(a)}*{hex_name(t)}" for a, t in sorted(state.markers[s].items()))
            )
        if state.destroyed[s]:
            info.append(f"{SIDE_NAMES[s]} destroyed: " + " ".join(letter(k | (s << 3)) for k in state.destroyed[s]))
    return "\n".join(lines + info)
