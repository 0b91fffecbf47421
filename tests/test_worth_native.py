"""Restricted play on the native cores: each core's classifier is its Python twin, and a barred game is the same game.

Every game with a native core declares its classifier in Rust too (``native/src/<game>/classes.rs``), so
``ablate`` plays barred agents natively. Over random positions of every such game, the native classifier must
put every legal action in exactly the classes the Python one does; and an ablation game played natively must
write the very row the Python loop writes (same moves, tallies, forced moves), only ``engine`` and timings apart.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from workbench.games import get, names
from workbench.simulate.core import GameSpec

NATIVE = [g for g in map(get, names()) if g.native.exists and g.action_classes is not None and g.action_classes.classes]

# variants whose classes occur (faction abilities, counter-attacks), besides the defaults
VARIANTS = {"cursed-lands": [{}, {"factions": "orcs/dwarves", "counterattack": "melee"},
                             {"factions": "elves/humans", "counterattack": "melee"}],
            "big-chess": [{"start": "deployed"}, {"start": "army"}]}
POSITIONS = 8  # positions checked per variant (each with every legal action)


PENDING: dict[str, str] = {}  # a game whose core has no classifier yet: its reason
CASES = [pytest.param(g, marks=pytest.mark.xfail(strict=True, reason=PENDING[g.name])) if g.name in PENDING else g
         for g in NATIVE]


def bits(game, state, action) -> int:
    order = game.action_classes.names()
    return sum(1 << order.index(c) for c in game.action_classes.of(state, action))


def test_every_native_game_is_covered():
    names = {g.name for g in NATIVE}
    assert {"pole", "cursed-lands", "big-chess", "terrafeud"} <= names


@pytest.mark.parametrize("game", CASES, ids=lambda g: g.name)
def test_native_classifier_matches_python_on_random_positions(game):
    if not game.native.available():
        pytest.skip("native core not built")
    rng = random.Random(7)
    seen = 0
    classes_seen = 0
    for vi, variant in enumerate(VARIANTS.get(game.name, [{}])):
        rules = game.spec.make(variant)
        checked = 0
        for g in range(3):
            state = game.new_initial_state(rules, 100 * vi + g)
            for _ in range(rng.randrange(20, 140)):
                if state.is_terminal() or checked >= POSITIONS:
                    break
                if state.current_player() < 0:
                    outs = state.chance_outcomes()
                    state.apply_action(rng.choices([o for o, _ in outs], [p for _, p in outs])[0])
                    continue
                acts = list(state.legal_actions())
                if len(acts) <= 5000 and rng.random() < 0.3:  # a sample of positions, every legal action
                    native = game.native.state(state)
                    for a in acts:
                        want = bits(game, state, a)
                        got = game.native.class_bits(native, a)
                        assert got == want, (f"{game.name} {variant} ply {state.move_number()}: "
                                             f"{state.action_to_string(a)} native {got:b} python {want:b}")
                        classes_seen |= want
                    seen += 1
                    checked += 1
                state.apply_action(rng.choice(acts))
    assert seen >= POSITIONS
    assert classes_seen, "no classed action met: the positions say nothing"


def _spec(game: str, agent: str, bar: str, seed: int, rules: dict | None = None, max_plies: int = 400) -> GameSpec:
    sep = "," if ":" in agent else ":"
    agents = (f"{agent}{sep}bar={bar}", f"{agent}{sep}bar=none")
    return GameSpec(seed, "x", rules or {}, agents[0], agents[1], 1000 + seed, max_plies, False, "native",
                    game=game, agents=agents)


@pytest.mark.parametrize("game,agent,bar,rules", [
    ("pole", "greedy", "catapult_attack+buy_archer", None),
    ("cursed-lands", "greedy", "lay_forest+orcs_castle+counterattack",
     {"factions": "orcs/dwarves", "counterattack": "melee", "turn_limit": 40}),
    ("big-chess", "greedy", "strike+buy_victim", None),
    ("terrafeud", "greedy", "bridge_crossing+promotion", None),
])
def test_a_barred_game_plays_the_same_natively(game, agent, bar, rules):
    from workbench.study.ablate import play_ablation_game

    if not get(game).native.available():
        pytest.skip("native core not built")
    spec = _spec(game, agent, bar, 1, rules, max_plies=80)
    native = play_ablation_game(spec).row
    python = play_ablation_game(replace(spec, engine="python")).row
    assert (native["engine"], python["engine"]) == ("native", "python")
    assert not native.get("error"), native.get("error")
    skip = {"engine", "seconds", "wall_seconds"}
    diff = {k: (native.get(k), python.get(k)) for k in set(native) | set(python)
            if k not in skip and native.get(k) != python.get(k)}
    assert not diff
    seat = get(game).info(get(game).spec.make(spec.rules)).players[0]
    assert native[f"decisions_{seat}"] > 0
    for c in bar.split("+"):
        assert native[f"class_{c}_{seat}"] == 0  # the barred side never played a barred class


def test_ablate_runs_natively_and_says_so():
    from workbench.study.ablate import ablate

    if not get("pole").native.available():
        pytest.skip("native core not built")
    run = ablate("pole", "greedy", classes=["catapult_attack"], pairs=1, max_plies=200, scheduler="inprocess",
                 progress=False, engine="native")
    assert set(run.games["engine"]) == {"native"}
    assert len(run.games) == 3  # control + the barred side in each seat
    assert "catapult_attack" in run.text()


@pytest.mark.cluster
def test_ablate_runs_on_dask_and_resumes_on_the_pool_into_one_dataset(tmp_path):
    """One ablation dataset: played on a Dask cluster, a part lost, completed on the local pool by --resume;
    simulate's reader reads it and the worth is the same."""
    from workbench.balance.worth import worth_frame
    from workbench.simulate import read_results
    from workbench.study.ablate import ablate

    args = {"classes": ["catapult_attack"], "pairs": 2, "max_plies": 60, "progress": False}
    out = tmp_path / "pole"
    dask = ablate("pole", "greedy", out=out, scheduler="local-cluster", workers=1, **args)
    parts = sorted(out.glob("part-*.parquet"))
    assert parts and len(read_results(out)) == len(dask.games) == 2 * (1 + 1 * 2)
    parts[0].unlink()  # a lost part: its games are played again, the others are not
    pool = ablate("pole", "greedy", out=out, resume=True, workers=2, **args)
    assert len(read_results(out)) == len(dask.games)
    assert worth_frame(pool.result).equals(worth_frame(dask.result))
    assert set(read_results(out)["engine"]) == ({"native"} if get("pole").native.available() else {"python"})


def test_ablate_command_takes_the_engine(capsys):
    from workbench.study.ablate import main

    if not get("pole").native.available():
        pytest.skip("native core not built")
    args = ["--game", "pole", "--classes", "catapult_attack", "--pairs", "1", "--max-plies", "40", "--workers", "0"]
    assert main([*args, "--engine", "native"]) == 0
    assert "engine: 3 native" in capsys.readouterr().out
    assert main([*args, "--engine", "python"]) == 0
    assert "engine: 3 python" in capsys.readouterr().out
