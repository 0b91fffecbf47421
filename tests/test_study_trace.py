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


def test_noise_alone_rarely_reads_a_trend_even_with_few_games():
    """Calibration: 4 rungs of 8 decided games each, no trend planted (a fair 50%, and a steady 80%). A rung
    won 8-0 by chance has a Wilson width that understates its error; weighted by it, a line through noise read
    "grows" in about 15% of such traces. Weighted by the variance under "no trend" (pooled, Cochran-Armitage),
    a trend is read in about 5%, the test's level."""
    import numpy as np

    from workbench.balance.stats import wilson_interval
    from workbench.balance.trace import Rung, fit

    rng = np.random.default_rng(3)
    for share in (0.5, 0.8):
        calls = 0
        for _ in range(300):
            rungs = []
            for budget in (50, 100, 200, 400):
                k = int(rng.binomial(8, share))
                lo, hi = wilson_interval(k, 8)
                rungs.append(Rung(budget, f"b{budget}", 8, 8, k / 8, lo, hi, 1.0, 1.0, 1.0, 40.0, 30.0, 50.0,
                                  k / 8 - 0.5, lo - 0.5, hi - 0.5, counts=(k, 8)))
            slope, low, high, verdict, _ = fit(rungs)
            assert low < slope < high and all(r.signal_se > 0 for r in rungs)
            calls += verdict != "undecided"
        assert calls / 300 < 0.09, (share, calls)


def test_the_trace_command_plays_every_rung_on_the_native_core(tmp_path, capsys):
    """End to end: ``workbench trace`` plays four doubling rungs on a native core, stacks them, prints the table,
    the verdict and the CPU seconds, and the stored table reads back as the same trace."""
    from workbench.games.big_chess.native import available
    from workbench.study.trace import main

    if not available():
        pytest.skip("the native extension is not built")
    out = tmp_path / "t.parquet"
    code = main(["--game", "big-chess", "--grid", "start=deployed", "--skill-trace", "alphabeta:depth=4,nodes=16..128",
                 "--games", "3", "--max-plies", "60", "--workers", "1", "--seed", "5", "--engine", "native",
                 "--no-progress", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0, text
    table = pd.read_parquet(out)
    assert sorted(table["skill_budget"].unique()) == [16, 32, 64, 128] and len(table) == 12
    assert set(table["engine"]) == {"native"} and set(table["start"]) == {"deployed"}
    t = trace(table)
    assert t.question.startswith("A's advantage") and t.sentence() in text
    assert "nan" not in text.lower() and "s CPU" in text and "alphabeta:depth=4,nodes=128" in text
    # the report of that real table carries the section; every figure it prints stands with its interval
    from workbench.balance.report import build_report

    md = build_report(table, n_boot=20).markdown()
    section = md.split("## Does the verdict hold at strong play?")[1].split("\n## ")[0]
    assert "nan" not in section.lower() and t.sentence() in section
    rows = [line for line in section.splitlines() if line.startswith("| alphabeta")]
    assert len(rows) == 4
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        for cell in cells[3:]:  # advantage, decided, length, signal: a figure and its [low, high], or a dash
            assert cell == "–" or cell.startswith("not reached") or ("[" in cell and "]" in cell), row


def test_every_declared_headline_trace_is_a_real_question():
    """Each game's declared headline (``GameDef.headline_grid``, ``GameDef.skill_trace``: what ``make bench`` and
    docs/strength.md rerun) doubles into at least four rungs and names rule values the game accepts."""
    from workbench.balance.trace import MIN_RUNGS
    from workbench.games import get, names
    from workbench.study.trace import parse_skill_trace

    declared = [get(n) for n in names() if get(n).skill_trace]
    assert len(declared) >= 4
    for game in declared:
        assert len(parse_skill_trace(game.skill_trace)) >= MIN_RUNGS
        for rule, values in game.headline_grid.items():
            for value in values:
                assert game.rules({rule: value}) is not None


def test_rungs_that_swing_beyond_their_sampling_error_are_not_stable():
    """A first seat's edge that swings 60-40-60-40-60 from budget to budget has no trend, but it is no steady edge
    either: weighted by sampling error alone its slope's interval fits inside ±2 points ("stable"); the rungs'
    excess scatter (Pearson's chi-square over its degrees of freedom) widens it, and the verdict stays undecided."""
    t = trace(_table([0.60, 0.40, 0.60, 0.40, 0.60], 300))
    assert t.verdict == "undecided" and t.slope_high - t.slope_low > 0.04
