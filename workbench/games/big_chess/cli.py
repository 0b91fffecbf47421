"""``python -m workbench cards``: the big-chess cards with their cost (under ``--rules``) and patterns.

A designer reads the starter set here before editing a card file or pricing it with ``cost_<card>``;
``--diagram`` adds each card's pattern grid per level (``render_pattern``), ``--json`` the rows,
``--svg DIR`` writes each card's pattern diagrams (base and every level) as ``DIR/<key>.svg``.
Standard library only, as the game package (the SVG painter, ``workbench.viz.generic``, is too).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def main(argv: list[str] | None = None, draw: Callable[[Any], str] | None = None) -> int:
    """Print the card listing; exit 2 on a bad ``--rules`` value or an unknown card.

    ``draw`` turns a card's patterns into SVG for ``--svg`` (the command layer hands in the tools' painter,
    ``workbench.viz.generic.patterns_svg``: a game imports no tool)."""
    from workbench.core.rulespec import RulesError

    from . import GAME, cards
    from .cards import render_pattern
    from .geometry import FACING_INDEX

    ap = argparse.ArgumentParser(prog="python -m workbench cards", description=__doc__.split("\n\n")[0])
    ap.add_argument("keys", nargs="*", help="only these cards (keys such as knight queen)")
    ap.add_argument("--rules", default="", metavar="K=V,...", help="rule values, e.g. cost_knight=40,king_cost=200")
    ap.add_argument("--diagram", action="store_true", help="draw each card's pattern per level on a small grid")
    ap.add_argument("--json", action="store_true", help="the rows as JSON")
    ap.add_argument("--svg", metavar="DIR", help="write each card's pattern diagrams (base, each level) to DIR/<key>.svg")
    ap.add_argument("--facing", default="N", choices=("N", "NE", "E", "SE", "S", "SW", "W", "NW"),
                    help="the facing vector cards are drawn in (--diagram, --svg); default N")
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
    if args.svg:
        if draw is None:
            print("cards: error: --svg needs the pictures layer: run it as `python -m workbench cards ... --svg DIR`",
                  file=sys.stderr)
            return 2
        written = _write_svgs(args.svg, [r["key"] for r in rows], rules, args.facing, draw)
        if written is None:
            return 2
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
                grid = render_pattern(card, levels, FACING_INDEX[args.facing], 3)
                print(f"    {level} (facing {args.facing}):")
                print("\n".join("      " + line for line in grid.splitlines()))
    return 0


def _write_svgs(folder: str, keys: list[str], rules: object, facing: str,
                patterns_svg: Callable[[Any], str]) -> list[Path] | None:
    """One SVG per card (its base and level panels side by side) in ``folder`` (made if missing); prints each
    path. None (after an error line) when the folder cannot be written."""
    from . import patterns

    out = Path(folder)
    written = []
    try:
        out.mkdir(parents=True, exist_ok=True)
        for key in keys:
            path = out / f"{key}.svg"
            path.write_text(patterns_svg(patterns(key, rules, facing)), encoding="utf-8")
            written.append(path)
    except OSError as exc:
        print(f"cards: error: --svg {folder}: {exc.strerror or exc}", file=sys.stderr)
        return None
    print(f"cards: wrote {len(written)} pattern diagram(s) to {out}", file=sys.stderr)
    return written


if __name__ == "__main__":
    sys.exit(main())
