"""Per-cell summaries and comparisons on small hand-built games tables with known answers."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from workbench.balance import BalanceError, compare, compare_toggles, simulation_runner, summarize_cells
from workbench.balance.cells import drama, lead_changes, per_game_event_measures

KINDS = ("feudal", "knight", "pikeman", "cavalry", "archer", "infantry")


def game_row(game_id: int, winner: str, victory: str, plies: int, season: str = "summer", swamp: bool = True,
             **extra: object) -> dict:
    """One row with every column ``workbench.simulate`` writes."""
    row = {"game_id": game_id, "cell": f"season={season}", "season": season, "hill": True, "swamp": swamp, "terrain": "rolled",
               "castling": "swap", "archer_melee": False, "mate_defence": "feudal", "draw_after": None,
               "pike_cavalry_mutual": False, "hill_white": "h4", "hill_black": "c6", "swamp_white": "e3", "swamp_black": "g9",
               "white_agent": "greedy", "black_agent": "random", "seed": game_id, "winner": winner, "victory": victory,
               "plies": plies, "seconds": 0.01, "error": "", "lead_changes": math.nan, "drama": math.nan,
               "mean_branching": math.nan, "decision_share": math.nan}
    row.update({f"lost_{s}_{k}": 0 for s in ("white", "black") for k in KINDS})
    row.update(extra)
    return row


def synthetic_games(per_cell: int = 60, white_rates: dict | None = None, seed: int = 0) -> pd.DataFrame:
    """A season x swamp grid whose White win rate per season is known (Black wins the rest of decided games)."""
    rates = white_rates or {"summer": 0.45, "winter": 0.45}
    rng = np.random.default_rng(seed)
    rows, gid = [], 0
    for season in ("summer", "winter"):
        for swamp in (True, False):
            for _ in range(per_cell):
                u = rng.random()
                winner = "white" if u < rates[season] else ("black" if u < 0.9 else "none")
                victory = "unfinished" if winner == "none" else str(rng.choice(["destroyed", "checkmate", "castle"]))
                plies = int(rng.integers(20, 80)) + (30 if season == "winter" else 0)
                rows.append(game_row(gid, winner, victory, plies, season, swamp,
                                     lost_black_knight=int(rng.integers(0, 3))))
                gid += 1
    return pd.DataFrame(rows)


def test_one_cell_known_counts() -> None:
    winners = ["white"] * 6 + ["black"] * 3 + ["none"]
    victories = ["destroyed"] * 4 + ["checkmate"] * 2 + ["castle"] * 3 + ["unfinished"]
    plies = [10, 20, 30, 40, 50, 60, 70, 80, 90, 300]
    rows = [game_row(i, w, v, p, lost_white_pikeman=i % 2) for i, (w, v, p) in enumerate(zip(winners, victories, plies,
                                                                                              strict=True))]
    rows.append(game_row(99, "none", "error", 0))  # an error row is left out
    s = summarize_cells(pd.DataFrame(rows))
    assert len(s) == 1
    r = s.iloc[0]
    assert (r.games, r.white_wins, r.black_wins, r.timeouts) == (10, 6, 3, 1)
    # was `r.balance == 0.7` (1 - |White - Black| over all games, capped ones included), which called capped
    # cells balanced; balance is now over decided games (NaN for a flagged cell), and the verdict is in words.
    assert r.balance == pytest.approx(1 - 3 / 9)
    assert r.white_rate == 0.6 and r.completion == 0.9 and r.decisive == 0.9
    assert r.advantage == pytest.approx(6 / 9) and r.advantage_low < 0.5 < r.advantage_high
    assert r.unfinished_rate == 0.1 and not r.flagged and r.verdict.startswith("no clear advantage")
    assert r.length_median == 50  # Kaplan-Meier: 9 games end at 10..90, the 300-ply one is censored
    assert (r.share_destroyed, r.share_checkmate, r.share_castle, r.share_unfinished) == (0.4, 0.2, 0.3, 0.1)
    assert r.plies_median == 55 and r.plies_mean == 75
    assert (r.plies_q1, r.plies_q3) == tuple(np.percentile(plies, [25, 75]))
    assert r.lost_white_pikeman == 0.5
    assert r.label == "all games"
    assert r.draw_after == "none"


def test_cells_are_split_by_toggles_and_labelled() -> None:
    s = summarize_cells(synthetic_games(per_cell=10))
    assert len(s) == 4
    assert set(s.label) == {f"season={a} swamp={b}" for a in ("summer", "winter") for b in ("on", "off")}
    assert (s.games == 10).all()
    assert (s.white_low <= s.white_rate).all() and (s.white_rate <= s.white_high).all()


@pytest.mark.parametrize("rows", [0, 1])
def test_empty_and_single_row_tables_are_refused_in_plain_words(rows: int) -> None:
    df = pd.DataFrame([game_row(i, "white", "destroyed", 30) for i in range(rows)], columns=list(game_row(0, "", "", 0)))
    with pytest.raises(BalanceError, match=f"has {rows} finished or timed-out game.*at least 2"):
        summarize_cells(df)


def test_missing_column_is_named() -> None:
    with pytest.raises(BalanceError, match="no column 'plies'"):
        summarize_cells(pd.DataFrame({"winner": ["white"] * 3, "victory": ["castle"] * 3}))


def test_event_measures() -> None:
    events = pd.DataFrame({
        "game_id": [0, 0, 0, 0, 1, 1],
        "ply": [1, 2, 3, 4, 1, 2],
        "side": ["white", "black", "white", "black", "white", "black"],
        "n_legal": [30, 1, 20, 1, 10, 10],
        "eval_white": [0.5, -0.5, 0.2, 0.3, 0.1, 0.2],
    })
    m = per_game_event_measures(events, pd.Series({0: "black", 1: "white"}), ("white", "black")).set_index("game_id")
    assert m.loc[0, "mean_branching"] == 13 and m.loc[0, "decision_share"] == 0.5
    assert m.loc[0, "lead_changes"] == 2 and m.loc[1, "lead_changes"] == 0
    # Black won game 0 and faced 0.5 and 0.2 (after White's actions): 0.35 behind on average
    assert m.loc[0, "drama"] == pytest.approx(0.35) and m.loc[1, "drama"] == 0
    assert lead_changes([0.0, 1.0, 0.0, -1.0, 2.0]) == 2
    assert drama([1.0], ["white"], "none", ("white", "black")) == 0
    games = pd.DataFrame([game_row(0, "black", "castle", 4), game_row(1, "white", "castle", 2)])
    s = summarize_cells(games, events)  # the games table lacks the measures (NaN): events fill them
    assert s.iloc[0].mean_branching == pytest.approx(np.mean([13, 10]))
    assert s.iloc[0].decision_share == pytest.approx(0.75)
    assert s.iloc[0].drama == pytest.approx(0.175) and s.iloc[0].lead_changes == 1


def test_a_real_shift_is_found_and_worded() -> None:
    games = synthetic_games(per_cell=150, white_rates={"summer": 0.35, "winter": 0.55}, seed=3)
    comps = {c.column: c for c in compare_toggles(games)}
    winter, swamp = comps["season"], comps["swamp"]
    decided = games[games.winner != "none"]
    w = decided[decided.season == "winter"].winner.eq("white").mean()
    s = decided[decided.season == "summer"].winner.eq("white").mean()
    # was: diff = White's win rate over all games and "Winter: White wins ... points more often"; the shift
    # is now read on decided games (advantage), apart from decisiveness (here 90% in both seasons).
    assert winter.diff == pytest.approx(w - s)
    assert winter.significant and winter.moved()[0] == "advantage" and "decisiveness" not in winter.moved()
    assert winter.p_value < winter.p_adjusted <= 6 * winter.p_value  # Holm over 2 comparisons x 3 tests
    assert winter.verdict().startswith(f"Winter: White's share of decided games rises ({100 * w:.0f}% vs "
                                       f"{100 * s:.0f}%, {100 * (w - s):+.1f} points, 95% CI [")
    assert "Holm-adjusted p " in winter.verdict() and "decisiveness shows no clear change" in winter.verdict()
    assert 20 < winter.length_diff < 40 and winter.length_low > 0  # winter games were built 30 plies longer
    assert "longer" in winter.length_verdict() and winter.length_significant
    assert swamp.name == "Swamp off" and swamp.baseline is True
    assert not swamp.significant and "White's share of decided games shows no clear change" in swamp.verdict()


def test_compare_within_a_slice_and_errors() -> None:
    games = synthetic_games(per_cell=20)
    c = compare(games, "season", "summer", "winter", where={"swamp": False})
    assert c.games_baseline == c.games_variant == 20
    with pytest.raises(BalanceError, match="no games with season=spring"):
        compare(games, "season", "summer", "spring")
    with pytest.raises(BalanceError, match="no column 'weather'"):
        compare(games, "weather", "a", "b")
    assert compare_toggles(games[(games.season == "summer") & games.swamp]) == []


def test_simulation_runner_numbers_seeds_by_offset() -> None:
    calls = []

    def fake_simulate(rules, games, agents, seed, max_plies, progress):
        calls.append((rules, games, seed, max_plies, progress))
        assert agents == ("greedy", "random")  # the seats, from the two-seat shorthand
        return pd.DataFrame({"winner": ["white", "black", "none"][:games], "players": "white,black",
                             "victory": ["castle", "castle", "draw"][:games], "plies": 10})

    run = simulation_runner("season=winter", "greedy", "random", seed=100, max_plies=50, simulate=fake_simulate)
    assert run(3, 0) == [1, 0, 0]
    assert run(2, 3) == [1, 0]
    assert calls == [(["season=winter"], 3, 100, 50, False), (["season=winter"], 2, 103, 50, False)]


def test_agent_columns_are_agent_seat_and_the_older_names_a_game_declares() -> None:
    """``is_agent``: ``agent_<seat>``, or a name the table's game declares for older tables (TerraFeud's
    ``white_agent``, ``TableSchema.renamed_columns``), never any column that merely ends in ``_agent``."""
    from pathlib import Path

    from workbench.balance.cells import is_agent
    from workbench.simulate.dataset import batch_keys, legacy_agent_columns

    old = pd.read_parquet(Path(__file__).parent / "data" / "round2_terrafeud_games.parquet")
    assert is_agent("agent_white") and is_agent("agent_red", "pole")
    assert is_agent("white_agent", old) and is_agent("black_agent", "terrafeud")
    assert not is_agent("white_agent") and not is_agent("white_agent", "pole") and not is_agent("secret_agent", old)
    assert legacy_agent_columns("terrafeud") == ("white_agent", "black_agent") and legacy_agent_columns("pole") == ()
    assert batch_keys(["game_id", "seed", "white_agent", "secret_agent", "agent_red"]) == ["game_id", "seed", "agent_red"]
