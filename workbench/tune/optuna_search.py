"""Large or mixed spaces: optuna proposes variants (TPE sampler), our confidence rule prunes them.

optuna's ask-and-tell interface keeps each proposed variant (a trial) open while it plays rungs of
games (``n0``, ``n0 * growth``, ...); after each rung the trial reports its loss and asks optuna's
pruner whether to stop. The pruner is ``ConfidencePruner``, an optuna ``BasePruner`` that applies
the race's own stopping rule (dropped when its interval shows it clearly worse than a fit
contender, or breaking a requirement with confidence); optuna's ``SuccessiveHalvingPruner`` can be
added on top (``halving=True``, rank-based, faster, without the confidence guarantee). When the
exploration share of the budget is spent, the best contenders go into an ordinary race, which
decides with the same intervals as a discrete tune.

optuna is deterministic for a seed and the same told values, so a resumed tune asks the same
trials in the same order and finds their games in the dataset.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from workbench.core.rulespec import format_value

from .race import EXPLORE_SHARE, Tuner, VariantRecord, planned_looks, race
from .space import Space


def distributions(space: Space) -> dict[str, Any]:
    """optuna distributions: contiguous whole numbers as ``IntDistribution`` (ordered, TPE models
    neighbours), other lists as categorical, continuous ranges as ``FloatDistribution``."""
    import optuna

    out: dict[str, Any] = {}
    for d in space.dims:
        if d.continuous:
            assert d.low is not None and d.high is not None  # a continuous dimension is a range
            out[d.name] = optuna.distributions.FloatDistribution(float(d.low), float(d.high))
            continue
        try:
            ints = [int(v) for v in d.values]
        except ValueError:
            ints = []
        if ints and ints == list(range(min(ints), max(ints) + 1)) and len(ints) > 2:
            out[d.name] = optuna.distributions.IntDistribution(min(ints), max(ints))
        else:
            out[d.name] = optuna.distributions.CategoricalDistribution(list(d.values))
    return out


def _text(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return format_value(value)


def make_pruner(tuner: Tuner, records: dict[int, VariantRecord], halving: bool, seed: int) -> Any:
    """An optuna pruner that prunes a trial when the race's rule has dropped its variant."""
    import optuna

    class ConfidencePruner(optuna.pruners.BasePruner):
        """Prune exactly the trials whose variant the confidence rule dropped (see ``Tuner.eliminate``)."""

        def __init__(self) -> None:
            self.halving = optuna.pruners.SuccessiveHalvingPruner(min_resource=1, reduction_factor=2) if halving else None

        def prune(self, study: optuna.Study, trial: optuna.trial.FrozenTrial) -> bool:
            rec = records.get(trial.number)
            if rec is None:
                return False
            if not rec.alive:
                return True
            if self.halving is not None and self.halving.prune(study, trial):
                tuner.drop(rec, "pruned by successive halving (rank among trials, not a confidence bound)")
                return True
            return False

    return ConfidencePruner()


def run_optuna(tuner: Tuner, space: Space, check: Callable[[dict[str, str]], str | None] | None = None,
               n0: int = 32, growth: float = 1.5, seed: int = 0, batch: int = 4, rungs: int = 4,
               explore: float = EXPLORE_SHARE, finalists: int = 4, halving: bool = False) -> str:
    """Explore with optuna for ``explore`` of the budget, then race the ``finalists``; the stop reason."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    dists = distributions(space)
    cells = len(tuner.inner)
    schedule = [n0]
    for _ in range(rungs - 1):
        schedule.append(max(schedule[-1] + 1, int(math.ceil(schedule[-1] * growth))))
    per_trial = schedule[-1] * cells
    max_trials = max(2, int(tuner.budget * explore) // max(1, n0 * cells))
    tuner.set_z(max_trials, planned_looks(tuner.budget, max_trials, cells, n0, growth) + rungs)
    records: dict[int, VariantRecord] = {}
    sampler = optuna.samplers.TPESampler(seed=seed, multivariate=True, constant_liar=True,
                                         n_startup_trials=min(10, max(2, max_trials // 4)))
    study = optuna.create_study(direction="minimize", sampler=sampler, pruner=make_pruner(tuner, records, halving, seed))
    explore_end = int(tuner.budget * explore)
    stale = 0
    size = space.size
    while tuner.spent + n0 * cells <= explore_end and stale < 30:
        fresh: list[tuple[Any, VariantRecord]] = []
        for _ in range(batch):
            trial = study.ask(dists)
            values = {k: _text(trial.params[k]) for k in dists}
            reason = check(values) if check is not None else None
            if reason is not None:
                study.tell(trial, state=optuna.trial.TrialState.FAIL)
                stale += 1
                continue
            known = len(tuner.variants)
            rec = tuner.variant(values, source="optuna")
            if len(tuner.variants) == known:  # proposed again: tell what it already showed
                stale += 1
                loss = tuner.loss(rec).value
                if rec.alive and rec.sample.n and not math.isnan(loss):
                    study.tell(trial, loss)
                else:
                    study.tell(trial, state=optuna.trial.TrialState.PRUNED)
                continue
            stale = 0
            records[trial.number] = rec
            fresh.append((trial, rec))
        for n in schedule:
            open_ = [(t, r) for t, r in fresh if r.alive]
            if not open_:
                break
            target = tuner.affordable([r for _, r in open_], n)
            if target <= min(r.per_inner for _, r in open_):
                break
            tuner.grow({r.index: target for _, r in open_})
            tuner.look(len([r for r in tuner.variants if r.alive]))
            # the open trials against the best few earlier ones (all of them would cost O(trials) per rung)
            others = sorted((r for r in tuner.variants if r.alive and all(r is not o for _, o in open_)),
                            key=lambda r: (not tuner.feasible(r), _loss(tuner, r)))[:3]
            tuner.eliminate([r for _, r in open_] + others)
            for t, r in open_:
                loss = tuner.loss(r).value
                t.report(0.0 if math.isnan(loss) else loss, step=r.sample.games)
                if t.should_prune():
                    if r.alive:
                        tuner.drop(r, "pruned")
            tuner.record("optuna")
        for t, r in fresh:
            loss = tuner.loss(r).value
            if r.alive and not math.isnan(loss):
                study.tell(t, loss)
            else:
                study.tell(t, state=optuna.trial.TrialState.PRUNED)
        if size is not None and len(tuner.variants) >= size:
            break
    del per_trial
    alive = [r for r in tuner.variants if r.alive]
    # finalists by their pessimistic (95% upper) loss: a lucky variant of 32 games does not push out a
    # well-measured good one
    fit_first = sorted(alive, key=lambda r: (not tuner.feasible(r), _upper(tuner, r), r.index))
    final = fit_first[:finalists]
    for r in fit_first[finalists:]:
        tuner.drop(r, f"not among the {finalists} finalists when exploration ended (no confidence claim)")
    if not final:
        tuner.stop_reason = "no variant left after exploration"
        return tuner.stop_reason
    tuner.stop_reason = race(tuner, final, n0=max(r.per_inner for r in final), phase="final race", growth=growth)
    return tuner.stop_reason


def _loss(tuner: Tuner, r: VariantRecord) -> float:
    v = tuner.loss(r).value
    return math.inf if math.isnan(v) else v


def _upper(tuner: Tuner, r: VariantRecord) -> float:
    v = tuner.loss(r, z=1.96).hi
    return math.inf if math.isnan(v) else v
