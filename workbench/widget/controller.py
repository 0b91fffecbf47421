"""What a click on the board does: the HexBoard widget's logic, in plain Python.

The widget's JavaScript only draws ``BoardController.view()`` and reports clicks and button
presses; every decision (which hexes light up, which action a click plays, promotion and Order
choices, undo/redo, the agent's reply, the position editor) is made here, so it is tested
without a browser. The controller never re-implements a rule: legality, reasons and notation
come from the engine (``legal_actions``, ``explain_illegal``, ``action_to_string``).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from workbench.engine import (
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
    save_record,
    state_from_dict,
    state_to_dict,
)
from workbench.engine.geometry import CAVALRY_PATHS, DISTANCE, HEXES, RAYS
from workbench.engine.pieces import (
    ARCHER,
    CAVALRY,
    KIND_NAMES,
    KNIGHT,
    SIDE_NAMES,
    letter,
    parse_letter,
    side_index,
)

# How a lit hex looks: the JavaScript maps each class to a style.
TARGET_CLASSES = ("move", "attack", "stop", "mine", "shot", "castle", "order")
OVERLAYS = ("zones", "markers", "aura", "zone_control", "threat")
START_TOGGLES = ("season", "hill", "swamp", "terrain")


class WidgetError(ValueError):
    """A request the board cannot carry out (bad file, missing module); the message says why."""


def _optional(module: str, name: str, what: str) -> Any:
    """A function of a workbench part that may not be installed yet, or a clear error."""
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        raise WidgetError(f"{what} needs {module}.{name}, which is not available in this installation") from None


def _agent_names() -> list[str]:
    """Names ``workbench.agents.make_agent`` knows (registered ones included), for the panel's menu."""
    try:
        from workbench.agents import AGENTS
    except ImportError:
        return []
    return sorted(AGENTS)


