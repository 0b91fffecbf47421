"""TerraFeud's simulate rows: one game into one row and its events, on the Python engine or the native core.

What simulate asks of TerraFeud beyond the protocol, declared on its ``GameDef`` (``play_row``, ``blank_row``,
``check_cell``, ``cell_spec``, ``row_rules`` and the columns of ``table``): its rows keep the toggle and
parameter columns, ``lost_<side>_<kind>``, ``hill_white``, ``lead_changes``, ``drama`` ... that its studies
are built on, and a native game is played whole in Rust and replayed through the same bookkeeping, so both
engines give the same rows. A game that raises becomes a row with ``victory='error'``, the error text and its
seed, so it can be replayed (``workbench.simulate.replay_game``); the batch goes on. This module imports
core and the game's own package only: the agents are built by the tool that calls it (``SeatAgents``).
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.core.agents import GENERIC_PREFIX, parse_agent_spec
from workbench.core.protocol import SeatAgents
from workbench.core.rows import GameResult, derive_seed, seat_agents

from . import native
from .agents.evaluate import material_white
from .engine import CASTLE, MOVE, ORDER, SHOT, GameState, RulesConfig, make_game, order_steps
from .engine.geometry import hex_name
from .engine.notation import format_action
from .engine.pieces import INFANTRY, LETTERS, SIDE_NAMES
from .engine.telemetry import RULES

NAME = "terrafeud"
SIDES = ("white", "black")
KINDS = ("feudal", "knight", "pikeman", "cavalry", "archer", "infantry")
VICTORIES = ("destroyed", "checkmate", "castle", "draw", "unfinished")
_KIND_INDEX = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5}  # piece kind code -> position in KINDS
TOGGLES = ("season", "hill", "swamp", "terrain", "castling", "archer_melee", "mate_defence", "draw_after",
           "pike_cavalry_mutual")
LOST_COLUMNS = [f"lost_{s}_{k}" for s in SIDES for k in KINDS]
# Rule parameters (issue 11, INTERFACES.md) and their column types; one column each, as for the toggles.
# ``bridges``/``fords`` are stored as "b4,f6,k4"; ``start`` as the scenario path, with the scenario's id and
# a hash of its position in ``start_id``/``start_hash`` (null for the classic start).
PARAMETERS: dict[str, str] = {
    "archer_range": "int64", "hill_bonus": "int64", "aura_radius": "int64", "aura_step": "int64",
    "aura_memory": "bool", "coordinated": "int64", "order_size": "int64", "order_radius": "int64",
    "castling_uses": "int64", "promotion": "bool", "knight_bridge_stop": "bool",
    "bridges": "string", "fords": "string", "start": "string",
}
RULE_COLUMNS = [f"rule_{r}_{s}" for r in RULES for s in SIDES]

# The games table's fixed columns and types (``GameDef.table.games_columns``): simulate types its tables by them.
GAMES_COLUMNS: tuple[tuple[str, str], ...] = (
    (("game_id", "int64"), ("cell", "string"))
    + tuple((t, "bool" if t in ("hill", "swamp", "archer_melee", "pike_cavalry_mutual") else
             "int64" if t == "draw_after" else "string") for t in TOGGLES)
    + tuple(PARAMETERS.items()) + (("start_id", "string"), ("start_hash", "string"))
    + tuple((c, "string") for c in ("hill_white", "hill_black", "swamp_white", "swamp_black",
                                    "white_agent", "black_agent"))
    + (("seed", "int64"), ("winner", "string"), ("victory", "string"), ("plies", "int64"))
    + tuple((c, "int64") for c in LOST_COLUMNS)
    + (("seconds", "float64"), ("error", "string"), ("lead_changes", "int64"), ("drama", "float64"),
       ("mean_branching", "float64"), ("decision_share", "float64"))
    + tuple((c, "int64") for c in RULE_COLUMNS)
    + (("engine", "string"),)
    # multi-game columns (issue 17): what balance reads without knowing the game
    + (("game", "string"), ("outcome", "string"), ("players", "string"), ("max_plies", "int64"))
    # every game's agent columns (round 4): ``agent_<seat>``, beside the older white_agent/black_agent
    + (("agent_white", "string"), ("agent_black", "string"))
)
EVENTS_COLUMNS: tuple[tuple[str, str], ...] = (
    ("game_id", "int64"), ("ply", "int64"), ("side", "string"), ("action", "string"), ("piece", "string"),
    ("from", "string"), ("to", "string"), ("captured", "string"), ("victims", "string"), ("n_legal", "int64"),
    ("eval_white", "float64"), ("rules", "string"))
# Rule-usage counters a cell's own rules switch off (they cannot fire there): named so by the report, not
# mistaken for rules that are legal but unused. Each: (counter, ((column, values that switch it off), ...)).
RULE_SWITCHES: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...] = (
    ("pike_cavalry_mutual", (("pike_cavalry_mutual", ("false",)),)),
    ("castling", (("castling_uses", ("0",)),)),
    ("promotion", (("promotion", ("false",)),)),
    ("order", (("order_size", ("0",)),)),
    ("aura_move", (("aura_radius", ("0",)), ("aura_step", ("1",)))),
    ("hill_shot", (("hill", ("false",)), ("hill_bonus", ("0",)))),
    ("swamp_stop", (("swamp", ("false",)),)),
    ("bridge_stop", (("knight_bridge_stop", ("false",)), ("bridges", ("", "none")))),
    ("ford_stop", (("season", ("winter",)), ("fords", ("", "none")))),
)
# Plain words for its rule counters (telemetry.RULES), what the reports say (``GameDef.rule_words``).
RULE_WORDS: dict[str, str] = {
    "bridge_stop": "bridge stops", "ford_stop": "ford stops", "zone_stop": "pikeman-zone stops",
    "swamp_stop": "swamp stops", "shot": "archer shots", "hill_shot": "hill shots", "mine_kill": "mine kills",
    "ultimatum_kill": "ultimatum kills", "coordinated_kill": "coordinated kills",
    "archer_melee_death": "archer melee deaths", "zone_attack": "zone attacks", "aura_move": "aura moves",
    "order": "Orders", "castling": "castlings", "promotion": "promotions", "pass": "passes",
    "pike_cavalry_mutual": "mutual pike-cavalry deaths", "threat": "turns under threat",
    "promotion_knight": "promotions to knight", "promotion_pikeman": "promotions to pikeman",
    "promotion_cavalry": "promotions to cavalry", "promotion_archer": "promotions to archer",
    "promotion_infantryman": "promotions to infantryman",
}
# Rules that happen on a hex; the report draws their maps first (``TableSchema.spatial_rules``).
SPATIAL_RULES: tuple[str, ...] = ("bridge_stop", "ford_stop", "zone_stop", "swamp_stop", "mine_kill", "coordinated_kill",
                            "ultimatum_kill", "archer_melee_death", "shot", "hill_shot", "zone_attack", "aura_move")
GAME_COLUMNS = [c for c, _ in GAMES_COLUMNS]
EVENT_COLUMNS = [c for c, _ in EVENTS_COLUMNS]


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` (simulate's ``<game>-agent`` salt, the same streams as every game's)."""
    return derive_seed(f"{NAME}-agent", game_seed, seat)


