"""Big chess («большие шахматы») on the workbench protocol: 2 to 25 players in teams, pieces as data.

``GAME`` is the ``GameDef``. The engine is ``state.BigChessState``; cards are ``cards.py`` plus the
starter set in ``data/cards``; boards ``boards.py`` plus ``data/boards``; the scenario dialect
``scenario.py``; records ``record.py``. See README.md beside this file.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.core.classes import load_archetypes
from workbench.core.protocol import (
    Cell,
    GameCommand,
    GameDef,
    GameInfo,
    IllegalAction,
    Layout,
    NativeBackend,
    Pattern,
    State,
)
from workbench.core.rulespec import Rules, RulesSpec
from workbench.core.scenario import ScenarioCase

from .boards import LETTERS, BoardError, make_board
from .cards import Card, card_patterns, card_rows, render_pattern, starter_cards
from .classes import ACTION_CLASSES
from .context import Context, context_for
from .geometry import FACING_INDEX, FACING_NAMES
from .rules import ARMY_PLAN, SPEC
from .scenario import BigChessScenario, dump_scenario_text
from .state import COUNTER_WORDS, COUNTERS, BigChessState, Piece

__all__ = ["GAME", "BigChess", "BigChessState", "cards", "patterns", "render_card", "setup_armies", "threat_views"]

MAX_LEVELS = 32
N_PLAYERS = len(LETTERS)
_ARMY_A = (("king", "5,11"), ("rook", "0,11"), ("rook", "11,11"), ("knight", "1,11"), ("knight", "10,11"),
           ("lbishop", "2,11"), ("lbishop", "9,11")) + tuple(("infantry", f"{x},10") for x in range(3, 9))


def cards(rules: Rules | Mapping[str, Any] | str | None = None) -> list[dict[str, Any]]:
    """The cards as rows (key, name, cost, patterns per level) for ``python -m workbench cards``.

    Under ``rules`` the costs are the rules' (``cost_knight=40``, ``king_cost``).
    """
    ctx = GAME.context(rules if isinstance(rules, Rules) else GAME.rules(rules))
    rows = card_rows(ctx.cards)
    for row, cost in zip(rows, ctx.cost, strict=True):
        row["cost"] = cost
    return rows


def render_card(key: str, levels: Sequence[int] = (), facing: str = "N", radius: int = 3) -> str:
    """A card's pattern drawn on a small text grid (see ``cards.render_pattern``)."""
    card = next((c for c in starter_cards() if c.key == key), None)
    if card is None:
        raise KeyError(f"no card {key}")
    return render_pattern(card, levels, FACING_INDEX[facing.upper()], radius)


def patterns(key: str, rules: Rules | Mapping[str, Any] | str | None = None, facing: str = "N",
             radius: int | None = None) -> list[Pattern]:
    """A card of the rules' set as pattern diagrams (base, then each level), for ``workbench.viz.generic``'s
    ``patterns_svg`` and ``pattern_figure``; ``KeyError`` for an unknown card or facing."""
    card = GAME.card(key, rules if isinstance(rules, Rules) else GAME.rules(rules))
    return card_patterns(card, FACING_INDEX[facing.upper()], radius)


def threat_views(state: BigChessState) -> list[tuple[str, str, int]]:
    """The threat heat panels of a position: what each player's pieces reach, then what each team's reach
    (``(title, layer, player)`` for ``workbench.viz.generic.heat_panels``)."""
    ctx = state.ctx
    views = [(f"player {letter} reaches", "attack", p) for p, letter in enumerate(ctx.players)]
    if any(len(t) > 1 for t in ctx.team_members):
        views += [(f"team {text} reaches", "team_attack", ctx.team_members[t][0]) for t, text in enumerate(ctx.team_text)]
    return views



_SEAT_ACTION = re.compile(r"([a-y]):(.*)")
_PIECE_ACTION = re.compile(r"([0-9]+,[0-9]+)([-x*>])([0-9]+,[0-9]+)(?:=([a-z0-9]+))?")


@functools.lru_cache(maxsize=64)
def _part_sizes(n: int, k: int, t: int) -> tuple[int, ...]:
    """The dense action space's parts (piece actions, area, buys, ..., ready) for n cells, k cards, t promotions."""
    return (4 * n * n * (t + 1), n, k * n, n, n * MAX_LEVELS, 1, N_PLAYERS * k * n * 9, N_PLAYERS * n,
            N_PLAYERS * n * n, N_PLAYERS)


