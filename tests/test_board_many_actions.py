"""A board's view costs bounded time and memory whatever the length of the game's legal list (issue 30, the
untrusted / bounded-cost rule): The Cursed Lands' setup phase lists 483,840 camps lazily, and the board never walks
them. It says how many there are, builds a camp click by click through the game's ``State.click_step`` (castle,
flags C S A R, the starting unit's hex, its kind by button) and accepts a camp typed in the game's notation."""

from __future__ import annotations

import json
import random
from itertools import count

import pytest

from workbench.core.protocol import CLICK_STEP_LIMIT
from workbench.games import get
from workbench.games.cursed_lands import actions as act
from workbench.games.cursed_lands.geometry import hex_name, hex_of
from workbench.widget import board_controller as bc
from workbench.widget.board import GameBoard
from workbench.widget.board_controller import MAX_CHOICES, MAX_VIEW_ACTIONS, GameBoardController


def send(b: GameBoard, **msg: object) -> dict:
    b._on_msg(b, msg, [])
    return b.view


@pytest.fixture
def no_walk(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The lazy camp list may be measured and indexed, never walked: iterating it fails the test; every item
    read by index is counted."""
    touched: list[int] = []
    plain = act.CampActions.__getitem__

    def walk(self: act.CampActions) -> None:
        raise AssertionError("the board walked the lazy list of camps")

    def item(self: act.CampActions, index: int) -> int:
        touched.append(index)
        return plain(self, index)

    monkeypatch.setattr(act.CampActions, "__iter__", walk)
    monkeypatch.setattr(act.CampActions, "__getitem__", item)
    return touched


def setup_board() -> GameBoard:
    return GameBoard("cursed-lands", seed=1, rules="setup_phase=true")


def test_the_first_setup_view_touches_no_camp_and_says_how_many(no_walk: list[int]) -> None:
    b = setup_board()
    v = b.view
    assert v["actions"] == {"total": 483_840, "listed": 0, "capped": True, "words": v["actions"]["words"]}
    assert v["actions"]["words"].startswith("483,840 legal actions, too many to list as buttons (over 20,000)")
    assert "clicking lit cells (next: the castle's hex on row 1)" in v["actions"]["words"]
    assert "notation" in v["actions"]["words"]
    assert v["buttons"] == [] and no_walk == []
    # the camp row of the side to move is lit: the castle is the first click
    assert v["lit"] == [hex_name(hex_of(c, 1)) for c in range(9)]
    assert len(json.dumps(v)) < 60_000  # the whole view, not 483,840 buttons
    assert MAX_VIEW_ACTIONS == CLICK_STEP_LIMIT < 483_840


def test_a_camp_is_built_by_clicks_through_the_page_messages(no_walk: list[int]) -> None:
    b = setup_board()
    c = b.controller
    row = ["e1", "b1", "d1", "f1", "h1"]  # castle, then the flags C S A R
    for k, name in enumerate(row):
        v = send(b, type="click", cell=name)
        assert v["selection"] == row[:k + 1] and v["level"] == "info"
        assert v["message"].endswith(["the C flag's hex on row 1", "the S flag's hex on row 1", "the A flag's hex on row 1",
                                      "the R flag's hex on row 1", "the hex of starting unit 1 of 1 (not the castle's)"][k])
        if k < 4:  # the castle and the flags are five different hexes
            assert sorted(v["lit"]) == sorted(h for h in (hex_name(hex_of(c_, 1)) for c_ in range(9)) if h not in row[:k + 1])
    # the starting unit goes on any camp hex but the castle's (flags included)
    assert sorted(v["lit"]) == sorted(h for h in (hex_name(hex_of(c_, 1)) for c_ in range(9)) if h != "e1")
    v = send(b, type="click", cell="a9")  # off the camp row: refused, the selection kept
    assert v["level"] == "warn" and "no legal action picks these cells" in v["message"] and v["selection"] == row
    v = send(b, type="click", cell="c1")
    texts = [x["text"] for x in v["buttons"]]
    assert texts == [f"camp castle=e1 C=b1 S=d1 A=f1 R=h1 unit={k}@c1" for k in "ACRS"]
    assert all("sets up its camp" in x["hint"] for x in v["buttons"])
    assert v["lit"] == [] and "choose one of 4 below" in v["message"]
    v = send(b, type="choose", index=texts.index("camp castle=e1 C=b1 S=d1 A=f1 R=h1 unit=S@c1"))
    assert v["message"].startswith("played camp castle=e1 C=b1 S=d1 A=f1 R=h1 unit=S@c1"), v["message"]
    st = c.state
    assert st.castle_of(0) == hex_of(4, 1) and st.flag_of(0, 0) == hex_of(3, 1) and st.flag_of(0, 2) == hex_of(1, 1)
    assert st.owner[hex_of(2, 1)] == 0 and st.kind[hex_of(2, 1)] == 0  # an S unit of p1 on c1
    # p2's camp row is lit now; its camp typed in the notation (one line, spaces and all) in the paste box
    assert v["lit"] == [hex_name(hex_of(c_, 9)) for c_ in range(9)]
    v = send(b, type="paste", text="camp castle=e9 C=b9 S=d9 A=f9 R=h9 unit=A@c9")
    assert v["level"] == "info" and st.phase == "play" and v["actions"]["capped"] is False
    assert v["actions"]["total"] == len(st.legal_actions()) == v["actions"]["listed"]
    assert no_walk == []
    v = send(b, type="undo")  # back in the setup: still bounded, the camp row lit again
    assert v["actions"]["capped"] and v["lit"] == [hex_name(hex_of(c_, 9)) for c_ in range(9)] and no_walk == []


def test_a_hover_and_a_refusal_are_bounded_too(no_walk: list[int]) -> None:
    b = setup_board()
    c = b.controller
    assert c.hover_reason("e1") == "e1: click 1, the castle's hex on row 1"
    assert "no legal action starts on this cell" in c.hover_reason("e5")
    v = send(b, type="click", cell="e5")
    assert v["level"] == "warn" and v["selection"] == []
    for what, msg in (("compare", {"change": "ap_per_turn=4"}), ("analysis", None)):
        if msg is None:
            with pytest.raises(Exception, match="483,840 legal actions here, too many to go through"):
                c.analyse(depth=1)
        else:
            v = send(b, type="compare", **msg)
            assert v["level"] == "error" and what in v["message"] and "483,840" in v["message"]
    assert no_walk == []


def test_every_camp_is_reachable_by_its_clicks() -> None:
    """The camp step completes exactly the camps the rules allow: 200 seeded camps of the lazy list, each reached
    by its own clicks among the 4 kinds; the step's every count times out to 483,840."""
    g = get("cursed-lands")
    st = g.new_initial_state(g.spec.defaults().replace(setup_phase=True), seed=0)
    legal = st.legal_actions()
    rng = random.Random(5)
    for _ in range(200):
        a = legal[rng.randrange(len(legal))]
        castle, flags, units = act.decode_camp(a, 1)
        clicks = [hex_of(castle, 1), *(hex_of(flags[k], 1) for k in act.CAMP_KIND_ORDER), *(hex_of(u, 1) for u, _ in units)]
        for k in range(len(clicks)):
            nxt, done, words = st.click_step(clicks[:k])
            assert clicks[k] in nxt and done == [] and words
        nxt, done, _ = st.click_step(clicks)
        assert nxt == [] and a in done and len(done) == 4 and all(x in legal for x in done)
    # the counts: 9 castles x 8 x 7 x 6 x 5 flags x 8 unit hexes x 4 kinds
    assert len(st.click_step([])[0]) == 9 and len(st.click_step([hex_of(4, 1)] * 1)[0]) == 8
    head = [hex_of(c, 1) for c in (4, 1, 3, 5, 7)]
    assert 9 * 8 * 7 * 6 * 5 * len(st.click_step(head)[0]) * len(st.click_step([*head, hex_of(0, 1)])[1]) == len(legal)
    assert st.click_step([hex_of(4, 1), hex_of(4, 1)])[:2] == ([], [])  # a hex twice
    assert st.click_step([*head, hex_of(4, 1)])[:2] == ([], [])  # the unit on the castle


def test_the_default_click_step_is_the_boards_own_index_for_a_short_list() -> None:
    """For a list under the limit the protocol's default builds actions from their click cells, as the board does."""
    g = get("big-chess")
    c = GameBoardController(g, rules=g.spec.defaults().replace(start="deployed"), seed=3)
    st = c.state
    nxt, done, _ = st.click_step([])
    assert sorted(c.names[x] for x in nxt) == sorted(c.view()["lit"]) and done == []
    target = next(a for a in st.legal_actions() if len(st.action_cells(a)) == 2)
    first, last = st.action_cells(target)
    assert first in nxt
    nxt, done, _ = st.click_step([first])
    c.click(c.names[first])
    assert sorted(c.names[x] for x in nxt) == sorted(c.view()["lit"]) and last in nxt
    assert target in st.click_step([first, last])[1] and st.click_step([first, last])[0] == []
    assert len(done) <= MAX_CHOICES


def test_a_list_without_a_length_is_counted_only_up_to_the_cap() -> None:
    pulled = count()

    def endless():  # a game whose legal list is an unbounded iterator
        while True:
            next(pulled)
            yield 0

    assert bc._bounded_len(endless()) == (MAX_VIEW_ACTIONS + 1, False)
    assert next(pulled) == MAX_VIEW_ACTIONS + 1  # the items pulled: the cap and one more, never the rest
    assert bc._bounded_len(range(10**12)) == (10**12, True)