def lead_changes(evals: Sequence[float]) -> int:
    """Number of times the sign of ``eval_white`` changes along the game, zeros ignored."""
    count, last = 0, 0
    for v in evals:
        sign = (v > 0) - (v < 0)
        if sign:
            if last and sign != last:
                count += 1
            last = sign
    return count


def drama(evals: Sequence[float], sides: Sequence[int], winner: int | None) -> float:
    """Ludii-style drama: mean, over the positions the winner faced (after the opponent's actions),
    of how far below 0 the winner's evaluation was; 0 if nobody won or it never faced one."""
    if winner is None:
        return 0.0
    sign = 1.0 if winner == 0 else -1.0
    faced = [max(0.0, -sign * v) for v, s in zip(evals, sides, strict=True) if s != winner]
    return sum(faced) / len(faced) if faced else 0.0


def _counts(squares: list[int]) -> list[int]:
    out = [0] * 16
    for c in squares:
        if c:
            out[c] += 1
    return out


def _steps(action: tuple) -> list[tuple[int, int]]:
    kind = action[0]
    if kind == MOVE:
        return [(action[1], action[2])]
    if kind == ORDER:
        return [(a, t) for a, t, _ in order_steps(action)]
    return []


def _promotions(action: tuple, side: int, after: list[int]) -> list[tuple[int, int]]:
    """(hex, kind) of promotions that happened: the step carried ``=X`` and the piece stands there."""
    if action[0] == MOVE:
        cand = [(action[2], action[3])]
    elif action[0] == ORDER:
        cand = [(t, k) for _, t, k in order_steps(action)]
    else:
        return []
    return [(t, k) for t, k in cand if k and after[t] == k | (side << 3)]


