"""The game protocol: what every game tells the workbench about itself (modelled on OpenSpiel).

A game package exposes one ``GameDef`` (``GAME`` in its ``__init__``). ``GameDef.make(rules)`` fixes
the rules and gives a ``Game``-like object through ``new_initial_state(seed)``; states follow the
``State`` interface below. Tools speak only this protocol, so a new game plugs into check, simulate,
report, agents, pictures, the board and OpenSpiel without an ``if game == ...`` anywhere.

The side to move is a query (``current_player()``): a player index ``0..n-1``, ``CHANCE`` or
``TERMINAL``. Turns of several actions, chance nodes and more than two players follow from that.

Actions are game-defined hashable values (ints or tuples). ``legal_actions()`` returns them in the
game's own canonical order (the order the native core and the records use); ``action_to_int`` maps
each to a dense integer below ``num_distinct_actions()`` for OpenSpiel, whose view sorts them.
Chance outcomes are ints ``0..max_chance_outcomes()-1``; at a chance node ``apply_action(outcome)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from .classes import ActionClasses, Archetype

if TYPE_CHECKING:
    from .rulespec import Rules, RulesSpec
    from .scenario import ScenarioCase

CHANCE = -1  # OpenSpiel's kChancePlayerId
TERMINAL = -4  # OpenSpiel's kTerminalPlayerId
# legal actions beyond which a list is not walked to build a click (``State.click_step``) or a board's view
CLICK_STEP_LIMIT = 20_000


class ClickStep(NamedTuple):
    """One step of an action built by clicks (``State.click_step``): the cells a next click may pick, the legal
    actions the clicks so far complete, and what the next click picks in the game's words ("the C flag")."""

    cells: list[int]
    done: list[Any]
    words: str = ""


class IllegalAction(ValueError):
    """An action that is not legal here, or text that names no action; the message gives the rule."""


@dataclass(frozen=True)
class GameInfo:
    """Who plays, for one rules setting (big chess has 2 to 25 players, so this depends on rules).

    ``players`` are seat names as the rulebook writes them (``white``/``black``, ``p1``/``p2``,
    ``red``/``black``, ``a``..``y``); ``labels`` the same for people; ``teams`` lists seat indices per
    team (one team per player when there are no teams). ``chance`` is ``none``, ``explicit``
    (chance nodes in the tree) or ``seeded`` (drawn from the game's seed, such as a shuffled deck).
    ``default_max_plies`` is the ply cap the tools (simulate, ladder, tune) use when the user gives none:
    a game with its own length cap sets it so that its rules, not the tool, end a long game (Pole: its
    ``max_turns`` in plies); None leaves each tool's own default (simulate's 300, the ladder's 200).
    """

    name: str
    title: str
    players: tuple[str, ...]
    labels: tuple[str, ...]
    teams: tuple[tuple[int, ...], ...]
    chance: str = "none"
    perfect_information: bool = True
    max_game_length: int = 10_000
    turn_word: str = "turn"
    default_max_plies: int | None = None

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return len(self.players)

    def team_of(self, player: int) -> int:
        """Index of the team that ``player`` sits in."""
        for i, team in enumerate(self.teams):
            if player in team:
                return i
        raise ValueError(f"player {player} is in no team")


@dataclass(frozen=True)
class Cell:
    """One cell of a board layout: id (the int the engine uses), name (``e5``), centre in layout units."""

    id: int
    name: str
    x: float
    y: float


@dataclass(frozen=True)
class Layout:
    """A board's geometry for pictures: cell shape and the cells' centres.

    ``shape`` is ``hex-pointy`` (pointed top), ``hex-flat`` (flat top) or ``square``; ``size`` is the
    centre-to-corner distance of a hex or half the side of a square, in the same units as the centres.
    """

    shape: str
    size: float
    cells: tuple[Cell, ...]

    def by_name(self) -> dict[str, Cell]:
        """Cells keyed by name."""
        return {c.name: c for c in self.cells}

    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        """Corner points of ``cell`` (for SVG, matplotlib and the board)."""
        import math

        s = self.size
        if self.shape == "square":
            return [(cell.x - s, cell.y - s), (cell.x + s, cell.y - s), (cell.x + s, cell.y + s), (cell.x - s, cell.y + s)]
        start = 30 if self.shape == "hex-pointy" else 0
        return [(cell.x + s * math.cos(math.radians(start + 60 * k)), cell.y + s * math.sin(math.radians(start + 60 * k)))
                for k in range(6)]


@dataclass(frozen=True)
class Glyph:
    """What one cell shows: terrain class, a piece's letter and owner, and small badges (HP, level).

    ``terrain`` is a style class of the game's legend (``river``, ``forest``, ``void``); ``piece`` a
    short text (``K``, ``s``); ``owner`` a player index or None; ``badges`` short texts drawn in the
    corners (``2hp``, ``L2``, a treasury ``$300``); ``facing`` for pieces that face a direction, in
    degrees clockwise from north (0 = up on the page, 90 = right), as every picture and the board draw it.
    """

    cell: int
    terrain: str = ""
    piece: str = ""
    owner: int | None = None
    badges: tuple[str, ...] = ()
    facing: float | None = None
    marks: tuple[str, ...] = ()


