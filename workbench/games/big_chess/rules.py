"""The rules spec of big chess: every parameter and toggle of contract section 15, plus card costs.

Card costs are rules too (``cost_knight=40``): one ordinary int parameter per starter card whose
default is the card file's cost (``card`` is accepted for it), so a designer grids or tunes a piece's
price with the same ``--rules``/``--grid``/``--space`` mechanism as any other parameter. A card
replaced by a scenario's own card keeps that card's cost. Cross-field checks (``teams`` against the
board, ``start: army`` only on classic-2 ``a,b``, promotion targets, the deploy plan) run in the
spec's ``check``. ``teams`` accepts ``/`` for ``,`` (game strings and ``--grid`` split on commas).
"""

from __future__ import annotations

from typing import Any

from workbench.core.rulespec import Param, RulesError, RulesSpec

from .boards import BoardError, board_names, named_board, parse_teams
from .cards import MAX_LEVEL, starter_cards

GAME_NAME = "big-chess"
# army-2's cards (§14) in the order ``setup_armies`` places them: 270 of the 300 start treasury
ARMY_PLAN = ("rook", "knight", "lbishop", "infantry", "infantry", "infantry", "rook", "knight", "lbishop", "infantry",
             "infantry", "infantry")


def _targets(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        items = [v.strip() for v in value.split(",") if v.strip()]
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise RulesError(f"parameter promotion_targets={value!r:.40}: must be a list of card keys")
    if not items or len(items) > 64 or not all(isinstance(v, str) and v.isalnum() and v.islower() for v in items):
        raise RulesError(f"parameter promotion_targets={value!r:.40}: must be card keys such as knight,bishop")
    out: list[str] = []
    for v in items:
        if v not in out:
            out.append(v)
    return tuple(out)


def _levels(value: Any) -> tuple[int, ...]:
    if isinstance(value, str):
        text = value.strip().strip("[]")
        try:
            items = [int(v) for v in text.replace(" ", "").split(",") if v]
        except ValueError:
            raise RulesError(f"parameter fort_levels={value!r:.40}: must be level numbers such as 0,1") from None
    elif isinstance(value, (list, tuple)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        items = list(value)
    else:
        raise RulesError(f"parameter fort_levels={value!r:.40}: must be a list of level numbers")
    if not all(0 <= v <= MAX_LEVEL for v in items):
        raise RulesError(f"parameter fort_levels={value!r:.40}: levels are 0..{MAX_LEVEL}")
    return tuple(sorted(set(items)))


def _board(value: Any) -> str:
    if not isinstance(value, str) or value not in board_names():
        raise RulesError(f"parameter board={value!r:.40}: must be one of {', '.join(board_names())}")
    return value


def _teams(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > 80:
        raise RulesError(f"parameter teams={value!r:.40}: must be a team string such as ab,cd")
    # OpenSpiel game strings and --grid values split on commas, so a team string travels as ab/cd
    return value.strip().replace("/", ",")


def _card_cost(name: str, default: int, high: int = 100000):
    """Parser of ``cost_<card>``/``income_<card>``: a whole number, ``card`` meaning the card file's own value."""
    def parse(value: Any) -> int:
        if value is None or (isinstance(value, str) and value.strip().lower() in ("card", "none", "")):
            return default
        if isinstance(value, bool):
            raise RulesError(f"parameter {name}={value}: must be a whole number 0..{high} or card")
        try:
            n = int(value.strip()) if isinstance(value, str) else value
        except ValueError:
            raise RulesError(f"parameter {name}={value!r:.40}: must be a whole number 0..{high} or card") from None
        if isinstance(n, float) and n.is_integer():
            n = int(n)
        if not isinstance(n, int) or not 0 <= n <= high:
            raise RulesError(f"parameter {name}={value!r:.40}: must be a whole number 0..{high} or card")
        return n
    return parse


def _plan(value: Any) -> tuple[str, ...]:
    """``deploy_plan``: card keys in placing order (``rook,knight,...``; ``/`` for ``,`` in game strings)."""
    if isinstance(value, str):
        items = [v.strip() for v in value.replace("/", ",").split(",") if v.strip()]
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise RulesError(f"parameter deploy_plan={value!r:.40}: must be a list of card keys")
    if len(items) > 200 or not all(isinstance(v, str) and v.isalnum() and v.islower() for v in items):
        raise RulesError(f"parameter deploy_plan={value!r:.40}: must be card keys such as rook,knight,infantry")
    return tuple(items)


def _check(values: dict[str, Any]) -> None:
    board = named_board(values["board"])
    teams = values["teams"] or board.teams
    try:
        parse_teams(teams, board)
    except BoardError as exc:
        raise RulesError(f"parameter teams={teams}: {exc} (§3, B43)") from None
    if values["start"] == "army" and (values["board"] != "classic-2" or teams != "a,b"):
        raise RulesError("parameter start=army: the army start exists only on classic-2 with teams a,b (§14)")
    known = {c.key: c for c in starter_cards()}
    for key in values["promotion_targets"]:
        card = known.get(key)
        if card is not None and (not card.buyable or "pawn" in card.tags or "king" in card.tags):
            raise RulesError(f"parameter promotion_targets: {key} is not a buyable non-pawn card (B56)")
    for key in values["deploy_plan"]:
        card = known.get(key)
        if card is None or not card.buyable:
            raise RulesError(f"parameter deploy_plan: {key} is not a buyable card of the starter set")


def _params() -> list[Param]:
    p = [
        Param("king_cost", "int", 300, "the King's base cost = every player's starting treasury (B42)",
              "decided (text: start treasury = King's base cost)", 0, 10000),
        Param("strike_reward_pct", "int", 50, "share of the removed piece's current cost paid to the attacker",
              "text 9.3 (награда 50 %)", 0, 200),
        Param("vet_rate_pct", "int", 50, "level price as a share of the piece's current cost (B29)", "decided", 1, 200),
        Param("mine_income", "int", 10, "treasury per own piece on a mine at the start of its owner's turn", "decided (B28)", 0, 100),
        Param("turn_income", "int", 0, "treasury at the start of each own turn", "decided (6.3 lost)", 0, 100),
        Param("upkeep", "int", 0, "treasury paid per non-King piece at the start of each own turn", "decided (6.4 lost)", 0, 100),
        Param("victim_discount_pct", "int", 50, "transformation discount when only Victims and the King are left",
              "decided (text: превращение дешевеет; B31)", 0, 100),
        Param("promotion_distance", "int", 6, "cells a pawn must have travelled to promote", "text 9.2", 0, 64),
        Param("promotion_targets", "text", ("knight", "bishop", "rook", "queen"), "cards a pawn may promote into",
              "decided (list lost; B34, B56)", custom=_targets),
        Param("fort_levels", "text", (0, 1), "levels a piece on a fort has", "decided (text 10.1; B17)", custom=_levels),
        Param("max_turns", "int", 1000, "draw after this turn action (0 = none)", "decided (B46)", 0, 100000,
              limit=True),
        Param("quiet_limit", "int", 100, "draw after this many turn actions without a material change (0 = none)",
              "decided (B46)", 0, 100000, limit=True),
        Param("start", "choice", "setup", "setup phase on the board, the classic army (classic-2 a,b only), or "
              "deployed: every player's setup played by deploy_plan, then play (any board; the tools' batch start)",
              "decided (§14; deployed: tools)", choices=("setup", "army", "deployed")),
        Param("deploy_plan", "text", ARMY_PLAN, "start=deployed: cards each player places in this order while "
              "its treasury allows (King at the zone centre first, each card next to it, zone facing)",
              "decided (tools; the plan of army-2)", custom=_plan),
        Param("board", "text", "classic-2", "the board file (data/boards)", "decided (§14)", custom=_board,
              grid_values=tuple(board_names())),
        Param("teams", "text", "", "team string of a new game (empty = the board's own: a,b / ab,cd)", "decided (B43)",
              custom=_teams),
        Param("victim_blocks_jumps", "bool", False, "a Victim among a leap's over-cells or a hop blocks it",
              "text 9.1 (план)"),
        Param("pawn_promotion", "bool", True, "pawns promote (section 10.4)", "text 9.2 (план)"),
        Param("prince_succession", "bool", True, "a Prince becomes King when its King is lost", "text 11 (план)"),
        Param("jester_blocks", "choice", "enemies", "whose pieces an active Jester blocks", "B21", choices=("enemies", "all")),
        Param("lock_expiry", "choice", "creator_turn", "when a team-attack lock ends", "B24",
              choices=("creator_turn", "round_end")),
        Param("prince_buy_to_owner", "bool", False, "a Prince buy pays the old owner (false: the money is burned)", "B32"),
        Param("king_pushable", "bool", False, "a King can be pushed (true = the text's closed list)", "B12"),
        Param("passable_targets", "bool", False, "no push or Prince approach onto sand, swamp or forest", "B49"),
    ]
    for card in starter_cards():
        if card.buyable:
            p.append(Param(f"cost_{card.key}", "int", card.cost, f"base cost of {card.key} (card: the card file's own)",
                           "decided (B14; card data)", 0, 100000, custom=_card_cost(f"cost_{card.key}", card.cost)))
    for card in starter_cards():
        if card.income:
            p.append(Param(f"income_{card.key}", "int", card.income,
                           f"treasury per own {card.key} at the start of its owner's turn (card: the card file's own)",
                           "decided (B13, B28; card data)", 0, 10000,
                           custom=_card_cost(f"income_{card.key}", card.income, 10000)))
    return p


SPEC = RulesSpec(GAME_NAME, _params(), _check)
