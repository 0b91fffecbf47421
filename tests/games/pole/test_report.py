"""Pole's report parts (luck, the turtle, batch maps) through the report's game hook, and its pictures."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from workbench.balance.report import build_report
from workbench.core.protocol import GameDef, ReportPart
from workbench.games import get
from workbench.games.pole import apply_text
from workbench.games.pole.analysis import caption
from workbench.games.pole.board import BY_NAME
from workbench.games.pole.report import (
    batch_maps,
    correlation,
    decided_by_dice,
    newcombe,
    report_sections,
    toggle_moves,
    wilson,
)
from workbench.viz.generic import board_svg

G = get("pole")


def row(i: int, winner: str, luck_red: float, luck_black: float, rounding: str = "exact", cap: bool = False) -> dict:
    return {"game_id": i, "game": "pole", "cell": "default" if rounding == "exact" else f"fortress_rounding={rounding}",
            "rules": "" if rounding == "exact" else f"fortress_rounding={rounding}", "fortress_rounding": rounding,
            "max_turns": 400, "players": "red,black", "agent_red": "greedy", "agent_black": "greedy",
            "winner": "none" if cap else winner, "outcome": "unfinished" if cap else "win",
            "victory": "unfinished" if cap else "prince", "plies": 900, "turns": 400 if cap else 120,
            "max_plies": 1300, "luck_red": luck_red, "luck_black": luck_black, "attacks_expected": 30.0,
            "error": None}


def test_statistics_match_known_values():
    lo, hi = wilson(8, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.4902, 0.9433)  # Wilson 1927, as statsmodels gives
    lo, hi = newcombe(28, 45, 25, 36)  # Newcombe (1998) example: 56/70 style check by symmetry
    assert lo < 0.694 - 0.622 < hi
    r, lo, hi = correlation([1, 2, 3, 4, 5], [1, 2, 3, 4, 6])
    assert r == pytest.approx(0.9864, abs=1e-4) and lo < r < hi


def test_luck_and_decided_by_dice():
    games = [row(0, "red", 2.0, -1.0), row(1, "black", 0.5, 0.2), row(2, "red", -1.5, 0.0), row(3, "red", 0, 0, cap=True)]
    assert decided_by_dice(games[0]) is True  # Red won 3 removals luckier
    assert decided_by_dice(games[1]) is False  # Black won though Red was luckier
    assert decided_by_dice(games[3]) is None  # no result
    luck = report_sections(games)[0]
    assert isinstance(luck, ReportPart) and luck.title.startswith("Luck")
    text = " ".join(luck.paragraphs)
    assert "The luckier side won 33% " in text and "of the 3 decided games" in text
    assert "Decided by dice: in 33% " in text
    assert luck.table[0]["mean luck Red"] == round((2.0 + 0.5 - 1.5 + 0) / 4, 2)


def test_turtle_share_and_toggle_moves():
    exact = [row(i, "red", 0, 0, cap=i < 1) for i in range(10)]  # 1 of 10 at the cap
    down = [row(10 + i, "black", 0, 0, "down", cap=i < 8) for i in range(10)]  # 8 of 10
    moves = toggle_moves(exact + down)
    assert len(moves) == 1 and moves[0]["rule"] == "fortress_rounding" and moves[0]["rulebook value"] == "exact"
    assert moves[0]["_diff"] == pytest.approx(0.7)
    lo, hi = newcombe(1, 10, 8, 10)
    assert (moves[0]["_lo"], moves[0]["_hi"]) == (lo, hi) and lo > 0
    turtle = report_sections(exact + down)[1]
    text = " ".join(turtle.paragraphs)
    assert "45% [26, 66] of 20 games reached the 400-turn cap" in text
    assert "fortress_rounding=down raises the share at the cap: 80% [49, 94] against 10% [2, 40]" in text
    assert {r["cell"] for r in turtle.table} == {"fortress_rounding=exact", "fortress_rounding=down"}  # as the report names them


def test_maps_from_events():
    events = [{"action": "B@d3", "removed": "", "removed_kinds": ""}, {"action": "s@g8", "removed": "", "removed_kinds": ""},
              {"action": "6:1", "removed": "e9,f9", "removed_kinds": "i,p"}, {"action": "e5xe9", "removed": ""}]
    maps = dict(batch_maps(events))
    assert maps["Red purchases placed"] == {BY_NAME["d3"]: 1.0}
    assert maps["Black purchases placed"] == {BY_NAME["g8"]: 1.0}
    assert maps["Black Prince destroyed"] == {BY_NAME["f9"]: 1.0} and maps["Red Prince destroyed"] == {}


def test_the_report_draws_the_games_parts_without_importing_it():
    assert GameDef().report_sections([], None) == []  # the protocol's default adds nothing
    games = pd.DataFrame([row(i, "red" if i % 3 else "black", (i % 5) - 2.0, 1.0 - (i % 4), cap=i % 4 == 0)
                          for i in range(24)])
    events = pd.DataFrame([{"game_id": 1, "ply": 1, "n_legal": 30, "action": "B@d3", "rules": "buy_barracks@32", "removed": "",
                            "removed_kinds": ""},
                           {"game_id": 1, "ply": 2, "n_legal": 0, "action": "6:1", "rules": "attack_hit@88", "removed": "i9",
                            "removed_kinds": "p"}])
    report = build_report(games, events, title="Pole", max_plies=1300)
    titles = [s.title for s in report.sections]
    assert "Luck: was that game decided by dice?" in titles and "Decisiveness and the turtle" in titles
    assert "Where captures happen and where feudals die" not in titles  # TerraFeud's maps are not drawn for Pole
    maps = next(s for s in report.sections if s.title.startswith("Where purchases"))
    assert [stem for stem, _ in maps.figures] == ["pole_2_maps"] and maps.figures[0][1][:4] == b"\x89PNG"
    assert "Decisiveness and the turtle" in report.html() and "decided by dice" in report.html()


def test_pictures_show_fortresses_pieces_fresh_marks_and_coins():
    s = G.new_initial_state(G.rules())
    apply_text(s, "B@d3")  # buy_first: the barracks is fresh this turn
    svg = board_svg(G, s, title=caption(s))
    assert 'data-mark="fresh"' in svg and "fortress-red" in svg and "fortress-black" in svg
    assert f"{s.coins[0]}¢" in svg and f"{s.coins[1]}¢" in svg  # each side's coins ride with its Prince
    assert caption(s).startswith("turn 1: Red acts") and "coins Red" in caption(s)
    odds = s.heat("odds", 0)
    assert all(0.0 <= v <= 1.0 and not math.isnan(v) for v in odds.values())
