"""One position under another rule value: the query behind ``check --compare`` and the board's diff.

``rules_under`` is how a variant is made from a scenario's or a game's rules (``check --compare``
and ``Scenario.game`` use it); ``position_under`` rebuilds the same position (pieces, markers, drawn
terrain) under those rules; ``action_diff`` lists the legal actions gained and lost, so the board can
draw a rule change's effect on the position a designer is looking at.
"""

from __future__ import annotations

from typing import Any

from workbench.games.terrafeud.engine import GameState, RulesConfig, state_from_dict, state_to_dict


def rules_under(rules: RulesConfig, changes: dict[str, Any]) -> RulesConfig:
    """``rules`` with ``changes`` applied (values as typed, coerced like ``--rules``); RulesError if invalid."""
    return rules.replace(**changes)


def position_under(state: GameState, changes: dict[str, Any]) -> GameState:
    """The same position (pieces, markers, side to move, drawn terrain) under the changed rules."""
    d = state_to_dict(state)
    d["rules"] = rules_under(state.rules, changes).to_dict()
    return state_from_dict(d)


def action_diff(state: GameState, changes: dict[str, Any]) -> dict[str, Any]:
    """Legal actions of ``state`` that the changed rules add (``gained``) or remove (``lost``), in notation.

    Each entry is ``{"text": ..., "action": tuple}``; both lists keep the engine's action order.
    """
    if not changes:
        raise ValueError("name a rule change, e.g. castling=sacrifice")
    other = position_under(state, changes)
    before = state.legal_actions() if not state.is_terminal() else []
    after = other.legal_actions() if not other.is_terminal() else []
    b, a = set(before), set(after)
    gained = [{"text": other.action_to_string(x), "action": list(x)} for x in after if x not in b]
    lost = [{"text": state.action_to_string(x), "action": list(x)} for x in before if x not in a]
    change = ",".join(f"{k}={v}" for k, v in changes.items())
    return {"change": change, "key": state.key(), "gained": gained, "lost": lost,
            "before": len(before), "after": len(after)}


__all__ = ["action_diff", "position_under", "rules_under"]
