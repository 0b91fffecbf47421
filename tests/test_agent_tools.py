"""The game-free agent tools: ``ladder`` and ``agentbench`` over TerraFeud (the default game) and the protocol
games, and the one reader of the generic agents' parameters that every protocol game's native core shares."""

from __future__ import annotations

import math

import pytest

from workbench.games.terrafeud.native import available

needs_native = pytest.mark.skipif(not available(), reason="the native core is not built")


def test_ladder_pair_reports_intervals_and_engines(capsys):
    from workbench.study.ladder import main, play_pair, wilson

    lo, hi = wilson(91, 100)
    assert (round(lo, 3), round(hi, 3)) == (0.838, 0.952)
    row = play_pair("random", "greedy", 2, seed=1, max_plies=40, workers=0, progress=False, engine="python")
    assert row["games"] == 2 and row["upper_engine"] == row["lower_engine"] == "python"
    assert 0.0 <= row["win_rate_lo"] <= row["upper_win_rate"] <= row["win_rate_hi"] <= 1.0
    assert row["upper_wins"] + row["lower_wins"] + row["unfinished"] + row["errors"] == 2
    assert main(["--agents", "random", "alphabeta:depth=99"]) == 2
    assert "depth=99 is out of range" in capsys.readouterr().out


def test_ladder_names_the_native_core_for_agents_of_whole_native_games():
    """A protocol game played whole in the native core searched there: the ladder must not say python."""
    from workbench.games import get
    from workbench.study.ladder import play_pair

    if not get("pole").native.available():
        pytest.skip("Pole's native core is not built")
    row = play_pair("random", "greedy", 2, seed=1, max_plies=60, workers=0, progress=False, engine="native",
                    game="pole")
    assert row["game_engine"] == "native" and row["upper_engine"] == row["lower_engine"] == "native"


@needs_native
def test_agentbench_prints_its_figures(capsys):
    import json

    from workbench.study.speed import main

    assert main(["--games", "1", "--balance", "1", "--memory", "2", "--max-plies", "16", "--workers", "0",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["engines"]["same_games"] == 1  # native alphabeta plays Python's game, only faster
    assert report["engines"]["native_plies"] == report["engines"]["python_plies"] == 16
    assert report["balance"]["engines"] == ["native"] and report["balance"]["errors"] == 0
    assert report["memory"]["games"] == 2 and report["memory"]["self_mb"] > 0


@needs_native
def test_agentbench_takes_any_game_with_a_native_core(capsys, monkeypatch):
    import json

    from workbench.study.speed import main

    assert main(["--game", "pole", "--games", "1", "--balance", "1", "--memory", "2", "--max-plies", "12",
                 "--workers", "0", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["engines"]["same_games"] == 1  # Pole's native twins play the generic agents' game
    assert report["engines"]["native_plies"] == report["engines"]["python_plies"]
    assert report["balance"]["engines"] == ["native"] and set(report["balance"]["first_team_win_rate"]) == {"default"}
    assert report["memory"]["games"] == 2
    from workbench.core.protocol import NativeBackend
    from workbench.games.big_chess import BigChess

    monkeypatch.setattr(BigChess, "native", NativeBackend())  # a game without a native core: nothing to compare
    assert main(["--game", "big-chess", "--games", "1"]) == 2
    assert "no native core of big chess is built" in capsys.readouterr().out.lower()
    assert main(["--game", "chess9"]) == 2
    assert "unknown game 'chess9'" in capsys.readouterr().out


@needs_native
@pytest.mark.parametrize("game", ["pole", "cursed_lands"])
@pytest.mark.parametrize(("params", "words"), [({"bogus": 1}, 'unknown agent parameter "bogus"'),
                                               ({"depth": math.nan}, "depth=NaN must be a finite number"),
                                               ({"beam": -1}, "beam=-1 must be a finite number")])
def test_protocol_games_agents_refuse_bad_parameters_naming_them(game: str, params: dict, words: str) -> None:
    """Both submodules read agent parameters with one reader: the same refusals, naming the game and the key."""
    from workbench import _native

    sub = getattr(_native, game)
    seed = [1] if game == "pole" else 1
    with pytest.raises(ValueError, match=f"native {game.replace('_', '-')}: .*{words}"):
        sub.Agent("greedy", params, seed)


@pytest.mark.parametrize("game", ["pole", "cursed-lands"])
def test_perft_takes_the_engine_for_every_game_and_counts_the_same(game: str, capsys) -> None:  # noqa: ANN001
    """``perft --game G --engine native`` walks the same tree on the game's core: the same counts as Python."""
    from workbench import games, perft

    if not games.get(game).native.available():
        pytest.skip("the native core is not built (make native)")
    counts = {}
    for engine in ("python", "native"):
        assert perft.main(["--game", game, "--depth", "2", "--engine", engine]) == 0
        out = capsys.readouterr().out.splitlines()
        assert out[0] == f"# {game}, {engine} engine"
        counts[engine] = out[1:]
    assert counts["python"] == counts["native"] and len(counts["python"]) == 2
