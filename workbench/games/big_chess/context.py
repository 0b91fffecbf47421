"""The fixed part of one big-chess game: rules, board, cards, players and precomputed tables.

States of one game share a ``Context`` (built once, cached), so cloning a state copies only the
position. Costs here already include the rule overrides (``king_cost`` for every King, B42;
``cost_<key>`` for the starter cards).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.core.rulespec import Rules

from .boards import Board, BoardError, named_board, parse_teams
from .cards import Card, merge_cards, parse_cards, starter_cards


class Context:
    """Everything that does not change during a game."""

    def __init__(self, rules: Rules, board: Board, teams_text: str, extra_cards: Sequence[Card] = (),
                 extra_data: Any = None) -> None:
        self.rules = rules
        self.board = board
        self.extra_cards = tuple(extra_cards)
        self.extra_data = extra_data  # the ``cards`` data as given (records, dumps)
        cards = merge_cards(starter_cards(), extra_cards, "cards") if extra_cards else starter_cards()
        self.cards: tuple[Card, ...] = cards
        self.card_index = {c.key: i for i, c in enumerate(cards)}
        self.king = next(i for i, c in enumerate(cards) if "king" in c.tags)
        self.victim = self.card_index.get("victim", -1)
        self.cost = []
        for c in cards:
            if "king" in c.tags:
                self.cost.append(rules["king_cost"])
            else:
                override = rules.get(f"cost_{c.key}")
                starter = c in starter_cards()
                self.cost.append(override if (override is not None and starter) else c.cost)
        self.income = []
        for c in cards:
            override = rules.get(f"income_{c.key}")
            self.income.append(override if (override is not None and c in starter_cards()) else c.income)
        self.is_pawn = [("pawn" in c.tags) for c in cards]
        self.is_king = [("king" in c.tags) for c in cards]
        self.is_prince = [("prince" in c.tags) for c in cards]
        self.is_jester = [("jester" in c.tags) for c in cards]
        self.jester_immune = [("jester_immune" in c.tags) for c in cards]
        self.untouchable = [("untouchable" in c.tags) for c in cards]
        self.pushable = [(rules["king_pushable"] if "king" in c.tags else c.pushable) for c in cards]
        self.mobile = [c.mobile for c in cards]
        self.levels_mask = [c.levels_mask for c in cards]
        self.aura_mask = [sum(1 << lv for lv in c.aura) for c in cards]
        self.fort_mask = sum(1 << lv for lv in rules["fort_levels"])
        teams = parse_teams(teams_text, board)
        self.teams_text = teams_text
        self.players: tuple[str, ...] = tuple(sorted(ch for t in teams for ch in t))
        self.pidx = {p: i for i, p in enumerate(self.players)}
        self.team_members: tuple[tuple[int, ...], ...] = tuple(tuple(self.pidx[ch] for ch in t) for t in teams)
        self.team_of = [0] * len(self.players)
        for ti, t in enumerate(self.team_members):
            for p in t:
                self.team_of[p] = ti
        self.team_text = ["".join(t) for t in teams]
        for key in rules["promotion_targets"]:
            idx = self.card_index.get(key)
            if idx is None:
                raise BoardError(f"rule promotion_targets: {key} is not a card (B56)")
            c = cards[idx]
            if not c.buyable or "pawn" in c.tags or "king" in c.tags:
                raise BoardError(f"rule promotion_targets: {key} is not a buyable non-pawn card (B56)")
        self.promo = tuple(rules["promotion_targets"])
        w, h = board.width, board.height
        self.W, self.H, self.N = w, h, w * h
        self.terrain = board.terrain
        self.zone = board.zone
        self.names = [f"{i % w},{i // w}" for i in range(w * h)]
        self.x = [i % w for i in range(w * h)]
        self.y = [i // w for i in range(w * h)]
        self.neighbors: list[tuple[int, ...]] = []
        for i in range(w * h):
            x, y = i % w, i // w
            self.neighbors.append(tuple((y + dy) * w + x + dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                                        if (dx or dy) and 0 <= x + dx < w and 0 <= y + dy < h))
        self._compiled: dict[tuple[int, int, int], Any] = {}
        from .boards import PATH_OK, STANDABLE_NOT

        self.path_ok = [t in PATH_OK for t in self.terrain]
        self.standable = [t not in STANDABLE_NOT for t in self.terrain]
        self.rays: list[tuple[tuple[int, ...], ...]] = []
        from .geometry import DIRS

        for i in range(w * h):
            x, y = i % w, i // w
            per = []
            for dx, dy in DIRS:
                cells = []
                cx, cy = x + dx, y + dy
                while 0 <= cx < w and 0 <= cy < h:
                    cells.append(cy * w + cx)
                    cx += dx
                    cy += dy
                per.append(tuple(cells))
            self.rays.append(tuple(per))
        self._leaps: dict[tuple[int, int, int], Any] = {}
        self._placements: dict[tuple[int, int, int], dict[str, tuple[Any, ...]]] = {}

    def placements(self, p: int, k: int, c: int) -> dict[str, tuple[Any, ...]]:
        """Player ``p``'s setup placements of card ``k`` on cell ``c``, text to generated tuple (one per facing for a
        vector card), made once per context: a four-player setup lists 5,696 of them at every position."""
        key = (p, k, c)
        out = self._placements.get(key)
        if out is None:
            from .geometry import FACING_NAMES

            card, head = self.cards[k], f"{self.players[p]}:+{self.cards[k].key}@{self.names[c]}"
            out = ({f"{head}:{FACING_NAMES[f]}": ("place", p, k, c, f) for f in range(8)} if card.vector
                   else {head: ("place", p, k, c, 0)})
            self._placements[key] = out
        return out

    def compiled(self, card: int, f: int, mask: int) -> tuple[tuple[Any, tuple[tuple[int, int], ...]], ...]:
        """Active entries of a card for a facing and an effective level mask, with turned vectors (cached)."""
        key = (card, f, mask)
        out = self._compiled.get(key)
        if out is None:
            out = tuple((e, e.turned(f)) for e in self.cards[card].active(mask))
            self._compiled[key] = out
        return out

    def leap(self, s: int, vx: int, vy: int) -> tuple[int, tuple[int, ...]] | None:
        """Target cell and absolute over-cells of a leap from ``s`` (None off the board), cached."""
        key = (s, vx, vy)
        if key in self._leaps:
            return self._leaps[key]
        from .geometry import over_cells

        x, y = s % self.W + vx, s // self.W + vy
        out = None
        if 0 <= x < self.W and 0 <= y < self.H:
            sx, sy = s % self.W, s // self.W
            out = (y * self.W + x, tuple((sy + j) * self.W + sx + i for i, j in over_cells(vx, vy)))
        self._leaps[key] = out
        return out

    def dist(self, a: int, b: int) -> int:
        """Chebyshev distance of two cells."""
        return max(abs(self.x[a] - self.x[b]), abs(self.y[a] - self.y[b]))

    def key(self) -> tuple[Any, ...]:
        """Identity of the game (for the context cache and equality)."""
        return (self.rules, self.board.rows, tuple(sorted(self.board.facing.items())), self.teams_text, self.extra_cards)


_CACHE: dict[tuple[Any, ...], Context] = {}


def context_for(rules: Rules, board: Board | None = None, teams: str | None = None, cards_data: Any = None,
                where: str = "cards") -> Context:
    """A cached context; ``board``/``teams`` default to the rules' (B43)."""
    board = board or named_board(rules["board"])
    teams_text = teams if teams is not None else (rules["teams"] or board.teams)
    extra: tuple[Card, ...] = ()
    if cards_data:
        extra = tuple(parse_cards(cards_data, where))
    key = (rules, board.rows, tuple(sorted(board.facing.items())), board.name, teams_text, extra)
    ctx = _CACHE.get(key)
    if ctx is None:
        if len(_CACHE) > 256:
            _CACHE.clear()
        ctx = Context(rules, board, teams_text, extra, cards_data)
        _CACHE[key] = ctx
    return ctx