def _deaths(before: list[int], after: list[int], action: tuple, side: int, rules_castling: str) -> tuple[list[int], list[int]]:
    """Piece codes removed by the action, and the hexes where they died.

    Counts come from the board (a promotion turns one infantryman into another kind, so it is
    added back); hexes from comparing the board with what the movement alone would leave.
    """
    promoted = _promotions(action, side, after)
    if not promoted and before.count(0) == after.count(0):
        return [], []  # the fast path: nothing was removed (promotion keeps the count too)
    cb, ca = _counts(before), _counts(after)
    inf = INFANTRY | (side << 3)
    for _, k in promoted:
        ca[k | (side << 3)] -= 1
        ca[inf] += 1
    dead = [c for c in range(16) for _ in range(max(0, cb[c] - ca[c]))]
    if not dead:
        return [], []
    expected = before[:]
    victims: set[int] = set()
    for a, t in _steps(action):
        if expected[t] and expected[t] >> 3 != side:
            victims.add(t)
        expected[t], expected[a] = expected[a], 0
    if action[0] == CASTLE:
        f, i = action[1], action[2]
        if rules_castling == "sacrifice":
            victims.add(i)
            expected[i], expected[f] = expected[f], 0
        else:
            expected[f], expected[i] = expected[i], expected[f]
    promo_at = {t for t, _ in promoted}
    for h in range(91):
        if expected[h] and after[h] != expected[h] and h not in promo_at:
            victims.add(h)
    return dead, sorted(victims)


def _letter(c: int) -> str:
    ch = LETTERS[c & 7]
    return ch if c >> 3 == 0 else ch.lower()


def rule_columns(rules: RulesConfig) -> dict[str, Any]:
    """The toggle and parameter columns of a row (crossings as "b4,f6,k4", the start as its path)."""
    data = rules.to_dict()
    return {name: data[name] for name in (*TOGGLES, *PARAMETERS)}


def fired_text(state: GameState) -> str:
    """The events-table ``rules`` field: what the last action fired, ``rule@hex`` or ``rule``, in order."""
    return ",".join(f"{rule}@{hex_name(h)}" if h >= 0 else rule for rule, _side, h in state.fired)


def rule_counts(state: GameState) -> dict[str, int]:
    """The ``rule_<name>_white/_black`` columns from the state's counters (index ``2*i + side``)."""
    counters = state.counters
    return {f"rule_{r}_{s}": int(counters[2 * i + k]) for i, r in enumerate(RULES) for k, s in enumerate(SIDES)}


def seat_pair(spec: Any) -> tuple[str, str]:
    """The agents of White and Black: the spec's seat agents (one for both, or one each)."""
    white, black = seat_agents(spec, 2)
    return white, black


