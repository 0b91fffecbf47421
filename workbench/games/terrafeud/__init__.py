"""TerraFeud on the game protocol: the 91-hex feudal war game with seasons and terrain.

The engine itself is ``workbench.games.terrafeud.engine`` (the readable specification, with its native twin in
``native/``); this package says what the protocol asks of a game: who plays, the rules spec, the
layout, the dense action encoding for OpenSpiel, and states through ``TerraFeudState``.
Its public names are imported from here and its subpackages, the one place for them (docs/architecture.md):
``workbench.games.terrafeud.engine`` (``new_game``), ``.scenarios`` (``Scenario``, ``Check``, ``dump_scenario``),
and ``.viz`` (``board_svg``, ``heat``, ``mpl``, ``graph`` ...). Its board is the one board
(``workbench.widget.Board("terrafeud")``, ``HexBoard``): this package only declares what it draws (layout,
glyphs, legend, overlays, editor pieces, target kinds, the class names of its older page).

Its own extensions of the tools live here too, above the generic tools they build on: ``scenarios/``
(its dialect) and ``viz/`` (its pictures); its simulate rows are ``rows.py``. The tools reach them through
what ``GAME`` declares (``GAME.scenario``, ``GAME.play_row`` ...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.core.classes import load_archetypes
from workbench.core.protocol import (
    AgentCaps,
    Cell,
    GameDef,
    GameInfo,
    IllegalAction,
    Layout,
    NativeBackend,
    SeatAgents,
    State,
    TableSchema,
)
from workbench.core.rulespec import Rules, RulesSpec
from workbench.games.terrafeud.engine import CASTLE, MOVE, ORDER, PASS, SHOT, make_game, state_from_dict
from workbench.games.terrafeud.engine.geometry import HEX_NAMES, N_HEXES
from workbench.games.terrafeud.engine.pieces import LETTERS

from .classes import ACTION_CLASSES
from .rows import EVENTS_COLUMNS, GAMES_COLUMNS, KINDS, RULE_SWITCHES, RULE_WORDS, SPATIAL_RULES, VICTORIES
from .spec import from_config, spec, to_config
from .state import TerraFeudState

# Dense action ids (OpenSpiel): moves, shots and castlings have global ids; an Order's id is its rank
# among the position's Orders (Orders of up to three infantry would need 57,967^3 global ids).
_STEP = N_HEXES * N_HEXES * 7  # (from, to, promotion kind 0..6)
_MOVE0 = 0
_SHOT0 = _MOVE0 + _STEP
_CASTLE0 = _SHOT0 + N_HEXES * N_HEXES
_PASS_ID = _CASTLE0 + N_HEXES * N_HEXES
_ORDER0 = _PASS_ID + 1
MAX_ORDERS = 1 << 20
NUM_ACTIONS = _ORDER0 + MAX_ORDERS


# Its rule toggles in the contract's order (BOARD-AND-RULINGS.md section 7), then its rule parameters (issue 11)
# in the table's order: plain columns of its rows, the key of a report's cells; a ``start=`` scenario is keyed
# by its id (``start_id``), not its path, so the same start read from two places pools into one cell.
TABLE_RULES = ("season", "hill", "swamp", "terrain", "castling", "archer_melee", "mate_defence", "draw_after",
               "pike_cavalry_mutual", "archer_range", "hill_bonus", "aura_radius", "aura_step", "aura_memory",
               "coordinated", "order_size", "order_radius", "castling_uses", "promotion", "knight_bridge_stop",
               "bridges", "fords", "start_id")
NUMERIC_RULES = ("archer_range", "hill_bonus", "aura_radius", "aura_step", "coordinated", "order_size",
                 "order_radius", "castling_uses")
# The cap of the TerraFeud studies in notebooks 04 and 05 (one question, one cap): greedy against greedy,
# 85% of summer and 98% of winter games end by 600 plies (at 120, 55-76% were cut and counted as balance).
STUDY_CAP = 600
TERRAFEUD_STUDY_CAP = STUDY_CAP


class TerraFeudNative(NativeBackend):
    """TerraFeud's native core (``workbench._native``) as the tools ask it (``GAME.native``): state conversion, the
    perft of the core's protocol face (``core::protocol::perft``), seat agents (its tuned agents' Rust twins and
    the generic agents' twins), restricted play and playouts; its whole games are its rows' (``rows.py``)."""

    exists = True
    sweep = "workbench.games.terrafeud.nativediff"  # nativediff --game

    def available(self) -> bool:
        """True when TerraFeud's native core (``workbench._native``) is built."""
        from workbench.games.terrafeud.native import available

        return available()

    def state(self, state: Any) -> Any:
        """The same position on the native core: a ``TerraFeudState`` over a ``NativeState`` (no copy of rules)."""
        from workbench.games.terrafeud.native import NativeState

        inner = state.inner if isinstance(state, TerraFeudState) else state
        return TerraFeudState(inner if isinstance(inner, NativeState) else NativeState.from_state(inner))

    def new_state(self, rules: Rules | None = None, seed: int = 0) -> Any:
        return self.state(GAME.new_initial_state(rules, seed))

    def random_playouts(self, rules: Rules, games: int, seed: int, max_actions: int) -> int:
        """``bench``'s random playouts in Rust: terrain drawn in Python, the same games as the Python engine's."""
        from .bench import native_playouts

        return int(native_playouts(games, seed, max_actions, to_config(rules))["plies"])

    def play_barred(self, start: Any, seats: Any, masks: Any, n_classes: int, chance_seed: int, max_plies: int) -> Any:
        """Restricted play in Rust on the core's protocol (``native/src/terrafeud/classes.rs``): (final state, legal
        counts, tallies), or None when the core does not hold the position or rules (Python plays)."""
        from workbench.games.terrafeud.native import play_barred

        return play_barred(start, seats, masks, n_classes, max_plies)

    def class_bits(self, state: Any, action: Any) -> int:
        """The Rust classifier's bits for ``action`` (an engine tuple) in a native ``TerraFeudState``."""
        from workbench.games.terrafeud.native import class_bits

        return class_bits(state.inner, GAME.action_to_int(state, action))

    def agent(self, spec: str, rules: Rules, seed: int) -> Any:
        """The native twin of seat agent ``spec`` (``native.seat_agent``), or None without one."""
        from .agents.native_agent import seat_agent

        return seat_agent(spec, GAME, rules, seed)

    def perft(self, state: Any, depth: int) -> int | None:
        """The count inside Rust (GIL released) through the core's protocol face, as every game's core counts it:
        ``core::protocol::perft`` over ``TerraFeud`` (each chance outcome one branch), proven equal to the tuned
        perft and the stored table by the tests."""
        from workbench.games.terrafeud.native import protocol_perft

        return protocol_perft(state.inner, depth)


