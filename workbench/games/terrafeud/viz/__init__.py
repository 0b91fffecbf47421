"""Pictures of TerraFeud: one layout for SVG, matplotlib, heatmaps and its board (``HexBoard``).

- ``svg.board_svg`` (a position's ``_repr_svg_``), ``svg.before_after_svg``, ``scenario_pictures``;
- ``mpl.draw_board``, ``mpl.heatmap``, ``mpl.compare`` (matplotlib);
- ``heat``: zone control, threat, safe feudal hexes, mobility, and batch maps from simulation events;
- ``graph``: the movement graph per piece kind and season (networkx), distances, crossing use.

Submodules that need matplotlib, pandas or networkx are imported only when used.
"""

from __future__ import annotations

from typing import Any

from .layout import Layout
from .svg import before_after_svg, board_svg


def scenario_pictures(scenario: Any, overrides: dict[str, Any] | None = None) -> str:
    """A scenario before and after its first ``play`` check, the changed hexes marked (SVG text).

    ``scenario`` is a TerraFeud ``Scenario`` (or a path to its YAML file).
    """
    if not hasattr(scenario, "play_states"):
        from workbench.games.terrafeud.scenarios.loader import load_file  # its own reader, not the tools'

        scenario = load_file(scenario)
    states = scenario.play_states(overrides)
    if len(states) < 2:
        return board_svg(states[0])
    return before_after_svg(states, titles=(f"{scenario.id}: before", "after " + ", ".join(
        s.action_to_string(a) for s, a in zip(states, [st.history[-1] for st in states[1:]], strict=False))))


__all__ = ["Layout", "before_after_svg", "board_svg", "scenario_pictures"]
