"""The generic pictures draw The Cursed Lands: terrain, void, camps, flags, castle HP, unit HP and faction,
the threat and control layers, and the batch maps of fired rules."""

from __future__ import annotations

import random

import matplotlib
import pandas as pd

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from workbench.games import get  # noqa: E402
from workbench.viz.generic import batch_rule_maps, board_svg, draw_board, heat_colour, rule_cell_counts  # noqa: E402

GAME = get("cursed-lands")


def played(rules: str = "factions=orcs/elves", plies: int = 90, seed: int = 3):
    r = GAME.rules(rules)
    st = GAME.new_initial_state(r, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if st.is_terminal():
            break
        st.apply_action(rng.choice(st.legal_actions()))
    return r, st


def test_svg_shows_terrain_void_castle_hp_unit_hp_flags_and_faction() -> None:
    r, st = played()
    svg = board_svg(GAME, st, r)
    assert svg.count("data-cell=") == 81
    assert 'class="cell void"' in svg and 'class="cell castle"' in svg
    assert f"{st.castle_hp[0]}hp" in svg and "flag S" in svg
    units = [g for g in st.glyphs() if g.piece and g.owner is not None and g.terrain != "castle"]
    assert units, "random play produced units"
    for g in units:
        assert g.badges[0].endswith("hp") and g.badges[-1] in ("or", "el")
    colours = {cls: colour for cls, colour, _ in GAME.legend}
    assert colours["void"] in svg and colours["void"] != "#2b2b2b"  # void is not the second seat's colour


def test_heat_layers_draw_from_zero() -> None:
    r, st = played()
    me = st.current_player()
    threat = st.heat("threat", me)
    assert threat and min(threat.values()) >= 0
    fig, ax = plt.subplots()
    bar = draw_board(ax, GAME, st, r, values=threat, label="threat", integer=True)
    assert bar.mappable.norm.vmin == 0.0
    plt.close(fig)
    control = st.heat("control", me)
    assert min(control.values()) < 0 < max(control.values())
    fig, ax = plt.subplots()
    bar = draw_board(ax, GAME, st, r, values=control, label="control")
    assert bar.mappable.norm.vmin < 0 < bar.mappable.norm.vmax  # signed: 0 in the middle of the bar
    assert bar.mappable.norm.vmin == -bar.mappable.norm.vmax
    plt.close(fig)
    assert heat_colour(0.0, 1.0) == "#ffffff" and heat_colour(-1.0, 1.0) != heat_colour(1.0, 1.0)


def test_batch_maps_count_fired_rules_per_cell() -> None:
    events = pd.DataFrame({"game_id": [0, 0, 1, 1], "rules": ["tiles_placed_road@12", "units_destroyed@40,castle_hit_from@67",
                                                           "tiles_placed_plain@12", None]})
    assert rule_cell_counts(events, "tiles_placed_road") == {12: 1.0}
    assert rule_cell_counts(events, "tiles_placed_*") == {12: 2.0}
    assert rule_cell_counts(events, "castle_hit_from") == {67: 1.0}
    fig = batch_rule_maps(GAME, events, [("roads", "tiles_placed_road"), ("deaths", "units_destroyed")])
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert titles == ["roads (0.50 per game)", "deaths (0.50 per game)"]
    plt.close(fig)
