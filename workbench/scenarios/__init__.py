"""Scenario files of every game: positions plus expectations, read safely, judged by the game's dialect.

``load_scenario(path)`` gives the ``ScenarioCase`` of the game named by the file's ``game:``
(TerraFeud when absent), whose ``run()`` judges each check. The command line
(``python -m workbench check``) is ``workbench.scenarios.cli``.

TerraFeud shortcuts (its dialect lives in ``workbench.games.terrafeud.scenarios``, reached lazily
through the registry, so this package imports no game): ``Check``, ``Scenario``, ``dump_scenario``.
"""

from typing import Any

from workbench.core.scenario import CheckResult, ScenarioError, scenario_status
from workbench.games import shortcut

from .loader import (
    find_scenario_files,
    load_scenario,
    load_scenario_text,
    load_scenarios,
)

SHORTCUTS = ("Check", "Scenario", "dump_scenario")


def __getattr__(name: str) -> Any:
    """TerraFeud's names, from before the workbench hosted several games."""
    if name in SHORTCUTS:
        return shortcut("scenarios", name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Check", "CheckResult", "Scenario", "ScenarioError", "dump_scenario", "find_scenario_files",  # noqa: F822 - lazy
    "load_scenario", "load_scenario_text", "load_scenarios", "scenario_status",
]
