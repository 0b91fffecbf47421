"""Small real tunes: every game (TerraFeud, The Cursed Lands, Pole, big chess) and the tiny game, into
simulate's dataset; resume is exact."""

from __future__ import annotations

import json

import pytest

from workbench.games import register
from workbench.simulate.core import read_results
from workbench.tune import TuneError, report_paths, tune

register("stones", "tinygame")


def test_stones_race_writes_a_simulate_dataset_and_report(tmp_path):
    out = tmp_path / "tune.parquet"
    result = tune("stones", ["pile=3..6"], ["balance"], ["plies<=60"], agents="random", budget=240, n0=16,
                  seed=3, out=out, workers=0, progress=False)
    games = read_results(out)
    assert len(games) == result.games <= 240
    assert set(games["game"]) == {"stones"} and games["game_id"].is_unique
    assert set(games["cell"]) <= {f"pile={p}" for p in range(3, 7)}
    assert games.groupby("cell").size().sum() == result.table["games"].sum()
    run = json.loads((out / "_run.json").read_text())
    assert run["tune"]["space"] == ["pile=3,4,5,6"] and run["game"] == "stones"
    paths = report_paths(out)
    text = paths["report"].read_text()
    assert result.sentence in text and "| rank |" in text
    assert paths["pareto"].stat().st_size > 0 and paths["progress"].stat().st_size > 0
    assert result.sentence.startswith("pile=")


def test_stones_resume_after_an_interruption_is_exact(tmp_path, monkeypatch):
    args = {"space": ["pile=3..6", "coin=true,false"], "objectives": ["balance"], "agents": "random", "budget": 400,
                "n0": 16, "seed": 5, "workers": 0, "progress": False, "pictures": False}
    whole = tune("stones", out=tmp_path / "whole.parquet", **args)
    from workbench.tune import runner as runner_module

    real = runner_module.GameRunner.play
    calls = {"n": 0}

    def dying(self, requests, variants):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(self, requests, variants)

    monkeypatch.setattr(runner_module.GameRunner, "play", dying)
    with pytest.raises(KeyboardInterrupt):
        tune("stones", out=tmp_path / "cut.parquet", **args)
    monkeypatch.setattr(runner_module.GameRunner, "play", real)
    partial = len(read_results(tmp_path / "cut.parquet"))
    assert 0 < partial < whole.games
    with pytest.raises(TuneError, match="resume"):
        tune("stones", out=tmp_path / "cut.parquet", **args)
    resumed = tune("stones", out=tmp_path / "cut.parquet", resume=True, **args)
    assert resumed.table.equals(whole.table) and resumed.sentence == whole.sentence
    a = read_results(tmp_path / "whole.parquet").drop(columns=["seconds"])
    b = read_results(tmp_path / "cut.parquet").drop(columns=["seconds"])
    assert a.equals(b)
    other = dict(args, budget=500)
    with pytest.raises(TuneError, match="differs"):
        tune("stones", out=tmp_path / "cut.parquet", resume=True, **other)


def test_terrafeud_tune_on_real_games(tmp_path):
    out = tmp_path / "tf.parquet"
    result = tune("terrafeud", ["archer_range=2..3", "castling=swap,sacrifice"], ["balance"], ["plies<=200"],
                  agents="random", budget=160, n0=16, max_plies=40, seed=1, out=out, workers=0, progress=False,
                  engine="python", pictures=False)
    games = read_results(out)
    assert len(games) == result.games and set(games["white_agent"]) == {"random"}
    assert set(games["cell"]) <= {"default", "castling=sacrifice", "archer_range=3", "castling=sacrifice,archer_range=3"}
    assert (games["max_plies"] == 40).all()
    assert result.recommended is not None and "plies<=200" in result.table


def test_pole_tune_on_real_games(tmp_path):
    result = tune("pole", ["income=1..2"], ["balance"], [], agents="random", budget=48, n0=8, max_plies=30, seed=2,
                  out=tmp_path / "pole.parquet", workers=0, progress=False, pictures=False)
    games = read_results(tmp_path / "pole.parquet")
    assert set(games["game"]) == {"pole"} and len(games) == result.games
    assert result.sentence.startswith(("income=", "No variant")) and "Red" in result.sentence


