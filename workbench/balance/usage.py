"""Rule usage: which rules happen in play, which are dead, what a variant does to them, and who uses them.

Reads the ``rule_<name>_<seat>`` counter columns of the games table (``rule_ford_stop_white``, or
``rule_<name>_p1`` for a game whose ``players`` are ``p1,p2``) and the
``rules`` field of the events table (``rule@hex`` or ``rule``, comma-separated, per action), both
written by ``workbench.simulate`` from the engine's counters (INTERFACES.md, issue 12). Like the
rest of ``workbench.balance`` it never imports the engine: any table with those columns works.

Every number carries an interval: Student-t for means per game, Wilson for shares of games. Tests
across variants are Welch t-tests on the per-game counts, corrected over every (variant, rule) pair
at once; the association with winning is a sign test, labelled as an association, not a cause.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as _sp

from .cells import _group_keys, cell_label, check_games, compared_columns, is_agent, varying_columns
from .compare import CORRECTION_NAMES, VariantFinding, _key, baseline_value, sort_values, table_game, variant_name
from .stats import Z95, BalanceError, adjust, mean_interval, wilson_interval
from .table import table_schema

DEAD_SHARE = 0.01  # a rule that fired in under 1% of a cell's games is "dead" there

WORDS_ATTR = "rule_words"  # a usage table's ``attrs`` key: its game's words for its counters (GameDef.rule_words)


def game_rule_words(games: pd.DataFrame) -> dict[str, str]:
    """The table's game's plain words for its rule counters (``GameDef.rule_words``); none for an unknown game."""
    from workbench.balance.stats import BalanceError as _Refused
    from workbench.games import get

    from .table import table_game as game_of

    try:
        return dict(get(game_of(games)).rule_words())
    except (_Refused, ImportError, ValueError):
        return {}


def rule_words(rule: str, words: dict[str, str] | None = None) -> str:
    """A counter in the game's words (``words``: ``GameDef.rule_words``, ``ford_stop`` -> ``ford stops``), else
    its spelling with spaces (``promotion_knight`` -> ``promotion knight``)."""
    return (words or {}).get(rule) or rule.replace("_", " ")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _seats(games: pd.DataFrame) -> tuple[str, ...]:
    from .table import seats_of

    return seats_of(games)


def rule_names(games: pd.DataFrame) -> list[str]:
    """The rules the table counts (``rule_X_<seat>`` present and filled for every seat), in column order.

    A table written before the counters existed reads back with those columns empty: no rules.
    """
    seats = _seats(games)
    first = re.compile(rf"^rule_(.+)_{re.escape(seats[0])}$")
    out = []
    for col in games.columns:
        m = first.match(str(col))
        if not m:
            continue
        columns = [f"rule_{m.group(1)}_{s}" for s in seats]
        if all(c in games.columns and games[c].notna().all() for c in columns):
            out.append(m.group(1))
    return out


def _need_rules(games: pd.DataFrame) -> list[str]:
    rules = rule_names(games)
    if not rules:
        raise BalanceError("the games table has no rule counters (rule_<name>_<seat> columns); "
                           "simulate with an engine that counts rules (issue 12)")
    return rules


def per_game_usage(games: pd.DataFrame, rule: str) -> pd.Series:
    """Times ``rule`` fired in each game, every seat together."""
    return sum((games[f"rule_{rule}_{s}"].astype(float) for s in _seats(games)), pd.Series(0.0, index=games.index))


def _fmt_rate(x: float) -> str:
    """A count per game with sensible digits: 12, 2.1, 0.35, 0.004."""
    if x == 0:
        return "0.0"
    if abs(x) >= 10:
        return f"{x:.0f}"
    if abs(x) >= 0.95:
        return f"{x:.1f}"
    if abs(x) >= 0.0095:
        return f"{x:.2f}"
    return f"{x:.3f}"


# ---------------------------------------------------------------------- per cell
def usage_summary(games: pd.DataFrame) -> pd.DataFrame:
    """One row per (cell, rule): mean per game with a t-interval, per side, and the share of games
    where the rule fired at least once with a Wilson interval; ``dead`` when that share is under 1%."""
    usable = check_games(games, what="a rule-usage summary")
    rules = _need_rules(usable)
    frame, keys = _group_keys(usable)
    varying = varying_columns(usable)
    rows = []
    groups = frame.groupby(keys, sort=True, dropna=False) if keys else [((), frame)]
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        cell = dict(zip(keys, key, strict=True))
        label = cell_label(cell, varying)
        n = len(g)
        for rule in rules:
            per_game = per_game_usage(g, rule)
            mean, low, high = mean_interval(per_game)
            fired = int((per_game > 0).sum())
            slo, shi = wilson_interval(fired, n)
            rows.append({**cell, "label": label, "rule": rule, "games": n, "mean": mean,
                         "low": max(0.0, low) if not math.isnan(low) else low, "high": high,
                         **{f"{s}_mean": float(g[f"rule_{rule}_{s}"].mean()) for s in _seats(g)},
                         "fired_games": fired, "share": fired / n, "share_low": slo, "share_high": shi,
                         "dead": fired / n < DEAD_SHARE})
    out = pd.DataFrame(rows)
    out.attrs[SWITCHES_ATTR] = table_schema(usable).rule_switches  # the game's own: which rules a cell switches off
    out.attrs[WORDS_ATTR] = game_rule_words(usable)
    return out


def usage_matrix(summary: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Rules x cells: mean uses per game (both sides), and a same-shaped frame of ``dead`` flags.

    Rows are sorted biggest change first: the spread across cells (largest minus smallest mean) as a
    share of the largest, so a rule one variant kills or creates tops the table; rules dead in every
    cell go last. The ``change`` column holds that share.
    """
    labels = list(dict.fromkeys(summary["label"]))
    rules = list(dict.fromkeys(summary["rule"]))
    mean = summary.pivot(index="rule", columns="label", values="mean").reindex(index=rules, columns=labels)
    dead = summary.pivot(index="rule", columns="label", values="dead").reindex(index=rules, columns=labels)
    top = mean.max(axis=1)
    change = ((top - mean.min(axis=1)) / top.where(top > 0)).fillna(0.0)
    everywhere = dead.all(axis=1)
    order = sorted(rules, key=lambda r: (bool(everywhere[r]), -float(change[r]), -float(top[r])))
    mean, dead = mean.loc[order], dead.loc[order].astype(bool)
    mean.insert(0, "change", change.loc[order])
    return mean, dead


