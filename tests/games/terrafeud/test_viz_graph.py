"""The movement graphs against hand counts: river, fords, the knight and the bridges."""

from __future__ import annotations

import math

import networkx as nx
import pytest

from workbench.games.terrafeud.engine.geometry import parse_hex
from workbench.games.terrafeud.viz import graph


def moves(kind: str, season: str, a: str, b: str) -> int:
    return nx.shortest_path_length(graph.movement_graph(kind, season), parse_hex(a), parse_hex(b))


def test_river_detour_for_walkers():
    # Summer: c4 and c5 are river, so c3 -> c6 goes round by the west bridge: c3-b3-b4-b5-c6.
    assert moves("infantry", "summer", "c3", "c6") == 4
    assert moves("infantry", "winter", "c3", "c6") == 3
    assert parse_hex("c4") not in graph.movement_graph("pikeman", "summer")


def test_knight_ford_and_bridge():
    g_summer = graph.movement_graph("knight", "summer")
    assert parse_hex("d5") not in set(g_summer.successors(parse_hex("d4")))  # ruling 1: summer blockade
    assert parse_hex("d5") in set(graph.movement_graph("knight", "winter").successors(parse_hex("d4")))
    # From f3 the slide f4, f5 passes the bridge f6 and ends on f7; from f7 it reaches f11.
    assert parse_hex("f7") in set(g_summer.successors(parse_hex("f3")))
    assert not list(g_summer.predecessors(parse_hex("f6")))  # the knight never stops on a bridge


def test_distances_to_castle_match_hand_counts():
    d = graph.distances_to_castle("knight", "summer", "white")
    assert d[parse_hex("f3")] == 2 and d[parse_hex("f11")] == 0
    assert graph.distances_to_castle("feudal", "summer", "white")[parse_hex("f1")] == 10  # one step a move
    # Cavalry: an L covers distance 3, a straight charge 2; f1 to f11 is distance 10, so 3+3+2+2 = 4 moves.
    assert graph.distances_to_castle("cavalry", "summer", "white")[parse_hex("f1")] == 4
    # Black's knight heads for f1 the same way.
    assert graph.distances_to_castle("knight", "summer", "black")[parse_hex("f9")] == 2
    assert math.isnan(graph.distances_to_castle("infantry", "summer", "white")[parse_hex("c4")])


def test_crossing_share_summer_vs_winter():
    df = graph.crossing_share(kinds=("infantry", "knight"))
    assert list(df.index) == ["b4", "d5", "f6", "h5", "k4"]
    # In summer every walker's journey across uses exactly one crossing.
    assert df["infantry summer"].sum() == pytest.approx(1.0)
    assert df["infantry winter"].sum() < 1.0
    # The knight cannot use the fords in summer; the centre bridge carries the most.
    assert df.loc["d5", "knight summer"] == 0.0
    assert df.loc["f6", "knight summer"] > 2 * df.loc["f6", "knight winter"]


def test_bad_kind_and_season():
    with pytest.raises(ValueError, match="unknown piece kind"):
        graph.movement_graph("bishop")
    with pytest.raises(ValueError, match="unknown season"):
        graph.movement_graph("knight", "spring")
