"""``python -m workbench limits``: where the draws come from, the game's length limit or the agents (a limit sweep).

``python -m workbench limits --game G --agents SPEC --values 100,200,400 --games 100 [--param NAME]`` plays the
same self-play batch (or one agent per seat) at each value of a limit rule the game declares (``Param.limit``:
a turn limit, a quiet-move draw; ``--param`` picks one when the game has several) and prints, per value, the
share of games decided and each seat's wins with 95% intervals, the first seat's share of the decided games,
and the CPU seconds spent. Its sentences follow the rule written in ``docs/balance.md`` ("Where the draws come
from"):

- **the limit makes draws** when the share decided at the largest value exceeds the share at the smallest with
  the 95% interval of the difference above 0 (the smaller limit draws games that a longer one decides);
- the draws still left at the largest value are the agents' (or a longer game's): nothing is claimed past it;
- **a first-seat edge** only when the first seat's share of the decided games, pooled over the values, has its
  95% interval wholly off 50%; otherwise none is shown, with the decided games a 10-point edge would need.
"""

from __future__ import annotations

import math
import resource
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from workbench.balance.stats import newcombe_interval, wilson_interval
from workbench.core.cliargs import Parser, max_workers, seed, whole
from workbench.games import DEFAULT


def limit_param(game: str, name: str | None = None) -> str:
    """The limit rule to sweep: ``name`` when the game declares it a limit, else the game's only one."""
    from workbench.games import get

    gdef = get(game)
    declared = gdef.spec.limit_params()
    if name is not None:
        if name not in declared:
            listed = ", ".join(declared) or "none"
            raise ValueError(f"{gdef.name} declares no limit rule {name[:40]!r}; its limit rules: {listed}")
        return name
    if len(declared) != 1:
        listed = ", ".join(declared) or "none"
        raise ValueError(f"{gdef.name} declares {len(declared)} limit rules ({listed}); name one with --param")
    return declared[0]


@dataclass(frozen=True)
class LimitRow:
    """One value of the limit: its games, decided games and seats' wins."""

    value: Any
    games: int
    decided: int
    first_wins: int
    second_wins: int
    mean_plies: float

    def cells(self) -> dict[str, object]:
        lo, hi = wilson_interval(self.decided, self.games)
        f_lo, f_hi = wilson_interval(self.first_wins, self.games)
        s_lo, s_hi = wilson_interval(self.second_wins, self.games)
        out: dict[str, object] = {
            "value": self.value, "games": self.games,
            "decided": f"{self.decided / self.games:.0%} [{lo:.0%}, {hi:.0%}]",
            "first seat wins": f"{self.first_wins / self.games:.0%} [{f_lo:.0%}, {f_hi:.0%}]",
            "second seat wins": f"{self.second_wins / self.games:.0%} [{s_lo:.0%}, {s_hi:.0%}]",
        }
        if self.decided:
            d_lo, d_hi = wilson_interval(self.first_wins, self.decided)
            out["first seat's share of decided"] = f"{self.first_wins / self.decided:.0%} [{d_lo:.0%}, {d_hi:.0%}]"
        else:
            out["first seat's share of decided"] = "– (no decided game)"
        out["mean plies"] = f"{self.mean_plies:.0f}"
        return out


def limit_rows(table: pd.DataFrame, param: str) -> list[LimitRow]:
    """Per value of ``param`` (rising): games, decided, the first and the second seat's wins (errors left out)."""
    from workbench.balance.table import seats_of

    ok = table[table["error"].isna()] if "error" in table.columns else table
    if not len(ok):
        raise ValueError("no game finished without an error")
    seats = seats_of(ok)
    rows = []
    for value, part in sorted(ok.groupby(param), key=lambda kv: kv[0]):
        winners = part["winner"].astype(str)
        decided = int((part["outcome"] == "win").sum())
        rows.append(LimitRow(value, len(part), decided, int((winners == seats[0]).sum()),
                             int((winners == seats[1]).sum()) if len(seats) > 1 else 0,
                             float(part["plies"].mean())))
    return rows


def markdown(rows: Sequence[LimitRow], param: str) -> str:
    """The sweep as a markdown table, one row per value."""
    cells = [r.cells() for r in rows]
    head = [param, *list(cells[0])[1:]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(v) for v in c.values()) + " |" for c in cells]
    return "\n".join(lines)