def blank_row(spec: Any) -> dict[str, Any]:
    """The row every game of ``spec`` starts with (an error row keeps these columns)."""
    rules = RulesConfig.from_dict(spec.rules)
    white, black = seat_pair(spec)
    row: dict[str, Any] = {"game_id": spec.game_id, "cell": spec.cell}
    row.update(rule_columns(rules))
    row["start_id"] = row["start_hash"] = None
    row.update({"hill_white": None, "hill_black": None, "swamp_white": None, "swamp_black": None,
                "white_agent": white, "black_agent": black, "seed": spec.seed, "winner": "none",
                "victory": "unfinished", "plies": 0})
    row.update(dict.fromkeys(LOST_COLUMNS, 0))
    row.update({"seconds": 0.0, "error": None, "lead_changes": 0, "drama": 0.0, "mean_branching": 0.0,
                "decision_share": 0.0, "engine": spec.engine})
    row.update(dict.fromkeys(RULE_COLUMNS, 0))
    row.update({"game": NAME, "outcome": "unfinished", "players": ",".join(SIDES), "max_plies": spec.max_plies,
                "agent_white": white, "agent_black": black})
    return row


def play_row(spec: Any, seats: SeatAgents) -> GameResult:
    """Play one game to its end or the ply cap; never raises for a failure inside the game.

    Event rows are numbered by ``ply`` from 1 (the first action); ``eval_white`` is ``material``
    from White's view after the action and its triggers, feudal counted at 1000. ``seats`` builds the
    agents (the tools' registry, so registered agents play too).
    """
    t0 = time.perf_counter()
    row = blank_row(spec)
    white, black = seat_pair(spec)
    events: list[dict[str, Any]] = []
    evals: list[float] = []
    movers: list[int] = []
    n_legal: list[int] = []
    lost = [[0] * 6, [0] * 6]
    st = None
    try:
        game = make_game(spec.rules, seed=spec.seed)
        # with start=, the game plays the file's rules (the caller's changes on top): record those
        row.update(rule_columns(game.rules))
        row["start_id"], row["start_hash"] = game.start_id, game.start_hash
        terrain = game.terrain.to_dict()
        for s in SIDES:
            row[f"hill_{s}"] = terrain["hills"][s]
            row[f"swamp_{s}"] = terrain["swamps"][s]
        st = game.new_initial_state()
        seeds = (agent_seed(spec.seed, 0), agent_seed(spec.seed, 1))
        agents: Sequence[Any]
        twins = generic_twins(white, black, seats, st, seeds) if spec.engine == "native" else None
        if twins is not None:
            # generic agents (learned weights too, eval=) in the core's protocol loop; replayed through this loop
            st, agents = generic_game(st, twins, spec.max_plies)
        elif spec.engine == "native" and playable(white, black, seats, st):
            # the whole game in Rust; its trace then runs through this same loop (identical rows)
            st, agents = native_game(st, white, black, seeds, spec.max_plies)
        else:
            # agents search on the game's engine, unless a spec pins its own ("alphabeta:engine=python");
            # on a native batch an agent without a native twin (a registered one) searches in Python
            agent_engine = "auto" if spec.engine == "native" else spec.engine
            agents = [_engine_agent(seats, white, seeds[0], agent_engine),
                      _engine_agent(seats, black, seeds[1], agent_engine)]
            row["engine"] = "python"
        castling = game.rules.castling
        ev = material_white(st)
        while st.victory is None and st.ply < spec.max_plies:
            side = st.to_move
            n = len(st.legal_actions())
            action = agents[side].select_action(st)
            before = st.squares[:]
            text = st.action_to_string(action) if spec.events else ""
            st.apply(action)
            dead, victims = _deaths(before, st.squares, action, side, castling)
            for c in dead:
                lost[c >> 3][_KIND_INDEX[c & 7]] += 1
            if dead or (action[0] in (MOVE, ORDER) and any(action[3::3])):
                ev = material_white(st)  # material only changes when pieces die or promote
            evals.append(ev)
            movers.append(side)
            n_legal.append(n)
            if spec.events:
                steps = _steps(action)
                if action[0] in (SHOT, CASTLE):
                    frm, to = hex_name(action[1]), hex_name(action[2])
                elif steps:
                    frm, to = hex_name(steps[0][0]), hex_name(steps[0][1])
                else:
                    frm = to = ""
                piece = _letter(before[action[1]]) if len(action) > 1 else ""
                events.append({"game_id": spec.game_id, "ply": st.ply, "side": SIDES[side], "action": text,
                               "piece": piece, "from": frm, "to": to,
                               "captured": " ".join(_letter(c) for c in dead),
                               "victims": " ".join(hex_name(h) for h in victims), "n_legal": n, "eval_white": ev,
                               "rules": fired_text(st)})
        if st.victory is not None:
            row["victory"] = st.victory
            row["winner"] = st.winner_name() or "none"
    except Exception as exc:  # noqa: BLE001 - a failing game is data, the batch goes on
        where = f" at ply {st.ply}" if st is not None else ""
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        row["victory"] = "error"
        row["winner"] = "none"
        row["error"] = f"{type(exc).__name__}{where}: {exc} ({Path(tb.filename).name}:{tb.lineno})"
    row["plies"] = st.ply if st is not None else 0
    if st is not None:
        row.update(rule_counts(st))
    for s in (0, 1):
        for k, name in enumerate(KINDS):
            row[f"lost_{SIDES[s]}_{name}"] = lost[s][k]
    winner = None if row["winner"] == "none" else SIDES.index(row["winner"])
    row["lead_changes"] = lead_changes(evals)
    row["drama"] = drama(evals, movers, winner)
    if n_legal:
        row["mean_branching"] = sum(n_legal) / len(n_legal)
        row["decision_share"] = sum(1 for n in n_legal if n > 1) / len(n_legal)
    row["outcome"] = ("win" if row["winner"] != "none" else "draw" if row["victory"] == "draw"
                      else "error" if row["victory"] == "error" else "unfinished")
    row["seconds"] = time.perf_counter() - t0
    return GameResult(row, events)


