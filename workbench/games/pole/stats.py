"""Pole's table columns: a finished game's row and one event's row (issue 19).

Game rows: the victory kind (prince, draw, unfinished), turns, coins spent, purchases per kind, and
attacks made, succeeded and expected for each side, with **luck** = pieces removed minus expected
removals (the sum of the success probabilities of the attacks made): "was that game decided by dice?".
Event rows carry the action in the contract's notation with its dice (``e5xe9 6:2`` on the chance
outcome's row; the protocol's ``action`` column has ``e5xe9`` then ``6:2``), so a game replays from its
events alone (``simulate.protocol_play.replay_events``); a roll's row names the cells and letters it removed.
"""

from __future__ import annotations

from typing import Any

from .board import NAMES
from .rules import BUYABLE, SIDES
from .state import ALL0, ATT0, CI, OVER_PHASE, PHASES, PoleState, action_text, dice_text, letter

_KIND_COUNTERS = ("buy_barracks", "buy_stable", "buy_tower", "buy_infantryman", "buy_archer", "buy_horseman",
                  "buy_catapult")


def side_stats(state: PoleState, side: int) -> dict[str, Any]:
    """One side's economy and dice figures from the state's counters."""
    cnt = state.cnt

    def get(name: str) -> int:
        return cnt[2 * CI[name] + side]

    expected = get("expected_36") / 36.0
    return {
        "coins_spent": get("coins_spent"),
        "purchases": get("purchase"),
        **{f"bought_{letter}": get(name) for letter, name in zip(BUYABLE, _KIND_COUNTERS, strict=True)},
        "attacks": get("attack"),
        "attacks_succeeded": get("attack_hit"),
        "removed": get("removed"),
        "attacks_expected": round(expected, 6),
        "luck": round(get("removed") - expected, 6),
        "halved": get("fortress_halving"),
        "moves": get("move"),
        "prince_moves": get("prince_move"),
        "coins_left": state.coins[side],
    }


def game_row(state: PoleState) -> dict[str, Any]:
    """Columns for a game's row: ``victory_kind``, ``turns``, then each side's figures as ``<name>_red``/``_black``."""
    row: dict[str, Any] = {
        "victory_kind": state.victory_kind if state.phase == OVER_PHASE else "unfinished",
        "turns": state.turn_no,
        "winner_side": SIDES[state.winner_side] if state.winner_side is not None else None,
    }
    for side, name in enumerate(SIDES):
        for key, value in side_stats(state, side).items():
            row[f"{key}_{name}"] = value
    row["coins_spent"] = row["coins_spent_red"] + row["coins_spent_black"]
    row["attacks"] = row["attacks_red"] + row["attacks_black"]
    row["attacks_succeeded"] = row["attacks_succeeded_red"] + row["attacks_succeeded_black"]
    row["attacks_expected"] = round(row["attacks_expected_red"] + row["attacks_expected_black"], 6)
    row["luck_diff"] = round(row["luck_red"] - row["luck_black"], 6)  # Red's luck minus Black's
    return row


def event_row(state: PoleState, action: Any) -> dict[str, Any]:
    """Columns for one event (called before ``action`` is applied): notation with dice, phase, odds."""
    row: dict[str, Any] = {"phase": PHASES[state.phase], "turn_number": state.turn_no, "side": SIDES[state.to_move],
                           "notation": action_text(state, action), "dice": "", "chance_36": None, "removed": "",
                           "removed_kinds": "", "coins_red": state.coins[0], "coins_black": state.coins[1]}
    if state.pending >= 0:
        row["phase"] = "dice"
        row["dice"] = dice_text(action)
        hits = state._hits(action)
        row["removed"] = ",".join(NAMES[c] for c in hits)
        row["removed_kinds"] = ",".join(letter(state.board[c]) for c in hits)  # p on d10: Black's Prince died there
    elif isinstance(action, int) and action >= ATT0:
        a = action - ALL0 if action >= ALL0 else (action - ATT0) // 100
        targets = state.zone_targets(a) if action >= ALL0 else [(action - ATT0) % 100]
        row["chance_36"] = sum(state.success_count(a, t) for t in targets)
    return row
