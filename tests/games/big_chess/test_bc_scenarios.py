"""Big chess through ``python -m workbench check``: the folder passes, bad files are refused, --rules flips."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from workbench.games.big_chess import GAME
from workbench.scenarios.cli import main as check_main
from workbench.scenarios.loader import load_scenario, load_scenario_text

ROOT = Path(__file__).resolve().parents[3]
FOLDER = ROOT / "scenarios" / "big-chess"
BAD = Path(__file__).parent / "bad"


def _check(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    code = check_main([*args], out=out)
    return code, out.getvalue()


def test_scenario_folder_passes() -> None:
    code, text = _check(str(FOLDER))
    assert code == 0, text
    assert text.count("PASS ") >= 100


def test_every_ruling_family_has_a_scenario() -> None:
    sources = " ".join(p.read_text(encoding="utf-8") for p in FOLDER.glob("*.yaml"))
    for tag in ("B2", "B4", "B7", "B8", "B12", "B21", "B24", "B31", "B32", "B41", "B46", "B49", "B55", "B56", "B57",
                "§8.1", "§8.4", "§8.5", "§10.4", "§10.5", "§13", "§14", "§16"):
        assert tag in sources, tag


@pytest.mark.parametrize("path", sorted(BAD.glob("*.yaml")), ids=lambda p: p.stem)
def test_bad_files_are_errors_naming_file_and_line(path: Path) -> None:
    code, text = _check(str(path))
    assert code == 1
    assert text.startswith("ERROR ") and str(path) in text
    assert "line " in text


def test_rules_override_flips_expectations() -> None:
    code, text = _check(str(FOLDER / "bc-13c-jester-blocks-all.yaml"), "--rules", "jester_blocks=enemies")
    assert code == 1 and "FAIL bc-13c-jester-blocks-all" in text
    code, text = _check(str(FOLDER / "bc-14-team-lock.yaml"), "--rules", "lock_expiry=round_end")
    assert code == 1 and "locks" in text
    code, text = _check(str(FOLDER / "bc-invalid-rules-promotion-pawn.yaml"), "--rules", "promotion_targets=knight")
    assert code == 1 and "accepted" in text


def test_wrong_expectation_fails_with_what_differed() -> None:
    text = """game: big-chess
id: bc-wrong
title: wrong expectations
position:
  board: ["bbb", "...", "aaa"]
  pieces: {"0,2": "a:king", "2,0": "b:king", "1,2": "a:rook"}
checks:
  - destinations: {"1,2": ["1,1"]}
  - play: ["1,2-1,0"]
    to_move: a
"""
    case = load_scenario_text(text, "<t>")
    results = case.run()
    assert [r.status for r in results] == ["fail", "fail"]
    assert "expected ['1,1'], got ['1,0', '1,1', '2,2']" in results[0].message and "line 8" in results[0].message
    assert "to_move: expected a, got b" in results[1].message


def test_yaml_card_file_beside_the_scenario(tmp_path: Path) -> None:
    (tmp_path / "stepper.yaml").write_text("""key: stepper   # a test piece
id: 60
name: Stepper
vector: true
cost: 7
base:
  - {act: move, slide: [0,-1], range: 2}
levels:
  0:
    - act: strike
      slide: [1,-1]
      sym: lr
""", encoding="utf-8")
    (tmp_path / "s.yaml").write_text("""game: big-chess
id: bc-yaml-card
title: a YAML card file
cards: [stepper.yaml]
position:
  board: ["bbbbb", ".....", ".....", ".....", "aaaaa"]
  treasury: {a: 7}
  pieces: {"2,3": "a:stepper:N", "0,4": "a:king", "4,0": "b:king"}
checks:
  - destinations: {"2,3": ["2,1", "2,2"]}
    legal: ["+stepper@1,3"]
""", encoding="utf-8")
    case = load_scenario(tmp_path / "s.yaml")
    assert [r.status for r in case.run()] == ["pass"]
    (tmp_path / "stepper.yaml").write_text("key: stepper\nid: 60\nvector: true\ncost: 7\nbase:\n  - {act: jump, slide: [0,-1]}\n")
    with pytest.raises(Exception, match="stepper.yaml: line 6.*field act"):
        load_scenario(tmp_path / "s.yaml")


def test_dump_scenario_is_a_loadable_file_with_checks() -> None:
    st = GAME.new_initial_state(GAME.rules({"start": "army"}))
    text = GAME.dump_scenario(st, "bc-dumped", "dumped", [{"play": ["3,10-3,8"], "to_move": "b"}])
    case = load_scenario_text(text, "<dump>")
    assert [r.status for r in case.run()] == ["pass"]
