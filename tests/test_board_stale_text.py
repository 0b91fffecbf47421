"""Issue 30's "stale and wrong text" defects, kept fixed in every game (the four and an OpenSpiel game), through the
page's own messages: a message never outlives a later action (after Redo the board does not say "undone"), each
says who is to move now, a failed Compare leaves no earlier diff showing, and "new game" is said in the info
colour after an error."""

from __future__ import annotations

import pytest

from workbench.widget.board import GameBoard

# game -> (rules of a board, a rule change Compare accepts)
GAMES = {
    "pole": ("", "purchases_per_turn=2"),
    "cursed-lands": ("", "ap_per_turn=4"),
    "big-chess": ("start=deployed", "cost_knight=50"),
    "terrafeud": ("", "castling=sacrifice"),
    "openspiel:tic_tac_toe": ("", ""),
}


def send(b: GameBoard, **msg: object) -> dict:
    b._on_msg(b, msg, [])
    return b.view


def play_first(b: GameBoard) -> str:
    """The first legal action, played the way the page plays it: its cells clicked, or its button pressed."""
    c = b.controller
    st = c.state
    a = st.legal_actions()[0]
    text = st.action_to_string(a)
    ply = c.node.ply
    for cell in st.action_cells(a):
        if c.node.ply != ply:
            break
        send(b, type="click", cell=c.names[cell])
    if c.node.ply == ply:
        index = next(x["index"] for x in b.view["buttons"] if x["text"] == text)
        send(b, type="choose", index=index)
    assert c.node.ply > ply and b.view["level"] == "info", b.view["message"]
    return text


@pytest.mark.parametrize("game", sorted(GAMES))
def test_messages_follow_the_last_action_and_say_who_is_to_move(game: str) -> None:
    rules, change = GAMES[game]
    b = GameBoard(game, seed=2, rules=rules or None)
    first = play_first(b)
    after_first = b.view["to_move"]
    assert b.view["message"].startswith(f"played {first}")
    v = send(b, type="undo")
    assert v["message"] == f"undone; {v['to_move']} to move" and v["level"] == "info"
    v = send(b, type="redo")
    assert "undone" not in v["message"] and v["message"] == f"redone {first}; {after_first} to move", v["message"]
    second = play_first(b)
    assert "redone" not in b.view["message"] and b.view["message"].startswith(f"played {second}")
    v = send(b, type="goto", node=b.controller.tree.root.id)
    assert v["message"] == f"at the start; {v['to_move']} to move"
    # a refused click, then a legal action: the refusal does not stay
    send(b, type="click", cell="nowhere")
    assert b.view["level"] == "error"
    played = play_first(b)
    assert b.view["message"].startswith(f"played {played}") and b.view["level"] == "info"
    if change:  # a failed Compare clears the earlier diff, and says why in error red
        v = send(b, type="compare", change=change)
        assert v["diff"] and v["diff"]["change"] == change
        v = send(b, type="compare", change="no_such_rule=1")
        assert v["diff"] is None and v["level"] == "error" and "no_such_rule" in v["message"]
    v = send(b, type="new_game", seed="", rules=rules)
    assert v["message"].startswith("new game") and v["level"] == "info" and v["diff"] is None, v["message"]
