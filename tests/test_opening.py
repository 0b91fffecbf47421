"""Fixed random openings (``simulate --opening K``) and the count of repeated games (``simulate.repeats``).

Deterministic agents replay whole games from one start; a batch's random opening makes its games differ. The
opening must be the same on both engines (the Python loop's ``core.agents.Opening``, the cores'
``core::generic::Opening``), a property of the game and not of the agents (the same with the agents swapped
between seats), and recorded in the rows so that a game replays.
"""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from workbench.core.nativekit import core_module
from workbench.simulate import SimulationError, replay_game, simulate
from workbench.simulate.repeats import Repeats, repeated_lines, repeated_rows

BUILT = core_module("big_chess") is not None and core_module("pole") is not None \
    and core_module("cursed_lands") is not None
native = pytest.mark.skipif(not BUILT, reason="the native core is not built (make native)")

# per game: (rules, a cheap deterministic agent, plies played); each short enough for the Python engine
CASES = {
    "big-chess": ({"start": "deployed", "max_turns": 10}, "alphabeta:depth=1", 24),
    "pole": ({"max_turns": 14}, "greedy", 40),
    "cursed-lands": ({"turn_limit": 3}, "greedy", 60),
}


def _batch(game: str, engine: str, opening: int, games: int = 2, agents: object = None, seed: int = 3,
           opening_seed: int | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    rules, agent, plies = CASES[game]
    out = simulate(rules, games=games, seed=seed, workers=0, events=True, progress=False, engine=engine, game=game,
                   agents=agents or [agent], max_plies=plies, opening=opening, opening_seed=opening_seed)
    assert isinstance(out, tuple)
    return out


@native
@pytest.mark.parametrize("game", sorted(CASES))
def test_the_opening_is_the_same_on_both_engines(game: str) -> None:
    warnings.simplefilter("ignore")
    (gp, ep), (gn, en) = (_batch(game, e, opening=6) for e in ("python", "native"))
    assert set(gp.engine) == {"python"} and set(gn.engine) == {"native"}
    cols = [c for c in gp.columns if c not in ("seconds", "engine")]
    assert gp[cols].equals(gn[cols])  # every figure of every game, the opening's plies and seed too
    assert list(ep.action) == list(en.action) and len(ep) >= 2 * 6
    assert set(gp.opening) == {6} and gp.opening_seed.nunique() == len(gp)
    # the opening changed the games: without it the same seeds play other moves
    plain, plain_events = _batch(game, "native", opening=0)
    assert "opening" not in plain.columns
    assert list(plain_events.action) != list(en.action)


@native
def test_the_opening_is_the_batchs_not_the_agents_and_a_game_replays() -> None:
    warnings.simplefilter("ignore")
    one, e1 = _batch("big-chess", "native", 4, agents=["alphabeta:depth=1", "greedy"], seed=8, opening_seed=77)
    two, e2 = _batch("big-chess", "native", 4, agents=["greedy", "alphabeta:depth=1"], seed=9, opening_seed=77)
    for gid in one.game_id:  # the same openings game for game, the colours swapped; then the agents differ
        first = list(e1[e1.game_id == gid].action)
        second = list(e2[e2.game_id == gid].action)
        assert first[:4] == second[:4] and first != second
    row = one.iloc[0].to_dict()
    again = replay_game(row, max_plies=int(row["max_plies"]), game="big-chess")
    assert list(pd.DataFrame(again.events).action) == list(e1[e1.game_id == row["game_id"]].action)


@native
def test_repeated_games_are_counted_and_the_opening_ends_them() -> None:
    """One ply of big chess leaves few lines to play, so a batch of 12 repeats itself; the count matches a count
    made here from the events. Four plies of random opening make every game differ."""
    warnings.simplefilter("ignore")
    kw = {"games": 12, "seed": 1, "workers": 0, "events": True, "progress": False, "engine": "native",
          "game": "big-chess", "agents": ["alphabeta:depth=1"], "max_plies": 1}
    games, events = simulate({"start": "deployed"}, **kw)  # type: ignore[misc]
    lines = events.sort_values(["game_id", "ply"]).groupby("game_id")["action"].agg(tuple)
    plain = repeated_lines(games, events)
    assert plain.games == 12 and plain.repeats == 12 - lines.nunique() > 0
    assert plain.largest == int(lines.value_counts().max())
    assert repeated_rows(games).repeats >= plain.repeats  # the games table alone never misses a copy
    assert "repeat an earlier game" in plain.sentence() and "--opening" in plain.sentence()
    games, events = simulate({"start": "deployed"}, **{**kw, "max_plies": 4, "opening": 4})  # type: ignore[arg-type]
    assert repeated_lines(games, events).repeats == 0


def test_repeats_of_planted_tables_and_the_trace_warns() -> None:
    from workbench.balance.trace import trace

    games = pd.DataFrame({"game_id": range(6), "cell": "default", "agent_a": "x", "plies": [5, 5, 5, 7, 8, 9],
                          "winner": ["a", "a", "a", "b", "a", "b"], "seed": range(6)})
    assert repeated_rows(games) == Repeats(6, 2, 3)
    by_figures = repeated_rows(games).sentence("in length, result and every counter")
    assert "2 of 6 games equal an earlier game" in by_figures and "can tie" in by_figures  # a bound, not copies
    events = pd.DataFrame({"game_id": [0, 0, 1, 1, 2], "ply": [1, 2, 2, 1, 1], "action": ["p", "q", "q", "p", "p"]})
    assert repeated_lines(games.iloc[:3], events) == Repeats(3, 1, 2)  # by ply order, not row order
    assert "No game of 4" in Repeats(4, 0, 1).sentence()
    rows = []  # a planted trace (a TerraFeud table: balance reads a table's game), its weakest rung all copies
    for budget in (1, 2, 4, 8):
        for i in range(40):
            rows.append({"game": "terrafeud", "winner": "white" if i % 2 else "black", "victory": "capture",
                         "outcome": "win", "plies": 40 if budget == 1 else 40 + i, "skill_budget": budget,
                         "skill_agent": f"mcts:iterations={budget}", "agent_white": f"mcts:iterations={budget}",
                         "agent_black": f"mcts:iterations={budget}"})
    t = trace(pd.DataFrame(rows))
    assert [r.repeats for r in t.rungs] == [38, 0, 0, 0]
    assert "38 of 40 at mcts:iterations=1" in t.sentence() and "too narrow" in t.sentence()
    assert "--opening" in t.sentence()
    assert "--opening" not in trace(pd.DataFrame(rows).assign(opening=2)).sentence()  # it has one already
    assert "Games repeat" not in trace(pd.DataFrame(rows[40:])).sentence()


def test_every_declared_headline_opening_is_one_a_batch_accepts() -> None:
    from workbench.core.agents import MAX_OPENING
    from workbench.games import get, names

    openings = {n: get(n).headline_opening for n in names()}
    assert all(isinstance(k, int) and 0 <= k <= MAX_OPENING for k in openings.values())
    assert openings["big-chess"] == 2  # its first seat is asked after one random decision a side (docs/strength.md)


def test_an_opening_is_checked_before_any_game() -> None:
    with pytest.raises(SimulationError, match="opening"):
        simulate(None, games=1, agents=["random"], game="pole", opening=-1, workers=0, progress=False)
    with pytest.raises(SimulationError, match="no random opening"):
        simulate(None, games=1, agents=["random"], game="terrafeud", opening=2, workers=0, progress=False)
