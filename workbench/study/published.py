"""``python -m workbench published --game NAME``: the figures a game's rulebook or contract publishes, measured again.

A game declares its published tables as data (``GameDef.published_file``, JSON in its folder): each table has
lines (rules, one agent playing itself, the published values) and measures (the share of rows whose
``column`` equals a value, or the mean of a column). This plays every line through ``simulate`` (the
game's seeds, games 0..N-1 of ``--seed``) and prints each measure with its 95 % interval (Wilson for a
share, normal for a mean) beside the published figure, ``*`` when the figure lies outside the interval.
The publishers' own seeds and random streams are not known, so agreement is statistical, not exact.
"""

from __future__ import annotations

import json
import math
import sys
import time
from typing import Any

from workbench.core.cliargs import Parser, seed, whole

MAX_FILE_BYTES = 256 * 1024  # a published table is a few kB


class PublishedError(ValueError):
    """A published-tables file that cannot be used (the message names the file and the entry)."""


def published_tables(game: Any) -> list[dict[str, Any]]:
    """The game's published tables, checked; ``[]`` when it declares none."""
    from workbench.core.safefile import UnsafeFileError, read_text_capped
    from workbench.core.strength import game_folder

    if not game.published_file:
        return []
    path = game_folder(game) / game.published_file
    try:
        data = json.loads(read_text_capped(path, MAX_FILE_BYTES))
    except (UnsafeFileError, ValueError) as exc:
        raise PublishedError(f"{path}: not a published-tables file ({type(exc).__name__})") from None
    tables = data.get("tables") if isinstance(data, dict) else None
    if not isinstance(tables, list):
        raise PublishedError(f"{path}: a published-tables file is {{\"tables\": [...]}}")
    for i, t in enumerate(tables):
        where = f"{path}: table {i + 1}"
        if not isinstance(t, dict) or not isinstance(t.get("name"), str) or not isinstance(t.get("lines"), list):
            raise PublishedError(f"{where}: needs a name and lines")
        measures = t.get("measures")
        if not isinstance(measures, list) or not measures or not all(
                isinstance(m, dict) and isinstance(m.get("column"), str) and ("equals" in m or m.get("mean"))
                for m in measures):
            raise PublishedError(f"{where}: each measure names a column and either equals or mean")
        for j, line in enumerate(t["lines"]):
            ok = isinstance(line, dict) and isinstance(line.get("agent"), str) and isinstance(line.get("rules"), dict) \
                and isinstance(line.get("expect"), list) and len(line["expect"]) == len(measures) \
                and all(isinstance(v, (int, float)) for v in line["expect"])
            if not ok:
                raise PublishedError(f"{where}, line {j + 1}: needs agent, rules and one expected value per measure")
    return tables


def mean_interval(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean and its normal 95 % interval (half-width z s/sqrt(n); a single value gives its own bounds)."""
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = z * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def measure_line(game: str, table: dict[str, Any], line: dict[str, Any], games: int, seed_: int,
                 workers: int | None, engine: str) -> dict[str, Any]:
    """One line played again: each measure as (value, low, high, published, inside)."""
    from workbench.balance.stats import wilson_interval
    from workbench.simulate import simulate

    t0 = time.perf_counter()
    agent = line["agent"]
    df = simulate([dict(line["rules"])], agent, agent, games, seed=seed_, game=game, agents=[agent], workers=workers,
                  engine=engine, progress=False, max_plies=int(table.get("max_plies", 100_000)))
    assert not isinstance(df, tuple)  # events off: the games table alone
    out = []
    for m, expected in zip(table["measures"], line["expect"], strict=True):
        if m["column"] not in df.columns:
            raise PublishedError(f"measure {m.get('label', m['column'])!r}: the game's rows have no column "
                                 f"{m['column']!r}")
        col = df[m["column"]]
        if m.get("mean"):
            value, lo, hi = mean_interval([float(v) for v in col])
        else:
            k = int((col.astype(str) == str(m["equals"])).sum())
            lo, hi = wilson_interval(k, len(df))
            value, lo, hi = 100 * k / len(df), 100 * lo, 100 * hi
        out.append({"label": m.get("label", m["column"]), "value": value, "low": lo, "high": hi,
                    "published": float(expected), "inside": lo - 1e-9 <= expected <= hi + 1e-9, "mean": bool(m.get("mean"))})
    return {"line": line.get("label", ""), "agent": agent, "games": len(df), "measures": out,
            "errors": int((df["victory"] == "error").sum()), "engine": "/".join(sorted(set(df["engine"]))),
            "seconds": time.perf_counter() - t0}


def _cell(m: dict[str, Any]) -> str:
    star = " " if m["inside"] else "*"
    if m["mean"]:
        return f"{m['value']:6.1f} ({m['low']:.0f}-{m['high']:.0f}) vs {m['published']:g}{star}"
    return f"{m['value']:5.1f} % ({m['low']:4.1f}-{m['high']:4.1f}) vs {m['published']:4.1f}{star}"


def main(argv: list[str] | None = None) -> int:
    """Play a game's published table(s) and print each figure beside the published one."""
    from workbench.games import DEFAULT, get

    ap = Parser(prog="python -m workbench published", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default=DEFAULT, help="the game (python -m workbench games)")
    ap.add_argument("--table", default="", help="one table by name (default: every table the game publishes)")
    ap.add_argument("--games", type=whole(1, 100_000), default=None, help="games per line (default: the table's)")
    ap.add_argument("--lines", default="", help="only lines whose label starts with one of these (comma-separated)")
    ap.add_argument("--seed", type=seed(), default=0)
    ap.add_argument("--workers", type=whole(0, 256), default=None, help="processes (default: every core; 0: here)")
    ap.add_argument("--engine", default="auto", choices=("auto", "native", "python"))
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    try:
        game = get(args.game)
        tables = [t for t in published_tables(game) if not args.table or t["name"] == args.table]
    except ValueError as exc:
        print(f"published: error: {exc}", file=sys.stderr)
        return 2
    if not tables:
        print(f"published: error: {game.name} publishes no table{' ' + repr(args.table) if args.table else ''}",
              file=sys.stderr)
        return 2
    wanted = [w.strip() for w in args.lines.split(",") if w.strip()]
    for table in tables:
        if not args.json:
            print(f"{table.get('title', table['name'])}; source: {table.get('source', '?')}. Each figure with its "
                  "95 % interval, then the published one (* = outside the interval)")
        for line in table["lines"]:
            if wanted and not any(str(line.get("label", "")).startswith(w) for w in wanted):
                continue
            try:
                r = measure_line(game.name, table, line, args.games or int(table.get("games", 200)), args.seed,
                                 args.workers, args.engine)
            except ValueError as exc:
                print(f"published: error: {table['name']}: {exc}", file=sys.stderr)
                return 2
            if args.json:
                print(json.dumps({"table": table["name"], **r}))
                continue
            cells = "  ".join(f"{m['label']}: {_cell(m)}" for m in r["measures"])
            print(f"{r['line']:<35} {r['agent']:<8} {cells}  [{r['games']} games, {r['engine']}, {r['seconds']:.0f} s"
                  + (f", {r['errors']} errors]" if r["errors"] else "]"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
