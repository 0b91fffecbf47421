"""Pole's simulate tables: rows with the issue's columns, events that replay a dice game exactly."""

from __future__ import annotations

import pytest

from workbench.games import get
from workbench.games.pole import dice_text
from workbench.simulate import simulate
from workbench.simulate.protocol_play import replay_events

G = get("pole")


@pytest.fixture(scope="module")
def batch():
    # a short turn cap: games end at the cap or by a Prince, and both kinds must replay
    return simulate({"fortress_rounding": ["exact", "down"], "max_turns": [120]}, "greedy", "random", games=3,
                    seed=7, max_plies=2000, workers=0, events=True, progress=False, game="pole")


def test_rows_carry_the_issue_columns(batch):
    games, _ = batch
    assert len(games) == 6 and (games["error"].isna()).all()
    for col in ("victory_kind", "turns", "coins_spent", "bought_I_red", "attacks_red", "attacks_succeeded_black",
                "attacks_expected_red", "luck_red", "luck_black", "winner_team", "outcome", "max_plies"):
        assert col in games.columns, col
    assert set(games["outcome"]) <= {"win", "draw", "unfinished"}
    assert ((games["outcome"] == "win") == (games["victory"] == "prince")).all()
    # luck is removals minus their expectation, side by side
    assert (games["luck_red"] - (games["removed_red"] - games["attacks_expected_red"])).abs().max() < 1e-6


def test_events_replay_every_game_dice_included(batch):
    games, events = batch
    assert events["action"].str.fullmatch(r"[1-6]:[1-6]").any()  # dice rows exist
    for row in games.to_dict("records"):
        ev = events[events["game_id"] == row["game_id"]].sort_values("ply")
        state = replay_events("pole", row["rules"], list(ev["action"]))
        assert state.move_number() == row["plies"] == len(ev)
        assert state.is_terminal() and state.outcome() == row["outcome"]
        assert (G.game_row(state)["luck_red"], G.game_row(state)["coins_spent"]) == (row["luck_red"], row["coins_spent"])
        assert (state.winner() is None and row["winner"] == "none") or G.info().players[state.winner()] == row["winner"]
    # the notation column joins an attack and its dice as the contract writes them: e5xe9 6:2
    dice = events[events["phase"] == "dice"]
    assert len(dice) > 0
    first = dice.iloc[0]
    attack = events[(events["game_id"] == first["game_id"]) & (events["ply"] == first["ply"] - 1)].iloc[0]
    assert first["notation"] == f"{attack['action']} {first['action']}"
    assert first["dice"] == first["action"] and dice_text(0) == "1:1"


def test_a_changed_roll_is_caught(batch):
    games, events = batch
    row = games[games["victory"] == "prince"].iloc[0]
    ev = events[events["game_id"] == row["game_id"]].sort_values("ply")
    played = list(ev["action"])
    actions = played[:]
    last_dice = max(i for i, a in enumerate(actions) if ":" in a)
    actions[last_dice] = "1:6"  # the winning blow misses now: the game does not end there
    state = replay_events("pole", row["rules"], actions[:last_dice + 1])
    assert not state.is_terminal()
    with pytest.raises(ValueError, match=f"ply {len(actions) + 1} \\(pass\\): .*game is over"):
        replay_events("pole", row["rules"], [*played, "pass"])  # one past the end
