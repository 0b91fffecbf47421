"""Issue 13, game records: `load_record` answers every bad file with its own error, naming the field."""

from __future__ import annotations

import copy
import json
import os
import random

import pytest

from workbench.games.terrafeud.engine import RecordError, load_record, load_record_text, new_game, record_of
from workbench.games.terrafeud.engine.serialize import MAX_RECORD_BYTES


@pytest.fixture(scope="module")
def good() -> dict:
    st = new_game("hill=false,swamp=false")
    rng = random.Random(1)
    for _ in range(6):
        st.apply(rng.choice(st.legal_actions()))
    return record_of(st)


def _set(path: str, value):  # noqa: ANN001, ANN202 - a tiny record-editing helper
    def edit(d: dict) -> None:
        *parents, last = path.split(".")
        for p in parents:
            d = d[p]
        d[last] = value
    return edit


CASES = {
    "start": (_set("start", [1]), "start must be a mapping (the start position), not a list"),
    "terrain": (_set("terrain", "x"), "terrain must be a mapping with hills and swamps, not text"),
    "terrain-hills": (_set("terrain.hills", ["h4"]), "terrain.hills must be a mapping, not a list"),
    "markers": (_set("start.markers", ["d2"]), "start.markers must be a mapping, not a list"),
    "destroyed": (_set("start.destroyed", ["C"]), "start.destroyed must be a mapping of side to piece letters"),
    "destroyed-side": (_set("start.destroyed", {"white": "C"}), "start.destroyed.white must be a list, not text"),
    "pieces-value": (_set("start.pieces", {"f1": 5}), "start.pieces.f1 must be text, not a number"),
    "result": (_set("result", [1]), "result must be a mapping (winner, victory, plies), not a list"),
    "actions-7": (_set("actions", 7), "actions must be a list of actions in notation, not a number"),
    "action-type": (_set("actions", [{"x": 1}]), "actions (ply 1) must be text, not a mapping"),
    "seed-abc": (_set("seed", "abc"), "seed must be a whole number or null, not text"),
    "version-99": (_set("version", 99), "record version 99 is not one this workbench reads (1)"),
    "rules-contradict": (_set("rules.season", "winter"), "rules and start.rules disagree on season"),
    "ply": (_set("start.ply", -3), "start.ply must be between 0 and"),
    "long-text": (_set("actions", ["f3-f4" * 100]), "actions (ply 1) is 500 characters long"),
    "adjacent-feudals": (_set("start.pieces", {"f5": "F", "f6": "f"}), "feudals on f5 and f6 are adjacent"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_wrong_fields_are_record_errors_naming_the_field(tmp_path, good, name):
    edit, message = CASES[name]
    data = copy.deepcopy(good)
    edit(data)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError) as info:
        load_record(path)
    assert str(info.value).startswith(f"{path}: ") and message in str(info.value), str(info.value)
    with pytest.raises(RecordError, match="^record: "):
        load_record(data)  # the same checks on a dict


def test_the_good_record_still_loads(tmp_path, good):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(good))
    assert load_record(path).ply == 6


def test_files_that_are_not_records(tmp_path):
    binary = tmp_path / "binary.json"
    binary.write_bytes(bytes(range(256)) * 8)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    secret = tmp_path / "secret.json"
    secret.write_text("root:$6$s3cr3t-hash:19000:0:99999:7:::\n")
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    big = tmp_path / "big.json"
    big.write_text(" " * (MAX_RECORD_BYTES + 1))
    expected = {
        binary: "not UTF-8 text", deep: "nested too deeply", secret: "not a JSON game record",
        fifo: "not a regular file", big: f"the limit is {MAX_RECORD_BYTES:,}", tmp_path: "not a regular file (it is a folder)",
    }
    for path, message in expected.items():
        with pytest.raises(RecordError) as info:
            load_record(path)
        assert message in str(info.value), str(info.value)
        text = str(info.value).replace(str(path), "")
        assert "s3cr3t" not in text and "root" not in text


def test_uploaded_text_goes_through_the_same_checks(good):
    assert load_record_text(json.dumps(good).encode()).ply == 6
    with pytest.raises(RecordError, match="^upload: not UTF-8 text"):
        load_record_text(b"\xff\xfe", "upload")
