"""Big chess on random boards and positions: every legal action applies, undoes and round-trips.

Random terrain (all ten cell codes), random pieces of every card with random facings, levels, trophies,
moved flags, shadows and protection, 2 to 4 teams; then short random plays. The invariants are the
contract's: no piece ever stands on rock, embers or an altar; undo is exact; the scenario writer's
text loads back as the same state with the same legal actions.
"""

from __future__ import annotations

import random

from bc_helpers import load

from workbench.games.big_chess import GAME
from workbench.games.big_chess.boards import ALTAR, EMBERS, ROCK
from workbench.games.big_chess.cards import starter_cards
from workbench.games.big_chess.geometry import FACING_NAMES
from workbench.games.big_chess.scenario import PositionError, build_position


def _random_position(rng: random.Random) -> object:
    w, h = rng.randint(5, 9), rng.randint(5, 9)
    letters = "abcd"[: rng.randint(2, 4)]
    rows = []
    for y in range(h):
        row = []
        for x in range(w):
            if y == 0 and x < 2:
                row.append(letters[0])
            elif y == h - 1 and x >= w - 2:
                row.append(letters[1])
            elif len(letters) > 2 and x == 0 and y == h // 2:
                row.append(letters[2])
            elif len(letters) > 3 and x == w - 1 and y == h // 2:
                row.append(letters[3])
            else:
                row.append(rng.choice("00000000123456789" if rng.random() < 0.5 else "0000000345678"))
        rows.append("".join(row))
    portals = [(y, x) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "9"]
    if len(portals) % 2:
        y, x = portals[-1]
        rows[y] = rows[y][:x] + "0" + rows[y][x + 1:]
    teams = ",".join(letters) if rng.random() < 0.5 or len(letters) < 4 else letters[:2] + "," + letters[2:]
    cards = [c for c in starter_cards() if "king" not in c.tags]
    free = [f"{x},{y}" for y in range(h) for x in range(w) if rows[y][x] not in (ROCK, EMBERS, ALTAR)]
    rng.shuffle(free)
    pieces, levels, trophies, moved = {}, {}, {}, []
    for p in letters:
        pieces[free.pop()] = f"{p}:king"
    for _ in range(rng.randint(3, 12)):
        if not free:
            break
        cell = free.pop()
        card = rng.choice(cards)
        owner = rng.choice(letters)
        pieces[cell] = f"{owner}:{card.key}" + (f":{rng.choice(FACING_NAMES)}" if card.vector else "")
        if card.levels and rng.random() < 0.4:
            levels[cell] = rng.sample(list(card.levels), rng.randint(1, len(card.levels)))
        if rng.random() < 0.5:
            trophies[cell] = rng.randint(0, 40)
        if rng.random() < 0.5:
            moved.append(cell)
    pos = {"teams": teams, "board": rows, "pieces": pieces, "levels": levels, "trophies": trophies, "moved": moved,
           "treasury": {p: rng.choice([0, 10, 50, 300]) for p in letters},
           "to_move": rng.choice(letters), "turn": rng.randint(1, 30),
           "protected": [p for p in letters if rng.random() < 0.3]}
    rules = GAME.rules(dict({"jester_blocks": rng.choice(["enemies", "all"]),
                                          "lock_expiry": rng.choice(["creator_turn", "round_end"]),
                                          "king_pushable": rng.random() < 0.3, "victim_blocks_jumps": rng.random() < 0.3,
                                          "passable_targets": rng.random() < 0.3, "promotion_distance": rng.randint(0, 4),
                                          "prince_succession": rng.random() < 0.8}.items()))
    return build_position(rules, pos)


def test_random_positions_apply_undo_and_round_trip() -> None:
    rng = random.Random(2024)
    done = 0
    for _ in range(25):
        try:
            st = _random_position(rng)
        except PositionError:
            continue
        done += 1
        for _ply in range(8):
            if st.is_terminal():
                break
            legal = st.legal_actions()
            d = st.to_dict()
            for a in rng.sample(legal, min(6, len(legal))):
                st.apply_action(a)
                for c in st.pieces:
                    assert st.ctx.terrain[c] not in (ROCK, EMBERS, ALTAR), (a, c)
                st.undo_action()
                assert st.to_dict() == d, a
            if _ply % 3 == 0:
                again = load(GAME.dump_scenario(st, "bc-fuzz", "fuzz")).initial_state()
                assert again.position_dict() == st.position_dict()
                assert again.legal_actions() == legal
            st.apply_action(rng.choice(legal))
    assert done >= 12
