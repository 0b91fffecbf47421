"""What every agent shares: a name, a seeded random generator, and ``select_action``.

An agent never keeps the state it is shown and never leaves it changed: searches use
``apply``/``undo`` in pairs. The same seed and the same sequence of positions give the
same actions, which is what makes a simulated game replayable from its seed alone.
"""

from __future__ import annotations

import math
import random
from typing import Any

MAX_SECONDS = 5.0  # ceiling on any agent's thinking time per decision, whatever its parameters ask


def check_param(agent: str, name: str, value: Any, kind: type, lo: float, hi: float) -> Any:
    """``value`` as ``kind`` (int or float) within ``lo..hi``, or a ValueError naming agent and parameter.

    Agent parameters come from command lines and browser messages, so they are untrusted: a
    depth of 30 or a billion nodes is refused here rather than holding the kernel.
    """
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if ok and kind is int:
        ok = float(value).is_integer()
    if not ok:
        raise ValueError(f"{agent}: {name}={value!r} must be {'an integer' if kind is int else 'a number'}"
                         f" in {lo:g}..{hi:g}")
    v = kind(value)
    if not lo <= v <= hi:
        raise ValueError(f"{agent}: {name}={value!r} is out of range {lo:g}..{hi:g}")
    return v


class NativeFallbackWarning(UserWarning):
    """A native agent decided with its Python twin: the native core cannot hold the position."""


class Agent:
    """Base class; subclasses implement ``select_action``."""

    name = "agent"
    engine = "python"  # which engine searches: "python" here, "native" for the Rust twins
    MAX_SECONDS = MAX_SECONDS

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def select_action(self, state: Any) -> Any:
        """The action to play in ``state`` (which must not be terminal)."""
        raise NotImplementedError

    def _legal(self, state: Any) -> list[Any]:
        acts = state.legal_actions()
        if not acts:
            raise ValueError(f"{self.name}: no action to choose, the game is over ({state!r})")
        return acts

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"