@dataclass(frozen=True)
class PatternMark:
    """One cell of a piece's pattern diagram, relative to the piece (``dy`` < 0 is up on the page).

    ``acts`` are the act names of the game's ``Pattern.legend`` reaching that cell; ``leap`` a jump
    (over the cells between), ``hop`` a slide that may cross one piece, ``edge`` a slide that goes on
    past the drawn radius, ``new`` what the panel's level adds to the base pattern.
    """

    dx: int
    dy: int
    acts: tuple[str, ...]
    leap: bool = False
    hop: bool = False
    edge: bool = False
    new: bool = False


@dataclass(frozen=True)
class Pattern:
    """A piece's pattern diagram on a small grid (one panel: a level, or the base), as plain data.

    ``legend`` is ``(act, colour, shape, words)`` per act, shape one of ``dot``, ``cross``, ``star``,
    ``arrow``, ``square``; ``facing`` the piece's facing in degrees clockwise from north (None: no
    facing). The game computes it, ``workbench.viz.generic`` draws it as SVG or matplotlib.
    """

    title: str
    radius: int
    marks: tuple[PatternMark, ...]
    legend: tuple[tuple[str, str, str, str], ...]
    facing: float | None = None
    piece: str = ""


@dataclass
class ReportPart:
    """A game's own section of a balance report (``GameDef.report_sections``), as plain data.

    ``paragraphs`` are sentences; ``table`` rows as dicts with the same keys, in order; ``maps`` heat maps
    that the report draws on the game's board with a colour bar from 0: ``(caption, {cell id: value})``;
    ``figures`` ready PNG images as ``(file stem, bytes)``. Plain data, so that a game package needs
    neither pandas nor matplotlib, and the report never imports a game package.
    """

    title: str
    paragraphs: list[str] = field(default_factory=list)
    table: list[dict[str, Any]] | None = None
    maps: list[tuple[str, dict[int, float]]] = field(default_factory=list)
    figures: list[tuple[str, bytes]] = field(default_factory=list)
    #: ``(title, rule)`` panels: where that rule fired over the batch's events (``rule@cell``), drawn by the
    #: report on the game's board, per game.
    rule_maps: list[tuple[str, str]] = field(default_factory=list)
    #: ``(first column, second column, word, roles in order)``: the report's role-against-role matrix
    #: (factions, armies) of the games table, with strengths and the first player's edge.
    matchup: tuple[str, str, str, list[str]] | None = None


@dataclass(frozen=True)
class GameCommand:
    """A command a game offers on the command line (``GameDef.commands``).

    ``main(argv, painter)`` returns the exit code; ``painter`` turns a card's patterns into SVG (the tools'
    ``viz.generic.patterns_svg``, handed in by the dispatcher so the game imports no tool).
    """

    help: str
    main: Callable[[list[str], Callable[[Any], str]], int]


@dataclass(frozen=True)
class AgentCaps:
    """What a served page may ask of one of a game's own agents (``GameDef.agent_caps``), so a stranger's request
    never holds the kernel: numeric parameters with their (lowest, highest), parameters that take one of a few
    words, and which numbers are whole. A ``seconds`` range makes the agent clocked: the page always sets one."""

    limits: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    words: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    ints: frozenset[str] = frozenset()
    # the agent searches with learned weights (``eval=NAME``): the page offers the board's weights files by name
    learned: bool = False


@dataclass(frozen=True)
class TableSchema:
    """How a game's simulate rows read beyond the generic columns (``GameDef.table``), so balance never guesses.

    ``rule_columns``: rules kept as plain columns, in the order cells are keyed by (empty: balance reads the
    rules from the row's ``rules`` label); ``numeric_rules``: those with a numeric value (response curves).
    """

    rule_columns: tuple[str, ...] = ()
    numeric_rules: tuple[str, ...] = ()
    # a game whose rows have fixed columns declares them, in order, with their Arrow types (``int64``,
    # ``float64``, ``bool``, ``string``): simulate types its tables and files by them, and a row that cannot be
    # stored is refused before the first game. Empty (the default): columns and types as the rows give them.
    games_columns: tuple[tuple[str, str], ...] = ()
    events_columns: tuple[tuple[str, str], ...] = ()
    # columns an older table of this game carries under another name, and the name they have now (old -> new),
    # e.g. a two-seat game's ``white_agent`` for ``agent_white``: the one migration (``balance.table``) reads them
    renamed_columns: tuple[tuple[str, str], ...] = ()
    # the report's vocabulary of this game's own columns, read generically: the kinds of its
    # ``lost_<seat>_<kind>`` columns (piece losses), the victory kinds in the rulebook's order, and the rule-usage
    # counters that are switches of the rules (a rule off in a cell fires 0 times there, which is no finding)
    loss_kinds: tuple[str, ...] = ()
    victories: tuple[str, ...] = ()
    # (counter, ((column, values of it that switch the rule off), ...)): ``promotion`` also covers ``promotion_*``
    rule_switches: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...] = ()
    # rule counters that fire on a cell, in the order the report draws their maps first (the others follow by name)
    spatial_rules: tuple[str, ...] = ()


class SeatAgents(Protocol):
    """The seats' agents as the tools build them, handed to a game that writes its own rows (``GameDef.play_row``),
    so a game never imports the agents tool and registered agents play there too."""

    def make(self, spec: str, seed: int | None, engine: str) -> Any:
        """The agent of ``spec`` (``alphabeta:depth=2``) seeded ``seed``; ``engine`` auto, native or python."""
        ...

    def engine(self, spec: str, engine: str) -> str:
        """``native`` when ``spec`` would play on the game's native core under ``engine``, else ``python``."""
        ...

    def protocol(self, spec: str) -> bool:
        """True when ``make(spec)`` reads the protocol's ``State`` (every agent of every game: the generic ones, a
        game's own, their native twins); False only for an agent a user registered for the game's engine state
        (``workbench.agents.register_agent``): the game hands it its engine's position."""
        ...


