"""Issue 18's tables: a games row and its events are enough to replay the game exactly.

The replay below knows only the protocol and the registry (``get(row["game"])``): the rule values and
the deck seed come from the row, the actions (section 15 notation) and AP left from the events.
"""

from __future__ import annotations

import pandas as pd
import pytest

from workbench.games import get
from workbench.simulate import simulate


@pytest.fixture(scope="module")
def batch() -> tuple[pd.DataFrame, pd.DataFrame]:
    games, events = simulate({"factions": ["all"]}, "random", "random", 1, seed=11, max_plies=150, workers=0, events=True, progress=False, game="cursed-lands",
                             agents=("random",))
    return games, events


def replay(row: dict, events: pd.DataFrame):
    """The game of ``row`` rebuilt from the row's rule values and deck seed and the events' actions."""
    game = get(row["game"])
    rules = game.spec.make({p.name: str(row[p.name]).lower() if isinstance(row[p.name], bool) else str(row[p.name])
                            for p in game.spec})
    st = game.new_initial_state(rules, int(row["deck_seed"]))
    for ev in events.sort_values("ply").to_dict("records"):
        side = st.current_player()
        assert game.info(rules).players[side] == ev["side"], f"ply {ev['ply']}: {ev['side']} was to move"
        assert ev["ap_before"] == st.ap
        st.apply_action(st.string_to_action(ev["action"]))
        assert st.move_number() == ev["ply"]
        if st.current_player() == side and not st.is_terminal():
            assert st.ap == ev["ap_left"], f"ply {ev['ply']}: AP left"
    return game, st


def test_rows_carry_factions_deck_seed_and_rules(batch: tuple[pd.DataFrame, pd.DataFrame]) -> None:
    games, _ = batch
    assert len(games) == 16 and (games["victory"] != "error").all()
    pairs = set(zip(games["faction_p1"], games["faction_p2"], strict=True))
    assert len(pairs) == 16  # factions=all is the 16 ordered pairs
    assert (games["factions"] == games["faction_p1"] + "/" + games["faction_p2"]).all()
    for col in ("victory_kind", "turns", "castle_hp_p1", "castle_hp_p2", "tiles_placed_p1", "tiles_placed_p2",
                "produced_S_p1", "produced_R_p2", "deck_seed", "untiled", "turn_limit", "ap_per_turn"):
        assert col in games.columns and games[col].notna().all(), col


def test_every_game_replays_from_its_row_and_events(batch: tuple[pd.DataFrame, pd.DataFrame]) -> None:
    games, events = batch
    for row in games.to_dict("records"):
        own = events[events["game_id"] == row["game_id"]]
        assert len(own) == row["plies"]
        game, st = replay(row, own)
        again = game.game_row(st)
        for key in ("faction_p1", "faction_p2", "victory_kind", "turns", "castle_hp_p1", "castle_hp_p2",
                    "tiles_placed_p1", "tiles_placed_p2", "produced_S_p1", "produced_C_p2", "tiles_mountain"):
            assert again[key] == row[key], (row["game_id"], key)
        assert (st.winner() is None) == (row["winner"] == "none")
        counters = st.counters()
        assert counters["units_destroyed"] == [row["rule_units_destroyed_p1"], row["rule_units_destroyed_p2"]]
