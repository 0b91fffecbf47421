"""``python -m workbench COMMAND``: a thin dispatcher; each command is one library function."""

from __future__ import annotations

import importlib
import sys
from typing import Any

# command -> (module, function, one-line help). Modules are imported only when used.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "check": ("workbench.scenarios.cli", "main", "run scenario files and report PASS/FAIL/ERROR"),
    "simulate": ("workbench.__main__", "simulate_main", "play batches of AI games into a Parquet table"),
    "report": ("workbench.balance.cli", "main", "write a balance report from a simulation table"),
    "bench": ("workbench.bench", "main", "random-playout speed, against python-chess in the same run"),
    "simbench": ("workbench.simbench", "main", "batch speed with 1 and 2 workers, memory, a timed batch, error rows (--game)"),
    "perft": ("workbench.perft", "main", "count action sequences to a depth (move-generation check)"),
    "archetypes": ("workbench.study.archetypes", "main", "does one play style beat all? archetype tournament and alpha-Rank"),
    "ablate": ("workbench.study.ablate", "main", "what each option is worth: restricted play per action class"),
    "ladder": ("workbench.study.ladder", "main", "agent strength ladder: pairs and Elo ratings with intervals"),
    "learn": ("workbench.study.learn", "main", "fit evaluation weights to a variant's self-play (values with intervals)"),
    "trace": ("workbench.study.trace", "main", "skill trace: a study's question at doubling budgets of one agent, verdict"),
    "limits": ("workbench.study.limits", "main", "limit sweep: decided share and seats' wins at each value of a limit rule"),
    "rules": ("workbench.games.cli", "rules_main", "every rule toggle and parameter: default, range, source (--game)"),
    "games": ("workbench.games.cli", "main", "the games: seats, teams, rules and scenario folders"),
    "tune": ("workbench.tune.cli", "main", "search a rule space for the fairest, most decisive variant (racing, optuna)"),
    "published": ("workbench.study.published", "main", "a game's published tables (rulebook, contract) played again, with intervals"),
    "agentbench": ("workbench.study.speed", "main", "agent speed: native vs Python games/s, balance batch, memory"),
}


def simulate_main(argv: list[str] | None = None) -> int:
    """``simulate``, with balance's planner for ``--plan`` (commands join the layers; simulate never imports balance)."""
    from workbench.balance.power import plan_text
    from workbench.simulate.cli import main as simulate_cli

    return simulate_cli(argv, planner=plan_text)


def game_commands() -> dict[str, Any]:
    """The commands games declare (``GameDef.commands``), found through the registry: name -> ``GameCommand``."""
    from workbench.games import get, names

    found: dict[str, Any] = {}
    for game in names():
        for name, command in get(game).commands.items():
            if name not in COMMANDS:
                found.setdefault(name, command)
    return found


def main(argv: list[str] | None = None) -> int:
    """Dispatch to a command's ``main(argv)``; a game's own command gets the tools' pattern painter."""
    argv = list(sys.argv[1:] if argv is None else argv)
    own = game_commands() if not argv or argv[0] not in COMMANDS else {}
    if not argv or argv[0] in ("-h", "--help") or (argv[0] not in COMMANDS and argv[0] not in own):
        print("usage: python -m workbench COMMAND [ARGS]\n\ncommands:")
        for name, (_, _, text) in COMMANDS.items():
            print(f"  {name:<9} {text}")
        for name, command in own.items():
            print(f"  {name:<9} {command.help}")
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    try:
        if argv[0] in own:
            from workbench.viz.generic import patterns_svg

            return int(own[argv[0]].main(argv[1:], patterns_svg) or 0)
        module, func, _ = COMMANDS[argv[0]]
        return int(getattr(importlib.import_module(module), func)(argv[1:]) or 0)
    except BrokenPipeError:  # output piped into `head` and closed early: not an error of ours
        sys.stderr.close()
        return 0

if __name__ == "__main__":
    sys.exit(main())
