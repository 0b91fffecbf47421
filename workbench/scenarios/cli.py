"""``python -m workbench check PATH... [--rules k=v ...] [--json] [--compare k=v ...]``.

One line per scenario (``PASS id``, ``FAIL id: what differed``, ``ERROR file: line N: reason``),
exit 0 only when every scenario passes. ``--rules`` overrides toggles or parameters of every scenario.
``--compare`` runs everything twice, as written and under the variant (``archer_range=3``,
``castling_uses=0``, ``bridges=b4,k4`` ...), and lists the checks whose outcome changes: how a
designer sees what a rule change touches. A bad file never stops the run.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from workbench.core.rulespec import RulesError, parse_pairs
from workbench.core.scenario import CheckResult, ScenarioCase, ScenarioError, moved_path, scenario_status
from workbench.games import DEFAULT, get, names

from .loader import find_scenario_files, load_scenarios


def _pairs(groups: list[list[str]] | None, option: str = "--rules") -> dict[str, str]:
    """``--rules a=1 b=2 --rules c=3`` (commas also allowed) into one validated mapping.

    Hex lists read naturally: ``--compare bridges=b4,k4 fords=d5`` is ``{"bridges": "b4,k4", "fords": "d5"}``.
    """
    out: dict[str, str] = {}
    for group in groups or []:
        for item in group:
            out.update(parse_pairs(item))
    if "start" in out:
        raise RulesError(f"{option} start={out['start']}: start= does not apply to check, because every scenario "
                         "sets its own position (use it with simulate, bench or the widget)")
    _validate_somewhere(out)  # unknown toggles, parameters or values fail here, before any file runs
    return out


def _validate_somewhere(values: dict[str, str]) -> None:
    """Refuse ``values`` unless some registered game (the default one first) accepts every one of them.

    Each scenario then applies them under its own game's spec, so a value one file's game does not
    know is that file's error, named, and the other files still run. The error shown is the default
    game's, since most files are its.
    """
    error: ValueError | None = None
    for name in [DEFAULT, *(n for n in names() if n != DEFAULT)]:
        try:
            get(name).rules(values)
            return
        except ValueError as exc:  # RulesError, or a game's own ValueError
            error = error or exc
    if error is not None:
        raise RulesError(str(error))


def _parser() -> argparse.ArgumentParser:
    from workbench.core.cliargs import Parser  # errors in one line, exit 2

    p = Parser(prog="python -m workbench check", description=__doc__.split("\n\n")[0])
    p.add_argument("paths", nargs="+", help="scenario files or directories (every *.yaml below them)")
    p.add_argument("--rules", action="append", nargs="+", metavar="KEY=VALUE",
                   help="override these rule toggles or parameters in every scenario, e.g. castling=sacrifice")
    p.add_argument("--compare", action="append", nargs="+", metavar="KEY=VALUE",
                   help="also run under this variant (toggles or parameters, e.g. archer_range=3) and list the "
                        "checks whose outcome changes")
    p.add_argument("--json", action="store_true", help="print one JSON document instead of lines")
    p.add_argument("--engine", default="python", choices=("python", "native", "auto"),
                   help="native: run the checks of games whose scenarios offer it (their `engines`) on the native core; others on Python")
    return p


def _native_built() -> bool:
    """True when some game's native core is built (``GameDef.native.available``; one crate holds them all)."""
    return any(get(name).native.available() for name in names())


def _failure_text(results: list[CheckResult], status: str) -> str:
    return "; ".join(r.message for r in results if r.status == status)


def scenario_line(path: Path, item: ScenarioCase | ScenarioError, results: list[CheckResult] | None) -> str:
    """The one report line of a scenario."""
    if isinstance(item, ScenarioError):
        return f"ERROR {item}"
    assert results is not None
    status = scenario_status(results)
    if status == "error":
        return f"ERROR {path}: {_failure_text(results, 'error')}"
    if status == "fail":
        return f"FAIL {item.id}: {_failure_text(results, 'fail')}"
    return f"PASS {item.id}" + ("" if item.checks else " (no checks)")


def _record(path: Path, item: ScenarioCase | ScenarioError, results: list[CheckResult] | None) -> dict[str, Any]:
    if isinstance(item, ScenarioError):
        return {"path": str(path), "id": None, "status": "error", "error": str(item), "line": item.line, "checks": []}
    assert results is not None
    return {
        "path": str(path), "id": item.id, "title": item.title, "ruling": item.ruling, "status": scenario_status(results),
        "error": None, "checks": [r.to_dict() for r in results],
    }


def _run(item: Any, overrides: dict[str, str], engine: str) -> list[CheckResult]:
    """``item.run`` on ``engine`` when its game has that engine (``engines``), else on Python."""
    if engine != "python" and engine in getattr(item, "engines", ()):
        results: list[CheckResult] = item.run(overrides or None, engine=engine)
        return results
    results = item.run(overrides or None)
    return results


