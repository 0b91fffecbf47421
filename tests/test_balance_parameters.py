"""Real games over rule parameters: a two-parameter grid into a report, rule counters into the Rule usage
section, grid validation before any game, and ``check --compare`` with a parameter."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from workbench.__main__ import main as workbench_main
from workbench.balance import build_report
from workbench.balance.usage import event_rule_totals, rule_names
from workbench.games.terrafeud.engine import RULES
from workbench.simulate import SimulationError, simulate
from workbench.simulate.cli import main as simulate_main
from workbench.simulate.core import replay_game

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


@pytest.fixture(scope="module")
def grid(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame, pd.DataFrame]:
    out = tmp_path_factory.mktemp("grid") / "numbers.parquet"
    games, events = simulate({"archer_range": [2, 3, 4], "aura_radius": [1, 2]}, "greedy", "random", games=3,
                             seed=11, max_plies=60, events=True, out=out, workers=0, progress=False)
    return out, games, events


def test_grid_rows_carry_parameters_and_counters(grid: tuple) -> None:
    _, games, events = grid
    assert len(games) == 18 and (games["victory"] != "error").all()
    cells = games.groupby(["archer_range", "aura_radius"]).size()
    assert sorted(cells.index) == [(a, r) for a in (2, 3, 4) for r in (1, 2)] and set(cells) == {3}
    assert (games["hill_bonus"] == 1).all() and (games["bridges"] == "b4,f6,k4").all()
    assert games["start_id"].isna().all() and games["start_hash"].isna().all()
    assert rule_names(games) == list(RULES)
    # the counters and the events' rules field tell the same story, game by game and rule by rule
    totals = event_rule_totals(events).set_index(["game_id", "rule"])["count"]
    for row in games.itertuples(index=False):
        for rule in RULES:
            counted = getattr(row, f"rule_{rule}_white") + getattr(row, f"rule_{rule}_black")
            assert counted == totals.get((row.game_id, rule), 0), (row.game_id, rule)
    assert games[[f"rule_{r}_white" for r in RULES]].to_numpy().sum() > 0


def test_replay_reproduces_a_parameter_row(grid: tuple) -> None:
    _, games, _ = grid
    row = games[(games["archer_range"] == 4) & (games["aura_radius"] == 1)].iloc[0]
    again = replay_game(row, max_plies=60, events=False).row
    for col in ("archer_range", "aura_radius", "winner", "plies", *(f"rule_{r}_black" for r in RULES)):
        assert again[col] == row[col], col


def test_two_parameter_grid_into_a_report(grid: tuple, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, games, events = grid
    assert workbench_main(["report", str(out), "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "(6 cells, 3 comparisons)" in printed
    assert "Archer range 3:" in printed and "Archer range 4:" in printed and "Aura radius 1:" in printed
    md = (tmp_path / "report.md").read_text()
    assert "## Response curves" in md and "archer_range 2 (rulebook) → 3 → 4:" in md
    assert "aura_radius 1" not in md.split("## Response curves")[1].split("##")[0]  # two values: no curve
    assert "## Rule usage" in md and "association, not cause" in md.lower()
    assert "](figures/curve_archer_range.png)" in md and "](figures/rule_usage.png)" in md
    report = build_report(games, events, n_boot=100)
    usage = next(s for s in report.sections if s.title == "Rule usage")
    # was 6 * len(RULES) rows (one per cell and rule); now a rules x cells table
    assert usage.table is not None and len(usage.table) == len(RULES) and usage.table.shape[1] == 2 + 6


@pytest.mark.parametrize(("grid_args", "message"), [
    (["archer_range=0,2"], "archer_range"),
    (["aura_radius=2,x"], "aura_radius"),
    (["archer_range=2,3,2"], "list each value once"),
    (["fords=d5/h5,b4"], "fords"),
    (["start=nowhere.yaml"], "grid cell start=nowhere.yaml: parameter start"),
    (["bridges=b4/f6/k4,a1"], "not on the river"),
])
def test_bad_grid_values_fail_before_any_game(grid_args: list[str], message: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "never.parquet"
    code = simulate_main(["--games", "1", "--white", "random", "--black", "random", "--workers", "0",
                          "--no-progress", "--out", str(out), "--grid", *grid_args])
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err
    assert not out.exists()
    with pytest.raises(SimulationError, match=message.split("=")[0]):
        simulate({grid_args[0].split("=")[0]: grid_args[0].split("=", 1)[1].split(",")}, "random", "random",
                 games=1, workers=0, progress=False)


def test_check_compare_lists_checks_a_parameter_changes(capsys: pytest.CaptureFixture[str]) -> None:
    assert workbench_main(["check", str(SCENARIOS), "--compare", "archer_range=3"]) == 0
    out = capsys.readouterr().out
    head, *changed = out.splitlines()
    assert head.startswith("variant archer_range=3 against each scenario's own rules: ")
    assert changed and all(line.startswith("CHANGED ") for line in changed)
    # the shot at distance 2 stops being legal; scenarios that never shoot are untouched
    assert any(line.startswith("CHANGED archer-shot-range: pass -> fail: ") and "d2*d4 should be legal" in line
               for line in changed)
    assert not any(line.startswith(("CHANGED castling-", "CHANGED knight-")) for line in changed)
    assert workbench_main(["check", str(SCENARIOS), "--compare", "bridges=b4,k4"]) == 0
    assert "variant bridges=b4,k4 against" in capsys.readouterr().out
    for bad, named in (("archer_range=0", "archer_range"), ("start=x.yaml", "start= does not apply to check")):
        assert workbench_main(["check", str(SCENARIOS), "--compare", bad]) == 2
        assert named in capsys.readouterr().err


def test_start_grid_records_scenario_id_and_hash() -> None:
    starts = [str(SCENARIOS / "terrafeud" / "rulebook" / "classic-start.yaml"), str(SCENARIOS / "terrafeud" / "rulebook" / "infantry-aura.yaml")]
    games = simulate({"start": starts}, "greedy", "random", games=2, seed=3, max_plies=20, workers=0,
                     progress=False)
    assert (games["victory"] != "error").all()
    assert sorted(set(games["start_id"])) == ["classic-start", "infantry-aura"]
    assert set(games["start"]) == set(starts)
    hashes = games.groupby("start_id")["start_hash"].agg(set)
    assert all(len(h) == 1 and len(next(iter(h))) == 12 for h in hashes)  # one position, one hash per file
    assert hashes["classic-start"] != hashes["infantry-aura"]
    row = games[games["start_id"] == "infantry-aura"].iloc[0]
    again = replay_game(row, max_plies=20, events=False).row
    assert (again["start_hash"], again["plies"], again["winner"]) == (row["start_hash"], row["plies"], row["winner"])
    report = build_report(games, n_boot=50)
    assert report.comparisons[0].name == "Start infantry-aura" and "start_id=classic-start" in report.markdown()


def test_grid_ranges_and_hex_lists_parse() -> None:
    from workbench.simulate.cli import parse_grid

    assert parse_grid(["archer_range=2..4", "aura_radius=1,3..4", "bridges=b4/f6/k4,b4/k4"]) == {
        "archer_range": ["2", "3", "4"], "aura_radius": ["1", "3", "4"], "bridges": ["b4/f6/k4", "b4/k4"]}
    for bad, message in (("archer_range=4..2", "an empty range"), ("archer_range=1..1000", "at most 100")):
        with pytest.raises(SimulationError, match=message):
            parse_grid([bad])


def test_the_centre_bridge_as_a_ford_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``bridges`` and ``fords`` are valid only together: each value is checked alone, the pair as a cell."""
    base = ["--games", "1", "--white", "random", "--black", "random", "--workers", "0", "--no-progress",
            "--max-plies", "10"]
    out = tmp_path / "ford.parquet"
    assert simulate_main([*base, "--out", str(out), "--rules", "bridges=b4/k4,fords=d5/f6/h5"]) == 0
    out2 = tmp_path / "ford2.parquet"
    assert simulate_main([*base, "--out", str(out2), "--rules", "bridges=b4/k4",
                          "--grid", "fords=d5/h5,d5/f6/h5"]) == 0
    games = pd.read_parquet(out2)
    assert sorted(games["fords"]) == ["d5,f6,h5", "d5,h5"] and set(games["bridges"]) == {"b4,k4"}
    capsys.readouterr()
    assert simulate_main([*base, "--out", str(tmp_path / "no.parquet"), "--grid", "fords=d5/f6/h5"]) == 2
    assert "grid cell fords=d5/f6/h5: parameters bridges and fords: f6 is both a bridge and a ford" in capsys.readouterr().err
    assert simulate_main([*base, "--out", str(tmp_path / "no.parquet"), "--rules", "aura_radius=0,order_size=9"]) == 2
    assert "--rules order_size=9: parameter order_size=9 is out of range; allowed: whole numbers 0..3" in capsys.readouterr().err
    assert simulate_main([*base, "--out", str(tmp_path / "no.parquet"), "--rules", "start=nowhere.yaml"]) == 2
    assert "start=nowhere.yaml: parameter start=nowhere.yaml: the start file does not load" in capsys.readouterr().err