class ProtocolSeat:
    """A seat's agent in this loop (its tuned agents, the generic ones, their native twins: every agent reads the
    protocol's state): it is handed the engine's position as the protocol's ``TerraFeudState`` (a view, not a
    copy: a search applies and undoes its actions on it)."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name = getattr(agent, "name", "")

    def select_action(self, state: GameState) -> Any:
        from .state import TerraFeudState

        return self.agent.select_action(TerraFeudState(state))


def _engine_agent(seats: SeatAgents, spec: str, seed: int, engine: str) -> Any:
    """A seat's agent behind ``ProtocolSeat``; an agent a user registered for the engine's state reads it bare."""
    agent = seats.make(spec, seed, engine)
    return ProtocolSeat(agent) if seats.protocol(spec) else agent


def row_rules(row: Mapping[str, Any]) -> dict[str, Any]:
    """The rules of a games-table row (its toggle, parameter and terrain columns), to play it again."""
    r = dict(row)
    rules = {t: (None if _missing(r[t]) else int(r[t])) if t == "draw_after" else _plain(r[t]) for t in TOGGLES}
    for kind in ("hill", "swamp"):  # the recorded hexes, so explicit terrain is replayed too
        if rules.get(kind) is True:  # with the toggle on, a side without a hex was explicitly none
            rules[kind + "s"] = {s: None if _missing(r.get(f"{kind}_{s}")) else r[f"{kind}_{s}"] for s in SIDES}
    known = set(RulesConfig.names())
    for name in PARAMETERS:  # tables written before a parameter existed replay with its default
        if name in known and name in r and not _missing(r[name]):
            rules[name] = _plain(r[name])
    return rules


def _missing(v: Any) -> bool:
    """A table's missing value (None, NaN, pandas' NA)."""
    if v is None or type(v).__name__ in ("NAType", "NaTType"):
        return True
    try:
        return bool(v != v)
    except (TypeError, ValueError):
        return False


def _plain(v: Any) -> Any:
    """numpy scalars from a DataFrame row back to Python values for ``RulesConfig``."""
    return v.item() if hasattr(v, "item") else v


# ---------------------------------------------------------------------- the native whole game
N_HEXES = 91


class TraceState:
    """The read-only ``GameState`` surface ``play_game`` uses, stepping through a native trace."""

    def __init__(self, start: GameState, trace: dict[str, Any]) -> None:
        self.game = start.game
        self._boards: bytes = trace["boards"]
        self._n_legal: list[int] = trace["n_legal"]
        self._actions: list[tuple] = trace["actions"]
        self._fired: list[list[tuple[int, int, int]]] = trace["fired"]
        self._final = (trace["winner"], trace["victory"])
        self._counters: list[int] = list(trace["counters"])
        self.index = 0
        self.ply = start.ply
        self.to_move = start.to_move
        self.squares: list[int] = list(self._boards[:N_HEXES])
        self.fired: tuple[tuple[str, int, int], ...] = tuple(start.fired)
        self.counters: list[int] = list(start.counters)
        self.winner: int | None = None
        self.victory: str | None = None
        if not self._actions:
            self.winner, self.victory = self._final
            self.counters = self._counters[: len(self.counters)]

    @property
    def rules(self) -> Any:
        return self.game.rules

    def legal_actions(self) -> range:
        """Only its length is read by ``play_game``: the mover's number of legal actions."""
        return range(self._n_legal[self.index])

    def next_action(self) -> tuple:
        return self._actions[self.index]

    def action_to_string(self, action: tuple) -> str:
        return format_action(self, action)  # reads squares and to_move only

    def apply(self, action: tuple, check: bool = True) -> None:
        """Step to the board after the next traced action (which must be ``action``)."""
        i = self.index
        if tuple(action) != tuple(self._actions[i]):
            raise RuntimeError(f"native trace replay out of step at ply {self.ply + 1}")
        self.index = i + 1
        self.squares = list(self._boards[(i + 1) * N_HEXES : (i + 2) * N_HEXES])
        self.ply += 1
        self.to_move = 1 - self.to_move
        self.fired = tuple((RULES[r], s, h) for r, s, h in self._fired[i])
        if self.index == len(self._actions):
            self.winner, self.victory = self._final
            self.counters = self._counters[: len(self.counters)]

    def winner_name(self) -> str | None:
        return None if self.winner is None else SIDE_NAMES[self.winner]


