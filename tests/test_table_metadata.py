"""Tables carry their own metadata (game, rules spec, seats, cap, schema version) and older tables still load
through one migration function (``workbench.balance.table.migrate_table``), on tables stored by earlier versions:

- ``tests/data/round2_terrafeud_games.parquet``: a games table from before games had names (no ``game``,
  ``players``, ``outcome``, ``max_plies`` nor ``agent_<seat>`` columns, agents as ``white_agent``/``black_agent``);
- ``tests/data/round3_terrafeud.parquet/``: a dataset folder of the round-3 writer (no table metadata, no
  ``agent_<seat>``), with 4 of its batch's 6 games: ``--resume`` plays the 2 missing ones.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from workbench.balance import summarize_cells
from workbench.balance.table import migrate_table, table_meta
from workbench.simulate import read_results, simulate
from workbench.simulate.dataset import TABLE_KEY

DATA = Path(__file__).parent / "data"


def test_a_fresh_table_says_what_it_is_in_its_parquet_metadata(tmp_path: Path) -> None:
    out = tmp_path / "pole.parquet"
    simulate({"income": [1, 3]}, "random", "random", 2, seed=3, game="pole", agents=("random",), workers=0,
             out=out, progress=False, max_plies=60)
    part = next(out.glob("part-*.parquet"))
    meta = json.loads(pq.read_schema(part).metadata[TABLE_KEY])
    assert meta["game"] == "pole" and meta["seats"] == ["red", "black"] and meta["max_plies"] == 60
    assert meta["schema_version"] == 2 and "income" in [p["name"] for p in meta["rules_spec"]]
    assert table_meta(read_results(out)) == meta  # read_results hands it on; balance reads it, never guesses


def test_the_round2_table_migrates_and_summarizes() -> None:
    old = pd.read_parquet(DATA / "round2_terrafeud_games.parquet")
    assert "game" not in old.columns and "agent_white" not in old.columns
    new = migrate_table(old)
    assert set(new["game"]) == {"terrafeud"} and set(new["players"]) == {"white,black"}  # the registry's default
    assert new["agent_white"].equals(old["white_agent"]) and new["agent_black"].equals(old["black_agent"])
    assert list(old.columns) == [c for c in new.columns if c in old.columns]  # nothing renamed away
    assert len(summarize_cells(old)) == 2  # summer and winter


def test_resume_of_a_round3_dataset_plays_only_the_missing_games(tmp_path: Path) -> None:
    """Its run record (``_run.json``: no ``game``, the agents as ``white``/``black``) reads through the one migration
    of run records (``migrate_manifest``); the resumed run's record names the game and the seats' agents, and its
    new parts are of the same batch as the old one (which is kept, not set aside as damaged)."""
    import warnings

    from workbench.simulate.dataset import _run_of, migrate_manifest, run_manifest

    out = tmp_path / "old.parquet"
    shutil.copytree(DATA / "round3_terrafeud.parquet", out)
    before = read_results(out)
    assert len(before) == 4 and table_meta(before) is None  # written before the metadata
    old_record = json.loads((out / "_run.json").read_text())
    assert "game" not in old_record and "agents" not in old_record and old_record["white"] == "random"
    assert migrate_manifest(old_record) == {**run_manifest([], 3, 5, 40, False, "terrafeud", ("random", "greedy")),
                                            "cells": ["default", "season=winter"]}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no part of the old batch is set aside: only the 2 missing games play
        df = simulate({"season": ["summer", "winter"]}, "random", "greedy", 3, seed=5, max_plies=40, workers=0,
                      out=out, resume=True, progress=False)
    assert sorted(df["game_id"]) == list(range(6))
    assert df.set_index("game_id").loc[before.game_id, "seed"].tolist() == before.seed.tolist()  # the old rows kept
    record = json.loads((out / "_run.json").read_text())
    assert record["game"] == "terrafeud" and record["agents"] == ["random", "greedy"] and "white" not in record
    runs = {json.loads(_run_of(p))["agents"] == ["random", "greedy"] for p in out.glob("part-*.parquet") if _run_of(p)}
    assert runs == {True}
    again = read_results(out)
    assert table_meta(again)["game"] == "terrafeud"
    migrated = migrate_table(again)
    assert migrated["agent_white"].equals(migrated["white_agent"]) and set(migrated["agent_black"]) == {"greedy"}