SWITCHES_ATTR = "rule_switches"  # a usage summary's ``attrs`` key: its game's ``TableSchema.rule_switches``


def off_reason(rule: str, cell: dict[str, Any], switches: Sequence[tuple[str, Sequence[tuple[str, Sequence[str]]]]] = ()
               ) -> str | None:
    """``pike_cavalry_mutual=false`` when the cell's rules switch ``rule`` off, else None.

    ``switches`` are the game's (``GameDef.table.rule_switches``: a counter, the columns and values that switch
    it off; a counter ``x`` covers ``x_*`` too, as ``promotion`` covers ``promotion_knight``)."""
    table = dict(switches)
    base = rule if rule in table else next((r for r in table if rule.startswith(r + "_")), rule)
    for column, values in table.get(base, ()):
        if column in cell and str(cell[column]).lower() in values:
            return f"{column}={str(cell[column]).lower() or 'none'}"
    return None


def dead_rule_sentences(summary: pd.DataFrame) -> list[str]:
    """Dead rules in words: once for rules dead in every cell, then per cell for the others."""
    if summary.empty:
        return []
    labels = list(dict.fromkeys(summary["label"]))
    dead = summary[summary["dead"]]
    everywhere = [r for r, part in dead.groupby("rule", sort=False) if part["label"].nunique() == len(labels)]
    # a breakdown of a dead rule (promotion_knight under promotion) is dead with it: name the rule once
    folded = [r for r in everywhere if not any(r.startswith(p + "_") for p in everywhere)]
    words = summary.attrs.get(WORDS_ATTR)
    out = []
    if everywhere:
        where = "in every cell" if len(labels) > 1 else f"in {int(summary['games'].iloc[0])} games"
        out.append(f"Dead rules (fired in under {100 * DEAD_SHARE:.0f}% of games {where}): "
                   + ", ".join(rule_words(r, words) + (" (every kind)" if any(x.startswith(r + "_") for x in everywhere)
                                                else "") + _switched_off(summary, r) for r in folded) + ".")
    for rule, part in dead[~dead["rule"].isin(everywhere)].groupby("rule", sort=False):
        head = (f"{_capital(rule_words(rule, words))}: dead in {len(part)} of {len(labels)} cells (fired in under "
                f"{100 * DEAD_SHARE:.0f}% of games){_switched_off(part, rule)}")
        if 2 * len(part) > len(labels):  # mostly dead: name the few cells where it lives
            alive = summary[(summary["rule"] == rule) & ~summary["dead"]]
            out.append(head + "; it fired only in " + "; ".join(
                f"{lab} ({int(k)} of {int(n)} games)" for lab, k, n in
                zip(alive["label"], alive["fired_games"], alive["games"], strict=True)) + ".")
        else:
            out.append(head + ": " + "; ".join(f"{lab} ({int(k)} of {int(n)} games)" for lab, k, n in
                                               zip(part["label"], part["fired_games"], part["games"], strict=True))
                       + ".")
    if not out:
        out.append(f"No dead rule: every counted rule fired in at least {100 * DEAD_SHARE:.0f}% of the games of "
                   "every cell.")
    return out


