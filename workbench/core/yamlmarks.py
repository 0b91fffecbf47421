"""Safe YAML loading that remembers line numbers, so every error names the line of the file.

PyYAML's ``safe_load`` forgets where values came from. ``load_with_lines`` uses a ``SafeLoader``
subclass (still safe: no Python object tags) that builds ``LineDict``/``LineList``, plain dicts and
lists that also carry the line of themselves and of each key or item. Duplicate keys are refused
rather than silently overwritten (in ``pieces`` a duplicate is two pieces on one hex).

Files come from users, so the work is bounded before anything is built: nesting depth and the
size of the document *after* expanding aliases are measured first (a few hundred bytes of
nested aliases, "billion laughs", expand to billions of nodes), numbers are at most
``MAX_NUMBER_DIGITS`` digits, and every failure is a ``yaml.YAMLError`` with the line.
"""

from __future__ import annotations

from typing import Any

import yaml

from workbench.core.jsonlines import LineDict, LineList  # one line-aware dict and list for every reader

MAX_DEPTH = 32  # nesting of mappings and lists; scenario files need about 5
MAX_NODES = 50_000  # values in the document with aliases expanded
MAX_NUMBER_DIGITS = 40


class LimitError(yaml.YAMLError):
    """The document is too deep, too large once aliases are expanded, or holds an absurd value."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason)
        self.problem = reason
        self.line = line


class KeyTypeError(ValueError):
    """A mapping key that is a list or a mapping (YAML allows it; no field of ours is named so)."""

    def __init__(self, key: Any, line: int) -> None:
        super().__init__(f"a key must be plain text, not a {'mapping' if isinstance(key, dict) else 'list'}")
        self.line = line


class DuplicateKeyError(ValueError):
    """A mapping names the same key twice; ``line`` is the 1-based line of the second one."""

    def __init__(self, key: Any, line: int, first_line: int) -> None:
        super().__init__(f"{short(key)} appears twice (first on line {first_line})")
        self.key = key
        self.line = line
        self.first_line = first_line


class _LineLoader(yaml.SafeLoader):
    """SafeLoader that builds ``LineDict``/``LineList``; no tag beyond the safe set is accepted."""


def _mapping(loader: _LineLoader, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    out = LineDict()
    out.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        try:
            hash(key)
        except TypeError:
            raise KeyTypeError(key, line) from None
        if key in out:
            raise DuplicateKeyError(key, line, out.key_lines[key])
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = line
    return out


def _sequence(loader: _LineLoader, node: yaml.SequenceNode) -> LineList:
    out = LineList()
    out.line = node.start_mark.line + 1
    for item in node.value:
        out.append(loader.construct_object(item, deep=True))
        out.item_lines.append(item.start_mark.line + 1)
    return out


def _int(loader: _LineLoader, node: yaml.ScalarNode) -> int:
    """YAML ints, refusing absurd lengths (Python refuses over 4,300 digits with a bare ValueError)."""
    digits = sum(ch.isdigit() for ch in node.value)
    if digits > MAX_NUMBER_DIGITS:
        raise LimitError(f"a number of {digits} digits; at most {MAX_NUMBER_DIGITS} are allowed",
                         node.start_mark.line + 1)
    return loader.construct_yaml_int(node)


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)
_LineLoader.add_constructor("tag:yaml.org,2002:int", _int)


def _check_depth(text: str) -> None:
    """Refuse deep nesting from the event stream (the parser is iterative; composing is recursive)."""
    depth = 0
    for event in yaml.parse(text, Loader=yaml.SafeLoader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                mark = event.start_mark
                raise LimitError(f"nested more than {MAX_DEPTH} levels deep", None if mark is None else mark.line + 1)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1


def _check_expansion(root: yaml.Node) -> None:
    """Size and depth of the document with aliases expanded, computed over the shared node graph
    (each node once), so a billion-laughs file is refused in time linear in its length."""
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    on_path: set[int] = set()
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            children = _children(node)
            size[key] = 1 + sum(size[id(c)] for c in children)
            depth[key] = 1 + max((depth[id(c)] for c in children), default=0)
            if size[key] > MAX_NODES:
                raise LimitError(f"more than {MAX_NODES:,} values once its aliases (*name) are expanded",
                                 node.start_mark.line + 1)
            if depth[key] > MAX_DEPTH:
                raise LimitError(f"nested more than {MAX_DEPTH} levels deep once its aliases are expanded",
                                 node.start_mark.line + 1)
            continue
        if key in size:
            continue
        if key in on_path:
            raise LimitError("an alias refers to a value that contains it (a recursive alias)", node.start_mark.line + 1)
        on_path.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in _children(node) if id(c) not in size)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def load_with_lines(text: str) -> Any:
    """Parse one YAML document safely; mappings and sequences carry their line numbers.

    Raises ``yaml.YAMLError`` (with a mark or a ``line``) for malformed or oversized text,
    ``DuplicateKeyError`` and ``KeyTypeError``.
    """
    _check_depth(text)
    loader = _LineLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_expansion(node)
        try:
            return loader.construct_document(node)
        except (ValueError, TypeError, OverflowError) as exc:
            if isinstance(exc, (DuplicateKeyError, KeyTypeError)):
                raise
            raise LimitError(f"a value YAML cannot build: {short(exc, 120)}") from None
    finally:
        loader.dispose()


def short(value: Any, limit: int = 60) -> str:
    """``repr`` of a value from a file, cut to ``limit`` characters for error messages."""
    text = value if isinstance(value, str) and not isinstance(value, bool) else None
    text = repr(text) if text is not None else _bounded_repr(value, limit)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _bounded_repr(value: Any, limit: int) -> str:
    if isinstance(value, (list, dict, tuple, set)):
        return f"a {type(value).__name__.replace('Line', '').lower()} of {len(value)} items"
    return repr(value)[: limit + 1]


def line_of(container: Any, key: Any, default: int = 0) -> int:
    """Line of ``key`` in a ``LineDict``/``LineList`` (``default`` for plain containers)."""
    if isinstance(container, (LineDict, LineList)):
        return container.line_of(key)
    return default


def error_line(exc: yaml.YAMLError) -> int | None:
    """1-based line of a PyYAML error, when it has a mark."""
    if isinstance(exc, LimitError):
        return exc.line
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    return None if mark is None else mark.line + 1


__all__ = ["DuplicateKeyError", "KeyTypeError", "LimitError", "LineDict", "LineList", "error_line", "line_of",
           "load_with_lines", "short"]
