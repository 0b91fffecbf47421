"""Big chess's native core against its Python engine (a lean sample of ``nativediff``; the 1,000-game sweep is a
benchmark, its figures in docs/native.md)."""

from __future__ import annotations

import warnings

import pytest

from workbench.games.big_chess import GAME
from workbench.games.big_chess.native import NativeAgent, NativeBigChessState, available, core, fields_of, native_game
from workbench.games.big_chess.nativediff import play_one

pytestmark = pytest.mark.skipif(not available(), reason="the native core is not built (make native)")


@pytest.mark.parametrize("seed", [14, 32, 15, 2, 7])  # 2 players deployed/setup, 4 and 8 with designer cards
def test_sweep_sample_every_ply_equal(seed: int) -> None:
    info = play_one(seed, max_plies=45)
    assert info.diff == "", info
    assert info.plies > 0


def test_sweep_sample_covers_tables_and_designer_cards() -> None:
    infos = [play_one(s, max_plies=0) for s in (14, 32, 15, 2, 7)]
    assert {i.tags["players"] for i in infos} == {2, 4, 8}
    assert sum(i.tags["cards"] for i in infos) >= 3 and {i.tags["start"] for i in infos} == {"setup", "deployed"}


def test_simulate_rows_and_events_equal_on_both_engines() -> None:
    from workbench.simulate import simulate

    warnings.simplefilter("ignore")
    rules = {"board": "classic-4", "teams": "ab/cd", "start": "deployed", "max_turns": 12}
    out = {}
    for eng in ("python", "native"):
        out[eng] = simulate(rules, "greedy", "greedy", 1, seed=5, workers=0, events=True, progress=False, engine=eng,
                            game="big-chess")
    (gp, ep), (gn, en) = out["python"], out["native"]
    assert list(gp.engine) == ["python"] and list(gn.engine) == ["native"]
    cols = [c for c in gp.columns if c not in ("seconds", "engine")]
    assert gp[cols].equals(gn[cols])
    assert len(ep) >= 12 and ep.equals(en)


@pytest.mark.parametrize("spec", ["random", "greedy", "greedy:epsilon=0.5", "alphabeta:depth=1"])
def test_native_agents_pick_the_python_twins_action(spec: str) -> None:
    from workbench.agents.generic import make_protocol_agent

    rules = GAME.rules({"start": "deployed"})
    st = GAME.new_initial_state(rules, 3)
    for a in st.legal_actions()[:3]:  # a few plies in
        st.apply_action(a)
        break
    py = make_protocol_agent(spec, GAME, rules, seed=11)
    nat = NativeAgent(spec, GAME, rules, seed=11)
    for _ in range(3):
        want = py.select_action(st)
        assert nat.select_action(st) == want
        st.apply_action(want)


def test_start_fields_and_playouts_match_python() -> None:
    from workbench.bench import protocol_playouts

    for values in ({"start": "deployed", "board": "free-8"}, {"start": "army"}, {}):
        rules = GAME.rules(values)
        st = GAME.new_initial_state(rules, 0)
        nat = NativeBigChessState.initial(st.ctx)
        assert nat.to_dict() == st.to_dict()
    rules = GAME.rules({"start": "deployed", "max_turns": 15})
    want = protocol_playouts("big-chess", 2, 4, 400, rules)["actions"]
    assert GAME.native.random_playouts(rules, 2, 4, 400) == want


def test_bindings_check_what_they_are_given() -> None:
    st = GAME.new_initial_state(GAME.rules({"start": "deployed"}), 0)
    game = native_game(st.ctx)
    f = fields_of(st)
    for key, value in (("to_move", 7), ("pieces", [(9999, 0, 0, 0, 0, 10, 0, False, 0)]), ("counts", [0]),
                       ("fired", [(99, 0, -1)]), ("result", 9)):
        with pytest.raises(ValueError, match="native big-chess"):
            game.state({**f, key: value})
    with pytest.raises(ValueError):
        core().Game("[{", [], [], ["aaa", "...", "bbb"], [], "a,b", {}, [], [], [])
    nat = game.state(f)
    with pytest.raises(ValueError, match="not legal"):
        nat.apply("0,0-0,1")


