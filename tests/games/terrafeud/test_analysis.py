"""Position queries behind the heatmaps, checked against hand counts on hand-built positions."""

from __future__ import annotations

import math

from workbench.games.terrafeud.engine import analysis, make_game
from workbench.games.terrafeud.engine.geometry import parse_hex
from workbench.games.terrafeud.engine.pieces import parse_letter

WINTER_PLAIN = "season=winter,hill=false,swamp=false"


def position(pieces: dict[str, str], rules: str = WINTER_PLAIN, **extra):
    game = make_game(rules)
    return game.state_from_pieces({parse_hex(h): parse_letter(c) for h, c in pieces.items()}, **extra)


def at(values, name: str):
    return values[parse_hex(name)]


def threat_position():
    # Black: pikeman h6; infantry c4 and e3 (e3-e4 completes a coordinated attack on d4);
    # archer b7 with its marker on b5 (a mine). White: knight on d4. Feudals far away.
    return position(
        {"f1": "F", "f11": "f", "h6": "p", "c4": "i", "e3": "i", "b7": "a", "d4": "K"},
        markers=[{}, {parse_hex("b7"): parse_hex("b5")}],
    )


def test_threat_counts_hand_built():
    st = threat_position()
    t = analysis.threat_counts(st, 0)
    # The pikeman attacks each of its six neighbours, and nothing else reaches them.
    for h in ("h5", "h7", "g6", "g7", "i5", "i6"):
        assert at(t, h) == 1, h
    # d4: neither infantryman may attack the knight alone (W6), but e3-e4 leaves two infantry next
    # to it: a coordinated attack that one move completes, by c4 and e3.
    assert at(t, "d4") == 2
    assert analysis.threat_sets(st, 0)[parse_hex("d4")] == {parse_hex("c4"), parse_hex("e3")}
    # b5 holds the archer's mine; d8 is a hex the archer can mark (distance 2) and no one else reaches.
    assert at(t, "b5") == 1
    assert at(t, "d8") == 1
    # The archer never attacks by moving: its neighbour a6 is reached by nothing else.
    assert at(t, "a6") == 0
    assert at(t, "a1") == 0


def test_threat_counts_are_a_probe_only():
    st = threat_position()
    before = st.key()
    analysis.threat_counts(st, 0)
    analysis.safe_feudal_hexes(st, 0)
    analysis.mobility(st, 1, per="piece")
    assert st.key() == before and st.to_move == 0


def test_zone_counts_overlap():
    st = position({"f1": "F", "f11": "f", "d3": "P", "f3": "P"})
    z = analysis.zone_counts(st, 0)
    assert sum(z) == 24  # 12 hexes per pikeman, all on the board here
    # e3 is next to both; f5 is a straight two from both (d3-e4-f5, f3-f4-f5), so is d1 (d3-d2-d1, f3-e2-d1).
    assert {h for h in range(91) if z[h] == 2} == {parse_hex(n) for n in ("e3", "f5", "d1")}
    # Each pikeman stands in the other's zone: d3-e3-f3 is one straight axis.
    assert at(z, "d3") == 1 and at(z, "f3") == 1
    assert analysis.zone_counts(st, 1) == [0] * 91


def test_safe_feudal_hexes():
    st = threat_position()
    safe = analysis.safe_feudal_hexes(st, 0)
    assert at(safe, "a1") == 1.0
    assert at(safe, "h5") == 0.0  # next to the black pikeman
    assert at(safe, "b5") == 0.0  # a mine
    assert at(safe, "e10") == 0.0  # next to the black feudal (W9)
    assert math.isnan(at(safe, "h6")) and math.isnan(at(safe, "d4"))  # other pieces stand there


def test_mobility_reach_and_piece():
    st = position({"f1": "F", "f11": "f", "a6": "I"})
    reach = analysis.mobility(st, 0)
    # The infantryman a6 steps to a5 and b6 (b7 is also a neighbour): three hexes; the feudal f1 to e1, f2, g1.
    assert {h for h in range(91) if reach[h]} == {parse_hex(n) for n in ("a5", "b6", "b7", "e1", "f2", "g1")}
    per = analysis.mobility(st, 0, per="piece")
    assert at(per, "a6") == 3 and at(per, "f1") == 3
    assert math.isnan(at(per, "a1"))