def verdict(rows: Sequence[LimitRow], param: str) -> list[str]:
    """The sentences of the rule in the module docstring (and ``docs/balance.md``)."""
    low, high = rows[0], rows[-1]
    out = []
    if len(rows) >= 2:
        d_lo, d_hi = newcombe_interval(low.decided, low.games, high.decided, high.games)  # high minus low
        diff = high.decided / high.games - low.decided / low.games
        change = (f"{low.decided / low.games:.0%} of games decided at {param}={low.value}, "
                  f"{high.decided / high.games:.0%} at {param}={high.value} ({diff * 100:+.1f} points, 95% CI "
                  f"[{d_lo * 100:+.1f}, {d_hi * 100:+.1f}])")
        if d_lo > 0:
            out.append(f"The limit makes draws: {change}; {param}={low.value} draws games that a longer limit "
                       f"decides.")
        elif d_hi < 0:
            out.append(f"A longer limit decides fewer games: {change}.")
        else:
            out.append(f"No effect of the limit on the draws is shown: {change}.")
    left = high.games - high.decided
    l_lo, l_hi = wilson_interval(left, high.games)
    out.append(f"At {param}={high.value}, {left / high.games:.0%} [{l_lo:.0%}, {l_hi:.0%}] of the games are still "
               f"undecided: those the agents do not finish within it; nothing is claimed past {param}={high.value}.")
    first = sum(r.first_wins for r in rows)
    decided = sum(r.first_wins + r.second_wins for r in rows)
    if decided == 0:
        out.append("No game was decided: nothing is said of the first seat.")
        return out
    f_lo, f_hi = wilson_interval(first, decided)
    share = f"{first / decided:.0%} [{f_lo:.0%}, {f_hi:.0%}] of {decided} decided games (pooled over the values)"
    if f_lo > 0.5:
        out.append(f"The first seat has an edge: it wins {share}.")
    elif f_hi < 0.5:
        out.append(f"The second seat has an edge: the first wins only {share}.")
    else:
        need = math.ceil((1.96 + 0.84) ** 2 * 0.25 / 0.1 ** 2)  # a 10-point edge at 80% power
        out.append(f"No first-seat edge is shown: the first seat wins {share}; about {need} decided games would "
                   f"see a 10-point edge.")
    return out


def run_sweep(game: str, param: str, values: Sequence[Any], agents: Sequence[str], games: int, seed: int,
              rules: dict[str, Any] | None = None, max_plies: int | None = None, workers: int | None = None,
              engine: str = "auto", progress: bool = True) -> pd.DataFrame:
    """One batch per value of ``param`` (the other rules fixed by ``rules``), stacked into one games table."""
    from workbench.simulate import simulate

    grid: dict[str, Sequence[Any]] = {k: [v] for k, v in (rules or {}).items()}
    if param in grid:
        raise ValueError(f"{param} is both swept and fixed by --rules")
    grid[param] = list(values)
    df = simulate(grid, agents[0], agents[-1], games, seed=seed, game=game, agents=list(agents), max_plies=max_plies,
                  workers=workers, engine=engine, progress=progress)
    return df[0] if isinstance(df, tuple) else df


def _cpu() -> float:
    """CPU seconds of this process and its finished workers."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main(argv: list[str] | None = None) -> int:
    """Play the sweep, print its table (markdown) and sentences; ``--out`` keeps the games."""
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = Parser(prog="python -m workbench limits", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default=DEFAULT, help="the game (python -m workbench games)")
    ap.add_argument("--agents", nargs="+", required=True, metavar="SPEC",
                    help="one agent for every seat (self-play), or one per seat in seat order")
    ap.add_argument("--values", required=True, metavar="V1,V2,...", help="the limit's values, e.g. 100,200,400")
    ap.add_argument("--param", default=None, help="the limit rule (default: the game's only declared one)")
    ap.add_argument("--rules", default="", metavar="K=V,...", help="fixed rules of every batch")
    ap.add_argument("--games", type=whole(2, 1_000_000), default=100, help="games per value")
    ap.add_argument("--seed", type=seed(), default=0)
    ap.add_argument("--max-plies", type=whole(1, 10_000_000), default=None,
                    help="the tool's ply cap (default: the game's own for each value)")
    ap.add_argument("--workers", type=whole(0, max_workers()), default=None)
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"))
    ap.add_argument("--out", default=None, help="write the stacked games table to this Parquet file")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    try:
        from workbench.core.rulespec import parse_pairs
        from workbench.games import get

        gdef = get(args.game)
        param = limit_param(gdef.name, args.param)
        values = [gdef.spec[param].parse(v.strip()) for v in args.values.split(",") if v.strip()]
        if len(values) < 2 or len(set(values)) != len(values):
            raise ValueError(f"--values {args.values[:60]!r}: give at least two different values of {param}")
        rules = parse_pairs(args.rules) if args.rules else {}
        gdef.rules({**rules, param: values[0]})  # refuse a bad rule before any game
        t0, c0 = time.perf_counter(), _cpu()
        table = run_sweep(gdef.name, param, values, [a.strip() for a in args.agents], args.games, args.seed, rules,
                          args.max_plies, args.workers, args.engine, progress=not args.no_progress)
        seconds, cpu = time.perf_counter() - t0, _cpu() - c0
        rows = limit_rows(table, param)
    except (ValueError, KeyError) as exc:
        print(f"limits: error: {exc}", flush=True)
        return 2
    if args.out:
        table.to_parquet(args.out)
    print(markdown(rows, param))
    for sentence in verdict(rows, param):
        print(sentence)
    print(f"{len(table)} games in {seconds:.1f} s wall, {cpu:.1f} s of CPU (this process and its workers)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