def _switched_off(summary: pd.DataFrame, rule: str) -> str:
    """`` (switched off: castling_uses=0)`` when every cell's rules switch the rule off: not dead, absent."""
    switches = summary.attrs.get(SWITCHES_ATTR, ())
    reasons = {off_reason(rule, row, switches) for row in summary[summary["rule"] == rule].to_dict("records")}
    if None in reasons or not reasons:
        return ""
    return f" (switched off by {', '.join(sorted(r for r in reasons if r))}: it cannot fire)"


# ---------------------------------------------------------------------- between variants
@dataclass
class UsageChange(VariantFinding):
    """A rule's mean count per game under ``variant`` against ``baseline`` of one column."""

    column: str
    baseline: object
    variant: object
    rule: str
    games_baseline: int
    games_variant: int
    mean_baseline: float
    mean_variant: float
    diff: float
    low: float
    high: float
    p_value: float
    p_adjusted: float = math.nan
    correction: str = "holm"
    alpha: float = 0.05
    words: str = ""  # the rule in its game's words (``GameDef.rule_words``); empty: its spelling

    @property
    def relative(self) -> float:
        """Relative change (0.35 = +35%); NaN when the baseline never saw the rule."""
        return self.diff / self.mean_baseline if self.mean_baseline > 0 else math.nan

    def phrase(self) -> str:
        """``ford stops fall from 2.1 to 0.0 per game`` or ``Orders rise 35% (1.2 to 1.6 per game)``."""
        words = self.words or rule_words(self.rule)
        way = "rise" if self.diff > 0 else "fall"
        a, b = _fmt_rate(self.mean_baseline), _fmt_rate(self.mean_variant)
        if self.mean_baseline == 0 or self.mean_variant == 0 or abs(self.relative) >= 2:
            return f"{words} {way} from {a} to {b} per game"
        return f"{words} {way} {abs(100 * self.relative):.0f}% ({a} to {b} per game)"


def usage_changes(games: pd.DataFrame, correction: str = "holm", alpha: float = 0.05) -> list[UsageChange]:
    """Every rule's usage under each varying value against the baseline value (rulebook default),
    pooled over the other columns as ``compare_toggles`` does; Welch t-tests on per-game counts,
    corrected over all (variant, rule) pairs. Rules never seen in either group are left out."""
    usable = check_games(games, what="a rule-usage comparison")
    rules = _need_rules(usable)
    words = game_rule_words(usable)
    changes: list[UsageChange] = []
    game = table_game(usable)
    for column in compared_columns(usable):
        if is_agent(column, usable):
            continue
        keys = usable[column].map(_key)
        values = sort_values(set(keys))
        baseline = baseline_value(column, values, game)
        base = usable[keys == baseline]
        for variant in values:
            if variant == baseline:
                continue
            var = usable[keys == variant]
            for rule in rules:
                a, b = per_game_usage(base, rule).to_numpy(), per_game_usage(var, rule).to_numpy()
                if a.sum() == 0 and b.sum() == 0:
                    continue
                diff, low, high, p = welch(a, b)
                changes.append(UsageChange(column, baseline, variant, rule, len(a), len(b), float(a.mean()),
                                           float(b.mean()), diff, low, high, p, words=rule_words(rule, words)))
    for c, p in zip(changes, adjust([c.p_value for c in changes], correction), strict=True):
        c.p_adjusted, c.correction, c.alpha = p, correction, alpha
    return changes


