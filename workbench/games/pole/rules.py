"""Pole's rules spec: every parameter and toggle of RULES-CONTRACT.md section 10 as one ``RulesSpec``.

Values are validated one by one (``Param``) and then together (``_check``): fortresses must be
disjoint 2 x 2 blocks, the catapult's dead cells must leave its rays non-empty, and a ``start``
position must be a valid running position under the other values (P33, P40). Every error names the
parameter and what it accepts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench.core.rulespec import Param, RulesError, RulesSpec

from .board import NAMES, parse_cell, xy

_DATA = json.loads((Path(__file__).parent / "data" / "pieces.json").read_text(encoding="utf-8"))
KIND_DATA: tuple[dict[str, Any], ...] = tuple(_DATA["kinds"])
LETTERS = "".join(k["letter"] for k in KIND_DATA)  # "BSTIAHCP": kind index order everywhere
B, S, T, I, A, H, C, P = range(8)  # noqa: E741 - the rulebook letters
BUYABLE = LETTERS[:7]
KIND_WORDS = tuple(k["en"] for k in KIND_DATA)

SIDES = ("red", "black")


def _fortress(value: Any, name: str) -> str:
    """A 2 x 2 block of cells, canonical as ``e2,f2,e3,f3`` (rank by rank, file order)."""
    if isinstance(value, (list, tuple)):
        parts = [str(v).strip() for v in value]
    elif isinstance(value, str):
        parts = [p for p in value.replace(" ", ",").split(",") if p]
    else:
        raise RulesError(f"parameter {name}: must be four cells of a 2x2 block, e.g. e2,f2,e3,f3")
    cells = []
    for p in parts:
        c = parse_cell(p)
        if c is None:
            raise RulesError(f"parameter {name}: {p[:12]!r} is not a cell (a1..j10, lower case); "
                             "must be four cells of a 2x2 block")
        cells.append(c)
    if len(set(cells)) != 4 or len(cells) != 4:
        raise RulesError(f"parameter {name}: must be four different cells of a 2x2 block, e.g. e2,f2,e3,f3")
    xs = sorted({xy(c)[0] for c in cells})
    ys = sorted({xy(c)[1] for c in cells})
    if len(xs) != 2 or len(ys) != 2 or xs[1] - xs[0] != 1 or ys[1] - ys[0] != 1:
        raise RulesError(f"parameter {name}: {','.join(parts)} is not a 2x2 block (two adjacent files "
                         "and two adjacent ranks)")
    return ",".join(NAMES[c] for c in sorted(cells, key=lambda c: (xy(c)[1], xy(c)[0])))


def fortress_cells(value: str) -> tuple[int, ...]:
    """The cells of a canonical fortress value, in board order."""
    return tuple(sorted(parse_cell(p) for p in value.split(",")))  # type: ignore[misc]


def _draw_after(value: Any) -> int | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "null", "")):
        return None
    if isinstance(value, bool):
        raise RulesError(f"parameter draw_after={value}: must be none or a whole number from 1 to 1000")
    try:
        number = int(value) if not isinstance(value, float) or value.is_integer() else None
    except (TypeError, ValueError):
        number = None
    if isinstance(value, str) and not value.strip().lstrip("-").isdigit():
        number = None
    if number is None or not 1 <= number <= 1000:
        raise RulesError(f"parameter draw_after={str(value)[:20]}: must be none or a whole number from 1 to 1000")
    return number


def _plain(value: Any, depth: int = 0) -> Any:
    """A YAML mapping (with line marks) as plain JSON-ready data, bounded in depth."""
    if depth > 8:
        raise RulesError("parameter start: the position is nested too deeply")
    if isinstance(value, Mapping):
        return {str(k): _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    return value


def _start(value: Any) -> Any:
    """``classic``, an inline position mapping, or a path to a YAML file (checked in ``_check``)."""
    if isinstance(value, Mapping):
        return _plain(value)
    if isinstance(value, str):
        text = value.strip()
        if not text:
            raise RulesError("parameter start: must be classic, a position mapping, or a file path")
        if len(text) > 1024:
            raise RulesError("parameter start: a file path of at most 1024 characters")
        return "classic" if text.lower() == "classic" else text
    raise RulesError("parameter start: must be classic, a position mapping, or the path of a YAML file")


def _params() -> list[Param]:
    ps = [
        Param("start_coins", "int", 4, "coins of each side before Red's first income", "text", 0, 50),
        Param("income", "int", 1, "coins per own turn", "text", 0, 10),
        Param("purchases_per_turn", "int", 1, "purchases in the buy phase (0 disables buying)", "text", 0, 3),
    ]
    for k in KIND_DATA:
        if k["cost"] is not None:
            ps.append(Param(f"cost_{k['letter']}", "int", k["cost"], f"price of a {k['en']} in coins", "text", 0, 20))
    for k in KIND_DATA:
        ps.append(Param(f"damage_{k['letter']}", "int", k["damage"], f"damage of a {k['en']}", "text", 0, 20))
    for k in KIND_DATA:
        ps.append(Param(f"armour_{k['letter']}", "int", k["armour"], f"armour of a {k['en']}", "text", 0, 20))
    ps += [
        Param("archer_orth", "int", 3, "ARCHER zone reach along ranks and files (A, P, T)", "text", 1, 9),
        Param("archer_diag", "int", 2, "ARCHER zone reach along diagonals (A, P, T)", "text", 1, 9),
        Param("ride_orth", "int", 3, "RIDE reach along ranks and files (H, P)", "text", 1, 9),
        Param("ride_diag", "int", 2, "RIDE reach along diagonals (H, P)", "text", 1, 9),
        Param("catapult_orth", "int", 4, "CATAPULT zone reach along ranks and files", "text", 2, 9),
        Param("catapult_diag", "int", 3, "CATAPULT zone reach along diagonals", "text", 2, 9),
        Param("catapult_dead", "int", 1, "cells nearest the catapult on each ray that are not in its zone", "text", 0, 3),
        Param("tower_infantry", "int", 2, "own infantrymen adjacent to a tower's cell (at least)", "text", 0, 8),
        Param("fortress_red", "text", "e2,f2,e3,f3", "Red fortress, a 2x2 block (P44)", "decided",
              custom=lambda v: _fortress(v, "fortress_red")),
        Param("fortress_black", "text", "e8,f8,e9,f9", "Black fortress, a 2x2 block disjoint from Red's (P44)",
              "decided", custom=lambda v: _fortress(v, "fortress_black")),
        Param("start", "path", "classic", "start position: classic (Princes only, P34), a position mapping, "
              "or a YAML file (P33)", "decided", custom=_start),
        Param("max_turns", "int", 400, "simulation cap in turns, both sides together (result unfinished)",
              "decided", 1, 10000),
        Param("draw_after", "int", None, "quiet turns (no removal) before a draw; none = never", "decided", 1, 1000,
              custom=_draw_after, limit=True),
        Param("attack_mode", "choice", "single", "one target per attack, or every enemy in the zone (ax*)",
              "decided", choices=("single", "all")),
        Param("shot_blocking", "choice", "none", "whether pieces block ARCHER/CATAPULT zones", "decided",
              choices=("none", "all", "except_catapult")),
        Param("ride_jump", "bool", False, "whether H and P pass over pieces", "decided"),
        Param("fortress_rounding", "choice", "exact", "halving of odd damage in a fortress (exact = up)", "decided",
              choices=("exact", "down")),
        Param("income_timing", "choice", "start", "income before or after the side acts", "decided",
              choices=("start", "end")),
        Param("turn_order", "choice", "buy_first", "purchase before or after the action", "decided",
              choices=("buy_first", "act_first")),
        Param("placement_fortress", "choice", "own", "placement zone around the own fortress, or either (P45)",
              "decided", choices=("own", "any")),
        Param("fortress_buildings", "bool", True, "whether B, S, T may be placed on fortress cells (P46)", "text"),
        Param("fortress_inside", "choice", "full", "damage from inside the target's own fortress (P47)", "text",
              choices=("full", "halved")),
    ]
    return ps


def _check(values: dict[str, Any]) -> None:
    """Cross-field rules (section 10, P40)."""
    red = set(fortress_cells(values["fortress_red"]))
    black = set(fortress_cells(values["fortress_black"]))
    if red & black:
        raise RulesError(f"parameter fortress_black={values['fortress_black']}: overlaps fortress_red="
                         f"{values['fortress_red']}; the fortresses must be disjoint 2x2 blocks")
    dead = values["catapult_dead"]
    for name in ("catapult_orth", "catapult_diag"):
        if dead >= values[name]:
            raise RulesError(f"parameter catapult_dead={dead}: must be below {name}={values[name]} "
                             f"(else that ray of the catapult is empty); allowed 0 to {values[name] - 1}")
    if values["start"] != "classic":
        from .position import check_start  # the position reader needs the other values

        check_start(values)


SPEC = RulesSpec("pole", _params(), check=_check)
