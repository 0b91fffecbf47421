"""What a tune measures: per-variant samples of games, metrics with intervals, objectives and
requirements.

A ``Sample`` keeps, per game, the numbers every metric needs (first seat's score with a draw by the
rules at 0.5, decisive, plies, which rules fired, which inner cell, each seat's score), so a metric is
a few numpy reductions and a resumed tune recomputes exactly what the first run saw. An unfinished
game (cut by the cap) is censored as in ``report``: it has no score (NaN, left out of ``score``,
``balance``, ``worst`` and ``spread``) and counts as a game not decided in ``decisive``, so a variant
whose games all time out can never look balanced.

Metrics (natural units): ``score`` (first seat's score over finished games), ``balance`` (|score - 0.5|), ``decisive``
(share of games won by someone), ``unfinished``, ``plies``, ``usage`` (the least-used rule's share of
games in which it fired; rules count once they fired anywhere in the tune), ``worst`` (the worst inner
cell's |score - 0.5|) and ``spread`` (max - min of the factions' scores across the inner grid; without
factions, of the inner cells' first-seat scores).

Objectives are losses to minimise: ``balance``, ``decisiveness`` (1 - decisive), ``length`` (plies, or
``length=140``: distance to a target), ``usage`` (minus the least-used rule's share), ``worst``,
``faction-spread``. Requirements are ``metric OP threshold`` (``decisive>=0.8``, ``plies<=200``) and
are judged with intervals: broken with confidence, met with confidence, or not yet known.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .stats import (
    NAN,
    Contrast,
    Estimate,
    bounded_from,
    bounded_mean,
    moment_variance,
    norm_sf,
    p_from_lower,
    plain_from,
    z_one_sided,
)


class ObjectiveError(ValueError):
    """An ``--objective`` or ``--require`` that names no metric or has a bad threshold."""


# ---------------------------------------------------------------------- samples
class Sample:
    """The games of one variant, as arrays (appended in game-id order, so resumed runs agree)."""

    def __init__(self, n_inner: int = 1, factions: Sequence[Sequence[str]] | None = None) -> None:
        self.n_inner = n_inner
        self.factions = [tuple(f) for f in factions] if factions else None  # per inner cell, seat -> faction
        self._cols: dict[str, list[float]] = {"score": [], "decisive": [], "plies": [], "unfinished": [], "inner": []}
        self._seats: list[list[float]] = []
        self._fired: dict[str, list[int]] = {}
        self.errors = 0
        self.games = 0  # games played, errors included
        self._cache: dict[str, np.ndarray] = {}

    def add(self, row: dict[str, Any], inner: int = 0) -> None:
        """One game's row (simulate's columns); an error row counts as spent but measures nothing."""
        self.games += 1
        self._cache.clear()
        if row.get("outcome") == "error" or row.get("victory") == "error":
            self.errors += 1
            return
        players = str(row.get("players") or "white,black").split(",")
        winner = row.get("winner") or "none"
        if row.get("outcome") == "unfinished":
            seat_scores = [math.nan] * len(players)  # censored: nobody won, and nobody drew either
        else:
            seat_scores = [1.0 if winner == p else (0.0 if winner in players else 0.5) for p in players]
        n = len(self._cols["score"])
        self._cols["score"].append(seat_scores[0])
        self._cols["decisive"].append(1.0 if row.get("outcome") == "win" or winner in players else 0.0)
        self._cols["plies"].append(float(row.get("plies") or 0))
        self._cols["unfinished"].append(1.0 if row.get("outcome") == "unfinished" else 0.0)
        self._cols["inner"].append(float(inner))
        self._seats.append(seat_scores)
        for key, value in row.items():
            if key.startswith("rule_") and isinstance(value, (int, float, np.integer)) and not _nan(value) and value > 0:
                rule = rule_name(key, players)
                flags = self._fired.setdefault(rule, [])
                if len(flags) < n + 1:
                    flags.extend([0] * (n + 1 - len(flags)))
                flags[n] = 1

    @property
    def n(self) -> int:
        """Games that measured something (errors left out)."""
        return len(self._cols["score"])

    def array(self, name: str) -> np.ndarray:
        if name not in self._cache:
            self._cache[name] = np.asarray(self._cols[name], dtype=float)
        return self._cache[name]

    def moments(self, name: str) -> tuple[int, float, float]:
        """(n, mean, sum of squared deviations) of a column, cached until the next game."""
        key = "m:" + name
        if key not in self._cache:
            x = self.array(name)
            x = x[~np.isnan(x)]  # unfinished games have no score
            m = float(x.mean()) if len(x) else math.nan
            self._cache[key] = (len(x), m, float(((x - m) ** 2).sum()) if len(x) else 0.0)  # type: ignore[assignment]
        return self._cache[key]  # type: ignore[return-value]

    def fired(self, rule: str) -> np.ndarray:
        """1 for each game in which ``rule`` fired."""
        flags = self._fired.get(rule, [])
        out = np.zeros(self.n)
        out[: len(flags)] = flags
        return out

    def rules(self) -> set[str]:
        return set(self._fired)

    def seat_scores(self) -> np.ndarray:
        return np.asarray(self._seats, dtype=float).reshape(self.n, -1) if self._seats else np.zeros((0, 2))


def _nan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


def rule_name(column: str, players: Sequence[str]) -> str:
    """``rule_shot_white`` -> ``shot`` (the seat suffix removed)."""
    body = column[len("rule_"):]
    for p in players:
        if body.endswith("_" + p):
            return body[: -len(p) - 1]
    return body


# ---------------------------------------------------------------------- metrics
@dataclass
class Context:
    """What metrics need beyond one sample: the z of each interval and the rules seen anywhere."""

    z: float
    rules: frozenset[str] = frozenset()


def _folded(e: Estimate, target: float) -> Estimate:
    """|m - target| with the interval of m folded (0 when the interval holds the target)."""
    if e.n == 0:
        return NAN
    lo = 0.0 if e.lo <= target <= e.hi else min(abs(e.lo - target), abs(e.hi - target))
    return Estimate(abs(e.value - target), lo, max(abs(e.lo - target), abs(e.hi - target)), e.n)


def _group_estimates(s: Sample, z: float) -> list[Estimate]:
    """Each faction's score (factions known) or each inner cell's first-seat score."""
    if s.n == 0:
        return []
    inner = s.array("inner").astype(int)
    if s.factions:
        seats = s.seat_scores()
        by: dict[str, list[np.ndarray]] = {}
        for cell, names in enumerate(s.factions):
            mask = inner == cell
            for seat, name in enumerate(names):
                if seat < seats.shape[1]:
                    by.setdefault(name, []).append(seats[mask, seat])
        groups = [_finished(np.concatenate(v)) for _, v in sorted(by.items())]
        return [bounded_mean(g, z) for g in groups if len(g)]
    score = s.array("score")
    groups = [_finished(score[inner == c]) for c in range(s.n_inner)]
    return [bounded_mean(g, z) for g in groups if len(g)]


def _finished(x: np.ndarray) -> np.ndarray:
    """The scores of finished games (an unfinished game's score is NaN)."""
    out: np.ndarray = x[~np.isnan(x)]
    return out


def metric(name: str, s: Sample, ctx: Context) -> Estimate:
    """``name``'s estimate for sample ``s`` with its interval at ``ctx.z``."""
    z = ctx.z
    if s.n == 0:
        return NAN
    if name in ("score", "decisive", "unfinished"):
        return bounded_from(*s.moments(name)[:2], z)
    if name == "balance":
        return _folded(bounded_from(*s.moments("score")[:2], z), 0.5)
    if name == "plies":
        return plain_from(*s.moments("plies"), z)
    if name == "usage":
        rules = sorted(ctx.rules or s.rules())
        if not rules:
            return Estimate(0.0, 0.0, 1.0, s.n)
        zr = _bonferroni(z, len(rules))
        ests = [bounded_mean(s.fired(r), zr) for r in rules]
        return Estimate(min(e.value for e in ests), min(e.lo for e in ests), min(e.hi for e in ests), s.n)
    if name in ("worst", "spread"):
        groups = _group_estimates(s, _bonferroni(z, max(1, s.n_inner * 2)))
        if not groups:
            return NAN
        if name == "worst":
            folded = [_folded(g, 0.5) for g in groups]
            return Estimate(max(f.value for f in folded), max(f.lo for f in folded), max(f.hi for f in folded), s.n)
        value = max(g.value for g in groups) - min(g.value for g in groups)
        lo = max(0.0, max(g.lo for g in groups) - min(g.hi for g in groups))
        hi = max(g.hi for g in groups) - min(g.lo for g in groups)
        return Estimate(value, min(lo, value), max(hi, value), s.n)
    raise ObjectiveError(f"unknown metric {name!r}; known: {', '.join(METRICS)}")


def _bonferroni(z: float, k: int) -> float:
    """The z of one of ``k`` intervals that together keep the error of one interval at ``z``."""
    if k <= 1:
        return z
    return z_one_sided(norm_sf(z) / k)


METRICS = ("score", "balance", "decisive", "unfinished", "plies", "usage", "worst", "spread")
PERCENT = {"score", "decisive", "unfinished", "usage"}


# ---------------------------------------------------------------------- objectives
@dataclass(frozen=True)
class Objective:
    """A loss to minimise, built on a metric: ``loss = sign * metric`` or ``|mean - target|``."""

    name: str
    metric: str
    sign: float = 1.0  # -1 for metrics to maximise
    shift: float = 0.0  # loss = sign * metric + shift
    target: float | None = None  # folded objectives: |mean(column) - target|
    column: str | None = None  # the per-game column of a linear or folded objective (pairwise tests)
    bounded: bool = True

    def loss(self, s: Sample, ctx: Context) -> Estimate:
        """The loss with its interval (the interval of a maximised metric turned over)."""
        if self.target is not None:
            assert self.column is not None  # a target is set on a per-game column (see objective())
            n, m, ss = s.moments(self.column)
            base = bounded_from(n, m, ctx.z) if self.bounded else plain_from(n, m, ss, ctx.z)
            return _folded(base, self.target)
        e = metric(self.metric, s, ctx)
        if e.n == 0:
            return e
        a, b = self.sign * e.lo + self.shift, self.sign * e.hi + self.shift
        return Estimate(self.sign * e.value + self.shift, min(a, b), max(a, b), e.n)

    def diff_lower(self, a: Sample, b: Sample, ctx: Context) -> tuple[float, float]:
        """A lower confidence bound of ``loss(a) - loss(b)`` at ``ctx.z`` and its one-sided p-value.

        Linear objectives: Welch on the difference of means. Folded ones (|m - t|): an
        intersection-union test of the two linear contrasts that together mean "a is further from
        the target than b" (no correction needed: both must reject). Others (a minimum over rules, a
        spread): the two intervals must not overlap.
        """
        if a.n == 0 or b.n == 0:
            return (-math.inf, 1.0)
        if self.column is not None:
            na, ma, ssa = a.moments(self.column)
            nb, mb, ssb = b.moments(self.column)
            if na == 0 or nb == 0:  # one side has no finished game yet: nothing to tell
                return (-math.inf, 1.0)
            se = math.sqrt(moment_variance(na, ma, ssa, self.bounded) / na + moment_variance(nb, mb, ssb, self.bounded) / nb)
            if self.target is None:
                c = Contrast(self.sign * (ma - mb), se)
                return (c.lower(ctx.z), c.p_positive())
            t = self.target
            s = 1.0 if ma >= t else -1.0
            c1 = Contrast(s * (ma - t) - (mb - t), se)
            c2 = Contrast(s * (ma - t) + (mb - t), se)
            return (min(c1.lower(ctx.z), c2.lower(ctx.z)), max(c1.p_positive(), c2.p_positive()))

        def lower_at(z: float) -> float:
            c = Context(z, ctx.rules)
            return self.loss(a, c).lo - self.loss(b, c).hi

        return (lower_at(ctx.z), p_from_lower(lower_at))


def parse_objective(text: str) -> Objective:
    """``balance``, ``decisiveness``, ``length``, ``length=140``, ``usage``, ``worst``, ``faction-spread``."""
    name, _, arg = str(text).strip().partition("=")
    name = name.strip().lower()
    target = None
    if arg:
        try:
            target = float(arg)
        except ValueError:
            raise ObjectiveError(f"--objective {text}: {arg!r} is not a number") from None
    if name == "balance":
        return Objective("balance", "balance", target=0.5 if target is None else target, column="score")
    if name in ("decisiveness", "decisive"):
        return Objective("decisiveness", "decisive", sign=-1.0, shift=1.0, column="decisive")
    if name in ("length", "plies"):
        if target is not None:
            return Objective(f"length={target:g}", "plies", target=target, column="plies", bounded=False)
        return Objective("length", "plies", column="plies", bounded=False)
    if name in ("usage", "rule-usage"):
        return Objective("usage", "usage", sign=-1.0)
    if name in ("worst", "worst-cell"):
        return Objective("worst", "worst")
    if name in ("faction-spread", "spread"):
        return Objective("faction-spread", "spread")
    raise ObjectiveError(f"unknown objective {text!r}; known: balance, decisiveness, length[=PLIES], usage, "
                         "worst, faction-spread")


# ---------------------------------------------------------------------- requirements
_REQ = re.compile(r"^\s*([a-z_-]+)\s*(>=|<=|>|<)\s*(-?[0-9.]+%?)\s*$")


@dataclass(frozen=True)
class Requirement:
    """A hard constraint ``metric OP threshold``; ``judge`` says broken / met / unknown from an interval."""

    metric: str
    op: str
    threshold: float

    @property
    def text(self) -> str:
        return f"{self.metric}{self.op}{self.threshold:g}"

    def judge(self, e: Estimate) -> str:
        """``broken`` (the whole interval on the wrong side), ``met`` (on the right side) or ``unknown``."""
        if e.n == 0 or math.isnan(e.value):
            return "unknown"
        if self.op in (">=", ">"):
            if e.hi < self.threshold or (self.op == ">" and e.hi <= self.threshold):
                return "broken"
            return "met" if (e.lo >= self.threshold if self.op == ">=" else e.lo > self.threshold) else "unknown"
        if e.lo > self.threshold or (self.op == "<" and e.lo >= self.threshold):
            return "broken"
        return "met" if (e.hi <= self.threshold if self.op == "<=" else e.hi < self.threshold) else "unknown"

    def holds(self, value: float) -> bool:
        """The point value satisfies the requirement (for synthetic truths and tables)."""
        return {">=": value >= self.threshold, ">": value > self.threshold, "<=": value <= self.threshold,
                "<": value < self.threshold}[self.op]


def parse_requirement(text: str) -> Requirement:
    """``decisive>=0.8``, ``plies<=200``, ``usage>=5%``."""
    m = _REQ.match(str(text).lower())
    if not m:
        raise ObjectiveError(f"--require {text!r}: write metric>=value or metric<=value, e.g. decisive>=0.8")
    name = {"decisiveness": "decisive", "length": "plies", "faction-spread": "spread"}.get(m.group(1), m.group(1))
    if name not in METRICS:
        raise ObjectiveError(f"--require {text}: unknown metric {m.group(1)!r}; known: {', '.join(METRICS)}")
    raw = m.group(3)
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        raise ObjectiveError(f"--require {text}: {raw!r} is not a number") from None
    return Requirement(name, m.group(2), value)


def seat_factions(inner: dict[str, Any], players: Sequence[str]) -> tuple[str, ...] | None:
    """The factions of an inner cell, seat by seat, when its value names one per seat (``humans/orcs``)."""
    for value in inner.values():
        parts = [p.strip() for p in re.split(r"[/,]", str(value)) if p.strip()]
        if len(parts) == len(players) and len(players) > 1:
            return tuple(parts)
    return None


__all__ = ["Context", "Objective", "ObjectiveError", "Requirement", "Sample", "metric", "parse_objective",
           "parse_requirement", "seat_factions", "z_one_sided"]
