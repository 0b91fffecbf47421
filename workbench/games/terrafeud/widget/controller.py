"""What a click on TerraFeud's board does: the HexBoard widget's logic, in plain Python.

The widget's JavaScript only draws ``BoardController.view()`` and reports clicks and button
presses; every decision (which hexes light up, which action a click plays, promotion and Order
choices, undo/redo, the agent's reply, the position editor) is made here, so it is tested
without a browser. The controller never re-implements a rule: legality, reasons and notation
come from the engine (``legal_actions``, ``illegal_detail``, ``action_to_string``), and so do a
move's consequences (``analysis.action_effects``) and a threat's attackers (``analysis.attackers``).
The game lives in a ``VariationTree`` (the boards' shared ``workbench.widget.tree``): playing from an earlier move adds a variation,
and every click costs a window of the move list, whatever the game's length.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from workbench.games.terrafeud.engine import (
    CASTLE,
    MOVE,
    ORDER,
    PASS,
    SHOT,
    Action,
    GameState,
    IllegalActionError,
    RulesConfig,
    explain_illegal,
    hex_name,
    load_record,
    make_game,
    parse_hex,
    state_from_dict,
    state_to_dict,
)
from workbench.games.terrafeud.engine.analysis import attackers, detached, effects_between, effects_of_actions
from workbench.games.terrafeud.engine.geometry import CAVALRY_PATHS, DISTANCE, HEXES, RAYS
from workbench.games.terrafeud.engine.notation import illegal_detail
from workbench.games.terrafeud.engine.pieces import (
    ARCHER,
    CAVALRY,
    FEUDAL,
    KIND_NAMES,
    KNIGHT,
    SIDE_NAMES,
    letter,
    parse_letter,
    side_index,
)
from workbench.games.terrafeud.engine.rules import parse_pairs
from workbench.widget.common import (  # noqa: F401 - re-exported: the names older code imports from here
    _CATALOG,
    AGENT_CLOCKED,
    AGENT_INTS,
    AGENT_LIMITS,
    AGENT_SECONDS,
    AGENT_WORDS,
    MAX_FILE_BYTES,
    SCENARIO_ROOT,
    WidgetError,
    _agent_names,
    _entry,
    _num,
    _optional,
    _short,
    _verdict_of,
    capped_agent_spec,
    read_small_file,
)
from workbench.widget.tree import MAX_NESTING, SNAPSHOT_EVERY, Node, VariationTree

# How a lit hex looks: the JavaScript maps each class to a style (and the legend explains each).
TARGET_CLASSES = ("move", "attack", "stop", "mine", "shot", "castle", "order")
# Drawn layers a designer switches on and off; any number may be on at once.
OVERLAYS = ("zones", "markers", "aura", "last")
# Heat maps colour whole hexes, so at most one is drawn (the panel offers them as one choice).
HEATS = ("zone_control", "threat")
START_TOGGLES = ("season", "hill", "swamp", "terrain")
MESSAGE_LEVELS = ("info", "warning", "error")

# The agent the panel proposes and the evaluation uses (one place to change the default strength).
GAME_NAME = "terrafeud"  # the game this board plays: its own scenario files (and those naming no game)
DEFAULT_AGENT = "search:seconds=2"  # beats alphabeta:depth=3,nodes=6000 (the old default) on the ladder
# The move list the page gets: this many rows before and after the current move (Home/End reach the rest).
ROWS_BEFORE, ROWS_AFTER = 150, 150
MOVES_SHOWN = 500  # view["moves"]: the last this many moves of the path here
NEAR = 2 * SNAPSHOT_EVERY  # a jump of more plies than this rebuilds from the nearest snapshot instead of undoing
EVAL_GRAPH_POINTS = 240  # the evaluation graph's points, whatever the game's length
SWING = 1.0  # an evaluation change of this many material units (an infantryman) in one move is marked on the graph
STATIC_EVALS_UP_TO = 3000  # a loaded record's moves get static evaluations when it is at most this long
SHAPE_COLOURS = ("green", "red", "blue", "yellow")
MAX_SHAPES = 60  # drawings on one position
MAX_PASTE_MOVES = 2000






def fresh_seed() -> int:
    """A new terrain seed for a new game (rolled hill and swamp differ from game to game)."""
    return random.SystemRandom().randrange(1_000_000)




class PlayLine(Sequence[GameState]):
    """The states before and after each action of a scenario check's ``play``, made on demand.

    Only the final state (with its undo history) is kept; state ``i`` is a copy of it taken back
    ``plies - i`` actions. A list of copies after every ply copied the whole undo stack each time:
    an uploaded 2,000-action ``play`` took 32 s and 3.2 GB of the kernel.
    """

    def __init__(self, end: GameState, plies: int) -> None:
        self._end, self._plies = end, plies

    def __len__(self) -> int:
        return self._plies + 1

    def __getitem__(self, i: int) -> GameState:  # type: ignore[override]  # no slices needed
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        state = self._end.clone()
        for _ in range(self._plies - i):
            state.undo()
        return state


class BoardController:
    """One board's game, selection and panel state; every user gesture is a method."""

    def __init__(self, state: GameState | None = None) -> None:
        self.state: GameState = state if state is not None else make_game(None, fresh_seed()).new_initial_state()
        self.tree: VariationTree = VariationTree(detached(self.state), self.state.ply)
        self.node: Node = self.tree.root
        self.illegal: dict[str, Any] | None = None  # the last refused click's reason, with the hexes to draw
        self.lines: dict[str, Any] | None = None  # several best lines of the position (continuous analysis)
        self.analysing = False  # continuous analysis switched on
        self.selected: int | None = None
        self.ordering = False  # an Order is being picked click by click
        self.order_steps: list[int] = []  # Order in progress: [a, ta, b, ...] as chosen so far
        self.choices: list[Action] = []  # actions differing only by promotion, awaiting a pick
        self.message = ""
        self.level = "info"  # of the message: info, warning or error (MESSAGE_LEVELS)
        self.overlays: dict[str, bool] = {name: name in ("markers", "last") for name in OVERLAYS}
        self.heat: str | None = None  # one of HEATS, or None
        self.heat_side = 0  # zone_control: whose zones; threat: whose pieces attack
        self.flipped = False  # Black at the bottom
        self.analysis: dict[str, Any] | None = None  # the agent's evaluation of the position shown
        self.show_evals = False  # per-move evaluations in the move list (agent games, loaded records)
        self.diff: dict[str, Any] | None = None  # what changes under another rule value
        self.scenario_checks: list[dict[str, Any]] = []
        self.scenario: Any = None
        self.agent: Any = None
        self.agent_name: str | None = None
        self.agent_side: int | None = None
        self.scenario_title: str | None = None
        self.scenario_states: Sequence[GameState] = []
        self.scenario_index = 0
        # Position editor.
        self.editing = False
        self.edit_piece = "I"  # a piece letter, "" to remove, or "marker" to set archer markers
        self.edit_pieces: dict[int, int] = {}
        self.edit_markers: dict[int, int] = {}
        self.edit_to_move = 0
        self.edit_archer: int | None = None
        self._adopt(self.state)

    def say(self, text: str, level: str = "info") -> None:
        """Show ``text`` in the panel as info, a warning (a refused click) or an error (a bad file)."""
        self.message = text
        self.level = level

    def warn(self, text: str) -> None:
        """A gesture the rules or the board refuse: shown in the warning colour."""
        self.say(text, "warning")

    def error(self, text: str) -> None:
        """A failure (bad file, bad value): shown in the error colour."""
        self.say(text, "error")

    def clear_message(self) -> None:
        """Drop a message that no longer applies (every new gesture starts clean), and the refused move's marks."""
        self.say("")
        self.illegal = None

    # ------------------------------------------------------------------ playing
    def targets(self, h: int) -> dict[int, str]:
        """Lit hexes for the piece on ``h``: final hex -> class (see ``TARGET_CLASSES``)."""
        st = self.state
        c = st.squares[h]
        if not c or c >> 3 != st.to_move or st.is_terminal():
            return {}
        s = st.to_move
        enemy_zone = st.zone(1 - s)
        mines = st.marked_by(1 - s)
        out: dict[int, str] = {}
        for a in st.legal_actions():
            if a[0] == MOVE and a[1] == h:
                out[a[2]] = self._move_class(h, a[2], c, enemy_zone, mines)
            elif a[0] == SHOT and a[1] == h:
                out[a[2]] = "shot"
            elif a[0] == CASTLE and a[1] == h:
                out[a[2]] = "castle"
        return out

    def _move_class(self, h: int, t: int, c: int, enemy_zone: set[int], mines: set[int]) -> str:
        """``attack`` onto an enemy, ``mine`` onto an enemy marker, ``stop`` where W2 cut a move short."""
        st = self.state
        if st.squares[t]:
            return "attack"
        if t in mines:
            return "mine"
        s, kind = c >> 3, c & 7
        if kind == KNIGHT:
            for ray in RAYS[h]:
                if t in ray:
                    i = ray.index(t)
                    after_bridge = i > 0 and st.board.is_bridge[ray[i - 1]] and getattr(st.rules, "knight_bridge_stop", True)
                    if after_bridge or t in enemy_zone or st.board.stop_for[s][t]:
                        return "stop"
        elif kind == CAVALRY:
            landings = {land for land, _ in CAVALRY_PATHS[h]}
            if t not in landings or st.board.cavalry_stop_for[s][t]:
                return "stop"
        return "move"

    def order_actions(self) -> list[Action]:
        """Legal Orders that extend the steps picked so far."""
        steps = self.order_steps
        n = len(steps)
        # pick j is field 1 + 3*(j // 2) + j % 2 of the action (Orders have order_size steps of 3 fields)
        return [a for a in self.state.legal_actions()
                if a[0] == ORDER and len(a) >= 1 + 3 * ((n + 1) // 2)
                and [a[_order_field(j)] for j in range(n)] == steps]

    def can_order(self) -> bool:
        """Whether the selected feudal may give an Order now (W12)."""
        return (
            self.selected is not None
            and self.selected == self.state.feudal[self.state.to_move]
            and any(a[0] == ORDER for a in self.state.legal_actions())
        )

    def start_order(self) -> None:
        """Begin an Order: the next clicks pick two infantry and one step for each."""
        if not self.can_order():
            rules = self.state.rules
            size, radius = getattr(rules, "order_size", 2), getattr(rules, "order_radius", 2)
            self.warn(f"an Order needs the feudal selected and {size}+ own infantry within distance {radius} of it (W12)")
            return
        self.ordering = True
        self.order_steps = []
        self.choices = []
        self.say("Order: click the first infantryman")

    def _order_click(self, h: int) -> None:
        """One click of an Order in progress: infantryman, step, infantryman, step."""
        options = self.order_actions()
        n = len(self.order_steps)
        picks = 2 * max(1, getattr(self.state.rules, "order_size", 2))
        allowed = {a[_order_field(n)] for a in options if len(a) > _order_field(n)}
        if h not in allowed:
            what = "step for it" if n % 2 else ("first infantryman" if n == 0 else "next infantryman")
            legal = ", ".join(sorted(hex_name(x) for x in allowed))
            self.warn(f"Order: {hex_name(h)} is not a legal {what}; legal: {legal}")
            return
        self.order_steps.append(h)
        if len(self.order_steps) < picks:
            self.say("Order: click " + ("its step" if len(self.order_steps) % 2 else "the next infantryman"))
            return
        self._play_or_choose(self.order_actions())

    def click(self, h: int | str) -> None:
        """A click on hex ``h`` (index or name): select, play, or edit, as the mode requires."""
        h = parse_hex(h) if isinstance(h, str) else int(h)
        if self.editing:
            self._edit_click(h)
            return
        st = self.state
        if st.is_terminal():
            self.warn(f"the game is over: {self.result_text()}")
            return
        if self.choices:
            self.warn("choose the piece to promote to first (or undo the selection by clicking it)")
            self.choices = []
        if self.ordering:
            self._order_click(h)
            return
        c = st.squares[h]
        if self.selected is None or (c and c >> 3 == st.to_move and h not in self.targets(self.selected)):
            if h == self.selected:
                self.selected = None
                self.clear_message()
                return
            self._select(h)
            return
        if h == self.selected:
            self.selected = None
            self.clear_message()
            return
        frm = self.selected
        matching = [
            a
            for a in st.legal_actions()
            if (a[0] == MOVE and a[1] == frm and a[2] == h) or (a[0] in (SHOT, CASTLE) and a[1] == frm and a[2] == h)
        ]
        if not matching:
            # An archer reaches hexes beyond its neighbours only by a shot (W8): explain that action.
            detail = self._reason(frm, h)
            self.warn(detail["text"])
            self.illegal = _named(detail)
            self.selected = None
            return
        self._play_or_choose(matching)

    def _reason(self, frm: int, h: int) -> dict[str, Any]:
        """Why the piece on ``frm`` cannot go to ``h``: the engine's first failing rule, its blocking hexes and path."""
        st = self.state
        shot = st.squares[frm] & 7 == ARCHER and DISTANCE[frm][h] >= 2
        return illegal_detail(st, (SHOT, frm, h) if shot else (MOVE, frm, h, 0))

    def reasons(self) -> dict[str, dict[str, Any]]:
        """For the selected piece, every hex it cannot reach, with the one-line reason (hovering an unlit hex)."""
        if self.selected is None or self.editing or self.ordering or self.state.is_terminal():
            return {}
        lit = self.targets(self.selected)
        out = {}
        for h in HEXES:
            if h == self.selected or h in lit:
                continue
            detail = self._reason(self.selected, h)
            text = detail["text"].split(": ", 1)[-1]
            out[hex_name(h)] = {"text": text, **{k: v for k, v in _named(detail).items() if k != "text" and v}}
        return out

    def previews(self) -> dict[str, dict[str, Any]]:
        """For each lit hex of the selected piece, what the move there would do (the engine plays it on a copy)."""
        if self.selected is None or self.editing or self.ordering:
            return {}
        frm = self.selected
        actions = [a for a in self.state.legal_actions() if a[0] in (MOVE, SHOT, CASTLE) and a[1] == frm]
        out: dict[str, dict[str, Any]] = {}
        for a, eff in zip(actions, effects_of_actions(self.state, actions), strict=True):
            key = hex_name(a[2])
            if key in out and not eff["removed"]:
                continue  # promotion variants: the first says what the move does
            out[key] = _effects_view(eff)
        return out

    def _select(self, h: int) -> None:
        st = self.state
        c = st.squares[h]
        if not c:
            self.warn(f"{hex_name(h)}: no piece there; click a {SIDE_NAMES[st.to_move]} piece")
            self.selected = None
            return
        if c >> 3 != st.to_move:
            self.warn(f"{hex_name(h)}: that is a {SIDE_NAMES[c >> 3]} piece; {SIDE_NAMES[st.to_move]} is to move")
            self.selected = None
            return
        self.selected = h
        lit = self.targets(h)
        if lit or self.can_order():
            self.clear_message()
        else:
            self.warn(f"{hex_name(h)}: this {KIND_NAMES[c & 7]} has no legal action")

    def _play_or_choose(self, actions: list[Action]) -> None:
        """Play the one action, or ask which promotion (W13) when several differ only by it."""
        if len(actions) == 1:
            self.play_action(actions[0])
        else:
            self.choices = sorted(actions)
            self.say("promotion: choose the destroyed piece to take")

    def choose(self, index: int) -> None:
        """Pick one of the pending promotion choices (index into ``choices``)."""
        if not 0 <= index < len(self.choices):
            self.warn(f"no promotion choice {index}; there are {len(self.choices)}")
            return
        self.play_action(self.choices[index])

    def cancel(self) -> None:
        """Drop the selection, a pending Order or promotion choice."""
        self.selected = None
        self.ordering = False
        self.order_steps = []
        self.choices = []
        self.clear_message()

    def play_action(self, action: Action) -> None:
        """Play a legal action: a new move, or a variation when played from an earlier position.

        The later moves stay in the tree (lichess keeps variations); then the agent answers if it is its turn.
        """
        if action not in self.state.legal_actions():
            self.warn(explain_illegal(self.state, action) if self.state.victory is None else f"the game is over: {self.result_text()}")
            return
        self._advance(action)
        self.cancel()
        self.agent_move()

    def _advance(self, action: Action, score: tuple[float, str] | None = None) -> Node:
        """Apply a legal action on the live state and step to its node (made if new, with the engine's effects)."""
        st = self.state
        parent = self.node
        existing = next((c for c in parent.children if c.action == action), None)
        if existing is not None:
            st.apply(action, check=False)
            parent.last = existing
            self.node = existing
            if score is not None:
                existing.score = score
            return existing
        text = st.action_to_string(action)
        before, markers, side = st.squares[:], [dict(st.markers[0]), dict(st.markers[1])], st.to_move
        st.apply(action, check=False)
        node, _ = self.tree.add(parent, action, text)
        self._fill(node, before, markers, side)
        node.score = score
        self.node = node
        return node

    def _fill(self, node: Node, before: list[int], markers: list[dict[int, int]], side: int, static: bool = True) -> None:
        """A new node's effects (from the engine's own play), static evaluation and snapshot."""
        st = self.state
        node.effects = effects_between(before, markers, node.action, st, side)
        node.to_move = st.to_move
        if static:
            node.static = _static_eval(st)
        if (node.ply - self.tree.root.ply) % SNAPSHOT_EVERY == 0:
            node.snapshot = detached(st)

    def _adopt(self, state: GameState) -> None:
        """Make ``state`` the board's game: its history becomes the tree's main line (undo walks back through it).

        One backward pass over a copy: each action's text and effects are read where it was played,
        so a loaded 20,000-ply record is prepared once and every later click stays cheap.
        """
        self.state = state
        history = list(state.history)
        work = state.clone()  # once per adopted game; its undo walks back through the history
        n = len(history)
        static = n <= STATIC_EVALS_UP_TO
        step = max(1, n // EVAL_GRAPH_POINTS)
        infos: list[tuple[Any, ...]] = [None] * n  # type: ignore[list-item]
        snaps: dict[int, GameState] = {}
        root_ply = state.ply - n
        for i in range(n - 1, -1, -1):
            after = _After(work)
            value = _static_eval(work) if static or i % step == 0 or i == n - 1 else None
            if (work.ply - root_ply) % SNAPSHOT_EVERY == 0:
                snaps[i] = detached(work)
            action = work.undo()
            side = work.to_move
            text = work.action_to_string(action)
            before, markers = work.squares[:], [dict(work.markers[0]), dict(work.markers[1])]
            infos[i] = (action, text, after, value, before, markers, side)
        self.tree = VariationTree(detached(work), work.ply)
        node = self.tree.root
        for i, (action, text, after, value, before, markers, side) in enumerate(infos):
            node, _ = self.tree.add(node, action, text)
            node.effects = effects_between(before, markers, action, after, side)
            node.static = value
            node.snapshot = snaps.get(i)
            node.to_move = after.to_move
        self.tree.root.to_move = work.to_move
        self.tree.root.static = _static_eval(work)
        self.node = node
        if self.tree.root.ply == state.ply:
            self.tree.root.snapshot = detached(state)

    def resync(self) -> None:
        """After the state was changed from Python (``board.state.apply(...)``): take its history as the game.

        Moves the tree already holds are reused (the state went back or forward along a known line);
        anything else makes the state's history the main line again.
        """
        st = self.state
        node = self.node
        if node.ply == st.ply and (node.action is None or (st.history and st.history[-1] == node.action)):
            return
        history = st.history
        known = self.tree.root
        start = st.ply - len(history)
        if start == known.ply:
            ok = True
            for a in history:
                nxt = next((c for c in known.children if c.action == a), None)
                if nxt is None:
                    ok = False
                    break
                known = nxt
            if ok:
                self.node = known
                return
        self._adopt(st)

    def _state_at(self, target: Node) -> GameState:
        """A fresh state at ``target``: its nearest snapshot, then at most SNAPSHOT_EVERY actions."""
        path = []
        base = target
        while base.snapshot is None:
            path.append(base)
            base = base.parent  # the root always has one
        st = base.snapshot.clone()
        for node in reversed(path):
            st.apply(node.action, check=False)
        return st

    def _move_to(self, target: Node) -> None:
        """Show ``target``: undo and replay along the tree when it is near, else rebuild from a snapshot."""
        cur = self.node
        if target is cur:
            return
        a, b = cur, target
        ups, downs = 0, []
        while a.ply > b.ply:
            a, ups = a.parent, ups + 1
        while b.ply > a.ply:
            downs.append(b)
            b = b.parent
        while a is not b:
            a, ups = a.parent, ups + 1
            downs.append(b)
            b = b.parent
        downs.reverse()
        st = self.state
        if ups <= len(st.history) and ups + len(downs) <= NEAR:
            for _ in range(ups):
                st.undo()
            for node in downs:
                st.apply(node.action, check=False)
        else:
            self.state = self._state_at(target)
        for node in downs:
            node.parent.last = node
        self.node = target
        if target.static is None:
            target.static = _static_eval(self.state)

    def play(self, text: str) -> None:
        """Play an action given in notation (``f3-f7``, ``d2*d4``, ``order e3-e4 g3-g4``)."""
        try:
            action = self.state.parse_action(text)
        except IllegalActionError as exc:
            self.warn(str(exc))
            return
        self.play_action(action)

    def pass_turn(self) -> None:
        """Pass, which the engine allows only when nothing else is legal (W16)."""
        self.play_action((PASS,))

    def undo(self) -> None:
        """One move back (to the human's turn when an agent plays the other side); the move stays in the tree."""
        node = self.node
        if node.parent is None:
            self.warn("nothing to undo")
            return
        node = node.parent
        while self.agent is not None and node.parent is not None and node.to_move == self.agent_side:
            node = node.parent
        self._move_to(node)
        self.cancel()

    def redo(self) -> None:
        """One move forward along the line (the variation visited last, else the main line)."""
        node = self.node.next()
        if node is None:
            self.warn("nothing to redo")
            return
        while self.agent is not None and node.next() is not None and node.to_move == self.agent_side:
            node = node.next()
        self._move_to(node)
        self.cancel()

    def goto(self, ply: int) -> None:
        """Jump to the position after ``ply`` actions of the line shown (the path here and where it goes on).

        Like clicking a move on lichess: nothing is lost; the agent does not answer until a new move is played.
        """
        ply = int(ply)
        node = self.node
        if ply <= node.ply:
            node = self.tree.ancestor_at(node, ply)
        else:
            while node.ply < ply and node.next() is not None:
                node = node.next()
        self._move_to(node)
        self.cancel()

    def goto_node(self, node_id: int) -> None:
        """Show the position after one move of the list (any variation's); an unknown id is refused."""
        node = self.tree.get(int(node_id))
        if node is None:
            self.warn("that move is no longer in the list")
            return
        self._move_to(node)
        self.cancel()

    def nav(self, where: str, count: int = 1) -> None:
        """Keys: ``back``/``forward`` ``count`` moves (presses that queued up come as one), ``home``, ``end``."""
        if where == "home":
            self._move_to(self.tree.root)
        elif where == "end":
            self._move_to(self.tree.line_end(self.node))
        elif where in ("back", "forward"):
            node = self.node
            for _ in range(max(1, int(count))):
                step = node.parent if where == "back" else node.next()
                if step is None:
                    break
                node = step
            self._move_to(node)
        else:
            raise WidgetError(f"unknown move-list key {where!r}")
        self.cancel()

    def promote(self, node_id: int | None = None) -> None:
        """Promote the variation holding the move (the current one by default) one level toward the main line."""
        node = self.tree.get(int(node_id)) if node_id is not None else self.node
        if node is None:
            self.warn("that move is no longer in the list")
            return
        fork = self.tree.promote(node)
        if fork is None:
            self.warn("this move is already on the main line")
            return
        self.say(f"variation promoted: it now continues the line after {'the start' if fork.parent is None else fork.text}"
                 + (" (main line)" if node.is_main() else ""))

    def delete_variation(self, node_id: int | None = None) -> None:
        """Delete a move and everything after it (the current move by default); the board steps back if it was there."""
        node = self.tree.get(int(node_id)) if node_id is not None else self.node
        if node is None or node.parent is None:
            self.warn("pick a move to delete")
            return
        inside = self.tree.ancestor_at(self.node, node.ply) is node if self.node.ply >= node.ply else False
        if inside:
            self._move_to(node.parent)
        self.tree.delete(node)
        self.cancel()
        self.say(f"deleted {node.text} and the moves after it")

    def to_main_line(self) -> None:
        """Return from a variation to the main line, at the move where the variation left it."""
        node = self.node
        while not node.is_main():
            node = node.parent
        self._move_to(node)
        node.last = None  # → goes on along the main line from here
        self.cancel()

    # ------------------------------------------------------------------ drawings, drag and drop, text
    def shape(self, a: int | str, b: int | str | None = None, colour: str = "green") -> None:
        """Right-click: a circle on ``a``; right-drag: an arrow ``a`` to ``b``. Drawing the same again removes it."""
        if colour not in SHAPE_COLOURS:
            raise WidgetError(f"shape colour must be one of {', '.join(SHAPE_COLOURS)}")
        a = hex_name(parse_hex(a) if isinstance(a, str) else int(a))
        shapes = self.node.shapes
        if b is None or b == a:
            item, kind = [a, colour], "circles"
        else:
            b = hex_name(parse_hex(b) if isinstance(b, str) else int(b))
            item, kind = [a, b, colour], "arrows"
        items = shapes.setdefault(kind, [])
        same = [x for x in items if x[:-1] == item[:-1]]
        for x in same:
            items.remove(x)
        if not same or same[0][-1] != colour:
            if sum(len(v) for v in shapes.values()) >= MAX_SHAPES:
                self.warn(f"at most {MAX_SHAPES} drawings on one position")
                return
            items.append(item)
        if not items:
            shapes.pop(kind, None)

    def clear_shapes(self) -> None:
        """Remove this position's arrows and circles."""
        self.node.shapes = {}

    def drag(self, a: int | str, b: int | str) -> None:
        """Drag and drop: the same as clicking the piece, then the hex it was dropped on."""
        a = parse_hex(a) if isinstance(a, str) else int(a)
        b = parse_hex(b) if isinstance(b, str) else int(b)
        if self.editing or self.ordering:
            self.click(a)
            self.click(b)
            return
        self.selected = None
        self._select(a)
        if self.selected == a and a != b:
            self.click(b)

    def copy_text(self, what: str) -> str:
        """The move list (the line to this position, in the project's notation) or the position as JSON."""
        if what == "moves":
            texts = []
            node = self.node
            while node.parent is not None:
                texts.append(node.text)
                node = node.parent
            return " ".join(reversed(texts))
        if what == "position":
            return json.dumps(state_to_dict(self.state), indent=1)
        raise WidgetError("copy 'moves' or 'position'")

    def paste_text(self, text: str) -> None:
        """Paste a position (JSON, as Copy gives it) or a move list (``f3-f5 f9-f7``) played from the start.

        A move list is read by the engine move by move; the first one it refuses is named with its rule.
        """
        text = text.strip()
        if not text:
            self.warn("paste a position (JSON) or a move list such as f3-f5 f9-f7")
            return
        if text.startswith("{"):
            try:
                state = state_from_dict(json.loads(text))
            except (ValueError, TypeError, KeyError, AttributeError) as exc:
                raise WidgetError(_short(f"pasted position: {exc}")) from None
            self._set_state(state)
            self.say("pasted position ready")
            return
        moves = split_moves(text, getattr(self.state.rules, "order_size", 2))
        if len(moves) > MAX_PASTE_MOVES:
            raise WidgetError(f"a pasted move list may hold at most {MAX_PASTE_MOVES} moves")
        self._move_to(self.tree.root)
        for i, move in enumerate(moves, start=1):
            try:
                action = self.state.parse_action(move)
            except IllegalActionError as exc:
                self.cancel()
                self.warn(_short(f"pasted move {i}: {exc}"))
                return
            self._advance(action)
        self.cancel()
        self.say(f"pasted {len(moves)} moves from the start (kept as a line of the tree)")

    def _to_move(self) -> int:
        """The side to move, asked of the state (a turn may one day hold several actions)."""
        return self.state.current_player() if not self.state.is_terminal() else self.state.to_move

    # ------------------------------------------------------------------ games, agents, files
    def new_game(self, seed: int | None = None, **toggles: Any) -> None:
        """A new game with any toggles or parameters; ``seed=None`` draws fresh rolled terrain."""
        try:
            rules = RulesConfig.from_dict({k: v for k, v in toggles.items() if v is not None})
        except ValueError as exc:
            self.error(str(exc))
            return
        if seed is None:
            seed = fresh_seed()
        try:  # a start= file that does not load, or whose position fails under these rules
            state = make_game(rules, seed).new_initial_state()
        except ValueError as exc:
            self.error(str(exc))
            return
        self._set_state(state)
        self.say(f"new game: {self.rules_summary()['text']} · terrain seed {seed}")
        self.agent_move()

    def set_state(self, state: GameState) -> None:
        """Show another game state (a scripted position, a simulation's game); the agent moves if it is its turn."""
        self._set_state(state)
        self.agent_move()

    def _set_state(self, state: GameState) -> None:
        self._adopt(state)
        self.analysis = None
        self.lines = None
        self.scenario_source = None
        self.scenario_states = []
        self.scenario_title = None
        self.scenario_checks = []
        self.scenario = None
        self.editing = False
        self.show_evals = self.agent is not None
        self.cancel()

    def set_agent(self, name: str | None, side: int | str = 1, seed: int | None = None) -> None:
        """Let an agent (``workbench.agents.make_agent``) play ``side``; ``None`` for two humans.

        The human's side goes to the bottom of the board (Black at the bottom against a White agent).
        """
        if not name:
            was = self.agent_name
            self.agent, self.agent_name, self.agent_side = None, None, None
            self.say(f"{was} stopped; two humans play" if was else "two humans play")
            return
        make_agent = _optional("workbench.agents", "make_agent", "playing against an agent")
        try:
            self.agent = make_agent(name, seed=seed)
        except ValueError as exc:
            raise WidgetError(str(exc)) from None
        self.agent_name = name
        self.agent_side = side_index(side) if isinstance(side, str) else int(side)
        self.flipped = self.agent_side == 0
        self.show_evals = True
        self.say(f"{name} plays {SIDE_NAMES[self.agent_side]}")
        self.agent_move()

    def agent_to_move(self) -> bool:
        """Whether the agent should choose an action now."""
        st = self.state
        return self.agent is not None and not st.is_terminal() and not self.editing and self._to_move() == self.agent_side

    def agent_choose(self) -> tuple[Action, int, int, tuple[float, str]]:
        """The agent's action on a copy of the position, the ply and node id it was chosen for, and its score."""
        st = self.state
        action, score, source = scored_choice(self.agent, detached(st))
        return action, st.ply, id(self.node), (score, source)

    def agent_apply(self, action: Action, ply: int, node_id: int, score: tuple[float, str] | None = None) -> bool:
        """Play an action the agent chose, unless the position changed meanwhile (undo, new game).

        ``score`` (White's view, and its source: see ``scored_choice``) is kept on the move's node: a
        move the agent played shows the agent's own value for it, not a one-ply evaluation.
        """
        st = self.state
        if id(self.node) != node_id or st.ply != ply or not self.agent_to_move():
            return False
        if action not in st.legal_actions():
            self.error(f"{self.agent_name} chose an illegal action: {explain_illegal(st, action)}")
            return False
        text = st.action_to_string(action)
        self._advance(action, score)
        self.cancel()
        self.say(f"{self.agent_name} played {text}")
        return True

    def agent_move(self) -> None:
        """If the agent is to move, let it choose (``agent_runner`` may run it in a thread) and play."""
        if not self.agent_to_move():
            return
        runner = getattr(self, "agent_runner", None)
        if runner is not None:
            runner()
            return
        self.agent_apply(*self.agent_choose())

    def analysis_request(self, spec: str | None = None) -> tuple[Any, str, GameState] | None:
        """What Evaluate searches with: (agent, its spec, a copy of the position), or None when over.

        The agent is the board's own (or ``DEFAULT_AGENT``) with its clock cut to ``EVAL_SECONDS``.
        """
        st = self.state
        if st.is_terminal():
            self.warn("the game is over: nothing to evaluate")
            self.analysis = None
            return None
        make_agent = _optional("workbench.agents", "make_agent", "the evaluation")
        agent_spec = evaluation_spec(spec or self.agent_name or DEFAULT_AGENT)
        try:
            agent = make_agent(agent_spec, seed=0)
        except ValueError as exc:
            raise WidgetError(_short(str(exc))) from None
        return agent, agent_spec, detached(st)

    def analyse(self, spec: str | None = None) -> dict[str, Any]:
        """The agent's evaluation of the position shown and its best action (drawn as an arrow)."""
        request = self.analysis_request(spec)
        if request is None:
            return {}
        agent, agent_spec, st = request
        action, score, source = scored_choice(agent, st)
        return self.set_analysis(st, agent_spec, action, score, source)

    def set_analysis(self, st: GameState, agent_spec: str, action: Action, score: float, source: str) -> dict[str, Any]:
        """Keep a finished evaluation of ``st`` (a copy of the position it was asked for) and say it."""
        how = ("its search's value" if source == "search"
               else "its move, scored by settling the captures that follow (this agent reports no value)")
        self.analysis = {
            "ply": st.ply,
            "key": st.key(),
            "agent": agent_spec,
            "best": st.action_to_string(action),
            "arrows": _action_pairs(action),
            "eval": round(score, 2),
            "source": source,
            "text": f"{describe_score(score, st.ply)} · best: {st.action_to_string(action)} "
                    f"({agent_spec}, {how})",
        }
        self.clear_message()  # the evaluation box shows it, once
        return self.analysis

    def rules_summary(self) -> dict[str, Any]:
        """The active rules in words: season, terrain (hill and swamp with their owners), each non-default rule."""
        st = self.state
        rules = st.rules
        non_default = getattr(rules, "non_default", rules.differences)()
        terrain = st.game.terrain
        parts = []
        for kind, hexes in (("hill", terrain.hills), ("swamp", terrain.swamps)):
            owned = [f"{SIDE_NAMES[s]} {hex_name(h)}" for s, h in enumerate(hexes) if h is not None]
            parts.append(f"{kind}: " + (", ".join(owned) if owned else "off"))
        rest = {k: v for k, v in non_default.items() if k not in ("season", "terrain", "hills", "swamps", "hill", "swamp")}
        items = [f"{k}={_fmt_value(v)}" for k, v in rest.items()]
        text = f"{rules.season} · terrain {rules.terrain} (seed {st.game.seed}) · " + " · ".join(parts)
        return {
            "season": rules.season,
            "terrain": rules.terrain,
            "seed": st.game.seed,
            "hexes": parts,
            "toggles": items,
            "text": text + (" · " + ", ".join(items) if items else " · all other rules as in the rulebook"),
        }

    def compare_toggle(
        self, change: str, check: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """This position's legal actions under another rule value: actions gained and lost, drawn on the board.

        ``check`` vets the parsed change first (the widget refuses rules that name server paths).
        """
        from workbench.games.terrafeud.scenarios.variant import action_diff

        try:
            changes = parse_pairs(change)
            if check is not None:
                changes = check(changes)
            diff = action_diff(self.state, changes)
        except ValueError as exc:
            self.diff = None  # a failed Compare leaves no old diff on screen under the old label
            raise WidgetError(str(exc)) from None
        self.diff = diff
        self.say(f"under {diff['change']}: {len(diff['gained'])} actions gained, {len(diff['lost'])} lost")
        return diff

    # ------------------------------------------------------------------ files (paths only from Python)
    def scenario_files(self) -> list[str]:
        """This game's scenario files, as names relative to ``scenarios/`` (the panel's picker).

        Other games' files (``game: pole`` and the like) share the folder; the board lists only its own.
        """
        if not SCENARIO_ROOT.is_dir():
            return []
        out = []
        for p in sorted(SCENARIO_ROOT.rglob("*.yaml")):
            if p.is_file() and not p.is_symlink():
                entry = _entry(p)
                if entry is not None and entry["game"] in (None, GAME_NAME):
                    out.append(str(p.relative_to(SCENARIO_ROOT)))
        return out

    def scenario_catalog(self, verdicts: bool = False) -> list[dict[str, Any]]:
        """The picker's rows: file, title and (once run) the verdict of its checks, e.g. ``pass 3/3``.

        Titles are read from the files; verdicts come from running each file's checks (``verdicts=True``,
        cached per file and modification time), which the widget does in a thread.
        """
        out = []
        for name in self.scenario_files():
            path = SCENARIO_ROOT / name
            entry = _entry(path)
            if entry is None:
                continue
            if verdicts and entry["verdict"] is None:
                entry["verdict"] = _verdict_of(path)
            out.append({"name": name, "title": entry["title"], "verdict": entry["verdict"]})
        return out

    def catalog_rows(self, refresh: bool = False, verdicts: bool = False) -> list[dict[str, Any]]:
        """The picker's rows, listed once per board (``refresh`` lists the folder again, ``verdicts`` runs the checks)."""
        rows = getattr(self, "_catalog_rows", None)
        if rows is None or refresh or verdicts:
            rows = self.scenario_catalog(verdicts)
            self._catalog_rows = rows
        return rows

    def pick_scenario(self, name: str) -> None:
        """Load a scenario chosen in the picker; only names the picker lists are accepted."""
        if name not in self.scenario_files():
            raise WidgetError("pick a scenario from the list (it holds the project's scenarios/ files)")
        self.load_scenario(SCENARIO_ROOT / name)
        self.scenario_source = name

    def load_scenario(self, path: str | Path) -> None:
        """Show a scenario file's position and its checks (``check`` / ``step`` walk through them)."""
        text = read_small_file(path)
        self.load_scenario_text(text, str(path))
        try:  # a project file keeps its picker name, so the picker shows it
            self.scenario_source = str(Path(path).resolve().relative_to(SCENARIO_ROOT))
        except ValueError:
            pass

    def load_scenario_text(self, text: str, source: str) -> None:
        """Show a scenario given as YAML text (an upload or a file), named ``source`` in errors."""
        load = _optional("workbench.scenarios", "load_scenario_text", "loading a scenario")
        try:
            scenario = load(text, source=source)
            start = scenario.initial_state()
            results = {r.index: r for r in scenario.run()}
        except (ValueError, RecursionError, MemoryError) as exc:  # ScenarioError names file and line
            raise WidgetError(_short(str(exc) if not isinstance(exc, RecursionError) else f"{source}: nested too deeply")) from None
        self._set_state(start)
        self.scenario_source = source  # the picker shows the file this came from (an upload is not a listed file)
        self.scenario = scenario
        self.scenario_title = str(scenario.title)
        self.scenario_checks = [describe_check(check, results.get(check.index)) for check in scenario.checks]
        if 0 in results and not results[0].ok:
            self.scenario_checks.insert(0, {"index": 0, "line": results[0].line, "status": results[0].status,
                                            "asserts": "the position loads", "message": results[0].message})
        self.scenario_states = [start]
        self.scenario_index = 0
        first_play = next((c for c in scenario.checks if c.play), None)
        if first_play is not None:
            self._check_states(first_play)
        passed = sum(1 for c in self.scenario_checks if c["status"] == "pass")
        empty = sum(1 for c in self.scenario_checks if c["status"] == "empty")
        counted = len(self.scenario_checks) - empty
        self.say(f"scenario: {scenario.title} · {passed} of {counted} checks pass"
                 + (f" · {empty} {'check asserts' if empty == 1 else 'checks assert'} nothing" if empty else ""))

    def _check_states(self, check: Any) -> None:
        from workbench.games.terrafeud.scenarios.checks import play_actions

        end = self.scenario.initial_state()
        before = len(end.history)
        play_actions(check, end, keep_states=False)  # linear: no copy of the undo stack per ply
        self.scenario_states = PlayLine(end, len(end.history) - before)

    def show_check(self, index: int) -> None:
        """Show the position a scenario check is about: its start, stepping through its ``play``."""
        if self.scenario is None:
            self.warn("no scenario loaded")
            return
        check = next((c for c in self.scenario.checks if c.index == index), None)
        if check is None:
            self.warn(f"the scenario has no check {index}")
            return
        title, checks, scenario = self.scenario_title, self.scenario_checks, self.scenario
        self._check_states(check)
        states = self.scenario_states
        self._set_state(states[-1].clone())
        self.scenario_title, self.scenario_checks, self.scenario, self.scenario_states = title, checks, scenario, states
        self.scenario_index = len(states) - 1
        row = next((c for c in checks if c["index"] == index), None)
        if row:
            self.say(f"check {index} ({row['status']}): {row['asserts']}" + (f" — {row['message']}" if row["message"] else ""),
                     "info" if row["status"] == "pass" else "warning")

    def step(self, delta: int) -> None:
        """Move through the loaded scenario's ``play`` (``+1`` forward, ``-1`` back)."""
        if not self.scenario_states:
            self.warn("no scenario loaded")
            return
        i = max(0, min(len(self.scenario_states) - 1, self.scenario_index + delta))
        keep = (self.scenario_title, self.scenario_states, self.scenario_checks, self.scenario)
        self._adopt(self.scenario_states[i].clone())
        self.cancel()
        self.scenario_title, self.scenario_states, self.scenario_checks, self.scenario = keep
        self.scenario_index = i

    def record_dict(self) -> dict[str, Any]:
        """The game as a record: the main line as ``actions``, plus its variations and drawings."""
        from workbench.games.terrafeud.engine.serialize import record_dict

        tree = self.tree
        main = list(tree.main_line())
        end = main[-1] if main else tree.root
        final = self.state if end is self.node else self._state_at(end)
        data = record_dict(tree.root.snapshot, [n.text for n in main], final)
        data.update(tree.to_json())
        return data

    def record_text(self) -> str:
        """The game as JSON record text (for a download, or ``save_record``), variations included."""
        return json.dumps(self.record_dict(), indent=1) + "\n"

    def save_record(self, path: str | Path) -> Path:
        """Write the game as a JSON record; the path comes from Python code, never from the page."""
        out = Path(path)
        out.write_text(self.record_text(), encoding="utf-8")
        self.say(f"saved {out}")
        return out

    def load_record(self, path: str | Path) -> None:
        """Load a record file (Python API): regular files under the size cap only."""
        self.load_record_text(read_small_file(path), str(path))

    def load_record_text(self, text: str, source: str) -> None:
        """Load a record from JSON text; the main line becomes the history (undo walks back), variations and drawings return."""
        try:
            data = json.loads(text)
            state = load_record(data)
        except json.JSONDecodeError as exc:
            raise WidgetError(f"{source}: not a JSON record (line {exc.lineno}: {exc.msg})") from None
        except RecursionError:
            raise WidgetError(f"{source}: nested too deeply for a record") from None
        except (ValueError, TypeError, AttributeError, KeyError) as exc:
            raise WidgetError(_short(f"{source}: {exc}" if source not in str(exc) else str(exc))) from None
        self._set_state(state)
        self.show_evals = True
        extra = self._graft(data, source)
        self.say(f"loaded {source}: {state.ply} plies" + (f", {extra} moves in variations" if extra else ""))

    def _graft(self, data: dict[str, Any], source: str) -> int:
        """Put a record's variations and drawings back on the tree; every variation move is checked by the engine."""
        variations, shapes = data.get("variations"), data.get("shapes")
        if not variations and not shapes:
            return 0
        here = self.node
        main = [self.tree.root, *self.tree.main_line()]
        budget = [MAX_PASTE_MOVES * 10]

        def line(nodes: list[Node], spec: dict[str, Any], depth: int, where: str) -> int:
            count = 0
            marks = spec.get("shapes") or {}
            if not isinstance(marks, dict):
                raise WidgetError(f"{source}: {where}.shapes must be a mapping of move number to drawings")
            for key, value in list(marks.items())[:len(nodes) + 1]:
                if isinstance(key, str) and key.isdigit() and int(key) < len(nodes):
                    nodes[int(key)].shapes = _checked_shapes(value, f"{source}: {where}.shapes.{key}")
            subs = spec.get("variations") or []
            if not isinstance(subs, list) or depth > MAX_NESTING:
                raise WidgetError(f"{source}: {where}.variations must be a list, nested at most {MAX_NESTING} deep")
            for j, var in enumerate(subs):
                name = f"{where}.variations[{j}]"
                if not isinstance(var, dict) or not isinstance(var.get("at"), int) or isinstance(var.get("at"), bool):
                    raise WidgetError(f"{source}: {name} needs 'at' (a move number of its line) and 'moves'")
                at, moves = var["at"], var.get("moves")
                if not 0 <= at < len(nodes) or not isinstance(moves, list) or not moves:
                    raise WidgetError(f"{source}: {name}: 'at' {at} is outside its line, or 'moves' is empty")
                budget[0] -= len(moves)
                if budget[0] < 0:
                    raise WidgetError(f"{source}: too many moves in variations (at most {MAX_PASTE_MOVES * 10})")
                self._move_to(nodes[at])
                made = [nodes[at]]
                for k, move in enumerate(moves, start=1):
                    if not isinstance(move, str) or len(move) > 60:
                        raise WidgetError(f"{source}: {name} move {k} must be action text")
                    try:
                        action = self.state.parse_action(move)
                    except IllegalActionError as exc:
                        raise WidgetError(_short(f"{source}: {name} move {k}: {exc}")) from None
                    made.append(self._advance(action))
                count += len(moves) + line(made, {"shapes": var.get("shapes"), "variations": var.get("variations")},
                                           depth + 1, name)
            return count

        try:
            count = line(main, {"shapes": shapes, "variations": variations}, 0, "record")
        finally:
            self._move_to(here)
        return count

    # ------------------------------------------------------------------ position editor
    def start_editing(self) -> None:
        """Enter the editor with the current position's pieces, markers and side to move."""
        st = self.state
        self.edit_pieces = {h: st.squares[h] for h in st.pieces()}
        self.edit_markers = {**st.markers[0], **st.markers[1]}
        self.edit_to_move = st.to_move
        self.edit_archer = None
        self.editing = True
        self.cancel()
        self.say("editor: pick a piece (or remove / marker) and click hexes; Done plays on, Cancel discards")

    def cancel_editing(self) -> None:
        """Leave the editor and discard its edits: the position is the one before Edit."""
        if not self.editing:
            return
        self.editing = False
        self.edit_pieces, self.edit_markers, self.edit_archer = {}, {}, None
        self.cancel()
        self.say("editor closed; edits discarded")

    def clear_board(self) -> None:
        """Remove every piece and marker in the editor (a blank board to build a problem on)."""
        if not self.editing:
            self.start_editing()
        self.edit_pieces, self.edit_markers, self.edit_archer = {}, {}, None
        self.say("editor: board cleared; place both feudals first")

    def set_edit_piece(self, what: str) -> None:
        """Choose what a click places: a letter (``K`` White, ``k`` Black), ``""`` removes, ``marker``."""
        if what not in ("", "marker"):
            parse_letter(what)  # raises naming the letter
        self.edit_piece = what
        self.edit_archer = None

    def set_edit_to_move(self, side: int | str) -> None:
        """Side to move in the edited position."""
        self.edit_to_move = side_index(side) if isinstance(side, str) else int(side)

    def _edit_click(self, h: int) -> None:
        if self.edit_piece == "marker":
            self._marker_click(h)
            return
        self.edit_markers = {a: t for a, t in self.edit_markers.items() if a != h}
        if self.edit_piece:
            self.edit_pieces[h] = parse_letter(self.edit_piece)
        else:
            self.edit_pieces.pop(h, None)

    def _marker_click(self, h: int) -> None:
        """First click an archer, then the hex it marks (clicking the archer again removes its marker)."""
        c = self.edit_pieces.get(h, 0)
        if self.edit_archer is None:
            if c & 7 != parse_letter("A") & 7:
                self.warn(f"marker: {hex_name(h)} holds no archer; click an archer first")
                return
            self.edit_archer = h
            self.say(f"marker: click the hex the archer on {hex_name(h)} marks")
            return
        a, self.edit_archer = self.edit_archer, None
        if h == a:
            self.edit_markers.pop(a, None)
            self.say(f"marker of {hex_name(a)} removed")
        else:
            self.edit_markers[a] = h
            self.say(f"marker {hex_name(a)} -> {hex_name(h)}")

    def edited_position(self) -> dict[str, Any]:
        """The editor's position as a state dict (the scenario vocabulary), with the game's rules."""
        base = state_to_dict(self.state)
        markers = {
            hex_name(a): hex_name(t) for a, t in sorted(self.edit_markers.items()) if self.edit_pieces.get(a, 0) & 7 == ARCHER
        }
        # As after any action: a marker of the side that just acted on a piece of the side to move is an
        # ultimatum that piece must answer this turn (BOARD-AND-RULINGS.md section 8).
        pending = sorted(
            hex_name(t)
            for a, t in self.edit_markers.items()
            if self.edit_pieces.get(a, 0) >> 3 != self.edit_to_move
            and self.edit_pieces.get(a, 0) & 7 == ARCHER
            and t in self.edit_pieces
            and self.edit_pieces[t] >> 3 == self.edit_to_move
        )
        return {
            "rules": base["rules"],
            "seed": base["seed"],
            "terrain": base["terrain"],
            "to_move": SIDE_NAMES[self.edit_to_move],
            "ultimatum_pending": pending,
            "pieces": {hex_name(h): letter(c) for h, c in sorted(self.edit_pieces.items())},
            "markers": markers,
            "destroyed": base["destroyed"],
            "castled": base["castled"],
        }

    def finish_editing(self) -> bool:
        """Leave the editor and play on from the edited position; False (and a reason) if it is invalid."""
        try:
            state = state_from_dict(self.edited_position())
        except ValueError as exc:
            self.warn(f"editor: {exc}")
            return False
        self._set_state(state)
        self.say("edited position ready")
        self.agent_move()
        return True

    def export_scenario(self, scenario_id: str = "edited-position", title: str | None = None) -> str:
        """The current (or edited) position as scenario YAML with a real title and a ``checks:`` stub."""
        dump = _optional("workbench.games.terrafeud.scenarios", "dump_scenario", "exporting a scenario")
        state = self.state
        if self.editing:
            try:
                state = state_from_dict(self.edited_position())
            except ValueError as exc:
                raise WidgetError(f"editor: {exc}") from None
        if not title:
            summary = self.rules_summary()
            title = f"{SIDE_NAMES[state.to_move].capitalize()} to move, {len(state.pieces())} pieces, {summary['season']}"
        note = "describe what this position shows; then list legal/illegal actions or play and expect"
        stub = [{"note": note, "legal": [], "illegal": []}]
        return dump(state, scenario_id, title, checks=stub)

    # ------------------------------------------------------------------ what the JavaScript draws
    def result_text(self) -> str:
        """``White wins (checkmate)`` and the like, or empty while the game goes on."""
        st = self.state
        if not st.is_terminal():
            return ""
        if st.winner is None:
            return f"game over: {st.victory}"
        return f"{SIDE_NAMES[st.winner].capitalize()} wins ({st.victory})"

    def move_list(self) -> list[str]:
        """The actions played to reach this position, in notation (the last ``MOVES_SHOWN`` of a long game)."""
        texts = []
        node = self.node
        while node.parent is not None and len(texts) < MOVES_SHOWN:
            texts.append(node.text)
            node = node.parent
        return texts[::-1]

    def move_rows(self) -> list[dict[str, Any]]:
        """The move list around the current move: main line and variations (``depth``), with effects and evaluations.

        ``kind``: ``past`` (on the way here), ``current``, ``future`` (where the line goes on) or ``side``
        (another variation). A move an agent played carries the agent's score (``eval_kind`` "search",
        or "settled" for agents that report none: see ``scored_choice``); any other move the static
        evaluation after it ("static"). Only a window of rows is built, so a click costs the same
        on a 20,000-ply game.
        """
        rows = self.tree.rows()
        cur = self.node
        i = self.tree.index_of(cur)
        lo, hi = max(0, i - ROWS_BEFORE), min(len(rows), i + 1 + ROWS_AFTER)
        window = rows[lo:hi]
        if not window:
            return []
        low = min(n.ply for n, _d in window)
        past = set()
        node = cur
        while node is not None and node.ply >= low:
            past.add(node.id)
            node = node.parent
        future = set()
        node = cur.next()
        while node is not None and len(future) < ROWS_AFTER + 1:
            future.add(node.id)
            node = node.next()
        out = []
        prev_depth = None
        for n, depth in window:
            kind = "current" if n is cur else "past" if n.id in past else "future" if n.id in future else "side"
            row: dict[str, Any] = {"id": n.id, "ply": n.ply, "text": n.text, "depth": depth, "kind": kind}
            note = n.effects.get("short") if n.effects else ""
            if note:
                row["note"] = note
            if depth and (prev_depth is None or depth > prev_depth or n.parent is None or n.parent.children[0] is not n):
                row["starts"] = True  # the first move of a variation
            prev_depth = depth
            if self.show_evals:
                if n.score is not None:
                    row["eval"], row["eval_kind"] = round(n.score[0], 1), n.score[1]
                elif n.static is not None:
                    row["eval"], row["eval_kind"] = round(n.static, 1), "static"
            out.append(row)
        return out

    def eval_graph(self) -> dict[str, Any] | None:
        """White's evaluation along the line through the current move, at most EVAL_GRAPH_POINTS points, swings marked."""
        if not self.show_evals:
            return None
        end = self.tree.line_end(self.node)
        key = (id(self.tree), end.id, self.tree.version)
        cached = getattr(self, "_graph_cache", None)
        if cached is not None and cached[0] == key:
            return {**cached[1], "ply": self.node.ply} if cached[1] else None
        graph = self._eval_graph(end)
        self._graph_cache = (key, graph)
        return graph

    def _eval_graph(self, end: Node) -> dict[str, Any] | None:
        length = end.ply - self.tree.root.ply
        if length < 2:
            return None
        step = max(1, length // EVAL_GRAPH_POINTS)
        points: list[list[float]] = []
        swings: list[dict[str, Any]] = []
        node: Node | None = end
        later: tuple[float, Node] | None = None
        while node is not None:
            value = node.score[0] if node.score is not None else node.static
            if value is not None:
                if later is not None and abs(later[0] - value) >= SWING and step == 1 and later[1].parent is node:
                    swings.append({"ply": later[1].ply, "id": later[1].id, "text": later[1].text,
                                   "change": round(later[0] - value, 1)})
                if (node.ply - self.tree.root.ply) % step == 0 or node is end:
                    points.append([node.ply, round(max(-20.0, min(20.0, value)), 2)])
                later = (value, node)
            node = node.parent
        if len(points) < 2:
            return None
        return {"points": points[::-1], "swings": swings[::-1][:40], "ply": self.node.ply,
                "first": self.tree.root.ply, "last": end.ply}

    def _heat(self) -> dict[str, Any] | None:
        kind = self.heat
        if kind is None:
            return None
        # The engine's own counts (viz.heat wraps the same functions but imports pandas: a second's wait).
        from workbench.games.terrafeud.engine import analysis

        fn = analysis.threat_counts if kind == "threat" else analysis.zone_counts
        side = SIDE_NAMES[self.heat_side]
        if kind == "threat":  # threat_counts(state, s) counts attackers of the other side on each hex
            values = [float(v) for v in fn(self.state, 1 - self.heat_side)]
            label = f"attacked by {side}: how many {side} pieces could attack each hex next turn"
        else:
            values = [float(v) for v in fn(self.state, self.heat_side)]
            label = f"{side} pikeman zones: how many {side} pikemen's zones cover each hex"
        top = max(values, default=0.0)
        return {"kind": kind, "side": side, "label": label, "values": values, "max": top}

    def _attack_lines(self, threatened: list[int]) -> list[list[str]]:
        """Lines from every enemy piece that threatens a feudal (or that mated it), from the engine's threat probe."""
        st = self.state
        if self.editing:
            return []
        sides = list(threatened)
        if st.victory == "checkmate" and st.winner is not None:
            sides.append(1 - st.winner)
        key = (self.node.id, id(self.tree), tuple(sides))
        cached = getattr(self, "_attack_cache", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        out = []
        for side in sides:
            f = st.feudal[side]
            if f >= 0:
                out.extend([hex_name(a), hex_name(f), SIDE_NAMES[1 - side]] for a in attackers(st, side) if a != f)
        self._attack_cache = (key, out)
        return out

    def _eval_bar(self) -> dict[str, Any] | None:
        """The evaluation bar: the analysis of this position if there is one, else the move's own value."""
        if self.analysis and self.analysis.get("key") == self.state.key():
            return {"eval": self.analysis["eval"], "source": self.analysis.get("agent", "search")}
        if self.lines and self.lines.get("node") == self.node.id and self.lines.get("lines"):
            return {"eval": self.lines["lines"][0]["eval"], "source": "analysis"}
        node = self.node
        value = node.score[0] if node.score is not None else node.static
        if value is None:
            return None
        return {"eval": round(value, 2), "source": "search" if node.score is not None else "static"}

    def _markers_text(self) -> str:
        """Archer markers in words for the status line: each mine, and each ultimatum the side to move must answer."""
        st = self.state
        parts = []
        for s in (0, 1):
            for a, t in sorted(st.markers[s].items()):
                c = st.squares[t]
                if c and c >> 3 != s:
                    due = " (ultimatum: it must leave this turn or die, W8)" if t in st.pending else " (ultimatum)"
                    parts.append(f"{SIDE_NAMES[s]} archer {hex_name(a)} marks the {SIDE_NAMES[c >> 3]} "
                                 f"{KIND_NAMES[c & 7]} on {hex_name(t)}{due}")
                else:
                    parts.append(f"{SIDE_NAMES[s]} archer {hex_name(a)} mines {hex_name(t)}")
        return "; ".join(parts)

    def _destroyed(self) -> dict[str, list[str]]:
        """Destroyed pieces per side, the feudal included when it died (the engine keeps it apart)."""
        st = self.state
        root = self.tree.root.snapshot
        out = {}
        for s in (0, 1):
            items = [letter(k | (s << 3)) for k in st.destroyed[s]]
            if st.feudal[s] < 0 and root is not None and root.feudal[s] >= 0:
                items.insert(0, letter(FEUDAL | (s << 3)))
            out[SIDE_NAMES[s]] = items
        return out

    def view(self) -> dict[str, Any]:
        """Everything the JavaScript draws, as plain JSON (hexes by name)."""
        st = self.state
        bd = st.board
        if self.editing:
            pieces = self.edit_pieces
            markers = [[hex_name(a), hex_name(t), pieces[a] >> 3] for a, t in sorted(self.edit_markers.items()) if a in pieces]
            to_move = self.edit_to_move
        else:
            pieces = {h: st.squares[h] for h in st.pieces()}
            markers = [[hex_name(a), hex_name(t), s] for s in (0, 1) for a, t in sorted(st.markers[s].items())]
            to_move = self._to_move()
        order_from: list[list[str]] = []
        if self.ordering:
            n = len(self.order_steps)
            idx = _order_field(n)
            lit = {a[idx]: "order" for a in self.order_actions() if len(a) > idx}
            steps = self.order_steps
            order_from = [[hex_name(steps[i]), hex_name(steps[i + 1])] for i in range(0, len(steps) - 1, 2)]
        elif self.selected is not None and not self.editing:
            lit = self.targets(self.selected)
        else:
            lit = {}
        last = None
        node = self.node
        if node.action is not None and self.overlays.get("last"):
            last = [[hex_name(a), hex_name(b), kind] for a, b, kind in _action_pairs(node.action)]
        deaths = []
        if node.effects and not self.editing:
            eff = node.effects
            deaths = [[hex_name(h), letter(c), cause] for h, c, cause in zip(eff["removed"], eff["pieces"], eff["causes"], strict=True)]
        aura = []
        if self.overlays.get("aura"):
            for s in (0, 1):
                f = st.feudal[s]
                if f >= 0:
                    radius = getattr(bd, "aura_radius", 2)  # a rule parameter (issue 11)
                    aura.append([hex_name(x) for x in HEXES if DISTANCE[f][x] <= radius])
        choices = []
        for a in self.choices:
            promo = a[3] or (a[6] if a[0] == ORDER else 0)
            code = promo | (st.to_move << 3)
            name = f"{letter(code)} {KIND_NAMES[promo]}" if promo else "- no promotion"
            choices.append(name + (" · " + st.action_to_string(a) if a[0] == ORDER else ""))
        terminal = st.is_terminal()
        threatened = [] if terminal or self.editing else [s for s in (0, 1) if st.feudal[s] >= 0 and st.is_threatened(s)]
        attack_lines = self._attack_lines(threatened)
        lost_feudal = None
        if terminal and st.winner is not None:
            loser = 1 - st.winner
            f = st.feudal[loser]
            lost_feudal = {"side": SIDE_NAMES[loser], "hex": hex_name(f) if f >= 0 else None, "victory": st.victory}
        key = st.key()
        analysis = None
        if self.analysis and self.analysis.get("key") == key:
            analysis = {k: v for k, v in self.analysis.items() if k not in ("key", "arrows")}
            analysis["arrows"] = [[hex_name(a), hex_name(b), kind] for a, b, kind in self.analysis["arrows"]]
        diff = None
        if self.diff and self.diff.get("key") == key:
            diff = {k: v for k, v in self.diff.items() if k not in ("key", "gained", "lost")}
            for name in ("gained", "lost"):
                diff[name] = [{"text": x["text"], "arrows": [[hex_name(a), hex_name(b), kind]
                                                             for a, b, kind in _action_pairs(tuple(x["action"]))]}
                              for x in self.diff[name]]
        terrain = st.game.terrain
        owners = {}
        for kind, hexes in (("hill", terrain.hills), ("swamp", terrain.swamps)):
            for s, h in enumerate(hexes):
                if h is not None:
                    owners[hex_name(h)] = [kind, SIDE_NAMES[s]]
        rows = self.move_rows()
        self._seq = getattr(self, "_seq", 0) + 1
        all_rows = self.tree.rows()
        index = self.tree.index_of(node)
        return {
            "seq": self._seq,  # every redraw differs, so the page always hears back (and clears its busy sign)
            "terrain": {
                hex_name(h): {
                    "kind": bd.kind_of(h),
                    "hill": h in bd.hills,
                    "swamp": bd.swamp_owner[h],
                    "castle": next((s for s in (0, 1) if h in bd.castle_zone[s]), -1),
                }
                for h in HEXES
            },
            "owners": owners,
            "winter": bd.winter,
            "pieces": {hex_name(h): letter(c) for h, c in sorted(pieces.items())},
            "markers": markers,
            "pending": [hex_name(h) for h in sorted(st.pending)],
            "selected": None if self.selected is None else hex_name(self.selected),
            "targets": {hex_name(h): cls for h, cls in lit.items()},
            "order_steps": [hex_name(h) for h in self.order_steps],
            "order_from": order_from,
            "can_order": self.can_order() and not self.ordering,
            "ordering": self.ordering,
            "choices": choices,
            "last": last,
            "to_move": SIDE_NAMES[to_move],
            "ply": st.ply,
            "moves": self.move_list(),
            "line": rows,
            "rows_before": max(0, index - ROWS_BEFORE),
            "rows_after": max(0, len(all_rows) - index - 1 - ROWS_AFTER),
            "node": node.id,
            "in_variation": not node.is_main(),
            "deaths": deaths,
            "note": node.effects.get("text", "") if node.effects else "",
            "attack_lines": attack_lines,
            "previews": self.previews(),
            "reasons": self.reasons(),
            "illegal": self.illegal,
            "shapes": node.shapes,
            "eval_bar": self._eval_bar(),
            "eval_graph": self.eval_graph(),
            "lines": self.lines if self.lines and self.lines.get("node") == node.id else None,
            "analysing": self.analysing,
            "markers_text": self._markers_text(),
            "destroyed": self._destroyed(),
            "terminal": terminal,
            "result": self.result_text(),
            "lost_feudal": lost_feudal,
            "message": self.message,
            "level": self.level if self.message else "info",
            "can_undo": node.parent is not None,
            "can_redo": node.next() is not None,
            "can_pass": st.legal_actions() == [(PASS,)],
            "rules": st.rules.to_dict(),
            "active_rules": self.rules_summary(),
            "seed": st.game.seed,
            "overlays": dict(self.overlays),
            "heat_kind": self.heat,
            "heat_side": SIDE_NAMES[self.heat_side],
            "zones": [sorted(hex_name(h) for h in st.zone(s)) for s in (0, 1)] if self.overlays.get("zones") else [],
            "aura": aura,
            "aura_ready": sorted(hex_name(h) for h in st.aura_ready) if self.overlays.get("aura") else [],
            "heat": self._heat(),
            "flipped": self.flipped,
            "analysis": analysis,
            "diff": diff,
            "agents": _agent_names(),
            "default_agent": DEFAULT_AGENT,
            "agent": {"name": self.agent_name, "side": None if self.agent_side is None else SIDE_NAMES[self.agent_side]},
            "scenario": {
                "title": self.scenario_title,
                "index": self.scenario_index,
                "count": len(self.scenario_states),
                "checks": self.scenario_checks,
            },
            "scenario_files": [row["name"] for row in self.catalog_rows()],  # the rows: HexBoard.catalog
            "scenario_source": getattr(self, "scenario_source", None),
            "editing": self.editing,
            "edit_piece": self.edit_piece,
            "threatened": [SIDE_NAMES[s] for s in threatened],
            "threatened_hexes": [hex_name(st.feudal[s]) for s in threatened],
        }


def _action_pairs(action: Action) -> list[tuple[int, int, str]]:
    """(from, to, kind) arrows of one action: a move, each Order step, a shot, castling both ways."""
    kind = action[0]
    if kind == MOVE:
        return [(action[1], action[2], "move")]
    if kind == ORDER:
        return [(action[i], action[i + 1], "move") for i in range(1, len(action) - 2, 3)]
    if kind == SHOT:
        return [(action[1], action[2], "shot")]
    if kind == CASTLE:
        return [(action[1], action[2], "castle"), (action[2], action[1], "castle")]
    return []


def _fmt_value(v: Any) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    if isinstance(v, (list, tuple)):
        return "/".join(str(x) for x in v)
    if isinstance(v, dict):
        return "/".join(f"{k}:{x}" for k, x in v.items())
    return str(v)




def describe_check(check: Any, result: Any) -> dict[str, Any]:
    """One scenario check for the panel: what it asserts in words, and whether it passes."""
    parts = []
    if check.note:
        parts.append(str(check.note))
    if check.play:
        parts.append("after " + " ".join(t for t, _ in check.play))
    if check.legal:
        parts.append("legal: " + ", ".join(t for t, _ in check.legal))
    if check.illegal:
        parts.append("illegal: " + ", ".join(t for t, _ in check.illegal))
    for h, (dests, _line) in check.destinations.items():
        parts.append(f"{hex_name(h)} reaches exactly " + (", ".join(sorted(hex_name(d) for d in dests)) or "nothing"))
    if check.pieces is not None:
        parts.append("pieces: " + ", ".join(f"{hex_name(h)} {letter(c) if c else 'empty'}" for h, c in check.pieces.items()))
    if check.markers is not None:
        parts.append("markers: " + (", ".join(f"{hex_name(a)}>{hex_name(t)}" for a, t in check.markers.items()) or "none"))
    for k, v in check.expect.items():
        if k == "to_move" or k == "winner":
            v = SIDE_NAMES[v] if isinstance(v, int) else (v or "none")
        parts.append(f"{k}: {v}")
    empty = not parts or (check.note and len(parts) == 1)
    if empty:  # a check that asserts nothing is not a pass (the editor's stub)
        return {"index": check.index, "line": check.line, "status": "empty",
                "asserts": (str(check.note) + ": " if check.note else "") + "asserts nothing yet",
                "message": "add legal/illegal actions, or play and expect, to make this a check"}
    return {
        "index": check.index,
        "line": check.line,
        "status": result.status if result else "not run",
        "asserts": "; ".join(parts) or "the position loads",
        "message": _short(result.message) if result and not result.ok else "",
    }





EVAL_SECONDS = 1.0  # Evaluate's search clock: the page waits for it, so below AGENT_SECONDS
EVAL_UNITS = "material units: infantryman 1, archer 2, pikeman 3, cavalry 3.5, knight 4.5"


def evaluation_spec(spec: str) -> str:
    """``spec`` with its clock cut to ``EVAL_SECONDS`` (clocked agents get one whatever they asked)."""
    parse = _optional("workbench.agents", "parse_agent_spec", "the evaluation")
    try:
        base, params = parse(spec)
    except ValueError as exc:
        raise WidgetError(_short(str(exc))) from None
    if base in AGENT_CLOCKED:
        asked = params.get("seconds", EVAL_SECONDS)
        params["seconds"] = min(float(asked), EVAL_SECONDS) if isinstance(asked, (int, float)) else EVAL_SECONDS
    return base + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")


def scored_choice(agent: Any, state: GameState) -> tuple[Action, float, str]:
    """The agent's action for ``state``, its score from White's view, and where the score came from.

    ``"search"``: the agent's own root value (``search`` reports it as ``score``, Python and native alike).
    ``"settled"``: agents that report no value (alphabeta, mcts, greedy, random) get the position
    after their action scored by ``search``'s quiescence,
    so a capture's recapture is counted and the number is never a one-ply snapshot.
    """
    mover = state.current_player()
    action = agent.select_action(state.clone())
    own = vars(agent).get("score")  # vars(): a NativeAgent forwards unknown attributes to its Python twin
    if own is not None:
        value, source = float(own), "search"
    else:
        search_agent = _optional("workbench.games.terrafeud.agents.search", "SearchAgent", "the evaluation")
        after = state.clone()
        after.apply(action)
        pieces = sum(1 for c in state.squares if c)
        settled = search_agent(seed=0).settled_value(after, pieces)
        value = settled if after.to_move == mover else -settled  # settled is for the side to move after it
        source = "settled"
    return action, (value if mover == 0 else -value), source


def describe_score(white: float, ply: int) -> str:
    """A score from White's view in words: who is better by how much, or who wins by force."""
    from workbench.games.terrafeud.agents.evaluate import WIN_SCORE

    if abs(white) >= WIN_SCORE / 2:
        winner = "White" if white > 0 else "Black"
        plies = max(0, int(round(WIN_SCORE - abs(white))) - ply)
        return f"{winner} wins by force (the game ends within {plies} plies)"
    if abs(white) < 0.05:
        return f"0.00: level ({EVAL_UNITS})"
    side = "White" if white > 0 else "Black"
    return f"{white:+.2f} for White: {side} is better by {abs(white):.2f} ({EVAL_UNITS})"


LINES = 3  # best lines shown by the analysis
LINE_PLIES = 4  # moves shown in each line


def best_lines(state: GameState, seconds: float = 1.0, count: int = LINES) -> list[dict[str, Any]]:
    """Several best lines: the search run once per candidate (the earlier bests excluded at the root).

    Each line gives its first move's search value (White's view), the depth its search finished and
    the nodes it visited, then the replies a short search expects. The engine and the agents decide
    everything; the board only shows it.
    """
    search = _optional("workbench.games.terrafeud.agents.search", "SearchAgent", "the analysis")

    class RootLimited(search):  # type: ignore[misc, valid-type]
        """The search with some root actions left out (the lines already found)."""

        excluded: list[Action] = []

        def _legal(self, st: GameState) -> list[Action]:
            acts = [a for a in st.legal_actions() if a not in self.excluded]
            return acts or st.legal_actions()

    if state.is_terminal():
        return []
    legal = state.legal_actions()
    out: list[dict[str, Any]] = []
    excluded: list[Action] = []
    per = max(0.05, seconds / max(1, min(count, len(legal))))
    for _ in range(min(count, len(legal))):
        agent = RootLimited(seed=0, seconds=per * 0.75)
        agent.excluded = list(excluded)
        probe = detached(state)
        mover = probe.to_move
        action = agent.select_action(probe)
        value = agent.score if agent.score is not None else 0.0
        white = value if mover == 0 else -value
        texts = [probe.action_to_string(action)]
        probe.apply(action, check=False)
        for _ in range(LINE_PLIES - 1):
            if probe.is_terminal():
                break
            reply = search(seed=0, seconds=per * 0.25 / (LINE_PLIES - 1)).select_action(probe)
            texts.append(probe.action_to_string(reply))
            probe.apply(reply, check=False)
        out.append({"moves": texts, "eval": round(white, 2), "depth": agent.reached, "nodes": agent.searched,
                    "arrow": [[hex_name(a), hex_name(b), k] for a, b, k in _action_pairs(action)]})
        excluded.append(action)
    return out



__all__ = [
    "AGENT_LIMITS", "AGENT_SECONDS", "DEFAULT_AGENT", "HEATS", "MAX_FILE_BYTES", "MESSAGE_LEVELS", "OVERLAYS",
    "START_TOGGLES", "TARGET_CLASSES", "BoardController", "WidgetError", "capped_agent_spec", "describe_check",
    "describe_score", "evaluation_spec", "scored_choice",
    "read_small_file",
]








def _named(detail: dict[str, Any]) -> dict[str, Any]:
    """An ``illegal_detail`` answer with hex names, as the page draws it."""
    return {"text": detail["text"], "blocks": [hex_name(h) for h in detail.get("blocks", ())],
            "path": [hex_name(h) for h in detail.get("path", ())], "zone": [hex_name(h) for h in detail.get("zone", ())]}


def _effects_view(eff: dict[str, Any]) -> dict[str, Any]:
    """``action_effects`` for the page: hex names, the dying pieces' letters, the words."""
    return {"removed": [[hex_name(h), letter(c), cause] for h, c, cause in zip(eff["removed"], eff["pieces"], eff["causes"], strict=True)],
            "marks": [hex_name(h) for h in eff["marks"]], "castle": eff["castle"], "ends": eff["ends"],
            "threat": eff["threat"], "text": eff["text"]}




def _checked_shapes(value: Any, where: str) -> dict[str, list[list[str]]]:
    """A record's drawings on one position, checked: arrows ``[a, b, colour]``, circles ``[h, colour]``."""
    if not isinstance(value, dict):
        raise WidgetError(f"{where}: drawings must be a mapping with arrows and circles")
    out: dict[str, list[list[str]]] = {}
    for kind, size in (("arrows", 3), ("circles", 2)):
        items = value.get(kind) or []
        if not isinstance(items, list) or len(items) > MAX_SHAPES:
            raise WidgetError(f"{where}.{kind}: a list of at most {MAX_SHAPES} drawings")
        for item in items:
            if (not isinstance(item, list) or len(item) != size or item[-1] not in SHAPE_COLOURS
                    or not all(isinstance(x, str) for x in item[:-1])):
                raise WidgetError(f"{where}.{kind}: each is [hex, ..., colour] with a colour of {', '.join(SHAPE_COLOURS)}")
            for h in item[:-1]:
                try:
                    parse_hex(h)
                except ValueError:
                    raise WidgetError(f"{where}.{kind}: {h[:8]!r} is not a hex") from None
        if items:
            out[kind] = [list(x) for x in items]
    return out


class _After:
    """What ``effects_between`` reads of the state after an action, kept while a copy walks back."""

    __slots__ = ("fired", "markers", "squares", "to_move", "victory", "winner")

    def __init__(self, st: GameState) -> None:
        self.squares = st.squares[:]
        self.markers = [dict(st.markers[0]), dict(st.markers[1])]
        self.fired = tuple(st.fired)
        self.victory, self.winner, self.to_move = st.victory, st.winner, st.to_move


def _static_eval(st: GameState) -> float | None:
    """White's static evaluation (material units), or None when the agents are not installed."""
    try:
        from workbench.games.terrafeud.agents.evaluate import evaluate
    except ImportError:
        return None
    return round(float(evaluate(st, 0)), 2)


def split_moves(text: str, order_size: int = 2) -> list[str]:
    """A pasted move list as move texts: numbers (``1.``) and commas dropped, ``order`` keeps its steps."""
    tokens = [t for t in re.split(r"[\s,;]+", text) if t and not re.fullmatch(r"\d+\.+", t)]
    out: list[str] = []
    i = 0
    while i < len(tokens):
        tok = re.sub(r"^\d+\.+", "", tokens[i])
        if tok.lower() == "order":
            out.append(" ".join(["order", *tokens[i + 1:i + 1 + max(1, order_size)]]))
            i += 1 + max(1, order_size)
            continue
        if tok:
            out.append(tok)
        i += 1
    return out


def _order_field(j: int) -> int:
    """Index in an Order action of the j-th click (infantryman, its step, next infantryman, ...)."""
    return 1 + 3 * (j // 2) + j % 2
