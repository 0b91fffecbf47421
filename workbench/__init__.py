"""Board-game Workbench: rules engines, scenarios, pictures, simulation, balance reports and tune."""

__version__ = "0.2.0"


def _load_start(rules):  # noqa: ANN001, ANN202 - RulesConfig -> StartPosition, imported lazily
    """Resolve ``start=PATH`` through the scenario layer (the engine itself reads no files)."""
    from workbench.games.terrafeud.scenarios.start import load_start

    return load_start(rules)


def _svg(state):  # noqa: ANN001, ANN202 - GameState -> SVG text, imported lazily
    """A TerraFeud position as SVG through the drawing layer (``_repr_svg_`` in notebooks)."""
    from workbench.games.terrafeud.viz.svg import board_svg

    return board_svg(state)


def _install_engine_seams() -> None:
    # The composition root: wires the engine's start seam to the scenario loader and its picture to
    # the drawing layer, without the engine importing anything above it (docs/architecture.md).
    from workbench.games.terrafeud.engine.game import set_start_loader
    from workbench.games.terrafeud.engine.state import GameState

    set_start_loader(_load_start)
    GameState.svg_renderer = staticmethod(_svg)


_install_engine_seams()