class State:
    """One position. Methods without a body must be given by every game; the rest have defaults.

    Mutating methods: ``apply_action`` and ``undo_action`` (exact: undo restores the same
    ``to_dict()``). ``clone`` is independent of the original.
    """

    # ----------------------------------------------------------------- required
    def current_player(self) -> int:
        """A player index, ``CHANCE`` or ``TERMINAL``."""
        raise NotImplementedError

    def legal_actions(self, player: int | None = None) -> list[Any]:
        """Legal actions of the player to move in canonical order ([] at terminal and chance nodes)."""
        raise NotImplementedError

    def apply_action(self, action: Any) -> None:
        """Play ``action`` (a decision, or a chance outcome at a chance node); ``IllegalAction`` if not legal."""
        raise NotImplementedError

    def undo_action(self) -> None:
        """Take back the last ``apply_action`` exactly."""
        raise NotImplementedError

    def clone(self) -> State:
        """An independent copy."""
        raise NotImplementedError

    def is_terminal(self) -> bool:
        """True when the game is over (won, drawn by the rules, or cut by a cap)."""
        raise NotImplementedError

    def returns(self) -> list[float]:
        """One value per player: +1 win, -1 loss, 0 draw or unfinished (team-mates share a result)."""
        raise NotImplementedError

    def action_to_string(self, action: Any) -> str:
        """The action in the game's contract notation."""
        raise NotImplementedError

    def string_to_action(self, text: str) -> Any:
        """The legal action that ``text`` names here; ``IllegalAction`` naming the rule otherwise."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; ``GameDef.state_from_dict`` gives it back exactly."""
        raise NotImplementedError

    # ----------------------------------------------------------------- defaults
    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        """``copy.deepcopy`` (OpenSpiel clones Python states that way) is the game's own ``clone``."""
        return self.clone()

    def is_chance_node(self) -> bool:
        """True when chance moves next."""
        return self.current_player() == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(outcome, probability)]`` at a chance node (probabilities sum to 1); [] elsewhere."""
        return []

    def chance_classes(self) -> list[tuple[int, float]]:
        """Chance outcomes merged by effect: ``[(representative outcome, summed probability)]``.

        Outcomes that lead to the same position (two rolls that both miss) need one child in an exact
        expectation, so searches (greedy, alphabeta, search) expand these; play and records keep
        ``chance_outcomes``, where every roll is its own outcome. The default merges nothing.
        """
        return self.chance_outcomes()

    def move_number(self) -> int:
        """Actions applied since the start (decisions and chance outcomes)."""
        raise NotImplementedError

    def turn(self) -> int:
        """The game's own turn counter (a turn may hold several actions)."""
        return self.move_number()

    def winner(self) -> int | None:
        """Index of the winning player (or of the first seat of the winning team); None otherwise."""
        if not self.is_terminal():
            return None
        r = self.returns()
        best = max(r)
        return r.index(best) if best > 0 else None

    def outcome(self) -> str:
        """``win``, ``draw`` (the rules ended it drawn), ``unfinished`` (a cap cut it) or ``ongoing``."""
        if not self.is_terminal():
            return "ongoing"
        return "win" if self.winner() is not None else "draw"

    def victory(self) -> str | None:
        """The game's own word for how it ended (``castle``, ``prince``, ``checkmate``), or None."""
        return None

    def observation_string(self, player: int | None = None) -> str:
        """What ``player`` sees, as text (hidden information left out); the whole state by default."""
        import json

        return json.dumps(self.to_dict(), sort_keys=True, default=str)

    def view(self, player: int, seed: int = 0) -> State:
        """A state an agent of ``player`` may search: hidden information resampled from ``seed``."""
        return self.clone()

    def counters(self) -> dict[str, list[int]]:
        """Rule-usage counters: rule name -> one count per player, since the start."""
        return {}

    def fired(self) -> list[tuple[str, int, int | None]]:
        """The rules the last action fired: ``(rule, player, cell or None)``."""
        return []

    def action_cells(self, action: Any) -> list[int]:
        """Cells a click sequence picks for ``action`` (first = the piece or source); [] for buttons."""
        return []

    def legal_action_cells(self) -> list[tuple[Any, tuple[int, ...]]]:
        """Every legal action with its click cells (``action_cells``), in ``legal_actions`` order: what a board asks
        of each new position. A game with thousands of actions (big chess's setup) may answer it in one pass."""
        return [(a, tuple(self.action_cells(a))) for a in self.legal_actions()]

    def click_step(self, cells: Sequence[int]) -> ClickStep | None:
        """One step of building an action by clicks: after the click sequence ``cells``, the cells a next click may
        pick and the legal actions ``cells`` completes (several: the board offers them as buttons), and what the
        next click picks in words; no cells and no actions when no legal action starts with ``cells``. A board asks it where the legal list is too long to walk
        (CLICK_STEP_LIMIT; The Cursed Lands' 483,840 camps), so a game with such a list answers from its actions'
        structure. The default reads ``legal_action_cells``, and gives None (no builder) beyond the limit."""
        legal = self.legal_actions()
        try:
            count = len(legal)
        except TypeError:
            count = sum(1 for _ in islice(legal, CLICK_STEP_LIMIT + 1))
        if count > CLICK_STEP_LIMIT:
            return None
        seq, n = tuple(cells), len(cells)
        nxt: dict[int, None] = {}
        done: list[Any] = []
        for a, picks in self.legal_action_cells():
            if tuple(picks[:n]) != seq:
                continue
            if len(picks) > n:
                nxt[picks[n]] = None
            elif n:
                done.append(a)
        return ClickStep(list(nxt), done)

    def action_effects(self, action: Any) -> dict[str, Any]:
        """What ``action`` would change: ``{"removed": [cells], "marks": [cells], "text": str, "ends": bool}``; ``text``
        a sentence (the notation, then what it does: "d2xf2: ... takes 2 damage"), ``ends`` whether it ends the
        game (``ends_turn``: the turn), ``odds`` {cell: "n/36"} where a roll decides the removals, ``damage``
        {cell: hit points lost} by a piece that survives (the board marks it on hover and after the move)."""
        return {}

    def overlay(self, name: str) -> dict[int, str]:
        """One of the game's ``GameDef.overlays`` on this position: cell -> a mark drawn as a ring there (its words
        in ``GameDef.glyph_words``); TerraFeud's zones of control, archers' markers and auras. None by default."""
        return {}

    def target_kind(self, action: Any) -> str:
        """What a lit target cell of ``action`` means, in one word the board draws and the page marks as
        ``data-target`` (TerraFeud: ``move``, ``attack``, ``stop``, ``mine``, ``shot``, ``castle``); "" by default."""
        return ""

    def action_mode(self, action: Any) -> str:
        """The multi-step action ``action`` is one of (a name of ``GameDef.action_modes``: TerraFeud's ``order``,
        several infantry moves given as one action), or "" for an ordinary action (the default)."""
        return ""

    def action_card(self, action: Any) -> dict[str, Any] | None:
        """What a purchase buys, for the board's card palette: ``{"card": name, "price": n, "first": bool,
        "pattern": key}`` (``first``: shown before the others, big chess's King); None for other actions."""
        return None

    def explain_cells(self, cells: Sequence[int]) -> dict[str, Any] | None:
        """Why no legal action picks the click sequence ``cells`` (a piece, then where it was sent): the game's
        exact reason ``{"text": ..., "blocks": [cells that stop it]}``; None lets the board guess from a
        neighbouring action's text (``explain_illegal``). TerraFeud names the gallop's blocking zone."""
        return None

    def action_label(self, action: Any) -> str:
        """Words for a choice button where several actions end on the same cells (``promote to C cavalry``);
        "" draws the action's notation."""
        return ""

    def attack_lines(self) -> list[tuple[int, int, int]]:
        """Lines the board draws from attacker to what it threatens, ``(from cell, to cell, attacking seat)``:
        TerraFeud's attackers of a threatened or mated feudal. None by default."""
        return []

    def attackers(self) -> list[tuple[int, int, int]]:
        """Every attack the pieces on the board could make on their seat's next move, by the game's own rules:
        ``(attacker's cell, attacked cell, attacking seat)``, for every seat (the one to move and the others, as if
        it were theirs). The board draws, for a hovered cell, the lines from its attackers. None by default."""
        return []

    def explain_illegal(self, text: str) -> str:
        """Why ``text`` is not legal here, naming the first rule that fails."""
        try:
            self.string_to_action(text)
        except IllegalAction as exc:
            return str(exc)
        return f"{text} is legal"

    def glyphs(self) -> list[Glyph]:
        """What every cell shows, for pictures and the board."""
        return []

    def summary(self, player: int | None = None) -> dict[str, Any]:
        """The game's own facts about this position (nested mapping, in its own order), for the board's status line
        and reports; ``player`` a seat whose hidden facts may be shown. None by default."""
        return {}

    def heat(self, layer: str, player: int) -> dict[int, float]:
        """A heat layer (``threat``, ``control`` or a game's own) as cell -> value, for ``player``."""
        return {}

    def evaluate(self, player: int) -> float:
        """Static evaluation from ``player``'s point of view, in the game's material units."""
        return 0.0

    def action_priority(self, action: Any) -> int:
        """Move-ordering hint for searches: higher first (captures, attacks)."""
        return 0


