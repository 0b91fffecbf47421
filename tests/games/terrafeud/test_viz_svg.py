"""The SVG board: content checks (hex count, terrain classes, pieces, markers, overlays)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from workbench.games.terrafeud.engine import new_game
from workbench.games.terrafeud.engine.geometry import parse_hex
from workbench.games.terrafeud.viz import before_after_svg, board_svg
from workbench.games.terrafeud.viz.scene import changed_hexes

NS = "{http://www.w3.org/2000/svg}"
RIVER = {"a3", "a4", "c4", "c5", "e5", "e6", "g5", "g6", "i4", "i5", "l3", "l4"}


def hex_polygons(svg: str) -> dict[str, set[str]]:
    root = ET.fromstring(svg)
    out = {}
    for el in root.iter(f"{NS}polygon"):
        classes = set(el.get("class", "").split())
        if "hex" in classes:
            out[el.get("data-hex")] = classes
    return out


def elements(svg: str, tag: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [el for el in root.iter(f"{NS}{tag}") if cls in el.get("class", "").split()]


def test_91_hex_polygons_with_terrain_classes():
    st = new_game("hill=false,swamp=false")
    hexes = hex_polygons(st._repr_svg_())
    assert len(hexes) == 91
    assert {h for h, c in hexes.items() if "river" in c} == RIVER
    assert {h for h, c in hexes.items() if "bridge" in c} == {"b4", "f6", "k4"}
    assert {h for h, c in hexes.items() if "ford" in c} == {"d5", "h5"}
    assert {h for h, c in hexes.items() if "castle" in c} == {"f1", "e1", "f2", "g1", "f11", "e10", "f10", "g10"}
    assert not any("winter" in c for c in hexes.values())


def test_winter_and_terrain_classes():
    st = new_game("season=winter,terrain=fixed")
    hexes = hex_polygons(board_svg(st))
    assert {h for h, c in hexes.items() if "winter" in c} == RIVER | {"d5", "h5"}
    assert {h for h, c in hexes.items() if "hill" in c} == {"e4", "e7"}
    assert {h for h, c in hexes.items() if "swamp" in c} == {"b3", "b5"}
    assert "winter" in ET.fromstring(board_svg(st)).get("class").split()


def test_pieces_markers_and_last_action():
    st = new_game(seed=3)
    st.play("f3-f5", "d8*d6")
    svg = board_svg(st, highlights=["a1", "l6"])
    pieces = elements(svg, "text", "piece")
    assert len(pieces) == 28  # 14 a side: F K P P A A C C and six I
    assert sum("white" in p.get("class") for p in pieces) == 14
    assert {p.get("data-hex"): p.get("data-piece") for p in pieces}["f5"] == "K"
    markers = elements(svg, "circle", "marker")
    assert [(m.get("data-archer"), m.get("data-hex"), "black" in m.get("class")) for m in markers] == [("d8", "d6", True)]
    assert len(elements(svg, "line", "last")) == 1  # the shot, the last action
    assert {p.get("data-hex") for p in elements(svg, "polygon", "highlight")} == {"a1", "l6"}
    assert len(elements(svg, "path", "zone")) == 4  # one flower per pikeman
    assert len(elements(svg, "path", "aura")) == 2
    assert not elements(board_svg(st, overlays=()), "path", "zone")


def test_heat_cells_mask_nan():
    st = new_game()
    values = [float(h) for h in range(91)]
    values[parse_hex("f6")] = math.nan
    cells = elements(board_svg(st, heat=values), "polygon", "heat")
    assert len(cells) == 90 and "f6" not in {c.get("data-hex") for c in cells}
    with pytest.raises(ValueError, match="91 values"):
        board_svg(st, heat=[1.0, 2.0])


def test_bad_options_are_named():
    st = new_game()
    with pytest.raises(ValueError, match="unknown overlay"):
        board_svg(st, overlays=("zones", "flowers"))
    with pytest.raises(ValueError, match="unknown hex 'j4'"):
        board_svg(st, highlights=["j4"])


def test_before_after_marks_changed_hexes():
    before = new_game()
    after = before.clone()
    after.play("e3-e4")
    assert [parse_hex("e3"), parse_hex("e4")] == changed_hexes(before, after)
    svg = before_after_svg([before, after])
    marked = [p.get("data-hex") for p in elements(svg, "polygon", "highlight")]
    assert sorted(marked) == ["e3", "e3", "e4", "e4"]  # on both boards


def test_the_pictures_tooltip_is_in_words_not_the_repr():
    """Issue 14 (notebook 03): the SVG title read ``<TerraFeud ply 24, white to move>``."""
    import re

    from workbench.games.terrafeud.engine import new_game
    from workbench.games.terrafeud.viz.svg import board_svg

    st = new_game(seed=0)
    st.play("f3-f5")
    title = re.search(r"<title>([^<]*)</title>", board_svg(st)).group(1)
    assert title == "TerraFeud, summer, ply 1: Black to move"
