"""Big chess: the protocol methods the tools call (rows, glyphs, heat, evaluation, effects, explanations)."""

from __future__ import annotations

import random

from bc_helpers import four_player_state, load

from workbench.core.protocol import TERMINAL
from workbench.games import get
from workbench.games.big_chess import GAME

POSITION = """game: big-chess
id: bc-proto
title: protocol probe
position:
  board: ["bbbbbbb", ".......", "...6...", ".......", ".......", ".......", "aaaaaaa"]
  treasury: {a: 40}
  pieces: {"3,5": "a:infantry:N", "3,6": "a:king", "6,0": "b:king", "2,4": "b:infantry:S", "4,3": "b:jester", "3,2": "a:knight"}
  moved: ["4,3"]
  trophies: {"3,5": 5}
checks: []
"""


def _state():  # noqa: ANN202
    return load(POSITION).initial_state()


def test_registry_and_info() -> None:
    assert get("big-chess") is GAME and get("big_chess") is GAME
    assert GAME.info().players == ("a", "b") and GAME.info().teams == ((0,), (1,))
    assert GAME.spec["cost_knight"].default == 30 and GAME.rules("cost_knight=card")["cost_knight"] == 30


def test_glyphs_heat_and_evaluation() -> None:
    st = _state()
    glyphs = {g.cell: g for g in st.glyphs()}
    cell = st.ctx.board.parse_cell
    king = glyphs[cell("3,6")]
    assert king.piece == "Ki" and "$40" in king.badges and king.owner == 0
    assert glyphs[cell("3,5")].facing == 0.0 and "t5" in glyphs[cell("3,5")].badges
    assert glyphs[cell("3,2")].terrain == "mine" and glyphs[cell("0,0")].terrain == "start"
    threat = st.heat("threat", 0)
    assert threat.get(cell("3,5"), 0) >= 1  # the b infantry facing S strikes 3,5
    assert cell("2,4") in st.heat("control", 0)
    assert set(st.heat("buy", 0)) == {cell("2,5"), cell("4,5"), cell("2,6"), cell("4,6")}
    assert st.evaluate(0) == -st.evaluate(1)


def test_effects_cells_priority_and_explanations() -> None:
    st = _state()
    eff = st.action_effects("3,5x2,4")
    # the strike ends the turn, not the game (the protocol's ``ends``: the game), and says what it removes
    assert eff["removed"] == [st.ctx.board.parse_cell("2,4")] and eff["ends_turn"] and not eff["ends"]
    assert eff["text"].startswith("3,5x2,4: ") and "strikes" in eff["text"] and "on 2,4 (removed, 5.2)" in eff["text"]
    assert st.action_cells("3,5x2,4") == [st.ctx.board.parse_cell("3,5"), st.ctx.board.parse_cell("2,4")]
    assert st.action_priority("3,5x2,4") > st.action_priority("3,5-3,4")
    assert "not next to the King" in st.explain_illegal("+infantry@0,0")
    assert "blocked by an adjacent Jester" in st.explain_illegal("3,2-4,0") or "reaches" in st.explain_illegal("3,2-4,0")
    assert "no piece" in st.explain_illegal("0,1-0,2")
    assert "costs" in st.explain_illegal("+queen@2,5")


def test_game_row_and_event_row_after_a_game() -> None:
    st = four_player_state(2)
    rng = random.Random(5)
    events = []
    while not st.is_terminal() and st.turn() < 300:
        a = rng.choice(st.legal_actions())
        events.append(GAME.event_row(st, a))
        st.apply_action(a)
    row = GAME.game_row(st)
    for letter in "abcd":
        assert f"treasury_{letter}" in row and f"result_{letter}" in row
    assert "team_result_ab" in row and "team_result_cd" in row
    assert any(k.startswith("buys_") for k in row)
    assert "lead10_ab" in row
    assert {"kind", "piece", "turn", "treasury_a"} <= set(events[0])
    assert set(GAME.rule_words()) == set(st.counters())


