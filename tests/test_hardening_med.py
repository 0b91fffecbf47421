"""Issue 34's MED findings beyond files: tune's caps, the board's one busy owner, big chess seats from the position."""

from __future__ import annotations

import threading
import time

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
