"""The variation tree behind the board's move list: any game's actions, kept as lichess keeps them.

Game-neutral on purpose: a node holds an action (whatever the game uses), its text in the game's
notation, the effects the engine reported for it and the user's drawings. Playing from an earlier
position adds a variation instead of cutting the line; ``promote`` and ``delete`` edit the tree;
``rows`` lays it out for the move list (main line, variations indented under the move they
replace) and is cached, so a 20,000-ply game costs a window of rows per click, not the whole list.
Records store the tree as nested lines (``to_json``/``lines_of``): the main line stays the
record's ``actions``, so a record with variations still loads as a plain game elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

SNAPSHOT_EVERY = 64  # a position copy every so many plies: a jump replays at most this many actions
MAX_NESTING = 30  # variations inside variations, in a record


class Node:
    """One position of the tree: reached from ``parent`` by ``action`` (None at the root)."""

    __slots__ = ("action", "children", "effects", "id", "last", "parent", "ply", "score", "shapes", "snapshot",
                 "static", "text", "to_move")

    def __init__(self, node_id: int, parent: Node | None, action: Any, text: str, ply: int) -> None:
        self.id = node_id
        self.parent = parent
        self.action = action
        self.text = text
        self.ply = ply
        self.children: list[Node] = []
        self.effects: dict[str, Any] = {}
        self.score: tuple[float, str] | None = None  # an agent's own value of the move it played
        self.static: float | None = None  # the static evaluation after the move (White's view)
        self.snapshot: Any = None  # a history-free copy of the position (every SNAPSHOT_EVERY plies)
        self.shapes: dict[str, list[list[str]]] = {}  # {"arrows": [[a, b, colour]], "circles": [[h, colour]]}
        self.last: Node | None = None  # the child visited last: Redo and → follow it
        self.to_move: int = 0  # the player to move at this node (the game's current_player)

    @property
    def up(self) -> Node:
        """The parent of a node that has one (asking the root for it is a bug of the caller)."""
        if self.parent is None:
            raise ValueError("the start has no move before it")
        return self.parent

    def next(self) -> Node | None:
        """The child the line continues with: the one visited last, else the main one."""
        if self.last is not None and self.last in self.children:
            return self.last
        return self.children[0] if self.children else None

    def is_main(self) -> bool:
        """Whether this node is on the tree's main line (first child all the way from the root)."""
        node = self
        while node.parent is not None:
            if node.parent.children[0] is not node:
                return False
            node = node.parent
        return True


