"""``python -m workbench cards``: the big-chess cards with their cost (under ``--rules``) and patterns.

A designer reads the starter set here before editing a card file or pricing it with ``cost_<card>``;
``--diagram`` adds each card's pattern grid per level (``render_pattern``), ``--json`` the rows.
Standard library only, as the game package.
"""

from __future__ import annotations

import argparse
import json
import sys


def main(argv: list[str] | None = None) -> int:
    """Print the card listing; exit 2 on a bad ``--rules`` value or an unknown card."""
    from workbench.core.rulespec import RulesError

    from . import GAME, cards
    from .cards import render_pattern

    ap = argparse.ArgumentParser(prog="python -m workbench cards", description=__doc__.split("\n\n")[0])
    ap.add_argument("keys", nargs="*", help="only these cards (keys such as knight queen)")
    ap.add_argument("--rules", default="", metavar="K=V,...", help="rule values, e.g. cost_knight=40,king_cost=200")
    ap.add_argument("--diagram", action="store_true", help="draw each card's pattern per level on a small grid")
    ap.add_argument("--json", action="store_true", help="the rows as JSON")
    args = ap.parse_args(argv)
    try:
        rules = GAME.rules(args.rules or None)
        rows = cards(rules)
    except (RulesError, ValueError) as exc:
        print(f"cards: error: {exc}", file=sys.stderr)
        return 2
    known = {r["key"] for r in rows}
    unknown = [k for k in args.keys if k not in known]
    if unknown:
        print(f"cards: error: no card {unknown[0]!r}; cards: {', '.join(sorted(known))}", file=sys.stderr)
        return 2
    rows = [r for r in rows if not args.keys or r["key"] in args.keys]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    ctx = GAME.context(rules)
    for r in rows:
        tags = f" [{', '.join(r['tags'])}]" if r["tags"] else ""
        extra = (" vector" if r["vector"] else "") + ("" if r["buyable"] else " not buyable") + \
            (f" income {r['income']}" if r["income"] else "") + (f" aura {r['aura']}" if r["aura"] else "")
        print(f"{r['key']:<10} id {r['id']:>3}  cost {r['cost']:>4}{extra}{tags}  {r['name']}")
        for level, words in r["patterns"].items():
            if words:
                print(f"    {level:<5} " + "; ".join(words))
        if args.diagram:
            card = ctx.cards[ctx.card_index[r["key"]]]
            for level in ["base", *[f"L{lv}" for lv in card.levels]]:
                levels = () if level == "base" else tuple(lv for lv in card.levels if lv <= int(level[1:]))
                grid = render_pattern(card, levels, 0, 3)
                print(f"    {level} (facing N):")
                print("\n".join("      " + line for line in grid.splitlines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
