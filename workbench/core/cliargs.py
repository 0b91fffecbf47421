"""Argument parsing shared by the commands: every bad value is one line and exit status 2.

argparse's own ``error`` prints the whole usage block first; the commands of this workbench
print one line (``simulate: error: argument --games: ...``) so a script's log says what was
wrong and nothing else. ``whole(lo, hi)`` and ``number(lo, hi)`` are ``type=`` functions that
range-check as they parse, so no out-of-range value ever reaches the work (no traceback, no
half-started batch).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import NoReturn

SEED_MAX = 2**63 - 1  # seeds are hashed, but a 63-bit range is what the tables store


class Parser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose errors are one line: ``PROG: error: MESSAGE``, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog.split()[-1] if self.prog else 'workbench'}: error: {message}\n")


def whole(lo: int, hi: int) -> Callable[[str], int]:
    """A ``type=`` for a whole number in ``lo..hi``."""

    def parse(text: str) -> int:
        try:
            value = int(str(text).strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"{_short(text)} is not a whole number; allowed {lo}..{hi}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{_short(text)} is out of range; allowed {lo}..{hi}")
        return value

    parse.__name__ = "whole number"
    return parse


def number(lo: float, hi: float, open_low: bool = False) -> Callable[[str], float]:
    """A ``type=`` for a finite number in ``lo..hi`` (``open_low``: ``lo`` itself excluded)."""

    def parse(text: str) -> float:
        try:
            value = float(str(text).strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"{_short(text)} is not a number") from None
        if not math.isfinite(value) or value > hi or value < lo or (open_low and value == lo):
            shown = f"more than {lo:g} and at most {hi:g}" if open_low else f"{lo:g}..{hi:g}"
            raise argparse.ArgumentTypeError(f"{_short(text)} is out of range; allowed {shown}")
        return value

    parse.__name__ = "number"
    return parse


def seed() -> Callable[[str], int]:
    """A ``type=`` for a seed: a whole number of at most 63 bits either way."""
    return whole(-SEED_MAX, SEED_MAX)


def cores() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


WORKERS_PER_CORE = 4  # more processes than this only add memory and scheduling, never speed


def max_workers() -> int:
    """The most worker processes a command may start: a small multiple of the cores."""
    return WORKERS_PER_CORE * cores()


def fail(prog: str, message: str) -> int:
    """Print one error line for ``prog``; the exit status 2 to return."""
    print(f"{prog}: error: {message}", file=sys.stderr)
    return 2


def _short(text: object) -> str:
    s = repr(str(text))
    return s if len(s) <= 40 else s[:37] + "...'"