class BoardController:
    """One board's game, selection and panel state; every user gesture is a method."""

    def __init__(self, state: GameState | None = None) -> None:
        self.state: GameState = state if state is not None else make_game().new_initial_state()
        self.redo_stack: list[Action] = []
        self.selected: int | None = None
        self.ordering = False  # an Order is being picked click by click
        self.order_steps: list[int] = []  # Order in progress: [a, ta, b, ...] as chosen so far
        self.choices: list[Action] = []  # actions differing only by promotion, awaiting a pick
        self.message = ""
        self.overlays: dict[str, bool] = {name: name in ("markers",) for name in OVERLAYS}
        self.heat_side = 0
        self.agent: Any = None
        self.agent_name: str | None = None
        self.agent_side: int | None = None
        self.scenario_title: str | None = None
        self.scenario_states: list[GameState] = []
        self.scenario_index = 0
        # Position editor.
        self.editing = False
        self.edit_piece = "I"  # a piece letter, "" to remove, or "marker" to set archer markers
        self.edit_pieces: dict[int, int] = {}
        self.edit_markers: dict[int, int] = {}
        self.edit_to_move = 0
        self.edit_archer: int | None = None

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
                    after_bridge = i > 0 and st.board.is_bridge[ray[i - 1]]
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
        return [a for a in self.state.legal_actions() if a[0] == ORDER and list(a[1:3] + a[4:6])[: len(steps)] == steps]

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
            self.message = "an Order needs the feudal selected and 2+ own infantry within distance 2 of it (W12)"
            return
        self.ordering = True
        self.order_steps = []
        self.choices = []
        self.message = "Order: click the first infantryman"

    def _order_click(self, h: int) -> None:
        """One click of an Order in progress: infantryman, step, infantryman, step."""
        options = self.order_actions()
        n = len(self.order_steps)
        allowed = {a[1 + n + (1 if n >= 2 else 0)] for a in options}
        if h not in allowed:
            what = ("first infantryman", "step for it", "second infantryman", "step for it")[n]
            self.message = f"Order: {hex_name(h)} is not a legal {what}; legal: " + ", ".join(
                sorted(hex_name(x) for x in allowed)
            )
            return
        self.order_steps.append(h)
        if len(self.order_steps) < 4:
            self.message = "Order: click " + ("its step", "the second infantryman", "its step")[len(self.order_steps) - 1]
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
            self.message = f"the game is over: {self.result_text()}"
            return
        if self.choices:
            self.message = "choose the piece to promote to first (or undo the selection by clicking it)"
            self.choices = []
        if self.ordering:
            self._order_click(h)
            return
        c = st.squares[h]
        if self.selected is None or (c and c >> 3 == st.to_move and h not in self.targets(self.selected)):
            if h == self.selected:
                self.selected = None
                self.message = ""
                return
            self._select(h)
            return
        if h == self.selected:
            self.selected = None
            self.message = ""
            return
        frm = self.selected
        matching = [
            a
            for a in st.legal_actions()
            if (a[0] == MOVE and a[1] == frm and a[2] == h) or (a[0] in (SHOT, CASTLE) and a[1] == frm and a[2] == h)
        ]
        if not matching:
            # An archer reaches hexes beyond its neighbours only by a shot (W8): explain that action.
            shot = st.squares[frm] & 7 == ARCHER and DISTANCE[frm][h] >= 2
            self.message = explain_illegal(st, (SHOT, frm, h) if shot else (MOVE, frm, h, 0))
            self.selected = None
            return
        self._play_or_choose(matching)

    def _select(self, h: int) -> None:
        st = self.state
        c = st.squares[h]
        if not c:
            self.message = f"{hex_name(h)}: no piece there; click a {SIDE_NAMES[st.to_move]} piece"
            self.selected = None
            return
        if c >> 3 != st.to_move:
            self.message = f"{hex_name(h)}: that is a {SIDE_NAMES[c >> 3]} piece; {SIDE_NAMES[st.to_move]} is to move"
            self.selected = None
            return
        self.selected = h
        lit = self.targets(h)
        self.message = "" if lit or self.can_order() else f"{hex_name(h)}: this {KIND_NAMES[c & 7]} has no legal action"

    def _play_or_choose(self, actions: list[Action]) -> None:
        """Play the one action, or ask which promotion (W13) when several differ only by it."""
        if len(actions) == 1:
            self.play_action(actions[0])
        else:
            self.choices = sorted(actions)
            self.message = "promotion: choose the destroyed piece to take"

    def choose(self, index: int) -> None:
        """Pick one of the pending promotion choices (index into ``choices``)."""
        if not 0 <= index < len(self.choices):
            self.message = f"no promotion choice {index}; there are {len(self.choices)}"
            return
        self.play_action(self.choices[index])

    def cancel(self) -> None:
        """Drop the selection, a pending Order or promotion choice."""
        self.selected = None
        self.ordering = False
        self.order_steps = []
        self.choices = []
        self.message = ""

    def play_action(self, action: Action) -> None:
        """Apply a legal action, clear the redo line, then let the agent answer if it is its turn."""
        try:
            self.state.apply(action)
        except IllegalActionError as exc:
            self.message = str(exc)
            return
        self.redo_stack = []
        self.cancel()
        self.agent_move()

    def play(self, text: str) -> None:
        """Play an action given in notation (``f3-f7``, ``d2*d4``, ``order e3-e4 g3-g4``)."""
        try:
            action = self.state.parse_action(text)
        except IllegalActionError as exc:
            self.message = str(exc)
            return
        self.play_action(action)

    def pass_turn(self) -> None:
        """Pass, which the engine allows only when nothing else is legal (W16)."""
        self.play_action((PASS,))

    def undo(self) -> None:
        """Take back one ply, or back to the human's turn when an agent plays the other side."""
        if not self.state.history:
            self.message = "nothing to undo"
            return
        self.redo_stack.append(self.state.undo())
        while self.agent is not None and self.state.to_move == self.agent_side and self.state.history:
            self.redo_stack.append(self.state.undo())
        self.cancel()

    def redo(self) -> None:
        """Replay what undo took back (an agent's recorded reply included)."""
        if not self.redo_stack:
            self.message = "nothing to redo"
            return
        self.state.apply(self.redo_stack.pop())
        while self.redo_stack and self.agent is not None and self.state.to_move == self.agent_side:
            self.state.apply(self.redo_stack.pop())
        self.cancel()

    # ------------------------------------------------------------------ games, agents, files
    def new_game(self, seed: int | None = 0, **toggles: Any) -> None:
        """A classic start with start-screen toggles (season, hill, swamp, terrain) or any other."""
        try:
            rules = RulesConfig.from_dict({k: v for k, v in toggles.items() if v is not None})
        except ValueError as exc:
            self.message = str(exc)
            return
        self._set_state(make_game(rules, seed).new_initial_state())
        self.agent_move()

    def set_state(self, state: GameState) -> None:
        """Show another game state (a scripted position, a simulation's game); the agent moves if it is its turn."""
        self._set_state(state)
        self.agent_move()

    def _set_state(self, state: GameState) -> None:
        self.state = state
        self.redo_stack = []
        self.scenario_states = []
        self.scenario_title = None
        self.editing = False
        self.cancel()

    def set_agent(self, name: str | None, side: int | str = 1, seed: int | None = None) -> None:
        """Let an agent (``workbench.agents.make_agent``) play ``side``; ``None`` for two humans."""
        if not name:
            self.agent, self.agent_name, self.agent_side = None, None, None
            return
        make_agent = _optional("workbench.agents", "make_agent", "playing against an agent")
        self.agent = make_agent(name, seed=seed)
        self.agent_name = name
        self.agent_side = side_index(side) if isinstance(side, str) else int(side)
        self.agent_move()

    def agent_move(self) -> None:
        """If the agent is to move, let it choose on a copy of the state and play its choice."""
        st = self.state
        if self.agent is None or st.is_terminal() or st.to_move != self.agent_side or self.editing:
            return
        action = self.agent.select_action(st.clone())
        text = st.action_to_string(action)
        st.apply(action)
        self.message = f"{self.agent_name} played {text}"

    def load_scenario(self, path: str | Path) -> None:
        """Show a scenario's position; if a check plays actions, ``step`` walks through them."""
        load = _optional("workbench.scenarios", "load_scenario", "loading a scenario")
        try:
            scenario = load(path)
            states = list(scenario.play_states())
            start = scenario.initial_state()
        except (OSError, ValueError) as exc:  # ScenarioError is a ValueError naming file and line
            raise WidgetError(str(exc) if str(path) in str(exc) else f"{path}: {exc}") from None
        self._set_state(start)
        self.scenario_title = str(scenario.title)
        self.scenario_states = states or [start]
        self.scenario_index = 0
        self.message = f"scenario: {scenario.title}"

    def step(self, delta: int) -> None:
        """Move through the loaded scenario's ``play`` (``+1`` forward, ``-1`` back)."""
        if not self.scenario_states:
            self.message = "no scenario loaded"
            return
        i = max(0, min(len(self.scenario_states) - 1, self.scenario_index + delta))
        self.scenario_index = i
        title, states = self.scenario_title, self.scenario_states
        self.state = states[i].clone()
        self.redo_stack = []
        self.cancel()
        self.scenario_title, self.scenario_states = title, states

    def save_record(self, path: str | Path) -> Path:
        """Write the game so far as a JSON record (``workbench.engine.save_record``)."""
        out = save_record(self.state, path)
        self.message = f"saved {out}"
        return out

    def load_record(self, path: str | Path) -> None:
        """Load a record; its actions become the history, so undo walks back through them."""
        try:
            state = load_record(path)
        except (OSError, ValueError) as exc:
            raise WidgetError(str(exc)) from None
        self._set_state(state)
        self.message = f"loaded {path}"

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
        self.message = "editor: pick a piece letter (or remove / marker) and click hexes"

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
                self.message = f"marker: {hex_name(h)} holds no archer; click an archer first"
                return
            self.edit_archer = h
            self.message = f"marker: click the hex the archer on {hex_name(h)} marks"
            return
        a, self.edit_archer = self.edit_archer, None
        if h == a:
            self.edit_markers.pop(a, None)
            self.message = f"marker of {hex_name(a)} removed"
        else:
            self.edit_markers[a] = h
            self.message = f"marker {hex_name(a)} -> {hex_name(h)}"

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
            self.message = f"editor: {exc}"
            return False
        self._set_state(state)
        self.message = "edited position ready"
        self.agent_move()
        return True

    def export_scenario(self, scenario_id: str = "edited-position", title: str = "Edited position") -> str:
        """The current (or edited) position as scenario YAML (``workbench.scenarios.dump_scenario``)."""
        dump = _optional("workbench.scenarios", "dump_scenario", "exporting a scenario")
        state = self.state
        if self.editing:
            try:
                state = state_from_dict(self.edited_position())
            except ValueError as exc:
                raise WidgetError(f"editor: {exc}") from None
        return dump(state, scenario_id, title)

    # ------------------------------------------------------------------ what the JavaScript draws
    def result_text(self) -> str:
        """``White wins by checkmate`` and the like, or empty while the game goes on."""
        st = self.state
        if not st.is_terminal():
            return ""
        if st.winner is None:
            return f"game over: {st.victory}"
        return f"{SIDE_NAMES[st.winner].capitalize()} wins ({st.victory})"

    def move_list(self) -> list[str]:
        """The actions played, in notation (each written in the position it was played from)."""
        st = self.state
        replay = st.clone()
        actions = list(st.history)
        for _ in actions:
            replay.undo()
        out = []
        for a in actions:
            out.append(replay.action_to_string(a))
            replay.apply(a)
        return out

    def _heat(self) -> dict[str, Any] | None:
        kind = "zone_control" if self.overlays.get("zone_control") else "threat" if self.overlays.get("threat") else None
        if kind is None:
            return None
        try:
            fn = _optional("workbench.viz.heat", kind, f"the {kind} heatmap")
        except WidgetError as exc:
            return {"kind": kind, "error": str(exc)}
        values = [float(v) for v in fn(self.state, self.heat_side)]
        top = max((abs(v) for v in values), default=0.0) or 1.0
        return {"kind": kind, "side": SIDE_NAMES[self.heat_side], "values": [v / top for v in values]}

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
            to_move = st.to_move
        if self.ordering:
            n = len(self.order_steps)
            idx = 1 + n + (1 if n >= 2 else 0)
            lit = {a[idx]: "order" for a in self.order_actions()}
        elif self.selected is not None and not self.editing:
            lit = self.targets(self.selected)
        else:
            lit = {}
        last = None
        if st.history and st.history[-1][0] in (MOVE, SHOT, CASTLE):
            last = [hex_name(st.history[-1][1]), hex_name(st.history[-1][2])]
        aura = []
        if self.overlays.get("aura"):
            for s in (0, 1):
                f = st.feudal[s]
                if f >= 0:
                    aura.append([hex_name(x) for x in HEXES if DISTANCE[f][x] <= 2])
        choices = []
        for a in self.choices:
            promo = a[3] or (a[6] if a[0] == ORDER else 0)
            name = letter(promo | (st.to_move << 3)) if promo else "-"
            choices.append(name + (" " + st.action_to_string(a) if a[0] == ORDER else ""))
        return {
            "terrain": {
                hex_name(h): {
                    "kind": bd.kind_of(h),
                    "hill": h in bd.hills,
                    "swamp": bd.swamp_owner[h],
                    "castle": next((s for s in (0, 1) if h in bd.castle_zone[s]), -1),
                }
                for h in HEXES
            },
            "winter": bd.winter,
            "pieces": {hex_name(h): letter(c) for h, c in sorted(pieces.items())},
            "markers": markers,
            "pending": [hex_name(h) for h in sorted(st.pending)],
            "selected": None if self.selected is None else hex_name(self.selected),
            "targets": {hex_name(h): cls for h, cls in lit.items()},
            "order_steps": [hex_name(h) for h in self.order_steps],
            "can_order": self.can_order() and not self.ordering,
            "ordering": self.ordering,
            "choices": choices,
            "last": last,
            "to_move": SIDE_NAMES[to_move],
            "ply": st.ply,
            "moves": self.move_list(),
            "destroyed": {SIDE_NAMES[s]: [letter(k | (s << 3)) for k in st.destroyed[s]] for s in (0, 1)},
            "result": self.result_text(),
            "message": self.message,
            "can_undo": bool(st.history),
            "can_redo": bool(self.redo_stack),
            "can_pass": st.legal_actions() == [(PASS,)],
            "rules": st.rules.to_dict(),
            "seed": st.game.seed,
            "overlays": dict(self.overlays),
            "zones": [sorted(hex_name(h) for h in st.zone(s)) for s in (0, 1)] if self.overlays.get("zones") else [],
            "aura": aura,
            "aura_ready": sorted(hex_name(h) for h in st.aura_ready) if self.overlays.get("aura") else [],
            "heat": self._heat(),
            "agents": _agent_names(),
            "agent": {"name": self.agent_name, "side": None if self.agent_side is None else SIDE_NAMES[self.agent_side]},
            "scenario": {
                "title": self.scenario_title,
                "index": self.scenario_index,
                "count": len(self.scenario_states),
            },
            "editing": self.editing,
            "edit_piece": self.edit_piece,
            "threatened": [SIDE_NAMES[s] for s in (0, 1) if st.feudal[s] >= 0 and not st.is_terminal() and st.is_threatened(s)],
        }


__all__ = ["OVERLAYS", "START_TOGGLES", "TARGET_CLASSES", "BoardController", "WidgetError"]