class TerraFeud(GameDef):
    """The protocol's view of TerraFeud."""

    name = "terrafeud"
    title = "TerraFeud"
    scenario_folder = "terrafeud"  # scenarios/terrafeud/: rulings/, rulebook/, fine-print/ (old paths: moved.json)
    strength_file = "data/elo.json"  # the ladder's measured Elo table (workbench ladder --write)
    headline_grid = {"season": ("summer", "winter")}  # the skill-trace benchmark's question (docs/balance.md)
    skill_trace = "mcts:iterations=6..96"  # ... at these budgets, each stronger than the last (docs/strength.md: grows)
    heat_layers = ("threat", "control", "mobility", "safe")
    benchmark_grid = {"season": ("summer", "winter")}  # agentbench's balance question: the speed target's batch
    action_classes = ACTION_CLASSES  # castling, the archer's shot, an Order, promotion, a bridge crossing
    archetypes = load_archetypes(Path(__file__).parent / "data" / "archetypes.json", ACTION_CLASSES)  # rush, turtle ...
    native = TerraFeudNative()
    # its rows' fixed columns (``rows.py``), the names older tables gave its agent columns, and its report's
    # vocabulary: piece kinds of its ``lost_<side>_<kind>`` columns, victories, the rules' own off switches
    table = TableSchema(rule_columns=TABLE_RULES, numeric_rules=NUMERIC_RULES, games_columns=GAMES_COLUMNS,
                        events_columns=EVENTS_COLUMNS,
                        renamed_columns=(("white_agent", "agent_white"), ("black_agent", "agent_black")),
                        loss_kinds=KINDS, victories=VICTORIES, rule_switches=RULE_SWITCHES,
                        spatial_rules=SPATIAL_RULES)
    evaluation_unit = "material points"
    legend = (("river", "#9cc3e6", "river (summer)"), ("ford", "#c6dbef", "ford"),
              ("bridge", "#b08d57", "bridge"), ("hill", "#c8b27a", "hill"), ("swamp", "#8fa77a", "swamp"))
    # the board's position editor: a piece's letter as positions write it (White upper case, Black lower case)
    edit_palette = tuple((letter if side == 0 else letter.lower(), side, f"{('White', 'Black')[side]} {name}")
                         for side in (0, 1) for letter, name in (("F", "feudal"), ("K", "knight"), ("P", "pikeman"),
                                                                 ("C", "cavalry"), ("A", "archer"), ("I", "infantryman"))) \
        + (("marker", -1, "an archer's marker (W8): click the archer, then the hex it marks (the archer again removes it)"),)
    edit_pairs = ("marker",)

    overlays = (("zones", "zones of control"), ("markers", "archers' markers"), ("aura", "the feudals' auras"))
    default_overlays = ("markers",)
    analysis_agent = "search"  # the board's Evaluate and analysis: its tuned search (the old board's), clock capped
    # what a page may ask of its tuned agents, in their own terms (``mcts:rollout=eval``, ``search:qdepth``, learned
    # weights ``eval=NAME`` for the searching ones, by name from the board's list); the board caps every clock at its own (``generic-<name>`` reaches the generic agents and their caps)
    agent_caps = {
        "random": AgentCaps(),
        "greedy": AgentCaps(),
        "alphabeta": AgentCaps({"depth": (1, 6), "nodes": (1, 60_000), "seconds": (0.05, 5.0)},
                               ints=frozenset({"depth", "nodes"}), learned=True),
        "search": AgentCaps({"depth": (1, 20), "nodes": (1, 2_000_000), "seconds": (0.05, 5.0), "qdepth": (0, 12),
                             "attack": (0.0, 1.0), "trade": (0.0, 1.0)}, ints=frozenset({"depth", "nodes", "qdepth"}),
                            learned=True),
        "mcts": AgentCaps({"iterations": (1, 5000), "rollout_depth": (0, 8), "c": (0.0, 10.0), "scale": (0.01, 100.0),
                           "widen": (0.0, 10.0), "seconds": (0.05, 5.0)},
                          words={"rollout": ("eval", "random"), "quiesce": (True, False)},
                          ints=frozenset({"iterations", "rollout_depth"}), learned=True),
    }
    action_modes = (("order", "Order", "an Order (W12): the feudal's infantry move together as one action; click each "
                     "infantryman, then its step"),)
    glyph_words = {"zone-white": "in White's zone of control", "zone-black": "in Black's zone of control",
                   "zones": "in both zones of control", "marked-white": "marked by a White archer",
                   "marked-black": "marked by a Black archer", "marker-archer": "an archer whose marker is out",
                   "aura-white": "within White's feudal's aura", "aura-black": "within Black's feudal's aura",
                   "auras": "within both feudals' auras", "threatened": "a feudal under threat (W10)",
                   "mated": "the feudal lost (checkmate)"}
    # the class names TerraFeud's own page gave its board's parts (kept: its stylesheets and browser checks know them)
    board_aliases = {"cell": "tf-hex", "svg": "tf-svg", "piece": "tf-piece", "selected": "tf-selected",
                     "dest": "tf-target", "status": "tf-status", "message": "tf-message", "moves": "tf-moves",
                     "move": "tf-move", "move-text": "tf-move-text", "future": "tf-future", "undo": "tf-btn-undo",
                     "root": "tf-root", "choice": "tf-choice", "coord": "tf-coord", "legend": "tf-legend"}

    def describe_check(self, case: Any, index: int, result: Any) -> dict[str, Any] | None:
        """A check of TerraFeud's scenario dialect in words (``describe_check``): a stub that asserts nothing is
        ``empty``, not a pass."""
        from .scenarios.checks import describe_check

        checks = getattr(case, "checks", None)
        if not isinstance(checks, list) or not 0 <= index < len(checks) or isinstance(checks[index], dict):
            return None
        d = describe_check(checks[index], result)
        return {"status": str(d["status"]), "asserts": str(d["asserts"]), "message": str(d["message"]),
                "play": [t for t, _ in checks[index].play]}

    def score_words(self, score: float, state: State, player: int) -> str:
        """A forced result in its agents' scores (a win is ``WIN_SCORE`` less the ply the game ends at) in words,
        as its old board said it; "" for an ordinary score (the board words it in material points)."""
        from .agents.evaluate import WIN_SCORE

        if not WIN_SCORE / 2 <= abs(score) <= WIN_SCORE or not isinstance(state, TerraFeudState):
            return ""
        winner = ("White", "Black")[player if score > 0 else 1 - player]
        plies = max(0, int(round(WIN_SCORE - abs(score))) - state.inner.ply)
        return f"{winner} wins by force (the game ends within {plies} plies)"

    def edit_cell(self, data: dict[str, Any], cell: str, code: str,
                  options: Mapping[str, str] | None = None) -> dict[str, Any]:
        """A piece set or removed: an archer's marker from or on that cell goes with the old piece, and an edited
        position is a fresh one (no result; the pending ultimatums follow the markers)."""
        out = super().edit_cell(data, cell, code, options)
        markers = {a: t for a, t in (out.get("markers") or {}).items() if a != cell and t != cell}
        return _pending({**out, "markers": markers, "winner": None, "victory": None})

    def edit_pair(self, data: dict[str, Any], first: str, second: str, code: str) -> dict[str, Any]:
        """An archer's marker (W8): the archer on ``first`` marks ``second``, a hex it could shoot at (its
        ``archer_range``, farther from a hill); ``first`` twice removes its marker."""
        if code != "marker":
            return super().edit_pair(data, first, second, code)
        from .engine.geometry import parse_hex

        pieces = data.get("pieces") or {}
        if str(pieces.get(first, "")).upper() != "A":
            raise ValueError(f"{first} holds no archer: a marker is an archer's (W8); click an archer first")
        markers = {a: t for a, t in (data.get("markers") or {}).items() if a != first}
        if second != first:
            try:
                board = self.state_from_dict({**data, "markers": markers, "ultimatum_pending": []}).inner.board
            except ValueError:
                board = None  # not a position yet: its own checks say why when it is judged
            if board is not None and parse_hex(second) not in board.shot_targets[parse_hex(first)]:
                raise ValueError(f"the archer on {first} cannot mark {second} (W8: at distance {board.archer_range}, "
                                 "farther from a hill)")
            markers[first] = second
        return _pending({**data, "markers": markers, "winner": None, "victory": None})

    def edit_to_move(self, data: dict[str, Any], player: int) -> dict[str, Any]:
        """The side to move, and with it which markers are ultimatums it must answer."""
        return _pending(super().edit_to_move(data, player))

    @property
    def spec(self) -> RulesSpec:
        return spec()

    def info(self, rules: Rules | None = None) -> GameInfo:
        return GameInfo(name=self.name, title=self.title, players=("white", "black"), labels=("White", "Black"),
                        teams=((0,), (1,)), chance="seeded", perfect_information=True, max_game_length=100_000,
                        turn_word="ply")

    def new_initial_state(self, rules: Rules | None = None, seed: int = 0) -> TerraFeudState:
        config = to_config(rules) if rules is not None else None
        return TerraFeudState(make_game(config, seed).new_initial_state())

    def state_from_dict(self, data: Mapping[str, Any]) -> TerraFeudState:
        return TerraFeudState(state_from_dict(dict(data)))

    def rules_of(self, state: TerraFeudState) -> Rules:
        """The rules a state is played under."""
        return from_config(state.inner.game.rules)

    def engine_config(self, rules: Rules) -> Any:
        """The engine's ``RulesConfig`` of protocol ``rules``."""
        return to_config(rules)

    def cell_spec(self, rules: Rules) -> tuple[str, dict[str, Any]]:
        """The engine's own label (``bridges=b4/k4``, ``default``) and every value, as its tables and run records
        have always carried them (an older batch resumes)."""
        config = to_config(rules)
        return config.label(), {k: v for k, v in config.to_dict().items() if v is not None}

    def play_row(self, spec: Any, agents: SeatAgents) -> Any:
        """Its rows (``rows.py``): losses per kind, terrain, drama ...; a native game played whole in Rust."""
        from .rows import play_row

        return play_row(spec, agents)

    def blank_row(self, spec: Any) -> dict[str, Any]:
        from .rows import blank_row

        return blank_row(spec)

    def check_cell(self, spec: Any, agents: SeatAgents) -> None:
        from .rows import check_cell

        check_cell(spec, agents)

    def row_rules(self, row: Mapping[str, Any]) -> dict[str, Any]:
        from .rows import row_rules

        return row_rules(row)

    def num_distinct_actions(self, rules: Rules | None = None) -> int:
        return NUM_ACTIONS

    def action_to_int(self, state: State, action: Any) -> int:
        kind = action[0]
        if kind == MOVE:
            return _MOVE0 + (action[1] * N_HEXES + action[2]) * 7 + action[3]
        if kind == SHOT:
            return _SHOT0 + action[1] * N_HEXES + action[2]
        if kind == CASTLE:
            return _CASTLE0 + action[1] * N_HEXES + action[2]
        if kind == PASS:
            return _PASS_ID
        orders = [a for a in state.legal_actions() if a[0] == ORDER]
        try:
            return _ORDER0 + orders.index(action)
        except ValueError:
            raise IllegalAction(f"{state.action_to_string(action)}: not a legal Order here") from None

    def legal_ints(self, state: State) -> list[int]:
        out, rank = [], 0
        for a in state.legal_actions():
            if a[0] == ORDER:
                out.append(_ORDER0 + rank)
                rank += 1
            else:
                out.append(self.action_to_int(state, a))
        return sorted(out)

    def int_to_action(self, state: State, number: int) -> Any:
        if not 0 <= number < NUM_ACTIONS:
            raise IllegalAction(f"action id {number} is outside 0..{NUM_ACTIONS - 1}")
        if number < _SHOT0:
            rest, promo = divmod(number - _MOVE0, 7)
            return (MOVE, *divmod(rest, N_HEXES), promo)
        if number < _CASTLE0:
            return (SHOT, *divmod(number - _SHOT0, N_HEXES))
        if number < _PASS_ID:
            return (CASTLE, *divmod(number - _CASTLE0, N_HEXES))
        if number == _PASS_ID:
            return (PASS,)
        orders = [a for a in state.legal_actions() if a[0] == ORDER]
        if number - _ORDER0 >= len(orders):
            raise IllegalAction(f"action id {number}: this position has {len(orders)} Orders")
        return orders[number - _ORDER0]

    def layout(self, rules: Rules | None = None) -> Layout:
        from workbench.games.terrafeud.engine.geometry import qy

        size = 1.0
        cells = []
        for h in range(N_HEXES):
            q, y = qy(h)  # files as columns, doubled rows; White at the bottom (board.png)
            cells.append(Cell(h, HEX_NAMES[h], 1.5 * q * size, (20 - y) * 0.8660254037844386 * size))
        return Layout("hex-flat", size, tuple(cells))

    def piece_names(self) -> dict[str, str]:
        """Letter -> the rulebook's name, for legends."""
        from workbench.games.terrafeud.engine.pieces import KIND_NAMES

        return {LETTERS[k]: KIND_NAMES[k] for k in LETTERS}

    def scenario(self, data: Mapping[str, Any], where: str) -> Any:
        """TerraFeud's dialect of a scenario file (``SCENARIO-FORMAT.md``): a ``scenarios.Scenario``."""
        from .scenarios.loader import scenario_from_data

        return scenario_from_data(data, where)

    def scenario_state(self, case: Any) -> State:
        """The scenario's start (an engine ``GameState``) as the protocol's ``TerraFeudState``."""
        from .state import TerraFeudState

        start = case.initial_state()
        return start if isinstance(start, State) else TerraFeudState(start)

    def dump_scenario(self, state: State, id: str, title: str, checks: Sequence[Mapping[str, Any]] = ()) -> str:  # noqa: A002
        from .scenarios.loader import dump_scenario

        inner = state.inner if isinstance(state, TerraFeudState) else state
        return dump_scenario(inner, id, title, [dict(c) for c in checks] or None)

    def game_agents(self) -> dict[str, Any]:
        """Its own tuned agents under the generic names (``agents/``): ``random``, ``greedy``, ``alphabeta``,
        ``mcts``, ``search``; ``generic-<name>`` is the generic agent. Their Rust twins: ``native.agent``."""
        from .agents import GAME_AGENTS

        return dict(GAME_AGENTS)

    def evaluation_features(self, state: Any, player: int) -> dict[str, float]:
        """Material per piece kind (own count minus the enemy's; the feudal left out, its loss ends the game) and
        ``position``: the rest of the agents' evaluation (ultimatums, zones, advance, aura, mines, feudal
        threats) as one term, in material units. The agents' evaluation is their sum under the hand weights. A core
        state's are read in the core."""
        from .agents.evaluate import FEATURES, features
        from .native import NativeState, native_features

        inner = getattr(state, "inner", state)
        if isinstance(inner, NativeState):  # read in the core (``TerraFeud::features``, the exact twin)
            return dict(zip(FEATURES, native_features(inner, player), strict=True))
        return dict(zip(FEATURES, features(inner, player), strict=True))

    def evaluation_weights(self, rules: Rules | None = None) -> dict[str, float]:
        """The rulebook's AI weights (data/terrafeud.json ``ai_weights``) per kind; the positional rest 1."""
        from .agents.evaluate import piece_weights
        from .engine.pieces import FEUDAL, KIND_NAMES

        w = piece_weights()
        return {**{name: w[k] for k, name in KIND_NAMES.items() if k != FEUDAL}, "position": 1.0}

    def report_sections(self, games: Any, events: Any = None) -> list[Any]:
        """Its batch heatmaps on its terrain board (``report.py``)."""
        from .report import heatmap_part

        return [heatmap_part(games, events)]

    def report_location_maps(self, games: Any, locations: Mapping[str, Mapping[str, int]], titles: Sequence[str],
                             per: int) -> tuple[str, bytes] | None:
        """Where its rules fired, on its own terrain board (the table's season and crossings when shared)."""
        from .report import location_maps

        return location_maps(games, locations, titles, per)

    def perft_table(self) -> list[dict[str, Any]]:
        """``data/perft.json``: depths 1-3 on both engines, depth 4 on the native core."""
        from .perft import expected_table

        return [{"rules": r["rules"], "seed": r["seed"], "counts": list(r["counts"]),
                 "native_counts": [r["depth4"]] if "depth4" in r else []} for r in expected_table()]

    def rules_table(self, markdown: bool = True) -> str:
        """Its own table (``engine.rules.rules_table``: the one in docs/rulings.md, a test keeps them equal)."""
        from .engine.rules import rules_table

        return rules_table(markdown=markdown)

    def rule_words(self) -> dict[str, str]:
        """Its counters in the reports' words (``ford stops``, ``promotions to knight``), every counter named."""
        from .engine.telemetry import RULES

        return {**{r: r.replace("_", " ") for r in RULES}, **RULE_WORDS}


