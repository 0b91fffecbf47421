"""One colour, one meaning, in every figure of a balance report (and the legend that says so).

Quantities keep their colour across figures: the first seat's advantage is always orange, the
second seat purple, decided games green, game length blue, unfinished games (cut by the cap) light
grey, draws dark grey. Significance is a filled marker (open: not significant), never a colour, and
the rulebook value is a black square outline. Heat maps read their own colour bar.
"""

from __future__ import annotations

from collections.abc import Sequence

from workbench.core import palette as core_palette

FIRST = "#d95f02"  # the first seat (White): its advantage, its wins
SECOND = "#7570b3"  # the second seat (Black)
DECIDED = "#1b9e77"  # decided games, decisiveness
DECIDED_SHADES = ("#1b9e77", "#66c2a4", "#b2e2cd", "#0b6e4f", "#99d8c9")  # victory kinds: all decided
LENGTH = "#2c7fb8"  # game length, survival curves
DRAW = "#555555"  # draws by the rules
UNFINISHED = "#c8c8c8"  # games cut by the cap
REFERENCE = "#000000"  # fair share, zero line, rulebook value
SEATS = (FIRST, SECOND, "#e7298a", "#66a61e")  # more seats: further colours no quantity uses

LEGEND = ("Colours: orange = the first seat (White) and its advantage; purple = the second seat; green = decided "
          "games (decisiveness); blue = game length; light grey = unfinished games (cut by the cap); dark grey = "
          "draws. A filled marker is significant after correction, an open one is not; a black square outline "
          "marks the rulebook value. Heat maps read their own colour bar, which starts at 0.")


def legend(seats: Sequence[str] = ("white", "black"), team: bool = False) -> str:
    """``LEGEND`` in the game's own seat names (Red, Player 1, a), never TerraFeud's White for another game."""
    first = str(seats[0]).capitalize() if seats else "first"
    second = str(seats[1]).capitalize() if len(seats) > 1 else "second"
    words = f"the first seat ({first}){' or its team' if team else ''}"
    return (LEGEND.replace("the first seat (White)", words)
            .replace("purple = the second seat", f"purple = the second seat ({second})"))


def seat_colour(index: int, labels: Sequence[str] | int = 2) -> str:
    """The colour of seat ``index`` (0 = first) where a figure draws the seats themselves (pieces, seat legends):
    the one palette of ``workbench.core.palette`` that the board and the pictures use (Pole's Red is red)."""
    return core_palette.seat_colour(index, labels)


__all__ = ["DECIDED", "DECIDED_SHADES", "DRAW", "FIRST", "LEGEND", "LENGTH", "legend", "REFERENCE", "SECOND", "SEATS",
           "UNFINISHED", "seat_colour"]
