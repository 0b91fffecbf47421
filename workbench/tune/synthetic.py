"""A simulator with a known answer, for proving the search: each variant has a true first-seat win
rate, draw rate, length and rule-firing rates, and a game is a few seeded random draws (no engine).

Each game's draws come from its own seed (the tune's seed, its cell, its index), as real games do,
so a synthetic tune resumes exactly and its answer depends only on the seed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from workbench.core.rows import derive_seed

from .race import Request, VariantRecord


@dataclass(frozen=True)
class Truth:
    """A variant's true behaviour: P(first seat wins), P(draw), mean plies (normal, sd), rule rates."""

    p_first: float
    p_draw: float = 0.0
    plies: float = 100.0
    sd_plies: float = 25.0
    fires: dict[str, float] = field(default_factory=dict)

    @property
    def score(self) -> float:
        return self.p_first + 0.5 * self.p_draw

    @property
    def balance(self) -> float:
        return abs(self.score - 0.5)

    @property
    def decisive(self) -> float:
        return 1.0 - self.p_draw

    def value(self, name: str) -> float:
        return {"score": self.score, "balance": self.balance, "decisive": self.decisive, "plies": self.plies,
                "unfinished": 0.0, "usage": min(self.fires.values()) if self.fires else 1.0}[name]


class SyntheticRunner:
    """Plays requested games from ``truth(values, inner)``; rows carry simulate's columns a tune reads."""

    def __init__(self, truth: Callable[[dict[str, str], int], Truth], seed: int = 0,
                 players: Sequence[str] = ("white", "black")) -> None:
        self.truth = truth
        self.seed = seed
        self.players = tuple(players)
        self.played = 0

    def play(self, requests: Sequence[Request], variants: Sequence[VariantRecord]) -> dict[int, dict[str, Any]]:
        out: dict[int, dict[str, Any]] = {}
        cache: dict[tuple[int, int], Truth] = {}
        names = ",".join(self.players)
        ids = np.fromiter((r.game_id for r in requests), dtype=np.uint64, count=len(requests))
        u = uniforms(self.seed, ids, 4)
        for k, r in enumerate(requests):
            key = (r.variant, r.inner)
            if key not in cache:
                cache[key] = self.truth(variants[r.variant].values, r.inner)
            t = cache[key]
            if u[k, 0] < t.p_first:
                winner, outcome = self.players[0], "win"
            elif u[k, 0] < t.p_first + t.p_draw:
                winner, outcome = "none", "draw"
            else:
                winner, outcome = self.players[1], "win"
            # a normal length from two uniforms (Box-Muller)
            g = math.sqrt(-2.0 * math.log(max(u[k, 1], 1e-300))) * math.cos(2 * math.pi * u[k, 2])
            row: dict[str, Any] = {"winner": winner, "outcome": outcome, "players": names,
                                   "plies": max(1, int(t.plies + t.sd_plies * g))}
            for j, (rule, p) in enumerate(t.fires.items()):
                row[f"rule_{rule}_{self.players[0]}"] = int(_unit(self.seed, r.game_id, 4 + j) < p)
            out[r.game_id] = row
        self.played += len(requests)
        return out