def _pending(data: dict[str, Any]) -> dict[str, Any]:
    """The edited position's pending ultimatums: as after any action, a marker of the side that just acted on a
    piece of the side to move is an ultimatum that piece must answer this turn (rulings, section 8)."""
    pieces = data.get("pieces") or {}
    mover = 0 if data.get("to_move") == "white" else 1
    pending = sorted({t for a, t in (data.get("markers") or {}).items()
                      if str(pieces.get(a, "")).upper() == "A" and (pieces[a] == "A") != (mover == 0)
                      and t in pieces and (str(pieces[t]).isupper()) == (mover == 0)})
    return {**data, "ultimatum_pending": pending}


def _load_start(rules: Any) -> Any:
    """Resolve ``start=PATH`` through the game's scenario dialect (the engine itself reads no files)."""
    from .scenarios.start import load_start

    return load_start(rules)


def _svg(state: Any) -> str:
    """A TerraFeud position as SVG through its pictures (``_repr_svg_`` in notebooks)."""
    from .viz.svg import board_svg

    return board_svg(state)


def _install_engine_seams() -> None:
    # The game's composition root: wires the engine's start seam to its scenario loader and its picture to
    # its drawing code, without the engine importing anything above it. It runs whenever any part of the
    # game is imported (a subpackage's import runs this package first), and never for another game.
    from .engine.game import set_start_loader
    from .engine.state import GameState

    set_start_loader(_load_start)
    GameState.svg_renderer = staticmethod(_svg)


_install_engine_seams()

GAME = TerraFeud()

__all__ = ["GAME", "STUDY_CAP", "TERRAFEUD_STUDY_CAP", "TerraFeud", "TerraFeudState"]