def test_openspiel_random_sim_test_on_the_native_engine() -> None:
    """OpenSpiel's own conformance run, with every state of the game the core's (``GameDef.native.new_state``)."""
    pyspiel = pytest.importorskip("pyspiel")
    from workbench.games.big_chess import BigChess
    from workbench.openspiel import _make_classes, spiel_name

    class NativeBigChess(BigChess):
        name = "big-chess-native"

        def new_initial_state(self, rules=None, seed=0, cards=None):  # type: ignore[no-untyped-def]
            return GAME.native.new_state(rules if rules is not None else self.rules(None), seed)

    if spiel_name("big-chess-native") not in pyspiel.registered_names():
        pyspiel.register_game(*_make_classes(NativeBigChess()))
    for params in ({"start": "deployed", "max_turns": 25}, {"start": "setup", "max_turns": 3, "king_cost": 40}):
        game = pyspiel.load_game(spiel_name("big-chess-native"), params)
        assert type(game.new_initial_state().inner).__name__ == "NativeBigChessState"
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_nativediff_takes_the_game_and_bench_times_the_peers(capsys) -> None:
    from workbench.bench import bench_report
    from workbench.nativediff import main

    assert main(["--game", "big-chess", "--games", "1", "--max-plies", "8", "--json"]) == 0
    assert '"differences": 0' in capsys.readouterr().out
    out = bench_report("big-chess", 2, 1, 60, "start=deployed", engine="native")
    assert out["engine"] == "native" and out["same_games_as_python"] and out["speedup_vs_python"] > 1


def test_six_and_twenty_five_player_boards_play_on_both_engines() -> None:
    """The shipped boards for 6 and 25 players: the same deployed start on both engines (Python's start no
    longer lists every seat's setup actions per placement), 25 zones a..y, and a 6-player game compared ply by
    ply."""
    import random

    ffa = ",".join("abcdefghijklmnopqrstuvwxy")
    rules = GAME.rules({"board": "free-25", "teams": ffa, "start": "deployed"})
    st = GAME.new_initial_state(rules, 0)
    assert len(st.ctx.players) == 25 and len(st.ctx.board.zones) == 25 and st.phase == "play"
    assert NativeBigChessState.initial(st.ctx).to_dict() == st.to_dict()
    rules = GAME.rules({"board": "free-6", "teams": "ab/cd/ef", "start": "deployed", "max_turns": 30})
    py = GAME.new_initial_state(rules, 1)
    nat = NativeBigChessState.initial(py.ctx)
    rng = random.Random(6)
    for _ in range(30):
        if py.is_terminal():
            break
        legal = py.legal_actions()
        assert nat.legal_actions() == legal and nat.to_dict() == py.to_dict()
        a = rng.choice(legal)
        py.apply_action(a)
        nat.apply_action(a)
    assert nat.to_dict() == py.to_dict()


def test_check_runs_the_contract_cases_on_the_core() -> None:
    """``check --engine native`` (a sample of the shipped cases; every file passes on both engines in the docs)."""
    from pathlib import Path

    from workbench.scenarios.loader import load_scenario

    folder = Path(__file__).resolve().parents[3] / "scenarios" / "big-chess"
    files = sorted(folder.glob("bc-0*.yaml"))[:8] + sorted(folder.glob("bc-*prince*.yaml"))[:2]
    assert files
    for path in files:
        case = load_scenario(path)
        assert "native" in case.engines
        native = case.run(engine="native")
        assert [r.status for r in native] == [r.status for r in case.run()]
        assert all(r.status == "pass" for r in native), (path.name, native)


def test_report_folds_seats_by_team_at_25_players() -> None:
    import pandas as pd

    from workbench.games.big_chess.economy import results_section

    letters = "abcdefghijklmnopqrstuvwxy"
    teams = ",".join(letters[i:i + 5] for i in range(0, 25, 5))
    rows = []
    for w in ["abcde", "uvwxy", None]:
        row = {"teams": teams, "outcome": "win" if w else "draw", "winning_team": w}
        row.update({f"score_{s}": (1.0 if w and s in w else -1.0 if w else 0.0) for s in letters})
        rows.append(row)
    sec = results_section(pd.DataFrame(rows))
    lines = [ln for ln in sec["markdown"].splitlines() if ln.startswith("| " + teams)]
    assert len(lines) == 5 + 25 and lines[0].split(" | ")[1] == "team abcde" and "└ seat a" in lines[1]
    assert sec["html"].count("<details>") == 5
    ffa = ",".join(letters)
    sec = results_section(pd.DataFrame([{"teams": ffa, "outcome": "win", "winning_team": "e",
                                         **{f"score_{s}": 1.0 if s == "e" else -1.0 for s in letters}}]))
    assert len([ln for ln in sec["markdown"].splitlines() if ln.startswith("| " + ffa)]) == 25
