"""The action notation of contract section 15: reading input text and writing the canonical form.

``read_action`` only checks syntax (hexes exist, kinds are S A C R, camp tokens are complete); whether
the action is legal is the state's question. Input is case-insensitive; ``#h`` may omit ``=t``; camp
tokens may come in any order. Output: lower-case hexes, upper-case kinds, ``#h=t``, camp tokens in the
order ``castle C S A R`` then the units in board order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .deck import LETTERS
from .geometry import HEX_NAMES, parse_hex
from .rules import KINDS

MAX_TEXT = 200
_HEX = r"([a-i][1-9])"
_ACTIVATION = re.compile(rf"^{_HEX}(?:-{_HEX})?(?:x{_HEX})?$")
_TILE = re.compile(rf"^#{_HEX}(?:=([a-z]+))?$")


class NotationError(ValueError):
    """Text that is not an action of this game's notation; the message says what is wrong."""


@dataclass(frozen=True)
class Parsed:
    """An action read from text, before legality: kind and its parts (hex ids, kind index, tile letter)."""

    kind: str  # end, produce, tile, move, attack, move_attack, camp
    frm: int = -1
    to: int = -1
    target: int = -1
    unit_kind: int = -1
    tile: str | None = None  # the '=t' letter given with '#h', if any
    castle: int = -1
    flags: tuple[int, int, int, int] = (-1, -1, -1, -1)  # by kind S, A, C, R
    units: tuple[tuple[int, int], ...] = ()  # (hex, kind) in board order


def read_action(text: str) -> Parsed:
    """Parse ``text``; ``NotationError`` naming the problem (the text is quoted, shortened)."""
    if not isinstance(text, str):
        raise NotationError(f"{text!r} is not action notation (e.g. +S, c2-c4, e2xd4, #e2=f, end)")
    if len(text) > MAX_TEXT:
        raise NotationError(f"{text[:30]}...: an action is at most {MAX_TEXT} characters")
    raw = " ".join(text.split())
    low = raw.lower()
    if low == "end":
        return Parsed("end")
    if low.startswith("camp"):
        return _read_camp(raw)
    if len(low) == 2 and low[0] == "+":
        k = low[1].upper()
        if k not in KINDS:
            raise NotationError(f"{raw}: production names a kind S, A, C or R (+S)")
        return Parsed("produce", unit_kind=KINDS.index(k))
    if low.startswith("#"):
        m = _TILE.match(low)
        if not m:
            raise NotationError(f"{raw}: a tile placement is #hex or #hex=t (t one of p r f h m), e.g. #e2=f")
        letter = m.group(2)
        if letter is not None and (len(letter) != 1 or letter not in LETTERS):
            raise NotationError(f"{raw}: the tile after '=' is one letter of p r f h m")
        return Parsed("tile", to=parse_hex(m.group(1)), tile=letter)
    m = _ACTIVATION.match(low.replace(" ", ""))
    if not m or (m.group(2) is None and m.group(3) is None):
        raise NotationError(f"{raw}: not an action; write +K, from-to, fromxtarget, from-toxtarget, #hex, end "
                            "or camp ...")
    f = parse_hex(m.group(1))
    to = parse_hex(m.group(2)) if m.group(2) else -1
    g = parse_hex(m.group(3)) if m.group(3) else -1
    if to == f:
        raise NotationError(f"{raw}: 'to' must be a hex different from 'from' (section 15)")
    if to < 0:
        return Parsed("attack", frm=f, to=f, target=g)
    if g < 0:
        return Parsed("move", frm=f, to=to)
    return Parsed("move_attack", frm=f, to=to, target=g)


def _read_camp(raw: str) -> Parsed:
    tokens = raw.split()
    if tokens[0].lower() != "camp":
        raise NotationError(f"{raw[:40]}: a setup action is camp castle=H C=H S=H A=H R=H unit=K@H")
    castle = -1
    flags = [-1, -1, -1, -1]
    units: list[tuple[int, int]] = []
    for tok in tokens[1:]:
        key, eq, value = tok.partition("=")
        if not eq or not value:
            raise NotationError(f"camp: token {tok[:20]!r} is not key=value (castle=H, C=H, S=H, A=H, R=H, unit=K@H)")
        k = key.lower()
        try:
            if k == "castle":
                if castle >= 0:
                    raise NotationError("camp: castle is given twice")
                castle = parse_hex(value)
            elif k.upper() in KINDS and len(k) == 1:
                i = KINDS.index(k.upper())
                if flags[i] >= 0:
                    raise NotationError(f"camp: flag {k.upper()} is given twice")
                flags[i] = parse_hex(value)
            elif k == "unit":
                kind, at, hx = value.partition("@")
                if not at or kind.upper() not in KINDS or len(kind) != 1:
                    raise NotationError(f"camp: {tok[:20]!r} must be unit=K@H with K one of S A C R")
                units.append((parse_hex(hx), KINDS.index(kind.upper())))
            else:
                raise NotationError(f"camp: unknown token {key[:12]!r} (castle, C, S, A, R, unit)")
        except ValueError as exc:
            if isinstance(exc, NotationError):
                raise
            raise NotationError(f"camp: {exc}") from None
    if castle < 0 or min(flags) < 0:
        missing = (["castle"] if castle < 0 else []) + [KINDS[i] for i in (2, 0, 1, 3) if flags[i] < 0]
        raise NotationError(f"camp: missing {', '.join(missing)} (camp castle=H C=H S=H A=H R=H unit=K@H)")
    return Parsed("camp", castle=castle, flags=(flags[0], flags[1], flags[2], flags[3]), units=tuple(sorted(units)))


def camp_text(castle: int, flags: tuple[int, ...] | list[int], units: list[tuple[int, int]] | tuple) -> str:
    """Canonical camp string: ``camp castle=e1 C=b1 S=d1 A=f1 R=h1 unit=S@c1`` (units in board order)."""
    parts = ["camp", f"castle={HEX_NAMES[castle]}"]
    for k in (2, 0, 1, 3):
        parts.append(f"{KINDS[k]}={HEX_NAMES[flags[k]]}")
    for h, k in sorted(units):
        parts.append(f"unit={KINDS[k]}@{HEX_NAMES[h]}")
    return " ".join(parts)
