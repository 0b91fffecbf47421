"""A game's measured agent strengths: the Elo table it ships (``GameDef.strength_file``), read and worded.

``python -m workbench ladder --game G --write`` measures the table (``workbench.study.ladder``) and writes
it into the game's folder; ``workbench games`` and every balance report read it here, so a verdict names
the strength of the agents that played: "alphabeta:depth=2, Elo 610 [570, 650] (The Cursed Lands, native)".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

MAX_BYTES = 1_000_000  # a strength table is a few kB


def game_folder(game: Any) -> Path:
    """The folder of the package that defines ``game``'s ``GameDef`` class (its data lives there)."""
    module = sys.modules.get(type(game).__module__)
    file = getattr(module, "__file__", None)
    if not file:
        raise ValueError(f"{getattr(game, 'name', game)}: its GameDef's module has no folder")
    return Path(file).resolve().parent


def strength_path(game: Any) -> Path | None:
    """Where ``game`` keeps its Elo table (``GameDef.strength_file`` in its folder), or None when it declares none."""
    name = str(game.strength_file or "")  # declared on every GameDef (empty: none measured)
    return game_folder(game) / name if name else None


def strength_table(game: Any) -> dict[str, Any] | None:
    """The shipped table (``{"date", "agents": [{"agent", "elo", "low", "high", "engine"}], ...}``), or None.

    ``ValueError`` naming the file when it is there but not a strength table."""
    path = strength_path(game)
    if path is None or not path.is_file():
        return None
    if path.stat().st_size > MAX_BYTES:
        raise ValueError(f"{path}: a strength table of over {MAX_BYTES} bytes")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a JSON strength table ({type(exc).__name__})") from None
    rows = data.get("agents") if isinstance(data, dict) else None
    if not isinstance(rows, list) or not all(isinstance(r, dict) and {"agent", "elo"} <= set(r) for r in rows):
        raise ValueError(f"{path}: a strength table needs 'agents': a list of {{agent, elo, low, high}}")
    return dict(data)


def label(row: dict[str, Any], title: str = "", engine: str = "") -> str:
    """``alphabeta:depth=2, Elo 610 [570, 650] (The Cursed Lands, native)``."""
    elo, low, high = float(row["elo"]), row.get("low"), row.get("high")
    text = f"{row['agent']}, Elo {elo:.0f}"
    if low is not None and high is not None and not float(low) == float(high) == elo:
        text += f" [{float(low):.0f}, {float(high):.0f}]"
    else:
        text += " (the anchor)"
    where = ", ".join(x for x in (title, engine or str(row.get("engine") or "")) if x)
    return f"{text} ({where})" if where else text


def agent_strength(game: Any, agent: str, engine: str = "") -> str | None:
    """The worded strength of ``agent`` (a spec, ``engine=`` ignored) from ``game``'s table, or None when unmeasured."""
    table = strength_table(game)
    if table is None:
        return None
    wanted = _plain(agent)
    for row in table["agents"]:
        if _plain(str(row["agent"])) == wanted:
            return label(row, str(getattr(game, "title", "")), engine) + f", measured {table.get('date', '?')}"
    return None


def _plain(spec: str) -> str:
    """A spec without its engine pin, options in a fixed order (``mcts:seconds=5,iterations=100``)."""
    name, _, rest = spec.strip().partition(":")
    opts = sorted(p.strip() for p in rest.split(",") if p.strip() and not p.strip().startswith("engine="))
    return name + (":" + ",".join(opts) if opts else "")


__all__ = ["agent_strength", "game_folder", "label", "strength_path", "strength_table"]