class TraceAgent:
    """Plays what the native agent chose (the trace), for ``play_game``'s ``select_action`` call."""

    def __init__(self, name: str) -> None:
        self.name = name

    def select_action(self, state: TraceState) -> tuple:
        return state.next_action()


def playable(white: str, black: str, seats: SeatAgents, start: GameState | None = None) -> bool:
    """True when the native core is built, both agents are built-in ones with native twins (an agent
    registered under a built-in name replaces it, and plays in Python; so does a spec pinned to
    ``engine=python``) and it holds ``start``."""

    def ok(spec: str) -> bool:
        _, params = parse_agent_spec(spec)  # a spec may pin its engine: "alphabeta:engine=python"
        return seats.engine(spec, str(params.get("engine", "auto"))) == "native" and native.has_agent(spec)

    return native.available() and ok(white) and ok(black) and (start is None or native.supports(start))


def native_game(start: GameState, white: str, black: str, seeds: tuple[int | None, int | None],
                max_plies: int) -> tuple[TraceState, list[TraceAgent]]:
    """Play the game natively from ``start``; the replay state and agents for ``play_game``'s loop."""
    from . import GAME
    from .agents.native_agent import install_eval_params

    install_eval_params()  # a fresh worker (pool, Dask) has not handed the evaluation weights to Rust yet
    trace = native.play_native(start, white, black, seeds, max_plies, boards=True, game=GAME)  # GAME: eval=NAME
    return TraceState(start, trace), [TraceAgent(white), TraceAgent(black)]


