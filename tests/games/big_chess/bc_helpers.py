"""Shared builders for the big-chess tests: scripted setups for 2, 4 and 8 players, scenario loading."""

from __future__ import annotations

import random

from workbench.games.big_chess import GAME
from workbench.games.big_chess.state import BigChessState
from workbench.scenarios.loader import load_scenario_text

EIGHT_BOARD = [
    "aaaa....bbbb....",
    "................",
    "....1...6...9...",
    "..3....8.....2..",
    "c..............d",
    "c...4.......5..d",
    "c......7.......d",
    "c..9...........d",
    "e...........6..f",
    "e..2....8......f",
    "e.....5........f",
    "e..............f",
    "..4..1....3.....",
    "................",
    "gggg............",
    "............hhhh",
]


def scripted_setup(st: BigChessState, rng: random.Random, pieces_each: int = 6) -> BigChessState:
    """Place a King and a few random affordable pieces for every player, then ready everyone."""
    ctx = st.ctx
    for p, letter in enumerate(ctx.players):
        acts = st.legal_actions(p)
        king = [a for a in acts if "+king@" in a]
        st.apply_action(rng.choice(king))
        for _ in range(pieces_each):
            acts = [a for a in st.legal_actions(p) if ":+" in a]
            if not acts:
                break
            st.apply_action(rng.choice(acts))
        st.apply_action(f"{letter}:ready")
    return st


def eight_player_state(seed: int = 0) -> BigChessState:
    """An 8-player free-for-all on a 16x16 board, after a scripted setup."""
    from workbench.games.big_chess.scenario import build_position

    rules = GAME.rules({"king_cost": 200})
    st = build_position(rules, {"phase": "setup", "teams": "ab,cd,ef,gh", "board": EIGHT_BOARD,
                                "treasury": dict.fromkeys("abcdefgh", 200)})
    return scripted_setup(st, random.Random(seed), 4)


def four_player_state(seed: int = 0, teams: str = "ab,cd") -> BigChessState:
    """Classic-4 after a scripted setup."""
    st = GAME.new_initial_state(GAME.rules({"board": "classic-4", "teams": teams}))
    return scripted_setup(st, random.Random(seed), 6)


def load(text: str):  # noqa: ANN201
    """A scenario from YAML text through the workbench's generic loader."""
    return load_scenario_text(text, source="<test>")
