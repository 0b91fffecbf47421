"""Issue 13, TerraFeud's scenario files: each file its dialect refuses (adjacent feudals, hills or swamps half
named, a note that is not text, a 100,000-character hex) is one ERROR line and later files still run, and
``check`` stays linear. The shared reader's refusals are in ``tests/test_hardening_scenario_files.py``."""

from __future__ import annotations

import pytest
from scenariohelp import assert_one_error_line, check

from workbench.games.terrafeud.engine import GameState
from workbench.scenarios.loader import load_scenario_text

BAD = {
    "adjacent-feudals": ("id: a\ntitle: t\nposition:\n  pieces: {f5: F, f6: f}\n", 4,
                         "feudals on f5 and f6 are adjacent; W9"),
    "hill-off-with-hills": ("id: h\ntitle: t\nrules: {hill: false, hills: {white: h4, black: c6}}\n", 3,
                            "hills names hexes but hill: false"),
    "hills-one-side": ("id: o\ntitle: t\nrules: {hills: {white: h4}}\n", 3, "hills must name both sides"),
    "swamps-one-side": ("id: w\ntitle: t\nrules:\n  swamps: {black: g7}\n", 4, "swamps must name both sides"),
    "note-not-text": ("id: n\ntitle: t\nchecks:\n  - note: [1, 2]\n    legal: [f3-f4]\n", 4, "note must be text"),
    "long-hex": ("id: q\ntitle: t\nposition:\n  pieces:\n    f1: F\n    f11: f\n    ? " + "q" * 100_000 + "\n    : K\n",
                 7, "pieces: unknown hex 'qqq"),
}



@pytest.mark.parametrize("name", sorted(BAD))
def test_each_bad_file_is_one_error_line_and_later_files_still_run(tmp_path, name):
    assert_one_error_line(tmp_path, name, BAD[name])


def test_explicit_none_names_a_side_without_a_hill():
    sc = load_scenario_text("id: n\ntitle: t\nrules:\n  terrain: fixed\n  hills: {white: h4, black: none}\n"
                            "  swamps: {white: null, black: g7}\n")
    terrain = sc.initial_state().game.terrain.to_dict()
    assert terrain == {"hills": {"white": "h4", "black": None}, "swamps": {"white": None, "black": "g7"}}


def test_check_copies_no_state_per_ply(monkeypatch, tmp_path):
    """`check` used to clone the state (with its whole undo stack) after every ply: quadratic."""
    cycle = ["f3-f4", "f9-f8", "f4-f3", "f8-f9"]
    path = tmp_path / "long.yaml"
    path.write_text("id: long\ntitle: t\nrules: {hill: false, swamp: false}\nposition:\n  pieces: {f3: F, f9: f}\n"
                    "checks:\n  - play: [" + ", ".join(cycle * 100) + "]\n    to_move: white\n")
    clones = []
    original = GameState.clone
    monkeypatch.setattr(GameState, "clone", lambda self: clones.append(1) or original(self))
    rc, out = check([str(path)])
    assert rc == 0 and out == "PASS long\n"
    assert len(clones) <= 2, f"{len(clones)} copies of the state for 400 plies"
