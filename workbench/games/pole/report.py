"""Pole's own sections of a balance report (``GameDef.report_sections``): luck, the turtle, batch maps.

Standard library only (the game layer has no pandas): the rows arrive as dicts and the statistics are
the closed forms the workbench's balance module uses too (Wilson score intervals, Newcombe's hybrid
interval for a difference, the two-proportion z-test, Fisher's z for a correlation).

- **Luck**: per game and side, pieces removed minus the expected removals of the attacks it made
  (``luck_red``, ``luck_black``: the sum over its rolls of success - probability). A decided game
  whose winner was at least ``DICE_MARGIN`` removals luckier than the loser is called *decided by
  dice*: without that surplus the loser would have matched the winner's expected removals.
- **Decisiveness and the turtle**: the share of games that reached the turn cap (``max_turns``, or
  the batch's ply cap), with its interval, and for every toggle or parameter that varies, how each
  value moves that share against the rulebook value.
- **Maps**: where Princes were destroyed and where purchases were placed, from the events table.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from workbench.core.protocol import ReportPart

from .board import BY_NAME
from .rules import SIDES, SPEC

Z95 = 1.959963984540054
DICE_MARGIN = 1.0  # removals of luck surplus that call a game "decided by dice"


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of k successes in n (0..1); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float]:
    """Newcombe's hybrid score interval of p2 - p1 (method 10), from the two Wilson intervals."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p2 - p1
    return d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2), d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)


def two_proportion_p(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p of the pooled two-proportion z-test (1.0 when either group is empty or all alike)."""
    if n1 == 0 or n2 == 0:
        return 1.0
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0
    z = (k2 / n2 - k1 / n1) / se
    return math.erfc(abs(z) / math.sqrt(2))


def correlation(x: Sequence[float], y: Sequence[float]) -> tuple[float, float, float] | None:
    """Pearson r with its 95% interval (Fisher's z); None under 4 pairs or without spread."""
    n = len(x)
    if n < 4:
        return None
    mx, my = sum(x) / n, sum(y) / n
    sxx = sum((a - mx) ** 2 for a in x)
    syy = sum((b - my) ** 2 for b in y)
    if sxx == 0 or syy == 0:
        return None
    r = sum((a - mx) * (b - my) for a, b in zip(x, y, strict=True)) / math.sqrt(sxx * syy)
    r = max(-0.999999, min(0.999999, r))
    z, se = math.atanh(r), 1 / math.sqrt(n - 3)
    return r, math.tanh(z - Z95 * se), math.tanh(z + Z95 * se)


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _ci(k: float, n: float) -> str:
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}]" if n else "–"


def _num(value: Any) -> float | None:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


