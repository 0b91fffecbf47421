"""Safe YAML loading that remembers line numbers, so every error names the line of the file.

PyYAML's ``safe_load`` forgets where values came from. ``load_with_lines`` uses a ``SafeLoader``
subclass (still safe: no Python object tags) that builds ``LineDict``/``LineList``, plain dicts and
lists that also carry the line of themselves and of each key or item. Duplicate keys are refused
rather than silently overwritten (in ``pieces`` a duplicate is two pieces on one hex).
"""

from __future__ import annotations

from typing import Any

import yaml


class DuplicateKeyError(ValueError):
    """A mapping names the same key twice; ``line`` is the 1-based line of the second one."""

    def __init__(self, key: Any, line: int, first_line: int) -> None:
        super().__init__(f"{key!s} appears twice (first on line {first_line})")
        self.key = key
        self.line = line
        self.first_line = first_line


class LineDict(dict):
    """A dict with ``line`` (of the mapping) and ``key_lines`` (key -> line), 1-based."""

    line: int = 0

    def __init__(self) -> None:
        super().__init__()
        self.key_lines: dict[Any, int] = {}

    def line_of(self, key: Any) -> int:
        """Line of ``key`` if present, else of the mapping itself."""
        return self.key_lines.get(key, self.line)


class LineList(list):
    """A list with ``line`` (of the sequence) and ``item_lines`` (index -> line), 1-based."""

    line: int = 0

    def __init__(self) -> None:
        super().__init__()
        self.item_lines: list[int] = []

    def line_of(self, index: int) -> int:
        """Line of item ``index``, else of the sequence."""
        return self.item_lines[index] if 0 <= index < len(self.item_lines) else self.line


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
            raise DuplicateKeyError(f"unhashable key {key!r}", line, line) from None
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


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)


def load_with_lines(text: str) -> Any:
    """Parse one YAML document safely; mappings and sequences carry their line numbers.

    Raises ``yaml.YAMLError`` (with a mark) for malformed text and ``DuplicateKeyError``.
    """
    loader = _LineLoader(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def line_of(container: Any, key: Any, default: int = 0) -> int:
    """Line of ``key`` in a ``LineDict``/``LineList`` (``default`` for plain containers)."""
    if isinstance(container, (LineDict, LineList)):
        return container.line_of(key)
    return default


def error_line(exc: yaml.YAMLError) -> int | None:
    """1-based line of a PyYAML error, when it has a mark."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    return None if mark is None else mark.line + 1
