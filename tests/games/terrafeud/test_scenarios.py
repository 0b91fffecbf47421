"""TerraFeud's scenario files: its rulings and rulebook examples, a strict loader, the CLI's reports, dumps that read back."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from workbench.games.terrafeud.engine import new_game
from workbench.games.terrafeud.scenarios import dump_scenario
from workbench.scenarios import (
    ScenarioError,
    find_scenario_files,
    load_scenario,
    load_scenario_text,
)
from workbench.scenarios.cli import main

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = ROOT / "scenarios"

GOOD = """\
id: good-one
title: A good scenario
rules: {hill: false, swamp: false}
position:
  to_move: white
  pieces: {f1: F, f11: f, d4: K}
checks:
  - legal: [d4-d3]
    illegal: [d4-d5]
  - play: [f1-f2]
    pieces: {f2: F, f1: null}
    to_move: black
"""

# (name, text, line, words in the reason): each must give ERROR file: line N: reason.
BAD = [
    ("malformed", "id: bad\ntitle: [unclosed\n", 3, "malformed YAML"),
    ("unknown-key", GOOD.replace("rules:", "colour: red\nrules:"), 3, "unknown scenario key 'colour'"),
    ("unknown-position-key", GOOD.replace("  to_move: white", "  to_move: white\n  turn: 3"), 6, "unknown position key 'turn'"),
    ("unknown-check-key", GOOD.replace("    to_move: black", "    to_mvoe: black"), 12, "unknown check 2 key 'to_mvoe'"),
    ("unknown-hex", GOOD.replace("d4: K}", "j4: K}"), 6, "unknown hex 'j4'"),
    ("two-pieces", GOOD.replace("d4: K}", "d4: K, d4: p}"), 6, "appears twice"),
    ("two-pieces-case", GOOD.replace("d4: K}", "d4: K, D4: p}"), 6, "two pieces on d4"),
    ("unknown-letter", GOOD.replace("d4: K}", "d4: X}"), 6, "unknown piece letter 'X'"),
    ("unknown-toggle", GOOD.replace("hill: false", "hil: false"), 3, "unknown rule toggle 'hil'"),
    ("bad-toggle-value", GOOD.replace("hill: false", "castling: maybe"), 3, "castling='maybe'"),
    ("no-feudal", GOOD.replace("f1: F, ", ""), 6, "exactly one white feudal"),
    ("bad-action-text", GOOD.replace("[d4-d3]", "[d4-j3]"), 8, "legal"),
    ("illegal-in-play", GOOD.replace("[f1-f2]", "[f1-f3]"), 10, "f1-f3"),
    ("rolled-needs-seed", GOOD.replace("hill: false", "terrain: rolled"), 3, "needs a top-level seed"),
    ("river-piece", GOOD.replace("d4: K}", "e5: K}"), 6, "ordinary river"),
]


def test_rulings_cover_1_to_6_and_ruling_1_in_both_seasons() -> None:
    loaded = [load_scenario(p) for p in find_scenario_files([SCENARIOS / "terrafeud" / "rulings"])]
    assert {s.ruling for s in loaded} == {1, 2, 3, 4, 5, 6}
    assert {s.rules.season for s in loaded if s.ruling == 1} == {"summer", "winter"}
    assert all(s.title and s.source for s in loaded)


def test_run_reports_what_differed() -> None:
    sc = load_scenario_text(GOOD.replace("pieces: {f2: F, f1: null}", "pieces: {f2: K, f1: null}"), "x.yaml")
    results = sc.run()
    assert [r.status for r in results] == ["pass", "fail"]
    assert "f2: expected K, found F" in results[1].message
    assert results[1].line == 10


def test_overrides_change_outcome() -> None:
    sc = load_scenario(SCENARIOS / "terrafeud" / "rulebook" / "castling-swap.yaml")
    assert all(r.ok for r in sc.run())
    assert not all(r.ok for r in sc.run({"castling": "sacrifice"}))


def test_play_states_before_and_after_each_action() -> None:
    sc = load_scenario(SCENARIOS / "terrafeud" / "rulebook" / "archer-ultimatum.yaml")
    states = sc.play_states()
    assert len(states) == 3
    assert states[0].ply == 0 and states[-1].ply == 2
    assert sc.initial_state() is not sc.initial_state()


@pytest.mark.parametrize(("name", "text", "line", "words"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_an_error_with_file_and_line(name: str, text: str, line: int, words: str) -> None:
    where = f"{name}.yaml"
    try:
        results = load_scenario_text(text, where).run()
    except ScenarioError as exc:
        message = str(exc)
        assert exc.line == line
    else:
        errors = [r for r in results if r.status == "error"]
        assert errors, f"{name} should not load cleanly"
        message = f"{where}: {errors[0].message}"
        assert errors[0].line == line
    assert message.startswith(f"{where}: line {line}: "), message
    assert words in message


def test_cli_reports_each_bad_file_and_still_runs_the_rest(tmp_path: Path) -> None:
    (tmp_path / "a-good.yaml").write_text(GOOD)
    for name, text, _, _ in BAD:
        (tmp_path / f"{name}.yaml").write_text(text.replace("good-one", name))
    (tmp_path / "zz-good.yaml").write_text(GOOD.replace("good-one", "good-two"))
    out = io.StringIO()
    assert main([str(tmp_path)], out=out) == 1
    lines = out.getvalue().splitlines()
    assert len(lines) == len(BAD) + 2
    assert lines[0] == "PASS good-one" and lines[-1] == "PASS good-two"
    for name, _, line, _ in BAD:
        assert any(ln.startswith(f"ERROR {tmp_path / name}.yaml: line {line}: ") for ln in lines), name


def test_cli_exit_codes_and_duplicate_ids(tmp_path: Path) -> None:
    (tmp_path / "one.yaml").write_text(GOOD)
    assert main([str(tmp_path / "one.yaml")], out=io.StringIO()) == 0
    assert main([str(tmp_path), "--rules", "colour=red"], out=io.StringIO()) == 2
    assert main([str(tmp_path / "missing.yaml")], out=io.StringIO()) == 2
    (tmp_path / "two.yaml").write_text(GOOD)
    out = io.StringIO()
    assert main([str(tmp_path)], out=out) == 1
    assert "already used by" in out.getvalue()


def test_cli_rules_override_and_json(tmp_path: Path) -> None:
    (tmp_path / "swap.yaml").write_text((SCENARIOS / "terrafeud" / "rulebook" / "castling-swap.yaml").read_text())
    out = io.StringIO()
    assert main([str(tmp_path), "--rules", "castling=sacrifice", "--json"], out=out) == 1
    doc = json.loads(out.getvalue())
    assert doc["rules"] == {"castling": "sacrifice"}
    assert doc["summary"] == {"pass": 0, "fail": 1, "error": 0}
    (check,) = doc["scenarios"][0]["checks"]
    assert check["status"] == "fail" and "f1: expected I, found empty" in check["message"]


def test_cli_compare_lists_changed_checks(tmp_path: Path) -> None:
    for name in ("castling-swap", "castling-once", "order"):
        (tmp_path / f"{name}.yaml").write_text((SCENARIOS / "terrafeud" / "rulebook" / f"{name}.yaml").read_text())
    out = io.StringIO()
    assert main([str(tmp_path), "--compare", "castling=sacrifice"], out=out) == 0
    text = out.getvalue()
    assert "1 of 4 checks change outcome in 1 scenarios" in text
    assert "CHANGED castling-swap: pass -> fail" in text
    out = io.StringIO()
    main([str(tmp_path), "--compare", "castling=sacrifice", "--json"], out=out)
    assert [c["id"] for c in json.loads(out.getvalue())["changes"]] == ["castling-swap"]


def test_dump_round_trips_a_rich_position() -> None:
    st = new_game(seed=5)  # rolled terrain: the dump must keep the drawn hexes
    st.play("d2*d4", "e8-e7")
    text = dump_scenario(st, "dumped", "A dumped position", checks=[{"legal": ["f3-f5"]}])
    back = load_scenario_text(text)
    again = back.initial_state()
    assert again.key()[:-3] == st.key()[:-3]  # all but quiet/winner/victory (ply is not a position field)
    assert again.game.terrain == st.game.terrain
    assert back.run()[0].ok


def test_dump_round_trips_every_position_field() -> None:
    sc = load_scenario(SCENARIOS / "terrafeud" / "rulebook" / "castling-ultimatum-old-hex.yaml")
    st = sc.initial_state()
    st2 = load_scenario(SCENARIOS / "terrafeud" / "rulebook" / "promotion.yaml").initial_state()
    for state in (st, st2, load_scenario(SCENARIOS / "terrafeud" / "rulebook" / "castling-once.yaml").initial_state()):
        back = load_scenario_text(dump_scenario(state, "x", "y")).initial_state()
        assert back.key() == state.key()