class NativeBackend:
    """A game's native core, as every tool asks it (``GameDef.native``): one object, declared, never discovered.

    This base class is the answer of a game without one: nothing is available, no whole games, no seat
    agents, so every tool plays the Python engine. A game with a core subclasses it in its own package
    (``exists = True``) and overrides what its core can do; each method's default says "not here", so a
    tool asks without ``getattr`` and falls back to Python on None.
    """

    exists: bool = False  # the game has a native core at all (built or not): ``engine=native`` then says "build it"
    sweep: str = ""  # the module of the game's equality sweep (``nativediff --game NAME`` runs its ``main``)

    def available(self) -> bool:
        """True when the core is built and importable in this process."""
        return False

    def state(self, state: State) -> State:
        """The same position on the core, speaking this protocol (``perft --engine native``, the board)."""
        raise NotImplementedError("this game has no native core")

    def new_state(self, rules: Rules | None = None, seed: int = 0) -> State:
        """The start under ``rules`` on the core (the same position as ``GameDef.new_initial_state``)."""
        raise NotImplementedError("this game has no native core")

    def play_game(self, spec: Any) -> Any:
        """A whole game of a simulate spec in the core, row and events included (a ``GameResult``), or None
        when the core cannot play it (not built, or an agent without a native twin): the Python loop plays."""
        return None

    def play_trace(self, spec: Any, rules: Rules, seats: Sequence[str]) -> Any:
        """A whole game in the core as ``(final state, event rows, legal counts)`` for simulate's own row
        writer, or None (the Python loop plays)."""
        return None

    def agent(self, spec: str, rules: Rules, seed: int) -> Any:
        """The native twin of agent ``spec`` for one seat of a Python-loop game, or None without one."""
        return None

    def play_barred(self, start: State, seats: Sequence[tuple[str, dict[str, float], int]], masks: Sequence[int],
                    n_classes: int, chance_seed: int, max_plies: int) -> Any:
        """Restricted play in the core (``workbench.agents.restrict`` natively): one whole game from ``start``,
        seat ``i`` the generic agent ``seats[i]`` = (name, parameters, seed) barred from the action classes whose
        bits (``action_classes.names()`` order) are set in ``masks[i]``, chance from ``random.Random(chance_seed)``.
        ``(final state, legal counts, tallies)`` with one ``(decisions, forced, actions played by class)`` per
        seat, or None when the core cannot (not built, no classifier): the Python loop plays."""
        return None

    def class_bits(self, state: State, action: Any) -> int:
        """The core's classifier: the bits of ``action``'s classes in ``state`` (a state of ``state(...)``), the
        twin of ``GameDef.action_classes.classify`` (checked equal by the tests); -1 without one."""
        return -1

    def random_playouts(self, rules: Rules, games: int, seed: int, max_actions: int) -> int:
        """``bench``'s uniformly random playouts in the core (the same streams): the number of actions."""
        raise NotImplementedError("this game has no native core")

    def perft(self, state: State, depth: int) -> int | None:
        """Perft of a state of the core (``state(...)``) counted inside it, or None: ``perft`` walks it then."""
        return None