def generic_twins(white: str, black: str, seats: SeatAgents, start: GameState,
                  seeds: tuple[int, int]) -> list[native.GenericTwin] | None:
    """Both seats' native twins when both are generic agents (``generic-<name>``, ``eval=`` included) that the
    core holds from ``start`` and neither is pinned to Python nor replaced by a registered agent; else None."""
    from . import GAME

    if not native.available() or not native.supports(start):
        return None
    twins = []
    for spec, seed in zip((white, black), seeds, strict=True):
        params = parse_agent_spec(spec)[1]
        if seats.engine(spec, str(params.get("engine", "auto"))) != "native":
            return None
        twin = native.GenericTwin.for_seat(spec, GAME, start.rules, seed, True)
        if twin is None:
            return None
        twins.append(twin)
    return twins


class ReplayState(native.NativeState):
    """A native state with the engine's action text (``format_action`` reads squares and the mover only)."""

    def action_to_string(self, action: tuple) -> str:
        return format_action(self, action)


class ReplayAgent:
    """Plays the core's picks (dense ids, ``core::protocol`` order) as the engine's tuples on a native state."""

    def __init__(self, name: str, ids: list[int], start_ply: int) -> None:
        self.name, self.ids, self.start_ply = name, ids, start_ply

    def select_action(self, state: Any) -> tuple:
        legal = list(native._native.terrafeud.legal_ids(state._st))
        return state.legal_actions()[legal.index(self.ids[state.ply - self.start_ply])]


def generic_game(start: GameState, twins: Sequence[native.GenericTwin], max_plies: int) -> tuple[Any, list[ReplayAgent]]:
    """A whole game of two generic agents in Rust (``protocol_play_game``, without the GIL); its picks replayed on
    a native state through ``play_row``'s loop, so the rows are those of the Python loop."""
    native.install_eval_params()
    ns = native.NativeState.from_state(start)
    seats = [(t.base[len(GENERIC_PREFIX):], t.params or None, t.seed) for t in twins]
    ids = list(native._native.terrafeud.protocol_play_game(ns._st, seats, int(max_plies))["actions"])
    replay = ReplayState.from_state(start)
    return replay, [ReplayAgent(t.name, ids, start.ply) for t in twins]


# ---------------------------------------------------------------------- checks before the first game
def check_cell(spec: Any, seats: SeatAgents) -> None:
    """A cell's first game builds (terrain hexes, a ``start=`` scenario, ...), and no agent is stranded by a
    start the native core cannot hold: where it cannot, a native agent searches with its Python twin (said
    once, here, before any game); an agent pinned to ``engine=native`` cannot, so the batch is refused."""
    if spec.opening:  # its own row writer and tuned native agents play from the start only
        raise ValueError(f"opening={spec.opening}: TerraFeud's games are played by its own row writer, which has no "
                         "random opening; play it without --opening")
    game = make_game(spec.rules, seed=spec.seed)
    start = game.new_initial_state()
    if not native.available() or native.supports(start):
        return
    from .agents.native_agent import fallback_notice, say_once

    reason = native.unsupported_reason(start)
    for agent in dict.fromkeys(seat_pair(spec)):
        _, params = parse_agent_spec(agent)
        pinned = str(params.get("engine", "auto")).strip().lower()
        if pinned == "native":
            raise ValueError(
                f"agent {agent} is pinned to engine=native, but the native core cannot hold the start position "
                f"({reason}); use engine=auto (its Python twin plays it) or engine=python")
        if seats.engine(agent, pinned) == "native" and spec.engine != "python":
            say_once(fallback_notice(agent, reason))
