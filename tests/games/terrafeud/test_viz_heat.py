"""Heatmap values and their matplotlib pictures: batch maps from a hand-made event table."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from workbench.games.terrafeud.engine import new_game  # noqa: E402
from workbench.games.terrafeud.engine.geometry import parse_hex  # noqa: E402
from workbench.games.terrafeud.viz import heat, mpl  # noqa: E402


def events() -> pd.DataFrame:
    rows = [
        # game 1: a move, a shot, an Order with a capture, then White's feudal dies on f2 with a knight on e2
        (1, 1, "white", "e3-e4", "I", "e3", "e4", "", ""),
        (1, 2, "black", "d8*d6", "a", "d8", "d6", "", ""),
        (1, 3, "white", "f1-f2", "F", "f1", "f2", "", ""),
        (1, 4, "black", "order e8-e7 g8xg7", "i", "e8", "e7", "I", "g7"),
        (1, 5, "black", "c7xe2", "c", "c7", "e2", "K F", "e2 f2"),
        # game 2: one move and a pass
        (2, 1, "white", "e3-e4", "I", "e3", "e4", "", ""),
        (2, 2, "black", "pass", "", "", "", "", ""),
    ]
    return pd.DataFrame(rows, columns=list(heat.EVENT_COLUMNS))


def test_batch_maps_count_hexes():
    ev = events()
    occ = heat.occupancy(ev, per_game=False)
    assert occ[parse_hex("e4")] == 2 and occ[parse_hex("e7")] == 1 and occ[parse_hex("g7")] == 1
    assert occ[parse_hex("d6")] == 0  # a shot moves nothing
    assert sum(occ) == 6  # e4 twice, f2, e7, g7, e2
    assert heat.occupancy(ev)[parse_hex("e4")] == 1.0  # per game
    deaths = heat.capture_locations(ev, per_game=False)
    assert {h for h in range(91) if deaths[h]} == {parse_hex(n) for n in ("g7", "e2", "f2")}
    fd = heat.feudal_deaths(ev)
    assert fd[parse_hex("f2")] == 1 and sum(fd) == 1  # followed from f1 to f2, not e2


def test_batch_heatmaps_per_season():
    games = pd.DataFrame({"game_id": [1, 2], "season": ["summer", "winter"]})
    table = heat.batch_table(games, events())
    assert table.loc["e4", "occupancy per game | summer"] == 1.0
    assert table.loc["f2", "feudal deaths | summer"] == 1.0 and table["feudal deaths | winter"].sum() == 0
    fig = heat.batch_heatmaps(games, events())
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert titles[:3] == ["occupancy per game: summer", "deaths per game: summer", "feudal deaths: summer"]
    assert len(titles) == 6
    plt.close(fig)


def test_missing_columns_and_bad_hexes_are_named():
    with pytest.raises(ValueError, match="lacks column"):
        heat.occupancy(events().drop(columns=["to"]))
    bad = events()
    bad.loc[0, "to"] = "j4"
    with pytest.raises(ValueError, match="row 0: unknown hex 'j4'"):
        heat.occupancy(bad)


def test_heatmap_uses_cmap_norm_and_masks_nan():
    st = new_game()
    values = heat.zone_control(st, "white")
    values[parse_hex("a1")] = math.nan
    ax = mpl.heatmap(st, values, cmap="Blues", title="zones")
    coll = [c for c in ax.collections if getattr(c, "get_array", lambda: None)() is not None
            and c.get_array() is not None and len(c.get_array()) == 91][0]
    arr = coll.get_array()
    assert arr.mask[parse_hex("a1")] and not arr.mask[parse_hex("e3")]
    assert coll.norm.vmin == 0 and coll.norm.vmax == 2
    assert coll.get_cmap().name == "Blues"
    assert ax.get_title() == "zones"
    plt.close(ax.get_figure())


def test_compare_shares_one_scale_across_toggles():
    st = new_game(seed=2)
    fig = heat.compare_rules(st, "mobility", "white")
    heat_axes = [ax for ax in fig.axes if ax.get_title()]
    assert [ax.get_title() for ax in heat_axes] == ["mobility white: season=summer", "mobility white: season=winter"]
    norms = {id(c.norm) for ax in heat_axes for c in ax.collections if c.get_array() is not None and len(c.get_array()) == 91}
    assert len(norms) == 1
    plt.close(fig)
    winter = heat.with_rules(st, season="winter")
    assert winter.board.winter and winter.squares == st.squares and winter.game.terrain == st.game.terrain


def test_rim_coordinates_stay_readable_on_small_grid_panels():
    """Issue 14 (notebook 04): a 4-panel figure shrank the rim coordinates to about 4 pt."""
    st = new_game(seed=0).game.state_from_pieces({})
    fig, axes = plt.subplots(1, 4, figsize=(12, 3.3))
    try:
        mpl.heatmap(st, dict.fromkeys(range(91), 1.0), ax=axes[0], annotate=False, overlays=())
        sizes = [t.get_fontsize() for t in axes[0].texts if t.get_text() in ("a", "l", "1", "6")]
        assert len(sizes) >= 4 and min(sizes) >= mpl.MIN_COORD_POINTS
    finally:
        plt.close(fig)


def test_threat_colour_bar_starts_at_zero_with_whole_ticks():
    # issue 22: the threat map's colour bar read 1 at its left end, where the colour means 0
    st = new_game()
    fig = heat.compare_sides(st, "threat")
    bar = fig.axes[-1]
    low, high = bar.get_ylim()
    top = max(max(heat.threat(st, 0)), max(heat.threat(st, 1)))
    assert (low, high) == (0.0, top)
    ticks = [t for t in bar.get_yticks() if low <= t <= high]
    assert ticks[0] == 0 and all(float(t).is_integer() for t in ticks)
    plt.close(fig)
    only_ones = [math.nan] * 91
    only_ones[parse_hex("e4")] = 1.0
    only_ones[parse_hex("e5")] = 3.0
    ax = mpl.heatmap(st, only_ones, title="counts from 1")  # a map whose smallest value is 1 still starts at 0
    coll = [c for c in ax.collections if c.get_array() is not None and len(c.get_array()) == 91][0]
    assert coll.norm.vmin == 0 and coll.norm.vmax == 3
    plt.close(ax.get_figure())
