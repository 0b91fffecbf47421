"""A second, deliberately simple implementation of the TerraFeud rules, for differential testing.

Written from the contract (BOARD-AND-RULINGS.md, SCENARIO-FORMAT.md), the English rulebook and
``docs/rulings.md`` only; it never looks inside the production engine's state or notation code.
"""

from .rules import apply_action, is_checkmated, legal_actions

__all__ = ["apply_action", "is_checkmated", "legal_actions"]