def test_report_reads_a_tune_dataset(tmp_path):
    from workbench.balance.cli import main as report_main

    out = tmp_path / "t.parquet"
    result = tune("stones", ["pile=3..5"], agents="random", budget=96, n0=16, seed=1, out=out, workers=0,
                  progress=False)
    assert report_main([str(out), "--out", str(tmp_path / "rep")]) == 0
    text = (tmp_path / "rep" / "report.md").read_text()
    # the ordinary report shows the tune: its sentence, cost, ranked table and both pictures
    tuned = text[text.index("## Tune: the recommended variant"):text.index("## Summary")]
    assert f"Recommendation: {result.sentence}" in tuned and f"Cost: {result.games} games of a budget of 96" in tuned
    assert "| rank | variant | status | games |" in tuned and tuned.count("| pile=") == len(result.table)
    assert (tmp_path / "rep" / "figures" / "tune_pareto.png").stat().st_size > 0
    assert (tmp_path / "rep" / "figures" / "tune_progress.png").stat().st_size > 0
    from workbench.tune.report import report_section

    assert report_section(out, {"max_plies": 300}) is None  # a simulate batch's run record: no tune section
    report_paths(out)["summary"].unlink()
    missing = report_section(out, {"tune": {"space": ["pile=3,4,5"]}})
    assert "--resume" in missing["paragraphs"][-1] and "pile=3,4,5" in missing["paragraphs"][0]


def test_within_and_faction_spread_on_inner_cells(tmp_path):
    result = tune("stones", ["pile=3..5"], ["faction-spread"], within=["coin=true,false"], agents="random",
                  budget=200, n0=8, seed=4, workers=0, progress=False)
    assert result.games % 2 == 0  # every variant plays both inner cells equally
    assert "faction-spread" in result.table
    with pytest.raises(TuneError, match="within"):
        tune("stones", ["pile=3..5"], ["worst"], budget=100, workers=0, progress=False)


def test_optuna_on_real_games_and_the_command(tmp_path, capsys):
    from workbench.__main__ import main

    code = main(["tune", "--game", "stones", "--space", "pile=2..9", "--space", "cap=20..40", "--objective", "balance",
                 "--require", "plies<=100", "--agents", "random", "--budget", "200", "--n0", "8", "--search", "optuna",
                 "--workers", "0", "--no-progress", "--out", str(tmp_path / "o.parquet")])
    text = capsys.readouterr().out
    assert code == 0 and "rank" in text and "games of 200" in text
    assert len(read_results(tmp_path / "o.parquet")) <= 200


@pytest.mark.parametrize("argv, words", [
    (["--space", "pile=0..3"], "out of range"),
    (["--space", "nope=1,2"], "unknown rule"),
    (["--space", "pile=3,4", "--objective", "fun"], "unknown objective"),
    (["--space", "pile=3,4", "--require", "fun>=1"], "unknown metric"),
    (["--space", "pile=3,4", "--agents", "nobody"], "nobody"),
    (["--space", "pile=3,4", "--n0", "40"], "cannot pay for the first look"),  # was: 0 games, nothing recommended
    (["--space", "pile=3..9", "--search", "race"], "7 variants x 32 games"),
])
def test_command_errors_name_the_flag(argv, words, capsys):
    from workbench.tune.cli import main

    assert main(["--game", "stones", "--budget", "50", "--no-progress", *argv]) == 2
    assert words in capsys.readouterr().err


def test_pool_gives_the_same_games_as_in_process(tmp_path):
    args = {"space": ["pile=3..5"], "agents": "random", "budget": 120, "n0": 16, "seed": 8, "progress": False, "pictures": False}
    here = tune("stones", out=tmp_path / "a.parquet", workers=0, **args)
    pool = tune("stones", out=tmp_path / "b.parquet", workers=2, **args)
    assert here.table.equals(pool.table)
    cols = ["game_id", "cell", "seed", "winner", "plies"]
    pooled = read_results(tmp_path / "b.parquet")
    assert pooled["error"].isna().all() and read_results(tmp_path / "a.parquet")[cols].equals(pooled[cols])