NO_NATIVE = NativeBackend()
ENGINES = ("auto", "native", "python")


class NativeUnavailableError(ValueError, RuntimeError):
    """``engine=native`` was asked of a game whose native core is missing or not built."""


def resolve_engine(game: GameDef, engine: str | None = "auto") -> str:
    """The one engine switch of every game and tool: ``auto`` -> ``native`` when the game's core is built,
    else ``python``; ``native`` without one is a ``NativeUnavailableError`` that says whether building helps."""
    name = str(engine or "auto").strip().lower()
    if name not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
    if name == "python":
        return name
    built = game.native.available()
    if name == "native" and not built:
        if not game.native.exists:  # building cannot help
            raise NativeUnavailableError(f"engine=native: {game.name} has no native core (its Python engine plays "
                                         "it); use engine=python or auto")
        raise NativeUnavailableError(f"engine=native: the native core of {game.name} is not built (needs cargo; "
                                     "run `make setup`); use engine=python or auto")
    return "native" if built else "python"

# Names games once defined as loose methods; a subclass that still defines one is refused at import, so a
# hook is never silently ignored (the native ones live on ``GameDef.native``, a game's agents in ``game_agents``).
RETIRED_HOOKS = {"native_available": "native.available", "native_twin_of": "native.state",
                 "native_state": "native.new_state", "native_game": "native.play_game",
                 "native_play": "native.play_trace", "native_agent": "native.agent",
                 "native_random_playouts": "native.random_playouts", "tuned_agents": "game_agents()"}