@functools.lru_cache(maxsize=64)
def _part_offsets(n: int, k: int, t: int) -> tuple[int, ...]:
    """Where each part starts (cached: ``action_to_int`` runs for every legal action)."""
    sizes = _part_sizes(n, k, t)
    return tuple(sum(sizes[:i]) for i in range(len(sizes)))

def _python_of(state: State) -> BigChessState:
    """The Python engine's state of ``state`` (a native state answers with its Python twin)."""
    if not isinstance(state, BigChessState):
        state = state.python()  # type: ignore[attr-defined]
    assert isinstance(state, BigChessState)
    return state


class BigChessNative(NativeBackend):
    """Big chess's native core (``native.py``, ``workbench._native.big_chess``) as the tools ask it."""

    exists = True
    sweep = "workbench.games.big_chess.nativediff"  # nativediff --game

    def available(self) -> bool:
        """True when the native core is built."""
        from .native import available

        return available()

    def play_game(self, spec: Any) -> Any:
        """simulate's fast path: the whole game of ``spec`` in the native core (the same row and events), or
        None when the core cannot play it (not built, or an agent without a native twin)."""
        from .native_play import play_native, playable

        return play_native(spec) if playable(spec, GAME.spec.make(spec.rules)) else None

    def state(self, state: Any) -> Any:
        """The same position on the native core (``NativeBigChessState``, the protocol's API)."""
        from .native import native_state

        return native_state(state)

    def new_state(self, rules: Rules | None = None, seed: int = 0) -> Any:
        """The start dealt by the core (the same position as ``new_initial_state``, checked by the sweep)."""
        from .native import NativeBigChessState

        return NativeBigChessState.initial(GAME.context(rules), seed)

    def agent(self, spec: str, rules: Rules, seed: int) -> Any:
        """The native twin of agent ``spec`` for one seat of a Python-loop game, or None without one."""
        from .native import NativeAgent, available

        return NativeAgent.for_seat(spec, GAME, rules, seed, available())

    def play_barred(self, start: Any, seats: Any, masks: Any, n_classes: int, chance_seed: int, max_plies: int) -> Any:
        """Restricted play in Rust (``native/src/big_chess/classes.rs``): (final state, legal counts, tallies)."""
        from .native import play_barred

        return play_barred(start, seats, masks, n_classes, max_plies)

    def class_bits(self, state: Any, action: Any) -> int:
        """The Rust classifier's bits for ``action`` (its text) in a ``NativeBigChessState``."""
        from .native import class_bits

        return class_bits(state, action)

    def random_playouts(self, rules: Rules, games: int, seed: int, max_actions: int) -> int:
        """Actions of ``bench``'s random playouts played in the native core (the same streams, so the same games)."""
        from .native import core, native_game

        if games <= 0:
            return 0
        seeds = [seed * 100_003 + g for g in range(games)]
        return sum(core().random_playouts(native_game(GAME.context(rules)), seeds, max_actions))


def _cards_command(argv: list[str], painter: Callable[[Any], str]) -> int:
    """``python -m workbench cards``: the card listing (``cli.py``, imported only when asked)."""
    from .cli import main

    return main(argv, draw=painter)


