"""A click's view is sent to the page as a patch of the view the page holds (``board.view_patch``), applied as the
page applies it (``applyPatch`` in board.js, mirrored here); the whole view goes on load and on the page's ``full``."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from workbench.widget import bench
from workbench.widget.board import GameBoard


def apply_patch(view: dict[str, Any] | None, p: dict[str, Any]) -> dict[str, Any] | None:
    """board.js ``applyPatch``, line for line: None when the patch was not made against this view."""
    if not view or view.get("seq") != p["base"]:
        return None
    nxt = dict(view)
    for k in p["drop"]:
        nxt.pop(k, None)
    nxt.update(p["set"])
    for k, lst in p["lists"].items():
        hole = object()
        arr: list[Any] = list(view.get(k) or [])[:lst["n"]]
        arr += [hole] * (lst["n"] - len(arr))
        for i, item in lst["at"]:
            arr[i] = item
        if any(x is hole for x in arr):
            return None
        nxt[k] = arr
    nxt["seq"] = p["seq"]
    return nxt


def wire(board: GameBoard) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []
    board.comm.send = lambda data=None, metadata=None, buffers=None: sent.append(json.loads(json.dumps(data)))  # type: ignore[union-attr]
    return sent


@pytest.mark.parametrize(("game", "rules"), [("big-chess", "board=classic-4"), ("pole", None), ("cursed-lands", None),
                                             ("terrafeud", None), ("openspiel:tic_tac_toe", None)])
def test_the_page_rebuilds_every_view_from_patches(game: str, rules: str | None) -> None:
    """Along a random game (cells, buttons, undo, redo), the page's view built from the patches alone equals the
    kernel's whole view after every click; no view is sent whole after the first; the patches are smaller."""
    b = GameBoard(game, rules=rules, seed=2)
    sent = wire(b)
    page = json.loads(json.dumps(b.view))
    rng = random.Random(7)
    patched = whole = 0
    for _ in range(30):
        if b.view.get("over"):
            b._on_msg(b, {"type": "undo"}, [])
        else:
            b._on_msg(b, bench._message(b, rng), [])
        for msg in sent:
            assert msg["method"] == "custom" or "view" not in msg.get("state", {}), "a click's view was sent whole"
            if msg["method"] == "custom" and msg["content"].get("kind") == "view-patch":
                page = apply_patch(page, msg["content"])
                assert page is not None
                patched += b.sent_chars
                whole += len(json.dumps(b.view))
        sent.clear()
        assert page == json.loads(json.dumps(b.view))
    assert 0 < patched < whole


def test_a_page_that_lost_a_patch_asks_for_the_whole_view_and_the_ask_is_checked() -> None:
    """A patch made against another view does not apply (the page asks with ``full``); ``full`` sends the whole view;
    a ``full`` with fields is refused like any malformed message."""
    b = GameBoard("pole", seed=1)
    sent = wire(b)
    stale = json.loads(json.dumps(b.view))
    b._on_msg(b, {"type": "click", "cell": b.view["lit"][0]}, [])
    b._on_msg(b, {"type": "cancel"}, [])
    patches = [m["content"] for m in sent if m["method"] == "custom"]
    assert len(patches) == 2 and apply_patch(stale, patches[1]) is None
    sent.clear()
    b._on_msg(b, {"type": "full"}, [])
    assert [m["method"] for m in sent] == ["update"] and sent[0]["state"]["view"] == json.loads(json.dumps(b.view))
    sent.clear()
    b._on_msg(b, {"type": "full", "path": "/etc/passwd"}, [])
    assert "path" in b.view["message"] and b.view["level"] == "error"
