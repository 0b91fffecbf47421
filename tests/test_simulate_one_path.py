"""TerraFeud through the one simulate path (issue 29, part A): behaviour unchanged, what users have keeps working.

- ``tests/data/terrafeud_db93ab8_games.parquet`` / ``..._events.parquet``: 8 games with events written by commit
  db93ab8 (TerraFeud's own simulate path, before it was deleted): ``greedy`` against ``alphabeta:depth=1``,
  summer and winter x 4, seed 11, cap 120, Python engine, ``seconds`` dropped. The one path gives the same
  tables on both engines (apart from the ``engine`` column, which says which engine played).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from workbench.balance.table import migrate_table, table_game
from workbench.simulate import cli as simulate_cli
from workbench.simulate import read_results, replay_game, simulate
from workbench.simulate.paths import play_game
from workbench.simulate.protocol_play import tool_seats

DATA = Path(__file__).parent / "data"
BATCH = {"season": ["summer", "winter"]}


@pytest.mark.parametrize("engine", ["python", "native"])
def test_the_same_seeds_give_the_same_games_and_tables_as_before(engine: str) -> None:
    from workbench.games import get

    if engine == "native" and not get("terrafeud").native.available():
        pytest.skip("the native core is not built")
    games, events = simulate(BATCH, "greedy", "alphabeta:depth=1", 4, seed=11, max_plies=120, workers=0,
                             events=True, engine=engine, progress=False)
    old_games = pd.read_parquet(DATA / "terrafeud_db93ab8_games.parquet")
    old_events = pd.read_parquet(DATA / "terrafeud_db93ab8_events.parquet")
    assert list(games.columns.drop("seconds")) == list(old_games.columns)  # no column renamed, none added
    assert set(games["engine"]) == {engine}
    same = [c for c in old_games.columns if c != "engine"]
    pd.testing.assert_frame_equal(games.drop(columns=["seconds"])[same], old_games[same])
    pd.testing.assert_frame_equal(events, old_events)


def test_agents_keep_their_names_and_the_generic_ones_are_reachable() -> None:
    """TerraFeud's tuned agents are its game agents (``GameDef.game_agents``), built by the one path every tool
    uses (``make_protocol_agent``, as Pole's ``turtle``) under the names they had; ``generic-<name>`` is the
    generic agent, with its native twin on the core's protocol face."""
    from workbench.agents.generic import GenericAlphaBeta, make_protocol_agent
    from workbench.games import get
    from workbench.games.terrafeud.agents import AlphaBetaAgent, NativeAgent
    from workbench.games.terrafeud.native import GenericTwin

    tf = get("terrafeud")
    assert set(tf.game_agents()) == {"random", "greedy", "alphabeta", "mcts", "search"}
    seats = tool_seats("terrafeud")
    tuned = seats.make("alphabeta:depth=1", 0, "python")
    assert isinstance(tuned, AlphaBetaAgent) and seats.protocol("alphabeta")  # TerraFeud's own, read protocol states
    assert isinstance(make_protocol_agent("alphabeta:depth=1", tf, seed=0), AlphaBetaAgent)  # the board's, the same
    assert isinstance(seats.make("alphabeta:depth=1", 0, "auto"), (AlphaBetaAgent, NativeAgent))
    generic = seats.make("generic-alphabeta:depth=1", 0, "python")
    assert isinstance(generic, GenericAlphaBeta) and generic.name == "generic-alphabeta:depth=1"
    assert isinstance(seats.make("generic-alphabeta:depth=1", 0, "auto"), (GenericAlphaBeta, GenericTwin))
    assert isinstance(make_protocol_agent("generic-alphabeta", get("pole")), GenericAlphaBeta)
    with pytest.raises(ValueError, match="own greedy reads no learned weights.*generic-greedy:eval=w.json"):
        make_protocol_agent("greedy:eval=w.json", tf)  # never a silent switch to the generic agent
    with pytest.raises(ValueError, match="eval=w.json: no such weights file"):  # the tuned searchers read weights
        make_protocol_agent("alphabeta:eval=w.json", tf)
    with pytest.raises(ValueError, match="own turtle reads no learned weights.*the generic agents do"):
        make_protocol_agent("turtle:eval=w.json", get("pole"))  # an own agent without eval= at all
    # the tuned agent and the generic one pick from the protocol's state alike
    st = tf.new_initial_state(None, 3)
    assert tuned.select_action(st) in st.legal_actions() and generic.select_action(st) in st.legal_actions()
    games = simulate(None, "generic-greedy", "greedy", 1, seed=2, max_plies=30, workers=0, progress=False)
    assert games.loc[0, "agent_white"] == "generic-greedy" and games.loc[0, "victory"] != "error"


def test_white_and_black_on_the_command_line_and_the_agents_of_older_tables(tmp_path: Path,
                                                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "wb.parquet"
    code = simulate_cli.main(["--games", "1", "--white", "greedy", "--black", "random", "--workers", "0",
                              "--no-progress", "--max-plies", "20", "--engine", "python", "--out", str(out)])
    assert code == 0, capsys.readouterr().err
    row = read_results(out).iloc[0]
    assert (row["agent_white"], row["agent_black"], row["white_agent"]) == ("greedy", "random", "greedy")
    # a round-2 table (no game column, agents as white_agent/black_agent): its game is recognised by the columns
    # TerraFeud declares, never assumed; its stored agent specs play its games again
    old = pd.read_parquet(DATA / "round2_terrafeud_games.parquet")
    assert table_game(old) == "terrafeud"
    first = migrate_table(old).iloc[0]
    again = replay_game(old.iloc[0], max_plies=int(first["plies"]) + 1, events=False).row
    assert (again["agent_white"], again["agent_black"]) == (first["white_agent"], first["black_agent"])
    assert again["error"] is None


def test_a_table_of_no_known_game_is_refused_in_words() -> None:
    from workbench.balance.stats import BalanceError

    table = pd.DataFrame({"winner": ["x"], "victory": ["win"], "plies": [3], "odd_column": [1]})
    with pytest.raises(BalanceError, match="says nothing of its game"):
        migrate_table(table)
    assert set(migrate_table(table, game="pole")["game"]) == {"pole"}


def test_every_spec_plays_through_the_one_loop() -> None:
    from workbench.simulate.protocol_play import protocol_specs, resolved

    rules = resolved("terrafeud").spec.make({"season": "winter"})
    spec = protocol_specs("terrafeud", [rules], "random", 1, 4, 10, False)[0]
    assert spec.cell == "season=winter" and spec.game == "terrafeud"
    assert play_game(spec).row["plies"] == 10


def test_the_generic_form_names_seats_and_the_two_seat_shorthand_still_works() -> None:
    from workbench.simulate import SimulationError

    short = simulate(None, "greedy", "random", 2, seed=6, max_plies=20, workers=0, progress=False, engine="python")
    named = simulate(None, games=2, agents=["greedy", "random"], seed=6, max_plies=20, workers=0, progress=False,
                     engine="python")
    same = [c for c in short.columns if c != "seconds"]
    pd.testing.assert_frame_equal(short[same], named[same])
    pole = simulate(None, games=1, agents="random", game="pole", seed=1, max_plies=10, workers=0, progress=False)
    assert len(pole) == 1 and pole.loc[0, "agent_red"] == "random"
    with pytest.raises(SimulationError, match="name the seats' agents"):
        simulate(None, games=1)