def run_check_command(paths: list[str], overrides: dict[str, str], as_json: bool, out: TextIO,
                      engine: str = "python") -> int:
    """Run every scenario under ``paths``; print lines or JSON; 0 only when all pass."""
    records = []
    counts = {"pass": 0, "fail": 0, "error": 0}
    on_python: dict[str, int] = {}  # asked for another engine, played on Python: game -> scenarios
    for path, item in load_scenarios(paths):
        results = None if isinstance(item, ScenarioError) else _run(item, overrides, engine)
        if results is not None and engine != "python" and engine not in getattr(item, "engines", ()):
            game = getattr(item, "game", None)  # a name; the default game's Scenario.game is a method
            name = game if isinstance(game, str) else DEFAULT
            on_python[name] = on_python.get(name, 0) + 1
        rec = _record(path, item, results)
        counts[rec["status"]] += 1
        records.append(rec)
        if not as_json:
            print(scenario_line(path, item, results), file=out)
    if as_json:
        json.dump({"rules": overrides, "summary": counts, "scenarios": records}, out, indent=1)
        out.write("\n")
    else:
        print(f"{sum(counts.values())} scenarios: {counts['pass']} pass, {counts['fail']} fail, "
              f"{counts['error']} error", file=sys.stderr)
    for name, n in sorted(on_python.items()):  # never let "native" stand for a run that was not
        print(f"--engine {engine}: {n} {name} scenario(s) ran on the Python engine ({name}'s checks have no "
              f"{engine} path)", file=sys.stderr)
    return 0 if counts["fail"] == counts["error"] == 0 else 1


def compare_variant(paths: list[str], base: dict[str, str], variant: dict[str, str]) -> dict[str, Any]:
    """Run every scenario under ``base`` and ``base + variant``; the checks whose outcome changes."""
    changes: list[dict[str, Any]] = []
    errors: list[str] = []
    total = 0
    merged = {**base, **variant}
    for _path, item in load_scenarios(paths):
        if isinstance(item, ScenarioError):
            errors.append(str(item))
            continue
        before = {r.index: r for r in item.run(base or None)}
        after = {r.index: r for r in item.run(merged)}
        total += len(item.checks)
        for index in sorted(set(before) | set(after)):
            b, a = before.get(index), after.get(index)
            b_status, a_status = (b.status if b else "not run"), (a.status if a else "not run")
            if b_status != a_status:
                line = (a or b).line  # type: ignore[union-attr]
                changes.append({
                    "id": item.id, "title": item.title, "check": index, "line": line,
                    "before": b_status, "after": a_status, "message": (a.message if a and not a.ok else (b.message if b else "")),
                })
    return {"base": base, "variant": variant, "checks": total, "changes": changes, "errors": errors}


def _print_compare(report: dict[str, Any], out: TextIO) -> None:
    label = ",".join(f"{k}={v}" for k, v in report["variant"].items())
    base = ",".join(f"{k}={v}" for k, v in report["base"].items()) or "each scenario's own rules"
    changes = report["changes"]
    scenarios = len({c["id"] for c in changes})
    print(f"variant {label} against {base}: {len(changes)} of {report['checks']} checks change outcome "
          f"in {scenarios} scenarios", file=out)
    for c in changes:
        where = "position" if c["check"] == 0 else f"check {c['check']} (line {c['line']})"
        print(f"CHANGED {c['id']}: {c['before']} -> {c['after']}: {c['message'] or where}", file=out)
    for e in report["errors"]:
        print(f"ERROR {e}", file=out)


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    """Entry point of ``python -m workbench check``; exit 0 all pass, 1 otherwise, 2 usage."""
    out = out or sys.stdout
    args = _parser().parse_args(argv)
    try:
        overrides = _pairs(args.rules)
        variant = _pairs(args.compare, "--compare")
    except RulesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    missing = [p for p in args.paths if not moved_path(p).exists()]
    if missing:
        print(f"error: no such file or directory: {', '.join(missing)}", file=sys.stderr)
        return 2
    if not find_scenario_files(args.paths):
        print(f"error: no scenario files (*.yaml) under {' '.join(args.paths)}", file=sys.stderr)
        return 2
    if variant:
        report = compare_variant(args.paths, overrides, variant)
        if args.json:
            json.dump(report, out, indent=1)
            out.write("\n")
        else:
            _print_compare(report, out)
        return 1 if report["errors"] else 0
    engine = args.engine
    if engine != "python":
        built = _native_built()
        if engine == "native" and not built:
            print("error: --engine native: the native core is not built (make setup with cargo)", file=sys.stderr)
            return 2
        engine = "native" if built else "python"
    return run_check_command(args.paths, overrides, args.json, out, engine)


if __name__ == "__main__":
    sys.exit(main())
