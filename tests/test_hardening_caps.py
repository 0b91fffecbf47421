"""Issue 24: caps with errors before any work. Every numeric argument of every command is
range-checked in one line with exit status 2 (no traceback); workers stay a small multiple of
the cores (pool and local cluster); a batch must fit in memory; the game list is lazy."""

from __future__ import annotations

import multiprocessing
import time
import tracemalloc

import pytest

from workbench.__main__ import main
from workbench.core.cliargs import max_workers

BAD = [
    "bench --games -5", "bench --games 0", "bench --max-plies 0", "bench --seed 1e3", "bench --games 10000000",
    "perft --depth 7", "perft --depth -1", "perft --depth 99999999999999999999",
    "ladder --games 0", "ladder --games -3", "ladder --games x", "ladder --workers 1000", "ladder --max-plies 0",
    "trace --skill-trace mcts:iterations=50..100", "trace --skill-trace mcts:iterations=50..800 --games 0",
    "learn --games 5", "learn --rounds 99", "learn --name ../x.json --games 10",
    "agentbench --games -1", "agentbench --balance -1", "agentbench --memory -2",
    "agentbench --workers 1000", "agentbench --max-plies 0",
    "report g.parquet --out r --alpha nan", "report g.parquet --out r --alpha 0", "report g.parquet --out r --alpha 2",
    "simulate --games -5 --white random --black random --out OUT",
    "simulate --games 5 --white random --black random --out OUT --workers 1000",
    "simulate --games 5 --white random --black random --out OUT --workers -1",
    "simulate --games 5 --white random --black random --out OUT --max-plies 0",
    "simulate --games 5 --white random --black random --out OUT --max-plies 10000000",
    "simulate --games 5 --white random --black random --out OUT --flush-every nan",
    "simulate --games x --white random --black random --out OUT",
    "simulate --games 10000000 --white random --black random --out OUT --grid archer_range=2..10 aura_radius=0..10",
    "simulate --game pole --agents random --games 5 --out OUT --workers 1000",
    "simulate --game pole --agents random --games 10000000 --out OUT --grid start_coins=1..50 income=1..3",
    "simulate --game pole --agents random --games 1 --out OUT --grid start_coins=0..50 income=0..10 cost_B=1..10 "
    "cost_S=1..10",
    "check",
]


@pytest.mark.parametrize("line", BAD)
def test_a_bad_number_is_one_line_and_exit_2(line, tmp_path, capsys):
    argv = [str(tmp_path / "out.parquet") if a == "OUT" else a for a in line.split()]
    try:
        rc = main(argv)
    except SystemExit as exc:  # argparse's exit, through cliargs.Parser.error
        rc = exc.code
    out, err = capsys.readouterr()
    assert rc == 2
    lines = [x for x in (out + err).splitlines() if x.strip()]
    assert len(lines) == 1 and "error" in lines[0] and "Traceback" not in out + err, lines
    assert not (tmp_path / "out.parquet").exists()  # refused before any work


def test_workers_are_capped_before_any_process_starts():
    from workbench.simulate import SimulationError, simulate

    before = set(multiprocessing.active_children())
    for scheduler in (None, "local-cluster"):
        t0 = time.perf_counter()
        with pytest.raises(SimulationError, match=f"between 0 and {max_workers()}"):
            simulate(None, "random", "random", 4, workers=1000, scheduler=scheduler, progress=False)
        assert time.perf_counter() - t0 < 2.0
    assert set(multiprocessing.active_children()) == before
    print(f"workers capped at {max_workers()} (4 x {max_workers() // 4} cores)")


def test_a_batch_beyond_memory_is_refused_and_the_game_list_is_lazy():
    from workbench.games.terrafeud.engine import RulesConfig
    from workbench.simulate import SimulationError, simulate
    from workbench.simulate.core import make_specs
    from workbench.simulate.guard import max_total_games

    t0 = time.perf_counter()
    with pytest.raises(SimulationError, match="990,000,000 games"):
        simulate({"archer_range": list(range(2, 11)), "aura_radius": list(range(11))}, "random", "random",
                 10_000_000, progress=False)
    assert time.perf_counter() - t0 < 5.0
    with pytest.raises(SimulationError, match="cells; at most"):
        simulate({"archer_range": list(range(2, 11)), "aura_radius": list(range(11)), "hill_bonus": list(range(9)),
                  "aura_step": list(range(1, 11)), "order_radius": list(range(1, 11))}, "random", "random", 1,
                 progress=False)
    tracemalloc.start()
    specs = make_specs([RulesConfig(), RulesConfig(archer_range=3)], "random", "random", 5_000_000, 7, 300, False)
    assert len(specs) == 10_000_000
    assert specs[5_000_001].cell == RulesConfig(archer_range=3).label() and specs[-1].game_id == 9_999_999
    assert [s.game_id for s in specs[3:6]] == [3, 4, 5]
    assert tracemalloc.get_traced_memory()[1] < 1_000_000  # ten million games, no list of them
    tracemalloc.stop()
    assert 1 <= max_total_games() <= 5_000_000
    print(f"at most {max_total_games():,} games per batch on this machine")
