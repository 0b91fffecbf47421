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


def test_engine_native_says_which_scenarios_ran_on_python(capsys, monkeypatch) -> None:  # noqa: ANN001
    """``check --engine native`` over a game whose checks have no native path says so on stderr, with the count,
    instead of letting "native" stand for a Python run (big chess's checks made Python-only here: its core runs
    them since issue 33, and then nothing is said of it)."""
    import io

    import pytest

    from workbench.games.big_chess.scenario import BigChessScenario
    from workbench.games.terrafeud.native import available
    from workbench.scenarios import cli

    if not available():
        pytest.skip("the native core is not built (make native)")
    n = len(find_scenario_files([SCENARIOS / "big-chess"]))
    args = [str(SCENARIOS / "big-chess"), str(SCENARIOS / "terrafeud" / "rulings"), "--engine", "native"]
    rc = cli.main(args, out=io.StringIO())
    err = capsys.readouterr().err
    assert rc == 0 and "big-chess scenario(s)" not in err, err
    monkeypatch.setattr(BigChessScenario, "engines", property(lambda self: ("python",)))
    rc = cli.main(args, out=io.StringIO())
    err = capsys.readouterr().err
    assert rc == 0 and f"{n} big-chess scenario(s) ran on the Python engine" in err, err
    assert "terrafeud scenario(s)" not in err  # TerraFeud's checks have a native path: nothing to say of them