class VariationTree:
    """Nodes by id, the root's position, and the cached move-list layout."""

    def __init__(self, root_snapshot: Any, ply: int) -> None:
        self.root = Node(0, None, None, "", ply)
        self.root.snapshot = root_snapshot
        self.nodes: dict[int, Node] = {0: self.root}
        self._next_id = 1
        self._rows: list[tuple[Node, int]] | None = None
        self.version = 0  # bumped by every change of the tree's shape (caches key on it)
        self._index: dict[int, int] = {}

    # ------------------------------------------------------------------ editing
    def add(self, parent: Node, action: Any, text: str) -> tuple[Node, bool]:
        """The child of ``parent`` reached by ``action``: the existing one, or a new one (then True)."""
        for child in parent.children:
            if child.action == action:
                parent.last = child
                return child, False
        node = Node(self._next_id, parent, action, text, parent.ply + 1)
        self._next_id += 1
        self.nodes[node.id] = node
        parent.children.append(node)
        parent.last = node
        self._rows = None
        self.version += 1
        return node, True

    def promote(self, node: Node) -> Node | None:
        """Move the variation ``node`` is in one level up (to first place at its nearest fork)."""
        child = node
        while child.parent is not None:
            parent = child.parent
            if parent.children[0] is not child:
                parent.children.remove(child)
                parent.children.insert(0, child)
                self._rows = None
                self.version += 1
                return parent
            child = parent
        return None

    def delete(self, node: Node) -> Node | None:
        """Remove ``node`` and everything after it; returns its parent (None for the root)."""
        parent = node.parent
        if parent is None:
            return None
        parent.children.remove(node)
        if parent.last is node:
            parent.last = None
        stack = [node]
        while stack:
            n = stack.pop()
            self.nodes.pop(n.id, None)
            stack.extend(n.children)
        self._rows = None
        self.version += 1
        return parent

    # ------------------------------------------------------------------ reading
    def get(self, node_id: int) -> Node | None:
        """The node with this id (ids come from the page, so a missing one is None, not an error)."""
        return self.nodes.get(node_id)

    def main_line(self) -> Iterator[Node]:
        """The main line's nodes after the root."""
        node = self.root
        while node.children:
            node = node.children[0]
            yield node

    def line_end(self, node: Node) -> Node:
        """Where the line through ``node`` ends (following ``next``)."""
        while True:
            after = node.next()
            if after is None:
                return node
            node = after

    def ancestor_at(self, node: Node, ply: int) -> Node:
        """``node``'s ancestor (or itself) at ``ply``."""
        while node.ply > ply and node.parent is not None:
            node = node.parent
        return node

    def rows(self) -> list[tuple[Node, int]]:
        """Every node after the root in move-list order with its indent (0 main line, 1 variation, ...).

        A variation is listed right after the move it replaces, its own variations inside it.
        Cached until the tree changes: a click that only moves through the tree reuses it.
        """
        if self._rows is not None:
            return self._rows
        out: list[tuple[Node, int]] = []
        first = self.root.children[0] if self.root.children else None
        _layout(self.root, first, True, 0, out)
        self._rows = out
        self._index = {n.id: i for i, (n, _d) in enumerate(out)}
        return out

    def index_of(self, node: Node) -> int:
        """Position of ``node`` in ``rows()`` (-1 for the root)."""
        self.rows()
        return self._index.get(node.id, -1)

    # ------------------------------------------------------------------ records
    def to_json(self) -> dict[str, Any]:
        """The variations and drawings as record fields (the main line itself is the record's actions)."""
        first = self.root.children[0] if self.root.children else None
        line = _line_json(self.root, first, True, 0)
        out: dict[str, Any] = {}
        if line["variations"]:
            out["variations"] = line["variations"]
        shapes = dict(line["shapes"])
        if self.root.shapes:
            shapes["0"] = self.root.shapes
        if shapes:
            out["shapes"] = shapes
        return out


def _layout(prev: Node, node: Node | None, first_alternatives: bool, depth: int, out: list[tuple[Node, int]]) -> None:
    """Append one line (and, after each move, the variations that replace it) to ``out``."""
    i = 0
    while node is not None:
        out.append((node, depth))
        if i > 0 or first_alternatives:
            for alt in prev.children:
                if alt is not node:
                    _layout(prev, alt, False, depth + 1, out)
        prev, node = node, (node.children[0] if node.children else None)
        i += 1


def _line_json(prev: Node, node: Node | None, first_alternatives: bool, depth: int) -> dict[str, Any]:
    """One line of the tree as ``{"moves", "variations": [{"at", ...}], "shapes": {"i": ...}}``."""
    moves: list[str] = []
    variations: list[dict[str, Any]] = []
    shapes: dict[str, Any] = {}
    i = 0
    while node is not None:
        if i > 0 or first_alternatives:
            for alt in prev.children:
                if alt is not node:
                    variations.append({"at": i, **_line_json(prev, alt, False, depth + 1)})
        moves.append(node.text)
        if node.shapes:
            shapes[str(i + 1)] = node.shapes
        prev, node = node, (node.children[0] if node.children else None)
        i += 1
    out: dict[str, Any] = {"moves": moves, "variations": variations, "shapes": shapes}
    return out


__all__ = ["MAX_NESTING", "SNAPSHOT_EVERY", "Node", "VariationTree"]