class GameDef:
    """Everything a game says about itself that does not depend on one position.

    Subclass it in the game package and set ``GAME = MyGame()``. Only ``name``, ``title``, ``spec``,
    ``info``, ``new_initial_state``, ``state_from_dict`` and the action encoding are required;
    a game without a scenario dialect cannot be ``check``-ed, and so on.
    """

    name: str = ""
    title: str = ""
    scenario_folder: str = ""  # under scenarios/, e.g. "cursed-lands"
    heat_layers: tuple[str, ...] = ()
    legend: tuple[tuple[str, str, str], ...] = ()  # (style class, colour, words)
    evaluation_unit: str = "points"  # what ``State.evaluate`` counts in (the board's bar and graph say it)
    glyph_words: Mapping[str, str] = {}  # a glyph mark's or badge prefix's meaning, for the board's legend
    # the board's graphical position editor: the pieces one click sets on a cell, as (code as ``to_dict()``'s
    # ``pieces`` map writes it, owner seat, words); empty: the position is edited as text (Copy, edit, Paste)
    edit_palette: tuple[tuple[str, int, str], ...] = ()
    # palette codes a person places by two clicks, the first cell then the second (``edit_pair``): TerraFeud's
    # archer marker (the archer, then the hex it marks); none by default
    edit_pairs: tuple[str, ...] = ()
    # extra CSS class names the board's page gives its parts (part -> class: "cell", "svg", "piece", "selected",
    # "dest", "status", "message", "moves", "move", "move-text", "future", "undo"), for a game whose older pages,
    # stylesheets and browser checks know its board by them; none by default
    board_aliases: Mapping[str, str] = {}
    # layers the board can switch on over the position, as (name, words); ``State.overlay(name)`` says what each
    # marks, and the names in ``default_overlays`` start switched on
    overlays: tuple[tuple[str, str], ...] = ()
    default_overlays: tuple[str, ...] = ()
    # multi-step actions a person gives as one, each a button and mode of the board, as (name, button words, what
    # it is and how its cells are clicked); ``State.action_mode(action)`` names the mode of each action of one.
    # With a mode on, clicks pick only its actions' cells (the click sequences of every action keep working
    # without it). TerraFeud's Order: several infantry moves as one action
    action_modes: tuple[tuple[str, str, str], ...] = ()
    # the agent the board's Evaluate and continuous analysis search with: a spec ``make_protocol_agent`` builds for
    # this game (its own tuned agent, by the name the game gives it), the board capping its clock per request;
    # empty: the generic ``alphabeta``
    analysis_agent: str = ""
    # what the board's page may ask of this game's own agents (``game_agents``), by name: their parameters and caps.
    # An own agent without an entry is offered by name only, without parameters
    agent_caps: Mapping[str, AgentCaps] = {}
    # the balance question benchmarks ask by default (rule -> values, as --grid); none: the default rules
    benchmark_grid: Mapping[str, Sequence[str]] = {}
    # the game's headline balance question (rule -> values; empty: the first seat's edge) and the agent range
    # whose doubling budgets the skill-trace benchmark asks it at (``python -m workbench.study.bench``,
    # ``workbench trace --skill-trace``), e.g. "mcts:iterations=50..400"; empty: no headline trace
    headline_grid: Mapping[str, Sequence[str]] = {}
    skill_trace: str = ""
    # plies of fixed random opening that trace starts every game with (``trace --opening``, docs/balance.md); 0: none
    headline_opening: int = 0
    # commands only this game has, run as ``python -m workbench NAME ARGS`` (the dispatcher finds them here,
    # through the registry): name -> ``GameCommand``; none by default
    commands: Mapping[str, GameCommand] = {}
    # the agents' measured strengths: an Elo table (JSON) in this game's folder, written by
    # ``workbench ladder --game NAME --write`` and read by ``workbench games`` and the reports
    # (``workbench.core.strength``); empty: none measured
    strength_file: str = ""
    # figures its rulebook or contract publishes (JSON in this game's folder: lines of rules and agents, the
    # measures and their published values), played again by ``workbench published --game NAME``; empty: none
    published_file: str = ""
    # named classes of this game's actions in its rulebook's words, and their classifier (restricted play,
    # ``workbench ablate``); None: not declared. A game with nothing to name declares ``ActionClasses(
    # none_reason=...)`` so that the tools can say why.
    action_classes: ActionClasses | None = None
    # play styles as data (class weights the generic ``style`` agent reads): rush, turtle, economy ...
    archetypes: tuple[Archetype, ...] = ()
    # the game's native core (``NativeBackend``): available, state conversion, whole games, seat agents, playouts
    native: NativeBackend = NO_NATIVE
    # how this game's table rows read (rules as plain columns or as a ``rules`` label)
    table: TableSchema = TableSchema()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for old, new in RETIRED_HOOKS.items():
            if old in vars(cls):
                where = "" if new.endswith("()") else " (a NativeBackend)"
                raise TypeError(f"{cls.__name__}.{old}: declare it as GameDef.{new}{where}, where the tools look for it")

    @property
    def spec(self) -> RulesSpec:
        """The rules spec (toggles and parameters)."""
        raise NotImplementedError

    def rules(self, values: Mapping[str, Any] | str | None = None) -> Rules:
        """Validated rules for this game."""
        return self.spec.make(values)

    def info(self, rules: Rules | None = None) -> GameInfo:
        """Players, teams, chance and length under ``rules``."""
        raise NotImplementedError

    def new_initial_state(self, rules: Rules | None = None, seed: int = 0) -> State:
        """The start under ``rules``; ``seed`` drives any seeded chance (terrain, decks)."""
        raise NotImplementedError

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        """Inverse of ``State.to_dict``; ``ValueError`` naming the field when the data is wrong."""
        raise NotImplementedError

    def num_distinct_actions(self, rules: Rules | None = None) -> int:
        """Size of the dense action space (OpenSpiel)."""
        raise NotImplementedError

    def max_chance_outcomes(self, rules: Rules | None = None) -> int:
        """Number of distinct chance outcomes (0 for games without chance nodes)."""
        return 0

    def action_to_int(self, state: State, action: Any) -> int:
        """Dense integer of ``action`` (``0 <= n < num_distinct_actions``)."""
        return int(action)

    def int_to_action(self, state: State, number: int) -> Any:
        """Inverse of ``action_to_int`` in ``state``."""
        return number

    def legal_ints(self, state: State) -> list[int]:
        """``action_to_int`` of every legal action, sorted (a game may compute them all at once)."""
        return sorted(self.action_to_int(state, a) for a in state.legal_actions())

    def layout(self, rules: Rules | None = None) -> Layout:
        """The board's cells and shape."""
        raise NotImplementedError

    def state_rules(self, state: State) -> Rules | None:
        """The rules a position was built under (a scenario's own), from ``to_dict()["rules"]``; None if unknown.

        The board reads a loaded position's rules, seats and board through these three hooks, so a
        7x7 scenario of a game whose default board is 12x12 is drawn on its own board."""
        try:
            data = state.to_dict().get("rules")
            return self.rules(data) if isinstance(data, Mapping) else None
        except (ValueError, NotImplementedError, TypeError):
            return None

    def state_layout(self, state: State) -> Layout:
        """The cells of this position's board (default: ``layout`` of its rules)."""
        return self.layout(self.state_rules(state))

    def state_info(self, state: State) -> GameInfo:
        """The seats of this position (default: ``info`` of its rules); a scenario may seat four players."""
        return self.info(self.state_rules(state))

    def edit_form(self, state: State) -> dict[str, Any]:
        """The position as the editor edits it (what ``edit_cell`` and the other editor hooks receive): default
        ``state.to_dict()``; a game whose scenario position is the clearer form (big chess) gives that."""
        return state.to_dict()

    def edit_state(self, data: Mapping[str, Any]) -> State:
        """The edited position judged by the game's own checks (each edit, and Done): a ``State``, or a
        ``ValueError`` that names the cell and the rule. Default: ``state_from_dict``."""
        return self.state_from_dict(data)

    def edit_pieces(self, data: Mapping[str, Any]) -> Sequence[tuple[str, int, str]]:
        """The position editor's palette for the edited position ``data`` (``to_dict`` form), as (code, owner seat,
        words); an owner of -1 is no seat's (a marker, a tile). A game whose pieces depend on the position (big
        chess's 2-25 seats, The Cursed Lands' factions) says them here; default: ``edit_palette``."""
        return self.edit_palette

    def edit_options(self, data: Mapping[str, Any], code: str) -> Sequence[tuple[str, str, tuple[str, ...]]]:
        """What else a click with palette piece ``code`` sets, as (name, words, choices; the first is the default):
        The Cursed Lands' hit points, big chess's facing and level. ``edit_cell`` receives the chosen values. None
        by default."""
        return ()

    def edit_pair(self, data: dict[str, Any], first: str, second: str, code: str) -> dict[str, Any]:
        """The position ``data`` with ``code`` (one of ``edit_pairs``) placed from cell ``first`` to ``second``
        (the same cell twice removes it); ``ValueError`` naming the cell and the rule when it cannot be."""
        raise ValueError(f"{code!r} is not placed by two clicks in {self.title}")

    def edit_clear(self, data: dict[str, Any]) -> dict[str, Any]:
        """Every piece off the edited position (a blank board to build a problem on). Default: the ``pieces`` map
        emptied cell by cell through ``edit_cell``."""
        for cell in list((data.get("pieces") or {}).keys()):
            data = self.edit_cell(data, str(cell), "")
        return data

    def edit_cell(self, data: dict[str, Any], cell: str, code: str,
                  options: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The position editor's one hook: the position ``data`` (``to_dict`` form) with ``code`` (an
        ``edit_palette`` code; "" empties) set on the cell named ``cell``, with ``options`` (``edit_options``'
        values). Default: the ``pieces`` map (cell name -> code). ``state_from_dict`` judges the result (each
        edit, and when the editor is done); a ``ValueError`` here names the cell and the rule."""
        pieces = dict(data.get("pieces") or {})
        if code:
            pieces[cell] = code
        else:
            pieces.pop(cell, None)
        return {**data, "pieces": pieces}

    def edit_to_move(self, data: dict[str, Any], player: int) -> dict[str, Any]:
        """The edited position with seat ``player`` to move (default: ``to_move`` = the seat's name)."""
        rules = data.get("rules")
        try:
            info = self.info(self.rules(rules) if isinstance(rules, Mapping) else None)
        except (ValueError, TypeError):
            info = self.info(None)
        if not 0 <= player < info.num_players:
            raise ValueError(f"there is no seat {player} in {self.title}")
        return {**data, "to_move": info.players[player]}

    def scenario(self, data: Mapping[str, Any], where: str) -> ScenarioCase:
        """A parsed scenario file (``game:`` names this game) as a runnable case; ``ScenarioError`` if bad."""
        raise NotImplementedError(f"{self.name} has no scenario files")

    def score_words(self, score: float, state: State, player: int) -> str:
        """An agent's score of ``state`` (``player``'s view, the seat to move) in words, where the game's own agents
        mark a forced result in their scores (TerraFeud's ``White wins by force (the game ends within 7 plies)``);
        "" (the default) lets the board say it (``+1.50 coins for Red: Red is better by 1.50``)."""
        return ""

    def describe_check(self, case: ScenarioCase, index: int, result: Any) -> dict[str, Any] | None:
        """Check ``index`` of a loaded scenario in words for the board's panel: ``{"status", "asserts",
        "message", "play"}``; ``status`` is ``empty`` for a check that asserts nothing (never a pass); ``play``
        (action texts) is the line the board steps through. None: the result's status and message only."""
        return None

    def card_patterns(self, card: str, rules: Rules | None = None) -> Sequence[Pattern]:
        """The pattern diagrams of a purchasable card (``State.action_card``'s ``pattern`` key): base, then levels;
        the board's card palette draws the first. None by default."""
        return ()

    def scenario_state(self, case: ScenarioCase) -> State:
        """A loaded scenario's start as a protocol ``State`` (the board shows it); a game whose own scenario
        dialect starts from its engine's state wraps it here."""
        state: State = case.initial_state()
        return state

    def dump_scenario(self, state: State, id: str, title: str, checks: Sequence[Mapping[str, Any]] = ()) -> str:  # noqa: A002
        """A state written back as a scenario file (the board's editor and the round trip)."""
        raise NotImplementedError

    def cell_spec(self, rules: Rules) -> tuple[str, dict[str, Any]] | None:
        """A grid cell as simulate's specs carry it: its label (the ``cell`` column, the run record) and its rules
        as plain data (``GameSpec.rules``, what ``play_row`` reads back), or None (the default): ``rules.label()``
        (``default`` for the rulebook's rules) and the values that differ from the defaults."""
        return None

    def play_row(self, spec: Any, agents: SeatAgents) -> Any:
        """One game of a simulate spec played and written by the game itself: a ``GameResult`` (its row and
        events, never raising for a failure inside the game), or None (the default): simulate's own loop plays
        it ply by ply with ``game_row``/``event_row``. A game whose rows follow from the whole game (piece
        losses, evaluation swings) and whose native core plays whole games declares it; simulate still makes
        the cells, seeds, specs, checks, files and tables."""
        return None

    def blank_row(self, spec: Any) -> dict[str, Any] | None:
        """The row of a game of ``play_row`` that could not be played at all (its worker kept dying), before
        simulate marks it an error; None (the default) for games of simulate's own loop."""
        return None

    def check_cell(self, spec: Any, agents: SeatAgents) -> None:
        """Checks of a grid cell beyond simulate's (its start builds, every seat's agent builds), on the cell's
        first spec before any game; ``ValueError`` says why. Nothing by default."""
        return None

    def row_rules(self, row: Mapping[str, Any]) -> dict[str, Any] | None:
        """The rules of a games-table row, for replaying it (``simulate.replay_game``); None (the default):
        the row's ``rules`` label."""
        return None

    def game_row(self, state: State) -> dict[str, Any]:
        """Extra columns of this game for a finished game's row (victory kind, HP left, ...)."""
        return {}

    def event_row(self, state: State, action: Any) -> dict[str, Any]:
        """Extra columns for one event row (called before ``action`` is applied)."""
        return {}

    def rule_words(self) -> dict[str, str]:
        """Rule-usage counter name -> a designer's words for it."""
        return {}

    def perft_table(self) -> list[dict[str, Any]]:
        """Stored perft rows for ``perft --check``: ``{"rules", "seed", "counts": [depth 1, 2, ...],
        "native_counts": [deeper counts checked on the native core only]}``; none by default."""
        return []

    def rules_table(self, markdown: bool = True) -> str:
        """Every rule toggle and parameter as a table (``python -m workbench rules --game NAME``, the rulings doc)."""
        from .rulespec import spec_table

        return spec_table(self.spec, markdown=markdown)

    def grid_values(self, key: str, value: Any) -> list[Any] | None:
        """A grid shorthand: one value of ``--grid KEY=VALUE`` expanded into several (The Cursed Lands'
        ``factions=all``), or None when ``value`` is an ordinary value (the default)."""
        return None

    def game_agents(self) -> Mapping[str, Callable[..., Any]]:
        """This game's own protocol agents: name -> factory(seed=, game=, rules=, **params); none by default.

        ``workbench.agents.generic.make_protocol_agent`` (so simulate, the ladder, tune, the studies and the board)
        builds them by name, each agent handed the protocol's ``State``. A new name stands beside the generic agents
        (Pole's section-15 ``turtle``); a generic name is this game's own agent of that name for this game
        (TerraFeud's tuned ``alphabeta``), and ``generic-<name>`` (``core.agents.GENERIC_PREFIX``) stays the
        generic one. Restricted play (``bar=``) bars the generic agents, and learned weights (``eval=``) are theirs
        (a game's own agent refuses them). Their native twins are the seat agents of ``native.agent``.
        """
        return {}

    def evaluation_features(self, state: State, player: int) -> Mapping[str, float] | None:
        """The terms of this game's evaluation from ``player``'s side, by name: material per piece kind or
        card (own count minus the enemy's) and the game's positional terms, each as the evaluation reads it.

        ``workbench learn`` fits their weights to a variant's self-play (``workbench.study.learn``) and the
        generic agents search with the fitted weights (``alphabeta:eval=NAME.json``). None: not declared."""
        return None

    def evaluation_weights(self, rules: Rules | None = None) -> Mapping[str, float]:
        """The hand weights of ``evaluation_features`` under ``rules``, in the game's evaluation unit (a piece's
        cost, a castle HP): what a learned value is set against. Empty when no features are declared."""
        return {}

    def report_location_maps(self, games: Any, locations: Mapping[str, Mapping[str, int]], titles: Sequence[str],
                             per: int) -> tuple[str, bytes] | None:
        """The report's "where rules fire" maps drawn on the game's own board: ``(words naming the board, PNG)``;
        None (the default) lets the report draw them on ``layout()`` (counts by cell name or id, ``per`` games)."""
        return None

    def report_sections(self, games: Any, events: Any = None) -> list[Any]:
        """Balance-report sections only this game has (a faction matrix, luck, piece economy); none by default.

        ``games`` and ``events`` are the report's tables (pandas frames; ``events`` may be None). A game
        returns ``ReportPart``s (plain data: sentences, table rows, cell maps the report draws on the
        game's board, PNG figures) or dicts ``{"title", "markdown", "html", "figures"}`` built with the
        tools' helpers imported inside the method; the report places them after its generic sections.
        """
        return []


@dataclass
class Record:
    """A played game as data: game, rules, seed, start position, actions in notation, result."""

    game: str
    rules: dict[str, Any]
    seed: int
    actions: list[str]
    start: dict[str, Any] | None = None
    result: dict[str, Any] = field(default_factory=dict)
    version: int = 1
