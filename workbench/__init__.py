"""TerraFeud Workbench: rules engine, scenarios, pictures, simulation and balance reports."""

__version__ = "0.1.0"


def _load_start(rules):  # noqa: ANN001, ANN202 - RulesConfig -> StartPosition, imported lazily
    """Resolve ``start=PATH`` through the scenario layer (the engine itself reads no files)."""
    from workbench.scenarios.start import load_start

    return load_start(rules)


def _install_start_loader() -> None:
    # The composition root: wires the engine's start seam to the scenario loader without the
    # engine importing anything above it (docs/architecture.md).
    from workbench.engine.game import set_start_loader

    set_start_loader(_load_start)


_install_start_loader()
