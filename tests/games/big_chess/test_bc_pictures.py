"""Big chess pictures, judged on what is drawn: each card's pattern diagram (SVG and matplotlib) per level, the
board with facings, levels and the King's treasury, and the threat heat layers per player and per team."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib
import pytest

from workbench.games.big_chess import GAME, patterns, threat_views
from workbench.games.big_chess.cards import pattern_cells, starter_cards
from workbench.viz.generic import board_svg, draw_board, heat_panels, pattern_figure, patterns_svg

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


def _panels(svg: str) -> dict[str, dict[tuple[int, int], tuple[set[str], set[str]]]]:
    """Panel title -> offset -> (acts, classes), read back from the SVG's ``pmark`` groups."""
    root = ET.fromstring(svg)
    out = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "pattern":
            continue
        marks = {}
        for m in g.iter(f"{SVG}g"):
            cls = (m.get("class") or "").split()
            if "pmark" in cls:
                dx, dy = map(int, m.get("data-offset").split(","))
                assert (dx, dy) not in marks, "one mark per pattern cell"
                marks[(dx, dy)] = (set(m.get("data-acts").split()), set(cls))
        out[g.get("data-title")] = marks
    return out


def test_knight_svg_marks_each_cell_of_each_level() -> None:
    panels = _panels(patterns_svg(patterns("knight")))
    jumps = {(1, -2), (2, -1), (2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2)}
    assert list(panels) == ["knight, cost 30: base", "knight, cost 30: level 0", "knight, cost 30: level 1"]
    base = panels["knight, cost 30: base"]
    assert set(base) == jumps and all(acts == {"move", "strike"} and "leap" in cls for acts, cls in base.values())
    level0 = panels["knight, cost 30: level 0"]  # base plus the (0,-2) leap all round, those four marked new
    assert set(level0) == jumps | {(0, -2), (2, 0), (0, 2), (-2, 0)}
    assert {o for o, (_, cls) in level0.items() if "new" in cls} == {(0, -2), (2, 0), (0, 2), (-2, 0)}
    level1 = panels["knight, cost 30: level 1"]  # base plus one step in all 8 directions (a slide, no jump)
    ring = {(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)} - {(0, 0)}
    assert set(level1) == jumps | ring and all("leap" not in level1[o][1] and "new" in level1[o][1] for o in ring)


def test_infantry_turns_with_its_facing_and_the_rules_price_shows() -> None:
    north = _panels(patterns_svg(patterns("infantry", "cost_infantry=12")))
    base = north["infantry, cost 12: base"]
    assert base == {(0, -1): ({"move"}, {"pmark"}), (-1, -1): ({"strike"}, {"pmark"}), (1, -1): ({"strike"}, {"pmark"})}
    assert north["infantry, cost 12: level 0"][(0, -2)] == ({"move"}, {"pmark", "new"})  # the double step
    east = _panels(patterns_svg(patterns("infantry", facing="E")))["infantry, cost 10: base"]
    assert east == {(1, 0): ({"move"}, {"pmark"}), (1, -1): ({"strike"}, {"pmark"}), (1, 1): ({"strike"}, {"pmark"})}
    root = ET.fromstring(patterns_svg(patterns("infantry", facing="E")))
    line = next(e for e in root.iter(f"{SVG}line") if e.get("class") == "facing")
    assert float(line.get("x2")) > float(line.get("x1")) and float(line.get("y2")) == pytest.approx(float(line.get("y1")))


def test_every_card_and_level_has_one_mark_per_pattern_cell() -> None:
    for card in starter_cards():
        for p in (patterns(card.key), patterns(card.key, facing="SW")):
            panels = list(_panels(patterns_svg(p)).values())
            assert len(panels) == 1 + len(card.levels)
            f = 5 if card.vector and p[0].facing is not None and p[0].facing == 225.0 else 0
            for marks, lv in zip(panels, (None, *card.levels), strict=True):
                want = pattern_cells(card, 0 if lv is None else 1 << lv, f, p[0].radius)
                assert {o: set(c.acts) for o, c in want.items()} == {o: a for o, (a, _) in marks.items()}, card.key


