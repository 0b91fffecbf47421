"""``python -m workbench games``: every game with its seats, rules and scenario folder."""

from __future__ import annotations

import argparse
import json
import sys

from workbench.core.strength import label, strength_table

from . import get, names


def describe(name: str) -> dict:
    """One game's summary: name, title, seats and teams, chance, rules, scenario folder."""
    game = get(name)
    rules = game.spec.defaults()
    info = game.info(rules)
    return {
        "name": game.name, "title": game.title, "players": list(info.players), "labels": list(info.labels),
        "teams": [[info.players[i] for i in t] for t in info.teams], "chance": info.chance,
        "perfect_information": info.perfect_information, "rules": list(game.spec.names()),
        "scenarios": f"scenarios/{game.scenario_folder}" if game.scenario_folder not in ("", ".") else "scenarios/",
        "strength": _strength(game),
    }


def _strength(game: object) -> dict | None:
    """The game's measured Elo table (its date, command and agents), or None when it ships none."""
    try:
        table = strength_table(game)
    except ValueError as exc:  # a damaged file says so, the listing goes on
        return {"error": str(exc)}
    if table is None:
        return None
    return {k: table.get(k) for k in ("date", "command", "model", "first_seat", "agents", "games", "independence")}


def main(argv: list[str] | None = None) -> int:
    """Print the games; ``--json`` for one JSON document."""
    ap = argparse.ArgumentParser(prog="python -m workbench games", description=main.__doc__)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = [describe(n) for n in names()]
    if args.json:
        json.dump(rows, sys.stdout, indent=1)
        print()
        return 0
    for r in rows:
        teams = " vs ".join("+".join(t) for t in r["teams"])
        print(f"{r['name']}: {r['title']}")
        print(f"  seats {', '.join(r['players'])} ({teams}); chance {r['chance']}"
              f"{'' if r['perfect_information'] else '; hidden information'}")
        print(f"  {len(r['rules'])} rules: {', '.join(r['rules'])}")
        print(f"  scenarios: {r['scenarios']}")
        strength = r["strength"]
        if strength is None:
            print("  agents' strength: not measured (python -m workbench ladder --game NAME --write)")
        elif "error" in strength:
            print(f"  agents' strength: {strength['error']}")
        else:
            print(f"  agents' strength (Elo above random, 95% intervals; measured {strength['date']}):")
            for row in strength["agents"]:
                print(f"    {label(row, r['title'])}")
            if strength.get("independence"):  # whether games repeated (deterministic agents) under those intervals
                print(f"    {strength['independence']}")
    print("  (and openspiel:NAME for any game of the open_spiel package, e.g. openspiel:connect_four)")
    return 0


def rules_main(argv: list[str] | None = None) -> int:
    """``python -m workbench rules [--game NAME] [--markdown]``: every rule toggle and parameter of a game."""
    from . import DEFAULT

    ap = argparse.ArgumentParser(prog="python -m workbench rules", description=rules_main.__doc__)
    ap.add_argument("--markdown", action="store_true", help="the Markdown table of the game's rulings doc")
    ap.add_argument("--game", default=DEFAULT, help="the game whose rules to list (python -m workbench games)")
    args = ap.parse_args(argv)
    try:
        game = get(args.game)
    except ValueError as exc:
        print(f"rules: error: {exc}", file=sys.stderr)
        return 2
    print(game.rules_table(markdown=args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
