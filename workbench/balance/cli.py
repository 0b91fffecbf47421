"""``python -m workbench report FILE.parquet --out DIR``: write DIR/report.html and DIR/report.md.

FILE is what ``python -m workbench simulate --out FILE.parquet`` wrote (a Parquet dataset
directory, or a single Parquet/CSV file). The events table is read from ``--events FILE`` or,
when not given, from the sibling ``FILE.events.parquet`` that ``simulate --events`` writes.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pandas as pd

from workbench.core.cliargs import Parser, number

from .report import build_report
from .stats import BalanceError


def sibling_events(path: Path) -> Path | None:
    """The events table that ``simulate`` writes next to a games table (``NAME.events.parquet``), if any."""
    stem = path.name[: -len(path.suffix)] if path.suffix else path.name
    candidate = path.with_name(f"{stem}.events{path.suffix or '.parquet'}")
    return candidate if candidate != path and candidate.exists() else None


def read_table(path: Path, what: str) -> pd.DataFrame:
    """Read a Parquet (or CSV) table, or raise a ``BalanceError`` naming the file."""
    if not path.exists():
        raise BalanceError(f"{path}: no such {what} file")
    try:
        if path.suffix == ".csv":
            return pd.read_csv(path)
        if path.is_dir():  # a simulate dataset: its reader merges the part files and drops repeats
            from workbench.simulate.core import read_events, read_results
            return read_events(path) if what == "events" else read_results(path)
        return pd.read_parquet(path)
    except Exception as exc:  # pyarrow raises several kinds; the user needs the file name and the cause
        raise BalanceError(f"{path}: cannot read the {what} table ({exc})") from exc


def read_manifest(path: Path) -> dict[str, Any] | None:
    """The batch manifest ``simulate`` stores in its Parquet parts (its ``max_plies`` is the cap), if any."""
    import json

    import pyarrow.parquet as pq

    parts = sorted(path.glob("part-*.parquet")) if path.is_dir() else [path] if path.suffix == ".parquet" else []
    for part in parts:
        try:
            meta = pq.read_schema(part).metadata or {}
        except Exception:  # noqa: BLE001 - an unreadable part is reported by read_table, not here
            continue
        value = meta.get(b"workbench.run")
        if value is not None:
            try:
                data = json.loads(value.decode("utf-8", "replace"))
                return data if isinstance(data, dict) else None
            except ValueError:
                return None
    return None


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, build the report, print where it went; plain-words error and exit 1 on bad input."""
    parser = Parser(prog="python -m workbench report", description=__doc__.splitlines()[0])
    parser.add_argument("games", type=Path, help="games table written by `python -m workbench simulate` (Parquet)")
    parser.add_argument("--out", type=Path, required=True, help="directory for report.html, report.md and figures/")
    parser.add_argument("--events", type=Path, default=None, help="events table (default: a sibling file if present)")
    parser.add_argument("--correction", choices=("holm", "bh", "none"), default="holm",
                        help="multiple-comparison correction (default holm)")
    parser.add_argument("--alpha", type=number(0.0, 0.5, open_low=True), default=0.05,
                        help="significance level after correction (more than 0, at most 0.5)")
    parser.add_argument("--title", default=None, help="the report's title (default: '<game> balance report')")
    parser.add_argument("--threshold", type=float, default=0.2,
                        help="share of unfinished games over which a cell gets no balance verdict (default 0.2)")
    parser.add_argument("--mixed-caps", choices=("refuse", "warn"), default="refuse",
                        help="a table whose games have different caps: refuse (default) or warn loudly and pool")
    args = parser.parse_args(argv)
    try:
        games = read_table(args.games, "games")
        events_path = args.events or sibling_events(args.games)
        events = read_table(events_path, "events") if events_path else None
        report = build_report(games, events, title=args.title, correction=args.correction, alpha=args.alpha,
                              source=str(args.games), threshold=args.threshold, manifest=read_manifest(args.games),
                              mixed_caps=args.mixed_caps)
        html_path, md_path = report.write(args.out)
    except BalanceError as exc:
        print(f"report: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:  # --out on a read-only folder, a full disk: one line naming the path, no traceback
        where = exc.filename or args.out
        print(f"report: error: cannot write the report to {where}: {exc.strerror or type(exc).__name__}",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("report: interrupted; nothing was written past the interruption", file=sys.stderr)
        return 130
    cells, comps = len(report.summary), len(report.comparisons)
    print(f"wrote {html_path} and {md_path} ({cells} cell{'s' * (cells != 1)}, "
          f"{comps} comparison{'s' * (comps != 1)})")
    if report.study is not None:
        for line in (*report.study.warnings, report.study.sentence()):
            print("  " + line)
    for c in report.comparisons:
        print("  " + c.verdict())
    return 0
