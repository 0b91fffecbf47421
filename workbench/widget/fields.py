"""Checks of the fields of a message from the page, shared by every board widget.

The page is untrusted: each message is a small mapping with a ``type`` and known fields, each field
checked for type, range and size before any handler runs. A failure is a ``WidgetError`` that names
the field and never echoes the value (a 20 MB string must not come back in the panel).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .common import WidgetError

MAX_KEYS = 40  # fields in one message, rules in one new-game request

Check = Callable[[str, Any], Any]


def text(limit: int, choices: tuple[str, ...] | None = None) -> Check:
    """A string of at most ``limit`` characters (one of ``choices`` if given)."""

    def check(name: str, value: Any) -> str:
        if not isinstance(value, str):
            raise WidgetError(f"message field {name!r} must be text, not {type(value).__name__}")
        if len(value) > limit:
            raise WidgetError(f"message field {name!r} is {len(value)} characters; at most {limit} are accepted")
        if choices is not None and value not in choices:
            raise WidgetError(f"message field {name!r} must be one of {', '.join(repr(c) for c in choices)}")
        return value

    return check


def whole(lo: int, hi: int) -> Check:
    """A whole number in ``lo..hi`` (a short digit string counts: some pages send inputs' text)."""

    def check(name: str, value: Any) -> int:
        if isinstance(value, str) and re.fullmatch(r"-?\d{1,12}", value.strip()):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise WidgetError(f"message field {name!r} must be a whole number")
        if not lo <= value <= hi:
            raise WidgetError(f"message field {name!r} must be between {lo} and {hi}")
        return value

    return check


def boolean(name: str, value: Any) -> bool:
    """True or false, never a truthy string."""
    if not isinstance(value, bool):
        raise WidgetError(f"message field {name!r} must be true or false")
    return value


def seed(name: str, value: Any) -> int | None:
    """A game seed, or none for a fresh one."""
    return None if value in (None, "") else whole(0, 2**31 - 1)(name, value)


def rule_values(name: str, value: Any, *, no_paths: bool = False) -> dict[str, Any]:
    """A mapping of rule names to short texts, numbers or booleans (``no_paths``: no value names a file)."""
    if not isinstance(value, dict) or len(value) > MAX_KEYS:
        raise WidgetError(f"message field {name!r} must be a mapping of at most {MAX_KEYS} rules")
    out = {}
    for k, v in value.items():
        text(40)(f"{name} key", k)
        if isinstance(v, str):
            text(200)(f"{name}.{k}", v)
            if no_paths and ("/" in v or "\\" in v or v.startswith(".")):
                raise WidgetError(f"rule {k!r}: a value from the page cannot name a file")
        elif not (v is None or isinstance(v, (bool, int))):
            raise WidgetError(f"message field {name}.{k} must be text, a number or true/false")
        out[k] = v
    return out


def validate(content: Any, fields: dict[str, dict[str, Check]]) -> tuple[str, dict[str, Any]]:
    """The message's type and its checked fields; ``WidgetError`` for anything unexpected (size capped first)."""
    if not isinstance(content, dict) or len(content) > MAX_KEYS:
        raise WidgetError("a widget message must be a small mapping with a 'type'")
    kind = content.get("type")
    if not isinstance(kind, str) or kind not in fields:
        shown = repr(kind) if isinstance(kind, str) and len(kind) <= 20 else "of this type"
        raise WidgetError(f"unknown widget message {shown}")
    spec = fields[kind]
    extra = sorted(str(k)[:20] for k in content if k != "type" and k not in spec)
    if extra:
        raise WidgetError(f"message {kind!r}: unexpected field {extra[0]!r}")
    return kind, {key: check(key, content[key]) for key, check in spec.items() if key in content}