def test_pattern_figure_draws_every_panel() -> None:
    rows = [patterns("knight"), patterns("omnigon")]
    fig = pattern_figure(rows)
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in visible] == [p.title for row in rows for p in row]
    omnigon_l0 = visible[4]  # the area panel: eight purple squares and the base's marks
    squares = [p for p in omnigon_l0.patches if type(p).__name__ == "Rectangle" and p.get_alpha() == 0.75]
    assert len(squares) == 8
    plt.close(fig)


def test_board_draws_facings_levels_and_treasury() -> None:
    st = GAME.new_initial_state(GAME.rules("start=army"))
    svg = board_svg(GAME, st)
    root = ET.fromstring(svg)
    lines = [e for e in root.iter(f"{SVG}line") if e.get("class") == "facing"]
    vector = [g for g in st.glyphs() if g.facing is not None]
    assert len(lines) == len(vector) == 12  # six infantry each
    for e in lines:  # a faces N (up the page), b faces S
        up = float(e.get("y2")) < float(e.get("y1"))
        assert float(e.get("x2")) == pytest.approx(float(e.get("x1")))
        assert up == (e.get("data-facing") == "0")
    texts = "".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert f"${st.treasury[0]}" in texts and f"${st.treasury[1]}" in texts
    fig, ax = plt.subplots()
    draw_board(ax, GAME, st)
    assert sum(1 for p in ax.patches if p.get_gid() == "facing") == 12
    assert {t.get_text() for t in ax.texts} >= {f"${st.treasury[0]}", f"${st.treasury[1]}"}
    plt.close(fig)
    c = st.ctx.board.parse_cell("3,10")
    st.pieces[c] = st.pieces[c]._replace(levels=0b10, trophies=7)
    badges = next(g.badges for g in st.glyphs() if g.cell == c)
    assert badges == ("L1", "t7")
    assert "L1" in "".join(t.text or "" for t in ET.fromstring(board_svg(GAME, st)).iter(f"{SVG}text"))


def test_threat_layers_per_player_and_per_team() -> None:
    st = GAME.new_initial_state(GAME.rules("start=deployed,board=classic-4,teams=ab/cd"))
    for _ in range(12):
        st.apply_action(st.legal_actions()[len(st.legal_actions()) // 2])
    a, b, c, d = range(4)
    per = [st.heat("attack", p) for p in range(4)]
    for team, foes in (((a, b), (c, d)), ((c, d), (a, b))):
        summed = {}
        for p in team:
            for cell, v in per[p].items():
                summed[cell] = summed.get(cell, 0.0) + v
        assert st.heat("team_attack", team[0]) == st.heat("team_attack", team[1]) == summed
        assert st.heat("threat", foes[0]) == summed  # the threat to a team is the other team's reach
    views = threat_views(st)
    assert [t for t, _, _ in views] == ["player a reaches", "player b reaches", "player c reaches", "player d reaches",
                                        "team ab reaches", "team cd reaches"]
    fig = heat_panels(GAME, st, views, st.ctx.rules)
    titled = [ax for ax in fig.axes if ax.get_title()]
    assert [ax.get_title() for ax in titled] == [t for t, _, _ in views]
    plt.close(fig)


def test_cards_command_writes_svgs(tmp_path: Path, capsys) -> None:  # noqa: ANN001
    from workbench.__main__ import main

    assert main(["cards", "knight", "infantry", "--rules", "cost_knight=40", "--svg", str(tmp_path / "svg")]) == 0
    files = sorted(p.name for p in (tmp_path / "svg").iterdir())
    assert files == ["infantry.svg", "knight.svg"]
    panels = _panels((tmp_path / "svg" / "knight.svg").read_text(encoding="utf-8"))
    assert list(panels)[0] == "knight, cost 40: base" and len(panels["knight, cost 40: base"]) == 8
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["cards", "--svg", str(blocker / "sub")]) == 2
    assert "cards: error: --svg" in capsys.readouterr().err


def test_a_board_drawn_with_the_wrong_rules_is_an_error_not_a_cropped_picture() -> None:
    st = GAME.new_initial_state(GAME.rules("start=deployed,board=classic-4"))
    # the SVG draws the position's own board (GameDef.state_layout), whatever rules are passed
    assert board_svg(GAME, st).count('data-cell="') == len(GAME.state_layout(st).cells) == st.ctx.N
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="pass the state's rules"):
        draw_board(ax, GAME, st)
    draw_board(ax, GAME, st, st.ctx.rules)
    plt.close(fig)
