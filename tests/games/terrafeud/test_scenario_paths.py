"""TerraFeud's scenario folders moved under ``scenarios/terrafeud/`` (issue 29); the old paths still work.

``scenarios/moved.json`` maps each old folder to its new place; the tools' loader, ``check``, the game's
``start=`` and its pictures read an old path through it. A map cannot send a path outside its folder.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from workbench.core.scenario import moved_path
from workbench.scenarios import find_scenario_files, load_scenario
from workbench.scenarios.cli import main as check_main

ROOT = Path(__file__).resolve().parents[3]
OLD = ROOT / "scenarios" / "rulebook" / "castling-swap.yaml"
NEW = ROOT / "scenarios" / "terrafeud" / "rulebook" / "castling-swap.yaml"


def test_the_folders_moved_and_the_map_says_where() -> None:
    assert NEW.is_file() and not OLD.parent.exists()
    moved = json.loads((ROOT / "scenarios" / "moved.json").read_text())
    assert moved == {f: f"terrafeud/{f}" for f in ("rulings", "rulebook", "fine-print")}
    assert all((ROOT / "scenarios" / new).is_dir() for new in moved.values())


def test_a_scenario_loads_by_its_old_path(monkeypatch) -> None:
    old, new = load_scenario(OLD), load_scenario(NEW)
    assert old.id == new.id == "castling-swap" and old.path == NEW
    monkeypatch.chdir(ROOT)  # as a notebook or a script of round 2 wrote it, relative to the repository
    assert load_scenario("scenarios/rulebook/castling-swap.yaml").id == "castling-swap"
    assert find_scenario_files(["scenarios/rulings"]) == find_scenario_files(["scenarios/terrafeud/rulings"])
    assert check_main(["scenarios/fine-print"], out=io.StringIO()) == 0


def test_start_and_pictures_take_an_old_path(monkeypatch) -> None:
    from workbench.games.terrafeud.engine import make_game
    from workbench.games.terrafeud.viz import scenario_pictures

    monkeypatch.chdir(ROOT)
    old = make_game("start=scenarios/rulebook/order.yaml").new_initial_state()
    new = make_game("start=scenarios/terrafeud/rulebook/order.yaml").new_initial_state()
    assert old.squares == new.squares and old.to_move == new.to_move
    assert "<svg" in scenario_pictures("scenarios/rulebook/castling-swap.yaml")


def test_a_map_cannot_leave_its_folder(tmp_path: Path) -> None:
    (tmp_path / "inside").mkdir()
    (tmp_path / "inside" / "a.yaml").write_text("id: a\n")
    (tmp_path / "moved.json").write_text(json.dumps({"old": "inside", "up": "../x", "abs": "/etc"}))
    assert moved_path(tmp_path / "old" / "a.yaml") == tmp_path / "inside" / "a.yaml"
    assert moved_path(tmp_path / "up" / "a.yaml") == tmp_path / "up" / "a.yaml"
    assert moved_path(tmp_path / "abs" / "a.yaml") == tmp_path / "abs" / "a.yaml"
    (tmp_path / "moved.json").write_text("[1, 2")  # malformed: nothing moves, the caller says "not found"
    assert moved_path(tmp_path / "old" / "a.yaml") == tmp_path / "old" / "a.yaml"