def _usable(games: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [g for g in games if g.get("victory") != "error" and g.get("outcome") != "error"]


def at_cap(game: Mapping[str, Any]) -> bool:
    """True when the game was cut by a cap (Pole's ``max_turns`` or the batch's ply cap): no result."""
    return game.get("outcome") == "unfinished" or game.get("victory") == "unfinished"


# ----------------------------------------------------------------------------------------- luck
def luck_of(game: Mapping[str, Any]) -> tuple[float, float] | None:
    """(Red's luck, Black's luck) in removals, or None when the row lacks them."""
    red, black = _num(game.get("luck_red")), _num(game.get("luck_black"))
    return None if red is None or black is None else (red, black)


def decided_by_dice(game: Mapping[str, Any], margin: float = DICE_MARGIN) -> bool | None:
    """For a decided game: was the winner at least ``margin`` removals luckier than the loser? None otherwise."""
    luck = luck_of(game)
    winner = game.get("winner")
    if luck is None or winner not in SIDES:
        return None
    w = SIDES.index(winner)
    return luck[w] - luck[1 - w] >= margin


def luck_part(games: Sequence[Mapping[str, Any]]) -> ReportPart | None:
    """The luck section: per-side means, the luckier side's win share, the correlation, decided by dice."""
    rows = [g for g in _usable(games) if luck_of(g) is not None]
    if not rows:
        return None
    decided = [g for g in rows if g.get("winner") in SIDES]
    part = ReportPart("Luck: was that game decided by dice?")
    part.paragraphs.append(
        "Luck is, per game and side, the pieces its attacks removed minus the removals expected from their odds "
        "(the sum of each roll's success probability, n/36 by the contract's table). Positive luck means the dice "
        "gave that side more than its attacks were worth on average.")
    mean_red = sum(luck_of(g)[0] for g in rows) / len(rows)
    mean_black = sum(luck_of(g)[1] for g in rows) / len(rows)
    part.paragraphs.append(f"Over {len(rows)} games the mean luck was {mean_red:+.2f} removals for Red and "
                           f"{mean_black:+.2f} for Black (the dice are fair, so both means should sit near 0).")
    if decided:
        luckier = [g for g in decided if abs(luck_of(g)[0] - luck_of(g)[1]) > 1e-9]
        won = sum(1 for g in luckier if (luck_of(g)[0] > luck_of(g)[1]) == (g["winner"] == SIDES[0]))
        dice = sum(1 for g in decided if decided_by_dice(g))
        if luckier:
            part.paragraphs.append(
                f"The luckier side won {_ci(won, len(luckier))} of the {len(luckier)} decided games where the two "
                "sides' luck differed (95% Wilson interval; 50% would mean the dice did not matter).")
        part.paragraphs.append(
            f"Decided by dice: in {_ci(dice, len(decided))} of {len(decided)} decided games the winner was at least "
            f"{DICE_MARGIN:g} removal luckier than the loser, so with average dice the loser would have removed as "
            "much as the winner did.")
        corr = correlation([luck_of(g)[0] - luck_of(g)[1] for g in decided],
                           [1.0 if g["winner"] == SIDES[0] else 0.0 for g in decided])
        if corr is not None:
            r, lo, hi = corr
            strength = "strongly" if abs(r) >= 0.5 else "moderately" if abs(r) >= 0.3 else "weakly"
            clear = lo > 0 or hi < 0
            if len(decided) < MIN_DECIDED_FOR_CLAIM:  # a claim about the dice needs more games than a handful
                verdict = (f"from {len(decided)} decided games this says nothing yet about whether the dice shape "
                           f"the result (at least {MIN_DECIDED_FOR_CLAIM} are needed before the report draws that "
                           "conclusion).")
            elif clear:
                verdict = (f"{strength} associated, so the dice {'shape' if abs(r) >= 0.3 else 'nudge'} the result "
                           "in these games.")
            else:
                verdict = "no clear association in these games."
            part.paragraphs.append(
                f"Association: the luck difference (Red minus Black) and a Red win correlate at r = {r:.2f} "
                f"[{lo:.2f}, {hi:.2f}] (point-biserial, Fisher's z 95% interval): " + verdict)
    part.table = _luck_table(rows)
    return part


MIN_DECIDED_FOR_CLAIM = 30  # decided games before "the dice shape the result" is said (issue 34: 10 were too few)


def _cell(game: Mapping[str, Any], varying: Sequence[str] = ()) -> str:
    """The cell's label as the rest of the report writes it: the rules that vary, each with its value
    (``fortress_rounding=exact`` for the rulebook's cell of a grid, never ``default`` beside it)."""
    if varying:
        return " ".join(f"{k}={_word(game.get(k))}" for k in varying)
    return "all games"


def _word(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None or (isinstance(value, float) and value != value):
        return "none"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _varying(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The rule columns whose value differs between the rows (the grid's axes)."""
    names = [p.name for p in SPEC if rows and p.name in rows[0]]
    return [k for k in names if len({repr(g.get(k)) for g in rows}) > 1]


def _luck_table(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    cells: dict[str, list[Mapping[str, Any]]] = {}
    varying = _varying(rows)
    for g in rows:
        cells.setdefault(_cell(g, varying), []).append(g)
    out = []
    for cell, gs in cells.items():
        decided = [g for g in gs if g.get("winner") in SIDES]
        dice = sum(1 for g in decided if decided_by_dice(g))
        out.append({
            "cell": cell, "games": len(gs), "decided": len(decided),
            "mean luck Red": round(sum(luck_of(g)[0] for g in gs) / len(gs), 2),
            "mean luck Black": round(sum(luck_of(g)[1] for g in gs) / len(gs), 2),
            "mean expected removals": round(sum(_num(g.get("attacks_expected")) or 0.0 for g in gs) / len(gs), 1),
            "decided by dice % [95% CI]": _ci(dice, len(decided)) if decided else "–",
        })
    return out


# --------------------------------------------------------------------------------------- turtle
def _values(games: Sequence[Mapping[str, Any]], name: str) -> list[Any]:
    seen: list[Any] = []
    for g in games:
        v = g.get(name)
        if isinstance(v, float) and math.isnan(v):
            v = None
        if v not in seen:
            seen.append(v)
    return seen


def _default(name: str) -> Any:
    value = SPEC[name].default
    if isinstance(value, (bool, int, float)) or value is None:
        return value
    from workbench.core.rulespec import format_value

    return format_value(value)


def _shown(value: Any) -> str:
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def toggle_moves(games: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """For each varying rule: each value's share at the cap against the rulebook value's (pooled over the rest)."""
    rows = _usable(games)
    out: list[dict[str, Any]] = []
    if not rows:
        return out
    for param in SPEC:
        if param.name not in rows[0]:
            continue
        values = _values(rows, param.name)
        if len(values) < 2:
            continue
        base = _default(param.name)
        if base not in values:
            base = values[0]
        b = [g for g in rows if g.get(param.name) == base]
        kb, nb = sum(1 for g in b if at_cap(g)), len(b)
        for v in values:
            if v == base:
                continue
            x = [g for g in rows if g.get(param.name) == v]
            kx, nx = sum(1 for g in x if at_cap(g)), len(x)
            lo, hi = newcombe(kb, nb, kx, nx)
            out.append({"rule": param.name, "value": _shown(v), "rulebook value": _shown(base),
                        "games": nx, "at cap %": _ci(kx, nx), "rulebook at cap %": _ci(kb, nb),
                        "change, points [95% CI]": f"{100 * (kx / nx - kb / nb):+.0f} [{100 * lo:+.0f}, {100 * hi:+.0f}]",
                        "p": round(two_proportion_p(kb, nb, kx, nx), 4),
                        "_diff": kx / nx - kb / nb, "_lo": lo, "_hi": hi})
    return out


def turtle_part(games: Sequence[Mapping[str, Any]]) -> ReportPart | None:
    """The section "decisiveness and the turtle": share at the cap, per cell, and how each toggle moves it."""
    rows = _usable(games)
    if not rows:
        return None
    part = ReportPart("Decisiveness and the turtle")
    k = sum(1 for g in rows if at_cap(g))
    caps = sorted({int(v) for v in (_num(g.get("max_turns")) for g in rows) if v is not None})
    cap_words = f"the {'/'.join(map(str, caps))}-turn cap" if caps else "the cap"
    part.paragraphs.append(
        "A turtle game is one where neither Prince falls before the turn cap: both sides buy and wait behind their "
        "fortresses, where outside attacks deal half damage. Such a game has no result; it is censored, never a draw.")
    part.paragraphs.append(f"{_ci(k, len(rows))} of {len(rows)} games reached {cap_words} (95% Wilson interval).")
    decided = [g for g in rows if g.get("winner") in SIDES]
    if decided:
        red = sum(1 for g in decided if g["winner"] == SIDES[0])
        part.paragraphs.append(f"Of the {len(decided)} decided games Red, who moves first, won {_ci(red, len(decided))}.")
    table = []
    cells: dict[str, list[Mapping[str, Any]]] = {}
    varying = _varying(rows)
    for g in rows:
        cells.setdefault(_cell(g, varying), []).append(g)
    for cell, gs in cells.items():
        kc = sum(1 for g in gs if at_cap(g))
        dec = [g for g in gs if g.get("winner") in SIDES]
        red = sum(1 for g in dec if g["winner"] == SIDES[0])
        turns = [t for t in (_num(g.get("turns")) for g in gs if not at_cap(g)) if t is not None]
        table.append({"cell": cell, "games": len(gs), "at cap % [95% CI]": _ci(kc, len(gs)),
                      "Red share of decided % [95% CI]": _ci(red, len(dec)) if dec else "–",
                      "mean turns of decided games": round(sum(turns) / len(turns)) if turns else None})
    part.table = table
    moves = toggle_moves(rows)
    for m in moves:
        if m["_lo"] > 0 or m["_hi"] < 0:
            verb = "raises" if m["_diff"] > 0 else "lowers"
            words = f"{verb} the share at the cap"
        elif -0.05 <= m["_lo"] and m["_hi"] <= 0.05:
            words = "leaves the share at the cap unchanged (within 5 points)"
        else:
            words = "shows no clear change in the share at the cap"
        part.paragraphs.append(
            f"{m['rule']}={m['value']} {words}: {m['at cap %']} against {m['rulebook at cap %']} with "
            f"{m['rule']}={m['rulebook value']} ({m['change, points [95% CI]']} points, two-proportion p = {m['p']:.3g}, "
            "uncorrected; pooled over the other columns).")
    if not moves:
        part.paragraphs.append("No toggle varies in this table, so no rule's effect on the turtle can be read.")
    return part


# ------------------------------------------------------------------------------------------ maps
def batch_maps(events: Iterable[Mapping[str, Any]]) -> list[tuple[str, dict[int, float]]]:
    """Cell counts: where each side's purchases were placed and where each side's Prince was destroyed."""
    bought: tuple[dict[int, float], dict[int, float]] = ({}, {})
    died: tuple[dict[int, float], dict[int, float]] = ({}, {})
    for e in events:
        action = str(e.get("action") or "")
        if len(action) >= 4 and action[1] == "@":
            cell = BY_NAME.get(action[2:])
            if cell is not None:
                side = 0 if action[0].isupper() else 1
                bought[side][cell] = bought[side].get(cell, 0.0) + 1.0
        kinds = e.get("removed_kinds")
        if kinds and ("P" in kinds or "p" in kinds):
            for name, k in zip(str(e.get("removed", "")).split(","), str(kinds).split(","), strict=False):
                if k in ("P", "p") and name in BY_NAME:
                    side = 0 if k == "P" else 1
                    died[side][BY_NAME[name]] = died[side].get(BY_NAME[name], 0.0) + 1.0
    return [("Red purchases placed", bought[0]), ("Black purchases placed", bought[1]),
            ("Red Prince destroyed", died[0]), ("Black Prince destroyed", died[1])]


def maps_part(events: Iterable[Mapping[str, Any]] | None) -> ReportPart:
    """The batch maps as a part (a note when there is no events table)."""
    part = ReportPart("Where purchases are placed and where Princes die")
    if events is None:
        part.paragraphs.append("Skipped: no events table was given (simulate with --events).")
        return part
    maps = batch_maps(events)
    n_bought = sum(sum(m.values()) for _, m in maps[:2])
    n_died = sum(sum(m.values()) for _, m in maps[2:])
    part.paragraphs.append(f"From the events table: {n_bought:.0f} purchases by the cell they were placed on, and "
                           f"{n_died:.0f} Princes by the cell where the winning roll removed them.")
    part.maps = [(caption, m) for caption, m in maps if m]
    return part


def report_sections(games: Sequence[Mapping[str, Any]],
                    events: Iterable[Mapping[str, Any]] | None = None) -> list[ReportPart]:
    """Pole's report parts: luck, decisiveness and the turtle, then the batch maps."""
    games = list(games)
    parts = [p for p in (luck_part(games), turtle_part(games)) if p is not None]
    parts.append(maps_part(events))
    return parts
