"""Skill traces (``workbench.balance.trace``): planted truths read back by the verdict rule of docs/balance.md."""

from __future__ import annotations

import pandas as pd
import pytest

from workbench.balance.stats import BalanceError
from workbench.balance.trace import trace

BUDGETS = (50, 100, 200, 400, 800)


def _table(shares: list[float], decided: int, draws: int = 0) -> pd.DataFrame:
    """A planted trace: at each budget, ``decided`` games won by White in the share given, and ``draws`` draws
    (a TerraFeud table that says so: balance reads a table's game and never guesses it)."""
    rows = []
    for budget, share in zip(BUDGETS, shares, strict=True):
        white = round(share * decided)
        for i in range(decided + draws):
            winner = "white" if i < white else ("black" if i < decided else "none")
            rows.append({"game": "terrafeud", "winner": winner, "victory": "capture" if winner != "none" else "draw",
                         "outcome": "win" if winner != "none" else "draw", "plies": 40 + budget // 10 + i % 7,
                         "skill_budget": budget, "skill_agent": f"mcts:iterations={budget}",
                         "agent_white": f"mcts:iterations={budget}", "agent_black": f"mcts:iterations={budget}"})
    return pd.DataFrame(rows)


def test_a_planted_growing_advantage_reads_grows():
    t = trace(_table([0.55, 0.60, 0.65, 0.70, 0.75], 300, draws=30))
    assert t.verdict == "grows" and 0.03 < t.slope_low < t.slope < t.slope_high
    assert [r.budget for r in t.rungs] == list(BUDGETS) and t.rungs[0].decisive < 1
    assert "grows with skill" in t.sentence() and "Nothing is claimed past mcts:iterations=800" in t.sentence()


def test_a_flat_table_reads_stable():
    t = trace(_table([0.55] * 5, 400))
    assert t.verdict == "stable" and -0.02 <= t.slope_low < t.slope_high <= 0.02


def test_a_shrinking_edge_a_flip_and_too_few_games():
    assert trace(_table([0.80, 0.72, 0.65, 0.60, 0.55], 300)).verdict == "shrinks"
    assert trace(_table([0.30, 0.40, 0.50, 0.60, 0.70], 300)).verdict == "flips"
    small = trace(_table([0.50, 0.55, 0.45, 0.55, 0.50], 20))
    assert small.verdict == "undecided" and small.games_needed and small.games_needed > 20
    assert f"About {small.games_needed:,} games a rung" in small.sentence()


def test_a_table_without_rungs_is_refused():
    with pytest.raises(BalanceError, match="skill_budget"):
        trace(_table([0.5] * 5, 10).drop(columns=["skill_budget"]))


def test_the_report_gains_the_section():
    from workbench.balance.report import trace_section

    section = trace_section(_table([0.55, 0.60, 0.65, 0.70, 0.75], 60))
    assert section.title == "Does the verdict hold at strong play?"
    assert len(section.table) == 5 and section.figures and "docs/balance.md" in section.paragraphs[0]


def test_the_skill_trace_option_doubles_from_low_to_high():
    from workbench.study.trace import parse_skill_trace

    rungs = parse_skill_trace("mcts:iterations=50..800,rollout=10")
    assert rungs == [(f"mcts:iterations={b},rollout=10", float(b)) for b in BUDGETS]
    for bad, words in (("mcts:iterations=50..200", "3 rungs"), ("mcts", "one doubling range"),
                       ("mcts:iterations=x..9", "needs numbers"), ("mcts:iterations=800..50", "rising")):
        with pytest.raises(ValueError, match=words):
            parse_skill_trace(bad)