class BigChess(GameDef):
    """The big-chess game definition."""

    name = "big-chess"
    action_classes = ACTION_CLASSES  # buying each card, a strike, a portal, a push
    archetypes = load_archetypes(Path(__file__).parent / "data" / "archetypes.json", ACTION_CLASSES)  # rush, turtle ...
    title = "Big Chess"
    scenario_folder = "big-chess"
    native = BigChessNative()
    strength_file = "data/elo.json"  # the ladder's measured Elo table (workbench ladder --write)
    commands = {"cards": GameCommand("big chess cards: cost (under --rules) and patterns per level", _cards_command)}
    headline_grid = {"start": ("deployed",)}  # the skill-trace question: the first seat, armies deployed (docs/strength.md)
    skill_trace = "alphabeta:depth=4,nodes=128..4096"  # ... at these doubling budgets (each stronger: docs/strength.md)
    headline_opening = 2  # ... each game after one random decision a side, the same at every rung (docs/balance.md)
    heat_layers = ("threat", "attack", "team_attack", "control", "buy")
    evaluation_unit = "infantry units"
    glyph_words = {"L#": "a level the piece has gained", "t#": "trophies (pieces taken)", "$#": "its player's treasury",
                   "shadow": "a shadow: the cell a piece passed (en passant)"}
    legend = (
        ("plain", "#f4efe1", "plain cell"), ("start", "#e9e1c8", "start cell of a player (a letter)"),
        ("rock", "#6b6b6b", "rock: no standing, no passing, blocks leaps"),
        ("embers", "#d9643b", "embers: pass through, never stand"),
        ("sand", "#e8cf8a", "sand: stops movement"), ("forest", "#4f8a4a", "forest: only from an adjacent cell"),
        ("swamp", "#6f7f5a", "swamp: a piece there acts only on adjacent cells"),
        ("mine", "#b89b5e", "mine: income for a piece on it"), ("fort", "#8f8fb8", "fort: levels for a piece on it"),
        ("altar", "#c9a0dc", "altar: a piece arriving vanishes for its cost plus trophies"),
        ("portal", "#5fb3c9", "portal: a piece arriving goes to the paired portal"),
    )

    @property
    def spec(self) -> RulesSpec:
        """Every parameter and toggle of section 15, plus ``cost_<card>``."""
        return SPEC

    def context(self, rules: Rules | None = None) -> Context:
        """The fixed part of a game under ``rules``."""
        return context_for(rules if isinstance(rules, Rules) else self.rules(rules))

    def info(self, rules: Rules | None = None) -> GameInfo:
        """Players (letters of the ``teams`` rule, in order), labels, teams; no chance."""
        return self._info(self.context(rules))

    def state_info(self, state: State) -> GameInfo:
        """The seats of the position's own teams (a scenario's ``teams: a,b,c,d`` seats four)."""
        return self._info(state.ctx) if isinstance(state, BigChessState) else self.info(self.state_rules(state))

    def state_rules(self, state: State) -> Rules | None:
        return state.ctx.rules if isinstance(state, BigChessState) else super().state_rules(state)

    def state_layout(self, state: State) -> Layout:
        """The position's own board (a scenario's 7x7 ``board:`` rows), not the rules' named board."""
        return self._layout(state.ctx) if isinstance(state, BigChessState) else self.layout(self.state_rules(state))

    def card_patterns(self, card: str, rules: Rules | None = None) -> list[Pattern]:
        """The card's pattern diagrams (base, then levels) for the board's card palette."""
        try:
            return patterns(card, rules)
        except KeyError:
            return []

    def _info(self, ctx: Context) -> GameInfo:
        return GameInfo(name=self.name, title=self.title, players=ctx.players,
                        labels=tuple(f"player {p}" for p in ctx.players), teams=ctx.team_members, chance="none",
                        perfect_information=True, max_game_length=20 * max(ctx.rules["max_turns"], 1000) + 100_000)

    def new_initial_state(self, rules: Rules | Mapping[str, Any] | None = None, seed: int = 0,
                          cards: Any = None) -> BigChessState:
        """The setup phase on the rules' board (every treasury = ``king_cost``), the army start, or deployed.

        ``start=deployed`` plays every player's setup by ``deploy_plan`` (``setup_armies``) and then
        forgets those actions: the game begins in the play phase, as ``army`` does, on any board and
        teams, so batches, benchmarks and OpenSpiel skip thousands of placement choices per player.
        """
        rules = rules if isinstance(rules, Rules) else self.rules(rules)
        ctx = context_for(rules, cards_data=cards)
        st = BigChessState(ctx)
        st.seed = seed
        st.treasury = [rules["king_cost"]] * len(ctx.players)
        if rules["start"] == "army":
            w, h = ctx.W, ctx.H
            for p, letter in enumerate(ctx.players):
                spent = 0
                for key, name in _ARMY_A:
                    x, y = map(int, name.split(","))
                    if letter != "a":
                        x, y = w - 1 - x, h - 1 - y
                    k = ctx.card_index[key]
                    card = ctx.cards[k]
                    f = ctx.board.facing[letter] if card.vector else 0
                    st.pieces[y * w + x] = Piece(p, k, f, 0, ctx.cost[k], 0, False, 0)
                    spent += 0 if ctx.is_king[k] else ctx.cost[k]
                st.treasury[p] = max(0, rules["king_cost"] - spent)
            st.ready = set(range(len(ctx.players)))
            st._maybe_start_play()
        elif rules["start"] == "deployed":
            setup_armies(st, rules["deploy_plan"])
            st._history.clear()
            st.log.clear()
            st.moves = 0
            st._fired = []
            st.counts = {k: [0] * len(v) for k, v in st.counts.items()}
        return st

    def state_from_dict(self, data: Mapping[str, Any]) -> BigChessState:
        """Inverse of ``to_dict``; ``ValueError`` naming the field."""
        if not isinstance(data, Mapping) or data.get("game") != self.name:
            raise ValueError("state: not a big-chess state (field game)")
        try:
            rules = self.rules(data.get("rules") or {})
            board = make_board(data["board"], data.get("facing"), name=data.get("board_name", "custom"))
            ctx = context_for(rules, board, data["teams"], data.get("cards"))
            st = BigChessState(ctx)
            pl = ctx.players
            idx = ctx.pidx
            st.phase = data["phase"]
            st.to_move = idx[data["to_move"]]
            st.turn_no = int(data["turn"])
            st.quiet = int(data["quiet"])
            st.treasury = [int(data["treasury"][p]) for p in pl]
            for name, pd in data["pieces"].items():
                c = board.parse_cell(name)
                parts = pd["piece"].split(":")
                k = ctx.card_index[parts[1]]
                f = FACING_INDEX[parts[2]] if len(parts) == 3 else 0
                mask = sum(1 << lv for lv in pd["levels"])
                st.pieces[c] = Piece(idx[parts[0]], k, f, mask, int(pd["cost"]), int(pd["trophies"]), bool(pd["moved"]),
                                     int(pd["travelled"]))
            st.shadows = {board.parse_cell(k): board.parse_cell(v) for k, v in data["shadows"].items()}
            st.protected = {idx[p] for p in data["protected"]}
            st.locks = {(idx[t[0]], idx[t[2]]) for t in data["locks"]}
            st.out = {idx[p] for p in data["out"]}
            st.ready = {idx[p] for p in data["ready"]}
            w = data.get("winner")
            st.winner_team = None if w is None else ctx.team_text.index(w)
            st.result = data.get("result")
            st.moves = int(data.get("move_number", 0))
            for k, v in (data.get("counters") or {}).items():
                if k in st.counts:
                    st.counts[k] = [int(x) for x in v]
            st.buys = {k: [int(x) for x in v] for k, v in (data.get("buys") or {}).items()}
            st.lead10 = data.get("lead10")
        except (KeyError, TypeError, IndexError, BoardError) as exc:
            raise ValueError(f"state: bad or missing field ({type(exc).__name__}: {exc})") from None
        st.start_data = dict(data)
        return st

    # ------------------------------------------------------------------ dense actions
    def _sizes(self, ctx: Context) -> tuple[int, ...]:
        return _part_sizes(ctx.N, len(ctx.cards), len(ctx.promo))

    def num_distinct_actions(self, rules: Rules | None = None) -> int:
        """Every action the notation can name on this board with these cards."""
        return sum(self._sizes(self.context(rules)))

    def action_to_int(self, state: State, action: Any) -> int:
        """Dense index of a canonical action string."""
        state = _python_of(state)
        ctx = state.ctx
        offs = _part_offsets(ctx.N, len(ctx.cards), len(ctx.promo))
        n, k = ctx.N, len(ctx.cards)
        cell = state._cell
        a = str(action)
        m = _SEAT_ACTION.fullmatch(a)
        if m:
            p = LETTERS.index(m.group(1))
            rest = m.group(2)
            if rest == "ready":
                return offs[9] + p
            if rest.startswith("+"):
                key, _, tail = rest[1:].partition("@")
                c, _, f = tail.partition(":")
                fi = FACING_INDEX[f] + 1 if f else 0
                return offs[6] + ((p * k + ctx.card_index[key]) * n + cell(c)) * 9 + fi
            if rest.startswith("-"):
                return offs[7] + p * n + cell(rest[1:])
            s, _, c = rest.partition("-")
            return offs[8] + (p * n + cell(s)) * n + cell(c)
        if a == "pass":
            return offs[5]
        if a.startswith("^"):
            c, _, lv = a[1:].partition(":")
            return offs[4] + cell(c) * MAX_LEVELS + int(lv)
        if a.startswith("$"):
            return offs[3] + cell(a[1:])
        if a.startswith("+"):
            key, _, c = a[1:].partition("@")
            return offs[2] + ctx.card_index[key] * n + cell(c)
        if a.endswith("*area"):
            return offs[1] + cell(a[:-5])
        m = _PIECE_ACTION.fullmatch(a)
        if not m:
            raise IllegalAction(f"{a}: not a big-chess action")
        t = "-x*>".index(m.group(2))
        promo = 0 if m.group(4) is None else ctx.promo.index(m.group(4)) + 1
        return offs[0] + ((t * n + cell(m.group(1))) * n + cell(m.group(3))) * (len(ctx.promo) + 1) + promo

    def legal_ints(self, state: State) -> list[int]:
        """Sorted dense ids of the legal actions, kept while the state's sorted legal list is the same
        object (OpenSpiel asks for them many times a position; a new position builds a new list). A native
        state lists them in the core."""
        native = getattr(state, "native", None)
        if native is not None:
            return sorted(native.legal_ids())
        assert isinstance(state, BigChessState)
        state.legal_actions()
        key = state._sorted
        cached = getattr(state, "_ints_cache", None)
        if cached is None or cached[0] is not key:
            cached = state._ints_cache = (key, sorted(self.action_to_int(state, a) for a in key))
        return list(cached[1])

    def int_to_action(self, state: State, number: int) -> str:
        """Inverse of ``action_to_int``."""
        state = _python_of(state)
        ctx = state.ctx
        sizes = self._sizes(ctx)
        n, k = ctx.N, len(ctx.cards)
        names = ctx.names
        i = int(number)
        part = 0
        while part < len(sizes) and i >= sizes[part]:
            i -= sizes[part]
            part += 1
        if part == len(sizes) or i < 0:
            raise IllegalAction(f"action number {number} is out of range")
        if part == 0:
            t1 = len(ctx.promo) + 1
            promo = i % t1
            i //= t1
            c = i % n
            i //= n
            s = i % n
            t = i // n
            return f"{names[s]}{'-x*>'[t]}{names[c]}" + (f"={ctx.promo[promo - 1]}" if promo else "")
        if part == 1:
            return f"{names[i]}*area"
        if part == 2:
            return f"+{ctx.cards[i // n].key}@{names[i % n]}"
        if part == 3:
            return f"${names[i]}"
        if part == 4:
            return f"^{names[i // MAX_LEVELS]}:{i % MAX_LEVELS}"
        if part == 5:
            return "pass"
        if part == 6:
            fi = i % 9
            i //= 9
            c = i % n
            i //= n
            card = ctx.cards[i % k]
            p = LETTERS[i // k]
            return f"{p}:+{card.key}@{names[c]}" + (f":{FACING_NAMES[fi - 1]}" if fi else "")
        if part == 7:
            return f"{LETTERS[i // n]}:-{names[i % n]}"
        if part == 8:
            c = i % n
            i //= n
            return f"{LETTERS[i // n]}:{names[i % n]}-{names[c]}"
        return f"{LETTERS[i]}:ready"

    # ------------------------------------------------------------------ pictures, scenarios, tables
    def layout(self, rules: Rules | None = None) -> Layout:
        """Square cells of side 1, centres at (x + 0.5, y + 0.5); names ``x,y``."""
        return self._layout(self.context(rules))

    @staticmethod
    def _layout(ctx: Context) -> Layout:
        return Layout("square", 0.5, tuple(Cell(i, ctx.names[i], ctx.x[i] + 0.5, ctx.y[i] + 0.5) for i in range(ctx.N)))

    def scenario(self, data: Mapping[str, Any], where: str) -> ScenarioCase:
        """A ``game: big-chess`` scenario file (section 17)."""
        return BigChessScenario(data, where)

    # the board's position editor: the scenario position (section 17) is the form edited, judged by its own checks
    def edit_form(self, state: State) -> dict[str, Any]:
        """The rules, extra cards and scenario ``position`` of ``state`` (``dump_position``)."""
        from .scenario import dump_position

        assert isinstance(state, BigChessState)
        return {"rules": {k: (list(v) if isinstance(v, tuple) else v) for k, v in state.ctx.rules.to_dict().items()},
                "cards": [c.to_data() for c in state.ctx.extra_cards] or None, "position": dump_position(state)}

    def edit_state(self, data: Mapping[str, Any]) -> State:
        """The edited position through the scenario position's checks (section 17: each names the key and the
        cell, and the rule: two Kings, a piece outside its zone in the setup phase (B55), a facing on a piece
        without a vector ...)."""
        from .scenario import build_position

        return build_position(self.rules(data.get("rules") or {}), data.get("position") or {}, data.get("cards"))

    def _edit_context(self, data: Mapping[str, Any]) -> Context:
        pos = data.get("position") or {}
        board = make_board(pos["board"], pos.get("facing"))
        return context_for(self.rules(data.get("rules") or {}), board, pos.get("teams", "a,b"), data.get("cards"))

    def edit_pieces(self, data: Mapping[str, Any]) -> Sequence[tuple[str, int, str]]:
        """Every card for every seat of the position (2 to 25), the King first: ``a:knight`` (player a's Knight)."""
        ctx = self._edit_context(data)
        cards = sorted(ctx.cards, key=lambda c: (not ctx.is_king[ctx.card_index[c.key]], c.cost, c.key))
        return tuple((f"{letter}:{c.key}", p, f"player {letter} {c.key} ({c.cost})")
                     for p, letter in enumerate(ctx.players) for c in cards)

    def edit_options(self, data: Mapping[str, Any], code: str) -> Sequence[tuple[str, str, tuple[str, ...]]]:
        """A vector piece's facing (its seat's zone facing first) and a card's level (none, or one it defines)."""
        ctx = self._edit_context(data)
        letter, _, key = code.partition(":")
        ki = ctx.card_index.get(key)
        if ki is None or letter not in ctx.pidx:
            return ()
        card, out = ctx.cards[ki], []
        if card.vector:
            own = FACING_NAMES[ctx.board.facing.get(letter, 0)]
            out.append(("facing", "facing", (own, *(f for f in FACING_NAMES if f != own))))
        if card.levels:
            out.append(("level", "level", ("none", *(str(lv) for lv in card.levels))))
        return tuple(out)

    def edit_cell(self, data: dict[str, Any], cell: str, code: str,
                  options: Mapping[str, str] | None = None) -> dict[str, Any]:
        """A card of a seat (``a:infantry`` with ``options`` facing and level) set on ``cell`` (``x,y``), or "" to
        empty it; what belonged to the old piece (cost, level, trophies, a shadow) goes with it."""
        pos = dict(data.get("position") or {})
        pieces = dict(pos.get("pieces") or {})
        per_cell = {k: dict(pos.get(k) or {}) for k in ("levels", "cost", "trophies", "travelled")}
        for table in per_cell.values():
            table.pop(cell, None)
        pos["moved"] = [c for c in pos.get("moved") or [] if c != cell]
        pos["shadows"] = {s: c for s, c in (pos.get("shadows") or {}).items() if c != cell and s != cell}
        pieces.pop(cell, None)
        if code:
            opts = dict(options or {})
            pieces[cell] = code + (f":{opts['facing']}" if opts.get("facing") else "")
            if opts.get("level") not in (None, "", "none"):
                per_cell["levels"][cell] = [int(str(opts["level"]))]
        pos.update(pieces=pieces, **per_cell, winner=None, result=None)
        if pos.get("phase") == "setup":
            for key in ("moved", "shadows"):
                pos.pop(key, None)
        return {**data, "position": pos}

    def edit_to_move(self, data: dict[str, Any], player: int) -> dict[str, Any]:
        """The seat to move (play phase; in the setup phase every seat places and none is to move, B37)."""
        pos = dict(data.get("position") or {})
        players = self._edit_context(data).players
        if not 0 <= player < len(players):
            raise ValueError(f"there is no seat {player}: this position seats {', '.join(players)}")
        if pos.get("phase") == "setup":
            raise ValueError("the setup phase has no seat to move: every seat places (B37)")
        return {**data, "position": {**pos, "to_move": players[player]}}

    def edit_clear(self, data: dict[str, Any]) -> dict[str, Any]:
        """Every piece off (and what belonged to them)."""
        pos = {**(data.get("position") or {}), "pieces": {}, "levels": {}, "cost": {}, "trophies": {}, "travelled": {},
               "winner": None, "result": None}
        if pos.get("phase") != "setup":
            pos.update(moved=[], shadows={})
        return {**data, "position": pos}

    def dump_scenario(self, state: State, id: str, title: str, checks: Sequence[Mapping[str, Any]] = ()) -> str:  # noqa: A002
        """The state as a scenario file with every position key."""
        assert isinstance(state, BigChessState)
        return dump_scenario_text(state, id, title, checks)

    def game_row(self, state: State) -> dict[str, Any]:
        """Per player and per team results, treasuries, buys per card, rule usage, lead at turn 10."""
        assert isinstance(state, BigChessState)
        ctx = state.ctx
        pl = ctx.players
        r = state.returns()
        # winner_team stays the tools' team index (ladder, balance); the team's letters are winning_team
        row: dict[str, Any] = {"victory": state.victory(), "turns": state.turn_no, "quiet": state.quiet,
                               "winning_team": None if state.winner_team is None else ctx.team_text[state.winner_team],
                               "teams": ctx.teams_text}
        for p, letter in enumerate(pl):
            row[f"result_{letter}"] = r[p]
            row[f"treasury_{letter}"] = state.treasury[p]
            row[f"out_{letter}"] = p in state.out
        for t, text in enumerate(ctx.team_text):
            row[f"team_result_{text}"] = r[ctx.team_members[t][0]]
        for card in ctx.cards:  # every buyable card, 0 included: "never bought" needs the zeros
            if card.buyable:
                row[f"buys_{card.key}"] = sum(state.buys.get(card.key, ()))
        for p, letter in enumerate(pl):
            row[f"trophies_{letter}"] = sum(pc.trophies for pc in state.pieces.values() if pc.owner == p)
        for name in ("veterancy", "promotion", "prince_buy", "shadow_strike", "jester_block", "king_loss_strike",
                     "king_loss_take", "king_loss_area", "king_loss_altar", "succession", "purchase", "transformation"):
            row[name] = sum(state.counts[name])
        lead = state.lead10
        if lead is not None:
            per_team = [sum(lead[p] for p in members) for members in ctx.team_members]
            for t, text in enumerate(ctx.team_text):
                others = [v for i, v in enumerate(per_team) if i != t]
                row[f"lead10_{text}"] = per_team[t] - max(others)
        return row

    def event_row(self, state: State, action: Any) -> dict[str, Any]:
        """Per event: the kind of action, its piece, treasuries of every player (the curves)."""
        assert isinstance(state, BigChessState)
        d = state._legal_map().get(action)
        kind = d[0] if d else ""
        piece = ""
        if d and kind in ("move", "strike", "take", "push", "area", "vet"):
            piece = state.ctx.cards[state.pieces[d[1]].card].key
        elif d and kind in ("buy", "transform"):
            piece = state.ctx.cards[d[1]].key
        row = {"kind": kind, "piece": piece, "turn": state.turn_no, "promotion": "=" in str(action)}
        for p, letter in enumerate(state.ctx.players):  # the treasury and trophy curves
            row[f"treasury_{letter}"] = state.treasury[p]
            row[f"trophies_{letter}"] = sum(pc.trophies for pc in state.pieces.values() if pc.owner == p)
        return row

    def report_sections(self, games: Any, events: Any) -> list[dict[str, Any]]:
        """Results by seat and by team, and the piece economy (``economy.py``)."""
        from .economy import report_sections

        return report_sections(games, events)

    def evaluation_features(self, state: Any, player: int) -> dict[str, float] | None:
        """Material per card (count, own team minus the mean other team; the King left out: losing it ends the
        game), levels and promotions bought (cost above the card's base, in infantry units), treasury and
        trophies (in infantry units: summed in whole money, then / 10, so the sum's order cannot move a bit).
        The hand evaluation weighs a card by its cost / 10 and money by 0.9 / 10. A core state's features are
        read in the core (``State::features``, the exact twin)."""
        from .native import NativeBigChessState

        if isinstance(state, NativeBigChessState):  # read in the core
            keys = [c.key for i, c in enumerate(state.ctx.cards) if not state.ctx.is_king[i]]
            return dict(zip([*keys, "upgrades", "treasury", "trophies"], state.native.features(player), strict=True))
        st = state if hasattr(state, "ctx") else self.state_from_dict(state.to_dict())
        ctx = st.ctx
        keys = [c.key for c in ctx.cards if not ctx.is_king[ctx.cards.index(c)]]
        teams = len(ctx.team_members)
        mine = ctx.team_of[player]
        per_team = [dict.fromkeys(keys, 0.0) for _ in range(teams)]
        money = [{"upgrades": 0, "treasury": 0, "trophies": 0} for _ in range(teams)]
        for pc in st.pieces.values():
            if ctx.is_king[pc.card]:
                continue
            team = ctx.team_of[pc.owner]
            per_team[team][ctx.cards[pc.card].key] += 1
            money[team]["upgrades"] += pc.cost - ctx.cost[pc.card]  # the card's price under these rules
            money[team]["trophies"] += pc.trophies
        for p in range(len(ctx.players)):
            if p not in st.out:
                money[ctx.team_of[p]]["treasury"] += st.treasury[p]
        for t, m in zip(per_team, money, strict=True):
            t.update({k: v / 10.0 for k, v in m.items()})
        others = [t for i, t in enumerate(per_team) if i != mine] or [dict.fromkeys(per_team[mine], 0.0)]
        return {k: per_team[mine][k] - sum(o[k] for o in others) / len(others) for k in per_team[mine]}

    def evaluation_weights(self, rules: Rules | None = None) -> dict[str, float]:
        """Each card's cost under ``rules`` / 10 (infantry units), upgrades 1, treasury and trophies 0.9."""
        ctx = self.new_initial_state(rules if rules is not None else self.spec.defaults(), 0).ctx
        out = {c.key: ctx.cost[i] / 10.0 for i, c in enumerate(ctx.cards) if not ctx.is_king[i]}  # rules' prices
        return {**out, "upgrades": 1.0, "treasury": 0.9, "trophies": 0.9}

    def rule_words(self) -> dict[str, str]:
        """Counter name -> words."""
        return {k: COUNTER_WORDS[k] for k in COUNTERS}

    def card(self, key: str, rules: Rules | None = None) -> Card:
        """A card of the rules' set (its cost the rules' ``cost_<card>``)."""
        ctx = self.context(rules)
        k = ctx.card_index[key]
        card = ctx.cards[k]
        return card if card.cost == ctx.cost[k] else card.with_changes(cost=ctx.cost[k])


GAME = BigChess()


def setup_armies(state: BigChessState, plan: Sequence[str] = ARMY_PLAN) -> BigChessState:
    """Play a deterministic setup for every player not yet ready (a tool's shortcut past the setup phase).

    Each player puts its King on the zone cell closest to the zone's centre, then the cards of ``plan`` in order while the
    treasury allows, each on the free zone cell closest to the King, facing the zone's facing, then
    ``ready``. Pure play of legal setup actions, so records and undo see ordinary moves.
    """
    ctx = state.ctx
    for p, letter in enumerate(ctx.players):
        if state.phase != "setup" or p in state.ready or p in state.out:
            continue
        zone = ctx.board.zones[letter]
        cx = sum(ctx.x[c] for c in zone) / len(zone)
        cy = sum(ctx.y[c] for c in zone) / len(zone)
        order = sorted(zone, key=lambda c: ((ctx.x[c] - cx) ** 2 + (ctx.y[c] - cy) ** 2, c))
        face = FACING_NAMES[ctx.board.facing[letter]]
        if state._king_cell(p) is None:
            c = order[0]
            if c in state.pieces:  # the centre is taken: the engine says why the King cannot go there
                state.apply_action(f"{letter}:+king@{ctx.names[c]}")
            state._play(f"{letter}:+king@{ctx.names[c]}", ("place", p, ctx.king, c, 0))
        king = state._king_cell(p)
        for key in plan:
            k = ctx.card_index.get(key)
            free = sorted((c for c in zone if c not in state.pieces), key=lambda c: (ctx.dist(c, king), c))
            if k is None or not free or ctx.cost[k] > state.treasury[p]:
                continue
            vector = ctx.cards[k].vector
            suffix = f":{face}" if vector else ""
            f = ctx.board.facing[letter] if vector else 0
            # legal by construction (a free cell of the zone, paid from the treasury): played without listing
            # every player's setup actions first
            state._play(f"{letter}:+{key}@{ctx.names[free[0]]}{suffix}", ("place", p, k, free[0], f))
        state._play(f"{letter}:ready", ("ready", p))
    return state