@pytest.mark.cluster
def test_dask_gives_the_same_games_as_in_process(tmp_path):
    # Dask's workers are fresh processes that know only the registered games (not the test's Stones)
    cols = ["game_id", "cell", "seed", "winner", "plies"]
    args = {"space": ["income=1..2"], "agents": "random", "budget": 32, "n0": 8, "max_plies": 30, "seed": 8, "progress": False,
                "pictures": False}
    here = tune("pole", out=tmp_path / "c.parquet", workers=0, **args)
    dask = tune("pole", out=tmp_path / "d.parquet", workers=2, scheduler="local-cluster", **args)
    assert here.table.equals(dask.table) and here.games == 32
    played = read_results(tmp_path / "d.parquet")
    assert played["error"].isna().all() and played[cols].equals(read_results(tmp_path / "c.parquet")[cols])


def test_cursed_lands_faction_tune_on_the_native_core(tmp_path):
    from workbench.games import get

    native = get("cursed-lands").native.available()
    # the 16 faction pairs on the native core; two pairs when it is not built (the Python engine is slower)
    within = "factions=all" if native else "factions=humans/orcs,orcs/humans"
    result = tune("cursed-lands", ["orc_attack_bonus=0..1"], ["faction-spread"], [], within=[within], agents="greedy",
                  budget=4 * (16 if native else 2), n0=2, max_plies=80, seed=1, out=tmp_path / "cl.parquet", workers=0,
                  progress=False, pictures=False)
    games = read_results(tmp_path / "cl.parquet")
    assert len(games) == result.games and set(games["engine"]) == {"native" if native else "python"}
    assert games["factions"].nunique() == (16 if native else 2)
    assert set(games["orc_attack_bonus"]) == {0, 1} and "faction-spread" in result.table
    assert result.sentence.startswith("orc_attack_bonus=") and "faction-spread" in result.sentence


def test_big_chess_tune_over_a_card_cost_from_the_command(tmp_path, capsys):
    """Issue 25: ``tune`` searches a card's price, an ordinary rules parameter (``cost_knight``)."""
    from workbench.__main__ import main

    out = tmp_path / "bc.parquet"
    code = main(["tune", "--game", "big-chess", "--space", "cost_knight=10,30,60", "--rules", "start=deployed",
                 "--objective", "balance", "--require", "plies<=400", "--agents", "random", "--budget", "24",
                 "--n0", "4", "--max-plies", "40", "--seed", "2", "--workers", "0", "--no-progress", "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0 and "cost_knight=" in text and "games of 24" in text
    games = read_results(out)
    assert set(games["game"]) == {"big-chess"} and set(games["start"]) == {"deployed"}
    # the price reached every game's rules (the row's rule columns are the rules the engine played)
    assert set(zip(games["cell"], games["cost_knight"], strict=True)) == {
        ("start=deployed,cost_knight=10", 10), ("start=deployed", 30), ("start=deployed,cost_knight=60", 60)}
    assert report_paths(out)["report"].read_text().count("cost_knight=") >= 3


def test_real_benchmark_plays_the_full_grid_it_prices(capsys):
    """``python -m workbench.tune.bench --game``: a race on real games, the grid it prices, that grid played."""
    from workbench.tune.bench import main, real

    r = real("stones", ["pile=3..8"], ["length=15"], [], "random", 3000, seed=1, n0=16, workers=0)
    assert r["stop"] == "one variant left" and r["answer"] == "pile=5"
    assert r["grid_played"] == r["grid_per_variant"] * 6 >= r["grid"] and r["grid_answer"] == r["answer"]
    assert main(["--game", "stones", "--space", "pile=3..8", "--objective", "length=15", "--agents", "random",
                 "--budget", "3000", "--seed", "1"]) == 0
    text = capsys.readouterr().out
    assert f"the race spent {r['race']} games" in text and f"a full grid for the same answer: {r['grid']} games" in text
    assert "pile=5 (the same answer;" in text
