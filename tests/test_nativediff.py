"""``nativediff``: the one equality sweep loop (``workbench.core.nativediff``) and a small sample of it for every
game with a native core (the 1,000-game runs are ``make bench``, figures in docs/benchmarks.md)."""

from __future__ import annotations

import json

import pytest

from workbench.core.nativediff import GameCheck, checked, first_difference, main, sweep
from workbench.games import get, names
from workbench.nativediff import main as command

CORES = [n for n in names() if get(n).native.sweep]


def test_every_native_core_declares_its_sweep() -> None:
    assert len(CORES) >= 4
    assert all(get(n).native.exists for n in CORES)


@pytest.mark.parametrize("name", CORES)
def test_a_small_sample_of_each_game_is_equal_on_both_engines(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    if not get(name).native.available():
        pytest.skip(f"the native core of {name} is not built (make native)")
    assert command(["--game", name, "--games", "3", "--max-plies", "40", "--seed", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == name and out["games"] == 3 and out["differences"] == 0
    assert out["plies"] > 0 and out["legal_actions"] >= out["plies"] and out["cpu_seconds"] >= 0


def test_first_difference_names_the_path() -> None:
    assert first_difference({"a": [1, 2], "b": 1}, {"a": [1, 2], "b": 1}) == ""
    assert first_difference({"a": [1, 2]}, {"a": [1, 3]}) == ".a[1]: 2 (python) vs 3 (native)"
    assert first_difference({"a": 1}, {}) == ".a: only in python"
    assert "length 2 (python) vs 1 (native)" in first_difference([1, 2], [1])


def _fake(seed: int, max_plies: int) -> GameCheck:
    def body(check: GameCheck) -> None:
        check.plies, check.legal, check.result = max_plies, 3 * max_plies, "win"
        assert seed % 3, f"seed {seed} differs"

    return checked(seed, body)


def test_the_loop_counts_every_difference_and_keeps_its_seed(capsys: pytest.CaptureFixture[str]) -> None:
    s = sweep(_fake, 7, seed=0, max_plies=4)
    assert (s["games"], s["plies"], s["legal_actions"]) == (7, 28, 84)
    assert s["differences"] == 3 and [d["seed"] for d in s["first_differences"]] == [0, 3, 6]
    assert s["results"] == {"win": 4}
    assert main("fake", _fake, lambda: True, ["--games", "2", "--seed", "1"]) == 0
    assert main("fake", _fake, lambda: True, ["--games", "3", "--seed", "0"]) == 1
    assert "DIFFERENCE" in capsys.readouterr().out
    assert main("fake", _fake, lambda: False, ["--games", "1"]) == 2
    assert main("fake", _fake, lambda: True, ["--games", "0"]) == 2


def test_the_command_refuses_a_game_without_a_core(capsys: pytest.CaptureFixture[str]) -> None:
    assert command(["--game", "no-such-game"]) == 2
    assert "unknown game" in capsys.readouterr().err