_M = np.uint64(0xFFFFFFFFFFFFFFFF)


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a well-mixed 64-bit hash, vectorised (wrapping arithmetic)."""
    with np.errstate(over="ignore"):
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        out: np.ndarray = x ^ (x >> np.uint64(31))
        return out


def uniforms(seed: int, ids: np.ndarray, k: int) -> np.ndarray:
    """``k`` uniforms in (0, 1) per game id, a pure function of (seed, id, column): exact on resume."""
    base = np.uint64(derive_seed("synthetic", seed) & 0xFFFFFFFFFFFFFFFF)
    with np.errstate(over="ignore"):
        cols = [_mix(_mix(ids * np.uint64(0x9E3779B97F4A7C15) + base) + np.uint64(j + 1)) for j in range(k)]
    return (np.stack(cols, axis=1) >> np.uint64(11)).astype(np.float64) / float(1 << 53) + 0.5 / float(1 << 53)


def _unit(seed: int, game_id: int, column: int) -> float:
    return float(uniforms(seed, np.array([game_id], dtype=np.uint64), column + 1)[0, column])


def landscape(decisive_trap: bool = False) -> tuple[list[dict[str, str]], Callable[[dict[str, str], int], Truth]]:
    """The proof's landscape: 3 x 3 x 2 x 2 = 36 variants (the issue's TerraFeud grid), a unique
    fairest variant ``a=3,b=2,c=0,d=0`` (first seat 50.5%), its nearest rival 6 points of balance
    away (``a=4``), the rest further; lengths grow with ``a`` and ``b``.

    ``decisive_trap``: the fairest variant is drawish (70% decisive), so ``decisive>=0.8`` must
    steer the search to the fairest of the others (``a=4,b=2,c=0,d=0``).
    """
    variants = [{"a": str(a), "b": str(b), "c": str(c), "d": str(d)}
                for a in (2, 3, 4) for b in (1, 2, 3) for c in (0, 1) for d in (0, 1)]

    def truth(v: dict[str, str], inner: int = 0) -> Truth:
        a, b, c, d = (int(v[k]) for k in "abcd")
        bal = 0.005 + (0.06 * (a - 3) if a > 3 else 0.12 * (3 - a)) + 0.09 * abs(b - 2) + 0.12 * c + 0.15 * d
        bal = min(bal, 0.4)
        sign = 1 if (a + b + c + d) % 2 else -1
        draw = 0.3 if decisive_trap and (a, b, c, d) == (3, 2, 0, 0) else 0.1
        return Truth(0.5 + sign * bal - draw / 2, draw, 90.0 + 20 * a + 10 * b)

    return variants, truth


def score_variance(t: Truth) -> float:
    """Variance of one game's first-seat score (1, 0.5, 0)."""
    return t.p_first + 0.25 * t.p_draw - t.score ** 2


def grid_games(variants: Sequence[dict[str, str]], truth: Callable[[dict[str, str], int], Truth], alpha: float = 0.05,
               requires: Sequence[Any] = ()) -> tuple[int, int, int]:
    """(games per variant, total, index of the answer) a full grid needs to certify the fairest fit
    variant at family-wise ``alpha``: one look, a one-sided z for the K - 1 comparisons with the
    answer (and each requirement judged), each rival's gap covered by ``z`` standard errors."""
    from .stats import look_z

    ts = [truth(v, 0) for v in variants]
    fit = [i for i, t in enumerate(ts) if all(r.holds(t.value(r.metric)) for r in requires)]
    best = min(fit, key=lambda i: ts[i].balance)
    k = len(variants)
    z = look_z(alpha, (k - 1) * (1 + len(requires)), 1)
    need = 0.0
    vb = score_variance(ts[best])
    for i, t in enumerate(ts):
        if i == best:
            continue
        gap = t.balance - ts[best].balance
        if gap > 0 and i in fit:
            need = max(need, z * z * (vb + score_variance(t)) / gap ** 2)
        for r in requires:  # a grid must also show the answer fit, and each unfit rival unfit
            if r.metric == "decisive":
                for j, tt in ((best, ts[best]), (i, t)):
                    margin = abs(tt.decisive - r.threshold)
                    if margin > 0 and (j == best or j not in fit):
                        need = max(need, z * z * tt.decisive * (1 - tt.decisive) / margin ** 2)
    n = int(math.ceil(need))
    return n, n * k, best


def bowl(optimum: dict[str, float], slopes: dict[str, float], p0: float = 0.5, draw: float = 0.1,
         plies: Callable[[dict[str, float]], float] | None = None) -> Callable[[dict[str, str], int], Truth]:
    """A smooth landscape: the first seat's score moves linearly with each rule from its ``optimum``
    value (``p0`` there), so the variant nearest the optimum is the fairest."""
    def truth(values: dict[str, str], inner: int = 0) -> Truth:
        x = {k: _num(v) for k, v in values.items()}
        score = p0 + sum(slopes[k] * (x[k] - optimum[k]) for k in slopes)
        score = min(0.95, max(0.05, score))
        p_first = score - 0.5 * draw
        return Truth(p_first, draw, plies(x) if plies else 100.0)

    return truth


def _num(v: str) -> float:
    try:
        return float(v)
    except ValueError:
        return {"true": 1.0, "false": 0.0}.get(v, float(sum(map(ord, v)) % 7))
