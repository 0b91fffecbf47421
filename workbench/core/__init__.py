"""The game protocol and what every game shares (standard library only).

Layers point one way: ``core`` <- ``games/<name>`` <- tools (scenarios, agents, simulate, balance,
viz, widget, openspiel). A tool takes a game from ``workbench.games.get(name)`` and speaks only the
protocol below; it never imports a game package.
"""

from .classes import ActionClass, ActionClasses, Archetype
from .protocol import (
    CHANCE,
    TERMINAL,
    AgentCaps,
    Cell,
    GameDef,
    GameInfo,
    Glyph,
    IllegalAction,
    Layout,
    Pattern,
    PatternMark,
    ReportPart,
    State,
)
from .rulespec import Param, Rules, RulesError, RulesSpec
from .scenario import CheckResult, ScenarioCase, ScenarioError, scenario_status

__all__ = [
    "ActionClass", "ActionClasses", "AgentCaps", "Archetype", "CHANCE", "TERMINAL", "Cell", "CheckResult", "GameDef", "GameInfo", "Glyph", "IllegalAction", "Layout",
    "Param", "Pattern", "PatternMark", "ReportPart", "Rules", "RulesError", "RulesSpec", "ScenarioCase", "ScenarioError", "State", "scenario_status",
]
