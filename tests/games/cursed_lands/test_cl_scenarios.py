"""The Cursed Lands scenario dialect: the folder passes, bad files are refused with file and line,
``--rules`` and ``--compare`` reach this game's rules, failures say what differed, dumps load back."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from workbench.games.cursed_lands import GAME
from workbench.scenarios.cli import main
from workbench.scenarios.loader import load_scenario, load_scenario_text, load_scenarios

ROOT = Path(__file__).resolve().parents[3]
FOLDER = ROOT / "scenarios" / "cursed-lands"
BAD = Path(__file__).parent / "bad"


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main([*argv], out=out)
    return code, out.getvalue()


def test_scenario_folder_passes():
    code, text = run(str(FOLDER))
    assert code == 0, text
    lines = text.splitlines()
    assert len(lines) >= 80 and all(line.startswith("PASS ") for line in lines)
    assert all("(no checks)" not in line for line in lines)


def test_every_scenario_names_its_source():
    for path, case in load_scenarios([FOLDER]):
        assert not isinstance(case, Exception), case
        assert case.source, f"{path}: no source"
        assert case.checks, f"{path}: no checks"


@pytest.mark.parametrize("path", sorted(BAD.glob("*.yaml")), ids=lambda p: p.stem)
def test_bad_files_are_refused(path):
    code, text = run(str(path))
    assert code == 1
    line = text.strip()
    assert line.startswith(("ERROR", "FAIL")), line
    if line.startswith("ERROR"):
        assert str(path) in line and "line" in line, line


def test_failures_say_what_differed(tmp_path):
    f = tmp_path / "wrong.yaml"
    f.write_text("game: cursed-lands\nid: cl-wrong\ntitle: wrong expectations\nchecks:\n"
                 "  - play: [+S]\n    ap: 3\n    units: {d1: C}\n    to_move: p2\n")
    code, text = run(str(f))
    assert code == 1
    assert "FAIL cl-wrong" in text and "line 5" in text
    assert "ap: expected 3, found 2" in text and "units d1: expected C, found S" in text
    assert "to_move: expected p2, found p1" in text


def test_rules_override_flips_a_ruling():
    code, text = run(str(FOLDER / "combat-zero-damage.yaml"), "--rules", "counterattack=melee")
    assert code == 1 and "hp d3: expected 3, found 1" in text
    code, text = run(str(FOLDER / "movement-dwarf-mountain.yaml"), "--rules", "dwarf_move_penalty=1")
    assert code == 1


def test_rules_override_naming_no_rule_is_refused():
    code, _ = run(str(FOLDER), "--rules", "no_such_rule=1")
    assert code == 2


def test_compare_lists_the_checks_a_variant_changes():
    code, text = run(str(FOLDER), "--compare", "untiled=plain")
    assert code == 0
    assert "variant untiled=plain" in text and "CHANGED" in text


def test_invalid_file_fails_when_the_override_makes_it_valid():
    case = load_scenario(FOLDER / "rejected" / "cl-invalid-tiles-placed-over-limit.yaml")
    assert [r.status for r in case.run()] == ["pass"]
    assert [r.status for r in case.run({"tiles_per_turn": "0"})] == ["fail"]


def test_dump_scenario_loads_back_with_checks():
    st = load_scenario(FOLDER / "activation.yaml").initial_state()
    st.apply_action(st.string_to_action("e3-e4xf5"))
    text = GAME.dump_scenario(st, "cl-dumped", "dumped", [{"hp": {"f5": 1}, "activated": ["e4"], "ap": 2}])
    case = load_scenario_text(text, "<dump>")
    assert [r.status for r in case.run()] == ["pass"]
    assert case.initial_state().to_dict()["position"] == st.to_dict()["position"]


def test_setup_phase_positions_round_trip():
    st = GAME.new_initial_state(GAME.rules("setup_phase=true"), 4)
    st.apply_action(st.legal_actions()[12345])
    back = load_scenario_text(GAME.dump_scenario(st, "cl-setup-dump", "setup"), "<dump>").initial_state()
    assert back.to_dict()["position"] == st.to_dict()["position"] and back.phase == "setup"
    assert back.legal_actions() == st.legal_actions()


def test_setup_rule_reads_a_dumped_start_file(tmp_path):
    st = load_scenario(FOLDER / "terrain-hill.yaml").initial_state()
    start = tmp_path / "start.yaml"
    start.write_text(GAME.dump_scenario(st, "cl-start", "a start"))
    game_state = GAME.new_initial_state(GAME.rules({"setup": str(start)}), 0)
    assert game_state.to_dict()["position"] == st.to_dict()["position"]
    assert game_state.rules["setup"] == str(start)
    from workbench.core.rulespec import RulesError

    with pytest.raises(RulesError, match="setup"):
        GAME.new_initial_state(GAME.rules({"setup": str(tmp_path / "missing.yaml")}), 0)
    (tmp_path / "plain.yaml").write_text("game: cursed-lands\nid: x\ntitle: y\n")
    with pytest.raises(RulesError, match="no position"):
        GAME.new_initial_state(GAME.rules({"setup": str(tmp_path / "plain.yaml")}), 0)
