"""`--game openspiel:NAME`: games nobody here wrote go through simulate and report like our own."""

from __future__ import annotations

import pytest

from workbench.__main__ import main
from workbench.simulate import read_results

pytest.importorskip("pyspiel")


@pytest.mark.parametrize("name, agents, games", [
    ("connect_four", "p1=random,p2=mcts:iterations=20", 6),
    ("breakthrough", "random", 4),
    ("backgammon", "p1=random,p2=mcts:iterations=5", 2),  # chance nodes: dice
])
def test_a_pyspiel_game_runs_through_simulate_and_report(tmp_path, name, agents, games, capsys):
    out = tmp_path / f"{name}.parquet"
    assert main(["simulate", "--game", f"openspiel:{name}", "--agents", agents, "--games", str(games),
                 "--max-plies", "400", "--workers", "0", "--seed", "3", "--out", str(out)]) == 0
    rows = read_results(out)
    assert len(rows) == games and set(rows["game"]) == {f"openspiel:{name}"}
    assert set(rows["outcome"]) <= {"win", "draw", "unfinished"} and (rows["plies"] > 0).all()
    assert set(rows["winner"]) <= {"p1", "p2", "none"}
    if name == "connect_four":  # mcts with 20 iterations beats random at connect four
        assert (rows["winner"] == "p2").sum() >= games // 2
    assert main(["report", str(out), "--out", str(tmp_path / "report")]) == 0
    text = (tmp_path / "report" / "report.md").read_text()
    assert f"openspiel:{name}" in text or name in text
    assert "unfinished" in text and "Cap: 400 plies" in text
