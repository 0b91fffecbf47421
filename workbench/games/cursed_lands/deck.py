"""The tile decks and their seeded shuffle (contract section 7), so that every engine deals the same decks.

SplitMix64 on a 64-bit state, Fisher-Yates on p1's deck and then p2's with the same generator; after
shuffling ``a[0]`` is the top. The seed is used only when a game is created: positions and records
store the remaining orders, never the seed's consequences.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from workbench.core.rulespec import Rules

MASK = (1 << 64) - 1
TERRAINS = ("plain", "road", "forest", "hill", "mountain")  # tile terrains in canonical deck order
LETTERS = "prfhm"
# terrain codes used on the board: 0 is "no tile" (void, or plain under untiled=plain)
VOID, PLAIN, ROAD, FOREST, HILL, MOUNTAIN = range(6)
CODE_NAMES = ("void",) + TERRAINS


def splitmix64(seed: int) -> Iterator[int]:
    """The SplitMix64 outputs for ``seed`` (taken mod 2^64); the first for seed 0 is 0xe220a8397b1dcdaf."""
    s = seed & MASK
    while True:
        s = (s + 0x9E3779B97F4A7C15) & MASK
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def shuffle(items: list[int], gen: Iterator[int]) -> None:
    """Fisher-Yates in place: for i from n-1 down to 1, j = next() mod (i+1), swap a[i] and a[j]."""
    for i in range(len(items) - 1, 0, -1):
        j = next(gen) % (i + 1)
        items[i], items[j] = items[j], items[i]


def canonical_deck(rules: Rules) -> list[int]:
    """One player's deck before shuffling: plain x n, road x n, forest x n, hill x n, mountain x n."""
    out: list[int] = []
    for code, name in enumerate(TERRAINS, start=PLAIN):
        out.extend([code] * rules[f"deck_{name}"])
    return out


def deal(rules: Rules, seed: int) -> tuple[list[int], list[int]]:
    """Both decks shuffled from ``seed`` (top first): p1's first, then p2's, one generator."""
    p1, p2 = _deal(rules, seed & MASK)
    return list(p1), list(p2)


@lru_cache(maxsize=1024)
def _deal(rules: Rules, seed: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    gen = splitmix64(seed)
    p1, p2 = canonical_deck(rules), canonical_deck(rules)
    shuffle(p1, gen)
    shuffle(p2, gen)
    return tuple(p1), tuple(p2)


def deck_text(deck: list[int]) -> str:
    """Letters top first, as the contract's test vectors write a deck (``rrphf...``)."""
    return "".join(LETTERS[c - PLAIN] for c in deck)


def parse_terrain(value: object, allow_void: bool = False) -> int:
    """A terrain code from its name or letter (``forest``, ``f``); ``ValueError`` naming the value otherwise."""
    if isinstance(value, str):
        text = value.strip().lower()
        if text in TERRAINS:
            return PLAIN + TERRAINS.index(text)
        if len(text) == 1 and text in LETTERS:
            return PLAIN + LETTERS.index(text)
        if allow_void and text == "void":
            return VOID
    shown = repr(value) if not isinstance(value, str) or len(value) > 20 else repr(value)
    words = "plain, road, forest, hill, mountain (or p r f h m)" + (", or void" if allow_void else "")
    raise ValueError(f"{shown[:24]} is not a terrain; use {words}")
