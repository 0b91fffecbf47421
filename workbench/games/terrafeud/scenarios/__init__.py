"""TerraFeud's scenario dialect (``SCENARIO-FORMAT.md``): its keys, positions, checks and ``start=`` files.

``workbench.scenarios`` reads any game's file and hands TerraFeud's here through ``GAME.scenario``:
``loader.scenario_from_data`` gives a ``Scenario`` whose ``run()`` judges each check (``checks.py``)
through the engine; ``dump_scenario(state, id, title)`` writes a position back; ``start.load_start``
resolves ``start=PATH`` for the engine; ``variant`` is the rule-change query of ``check --compare``
and the board's diff.
"""

from workbench.core.scenario import CheckResult, ScenarioError

from .checks import Check
from .loader import Scenario, build_position, dump_scenario, scenario_from_data

__all__ = ["Check", "CheckResult", "Scenario", "ScenarioError", "build_position", "dump_scenario", "scenario_from_data"]