def test_terminal_state_is_frozen() -> None:
    st = load("""game: big-chess
id: bc-end
title: end
position:
  board: ["bbb", "...", "aaa"]
  pieces: {"1,2": "a:king", "1,0": "b:king", "1,1": "a:veteran:N"}
  moved: ["1,1"]
""").initial_state()
    st.apply_action("1,1x1,0")
    assert st.current_player() == TERMINAL and st.returns() == [1.0, -1.0] and st.winner() == 0
    assert st.outcome() == "win" and st.victory() == "kings" and st.legal_actions() == []


def test_setup_armies_starts_play_for_four_and_eight_players() -> None:
    from workbench.games.big_chess import setup_armies

    st = setup_armies(GAME.new_initial_state(GAME.rules({"board": "classic-4", "teams": "ac,bd"})))
    assert st.phase == "play" and st.turn() == 1 and st.to_move == 0
    assert all(st._king_cell(p) is not None for p in range(4))
    assert st.treasury == [30, 30, 30, 30]
    assert "aKi" in st.observation_string()


def test_a_copy_shares_the_generated_actions_and_a_probe_does_not_generate_them_again(monkeypatch) -> None:  # noqa: ANN001
    """The board previews each lit placement by playing it on a copy (``action_effects``): the copy shares the
    position's generated actions, so the 4-player setup's thousands are generated once, not once per preview; a
    move on the copy leaves the original's actions as they were."""
    from workbench.games.big_chess.state import BigChessState

    st = GAME.new_initial_state(GAME.rules("board=classic-4"))
    legal = st.legal_actions()
    assert len(legal) > 1000 and st.phase == "setup"
    calls = []
    real = BigChessState._gen_setup
    monkeypatch.setattr(BigChessState, "_gen_setup", lambda self: calls.append(1) or real(self))
    for a in legal[:5]:
        assert st.action_effects(a) is not None
    assert calls == []
    other = st.clone()
    other.apply_action(legal[0])
    assert st.legal_actions() == legal and other.legal_actions() != legal


def test_each_seats_setup_actions_are_its_run_of_the_sorted_list_with_their_cells() -> None:
    """A seat's setup actions (``legal_actions(p)``: the board's offered seats) are exactly the actions that start
    with its letter, and each placement's click is its cell, along a four-player setup; placements come from the
    context's table, the same strings and tuples as written out."""
    st = GAME.new_initial_state(GAME.rules("board=classic-4"), seed=2)
    rng = random.Random(4)
    for _ in range(12):
        legal = st.legal_actions()
        for p, letter in enumerate(st.ctx.players):
            assert st.legal_actions(p) == [a for a in legal if a.startswith(letter + ":")]
        for a in rng.sample(legal, 20):
            kind, *rest = st._legal_map()[a]
            if kind == "place":
                p, k, c, f = rest
                card = st.ctx.cards[k]
                tail = f":{['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'][f]}" if card.vector else ""
                assert a == f"{st.ctx.players[p]}:+{card.key}@{st.ctx.names[c]}{tail}"
                assert st.action_cells(a) == [c]
        st.apply_action(rng.choice([a for a in legal if "+" in a]))


def test_the_bulk_action_cells_equal_each_actions_cells_in_setup_and_play() -> None:
    """``legal_action_cells`` (what the board asks of each new position, in one pass) equals the protocol's default,
    each legal action with its ``action_cells``, along random two- and four-player games from the setup into play."""
    from workbench.core.protocol import State

    for rules, seed in (("board=classic-4", 3), ("start=army", 1)):
        st = GAME.new_initial_state(GAME.rules(rules), seed=seed)
        rng = random.Random(seed)
        phases = set()
        for _ in range(40):
            if st.is_terminal():
                break
            phases.add(st.phase)
            assert st.legal_action_cells() == State.legal_action_cells(st)
            st.apply_action(rng.choice(st.legal_actions()))
        assert phases
