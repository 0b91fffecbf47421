"""The faction statistics: the matrix, the Bradley-Terry fit with a seat term, the words, the report hook."""

from __future__ import annotations

import math
import random

import pandas as pd

from workbench.balance.matchups import fit_strengths, matchup_matrix, matrix_frame, seat_sentence, strength_sentence
from workbench.balance.report import game_sections

ROLES = ["humans", "elves", "orcs", "dwarves"]


def synthetic(strength: dict[str, float], seat: float, games: int, seed: int = 1, draw: float = 0.1) -> pd.DataFrame:
    """Games drawn from the model itself: logit P(p1 wins | decided) = seat + s[a] - s[b]."""
    rng = random.Random(seed)
    rows = []
    for a in ROLES:
        for b in ROLES:
            for _ in range(games):
                p = 1 / (1 + math.exp(-(seat + strength[a] - strength[b])))
                u = rng.random()
                if u < draw:
                    rows.append(("draw", "none"))
                else:
                    rows.append(("win", "p1" if rng.random() < p else "p2"))
                rows[-1] = (*rows[-1], a, b)
    return pd.DataFrame({"game": "cursed-lands", "players": "p1,p2", "outcome": [r[0] for r in rows],
                         "winner": [r[1] for r in rows], "victory": [("castle" if r[0] == "win" else "draw") for r in rows],
                         "faction_p1": [r[2] for r in rows], "faction_p2": [r[3] for r in rows]})


def test_matrix_counts_and_scores() -> None:
    g = synthetic(dict.fromkeys(ROLES, 0.0), 0.0, 10)
    g.loc[0, "outcome"], g.loc[0, "winner"] = "unfinished", "none"
    m = matchup_matrix(g, roles=ROLES)
    assert len(m) == 16 and m["games"].sum() == 160
    first = m.iloc[0]
    assert first["unfinished"] == 1 and first["finished"] == 9
    assert first["score"] == (first["wins"] + 0.5 * first["draws"]) / 9
    assert first["low"] <= first["score"] <= first["high"]
    frame = matrix_frame(m)
    assert list(frame.columns) == ["p1 \\ opponent", *ROLES] and "(9)" in frame.iloc[0, 1]


def test_fit_recovers_order_and_seat() -> None:
    truth = {"humans": 0.0, "elves": -0.6, "orcs": 0.9, "dwarves": -0.3}
    fit = fit_strengths(synthetic(truth, 0.4, 120, draw=0.0), roles=ROLES)  # draws (half a win) would shrink it
    assert list(fit.table["role"]) == ["orcs", "humans", "dwarves", "elves"]
    assert abs(fit.table["strength"].sum()) < 1e-9  # sum-to-zero strengths
    assert fit.seat_low < 0.4 < fit.seat_high and fit.seat_low > 0
    for role, s in truth.items():
        row = fit.table[fit.table["role"] == role].iloc[0]
        assert row["low"] < s < row["high"], role
    assert fit.p_equal < 0.001
    words = strength_sentence(fit)
    assert words.startswith("Strongest faction: orcs") and "weakest: elves" in words and "fairly sure" in words
    assert "favours the first seat" in seat_sentence(fit)


def test_equal_factions_are_not_called_apart() -> None:
    fit = fit_strengths(synthetic(dict.fromkeys(ROLES, 0.0), 0.0, 6, seed=4), roles=ROLES)
    assert fit.p_equal > 0.05
    words = strength_sentence(fit)
    assert "cannot tell the factions apart" in words
    # no faction is called strongest where the intervals overlap (issue 34)
    assert words.startswith("No strongest faction can be named: the highest estimate, ") and "Strongest" not in words


def test_all_unfinished_gives_no_strengths() -> None:
    g = synthetic(dict.fromkeys(ROLES, 0.0), 0.0, 2)
    g["outcome"], g["winner"] = "unfinished", "none"
    fit = fit_strengths(g, roles=ROLES)
    assert fit.games == 0 and "no finished game" in strength_sentence(fit)


def test_report_asks_the_game_for_its_sections() -> None:
    g = synthetic({"humans": 0.0, "elves": -0.6, "orcs": 0.9, "dwarves": -0.3}, 0.2, 8)
    sections = game_sections(g, None)
    assert [s.title for s in sections] == ["Factions"]
    s = sections[0]
    assert ("Strongest faction" in s.markdown_text or "No strongest faction" in s.markdown_text) and "<table" in s.html_text
    assert [stem for stem, _ in s.figures] == ["faction_matrix", "faction_strengths"]
    assert all(png[:4] == b"\x89PNG" for _, png in s.figures)
    assert [s.title for s in game_sections(g.assign(game="terrafeud"), None)] == [  # its batch heatmaps (report.py)
        "Where captures happen and where feudals die"]
    assert game_sections(g.drop(columns="game"), None) == []
