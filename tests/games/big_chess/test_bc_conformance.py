"""Conformance of the big-chess engine: random playthroughs, clone/undo, round trips, notation, encoding."""

from __future__ import annotations

import random

import pytest
from bc_helpers import eight_player_state, four_player_state, load

from workbench.games.big_chess import GAME


def _army() -> object:
    return GAME.new_initial_state(GAME.rules({"start": "army"}))


def _check_state(st, rng: random.Random, scenario_round_trip: bool) -> None:  # noqa: ANN001
    d = st.to_dict()
    back = GAME.state_from_dict(d)
    assert back.to_dict() == d
    legal = st.legal_actions()
    assert legal == sorted(legal)
    assert back.legal_actions() == legal
    assert st.clone().to_dict() == d
    if scenario_round_trip:
        text = GAME.dump_scenario(st, "bc-round-trip", "round trip")
        case = load(text)
        again = case.initial_state()
        assert again.position_dict() == st.position_dict()
        assert again.legal_actions() == legal
    for a in rng.sample(legal, min(4, len(legal))):
        assert st.string_to_action(a) == a
        assert st.string_to_action(a.upper() if a.startswith("+") else a) == a
        n = GAME.action_to_int(st, a)
        assert 0 <= n < GAME.num_distinct_actions(st.ctx.rules) or st.ctx.board.name != st.ctx.rules["board"]
        assert GAME.int_to_action(st, n) == a
        st.apply_action(a)
        st.undo_action()
        assert st.to_dict() == d


def _play(st, seed: int, plies: int, every: int = 1) -> object:  # noqa: ANN001
    rng = random.Random(seed)
    for ply in range(plies):
        if st.is_terminal():
            break
        _check_state(st, rng, ply % every == 0)
        st.apply_action(rng.choice(st.legal_actions()))
    _check_state(st, rng, True)
    return st


def test_two_players_round_trip_every_ply() -> None:
    _play(_army(), 1, 70)


def test_four_players_round_trip_every_ply() -> None:
    st = four_player_state(3)
    assert st.phase == "play" and st.turn() == 1
    _play(st, 4, 70)


def test_eight_players_round_trip_every_ply() -> None:
    st = eight_player_state(5)
    assert len(st.ctx.players) == 8 and st.phase == "play"
    _play(st, 6, 70)


def test_setup_phase_round_trip() -> None:
    st = GAME.new_initial_state(GAME.rules({"board": "classic-4"}))
    rng = random.Random(2)
    for _ in range(6):
        _check_state(st, rng, True)
        acts = st.legal_actions()
        st.apply_action(rng.choice([a for a in acts if not a.endswith("ready")] or acts))


@pytest.mark.parametrize("seed", [11, 12])
def test_random_games_finish_and_returns_shared(seed: int) -> None:
    rules = GAME.rules({"start": "army", "max_turns": 300})
    st = GAME.new_initial_state(rules)
    rng = random.Random(seed)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    r = st.returns()
    assert st.outcome() in ("win", "draw")
    assert sum(r) == 0
    assert st.legal_actions() == []


def test_four_player_returns_shared_by_team() -> None:
    st = four_player_state(7)
    rng = random.Random(8)
    st2 = st.clone()
    for _ in range(3000):
        if st2.is_terminal():
            break
        st2.apply_action(rng.choice(st2.legal_actions()))
    if st2.result == "win":
        r = st2.returns()
        for team in st2.ctx.team_members:
            assert len({r[p] for p in team}) == 1


def test_same_seed_same_game() -> None:
    def run() -> list[str]:
        st = _army()
        rng = random.Random(42)
        for _ in range(200):
            if st.is_terminal():
                break
            st.apply_action(rng.choice(st.legal_actions()))
        return list(st.log)

    assert run() == run()


def test_info_players_and_teams() -> None:
    info = GAME.info(GAME.rules({"board": "classic-4", "teams": "ac,bd"}))
    assert info.players == ("a", "b", "c", "d")
    assert info.teams == ((0, 2), (1, 3))
    assert GAME.info().num_players == 2
    info3 = GAME.info(GAME.rules({"board": "classic-4", "teams": "ab,c"}))
    assert info3.players == ("a", "b", "c") and info3.teams == ((0, 1), (2,))


def test_resign_and_undo() -> None:
    st = four_player_state(1)
    before = st.to_dict()
    st.resign("a")
    assert 0 in st.out and st.to_move == 1
    st.undo_action()
    assert st.to_dict() == before


def test_clone_and_original_undo_independently() -> None:
    st = _army()
    rng = random.Random(9)
    for _ in range(6):
        st.apply_action(rng.choice(st.legal_actions()))
    twin = st.clone()
    st.undo_action()
    for _ in range(8):
        st.apply_action(rng.choice(st.legal_actions()))
    twin.undo_action()
    twin_after_undo = twin.to_dict()
    twin.apply_action(twin.legal_actions()[0])
    twin.undo_action()
    assert twin.to_dict() == twin_after_undo
    ref = _army()
    for a in twin.log:
        ref.apply_action(a)
    assert ref.to_dict() == twin_after_undo


def test_twenty_five_players_in_five_teams() -> None:
    from workbench.games.big_chess import setup_armies
    from workbench.games.big_chess.scenario import build_position

    board = ["abcdefghij", "..........", "..........", "..........", "u........v", "w........x", "....y.....",
             "..........", "..........", "klmnopqrst"]
    teams = "abcde,fghij,klmno,pqrst,uvwxy"
    st = build_position(GAME.rules({"king_cost": 40}), {"phase": "setup", "teams": teams, "board": board,
                                                        "treasury": dict.fromkeys("abcdefghijklmnopqrstuvwxy", 40)})
    setup_armies(st)
    assert st.phase == "play" and len(st.ctx.players) == 25 and len(st.ctx.team_members) == 5
    assert st.ctx.team_members[4] == (20, 21, 22, 23, 24)
    _play(st, 13, 60, every=5)


def test_eight_player_board_by_rules() -> None:
    from workbench.games.big_chess import setup_armies

    rules = GAME.rules({"board": "free-8", "teams": "abcd,efgh"})
    info = GAME.info(rules)
    assert info.players == tuple("abcdefgh") and info.teams == ((0, 1, 2, 3), (4, 5, 6, 7))
    assert GAME.info(GAME.rules({"board": "free-8"})).num_players == 8
    st = setup_armies(GAME.new_initial_state(rules))
    assert st.phase == "play"
    _play(st, 21, 30, every=3)
