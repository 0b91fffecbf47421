"""Issue 34's MED findings beyond files: tune's caps, the board's one busy owner, big chess seats from the position."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

import workbench.games as games


@pytest.mark.parametrize(("kwargs", "word"), [({"budget": 10**12}, "budget"), ({"budget": 100, "growth": 1e308}, "growth"),
                                              ({"budget": 100, "n0": 10**12}, "n0"),
                                              ({"budget": 100, "max_plies": 10**12}, "max_plies")])
def test_tune_caps_its_budget_as_simulate_does(kwargs: dict, word: str) -> None:
    from workbench.tune import TuneError, tune

    with pytest.raises(TuneError, match=word):
        tune("pole", ["start_coins=3..5"], ["balance"], [], [], "random", workers=0, progress=False, **kwargs)


def test_the_board_s_busy_state_has_one_owner(monkeypatch: pytest.MonkeyPatch) -> None:
    from workbench.widget.board import GameBoard

    b = GameBoard("pole", seed=1)
    gate, asked = threading.Event(), threading.Event()

    class Slow:
        engine = "python"

        def select_action(self, st):  # noqa: ANN001, ANN201 - a stand-in agent that thinks until released
            asked.set()
            gate.wait(20)
            return st.legal_actions()[0]

    monkeypatch.setattr(b.controller, "make_agent", lambda spec: Slow())
    seat = b.controller.state.current_player()
    b._on_msg(b, {"type": "agent", "seat": seat, "spec": "greedy"}, [])
    assert asked.wait(10) and b.busy
    b._on_msg(b, {"type": "catalog"}, [])  # a catalogue load during the search
    deadline = time.monotonic() + 60
    while any(t.name == "board-catalog" and t.is_alive() for t in threading.enumerate()) and time.monotonic() < deadline:
        time.sleep(0.05)
    b._on_msg(b, {"type": "cancel"}, [])  # any later gesture: no second agent may start
    agents = [t for t in threading.enumerate() if t.name == "board-agent" and t.is_alive()]
    assert len(agents) == 1 and b.busy, (agents, b.busy)
    gate.set()
    b.wait()
    assert not b.busy


def test_big_chess_four_player_scenario_takes_its_seats_from_the_position() -> None:
    from workbench.widget.board_controller import GameBoardController

    c = GameBoardController(games.get("big-chess"), seed=1)  # rules: classic-2, two seats
    c.pick_scenario("bc-21d-elimination-four-players.yaml")  # the position seats four
    assert c.info().num_players == 4
    c.set_agent(2, "greedy")
    assert "score" in c.evaluate() or "static" in c.evaluate()


def test_a_hidden_deck_top_view_offers_the_real_legal_list() -> None:
    """C5, C46: the agent is offered the real list with the tile stripped, so its view allows exactly that."""
    import random

    from workbench.games.cursed_lands.position import build_state
    from workbench.games.cursed_lands.rules import SPEC

    rng = random.Random(4)
    checked = 0
    for g in range(12):
        st = build_state(SPEC.make({"deck_top_visible": False, "turn_limit": 12}), None, g)
        while not st.is_terminal():
            real = st.legal_actions()
            for vs in range(3):
                assert st.view(st.to_move, vs * 7919 + g).legal_actions() == real
                checked += 1
            st.apply_action(rng.choice(real))
    assert checked > 1000


def test_greedy_games_with_the_deck_top_hidden_end_without_an_error_row() -> None:
    from workbench.simulate import simulate

    engine = "native" if games.get("cursed-lands").native.available() else "python"
    n = 30 if engine == "native" else 4
    df = simulate({"deck_top_visible": [False]}, "greedy", "greedy", n, seed=7, workers=0, progress=False,
                  engine=engine, game="cursed-lands")
    assert len(df) == n and not (df["victory"] == "error").any(), df.loc[df["victory"] == "error", "error"].tolist()


def _limit_table(draws: int, wins: int) -> Any:
    import pandas as pd

    rows = [{"game_id": i, "game": "cursed-lands", "players": "p1,p2", "turn_limit": 30, "cell": "turn_limit=30",
             "winner": "none", "victory": "draw", "outcome": "draw", "plies": 90, "turns": 30} for i in range(draws)]
    rows += [{"game_id": draws + i, "game": "cursed-lands", "players": "p1,p2", "turn_limit": 30, "cell": "turn_limit=30",
              "winner": "p1" if i % 2 else "p2", "victory": "castle", "outcome": "win", "plies": 60, "turns": 20}
             for i in range(wins)]
    return pd.DataFrame(rows)


def test_draws_forced_by_a_limit_rule_count_as_unfinished_never_balanced() -> None:
    from workbench.balance.cells import summarize_cells

    assert games.get("cursed-lands").spec["turn_limit"].limit
    r = summarize_cells(_limit_table(58, 42)).iloc[0]
    assert r["limit_draws"] == 58 and r["flagged"] and "limit rule" in r["verdict"] and "balanced" not in r["verdict"]


def test_a_comparison_without_decided_games_prints_no_nan() -> None:
    import math

    from workbench.balance.report import _diff, _pair

    text = _pair(math.nan, math.nan) + _diff(math.nan, math.nan, math.nan) + _pair(0.5, math.nan)
    assert "nan" not in text and "no decided games" in text


def test_simulate_refuses_a_grid_of_mixed_seat_lists_up_front(tmp_path: Any) -> None:
    from workbench.simulate import simulate
    from workbench.simulate.core import SimulationError

    with pytest.raises(SimulationError) as err:
        simulate({"board": ["classic-2", "classic-4"]}, "random", "random", 2, workers=0, progress=False,
                 game="big-chess", out=tmp_path / "x.parquet")
    text = str(err.value)
    assert "seat list" in text and "--grid board=classic-2" in text and "--grid board=classic-4" in text
    assert not (tmp_path / "x.parquet").exists()


def test_a_team_game_s_winner_is_written_as_its_team_and_reports_read_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import pandas as pd

    from workbench.balance.cells import summarize_cells
    from workbench.core.rows import finish_row

    g = games.get("big-chess")
    rules = g.spec.make({"board": "classic-4", "teams": "ab/cd"})
    info = g.info(rules)

    class Won:  # a finished state whose last mover is c (seat 2), of team cd
        def outcome(self): return "win"  # noqa: ANN201, E704
        def victory(self): return "king"  # noqa: ANN201, E704
        def winner(self): return 2  # noqa: ANN201, E704
        def is_terminal(self): return True  # noqa: ANN201, E704
        def returns(self): return [-1.0, -1.0, 1.0, 1.0]  # noqa: ANN201, E704
        def counters(self): return {}  # noqa: ANN201, E704

    row: dict = {}
    monkeypatch.setattr(g, "game_row", lambda state: {})  # the stub has no board; the game's columns are not the point
    finish_row(row, g, info, Won())
    assert row["winner"] == "cd" and row["winner_team"] == 1
    table = pd.DataFrame([{"game_id": i, "game": "big-chess", "players": "a,b,c,d", "teams": "ab,cd", "plies": 50,
                           "winner": "cd" if i % 2 else "ab", "victory": "king", "outcome": "win"} for i in range(10)])
    r = summarize_cells(table).iloc[0]
    assert r["decided"] == 10 and r["advantage"] == 0.5


def test_perft_is_capped_by_each_game_s_own_growth(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    import workbench.perft as perft

    monkeypatch.setattr(perft, "MAX_LEAVES", {"native": 500, "python": 500})
    assert perft.main(["--game", "pole", "--depth", "5", "--engine", "python"]) == 2
    err = capsys.readouterr().err
    assert "would count about" in err and "Traceback" not in err


def test_big_chess_checks_are_type_checked() -> None:
    from workbench.core.scenario import ScenarioError
    from workbench.scenarios.loader import load_scenario_text

    for check in ("legal: 5", "legal_count: x", "turn: [1]", "canonical: 3"):
        with pytest.raises(ScenarioError, match=check.split(":")[0]):
            load_scenario_text(f"game: big-chess\nid: bc-t\ntitle: t\nchecks:\n  - {check}\n", "<t>")


def test_the_cursed_lands_binding_raises_plain_exceptions_never_a_panic() -> None:
    import random

    from workbench.games.cursed_lands.native import NativeCursedState, available

    if not available():
        pytest.skip("the native core is not built")
    g = games.get("cursed-lands")
    raw = NativeCursedState.from_python(g.new_initial_state(g.spec.defaults(), 1)).native
    rng = random.Random(1)
    refused = 0
    for _ in range(600):
        name = rng.choice(["action_priority", "apply", "is_legal", "evaluate", "view", "deck_top", "legal_count"])
        arg = rng.choice([-1, 0, 1, 2**31, 2**40, 5000, 123456, 10**9, rng.randrange(0, 200000)])
        try:
            getattr(raw, name)() if name == "legal_count" else getattr(raw, name)(arg)
        except Exception:  # noqa: BLE001 - any ordinary error is fine; a PanicException is not an Exception
            refused += 1
    assert refused > 0  # the hostile values did reach the core and were refused as ordinary errors


def test_report_on_a_folder_it_cannot_write_is_one_line(tmp_path: Any, capsys: pytest.CaptureFixture) -> None:
    from workbench.balance import cli

    blocker = tmp_path / "file"
    blocker.write_text("x")  # --out under a plain file: no folder can be made there, even as root
    table = tmp_path / "games.csv"
    _limit_table(3, 7).to_csv(table, index=False)
    assert cli.main([str(table), "--out", str(blocker / "report")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("report: ") and "Traceback" not in err


def test_cursed_lands_maps_read_a_fresh_batch_s_cell_names() -> None:
    import pandas as pd

    from workbench.viz.generic import rule_cell_counts

    g = games.get("cursed-lands")
    names = {c.name: c.id for c in g.layout(g.spec.defaults()).cells}
    events = pd.DataFrame({"game_id": [0, 0], "rules": ["tiles_placed_plain@h1,produced_S@d1", f"tiles_placed_plain@{names['h1']}"]})
    assert rule_cell_counts(events, "tiles_placed_plain", names) == {names["h1"]: 2.0}  # by name (fresh) and id (stored)


def test_pole_report_draws_no_dice_conclusion_from_ten_games() -> None:
    from workbench.games.pole.report import report_sections

    rows = [{"game_id": i, "game": "pole", "cell": "default", "rules": "", "fortress_rounding": "exact",
             "max_turns": 400, "players": "red,black", "winner": "red" if i % 2 else "black", "outcome": "win",
             "victory": "prince", "plies": 300, "turns": 100, "max_plies": 1200,
             "luck_red": 3.0 if i % 2 else -3.0, "luck_black": -3.0 if i % 2 else 3.0, "attacks_expected": 30.0,
             "error": None} for i in range(10)]
    text = " ".join(p for part in report_sections(rows) for p in getattr(part, "paragraphs", []))
    assert "says nothing yet" in text and "so the dice shape" not in text
