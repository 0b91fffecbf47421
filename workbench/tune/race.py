"""Racing: successive halving with confidence bounds over a discrete space of variants.

Every variant still in the race gets games in rounds that grow its sample geometrically (``n0``,
``growth * n0``, ``growth^2 * n0``, ...; ``growth`` 1.5 by default: successive halving's schedule). After each round a variant is dropped as soon as
its interval shows it clearly worse than the best, or that it breaks a requirement; the games it
would have had go to the contenders. Only a variant that meets every requirement with confidence
can knock others out, so a variant is never dropped in favour of one that may itself be unfit, and
a variant that breaks a requirement with confidence is never recommended.

Error control: every interval and comparison uses one ``z`` from ``alpha`` split by Bonferroni
over the variants x (objectives + requirements) x the looks the budget allows, so the chance that
any drop in the whole race is wrong stays below ``alpha`` whatever the looks' dependence.

``Tuner`` holds what every search shares (variants, their samples, games spent, the budget, the
history); ``race`` runs the rounds. ``workbench.tune.optuna_search`` feeds the same ``Tuner``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .objectives import Context, Objective, Requirement, Sample, metric, seat_factions
from .space import variant_label
from .stats import Estimate, look_z

EXPLORE_SHARE = 0.6  # optuna explores with this share of the budget, then races its finalists


@dataclass(frozen=True)
class Request:
    """One game to play: its id in the dataset, variant, inner cell and index inside that cell."""

    game_id: int
    variant: int
    inner: int
    index: int


class Runner(Protocol):
    """Plays requested games (or finds them already in the dataset); returns rows by game id."""

    def play(self, requests: Sequence[Request], variants: Sequence[VariantRecord]) -> dict[int, dict[str, Any]]: ...


@dataclass
class VariantRecord:
    """A variant of the space, its games and where it stands in the search."""

    index: int
    values: dict[str, str]
    sample: Sample
    per_inner: int = 0  # games requested in each inner cell
    status: str = "alive"  # alive | dropped
    reason: str = ""
    dropped_at: int | None = None  # games spent in the whole tune when it was dropped
    verdicts: dict[str, str] = field(default_factory=dict)
    source: str = "race"

    @property
    def label(self) -> str:
        return variant_label(self.values)

    @property
    def alive(self) -> bool:
        return self.status == "alive"


class BudgetSpent(Exception):
    """No game of the budget is left."""


class Tuner:
    """The shared state of a tune: variants, samples, games spent against the budget, history."""

    def __init__(self, objectives: Sequence[Objective], requirements: Sequence[Requirement], runner: Runner,
                 budget: int, alpha: float = 0.05, inner: Sequence[dict[str, Any]] = ({},),
                 players: Sequence[str] = ("white", "black"), stride: int | None = None,
                 progress: Callable[[int], None] | None = None, tolerance: float = 0.0,
                 error: str = "holm") -> None:
        if not objectives:
            raise ValueError("a tune needs at least one objective")
        self.objectives = list(objectives)
        self.requirements = list(requirements)
        self.runner = runner
        self.budget = int(budget)
        self.alpha = float(alpha)
        self.inner = list(inner) or [{}]
        self.players = tuple(players)
        found = [seat_factions(c, self.players) for c in self.inner]
        self.factions: list[tuple[str, ...]] | None = [f for f in found if f] if all(found) else None
        self.stride = int(stride or max(1, self.budget))
        self.variants: list[VariantRecord] = []
        self._by_label: dict[str, VariantRecord] = {}
        self.spent = 0
        self.history: list[dict[str, Any]] = []
        self.progress = progress
        self.tolerance = float(tolerance)
        self.z = 2.0
        self.looks = 1
        self.comparisons = 1
        if error not in ("holm", "bonferroni"):
            raise ValueError(f"error={error!r}: holm or bonferroni")
        self.error = error
        self.rules_seen: set[str] = set()
        self.stop_reason = ""

    # ------------------------------------------------------------------ variants and games
    def variant(self, values: dict[str, str], source: str = "race") -> VariantRecord:
        """The record of ``values`` (created on first sight; its index fixes its games' ids and seeds)."""
        label = variant_label(values)
        if label not in self._by_label:
            rec = VariantRecord(len(self.variants), dict(values), Sample(len(self.inner), self.factions), source=source)
            self.variants.append(rec)
            self._by_label[label] = rec
        return self._by_label[label]

    def cell_index(self, rec: VariantRecord, inner: int) -> int:
        return rec.index * len(self.inner) + inner

    def grow(self, targets: dict[int, int]) -> int:
        """Bring each variant (by index) to ``targets[i]`` games per inner cell; returns games played.

        Games are requested in game-id order and added to the samples in that order, so a resumed
        tune (rows read back from the dataset) builds the very same samples.
        """
        requests: list[Request] = []
        for i, n in sorted(targets.items()):
            rec = self.variants[i]
            for inner in range(len(self.inner)):
                base = self.cell_index(rec, inner) * self.stride
                requests.extend(Request(base + g, i, inner, g) for g in range(rec.per_inner, n))
        if not requests:
            return 0
        if self.spent + len(requests) > self.budget:
            raise BudgetSpent
        rows = self.runner.play(requests, self.variants)
        for r in sorted(requests, key=lambda q: q.game_id):
            self.variants[r.variant].sample.add(rows[r.game_id], r.inner)
        for i, n in targets.items():
            self.variants[i].per_inner = max(self.variants[i].per_inner, n)
        self.spent += len(requests)
        for rec in {self.variants[r.variant].index: self.variants[r.variant] for r in requests}.values():
            self.rules_seen |= rec.sample.rules()
        if self.progress is not None:
            self.progress(len(requests))
        return len(requests)

    def affordable(self, recs: Sequence[VariantRecord], target: int) -> int:
        """The largest per-cell target up to ``target`` the budget pays for ``recs`` (at least their current)."""
        left = self.budget - self.spent
        k = len(self.inner)

        def cost(m: int) -> int:
            return sum(max(0, m - r.per_inner) for r in recs) * k

        if cost(target) <= left:
            return target
        lo, hi = min(r.per_inner for r in recs), target
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if cost(mid) <= left:
                lo = mid
            else:
                hi = mid - 1
        return lo

    # ------------------------------------------------------------------ judging
    def context(self, z: float | None = None) -> Context:
        return Context(self.z if z is None else z, frozenset(self.rules_seen))

    def loss(self, rec: VariantRecord, k: int = 0, z: float | None = None) -> Estimate:
        return self.objectives[k].loss(rec.sample, self.context(z))

    def metric(self, rec: VariantRecord, name: str, z: float | None = None) -> Estimate:
        return metric(name, rec.sample, self.context(z))

    def judge_requirements(self, rec: VariantRecord) -> str:
        """Update ``rec.verdicts``; ``broken`` if any requirement is broken with confidence."""
        worst = "met"
        for req in self.requirements:
            e = self.metric(rec, req.metric)
            v = req.judge(e)
            rec.verdicts[req.text] = v
            if v == "broken":
                self.drop(rec, f"breaks {req.text}: {req.metric} {e.text(req.metric in ('score', 'decisive', 'unfinished', 'usage'))}")
                return "broken"
            if v == "unknown":
                worst = "unknown"
        return worst

    def feasible(self, rec: VariantRecord) -> bool:
        return all(rec.verdicts.get(r.text) == "met" for r in self.requirements)

    def drop(self, rec: VariantRecord, reason: str) -> None:
        rec.status, rec.reason, rec.dropped_at = "dropped", reason, self.spent

    def best(self, recs: Sequence[VariantRecord]) -> VariantRecord | None:
        """The variant with the smallest point loss (first objective), ties by index."""
        scored = [(self.loss(r).value, r.index, r) for r in recs if r.sample.n > 0]
        scored = [s for s in scored if not math.isnan(s[0])]
        return min(scored)[2] if scored else None

    def eliminate(self, alive: Sequence[VariantRecord]) -> None:
        """Requirements first, then drop whatever is clearly worse than (dominated by) a fit contender."""
        for rec in alive:
            self.judge_requirements(rec)
        alive = [r for r in alive if r.alive]
        fit = [r for r in alive if self.feasible(r)]
        if not fit:
            return
        ctx = self.context()
        if len(self.objectives) == 1:
            champion = self.best(fit)
            obj = self.objectives[0]
            for rec in alive:
                if rec is champion or champion is None:
                    continue
                lower, p = obj.diff_lower(rec.sample, champion.sample, ctx)
                if lower > 0:
                    self.drop(rec, f"worse than {champion.label} on {obj.name} "
                                   f"({self.loss(rec, z=1.96).text()} vs {self.loss(champion, z=1.96).text()}, p={p:.2g})")
            return
        for rec in alive:
            for other in fit:
                if other is rec or not other.alive:
                    continue
                if all(o.diff_lower(rec.sample, other.sample, ctx)[0] > 0 for o in self.objectives):
                    self.drop(rec, f"dominated by {other.label} on {', '.join(o.name for o in self.objectives)}")
                    break

    def indifferent(self, alive: Sequence[VariantRecord]) -> bool:
        """Every contender fit, and their first-objective intervals span at most ``tolerance``."""
        if self.tolerance <= 0 or len(self.objectives) > 1 or not all(self.feasible(r) for r in alive):
            return False
        losses = [self.loss(r) for r in alive]
        return max(e.hi for e in losses) - min(e.lo for e in losses) <= self.tolerance

    def record(self, phase: str) -> None:
        """One line of the search's progress: games spent, contenders, the current best with its interval."""
        alive = [r for r in self.variants if r.alive]
        fit = [r for r in alive if self.feasible(r)] or alive
        champion = self.best(fit)
        e = self.loss(champion, z=1.96) if champion is not None else None
        self.history.append({"games": self.spent, "phase": phase, "alive": len(alive), "variants": len(self.variants),
                             "best": champion.label if champion else "", "loss": e.value if e else math.nan,
                             "lo": e.lo if e else math.nan, "hi": e.hi if e else math.nan})

    def set_z(self, comparisons: int, looks: int) -> None:
        """The z of every interval and test at a look: ``alpha`` shared by Bonferroni over the looks and
        the tests of the look. ``error='holm'`` counts the contenders still in the race (a dropped
        variant's share goes to the others, as in Holm's step-down); ``'bonferroni'`` counts every
        variant at every look (stricter, about 1.5 times the games for the last contenders)."""
        self.looks = looks
        self.comparisons = comparisons
        self.z = look_z(self.alpha, comparisons * (len(self.objectives) + len(self.requirements)), looks)

    def look(self, contenders: int) -> None:
        """Before judging a look: the z for ``contenders`` tests (Holm) or for all planned ones."""
        if self.error == "holm":
            # each contender but the champion is compared with it once per objective; each is judged once
            # per requirement
            tests = max(1, contenders - 1) * len(self.objectives) + contenders * len(self.requirements)
            self.z = look_z(self.alpha, tests, self.looks)


def planned_looks(budget: int, variants: int, cells: int, n0: int, growth: float = 2.0) -> int:
    """Rounds of the schedule before the budget is gone even if only two variants were left."""
    looks, n, spent = 1, n0, variants * cells * n0
    while spent < budget:
        m = max(n + 1, int(math.ceil(n * growth)))
        spent += 2 * cells * (m - n)
        n = m
        looks += 1
    return looks + 1


def race(tuner: Tuner, candidates: Sequence[VariantRecord], n0: int = 32, budget_end: int | None = None,
         phase: str = "race", growth: float = 2.0) -> str:
    """Race ``candidates`` until one is left, the rest are indifferent, or the budget ends; the stop reason."""
    end = tuner.budget if budget_end is None else min(budget_end, tuner.budget)
    saved, tuner.budget = tuner.budget, end
    try:
        have = min((r.per_inner for r in candidates), default=0)
        n = max(n0, have)
        if n <= have:  # candidates that already played (optuna's finalists): their next round grows them
            n = max(have + 1, int(math.ceil(have * growth)))
        while True:
            alive = [r for r in candidates if r.alive]
            if not alive:
                return "every variant broke a requirement"
            target = tuner.affordable(alive, n)
            if target <= min(r.per_inner for r in alive):
                return "budget spent"
            tuner.grow({r.index: target for r in alive})
            tuner.look(len([r for r in tuner.variants if r.alive]))
            tuner.eliminate(alive)
            tuner.record(phase)
            alive = [r for r in candidates if r.alive]
            if len(alive) == 1 and tuner.feasible(alive[0]):
                return "one variant left"
            if alive and tuner.indifferent(alive):
                return f"the contenders are within {tuner.tolerance:g} of each other"
            if target < n:
                return "budget spent"
            n = max(n + 1, int(math.ceil(n * growth)))
    finally:
        tuner.budget = saved


def run_race(tuner: Tuner, variants: Sequence[dict[str, str]], n0: int = 32, growth: float = 2.0) -> str:
    """A whole discrete race: every variant from the start; sets the race's z from the budget."""
    recs = [tuner.variant(v) for v in variants]
    looks = planned_looks(tuner.budget, len(recs), len(tuner.inner), n0, growth)
    tuner.set_z(len(recs), looks)
    tuner.stop_reason = race(tuner, recs, n0, growth=growth)
    return tuner.stop_reason
