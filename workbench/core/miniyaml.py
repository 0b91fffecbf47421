"""A small YAML-subset reader for data files of game packages (which may not import a YAML library).

Enough for the contract's card example: block mappings and block lists by indentation, flow lists
``[..]`` and flow mappings ``{..}``, plain and quoted scalars, ``#`` comments. Nodes are the
line-aware ``LineDict``/``LineList`` of ``jsonlines``. Anything else (anchors, tags, multi-line scalars,
documents) is refused with its line, which is the safe answer for untrusted files.
"""

from __future__ import annotations

import re
from typing import Any

from .jsonlines import MAX_DEPTH, MAX_TEXT, JsonLineError, LineDict, LineList

_INT = re.compile(r"[-+]?[0-9]+\Z")


class YamlError(JsonLineError):
    """Outside the subset or malformed; ``line`` names where."""


def _strip_comment(text: str) -> str:
    out = []
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] in " \t"):
            break
        out.append(ch)
    return "".join(out).rstrip()


def _scalar(text: str, line: int) -> Any:
    t = text.strip()
    if not t:
        return None
    if t[0] in "&*!|>%@`":
        raise YamlError(line, f"{t[:20]!r}: anchors, tags and block scalars are not supported in card files")
    if (t[0] == t[-1]) and t[0] in "'\"" and len(t) >= 2:
        return t[1:-1]
    if t in ("true", "True"):
        return True
    if t in ("false", "False"):
        return False
    if t in ("null", "~", "Null"):
        return None
    if _INT.match(t):
        return int(t)
    return t


