"""Every rule toggle of TerraFeud in one frozen dataclass (BOARD-AND-RULINGS.md section 7).

Field names are the toggle names used in scenario files, the command line and reports, so a
string like ``season=winter,castling=sacrifice`` or a YAML ``rules:`` mapping parses straight in.
Explicit terrain hexes (``hills``/``swamps``) are kept as ``{"white": "h4", "black": "c6"}``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .geometry import parse_hex


class RulesError(ValueError):
    """An unknown toggle name or value; the message names both and the allowed values."""


_CHOICES: dict[str, tuple[Any, ...]] = {
    "season": ("summer", "winter"),
    "hill": (True, False),
    "swamp": (True, False),
    "terrain": ("rolled", "fixed"),
    "castling": ("swap", "sacrifice"),
    "archer_melee": (False, True),
    "mate_defence": ("feudal", "any"),
    "pike_cavalry_mutual": (False, True),
}


@dataclass(frozen=True)
class RulesConfig:
    """Rule toggles; defaults follow the English rulebook."""

    season: str = "summer"
    hill: bool = True
    swamp: bool = True
    terrain: str = "rolled"
    hills: tuple[tuple[str, str], ...] | None = None
    swamps: tuple[tuple[str, str], ...] | None = None
    castling: str = "swap"
    archer_melee: bool = False
    mate_defence: str = "feudal"
    draw_after: int | None = None
    pike_cavalry_mutual: bool = False

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if value not in allowed or type(value) is not type(allowed[0]):
                raise RulesError(
                    f"toggle {name}={value!r} is not allowed; choose one of "
                    + ", ".join(_fmt(v) for v in allowed)
                )
        if self.draw_after is not None and (
            not isinstance(self.draw_after, int) or isinstance(self.draw_after, bool) or self.draw_after < 1
        ):
            raise RulesError(f"toggle draw_after={self.draw_after!r} must be none or a positive number of plies")
        for name in ("hills", "swamps"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, _side_hexes(name, value))

    @classmethod
    def names(cls) -> list[str]:
        """Toggle names, in the contract's order."""
        return [f.name for f in dataclasses.fields(cls) if not f.name.startswith("_")]

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> RulesConfig:
        """Build from a mapping of toggle names; values may be strings as typed by a user."""
        data = dict(data or {})
        unknown = sorted(set(data) - set(cls.names()))
        if unknown:
            raise RulesError(f"unknown rule toggle {unknown[0]!r}; known toggles: {', '.join(cls.names())}")
        return cls(**{k: _coerce(k, v) for k, v in data.items()})

    @classmethod
    def parse(cls, text: str) -> RulesConfig:
        """Parse ``season=winter,castling=sacrifice`` (commas or spaces between pairs)."""
        return cls.from_dict(parse_pairs(text))

    def replace(self, **changes: Any) -> RulesConfig:
        """A copy with some toggles changed (values coerced like ``from_dict``)."""
        merged = self.to_dict()
        merged.update(changes)
        return RulesConfig.from_dict(merged)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping of every toggle."""
        out: dict[str, Any] = {}
        for name in self.names():
            value = getattr(self, name)
            if name in ("hills", "swamps") and value is not None:
                value = dict(value)
            out[name] = value
        return out

    def differences(self) -> dict[str, Any]:
        """Only the toggles that differ from the defaults (for compact labels)."""
        base = RulesConfig().to_dict()
        return {k: v for k, v in self.to_dict().items() if base[k] != v}

    def label(self) -> str:
        """Short text like ``season=winter,castling=sacrifice`` (``default`` when nothing differs)."""
        diff = self.differences()
        return ",".join(f"{k}={_fmt(v)}" for k, v in diff.items()) or "default"


def parse_pairs(text: str) -> dict[str, str]:
    """``a=1,b=2`` or ``a=1 b=2`` into a dict of strings; a clear error for a missing ``=``."""
    out: dict[str, str] = {}
    for part in text.replace(",", " ").split():
        if "=" not in part:
            raise RulesError(f"rule toggle {part!r} needs the form name=value")
        key, value = part.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def _fmt(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (tuple, dict)):
        return "/".join(f"{k}:{_fmt(h)}" for k, h in dict(v).items())
    return str(v)


def _coerce(name: str, value: Any) -> Any:
    if name in ("hill", "swamp", "archer_melee", "pike_cavalry_mutual") and isinstance(value, str):
        low = value.strip().lower()
        if low in ("true", "on", "yes", "1"):
            return True
        if low in ("false", "off", "no", "0"):
            return False
        raise RulesError(f"toggle {name}={value!r} must be true or false")
    if name == "draw_after":
        if value is None or (isinstance(value, str) and value.strip().lower() in ("none", "null", "")):
            return None
        if isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                raise RulesError(f"toggle draw_after={value!r} must be none or a number of plies") from None
        return value
    if name in ("hills", "swamps") and isinstance(value, str):
        # "white:h4/black:c6" as written by label()
        pairs = dict(p.split(":", 1) for p in value.split("/") if ":" in p)
        return pairs
    if isinstance(value, str):
        return value.strip().lower()
    return value


def _side_hexes(name: str, value: Any) -> tuple[tuple[str, str], ...]:
    if isinstance(value, tuple):
        value = dict(value)
    if not isinstance(value, dict) or set(value) - {"white", "black"}:
        raise RulesError(f"toggle {name} must map white/black to a hex, e.g. {{white: h4, black: c6}}")
    out: list[tuple[str, str | None]] = []
    for side in ("white", "black"):
        if side not in value:
            continue  # not named: the side's hex comes from ``terrain`` (rolled or fixed)
        if value[side] is None or (isinstance(value[side], str) and value[side].strip().lower() == "none"):
            out.append((side, None))  # named as none: this side has no hill (swamp)
            continue
        try:
            h = parse_hex(value[side])
        except ValueError as exc:
            raise RulesError(f"toggle {name}.{side}: {exc}") from None
        from .geometry import hex_name

        out.append((side, hex_name(h)))
    return tuple(out)  # type: ignore[return-value]
