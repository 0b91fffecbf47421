"""Every scenario file shipped under ``scenarios/``, of every game, passes ``check`` (each game's own
scenario tests live in ``tests/games/<game>/``)."""

from __future__ import annotations

from pathlib import Path

from workbench.scenarios import find_scenario_files, load_scenario, scenario_status

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def test_every_shipped_scenario_passes() -> None:
    files = find_scenario_files([SCENARIOS])
    assert len(files) >= 40
    failures = []
    for path in files:
        results = load_scenario(path).run()
        if scenario_status(results) != "pass":
            failures.append(f"{path.name}: " + "; ".join(r.message for r in results if not r.ok))
    assert not failures, "\n".join(failures)
