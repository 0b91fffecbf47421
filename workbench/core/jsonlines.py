"""Line-aware data for files a designer edits: ``LineDict``/``LineList`` and a small JSON reader (standard library).

An error in a user's file must name the file, the line and the field. These containers are plain dicts
and lists that also know the 1-based line of themselves and of each key or item (``line_of``); the
scenario loader's PyYAML constructor (``workbench.core.yamlmarks``), this JSON reader and the YAML
reader all build them, so one validator serves every source. ``loads`` is for game
packages, which import no YAML library (their card and board files). Bounded: input size and nesting
depth are capped.
"""

from __future__ import annotations

from typing import Any

MAX_TEXT = 1_000_000
MAX_DEPTH = 32


class JsonLineError(ValueError):
    """Malformed JSON; ``line`` is where the reader stopped."""

    def __init__(self, line: int, reason: str) -> None:
        self.line = line
        super().__init__(f"line {line}: {reason}")


class LineDict(dict[Any, Any]):
    """A dict with ``line`` (of the mapping) and ``key_lines`` (key -> line), 1-based."""

    def __init__(self, line: int = 0) -> None:
        super().__init__()
        self.line = line
        self.key_lines: dict[Any, int] = {}

    def line_of(self, key: Any) -> int:
        """Line of ``key`` if present, else of the mapping itself."""
        return self.key_lines.get(key, self.line)


class LineList(list[Any]):
    """A list with ``line`` (of the sequence) and ``item_lines`` (index -> line), 1-based."""

    def __init__(self, line: int = 0) -> None:
        super().__init__()
        self.line = line
        self.item_lines: list[int] = []

    def line_of(self, index: int) -> int:
        """Line of item ``index``, else of the sequence."""
        return self.item_lines[index] if 0 <= index < len(self.item_lines) else self.line


class _Reader:
    def __init__(self, text: str) -> None:
        self.t = text
        self.i = 0
        self.line = 1

    def ws(self) -> None:
        t, n = self.t, len(self.t)
        while self.i < n and t[self.i] in " \t\r\n":
            if t[self.i] == "\n":
                self.line += 1
            self.i += 1

    def value(self, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise JsonLineError(self.line, f"nested deeper than {MAX_DEPTH}")
        self.ws()
        if self.i >= len(self.t):
            raise JsonLineError(self.line, "unexpected end of text")
        ch = self.t[self.i]
        if ch == "{":
            return self.obj(depth)
        if ch == "[":
            return self.arr(depth)
        if ch == '"':
            return self.string()
        for word, val in (("true", True), ("false", False), ("null", None)):
            if self.t.startswith(word, self.i):
                self.i += len(word)
                return val
        return self.number()

    def obj(self, depth: int) -> LineDict:
        out = LineDict(self.line)
        self.i += 1
        self.ws()
        if self.t[self.i:self.i + 1] == "}":
            self.i += 1
            return out
        while True:
            self.ws()
            if self.t[self.i:self.i + 1] != '"':
                raise JsonLineError(self.line, "a key must be a quoted string")
            line = self.line
            key = self.string()
            if key in out:
                raise JsonLineError(line, f"duplicate key {key!r}")
            self.ws()
            if self.t[self.i:self.i + 1] != ":":
                raise JsonLineError(self.line, f"':' expected after key {key!r}")
            self.i += 1
            out[key] = self.value(depth + 1)
            out.key_lines[key] = line
            self.ws()
            ch = self.t[self.i:self.i + 1]
            self.i += 1
            if ch == "}":
                return out
            if ch != ",":
                raise JsonLineError(self.line, "',' or '}' expected")

    def arr(self, depth: int) -> LineList:
        out = LineList(self.line)
        self.i += 1
        self.ws()
        if self.t[self.i:self.i + 1] == "]":
            self.i += 1
            return out
        while True:
            self.ws()
            line = self.line
            out.append(self.value(depth + 1))
            out.item_lines.append(line)
            self.ws()
            ch = self.t[self.i:self.i + 1]
            self.i += 1
            if ch == "]":
                return out
            if ch != ",":
                raise JsonLineError(self.line, "',' or ']' expected")

    def string(self) -> str:
        self.i += 1
        out: list[str] = []
        t = self.t
        while True:
            if self.i >= len(t):
                raise JsonLineError(self.line, "unterminated string")
            ch = t[self.i]
            if ch == '"':
                self.i += 1
                return "".join(out)
            if ch == "\n":
                raise JsonLineError(self.line, "line break inside a string")
            if ch == "\\":
                esc = t[self.i + 1:self.i + 2]
                simple = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
                if esc in simple:
                    out.append(simple[esc])
                    self.i += 2
                    continue
                if esc == "u":
                    try:
                        out.append(chr(int(t[self.i + 2:self.i + 6], 16)))
                    except ValueError:
                        raise JsonLineError(self.line, "bad \\u escape") from None
                    self.i += 6
                    continue
                raise JsonLineError(self.line, "bad escape")
            out.append(ch)
            self.i += 1

    def number(self) -> int | float:
        start = self.i
        t = self.t
        while self.i < len(t) and t[self.i] in "+-0123456789.eE":
            self.i += 1
        text = t[start:self.i]
        if not text or len(text) > 30:
            raise JsonLineError(self.line, f"unexpected text {t[start:start + 10]!r}")
        try:
            return int(text)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                raise JsonLineError(self.line, f"bad number {text!r}") from None


def loads(text: str) -> Any:
    """Parse JSON text into line-aware nodes; ``JsonLineError`` naming the line if malformed."""
    if len(text) > MAX_TEXT:
        raise JsonLineError(1, f"the text is {len(text):,} characters; the limit is {MAX_TEXT:,}")
    r = _Reader(text)
    value = r.value(0)
    r.ws()
    if r.i != len(text):
        raise JsonLineError(r.line, "extra text after the value")
    return value
