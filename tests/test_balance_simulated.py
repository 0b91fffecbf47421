"""End to end on real games: ``simulate`` -> Parquet dataset -> ``python -m workbench report``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from workbench.__main__ import main as workbench_main
from workbench.balance import build_report, per_game_event_measures, sprt_variant
from workbench.simulate import simulate


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object, object]:
    out = tmp_path_factory.mktemp("sim") / "games.parquet"
    games, events = simulate({"season": ["summer", "winter"]}, "greedy", "random", games=4, seed=7, max_plies=60,
                             events=True, out=out, workers=0, progress=False)
    return out, games, events


def test_event_measures_agree_with_the_games_table(batch: tuple) -> None:
    _, games, events = batch
    from_events = per_game_event_measures(events, games.set_index("game_id")["winner"], ("white", "black")).set_index("game_id")
    table = games.set_index("game_id").loc[from_events.index]
    for col in ("mean_branching", "decision_share", "lead_changes", "drama"):
        assert np.allclose(from_events[col], table[col]), col


def test_report_from_a_simulated_dataset(batch: tuple, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, games, _ = batch
    assert workbench_main(["report", str(out), "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "Winter:" in printed and "(2 cells, 1 comparison)" in printed
    md = (tmp_path / "report.md").read_text()
    assert "season=winter" in md and "| 4 |" in md
    assert "](figures/heatmap_" in md  # the sibling events table was found and drawn
    report = build_report(games, n_boot=200)
    assert list(report.summary["games"]) == [4, 4]
    assert report.summary["white_wins"].sum() == (games["winner"] == "white").sum()


def test_sprt_on_real_games_stops_within_budget() -> None:
    result = sprt_variant("season=winter", "greedy", "random", p0=0.5, d=0.3, batch=4, max_games=8, seed=3,
                          max_plies=60, workers=0)
    assert result.games in (4, 8) and len(result.history) == result.games // 4
    assert result.decision in ("H0", "H1", "inconclusive") and "SPRT" in result.sentence()