class _Flow:
    def __init__(self, text: str, line: int) -> None:
        self.t = text
        self.i = 0
        self.line = line

    def ws(self) -> None:
        while self.i < len(self.t) and self.t[self.i] in " \t":
            self.i += 1

    def value(self, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise YamlError(self.line, "nested too deep")
        self.ws()
        ch = self.t[self.i:self.i + 1]
        if ch == "[":
            self.i += 1
            out = LineList(self.line)
            self.ws()
            if self.t[self.i:self.i + 1] == "]":
                self.i += 1
                return out
            while True:
                out.append(self.value(depth + 1))
                out.item_lines.append(self.line)
                self.ws()
                ch = self.t[self.i:self.i + 1]
                self.i += 1
                if ch == "]":
                    return out
                if ch != ",":
                    raise YamlError(self.line, "',' or ']' expected in a flow list")
        if ch == "{":
            self.i += 1
            out = LineDict(self.line)
            self.ws()
            if self.t[self.i:self.i + 1] == "}":
                self.i += 1
                return out
            while True:
                self.ws()
                key = self.atom(":")
                if self.t[self.i:self.i + 1] != ":":
                    raise YamlError(self.line, "':' expected in a flow mapping")
                self.i += 1
                if key in out:
                    raise YamlError(self.line, f"duplicate key {key!r}")
                out[key] = self.value(depth + 1)
                out.key_lines[key] = self.line
                self.ws()
                ch = self.t[self.i:self.i + 1]
                self.i += 1
                if ch == "}":
                    return out
                if ch != ",":
                    raise YamlError(self.line, "',' or '}' expected in a flow mapping")
        return self.atom("")

    def atom(self, extra_stop: str) -> Any:
        self.ws()
        start = self.i
        if self.t[self.i:self.i + 1] in "'\"":
            q = self.t[self.i]
            end = self.t.find(q, self.i + 1)
            if end < 0:
                raise YamlError(self.line, "unterminated quoted scalar")
            self.i = end + 1
            return self.t[start + 1:end]
        while self.i < len(self.t) and self.t[self.i] not in ",]}" + extra_stop:
            self.i += 1
        return _scalar(self.t[start:self.i], self.line)


def _flow(text: str, line: int) -> Any:
    f = _Flow(text, line)
    v = f.value(0)
    f.ws()
    if f.i != len(text):
        raise YamlError(line, f"unexpected text {text[f.i:f.i + 20]!r}")
    return v


def loads(text: str) -> Any:
    """Parse the card subset of YAML into line-aware nodes."""
    if len(text) > MAX_TEXT:
        raise YamlError(1, "the text is too long")
    lines = []
    for n, raw in enumerate(text.splitlines(), 1):
        if "\t" in raw[: len(raw) - len(raw.lstrip())]:
            raise YamlError(n, "tabs are not allowed for indentation")
        body = _strip_comment(raw)
        if body.strip() in ("---", "..."):
            continue
        if body.strip():
            lines.append((n, len(body) - len(body.lstrip()), body.strip()))
    if not lines:
        raise YamlError(1, "empty card file")
    value, pos = _block(lines, 0, lines[0][1], 0)
    if pos != len(lines):
        raise YamlError(lines[pos][0], "unexpected indentation")
    return value


def _split_key(body: str, line: int) -> tuple[str, str] | None:
    if body.startswith(("'", '"')):
        q = body[0]
        end = body.find(q, 1)
        if end > 0 and body[end + 1:end + 2] == ":":
            return body[1:end], body[end + 2:].strip()
        return None
    m = re.match(r"([^:\[\]{},]+?):(?:\s+(.*)|)\Z", body)
    if not m:
        return None
    return m.group(1).strip(), (m.group(2) or "").strip()


def _block(lines: list[tuple[int, int, str]], pos: int, indent: int, depth: int) -> tuple[Any, int]:
    if depth > MAX_DEPTH:
        raise YamlError(lines[pos][0], "nested too deep")
    n, ind, body = lines[pos]
    if body.startswith("- ") or body == "-":
        out = LineList(n)
        while pos < len(lines) and lines[pos][1] == indent and (lines[pos][2].startswith("- ") or lines[pos][2] == "-"):
            n, ind, body = lines[pos]
            rest = body[1:].strip()
            out.item_lines.append(n)
            if not rest:
                if pos + 1 < len(lines) and lines[pos + 1][1] > indent:
                    v, pos = _block(lines, pos + 1, lines[pos + 1][1], depth + 1)
                else:
                    v, pos = None, pos + 1
                out.append(v)
                continue
            kv = _split_key(rest, n) if not rest.startswith(("[", "{")) else None
            if kv is not None:
                sub = [(n, ind + 2, rest)]
                j = pos + 1
                while j < len(lines) and lines[j][1] > indent:
                    sub.append(lines[j])
                    j += 1
                v, used = _block(sub, 0, ind + 2, depth + 1)
                if used != len(sub):
                    raise YamlError(sub[used][0], "unexpected indentation in a list item")
                out.append(v)
                pos = j
            else:
                out.append(_flow(rest, n))
                pos += 1
        return out, pos
    out_d = LineDict(n)
    while pos < len(lines) and lines[pos][1] == indent:
        n, ind, body = lines[pos]
        kv = _split_key(body, n)
        if kv is None:
            raise YamlError(n, f"expected 'key: value', got {body[:30]!r}")
        key_text, rest = kv
        key = _scalar(key_text, n) if not key_text.startswith(("'", '"')) else key_text
        if key in out_d:
            raise YamlError(n, f"duplicate key {key!r}")
        out_d.key_lines[key] = n
        if rest:
            out_d[key] = _flow(rest, n)
            pos += 1
        elif pos + 1 < len(lines) and lines[pos + 1][1] > indent:
            out_d[key], pos = _block(lines, pos + 1, lines[pos + 1][1], depth + 1)
        elif pos + 1 < len(lines) and lines[pos + 1][1] == indent and lines[pos + 1][2].startswith("- "):
            out_d[key], pos = _block(lines, pos + 1, indent, depth + 1)
        else:
            out_d[key] = None
            pos += 1
    return out_d, pos
