"""Scenario files: positions plus expectations, the contract of ``SCENARIO-FORMAT.md``.

``load_scenario(path)`` gives a ``Scenario`` whose ``run()`` judges each check through the engine;
``dump_scenario(state, id, title)`` writes a position back as a scenario. The command line
(``python -m workbench check``) is ``workbench.scenarios.cli``.
"""

from .checks import Check, CheckResult
from .loader import (
    Scenario,
    ScenarioError,
    dump_scenario,
    find_scenario_files,
    load_scenario,
    load_scenario_text,
    load_scenarios,
    scenario_status,
)

__all__ = [
    "Check", "CheckResult", "Scenario", "ScenarioError", "dump_scenario", "find_scenario_files",
    "load_scenario", "load_scenario_text", "load_scenarios", "scenario_status",
]