def welch(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> tuple[float, float, float, float]:
    """Difference of means ``mean(b) - mean(a)`` with its Welch 95% interval and two-sided p-value.

    Two constant groups give an exact answer: p = 1 when equal, 0 when not (no spread to test against).
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if len(a) < 2 or len(b) < 2:
        raise BalanceError(f"a usage comparison needs at least 2 games per group, got {len(a)} and {len(b)}")
    diff = float(b.mean() - a.mean())
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    se = math.sqrt(va + vb)
    if se == 0:
        return diff, diff, diff, (1.0 if diff == 0 else 0.0)
    dof = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    t = float(_sp.t.ppf(0.975, dof)) if math.isfinite(dof) else Z95
    p = float(2 * _sp.t.sf(abs(diff) / se, dof))
    return diff, diff - t * se, diff + t * se, p


def change_sentences(changes: Sequence[UsageChange], top: int = 3) -> list[str]:
    """One sentence per variant: its ``top`` clearest significant changes, largest relative change first."""
    out = []
    by_variant: dict[tuple[str, object], list[UsageChange]] = {}
    for c in changes:
        by_variant.setdefault((c.column, c.variant), []).append(c)
    for (_column, _variant), group in by_variant.items():
        sig = [c for c in group if c.significant]
        name = group[0].name
        if not sig:
            corr = CORRECTION_NAMES[group[0].correction]
            out.append(f"{name}: no rule's usage changes clearly against {variant_name(group[0].column, group[0].baseline).lower()} "
                       f"({corr}-adjusted p >= {group[0].alpha} for all {len(group)} rules seen).")
            continue
        sig.sort(key=lambda c: (-_strength(c), c.p_adjusted))
        phrases = [c.phrase() for c in sig[:top]]
        more = len(sig) - top
        tail = f" (and {more} more significant change{'s' if more != 1 else ''})" if more > 0 else ""
        out.append(f"{name}: " + "; ".join(phrases) + tail + ".")
    return out


def _strength(c: UsageChange) -> float:
    """Size of a change for ordering: relative change, a rule appearing or vanishing counting as 100%+."""
    if c.mean_baseline == 0 or c.mean_variant == 0:
        return 10.0 + abs(c.diff)
    return abs(c.relative)


def changes_frame(changes: Sequence[UsageChange]) -> pd.DataFrame:
    """The usage changes as a readable table (significant ones first)."""
    rows = sorted(changes, key=lambda c: (not c.significant, c.p_adjusted))
    return pd.DataFrame([{
        "variant": c.name, "rule": c.words or rule_words(c.rule),
        "per game": f"{_fmt_rate(c.mean_variant)} vs {_fmt_rate(c.mean_baseline)}",
        "diff [95% CI]": f"{c.diff:+.2f} [{c.low:.2f}, {c.high:.2f}]",
        "change %": "–" if math.isnan(c.relative) else f"{100 * c.relative:+.0f}",
        "p": f"{c.p_value:.4f}", "p adjusted": f"{c.p_adjusted:.4f}", "significant": "yes" if c.significant else "",
    } for c in rows])


# ---------------------------------------------------------------------- association with winning
def rule_association(games: pd.DataFrame, correction: str = "holm") -> pd.DataFrame:
    """Per rule: in decided games where the sides used it a different number of times, how often
    the side that used it more won (Wilson interval; exact binomial test against 50%, corrected).

    An association, not a cause: a side that is winning may simply get more chances to use a rule.
    """
    usable = check_games(games, what="a rule association")
    rules = _need_rules(usable)
    seats = _seats(usable)
    rows: list[dict[str, Any]] = []
    if len(seats) != 2:  # "the side that used it more" needs two sides
        return pd.DataFrame(rows, columns=["rule", "games", "more_won", "rate", "low", "high", "p_value", "p_adjusted"])
    decided = usable[usable["winner"].isin(seats)]
    for rule in rules:
        w, b = decided[f"rule_{rule}_{seats[0]}"].to_numpy(), decided[f"rule_{rule}_{seats[1]}"].to_numpy()
        differ = w != b
        n = int(differ.sum())
        if n == 0:
            continue
        more = np.where(w > b, seats[0], seats[1])[differ]
        k = int((more == decided["winner"].to_numpy()[differ]).sum())
        lo, hi = wilson_interval(k, n)
        p = float(_sp.binomtest(k, n, 0.5).pvalue)
        rows.append({"rule": rule, "games": n, "more_won": k, "rate": k / n, "low": lo, "high": hi, "p_value": p})
    out = pd.DataFrame(rows, columns=["rule", "games", "more_won", "rate", "low", "high", "p_value"])
    out["p_adjusted"] = adjust(list(out["p_value"]), correction) if len(out) else []
    out.attrs[WORDS_ATTR] = game_rule_words(usable)
    return out


def association_sentences(assoc: pd.DataFrame, alpha: float = 0.05, min_games: int = 10) -> list[str]:
    """A sentence per rule with enough decided games, clearest first; labelled association, not cause."""
    out = []
    for r in assoc.sort_values("p_adjusted").to_dict("records"):
        if r["games"] < min_games:
            continue
        if r["p_adjusted"] < alpha:
            how = f"clearly {'more' if r['rate'] > 0.5 else 'less'} often than the side with fewer"
        else:
            how = "not clearly different from the side with fewer"
        out.append(f"{_capital(rule_words(r['rule'], assoc.attrs.get(WORDS_ATTR)))}: the side with more of them won {100 * r['rate']:.0f}% "
                   f"[{100 * r['low']:.0f}, {100 * r['high']:.0f}] of {r['games']} decided games, "
                   f"{how} (adjusted p = {r['p_adjusted']:.3g}; association, not cause).")
    return out


# ---------------------------------------------------------------------- where rules fire
def parse_fired(text: object) -> list[tuple[str, str | None]]:
    """``"ford_stop@d5,shot@e4,order"`` -> ``[("ford_stop", "d5"), ("shot", "e4"), ("order", None)]``."""
    if not isinstance(text, str) or not text:
        return []
    out: list[tuple[str, str | None]] = []
    for item in text.split(","):
        item = item.strip()
        if item:
            rule, _, where = item.partition("@")
            out.append((rule, where or None))
    return out


def rule_locations(events: pd.DataFrame, rules: Iterable[str] | None = None,
                   first: Sequence[str] = ()) -> dict[str, Counter[str]]:
    """Per rule, how often it fired on each cell (by cell name), from the events ``rules`` field.

    Only rules whose entries carry a cell appear; ``rules`` restricts to those names. ``first``: the rules
    drawn first, in this order (the game's ``TableSchema.spatial_rules``), then the others by name.
    """
    if "rules" not in events.columns:
        raise BalanceError("the events table has no 'rules' column; simulate with events from an engine that "
                           "reports fired rules (issue 12)")
    wanted = set(rules) if rules is not None else None
    out: dict[str, Counter[str]] = {}
    for text in events["rules"]:
        for rule, where in parse_fired(text):
            if where is not None and (wanted is None or rule in wanted):
                out.setdefault(rule, Counter())[where] += 1
    order = [r for r in first if r in out] + sorted(r for r in out if r not in first)
    return {r: out[r] for r in order}


def event_rule_totals(events: pd.DataFrame) -> pd.DataFrame:
    """Per game and rule, how many times the events' ``rules`` field names it (checks the counters)."""
    rows = [(gid, rule) for gid, text in zip(events["game_id"], events["rules"], strict=True)
            for rule, _ in parse_fired(text)]
    frame = pd.DataFrame(rows, columns=["game_id", "rule"])
    return frame.groupby(["game_id", "rule"]).size().rename("count").reset_index()


__all__ = [
    "DEAD_SHARE", "WORDS_ATTR", "UsageChange", "association_sentences", "change_sentences",
    "changes_frame", "dead_rule_sentences", "usage_matrix", "event_rule_totals", "parse_fired", "per_game_usage",
    "rule_association", "rule_locations", "rule_names", "rule_words", "usage_changes", "usage_summary", "welch",
]
