"""How many games a question needs: the closed form against statsmodels, its inverse, and ``simulate --plan``."""

from __future__ import annotations

import math

import pytest
from statsmodels.stats.proportion import power_proportions_2indep, samplesize_proportions_2indep_onetail

from workbench.__main__ import simulate_main
from workbench.balance import BalanceError
from workbench.balance.power import (
    detectable_difference,
    detectable_sentence,
    games_needed,
    games_needed_one,
    plan_grid,
    power_two_proportions,
)


@pytest.mark.parametrize(("diff", "base", "power", "alpha"), [
    (0.05, 0.5, 0.8, 0.05), (0.10, 0.5, 0.9, 0.05), (0.05, 0.3, 0.8, 0.01), (0.20, 0.6, 0.8, 0.05),
    (0.03, 0.45, 0.95, 0.05),
])
def test_games_needed_matches_statsmodels(diff: float, base: float, power: float, alpha: float) -> None:
    # statsmodels' prop2 is the baseline and p1 = prop2 + diff; the pooled null variance, two-sided
    expected = samplesize_proportions_2indep_onetail(diff, base, power, alpha=alpha)
    assert games_needed(diff, power, alpha, base) == math.ceil(expected)
    assert power_two_proportions(diff, 1000, 1000, alpha, base) == pytest.approx(
        power_proportions_2indep(diff, base, 1000, alpha=alpha).power, rel=1e-9)


def test_five_points_at_half_is_the_textbook_figure() -> None:
    # (1.96 sqrt(2 * .525 * .475) + 0.8416 sqrt(.25 + .2475))^2 / .05^2 = 1564.7
    za, zb = 1.959963984540054, 0.8416212335729143
    closed = (za * math.sqrt(2 * 0.525 * 0.475) + zb * math.sqrt(0.25 + 0.2475)) ** 2 / 0.05 ** 2
    assert games_needed(0.05) == math.ceil(closed) == 1565
    assert games_needed_one(0.05) == math.ceil(((za * 0.5 + zb * math.sqrt(0.55 * 0.45)) / 0.05) ** 2)


def test_detectable_difference_inverts_the_sample_size() -> None:
    n = games_needed(0.08)
    assert detectable_difference(n, n) == pytest.approx(0.08, abs=1e-3)
    d = detectable_difference(200, 200)
    assert power_two_proportions(d, 200, 200) == pytest.approx(0.8, abs=1e-4)
    assert detectable_sentence(200, 200, 200) == "With 200 games a cell, differences under 14 points could not be seen (80% power)."
    assert math.isnan(detectable_difference(0, 10))


def test_plan_grid_divides_by_the_pooled_cells() -> None:
    rows = {r.column: r for r in plan_grid({"season": 2, "hill": 2, "swamp": 2}, 0.05)}
    assert rows["season"].cells_per_value == 4 and rows["season"].games_per_cell == math.ceil(1565 / 4)
    assert plan_grid({"archer_range": 3}, 0.05)[0].games_per_cell == 1565


def test_bad_arguments_are_refused_in_words() -> None:
    with pytest.raises(BalanceError, match="power must be between 0 and 1"):
        games_needed(0.05, power=1.2)
    with pytest.raises(BalanceError, match="diff must be a difference"):
        games_needed(0)


def test_simulate_plan_prints_games_per_cell_and_plays_nothing(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "never.parquet"
    code = simulate_main(["--white", "greedy", "--black", "greedy", "--grid", "season=summer,winter",
                          "hill=true,false", "--plan", "5", "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0 and not out.exists()
    assert "to see a 5-point difference with 80% power" in printed
    assert f"games per cell: {math.ceil(games_needed(0.05) / 2)}" in printed
    assert simulate_main(["--white", "greedy", "--black", "greedy", "--plan", "10", "--power", "0.9"]) == 0
    assert f"{games_needed_one(0.10, 0.9)} decided games" in capsys.readouterr().out
    assert simulate_main(["--white", "greedy", "--black", "greedy", "--grid", "season=spring", "--plan", "5"]) == 2
    assert "season='spring'" in capsys.readouterr().err


def test_plan_with_the_batch_games_says_what_they_could_not_see(capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate_main(["--white", "greedy", "--black", "greedy", "--grid", "season=summer,winter",
                          "--games", "100", "--plan", "5"]) == 0
    d = math.ceil(100 * detectable_difference(100, 100))
    assert f"with --games 100 (100 games a value): differences under {d} points could not be seen" in \
        capsys.readouterr().out
