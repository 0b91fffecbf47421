"""Scenario files of every game: positions plus expectations, read safely, judged by the game's dialect.

``load_scenario(path)`` gives the ``ScenarioCase`` of the game named by the file's ``game:``
(the registry's default when absent), whose ``run()`` judges each check. The command line
(``python -m workbench check``) is ``workbench.scenarios.cli``. A game's own dialect (its ``Scenario``,
``Check``, ``dump_scenario``) lives in its package, e.g. ``workbench.games.terrafeud.scenarios``.
"""

from workbench.core.scenario import CheckResult, ScenarioError, scenario_status

from .loader import (
    find_scenario_files,
    load_scenario,
    load_scenario_text,
    load_scenarios,
)

__all__ = [
    "CheckResult", "ScenarioError", "find_scenario_files", "load_scenario", "load_scenario_text", "load_scenarios",
    "scenario_status",
]
