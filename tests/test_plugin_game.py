"""A new game plugs in with no line outside its package and its registry entry (docs/adding-a-game.md).

Stones (``tests/tinygame``) declares what Pole declares: chance, a scenario key of its own (``heap:``), a
native backend that exists but is not built, a grid shorthand and a report part. Registered here as a
plug-in (``workbench.games.register``), it goes through check, simulate (every engine choice), report,
perft and rules as every game does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench import games
from workbench.balance import build_report
from workbench.core.protocol import NativeUnavailableError, resolve_engine
from workbench.scenarios.loader import load_scenario
from workbench.simulate import SimulationError, simulate

games.register("stones", "tinygame")


def test_its_own_scenario_key_is_read_by_the_generic_loader(tmp_path: Path) -> None:
    path = tmp_path / "heap.yaml"
    path.write_text("game: stones\nid: heap\ntitle: a heap of two\nrules: {coin: false}\nheap: 2\n"
                    "checks:\n  - play: [take, take]\n    pile: 0\n", encoding="utf-8")
    case = load_scenario(path)
    assert case.initial_state().pile == 2 and [r.status for r in case.run()] == ["pass"]
    path.write_text("game: stones\nid: bad\ntitle: bad\nheap: 0\n", encoding="utf-8")
    with pytest.raises(Exception, match="line 4.*heap"):
        load_scenario(path)


def test_native_declared_but_unbuilt_and_the_batch_plays_python(capsys: pytest.CaptureFixture[str]) -> None:
    game = games.get("stones")
    assert resolve_engine(game, "auto") == "python"
    with pytest.raises(NativeUnavailableError, match="native core of stones is not built"):
        resolve_engine(game, "native")
    with pytest.raises(SimulationError, match="not built"):
        simulate({"pile": ["small"]}, "random", "random", 1, game="stones", agents=("random",), workers=0,
                 progress=False, engine="native")
    df = simulate({"pile": ["small"]}, "random", "greedy", 4, game="stones", agents=("random", "greedy"),
                  workers=0, progress=False, seed=2)
    assert sorted(set(df["pile"])) == [1, 2, 3] and set(df["engine"]) == {"python"}  # the grid shorthand
    assert {"agent_first", "agent_second", "game"} <= set(df.columns)
    report = build_report(df, n_boot=20)
    assert report.title == "Stones (test game) balance report"
    assert "Stones: the pile" in [s.title for s in report.sections]  # its report part, laid out by balance
    from workbench.games.cli import rules_main
    from workbench.perft import main as perft

    assert perft(["--game", "stones", "--depth", "3"]) == 0 and rules_main(["--game", "stones"]) == 0
    out = capsys.readouterr().out
    assert "# stones, python engine" in out and "pile" in out


def test_its_own_agents_are_found_by_name_by_every_tool() -> None:
    """``GameDef.game_agents``: a new name (``hoarder``) and the game's own agent under a generic name (``greedy``),
    built by the one path (``make_protocol_agent``: simulate, the ladder, tune, the board); ``generic-greedy`` is
    the generic agent. A batch records the names as given, per seat."""
    from workbench.agents import agent_names, make_agent
    from workbench.agents.generic import GenericGreedy, make_protocol_agent
    from workbench.tune import tune  # noqa: F401 - tune checks its agents through the same path (simulate's)

    game = games.get("stones")
    assert type(make_protocol_agent("greedy", game)).__name__ == "LastStone"
    assert type(make_protocol_agent("hoarder", game)).__name__ == "Hoarder"
    assert isinstance(make_protocol_agent("generic-greedy", game), GenericGreedy)
    assert type(make_agent("greedy", game="stones")).__name__ == "LastStone"  # auto: the core is not built
    assert {"hoarder", "greedy", "generic-greedy"} <= set(agent_names("stones"))
    df = simulate({"coin": [False]}, games=2, game="stones", agents=("hoarder", "generic-greedy"), workers=0,
                  progress=False, seed=1)
    assert list(df["agent_first"]) == ["hoarder"] * 2 and list(df["agent_second"]) == ["generic-greedy"] * 2
    assert set(df["victory"]) != {"error"}
    with pytest.raises(SimulationError, match="unknown agent 'turtle' for stones"):
        simulate(None, games=1, game="stones", agents=("turtle",), workers=0, progress=False)


def test_the_plug_in_imports_core_only() -> None:
    """As every shipped game (``test_layering``): its package builds on ``workbench.core`` and nothing above."""
    import ast

    names = []
    for path in sorted((Path(__file__).parent / "tinygame").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and not node.level:
                names.append(node.module or "")
            elif isinstance(node, ast.Import):
                names += [a.name for a in node.names]
    ours = [n for n in names if n.split(".")[0] == "workbench"]
    assert ours and all(n.startswith("workbench.core") for n in ours), ours
