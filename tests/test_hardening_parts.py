"""Issue 24: no batch hangs on one file. A finished run merges its parts into small parts and
keeps the originals until the merge reads back; a damaged part is named by ``read_results`` and
``--resume`` plays its games again."""

from __future__ import annotations

import warnings

import pytest

from workbench.__main__ import main
from workbench.games.terrafeud.engine import RulesConfig
from workbench.simulate import core, dataset, read_results, simulate
from workbench.simulate.core import DamagedPartError, _parts


def _truncate(path, keep: float = 0.5) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])


def test_a_truncated_part_is_named_and_recovered_by_resume(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(dataset, "MERGE_ROWS", {"game_id": 4, "ply": 60})
    out = tmp_path / "run.parquet"
    kw = {"workers": 0, "progress": False, "max_plies": 40, "events": True, "seed": 5, "flush_seconds": 1e-6}
    first, _ = simulate(None, "random", "greedy", 12, out=out, **kw)
    parts = _parts(out)
    assert len(parts) == 3 and len(first) == 12  # 12 games in merged parts of 4
    victim = parts[1]
    lost = set(core._read_part(victim, columns=["game_id"])["game_id"].to_pylist())
    _truncate(victim)
    with pytest.raises(DamagedPartError) as err:
        read_results(out)
    assert victim.name in str(err.value) and "--resume" in str(err.value)
    # the report command says the same in one line, no traceback
    assert main(["report", str(out), "--out", str(tmp_path / "rep")]) == 1
    assert victim.name in capsys.readouterr().err
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again, events = simulate(None, "random", "greedy", 12, out=out, resume=True, **kw)
    assert any(victim.name in str(w.message) for w in caught)
    assert (out / (core.DAMAGED_PREFIX + victim.name)).exists()  # set aside, not deleted
    cols = ["game_id", "seed", "winner", "victory", "plies"]
    assert again[cols].equals(first[cols])  # the same 12 games, the lost 4 replayed from their seeds
    assert set(events.game_id) == set(range(12))
    replayed = again[again.game_id.isin(lost)]
    assert len(lost) == 4 and len(replayed) == 4
    print(f"truncated part {victim.name}: {len(lost)} games lost, all {len(again)} back after --resume")


def test_a_merge_that_does_not_read_back_keeps_the_originals(tmp_path, monkeypatch):
    out = tmp_path / "run.parquet"
    writer = core.PartWriter(out, events=False, flush_seconds=1e9, flush_games=3, manifest={"x": 1})
    for spec in core.make_specs([RulesConfig()], "random", "random", 7, 1, 20, False):
        writer.add(core.play_game(spec))
    writer.flush()
    originals = sorted(p.name for p in _parts(out))
    assert len(originals) == 3

    def bad_read(part, **kwargs):
        if "merged" in part.name:
            raise DamagedPartError(part, "simulated bad disk")
        return dataset.pq.read_table(part, **kwargs)

    monkeypatch.setattr(dataset, "_read_part", bad_read)
    core.compact_dataset(out, core.games_schema("terrafeud"), ["game_id"])
    assert sorted(p.name for p in _parts(out)) == originals  # nothing lost, nothing half-merged
    monkeypatch.undo()
    core.compact_dataset(out, core.games_schema("terrafeud"), ["game_id"])
    assert [p.name.endswith("-merged.parquet") for p in _parts(out)] == [True]
    assert len(read_results(out)) == 7


def test_a_truncated_events_part_replays_the_games_it_held(tmp_path, monkeypatch):
    monkeypatch.setattr(dataset, "MERGE_ROWS", {"game_id": 4, "ply": 60})
    out = tmp_path / "run.parquet"
    kw = {"workers": 0, "progress": False, "max_plies": 30, "events": True, "seed": 9, "flush_seconds": 1e-6}
    first, first_events = simulate(None, "random", "random", 6, out=out, **kw)
    event_parts = _parts(core.events_path(out))
    assert len(event_parts) >= 2
    _truncate(event_parts[0])
    with pytest.raises(DamagedPartError, match=event_parts[0].name):
        core.read_events(out)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        again, events = simulate(None, "random", "random", 6, out=out, resume=True, **kw)
    cols = ["game_id", "seed", "winner", "plies"]
    assert again[cols].equals(first[cols])
    assert events[["game_id", "ply", "action"]].equals(first_events[["game_id", "ply", "action"]])
