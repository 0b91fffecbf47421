"""--space and --within are checked against the game's rules before any game is played."""

from __future__ import annotations

import pytest

from workbench.games import get, register
from workbench.tune.space import SpaceError, check_overlap, parse_space, parse_within, variant_label

register("stones", "tinygame")


def test_ranges_lists_and_all():
    sp = parse_space(get("terrafeud"), ["archer_range=2..4", "aura_radius=1..3", "castling=swap,sacrifice"])
    assert sp.size == 18 and sp.discrete
    assert sp.dims[0].values == ("2", "3", "4")
    v = sp.variants()
    assert v[0] == {"archer_range": "2", "aura_radius": "1", "castling": "swap"}
    assert variant_label(v[-1]) == "archer_range=4,aura_radius=3,castling=sacrifice"
    assert parse_space(get("terrafeud"), ["castling=all"]).dims[0].values == ("swap", "sacrifice")
    assert parse_space(get("stones"), ["coin=all"]).dims[0].values == ("true", "false")
    assert parse_space(get("stones"), ["coin=yes,no"]).dims[0].values == ("true", "false")


@pytest.mark.parametrize("item, words", [
    ("archer_range=2..40", "out of range"),
    ("no_such_rule=1..2", "unknown rule"),
    ("castling=swap,swop", "castling"),
    ("archer_range=4..2", "empty range"),
    ("archer_range=3,3", "listed twice"),
    ("archer_range", "name=low..high"),
])
def test_bad_space_items_are_named(item, words):
    with pytest.raises(SpaceError, match=words):
        parse_space(get("terrafeud"), [item])


def test_space_given_twice_and_overlaps():
    with pytest.raises(SpaceError, match="twice"):
        parse_space(get("terrafeud"), ["archer_range=2,3", "archer_range=4"])
    sp = parse_space(get("stones"), ["pile=5..7"])
    with pytest.raises(SpaceError, match="both in --space and --within"):
        check_overlap(sp, parse_within(get("stones"), ["pile=3,4"]), {})
    with pytest.raises(SpaceError, match="both in --space and --rules"):
        check_overlap(sp, [{}], {"pile": "3"})


def test_within_uses_simulate_grid_expansion():
    cells = parse_within(get("stones"), ["pile=3..4", "coin=true,false"])
    assert cells == [{"pile": "3", "coin": "true"}, {"pile": "3", "coin": "false"},
                     {"pile": "4", "coin": "true"}, {"pile": "4", "coin": "false"}]
    assert parse_within(get("stones"), []) == [{}]
    with pytest.raises(SpaceError, match="unknown rule"):
        parse_within(get("stones"), ["nope=1,2"])


def test_within_uses_a_games_grid_values_shorthand():
    class Game:
        name = "fake"
        spec = get("stones").spec

        @staticmethod
        def grid_values(key, value):
            return ["3", "4", "5"] if (key, value) == ("pile", "all") else None

    assert [c["pile"] for c in parse_within(Game, ["pile=all"])] == ["3", "4", "5"]
