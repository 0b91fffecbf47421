"""``GameBoardController``: the general board's logic for any game of the protocol, without a browser.

It speaks only ``workbench.core.protocol``: the layout draws the cells, ``glyphs()`` fills them,
``legal_actions()`` with ``action_cells()`` turns clicks into actions (a click sequence picks the cells
of an action, first the piece or source), actions that pick no cell, or that share their click
sequence with others, become buttons (End turn, Pass, Buy X, a tile's terrain), ``action_effects``
previews a target, ``explain_illegal`` answers a click on an unlit cell, and ``CHANCE`` nodes are
rolled by a button or automatically from a seeded generator (each roll a move of the list, undone
with the move that caused it). The moves live in the game-neutral variation tree (``tree.py``), so
Undo/Redo and playing from an earlier move keep every line, as the TerraFeud board does.

No game is named here: a game's own facts (AP, coins, treasury, deck tops) come from its state's
``summary()`` (a declared State method, ``{}`` by default).
"""

from __future__ import annotations

import math
import random
import re
from collections import OrderedDict
from itertools import islice
from pathlib import Path
from typing import Any

from workbench.core import palette
from workbench.core.protocol import CHANCE, CLICK_STEP_LIMIT, AgentCaps, GameDef, Glyph, IllegalAction, State

from .common import AGENT_SECONDS, SCENARIO_ROOT, WidgetError, _entry, _short, _verdict_of, capped_agent_spec
from .tree import SNAPSHOT_EVERY, VariationTree

MAX_CHOICES = 400  # buttons for one click sequence (big chess: 30 cards x 8 facings at a cell)
MAX_PREVIEWS = 80  # targets whose effects are computed for one view (each plays the action on a copy)
MAX_BUTTON_PREVIEWS = 30
MAX_ATTACKS = 2000  # attacks sent for the hover lines (a game of 25 seats has many)
MAX_DIFF_SHOWN = 40  # actions listed on each side of a rule-change diff
MOVES_SHOWN = 300  # the move list's last rows
DEFAULT_AGENT = "greedy"
ANNOTATION_SIGNS = ("", "!", "?", "!!", "??", "!?", "?!")
RECORD_VERSION = 1
MAX_RECORD_MOVES = 20_000
SWING = 1.0  # an evaluation change of one unit of the game (an infantryman, a coin) marks the move on the graph
LINE_SECONDS = 1.0  # each best line's search clock (continuous analysis)
HERE_KEPT = 16  # positions whose legal actions and their click index are kept (an undo or redo finds them)
# legal actions one view may touch: beyond it (The Cursed Lands' setup lists 483,840 camps lazily) the board never
# walks the list; clicks go through the game's ``State.click_step`` and typed notation through the move box
MAX_VIEW_ACTIONS = CLICK_STEP_LIMIT

Pair = tuple[Any, tuple[int, ...]]


class _Here:
    """What the board derives from one position's legal actions, built once and kept per node: the actions with
    their click cells, an index by first cell (a click or a view looks at one cell's actions, not all 5,696 of big
    chess's four-player setup), the mode subsets, the free actions (buttons) and the seats offered."""

    __slots__ = ("pairs", "total", "exact", "cells_of", "modes", "offered", "lines", "attackers", "_first", "_free")

    def __init__(self, pairs: list[Pair], total: int | None = None, exact: bool = True) -> None:
        self.pairs = pairs
        # how many legal actions there are (at least, when not ``exact``); more than ``pairs`` holds when the list
        # was too long to walk (MAX_VIEW_ACTIONS)
        self.total = len(pairs) if total is None else total
        self.exact = exact
        try:
            self.cells_of: dict[Any, tuple[int, ...]] = dict(pairs)
        except TypeError:  # an unhashable action: the others kept, it is asked again when needed
            self.cells_of = {}
            for a, cells in pairs:
                try:
                    self.cells_of[a] = cells
                except TypeError:
                    pass
        self.modes: dict[str, list[Pair]] | None = None
        self.offered: list[int] | None = None
        self.lines: list[list[str]] | None = None  # the game's attacker lines (``State.attack_lines``)
        self.attackers: dict[str, list[list[str]]] | None = None  # who attacks each cell (``State.attackers``)
        self._first: dict[str, tuple[dict[int, list[Pair]], dict[int, list[Any]], set[int]]] = {}
        self._free: dict[str, list[Any]] = {}

    def first(self, mode: str, pairs: list[Pair]) -> tuple[dict[int, list[Pair]], dict[int, list[Any]], set[int]]:
        """``pairs`` (all, or mode ``mode``'s) by first cell, in their order; the lit cells of an empty selection
        with their actions; and the lit cells from which an action goes on."""
        got = self._first.get(mode)
        if got is None:
            index: dict[int, list[Pair]] = {}
            lit: dict[int, list[Any]] = {}
            longer: set[int] = set()
            for pair in pairs:
                cells = pair[1]
                if cells:
                    c = cells[0]
                    if c in index:
                        index[c].append(pair)
                        lit[c].append(pair[0])
                    else:
                        index[c], lit[c] = [pair], [pair[0]]
                    if len(cells) > 1:
                        longer.add(c)
            got = self._first[mode] = (index, lit, longer)
        return got

    def free(self, mode: str, pairs: list[Pair]) -> list[Any]:
        """The actions that pick no cell (buttons)."""
        got = self._free.get(mode)
        if got is None:
            got = self._free[mode] = [a for a, cells in pairs if not cells]
        return got


def _bounded_len(legal: Any) -> tuple[int, bool]:
    """The number of legal actions and whether it is exact, read without walking more than MAX_VIEW_ACTIONS + 1 of
    them: a lazy sequence answers ``len``; an iterator without one is counted up to the cap + 1 ("more than")."""
    try:
        return len(legal), True
    except TypeError:
        n = sum(1 for _ in islice(legal, MAX_VIEW_ACTIONS + 1))
        return n, n <= MAX_VIEW_ACTIONS


def _refuse_too_many(what: str, st: State) -> None:
    """A clear refusal, before any walk, of a request that would go through every legal action of a list longer
    than MAX_VIEW_ACTIONS (a bounded cost whatever the game's list)."""
    count, exact = _bounded_len(st.legal_actions())
    if count > MAX_VIEW_ACTIONS:
        many = f"{count:,}" if exact else f"more than {MAX_VIEW_ACTIONS:,}"
        raise WidgetError(f"{what}: {many} legal actions here, too many to go through one by one (over "
                          f"{MAX_VIEW_ACTIONS:,}); play one by clicks or in the move box first")


def player_colours(labels: Any) -> list[str]:
    """One colour per seat, from the one palette (``workbench.core.palette``): Pole's Red is red, 25 stay distinct."""
    return palette.seat_colours(labels)


def ink_of(colour: str) -> str:
    """A readable letter colour on a piece of ``colour``."""
    return palette.ink(colour)


def _read_batch(path: str | Path) -> Any:
    """A simulate batch's games table (``read_results``), or a plain message naming the file."""
    from workbench.simulate.dataset import read_results

    p = Path(path)
    if not p.exists():
        raise WidgetError(f"{p.name}: no such batch")
    try:
        games = read_results(p)
    except Exception as exc:  # noqa: BLE001 - one plain message: the file's name, never its content
        raise WidgetError(f"{p.name}: not a readable batch ({type(exc).__name__})") from None
    if "game_id" not in games.columns:
        raise WidgetError(f"{p.name}: written by an older version of the workbench (no game_id column)")
    return games


def _flatten(prefix: str, value: Any, out: list[str], depth: int = 0) -> None:
    """A summary's nested mapping as short ``key value`` phrases, in the game's own order."""
    if isinstance(value, dict) and depth < 3:
        for k, v in value.items():
            _flatten(f"{prefix} {k}".strip(), v, out, depth + 1)
    elif isinstance(value, (list, tuple)) and depth < 3 and len(value) <= 30:
        out.append(f"{prefix} {' '.join(str(v) for v in value)}".strip())
    elif value is not None and value != "":
        out.append(_short(f"{prefix} {value}".strip().replace("_", " "), 120))


def _group(buttons: list[dict[str, Any]]) -> None:
    """A long palette's group key: the text after the common prefix up to its last ``:`` (big chess's
    ``a:+knight@3,4:NE`` groups by card and cell, the facing chosen second)."""
    if len(buttons) <= 24:
        return
    texts = [b["text"] for b in buttons]
    for b, t in zip(buttons, texts, strict=True):
        if ":" in t.split("@")[-1]:
            b["group"] = t.rsplit(":", 1)[0] + ":"


class GameBoardController:
    """One board: game, rules, the variation tree and where we are in it, the click selection, agents."""

    def __init__(self, game: GameDef, rules: Any = None, seed: int = 0, state: State | None = None,
                 auto_roll: bool = True) -> None:
        self.game = game
        self.rules = rules if rules is not None else game.spec.defaults()
        self.seed = int(seed)
        self.auto_roll = bool(auto_roll)
        self.agents: dict[int, str] = {}
        self.agent_seed: int | None = None  # the agents' own seed stream (default: the board's seed)
        self.last_engine = "python"  # the engine of the last agent that thought here (think, accept)
        self.message = ""
        self.level = "info"
        self.heat_layer = ""
        self.heat_player = 0
        self.diff: dict[str, Any] | None = None
        self.evaluation = ""
        self.scenario: Any = None
        self.scenario_name = ""
        self.check_results: list[Any] = []
        self.check_index = -1
        self.hover: dict[str, str] = {}
        self._exact = False
        self.blocks: list[str] = []  # the cells that block the last refused click (``State.explain_cells``)
        self.lines: list[dict[str, Any]] = []  # continuous analysis: best lines at node ``lines_at``
        self.lines_at = -1
        self.pattern_card = ""  # the card whose pattern diagram the palette shows
        self._patterns: dict[str, str] = {}
        self.batch_path: Path | None = None
        self.overlays: set[str] = set(game.default_overlays)  # the game's layers switched on (``GameDef.overlays``)
        self.editing = False  # the graphical position editor (``GameDef.edit_palette``/``edit_cell``)
        self.edit_data: dict[str, Any] = {}
        self.edit_piece = ""
        self.edit_opts: dict[str, str] = {}  # the settings of the pieces the editor's clicks place (``GameDef.edit_options``)
        self.edit_first = ""  # the first cell of a two-click edit (``GameDef.edit_pairs``)
        self._palette: list[tuple[str, int, str]] = []
        self._edit_shown: State | None = None
        self.edit_error = ""
        self._edit_state: State | None = None
        self.mode = ""  # a multi-step action's mode (``GameDef.action_modes``: TerraFeud's Order), at ``_mode_at``
        self._mode_at: Any = None
        self._heres: OrderedDict[Any, _Here] = OrderedDict()  # per position: legal actions, click index (HERE_KEPT)
        self._stepped: tuple[Any, tuple[list[int], list[Any], str]] | None = None  # the last ``click_step`` asked, by place
        self._serial = 0  # the tree's number: a new game or scenario starts a new one
        self._new_root(state if state is not None else game.new_initial_state(self.rules, seed=self.seed))

    # ------------------------------------------------------------------ positions and the tree
    def _frame(self, state: State) -> None:
        """Rules, seats and cells of ``state`` itself (a scenario's 7x7 board and four seats, not the rules' default)."""
        rules = self.game.state_rules(state)
        if rules is not None:
            self.rules = rules
        self.layout = self.game.state_layout(state)
        self._info = self.game.state_info(state)
        self.names = [c.name for c in self.layout.cells]
        self.ids = {c.name: c.id for c in self.layout.cells}
        self.agents = {p: a for p, a in self.agents.items() if p < self._info.num_players}

    def _new_root(self, state: State) -> None:
        self._frame(state)
        self.state = state
        self._undoable = 0  # actions the state can undo (those the board applied since it was built)
        self.root_state = state.clone()
        self.rng = random.Random(self.seed)
        self.tree = VariationTree(None, 0)
        self._serial += 1
        self._heres.clear()
        self.node = self.tree.root
        self.node.to_move = state.current_player()
        self.selection: list[int] = []
        self.choices: list[Any] = []
        self.diff = None
        self.evaluation = ""
        self._roll_chance()

    def info(self) -> Any:
        """The seats of the position on the board (``GameDef.state_info``)."""
        return self._info

    def label(self, player: int) -> str:
        """The seat's name as the rulebook writes it (Red, player c, Chance)."""
        if player == CHANCE:
            return "Chance"
        labels = self.info().labels
        return labels[player] if 0 <= player < len(labels) else str(player)

    def _play(self, action: Any, light: bool = False) -> None:
        """Play ``action`` here: the tree's existing child or a new variation; then any automatic roll. ``light``:
        a long record's early moves, replayed without their words and evaluation (the list shows its last rows)."""
        text = self.state.action_to_string(action)
        player = self.state.current_player()
        eff = {} if light else self._effects(action)
        said = str(eff.get("text") or "")
        for sep in (": ", "; "):  # the row shows the notation already: its words say what it did
            if said.startswith(text + sep):
                said = said[len(text) + len(sep):]
        cells = [] if light else [self.names[c] for c in self._cells(action) if 0 <= c < len(self.names)]
        gone = [self.names[c] for c in eff.get("removed", []) if isinstance(c, int) and 0 <= c < len(self.names)]
        hurt = self._damage(eff)
        if eff.get("odds"):
            gone = []  # an attack's removals are the roll's to decide
        turn = self.state.turn()
        self.state.apply_action(action)
        self._undoable += 1
        node, _new = self.tree.add(self.node, action, text)
        node.to_move = self.state.current_player()
        node.effects = {"player": player, "turn": turn, "words": _short(said, 240) if said and said != text else "",
                        "cells": cells, "removed": gone, "damaged": hurt}
        self._after(node, light)
        self.node = node
        self.selection, self.choices = [], []
        self.diff = None
        self.evaluation = ""
        self._roll_chance()

    def _roll_chance(self) -> None:
        while self.auto_roll and self.state.current_player() == CHANCE:
            self.roll()

    def roll(self) -> None:
        """Chance moves: an outcome drawn from the position's probabilities with the board's seeded generator."""
        if self.state.current_player() != CHANCE:
            raise WidgetError("no roll is due: chance does not move here")
        outcomes = self.state.chance_outcomes()
        pick = self.rng.random()
        acc = 0.0
        chosen = outcomes[-1][0]
        for outcome, p in outcomes:
            acc += p
            if pick < acc:
                chosen = outcome
                break
        text = self.state.action_to_string(chosen)
        words = self._chance_words(chosen, text)
        gone = [self.names[c] for c in self._effects(chosen).get("removed", []) if isinstance(c, int) and 0 <= c < len(self.names)]
        turn = self.state.turn()
        self.state.apply_action(chosen)
        if words == text and self.state.current_player() != CHANCE:  # the game has no sentence for it: what followed
            words = f"{text}: {self._to_move_words()}"
        self._undoable += 1
        node, _ = self.tree.add(self.node, chosen, text)
        node.to_move = self.state.current_player()
        node.effects = {"player": CHANCE, "turn": turn, "words": words, "removed": gone}
        self._after(node)
        self.node = node
        self.message = f"roll {words}"
        self.level = "info"

    def _after(self, node: Any, light: bool = False) -> None:
        """After a move: the static evaluation (first seat's view, the graph's point), the result in words, and
        every SNAPSHOT_EVERY plies a history-free copy of the position (a jump replays from the nearest one)."""
        st = self.state
        if not light:
            try:
                node.static = round(float(st.evaluate(0)), 3) if not st.is_terminal() else None
            except Exception:  # noqa: BLE001 - a game without an evaluation draws no graph
                node.static = None
        if node.ply % SNAPSHOT_EVERY == 0 and node.snapshot is None:
            node.snapshot = self._detached(st)
        if st.is_terminal():
            node.effects["result"] = self.result_text()

    def _effects(self, action: Any) -> dict[str, Any]:
        """The game's ``action_effects`` (a help, never a failure)."""
        try:
            eff = self.state.action_effects(action)
        except Exception:  # noqa: BLE001 - a preview must not break the board
            return {}
        return eff if isinstance(eff, dict) else {}

    def _damage(self, eff: dict[str, Any]) -> dict[str, int]:
        """An action's ``damage`` (cell -> hit points lost by a piece that survives) by cell name."""
        raw = eff.get("damage") or {}
        n = len(self.names)
        return {self.names[c]: int(v) for c, v in raw.items() if isinstance(c, int) and 0 <= c < n and isinstance(v, int) and v > 0} \
            if isinstance(raw, dict) else {}

    def _chance_words(self, outcome: Any, text: str) -> str:
        """What a chance outcome does, in words: the game's sentence, else hit or miss from what it removes."""
        eff = self._effects(outcome)
        said = str(eff.get("text") or "")
        if said:
            return _short(said if said.startswith(text) else f"{text}: {said}", 200)
        if "removed" in eff:
            gone = [self.names[c] for c in eff["removed"] if isinstance(c, int) and 0 <= c < len(self.names)]
            return f"{text}, hit: {', '.join(gone)} removed" if gone else f"{text}, miss"
        return text

    def undo(self) -> None:
        """One move back; a roll goes back with the move that caused it (when rolls are automatic)."""
        if self.node.parent is None:
            raise WidgetError("nothing to undo: this is the start")
        self._back()
        while self.node.parent is not None and ((self.auto_roll and self.state.current_player() == CHANCE)
                                                or self.state.current_player() in self.agents):
            self._back()  # a roll goes with its move; an agent's move with the human's before it
        self.selection, self.choices = [], []
        self.message, self.level = f"undone; {self.label(self.state.current_player())} to move", "info"

    def _back(self) -> None:
        node = self.node
        if self._undoable > 0:
            self.state.undo_action()
            self._undoable -= 1
        else:  # rebuilt from a snapshot: the state cannot undo past it, so rebuild once more
            self.state = self._state_at(node.up)
        node.up.last = node
        self.node = node.up

    def _detached(self, state: State) -> Any:
        """A copy of ``state`` without its undo history (``to_dict`` then ``state_from_dict``), or None when the
        game's dict does not give the same position back (then jumps replay from an earlier snapshot)."""
        try:
            data = state.to_dict()
            copy = self.game.state_from_dict(data)
            return copy if copy.to_dict() == data else None
        except Exception:  # noqa: BLE001 - a snapshot is a speed-up, never a failure
            return None

    def _state_at(self, target: Any) -> State:
        """A fresh state at ``target``: its nearest snapshot (the root's is the start), then at most SNAPSHOT_EVERY
        actions (more where a snapshot is missing); its undo reaches back to that snapshot."""
        path, base = [], target
        while base.parent is not None and base.snapshot is None:
            path.append(base)
            base = base.parent
        st = (self.root_state if base.parent is None else base.snapshot).clone()
        for n in reversed(path):
            st.apply_action(n.action)
        self._undoable = len(path)
        return st

    def redo(self) -> None:
        """Forward along the line last visited (a roll comes back with its move)."""
        nxt = self.node.next()
        if nxt is None:
            raise WidgetError("nothing to redo")
        self._forward(nxt)
        while self.node.next() is not None and not self.state.is_terminal() and (
                (self.auto_roll and self.state.current_player() == CHANCE) or self.state.current_player() in self.agents):
            self._forward(self.node.next())
        self.selection, self.choices = [], []
        self.message, self.level = f"redone {self._last_decision_text()}; {self._to_move_words()}", "info"

    def _forward(self, node: Any) -> None:
        self.state.apply_action(node.action)
        self._undoable += 1
        self.node.last = node
        self.node = node

    def goto(self, node_id: int) -> None:
        """Jump to a move of the list (replayed from the start: positions are small)."""
        target = self.tree.get(node_id)
        if target is None:
            raise WidgetError(f"there is no move {node_id} in this game")
        # the way there: up to the common ancestor, then down; undone and replayed when near, else rebuilt
        a, b, ups, downs = self.node, target, 0, []
        while a.ply > b.ply:
            a, ups = a.up, ups + 1
        while b.ply > a.ply:
            downs.append(b)
            b = b.up
        while a is not b:
            a, ups = a.up, ups + 1
            downs.append(b)
            b = b.up
        downs.reverse()
        if ups <= self._undoable and ups + len(downs) <= 2 * SNAPSHOT_EVERY:
            for _ in range(ups):
                self.state.undo_action()
                self._undoable -= 1
            for n in downs:
                self.state.apply_action(n.action)
                self._undoable += 1
        else:
            self.state = self._state_at(target)
        for n in downs:
            n.up.last = n
        self.node = target
        self.selection, self.choices = [], []
        self.diff = None
        at = f"after {target.text}" if target.parent is not None else "at the start"
        self.message, self.level = f"{at}; {self._to_move_words()}", "info"

    def _to_move_words(self) -> str:
        st = self.state
        if st.is_terminal():
            return f"game over: {self.result_text()}"
        return f"{self.label(st.current_player())} to move"

    # ------------------------------------------------------------------ clicks and buttons
    def _legal(self) -> list[Any]:
        return [a for a, _ in self._legal_cells()]

    def _here(self) -> _Here:
        """This position's legal actions with their click cells and index, built once per node and kept for the
        last HERE_KEPT nodes: big chess's setup has thousands, and an undo or redo returns to a node seen before."""
        key = (self._serial, self.node.id, self.state.move_number())
        here = self._heres.get(key)
        if here is None:
            st = self.state
            total, exact = (0, True) if st.is_terminal() or st.current_player() == CHANCE else _bounded_len(st.legal_actions())
            pairs = list(st.legal_action_cells()) if 0 < total <= MAX_VIEW_ACTIONS else []
            here = self._heres[key] = _Here(pairs, total, exact)
            while len(self._heres) > HERE_KEPT:
                self._heres.popitem(last=False)
        else:
            self._heres.move_to_end(key)
        return here

    def _legal_cells(self) -> list[Pair]:
        """Legal actions with their click cells, asked once per position (big chess has thousands)."""
        return self._here().pairs

    def _cells(self, action: Any) -> tuple[int, ...]:
        """The click cells of a legal action here (from the position's cache: a view asks thousands of times)."""
        try:
            cells = self._here().cells_of.get(action)
        except TypeError:
            cells = None
        return cells if cells is not None else tuple(self.state.action_cells(action))

    def _index(self) -> tuple[dict[int, list[Pair]], dict[int, list[Any]], set[int]]:
        """The actions clicks pick from (``_pairs``) by first cell, with the lit cells of an empty selection."""
        return self._here().first(self.active_mode(), self._pairs())

    def click(self, name: str) -> None:
        """A click on a cell: extend the selection, play the action it completes, or say why not (in the editor:
        set the chosen piece there)."""
        if name not in self.ids:
            raise WidgetError(f"there is no cell {_short(name, 20)!r} on this board")
        if self.editing:
            self.edit_click(name)
            return
        cell = self.ids[name]
        st = self.state
        self.blocks = []
        if st.is_terminal():
            raise WidgetError("the game is over: Undo, or start a new game")
        if st.current_player() == CHANCE:
            raise WidgetError("chance moves next: press Roll")
        if st.current_player() in self.agents:
            raise WidgetError(f"{self.label(st.current_player())} is played by {self.agents[st.current_player()]}")
        if self.selection and cell == self.selection[-1]:
            self.selection, self.choices = [], []
            self.message, self.level = "selection cleared", "info"
            return
        if self._capped():
            self._click_step(cell)
            return
        index = self._index()[0]
        seq = [*self.selection, cell]
        tseq = tuple(seq)
        matching = [a for a, cells in index.get(seq[0], ()) if cells[:len(seq)] == tseq]
        if not matching and self.selection:
            fresh = [a for a, _ in index.get(cell, ())]
            if fresh:  # a click on another piece starts again from it
                self.selection = []
                seq, matching = [cell], fresh
        if not matching:
            self.level = "warn"
            self.message = self._why_not(seq)
            if self._exact:  # the game said exactly why this piece cannot go there: the selection ends, the reason stays
                self.selection, self.choices = [], []
            return
        complete = [a for a in matching if len(self._cells(a)) == len(seq)]
        longer = [a for a in matching if len(self._cells(a)) > len(seq)]
        if len(complete) == 1 and not longer:
            self.message = ""
            self._play(complete[0])
            self.message = f"played {self._last_decision_text()}" + (f"; then {self.message}" if self.message.startswith("roll") else "")
            self.level = "info"
            return
        self.selection = seq
        self.choices = complete[:MAX_CHOICES]
        self.level = "info"
        picked = "-".join(self.names[c] for c in seq)
        self.message = (f"{picked}: choose one of {len(complete)} below" if complete else f"{picked} selected")
        mode = self.active_mode()
        if mode and not complete:
            longest = max(len(self._cells(a)) for a in longer)
            self.message = f"{self._mode_words(mode)[0]}: {picked} (click {len(seq) + 1} of {longest}: a lit cell)"
        if complete and longer:
            self.message += ", or click a lit cell"

    def _capped(self) -> bool:
        """More legal actions here than a view walks (MAX_VIEW_ACTIONS), outside a mode and the editor."""
        return not self.editing and not self.active_mode() and self._here().total > MAX_VIEW_ACTIONS

    def _step(self, seq: list[int]) -> tuple[list[int], list[Any], str]:
        """The game's click builder (``State.click_step``) after ``seq``: the next cells, the completed actions
        (at most MAX_CHOICES) and what the next click picks; nothing when the game builds none by clicks."""
        key = (self._serial, self.node.id, self.state.move_number(), tuple(seq))
        if self._stepped is not None and self._stepped[0] == key:
            return self._stepped[1]
        try:
            got = self.state.click_step(list(seq))
        except Exception:  # noqa: BLE001 - a game's builder failing leaves the move box, never breaks the board
            got = None
        nxt, done, words = got if got is not None else ([], [], "")
        out = ([c for c in list(nxt)[:len(self.names)] if isinstance(c, int) and 0 <= c < len(self.names)],
               list(done)[:MAX_CHOICES], _short(str(words or ""), 120))
        self._stepped = (key, out)
        return out

    def _click_step(self, cell: int) -> None:
        """A click where the legal list is too long to walk: one step of the game's builder (``State.click_step``),
        playing the action when the clicks complete exactly one, else offering the completed ones as buttons."""
        seq = [*self.selection, cell]
        nxt, done, words = self._step(seq)
        picked = "-".join(self.names[c] for c in seq)
        if not nxt and not done:
            self.level = "warn"
            try:
                exact = self.state.explain_cells(list(seq))
            except Exception:  # noqa: BLE001 - a game's explainer failing must not hide the generic answer
                exact = None
            if exact and exact.get("text"):
                self.message = _short(str(exact["text"]))
            elif self._step([])[0] or self.selection:
                self.message = f"{picked}: no legal action picks these cells (lit cells do)"
            else:
                self.message = self.actions_words()
            return
        if len(done) == 1 and not nxt:
            self.message = ""
            self._play(done[0])
            self.message = f"played {self._last_decision_text()}" + (f"; then {self.message}" if self.message.startswith("roll") else "")
            self.level = "info"
            return
        self.selection, self.choices, self.level = seq, done, "info"
        self.message = (f"{picked}: choose one of {len(done)} below" + (", or click a lit cell" if nxt else "")
                        if done else f"{picked} selected; click {len(seq) + 1}: {words or 'a lit cell'}")

    def _why_not(self, seq: list[int]) -> str:
        """The game's own reason for a click on an unlit cell: its exact one for these cells (``explain_cells``,
        with the cells that block it), else ``explain_illegal`` of the nearest text."""
        st = self.state
        name = self.names[seq[-1]]
        self.blocks, self._exact = [], False
        mode = self.active_mode()
        if mode:  # a multi-step action's mode: only its actions' cells are lit
            label = self._mode_words(mode)[0]
            picked = "-".join(self.names[c] for c in seq)
            return f"{label}: no {label} picks {picked} (lit cells do; press {label} again to leave it)"
        try:
            exact = st.explain_cells(list(seq))
        except Exception:  # noqa: BLE001 - a game's explainer failing must not hide the generic answer
            exact = None
        if exact and exact.get("text"):
            self.blocks = [self.names[c] for c in exact.get("blocks") or [] if isinstance(c, int) and 0 <= c < len(self.names)]
            self._exact = True
            return _short(str(exact["text"]))
        if len(seq) > 1:
            # an action from the same source, with the clicked cell put where its last cell is
            for a in self._legal():
                cells = self._cells(a)
                if len(cells) == len(seq) and list(cells[:-1]) == seq[:-1]:
                    text = st.action_to_string(a)
                    other = self.names[cells[-1]]
                    guess = re.sub(rf"(?<![\w,]){re.escape(other)}(?![\w,])", name, text, count=1)
                    if guess != text:
                        try:
                            return _short(st.explain_illegal(guess))
                        except Exception:  # noqa: BLE001 - a game's explainer failing must not hide the answer
                            break
            return f"{'-'.join(self.names[c] for c in seq)}: no legal action picks these cells"
        owner = next((g.owner for g in st.glyphs() if g.cell == seq[-1] and g.piece), None)
        me = st.current_player()
        players = self.info().players
        if owner is not None and owner != me and 0 <= owner < len(players) and 0 <= me < len(players):
            return f"{name} holds a {players[owner]} piece; {players[me]} is to move"
        return f"{name}: no legal action starts on this cell (lit cells do)"

    def choose(self, index: int) -> None:
        """A button: one of the actions the current click sequence completes, or one that picks no cell."""
        buttons = self.buttons()
        if not 0 <= index < len(buttons):
            raise WidgetError(f"there is no button {index} here")
        self.message = ""
        self._play(buttons[index])
        self.message = f"played {self._last_decision_text()}" + (f"; then {self.message}" if self.message.startswith("roll") else "")
        self.level = "info"

    def _decision_node(self) -> Any:
        """The last decision's node (the rolls after it skipped)."""
        n = self.node
        while n.parent is not None and n.effects.get("player") == CHANCE:
            n = n.parent
        return n

    def _last_decision_text(self) -> str:
        n = self.node
        while n.parent is not None and n.effects.get("player") == CHANCE:
            n = n.parent
        return n.text

    def hover_reason(self, name: str) -> str:
        """What a click on ``name`` would do (a lit cell's preview) or the game's reason why it does nothing."""
        if name not in self.ids:
            raise WidgetError(f"there is no cell {_short(name, 20)!r} on this board")
        st = self.state
        if st.is_terminal() or st.current_player() == CHANCE:
            text = "the game is over" if st.is_terminal() else "chance moves next"
        else:
            cell = self.ids[name]
            seq = [*self.selection, cell]
            index = {} if self._capped() else self._index()[0]
            tseq = tuple(seq)
            matching = [a for a, cells in index.get(seq[0], ()) if cells[:len(seq)] == tseq]
            if not matching and self.selection:
                matching = [a for a, _ in index.get(cell, ())]
            if self._capped() and cell in self._step(self.selection)[0]:
                picks = self._step(self.selection)[2]
                nxt, done, _ = self._step(seq)
                text = (str(self._effects(done[0]).get("text") or st.action_to_string(done[0])) if len(done) == 1 and not nxt
                        else f"{name}: click {len(seq)}" + (f", {picks}" if picks else "")
                        + (f"; {len(done)} actions complete here" if done else ""))
            elif matching:
                complete = [a for a in matching if len(self._cells(a)) == len(seq)]
                if len(complete) == 1 and len(matching) == 1:
                    text = str(self._effects(complete[0]).get("text") or st.action_to_string(complete[0]))
                else:
                    text = f"{name}: {len(matching)} actions continue here"
            else:
                kept = self.blocks, self._exact  # a hover explains; the last click's blocking cells stay drawn
                text = self._why_not(seq)
                self.blocks, self._exact = kept
                by = self._attackers().get(name)
                if by:  # the lines the page draws into this cell, in words too
                    text += f"; {name} is attacked from " + ", ".join(f"{a} ({seat})" for a, seat in by[:12])
        self.hover = {"cell": name, "text": _short(text, 300)}
        return self.hover["text"]

    def nav(self, to: str, count: int = 1) -> None:
        """Keyboard stepping, presses queued by the page into one message: ``back``/``forward`` ``count`` moves
        (stopping at either end), ``home`` the start, ``end`` the end of the line."""
        if to == "home":
            self.goto(self.tree.root.id)
        elif to == "end":
            end = self.tree.line_end(self.node)
            if end is not self.node:
                self.goto(end.id)
        elif to in ("back", "forward"):
            moved = 0
            for _ in range(max(1, int(count))):
                if (self.node.parent is None) if to == "back" else (self.node.next() is None):
                    break
                (self.undo if to == "back" else self.redo)()
                moved += 1
            if not moved:
                raise WidgetError("this is the start" if to == "back" else "this is the end of the line")
        else:
            raise WidgetError("nav goes back, forward, home or end")

    def line_end(self) -> None:
        """To the end of the line through the current move (End)."""
        end = self.tree.line_end(self.node)
        if end is self.node:
            raise WidgetError("this is the end of the line")
        self.goto(end.id)

    def annotate(self, sign: str = "", comment: str = "") -> None:
        """A sign (!, ?, !!, ??, !?, ?!) and a note on the current move; saved in the record with its variations."""
        if self.node.parent is None:
            raise WidgetError("annotate a move: go to one first")
        if sign not in ANNOTATION_SIGNS:
            raise WidgetError(f"an annotation is one of {' '.join(s for s in ANNOTATION_SIGNS if s)} (or none)")
        for key, value in (("sign", sign), ("comment", comment.strip())):
            if value:
                self.node.shapes[key] = [[value]]
            else:
                self.node.shapes.pop(key, None)
        self.message, self.level = f"{self.node.text}: annotated" if sign or comment.strip() else "annotation removed", "info"

    # ------------------------------------------------------------------ the variation tree, drawings, copy and paste
    def promote(self, node_id: int) -> None:
        """Move the variation of move ``node_id`` one level up."""
        node = self.tree.get(node_id)
        if node is None or node.parent is None:
            raise WidgetError(f"there is no move {node_id} in this game")
        if self.tree.promote(node) is None:
            raise WidgetError(f"{node.text} is on the main line already")
        self.message, self.level = f"{node.text}: its line moved up", "info"

    def delete(self, node_id: int) -> None:
        """Remove move ``node_id`` and what follows it (the board goes to the move before it if it was on it)."""
        node = self.tree.get(node_id)
        if node is None or node.parent is None:
            raise WidgetError(f"there is no move {node_id} in this game")
        on_it = False
        n: Any = self.node
        while n is not None:
            if n is node:
                on_it = True
                break
            n = n.parent
        parent = node.up
        if on_it:
            self.goto(parent.id)
        self.tree.delete(node)
        self.message, self.level = f"{node.text} and what followed it deleted", "info"

    def back_to_main_line(self) -> None:
        """To the main-line move where the current variation left it."""
        n = self.node
        while n.parent is not None and not n.is_main():
            n = n.parent
        if n is self.node:
            raise WidgetError("this move is on the main line")
        self.goto(n.id)
        m = n
        while m.children:  # → and End follow the main line again from here
            m.last = m.children[0]
            m = m.children[0]

    def shape(self, start: str, end: str, colour: str) -> None:
        """An arrow from ``start`` to ``end`` (a circle when they are the same cell) on this move; again removes it."""
        for name in (start, end):
            if name not in self.ids:
                raise WidgetError(f"there is no cell {_short(name, 20)!r} on this board")
        kind, item = ("circles", [start, colour]) if start == end else ("arrows", [start, end, colour])
        items = self.node.shapes.setdefault(kind, [])
        same = [x for x in items if x[:-1] == item[:-1]]
        if same:
            items.remove(same[0])
        elif len(items) < 60:
            items.append(item)
        if not items:
            self.node.shapes.pop(kind, None)

    def clear_shapes(self) -> None:
        for kind in ("arrows", "circles"):
            self.node.shapes.pop(kind, None)

    def drag(self, start: str, end: str) -> None:
        """A piece dragged from ``start`` to ``end``: the two clicks of a move."""
        self.selection, self.choices = [], []
        self.click(start)
        if self.selection:
            self.click(end)

    def copy_text(self, what: str) -> str:
        """The moves of the current line (the game's notation, one per line) or the position (``to_dict`` JSON)."""
        import json

        if what == "position":
            return json.dumps(self.state.to_dict(), sort_keys=True, default=str)
        path = []
        n = self.node
        while n.parent is not None:
            path.append(n.text)
            n = n.parent
        return "\n".join(reversed(path))

    def paste(self, text: str) -> None:
        """A position (JSON of ``to_dict``: the text position editor) becomes a new start; anything else is moves in
        the game's notation, one per line (or separated by spaces when no action text has one), played from here."""
        import json

        text = text.strip()
        if not text:
            raise WidgetError("nothing to paste")
        if text.startswith("{"):
            try:
                data = json.loads(text)
                state = self.game.state_from_dict(data)
            except (ValueError, TypeError, KeyError) as exc:
                raise WidgetError(_short(f"pasted position: {exc}")) from None
            self.scenario, self.scenario_name, self.check_results, self.check_index = None, "", [], -1
            self._new_root(state)
            self.message, self.level = "pasted position: a new start (Copy it to keep it)", "info"
            return
        lines = [x.strip() for x in text.splitlines() if x.strip()]
        if len(lines) == 1 and " " in lines[0] and not self._one_action(lines[0]):
            lines = lines[0].split()
        if len(lines) > MAX_RECORD_MOVES:
            raise WidgetError(f"at most {MAX_RECORD_MOVES} pasted moves")
        start = self.node
        try:
            self._replay(lines, "pasted")
        except WidgetError:
            self.goto(start.id)
            raise
        self.message, self.level = f"pasted {len(lines)} moves", "info"

    def _one_action(self, line: str) -> bool:
        """Whether ``line`` is one legal action here, spaces and all (The Cursed Lands' ``camp castle=e1 ...``)."""
        st = self.state
        if st.is_terminal() or st.current_player() == CHANCE:
            return False
        try:
            st.string_to_action(line)
        except Exception:  # noqa: BLE001 - not one action: the line is read as several
            return False
        return True

    def scenario_text(self) -> str:
        """The position as a scenario file of this game (``GameDef.dump_scenario``), for the rulebook's cases."""
        try:
            note = "describe what this position shows; then list legal/illegal actions or play and expect"
            return self.game.dump_scenario(self.state, f"board-{self.node.ply}", f"{self.game.title}: a position from the board",
                                           checks=[{"note": note, "legal": [], "illegal": []}])
        except NotImplementedError:
            raise WidgetError(f"{self.game.name} writes no scenario files") from None

    def analysis_spec(self, depth: int = 2, seconds: float = AGENT_SECONDS) -> str:
        """The agent Evaluate and the analysis search with: the game's own (``GameDef.analysis_agent``: TerraFeud's
        tuned ``search``), else the generic ``alphabeta`` at ``depth``; capped like every page agent, its clock at
        most ``seconds``."""
        spec = self.game.analysis_agent or f"alphabeta:depth={depth},nodes=20000"
        text, _ = capped_agent_spec(spec, self.game_agents(), weights=self.weights_files())
        if "seconds=" in text:
            text = re.sub(r"seconds=([0-9.e+-]+)", lambda m: f"seconds={min(float(m.group(1)), seconds):g}", text)
        return text

    def score_words(self, score: float, state: State, player: int) -> str:
        """An agent's score (``player``'s view) in words: the game's own (a forced result, ``GameDef.score_words``),
        else a forced result by the search's win value, else who is better by how much, in the game's unit."""
        try:
            said = str(self.game.score_words(score, state, player) or "")
        except Exception:  # noqa: BLE001 - words are a help, never a failure
            said = ""
        if said:
            return said
        from workbench.core.agents import WIN

        who, unit = self.label(player), self.game.evaluation_unit
        if abs(score) >= WIN / 2:
            return f"{who} {'wins' if score > 0 else 'loses'} by force (the search sees the end)"
        if abs(score) < 0.005:
            return f"level (0.00 {unit})"
        return f"{who} is {'better' if score > 0 else 'worse'} by {abs(score):.2f} {unit}"

    def _scored(self, score: Any, state: State, player: int) -> str:
        """`` (score +1.50 coins: Red is better by 1.50 coins)``, or `` (White wins by force ...)`` without the search's
        win value, or "" when the agent gave no score."""
        if not isinstance(score, (int, float)) or score != score:
            return ""
        words = self.score_words(float(score), state, player)
        if "by force" in words:
            return f" ({words})"
        return f" (score {score:+.2f} {self.game.evaluation_unit}: {words})"

    def analyse(self, depth: int = 2, lines: int = 3, length: int = 4, state: State | None = None) -> list[dict[str, Any]]:
        """Best lines here (or in ``state``, a copy taken under the widget's lock), every score one agent's on one
        scale (``by``): the analysis agent's (``analysis_spec``: the game's own where it declares one, on its native
        engine where it has one). Line 1 is its choice; the next lines are searched again with the earlier bests
        excluded at the root (a real search per line, as multi-PV engines do). An agent that cannot exclude root
        moves has them proposed by the generic ``alphabeta`` (``proposed_by``) and scores every line, the first
        too, by searching the position after its first move; the lines are then ordered by those scores. Each
        line is followed by the replies expected (``length`` plies), its score from the seat to move's view and in
        words (thread-safe: copies only)."""
        from workbench.agents.generic import make_protocol_agent

        st = (state if state is not None else self.state).clone()
        if st.is_terminal() or st.current_player() == CHANCE:
            return []
        _refuse_too_many("analysis", st)
        legal = list(st.legal_actions())
        me = st.current_player()
        spec = self.analysis_spec(depth, LINE_SECONDS)
        generic = f"generic-alphabeta:depth={depth},nodes=20000,seconds={LINE_SECONDS:g}"  # it excludes root moves
        out: list[dict[str, Any]] = []
        excluded: list[Any] = []
        rescore = False  # the analysis agent cannot exclude: it scores each line after its first move
        for k in range(min(lines, len(legal))):
            by = spec
            if k == 0:
                agent = self.make_agent(spec)
            else:
                agent = make_protocol_agent(spec, self.game, self.rules, seed=self.seed)
                if not isinstance(getattr(agent, "exclude", None), list):  # an agent's attribute, not a game's hook
                    rescore, by = True, generic
                    agent = make_protocol_agent(generic, self.game, self.rules, seed=self.seed)
                agent.exclude = list(excluded)
            probe = st.clone()
            first = agent.select_action(probe)
            score = getattr(agent, "score", None)
            line = [probe.action_to_string(first)]
            probe.apply_action(first)
            for _k in range(length - 1):
                if probe.is_terminal() or probe.current_player() == CHANCE:
                    break
                reply = make_protocol_agent(f"alphabeta:depth={max(1, depth - 1)},nodes=5000,seconds=0.3", self.game,
                                            self.rules, seed=self.seed).select_action(probe.clone())
                line.append(probe.action_to_string(reply))
                probe.apply_action(reply)
            value = float(score) if isinstance(score, (int, float)) and score == score else None
            out.append({"moves": line, "score": None if value is None else round(value, 2), "first": first,
                        "unit": self.game.evaluation_unit, "by": spec, "proposed_by": by,
                        "depth": getattr(agent, "depth_reached", None) or getattr(agent, "reached", None) or depth})
            excluded.append(first)
            if len(excluded) >= len(legal):
                break
        if rescore:
            for row in out:
                row["score"], searched = self._score_after(spec, st, row["first"], me)
                row["depth"] = searched or row["depth"]
            out.sort(key=lambda row: -math.inf if row["score"] is None else -row["score"])
        else:
            self._even_depths(out, spec, st, legal)
        for row in out:
            row.pop("first")
            row["words"] = "" if row["score"] is None else self.score_words(float(row["score"]), st, me)
            row["seat"], row["view"] = self.label(me), self.view_words(me)  # every line's score: the mover's view
        return out

    def _even_depths(self, out: list[dict[str, Any]], spec: str, st: State, legal: list[Any]) -> None:
        """One scale across lines: where a clock or node budget stopped some lines' searches shallower than others
        (the excluded moves make lines 2 and 3 cheaper), every line deeper than the shallowest is scored again at that
        depth, its own first move alone at the root, and the lines are ordered by those scores."""
        from workbench.agents.generic import make_protocol_agent

        depths = [row["depth"] for row in out]
        if "depth=" not in spec or not all(isinstance(d, int) and d > 0 for d in depths) or len(set(depths)) < 2:
            return
        low = min(depths)
        even = re.sub(r"depth=\d+", f"depth={low}", spec)
        for row in out:
            if row["depth"] == low:
                continue
            agent = make_protocol_agent(even, self.game, self.rules, seed=self.seed)
            agent.exclude = [a for a in legal if a != row["first"]]  # the line's move alone, searched to ``low``
            agent.select_action(st.clone())
            score = getattr(agent, "score", None)
            if isinstance(score, (int, float)) and score == score:
                row["score"], row["depth"] = round(float(score), 2) + 0.0, getattr(agent, "depth_reached", None) or low
        out.sort(key=lambda row: -math.inf if row["score"] is None else -row["score"])

    def _score_after(self, spec: str, st: State, action: Any, me: int) -> tuple[float | None, Any]:
        """``action``'s score by the agent ``spec`` from ``me``'s view: the agent searches the position after it,
        its score turned to ``me``'s view (negated when an opponent moves there; a finished game scores its
        result at the search's win value). None where it cannot say: a roll next, more than two sides, or an
        agent without a score. Returns the rounded score and the depth searched."""
        from workbench.core.agents import WIN

        after = st.clone()
        after.apply_action(action)
        info = self.info()
        if after.is_terminal():
            result = after.returns()[me]
            return (0.0 if result == 0 else round(math.copysign(WIN, result), 2)), 0
        mover = after.current_player()
        if mover == CHANCE or len(info.teams) != 2:
            return None, None
        agent = self.make_agent(spec)
        agent.select_action(after)
        score = getattr(agent, "score", None)
        if not isinstance(score, (int, float)) or score != score:
            return None, None
        same = info.team_of(mover) == info.team_of(me)
        depth = getattr(agent, "depth_reached", None) or getattr(agent, "reached", None)
        return round(float(score) if same else -float(score), 2) + 0.0, depth  # + 0.0: never "-0.00"

    # ------------------------------------------------------------------ the position editor
    def edit_codes(self) -> dict[str, tuple[int, str]]:
        """The editor's palette for the edited position (``GameDef.edit_pieces``): code -> (owner seat, words)."""
        return {code: (owner, words) for code, owner, words in self._palette}

    def start_editing(self) -> None:
        """The graphical editor on the position shown: pick a piece (or remove), click cells; Done starts there."""
        if not self.layout.cells:
            raise WidgetError(f"{self.game.title} has no cells: Copy the position, edit its JSON, Paste it")
        data = self.game.edit_form(self.state)
        palette = list(self.game.edit_pieces(data))
        if not palette:
            raise WidgetError(f"{self.game.title} declares no editor pieces: Copy the position, edit its JSON, Paste it")
        self.edit_data, self._palette = data, palette
        self.edit_piece = next((c for c, o, _ in palette if o >= 0), palette[0][0])
        self.edit_opts, self.edit_first = {}, ""
        self.editing, self.edit_error, self._edit_state = True, "", self.state.clone()
        self._edit_shown = self.state.clone()
        self.selection, self.choices = [], []
        self.message, self.level = "editor: pick a piece (or remove) and click cells; Done plays on from there", "info"

    def _need_editor(self) -> None:
        if not self.editing:
            raise WidgetError("the editor is not open (press Edit position)")

    def _options(self, code: str) -> list[tuple[str, str, tuple[str, ...]]]:
        """The settings a click with ``code`` takes (``GameDef.edit_options``)."""
        if not code:
            return []
        try:
            return [(str(n), str(w), tuple(str(c) for c in ch)) for n, w, ch in self.game.edit_options(self.edit_data, code)]
        except (ValueError, TypeError, KeyError):
            return []

    def set_edit_piece(self, code: str) -> None:
        """What a click sets: a code of the game's palette (``GameDef.edit_pieces``), or "" (remove)."""
        self._need_editor()
        if code and code not in self.edit_codes():
            raise WidgetError(f"{_short(code, 10)!r} is not a piece of {self.game.title}'s editor")
        self.edit_piece, self.edit_first = code, ""
        what = self.edit_codes()[code][1] if code else "remove"
        how = "click the first cell, then the second" if code in self.game.edit_pairs else "click the cells to set"
        self.message, self.level = f"editor: {what}; {how}", "info"

    def set_edit_option(self, name: str, value: str) -> None:
        """One setting of the pieces the next clicks place (The Cursed Lands' hit points, big chess's facing)."""
        self._need_editor()
        for opt, words, choices in self._options(self.edit_piece):
            if opt == name:
                if value not in choices:
                    raise WidgetError(_short(f"editor: {words} must be one of {', '.join(choices)}"))
                self.edit_opts[name] = value
                self.message, self.level = f"editor: {words} {value} for the next pieces placed", "info"
                return
        raise WidgetError(_short(f"editor: {self.edit_piece or 'remove'} takes no setting {name!r}"))

    def _edited(self, data: dict[str, Any]) -> None:
        """Keep the edit and draw it when it is already a position; else say what is still wrong (the game's
        own checks, ``GameDef.edit_state``: the cell and the rule)."""
        self.edit_data = data
        try:
            self._edit_state = self.game.edit_state(data)
            self._edit_shown = self._edit_state
            self.edit_error = ""
        except (ValueError, TypeError, KeyError) as exc:
            self._edit_state = None
            self.edit_error = _short(f"not a position yet: {exc}", 200)
        try:
            self._palette = list(self.game.edit_pieces(data)) or self._palette
        except (ValueError, TypeError, KeyError):
            pass

    def edit_click(self, name: str) -> None:
        self._need_editor()
        if name not in self.ids:
            raise WidgetError(f"there is no cell {_short(name, 20)!r} on this board")
        code = self.edit_piece
        words = self.edit_codes().get(code, (0, "nothing"))[1] if code else "emptied"
        if code in self.game.edit_pairs:
            if not self.edit_first:
                self.edit_first = name
                self.message, self.level = f"editor: {words}: from {name}; click the second cell (the same to remove)", "info"
                return
            first, self.edit_first = self.edit_first, ""
            try:
                self._edited(self.game.edit_pair(dict(self.edit_data), first, name, code))
            except (ValueError, TypeError, KeyError) as exc:
                raise WidgetError(_short(f"editor: {first}-{name}: {exc}")) from None
            said = f"{first}-{name}: {words}" if first != name else f"{first}: {words} removed"
        else:
            opts = {n: self.edit_opts.get(n, ch[0]) for n, _, ch in self._options(code) if ch}
            try:
                self._edited(self.game.edit_cell(dict(self.edit_data), name, code, opts or None))
            except (ValueError, TypeError, KeyError) as exc:
                raise WidgetError(_short(f"editor: {name}: {exc}")) from None
            said = f"{name}: {words}" + "".join(f", {n} {v}" for n, v in opts.items())
        self.message, self.level = (said + (f" · {self.edit_error}" if self.edit_error else "")), \
            "warn" if self.edit_error else "info"

    def set_edit_to_move(self, player: int) -> None:
        self._need_editor()
        try:
            self._edited(self.game.edit_to_move(dict(self.edit_data), int(player)))
        except (ValueError, TypeError, KeyError) as exc:
            raise WidgetError(_short(f"editor: {exc}")) from None
        self.message, self.level = f"{self.label(int(player))} to move in the edited position", "info"

    def clear_edit(self) -> None:
        """Every piece off (a blank board to build a problem on)."""
        self._need_editor()
        try:
            self._edited(self.game.edit_clear(dict(self.edit_data)))
        except (ValueError, TypeError, KeyError) as exc:
            raise WidgetError(_short(f"editor: {exc}")) from None
        self.message, self.level = "editor: board cleared" + (f" · {self.edit_error}" if self.edit_error else ""), "info"

    def finish_editing(self) -> bool:
        """Play on from the edited position (a new start); False and the game's reason when it is not a position."""
        self._need_editor()
        try:
            state = self.game.edit_state(self.edit_data)
        except (ValueError, TypeError, KeyError) as exc:
            self.message, self.level = _short(f"editor: {exc}"), "warn"
            return False
        self.editing, self.edit_data, self._edit_state = False, {}, None
        self.scenario, self.scenario_name, self.check_results, self.check_index = None, "edited position", [], -1
        self._new_root(state)
        self.message, self.level = "edited position ready", "info"
        return True

    def cancel_editing(self) -> None:
        if self.editing:
            self.editing, self.edit_data, self._edit_state, self.edit_error = False, {}, None, ""
            self.message, self.level = "editor closed; edits discarded", "info"

    def _edit_glyphs(self) -> list[Any]:
        """The editor's drawing: the edited position when it is one, else the last edit that was one, with the
        pieces of a ``pieces`` map (cell -> code) drawn as edited."""
        if self._edit_state is not None:
            return list(self._edit_state.glyphs())
        codes = self.edit_codes()
        raw = self.edit_data.get("pieces")
        pieces = {self.ids[str(c)]: str(v) for c, v in raw.items() if str(c) in self.ids and isinstance(v, str)} \
            if isinstance(raw, dict) and all(isinstance(v, str) for v in raw.values()) else None
        shown = self._edit_shown if self._edit_shown is not None else self.state
        if pieces is None:
            return list(shown.glyphs())
        out = []
        for g in shown.glyphs():
            code = pieces.pop(g.cell, "")
            out.append(Glyph(g.cell, terrain=g.terrain, piece=code, owner=codes.get(code, (None, ""))[0] if code else None))
        return out

    def load_scenario_text(self, text: str, source: str) -> None:
        """A scenario file's text (an upload from the page): checked like a picked one; it opens no server file."""
        from workbench.core.rulespec import format_value
        from workbench.core.safefile import page_input
        from workbench.scenarios.loader import load_scenario_text

        with page_input(SCENARIO_ROOT):
            try:
                case = load_scenario_text(text, source=source)
                named = getattr(case, "game", "")
                if isinstance(named, str) and named and named != self.game.name:
                    raise WidgetError(f"a scenario of {named}, not of {self.game.name}")
                state = self.game.scenario_state(case)
                if not isinstance(state, type(self.root_state)):
                    raise WidgetError(f"a scenario of another game, not of {self.game.name}")
                rules = self.game.state_rules(state)
                if rules is not None:  # a later New game under these rules would open the file it names
                    self.game.spec.refuse_paths({k: format_value(v) for k, v in rules.items() if v is not None},
                                                "an uploaded scenario")
                results = case.run()
            except WidgetError:
                raise
            except Exception as exc:  # noqa: BLE001 - one plain message (the loader names the line)
                raise WidgetError(_short(str(exc) if isinstance(exc, ValueError) else f"{source}: {type(exc).__name__}")) from None
        self.scenario, self.scenario_name = case, source
        self.check_results = list(results)
        self.check_index = 0 if results else -1
        self.cancel_editing()
        self._new_root(state)
        self._check_line()
        self._checks_said(source)

    def set_overlay(self, name: str, on: bool) -> None:
        """Switch one of the game's overlays (``GameDef.overlays``) on or off."""
        names = [n for n, _ in self.game.overlays]
        if name not in names:
            raise WidgetError(f"overlay must be one of {', '.join(names) or 'none (this game declares none)'}")
        (self.overlays.add if on else self.overlays.discard)(name)
        words = dict(self.game.overlays)[name]
        self.message, self.level = f"{words}: {'shown (see the legend)' if on else 'hidden'}", "info"

    def cancel(self) -> None:
        self.selection, self.choices = [], []
        self.mode = ""
        self.message, self.level = "selection cleared", "info"

    # ------------------------------------------------------------------ multi-step actions (GameDef.action_modes)
    def _mode_words(self, name: str) -> tuple[str, str]:
        """A declared mode's button words and what it is."""
        for mode, label, words in self.game.action_modes:
            if mode == name:
                return label, words
        raise WidgetError(f"mode must be one of {', '.join(m for m, _, _ in self.game.action_modes) or 'none (this game declares none)'}")

    def active_mode(self) -> str:
        """The mode switched on at this position ("" when none, or when the position changed since)."""
        return self.mode if self.mode and self._mode_at == self.where() else ""

    def _mode_actions(self) -> dict[str, list[Pair]]:
        """The legal actions of each declared mode here (``State.action_mode``), asked once per position."""
        here = self._here()
        if here.modes is None:
            out: dict[str, list[Pair]] = {m: [] for m, _, _ in self.game.action_modes}
            if out:
                for a, cells in here.pairs:
                    try:
                        mode = str(self.state.action_mode(a) or "")
                    except Exception:  # noqa: BLE001 - a game's help, never a failure
                        mode = ""
                    if mode in out:
                        out[mode].append((a, cells))
            here.modes = out
        return here.modes

    def _pairs(self) -> list[tuple[Any, tuple[int, ...]]]:
        """The actions clicks pick from: every legal one, or only those of the mode switched on."""
        mode = self.active_mode()
        return self._mode_actions().get(mode, []) if mode else self._legal_cells()

    def set_mode(self, name: str, on: bool = True) -> None:
        """Switch a multi-step action's mode on (its button: TerraFeud's Order) or off; refused, with the mode's
        own words, where none of its actions is legal."""
        label, words = self._mode_words(name)
        self.selection, self.choices = [], []
        if not on:
            self.mode = ""
            self.message, self.level = f"{label}: off; clicks pick any action", "info"
            return
        st = self.state
        if st.is_terminal() or st.current_player() == CHANCE:
            raise WidgetError(f"{label}: {'the game is over' if st.is_terminal() else 'chance moves next'}")
        acts = self._mode_actions().get(name, [])
        if not acts:
            raise WidgetError(f"{label}: none is legal here; {words}")
        self.mode, self._mode_at = name, self.where()
        steps = max(len(c) for _, c in acts)
        self.message, self.level = f"{label} ({len(acts)} legal, {steps} clicks): {words}", "info"

    def _modes_view(self) -> list[dict[str, Any]]:
        """The modes' buttons: words, on, and whether any of its actions is legal here."""
        if not self.game.action_modes or self.editing:
            return []
        acts = self._mode_actions()
        active = self.active_mode()
        return [{"name": m, "label": label, "words": words, "on": m == active, "available": bool(acts.get(m))}
                for m, label, words in self.game.action_modes]

    def buttons(self) -> list[Any]:
        """The actions shown as buttons: those the selection completes, else every action that picks no cell,
        and every single-cell action whose cell several actions share (a palette opens there on click)."""
        free = self._here().free(self.active_mode(), self._pairs())
        return [*self.choices, *(a for a in free if a not in self.choices)] if self.selection else free

    def play_text(self, text: str, light: bool = False) -> None:
        """An action typed in the game's notation (the move box; tests)."""
        st = self.state
        try:
            action = st.string_to_action(text)
        except IllegalAction as exc:
            raise WidgetError(_short(str(exc))) from None
        if st.current_player() == CHANCE:
            words, turn = self._chance_words(action, text), st.turn()
            self.state.apply_action(action)
            self._undoable += 1
            node, _ = self.tree.add(self.node, action, text)
            node.to_move, node.effects, self.node = st.current_player(), {"player": CHANCE, "turn": turn, "words": words}, node
            self._after(node)
            self._roll_chance()
            return
        self._play(action, light)

    # ------------------------------------------------------------------ agents and evaluation
    def set_agent(self, player: int, spec: str) -> str:
        """A generic agent (capped as the TerraFeud board caps its own) for ``player``; an empty spec gives the seat back."""
        n = self.info().num_players
        if not 0 <= player < n:
            raise WidgetError(f"seat {player} does not exist: this game has {n} seats")
        if not spec.strip():
            was = self.agents.pop(player, None)
            who = f"{self.label(player)}'s agent {was} stopped; " if was else ""
            return who + ("people move every seat" if not self.agents else f"{self.label(player)} moves by hand")
        text, notes = capped_agent_spec(spec.strip(), self.game_agents(), weights=self.weights_files())
        self.agents[player] = text
        return f"{self.label(player)}: {text}" + (f" ({'; '.join(notes)})" if notes else "")

    def weights_files(self) -> list[str]:
        """Learned weights files this board offers by name (``eval=NAME``): the study's folder, then the game's."""
        from workbench.agents.learned import available_weights

        return available_weights(self.game)

    def game_agents(self) -> dict[str, AgentCaps]:
        """The game's own agents (``GameDef.game_agents``), which the board accepts too, with what the page may ask
        of each (``GameDef.agent_caps``; none declared: the name alone)."""
        caps = self.game.agent_caps
        return {name: caps.get(name, AgentCaps()) for name in self.game.game_agents()}

    def agent_due(self) -> bool:
        st = self.state
        return not st.is_terminal() and st.current_player() in self.agents

    @staticmethod
    def _pinned(spec: str) -> str:
        """The spec's ``engine=`` (``auto`` when absent)."""
        from workbench.agents import parse_agent_spec

        try:
            _, params = parse_agent_spec(spec)
        except ValueError as exc:
            raise WidgetError(_short(str(exc))) from None
        return str(params.get("engine", "auto")).strip().lower()

    def agent_engine(self, spec: str) -> str:
        """Which engine searches for ``spec``: ``native`` when the game has a native agent (``GameDef.native.agent``),
        its core is built and the spec is not pinned ``engine=python`` (``auto`` is the default), else ``python``;
        ``engine=native`` without a built core (or for a game without one) is a ``WidgetError``."""
        engine = self._pinned(spec)
        if engine == "python":
            return "python"
        has = self.game.native.exists
        built = has and self.game.native.available()
        if engine == "native" and not built:
            why = "its native core is not built (make native)" if has else "it has no native core"
            raise WidgetError(f"engine=native: {self.game.name} cannot play {spec!r}: {why}; use engine=python or auto")
        return "native" if built else "python"

    def make_agent(self, spec: str) -> Any:
        """The agent for ``spec`` at this node, on the engine ``agent_engine`` names (the native twin picks what
        the Python agent picks, faster); its ``engine`` attribute says which one searches."""
        from workbench.agents.generic import make_protocol_agent

        seed = (self.seed if self.agent_seed is None else self.agent_seed) + self.node.ply
        engine = self.agent_engine(spec)
        try:
            agent = self.game.native.agent(spec, self.rules, seed) if engine == "native" else None
            if agent is None:  # no native twin of this agent (a game's own agent): Python, unless pinned native
                if self._pinned(spec) == "native":
                    raise WidgetError(f"engine=native: {spec!r} has no native twin in {self.game.name}")
                agent = make_protocol_agent(spec, self.game, self.rules, seed=seed)
        except WidgetError:
            raise
        except ValueError as exc:
            raise WidgetError(_short(str(exc))) from None
        return agent

    def where(self) -> tuple[int, int]:
        """The position's token: the tree (a new game or scenario makes a new one) and the node in it."""
        return id(self.tree), self.node.id

    def think(self, spec: str | None = None) -> tuple[Any, float | None, Any]:
        """The move an agent picks here, its own score, and the node it was asked at (thread-safe: a copy).
        ``last_engine`` keeps which engine searched, for ``accept``'s message."""
        player = self.state.current_player()
        spec = spec or self.agents.get(player) or DEFAULT_AGENT
        agent = self.make_agent(spec)
        probe = self.state.clone()
        action = agent.select_action(probe)
        self.last_engine = getattr(agent, "engine", "python")
        return action, getattr(agent, "score", None), self.where()

    def agent_move(self) -> None:
        """One agent action, synchronously (the widget runs ``think`` in a thread and calls ``accept``)."""
        action, _score, at = self.think()
        self.accept(action, at)

    def accept(self, action: Any, at: Any, engine: str | None = None, score: Any = None) -> None:
        """Play an agent's action if the board is still where the agent was asked; the message names the
        engine that searched (``engine``, else the last ``think``'s)."""
        if at != self.where() and at != self.node.id:  # (a node id alone: older callers)
            raise WidgetError("the position changed while the agent was thinking; its move was dropped")
        who = self.label(self.state.current_player())
        self._play(action)
        node = self._decision_node()
        node.effects["agent"] = True
        if isinstance(score, (int, float)) and abs(float(score)) < 1e12:  # the agent's own value, its seat's view
            node.score = (round(float(score), 2), "search")
        spec = self.agents.get(self.node.effects.get("player", CHANCE), "agent")
        engine = engine or self.last_engine
        self.message = f"{who} ({spec}, {engine} engine) played {self._last_decision_text()}"
        self.level = "info"

    def evaluate(self, spec: str | None = None) -> str:
        """The analysis agent's (``analysis_spec``, or ``spec``'s) choice here and its score, in the game's unit and in
        words, beside the game's static evaluation for every seat."""
        st = self.state
        if st.is_terminal():
            self.evaluation = f"game over: {self.result_text()}"
            return self.evaluation
        if st.current_player() == CHANCE:
            raise WidgetError("chance moves next: roll before evaluating")
        text = capped_agent_spec(spec, self.game_agents(), weights=self.weights_files())[0] if spec else self.analysis_spec()
        me = st.current_player()
        action, score, _ = self.think(text)
        statics = ", ".join(f"{self.label(p)} {st.evaluate(p):+.2f}" for p in range(self.info().num_players))
        self.evaluation = (f"{text} ({self.last_engine} engine) for {self.label(me)}: {st.action_to_string(action)}"
                           + self._scored(score, st, me) + f"; static ({self.game.evaluation_unit}) {statics}")
        return self.evaluation

    # ------------------------------------------------------------------ records (download, upload, comments)
    def record_dict(self) -> dict[str, Any]:
        """The game as a record: rules, seed, the start position, the main line's actions (rolls included), and
        the variations, drawings, signs and comments of ``tree.to_json``."""
        actions = [n.text for n in self.tree.main_line()]
        out: dict[str, Any] = {"game": self.game.name, "version": RECORD_VERSION, "rules": {k: v for k, v in self.rules.to_dict().items() if v is not None},
                               "seed": self.seed, "start": self.root_state.to_dict(), "actions": actions}
        out.update(self.tree.to_json())
        if self.scenario_name:
            out["scenario"] = self.scenario_name
        return out

    def record_text(self) -> str:
        import json

        return json.dumps(self.record_dict(), indent=1, sort_keys=True, default=str)

    def load_record_data(self, data: Any, source: str = "record") -> None:
        """A record (``record_dict``'s form) replayed with the engine; the first bad field or move is named."""
        if not isinstance(data, dict):
            raise WidgetError(f"{source}: a record is a JSON mapping")
        if data.get("game") != self.game.name:
            raise WidgetError(f"{source}: field 'game' must be {self.game.name!r} on this board")
        version = data.get("version", 1)
        if not isinstance(version, int) or version > RECORD_VERSION:
            raise WidgetError(f"{source}: record version {_short(str(version), 10)} is newer than this board reads "
                              f"({RECORD_VERSION})")
        actions = data.get("actions", [])
        if not isinstance(actions, list) or len(actions) > MAX_RECORD_MOVES or not all(isinstance(a, str) for a in actions):
            raise WidgetError(f"{source}: field 'actions' must be a list of at most {MAX_RECORD_MOVES} action texts")
        try:
            given = data.get("rules") or {}
            if not isinstance(given, dict):
                raise ValueError("rules must be a mapping of rule values")
            given = {k: v for k, v in given.items() if v is not None}  # an unset value (no start file) is the default
            rules = self.game.spec.make(given)
            self.game.spec.refuse_paths(given, who="a record")
            start = data.get("start")
            if isinstance(start, dict):
                state = self.game.state_from_dict(start)
            else:
                state = self.game.new_initial_state(rules, seed=int(data.get("seed") or 0))
        except (ValueError, TypeError, KeyError) as exc:
            raise WidgetError(_short(f"{source}: field 'rules' or 'start': {exc}")) from None
        self.rules = rules
        self.seed = int(data.get("seed") or 0) if isinstance(data.get("seed"), int) else self.seed
        self.scenario, self.scenario_name, self.check_results, self.check_index = None, "", [], -1
        auto, self.auto_roll = self.auto_roll, False
        try:
            self._new_root(state)
            self._replay(actions, f"{source}: actions")
            end = self.node
            self._variations(self.tree.root, data.get("variations") or [], actions, f"{source}.variations", 0)
            for key, marks in (data.get("shapes") or {}).items():
                n = self._nth(self.tree.root, int(key)) if str(key).isdigit() else None
                if n is not None and isinstance(marks, dict):
                    n.shapes = {k: [[str(x)[:300] for x in row][:4] for row in v][:40] for k, v in marks.items()
                                if isinstance(v, list) and all(isinstance(r, list) for r in v)}
        finally:
            self.auto_roll = auto
        self.goto(end.id)
        self.message, self.level = f"{source}: {len(actions)} actions loaded", "info"

    def _nth(self, root: Any, k: int) -> Any:
        n = root
        for _ in range(k):
            if not n.children:
                return None
            n = n.children[0]
        return n

    def _replay(self, texts: list[Any], where: str) -> None:
        light_until = len(texts) - MOVES_SHOWN  # a long record's early moves: no words or evaluation (not listed)
        for i, text in enumerate(texts, start=1):
            if not isinstance(text, str):
                raise WidgetError(f"{where} move {i}: not an action text")
            try:
                self.play_text(text, light=i <= light_until)
            except WidgetError as exc:
                raise WidgetError(_short(f"{where} move {i} ({_short(text, 40)}): {exc}")) from None

    def _variations(self, start: Any, variations: list[Any], line: list[str], where: str, depth: int) -> None:
        """Each ``{"at": n, "moves": [...], "variations": [...]}`` played from move ``n`` of its parent line."""
        if depth > 30 or not isinstance(variations, list):
            return
        for j, var in enumerate(variations[:200]):
            if not isinstance(var, dict) or not isinstance(var.get("at"), int) or not isinstance(var.get("moves"), list):
                raise WidgetError(f"{where}[{j}]: a variation is {{'at': n, 'moves': [...]}}")
            node = start
            for i in range(min(var["at"], len(line))):  # the parent line's first ``at`` moves
                node = next((c for c in node.children if c.text == line[i]), node)
            self.goto(node.id)
            self._replay(var["moves"], f"{where}[{j}]")
            self._variations(node, var.get("variations") or [], var["moves"], f"{where}[{j}].variations", depth + 1)

    # ------------------------------------------------------------------ a game of a batch
    def batch_rows(self, path: str | Path) -> list[dict[str, Any]]:
        """The games of a simulate batch (``FILE.parquet``) for the picker: id, cell, result, length, agents."""
        games = _read_batch(path)
        if "game" in games.columns and len(games) and str(games["game"].iloc[0]) != self.game.name:
            raise WidgetError(f"{Path(path).name}: a batch of {games['game'].iloc[0]}, not {self.game.name}")
        self.batch_path = Path(path)
        rows = []
        for r in games.head(5000).to_dict("records"):
            agents = ", ".join(f"{k[6:]} {v}" for k, v in r.items() if k.startswith("agent_") and isinstance(v, str))
            rows.append({"game_id": int(r["game_id"]), "cell": str(r.get("cell", "")), "winner": str(r.get("winner", "")),
                         "victory": str(r.get("victory", "")), "plies": int(r.get("plies") or 0), "agents": agents})
        return rows

    def load_batch_game(self, path: str | Path, game_id: int) -> None:
        """Game ``game_id`` of a batch on the board: its rules and seed, then its events (decisions and rolls)
        replayed with the engine, each ply a move of the list; a batch without events or from an older
        version of the workbench gets a message that says so."""
        name = Path(path).name
        games = _read_batch(path)
        row = games[games["game_id"] == game_id]
        if row.empty:
            ids = games["game_id"]
            raise WidgetError(f"{name}: no game {game_id} (ids {ids.min()}..{ids.max()})" if len(ids) else f"{name}: no games")
        r = row.iloc[0].to_dict()
        if str(r.get("game", self.game.name)) != self.game.name:
            raise WidgetError(f"{name}: game {game_id} is {r.get('game')}, not {self.game.name}")
        missing = [c for c in ("seed", "rules") if c not in r]
        if missing:
            raise WidgetError(f"{name}: written by an older version of the workbench (no {', '.join(missing)} column); "
                              "run the batch again to open its games on the board")
        from workbench.core.rulespec import parse_pairs
        from workbench.simulate.dataset import read_events

        try:
            events = read_events(path)
        except Exception as exc:  # noqa: BLE001 - one plain message, no server path
            raise WidgetError(f"{name}: its events cannot be read ({type(exc).__name__})") from None
        if events.empty or "action" not in events.columns:
            raise WidgetError(f"{name} has no events table (or one from an older version): run simulate again with "
                              "--events to step through its games")
        mine = events[events["game_id"] == game_id].sort_values("ply")
        if mine.empty and int(r.get("plies") or 0) > 0:
            raise WidgetError(f"{name}: game {game_id} has no events (the batch kept none for it)")
        try:
            rules = self.game.spec.make(parse_pairs(str(r.get("rules") or "")) if r.get("rules") else None)
        except ValueError as exc:
            raise WidgetError(_short(f"{name}: game {game_id}'s rules: {exc}")) from None
        seed = int(r["seed"])
        self.rules, self.seed = rules, seed
        self.scenario, self.scenario_name, self.check_results, self.check_index = None, "", [], -1
        auto, self.auto_roll = self.auto_roll, False
        try:
            self._new_root(self.game.new_initial_state(rules, seed=seed))
            self._replay([str(a) for a in mine["action"]], f"{name} game {game_id}")
        finally:
            self.auto_roll = auto
        self.goto(self.tree.root.id)
        self.scenario_name = f"{name} game {game_id}"
        self.message = (f"{name} game {game_id} ({r.get('cell') or 'default rules'}): {r.get('winner')} "
                        f"({r.get('victory')}) in {r.get('plies')} plies; → steps through it")
        self.level = "info"

    def export_svg(self) -> str:
        """The position as an SVG picture (``workbench.viz``), for a rulebook."""
        from workbench.viz.generic import board_svg

        return board_svg(self.game, self.state, self.rules, title=f"{self.game.title}: {self.status()}")

    # ------------------------------------------------------------------ new game, scenarios, rule diff
    def new_game(self, rules: dict[str, Any] | None = None, seed: int | None = None, paths: bool = False) -> None:
        """A new game under the game's rules (validated by its spec: the error names the rule). ``paths``: the
        notebook's own call, which may name a start file (``Param(kind="path")``); the page never may."""
        if seed is None:  # a new game without a seed rolls a fresh one (fresh terrain); the message names it
            seed = random.SystemRandom().randrange(2**31)
        try:
            if not paths:
                self.game.spec.refuse_paths(rules or {})
            made = self.game.spec.make(rules or {})
            state = self.game.new_initial_state(made, seed=self.seed if seed is None else seed)
        except (ValueError, OSError) as exc:  # a bad value, or a start file the notebook named that does not load
            raise WidgetError(_short(str(exc))) from None
        self.rules = made
        if seed is not None:
            self.seed = seed
        self.scenario, self.scenario_name, self.check_results, self.check_index = None, "", [], -1
        self._new_root(state)
        self.message = f"new game, seed {self.seed}" + (f", {self.rules.label()}" if self.rules.label() else "")
        self.level = "info"

    def scenario_files(self) -> list[Path]:
        folder = SCENARIO_ROOT / (self.game.scenario_folder or self.game.name)
        if not folder.is_dir():
            return []
        return sorted(p for p in folder.rglob("*.yaml") if p.is_file())[:2000]

    def catalog(self) -> list[dict[str, Any]]:
        """The picker's rows: file name (relative to the game's folder), title and verdict."""
        folder = SCENARIO_ROOT / (self.game.scenario_folder or self.game.name)
        return [{"name": str(p.relative_to(folder)), "title": (_entry(p) or {"title": p.stem})["title"],
                 "verdict": _verdict_of(p)}
                for p in self.scenario_files()]

    def pick_scenario(self, name: str) -> None:
        """Load a scenario of this game's folder by its listed name (never a path from the page)."""
        folder = SCENARIO_ROOT / (self.game.scenario_folder or self.game.name)
        files = {str(p.relative_to(folder)): p for p in self.scenario_files()}
        if name not in files:
            shown = f" {_short(name, 80)!r}" if "/" not in name and "\\" not in name else ""
            raise WidgetError(f"no scenario{shown} in this game's scenario folder (pick one from the list)")
        self._load_case(files[name], name, folder)

    def load_scenario_file(self, path: str | Path) -> None:
        """A scenario file named by the notebook (a path of the user's, never one from the page)."""
        p = Path(path)
        self._load_case(p, p.name, p.parent)

    def _load_case(self, path: Path, name: str, folder: Path) -> None:
        from workbench.scenarios.loader import load_scenario

        try:
            case = load_scenario(path)
            named = getattr(case, "game", "")  # TerraFeud's own Scenario has a method of that name: no name given
            if isinstance(named, str) and named and named != self.game.name:
                raise WidgetError(f"a scenario of {named}, not of {self.game.name}")
            state = self.game.scenario_state(case)
            if not isinstance(state, type(self.root_state)):
                raise WidgetError(f"a scenario of another game, not of {self.game.name}")
            results = case.run()
        except Exception as exc:  # noqa: BLE001 - one plain message, no server path
            raise WidgetError(_short(f"{name}: {str(exc).replace(str(folder), '')}")) from None
        self.scenario, self.scenario_name = case, name
        self.check_results = list(results)
        self.check_index = 0 if results else -1
        self._new_root(state)
        self._check_line()
        self._checks_said(name)

    def step_check(self, delta: int) -> None:
        if not self.check_results:
            raise WidgetError("this position has no checks")
        self.check_index = (self.check_index + delta) % len(self.check_results)
        self._check_line()
        self.message, self.level = self.check_text(), "info"

    def _check_line(self) -> None:
        """The current check's play (``describe_check``'s ``play``) as the move list from the scenario's start, the
        board at the start: → steps through it, End shows where the check looks (a bad move ends the line there)."""
        if self.check_index < 0:
            return
        try:
            said = self.game.describe_check(self.scenario, self.check_index, self.check_results[self.check_index])
        except Exception:  # noqa: BLE001 - a help, never a failure
            said = None
        play = [str(t) for t in (said or {}).get("play") or []][:MAX_RECORD_MOVES]
        self._new_root(self.root_state.clone())
        if not play:
            return
        auto, self.auto_roll = self.auto_roll, False
        try:
            self._replay(play, f"check {self.check_index + 1}'s play")
        except WidgetError:
            pass  # the check itself says what failed; its line stops at the bad move
        finally:
            self.auto_roll = auto
        self.goto(self.tree.root.id)

    def describe_checks(self) -> list[dict[str, Any]]:
        """Every check of the loaded scenario: its status and, where the game words it (``GameDef.describe_check``),
        what it asserts; a check that asserts nothing is ``empty``, not a pass."""
        out = []
        for i, r in enumerate(self.check_results):
            try:
                d = self.game.describe_check(self.scenario, i, r)
            except Exception:  # noqa: BLE001 - words are a help, never a failure
                d = None
            out.append(d or {"status": str(r.status), "asserts": "", "message": _short(str(r.message or ""), 200)})
        return out

    def _checks_said(self, source: str) -> None:
        """The load's message: how many checks pass, and how many assert nothing."""
        d = self.describe_checks()
        ok = sum(1 for x in d if x["status"] == "pass")
        empty = sum(1 for x in d if x["status"] == "empty")
        self.message = (f"{source}: {getattr(self.scenario, 'title', '')} — checks {ok}/{len(d)} pass"
                        + (f" · {empty} {'check asserts' if empty == 1 else 'checks assert'} nothing" if empty else ""))
        self.level = "info" if ok == len(d) else "warn"

    def check_text(self) -> str:
        if self.check_index < 0:
            return ""
        r = self.check_results[self.check_index]
        try:
            said = self.game.describe_check(self.scenario, self.check_index, r)
        except Exception:  # noqa: BLE001
            said = None
        if said:
            return (f"check {self.check_index + 1}/{len(self.check_results)}: {said['status'].upper()} — {said['asserts']}"
                    + (f" · {_short(said['message'], 200)}" if said.get("message") else ""))
        raw = ""
        checks = getattr(self.scenario, "checks", None)
        if isinstance(checks, list) and self.check_index < len(checks) and isinstance(checks[self.check_index], dict):
            raw = _short(str(dict(checks[self.check_index])), 200)
        return (f"check {self.check_index + 1}/{len(self.check_results)}: {r.status.upper()}"
                + (f" — {_short(r.message, 200)}" if r.message else "") + (f" · {raw}" if raw else ""))

    def compare(self, change: str) -> dict[str, Any]:
        """Legal actions here under the current rules against a variant (``k=v,...``), the position rebuilt."""
        from workbench.core.rulespec import parse_pairs

        self.diff = None  # a failed comparison must not leave the previous one showing
        try:
            pairs = parse_pairs(change)
            self.game.spec.refuse_paths(pairs)
            variant = self.game.spec.make({**{k: v for k, v in self.rules.to_dict().items() if v is not None}, **pairs})
        except ValueError as exc:
            raise WidgetError(_short(str(exc))) from None
        other = self._rebuilt(variant)
        for st in (self.state, other):
            if not (st.is_terminal() or st.current_player() == CHANCE):
                _refuse_too_many("compare", st)
        now = {self.state.action_to_string(a) for a in self._legal()}
        if other.is_terminal() or other.current_player() == CHANCE:
            then: set[str] = set()
        else:
            then = {other.action_to_string(a) for a in other.legal_actions()}
        outcomes = self._outcome_diff(other, variant, now & then)
        try:  # the position under the variant, drawn beside the board (side by side with the current rules')
            from workbench.viz.generic import board_svg

            picture = board_svg(self.game, other, variant, scale=14.0, margin=6.0, title=f"under {_short(change, 60)}")
        except Exception:  # noqa: BLE001 - a picture is a help, never a failure
            picture = ""
        self.diff = {"change": _short(change, 100), "added": sorted(then - now)[:MAX_DIFF_SHOWN],
                     "removed": sorted(now - then)[:MAX_DIFF_SHOWN], "n_added": len(then - now),
                     "n_removed": len(now - then), "same": len(now & then), "outcomes": outcomes,
                     "svg": picture if len(picture) < 200_000 else ""}
        changed = sum(1 for o in outcomes if not o["same"])
        self.message = (f"{self.diff['change']}: {self.diff['n_added']} actions gained, "
                        f"{self.diff['n_removed']} lost, {self.diff['same']} unchanged; "
                        f"{changed} of {len(outcomes)} outcomes differ")
        return self.diff

    def _outcome_diff(self, other: State, variant: Any, shared: set[str]) -> list[dict[str, Any]]:
        """What actions do under both rules: the effects of shared actions (odds, damage, removals), purchase
        prices, every seat's static evaluation and the greedy agent's choice (each ``same`` or not)."""
        st = self.state
        out: list[dict[str, Any]] = []
        unit = self.game.evaluation_unit
        for p in range(self.info().num_players):
            try:
                a, b = float(st.evaluate(p)), float(other.evaluate(p))
            except Exception:  # noqa: BLE001 - a game without an evaluation
                break
            out.append({"what": f"evaluation of {self.label(p)} ({unit})", "now": f"{a:+.2f}", "then": f"{b:+.2f}",
                        "same": abs(a - b) < 1e-9})
        if st.is_terminal() or st.current_player() == CHANCE or other.is_terminal() or other.current_player() == CHANCE:
            return out
        by_text = {other.action_to_string(a): a for a in other.legal_actions()}
        prices_now: dict[str, Any] = {}
        prices_then: dict[str, Any] = {}
        effects = 0
        for a in self._legal():
            text = st.action_to_string(a)
            if text not in shared:
                continue
            try:
                card, card2 = st.action_card(a), other.action_card(by_text[text])
            except Exception:  # noqa: BLE001
                card = card2 = None
            if card and card2:
                prices_now.setdefault(str(card.get("card")), card.get("price"))
                prices_then.setdefault(str(card2.get("card")), card2.get("price"))
                continue
            if effects >= MAX_DIFF_SHOWN:
                continue
            try:
                e1, e2 = st.action_effects(a) or {}, other.action_effects(by_text[text]) or {}
            except Exception:  # noqa: BLE001
                continue
            if not (e1.get("odds") or e1.get("removed") or e2.get("odds") or e2.get("removed")):
                continue
            effects += 1
            t1, t2 = str(e1.get("text") or ""), str(e2.get("text") or "")
            out.append({"what": text, "now": _short(t1, 120), "then": _short(t2, 120), "same": t1 == t2})
        for name in sorted(prices_now, key=str):
            if name in prices_then:
                out.append({"what": f"price of {name}", "now": str(prices_now[name]), "then": str(prices_then[name]),
                            "same": prices_now[name] == prices_then[name]})
        try:
            from workbench.agents.generic import make_protocol_agent

            mine = make_protocol_agent(DEFAULT_AGENT, self.game, self.rules, seed=self.seed).select_action(st.clone())
            theirs = make_protocol_agent(DEFAULT_AGENT, self.game, variant, seed=self.seed).select_action(other.clone())
            m, t = st.action_to_string(mine), other.action_to_string(theirs)
            out.append({"what": f"best move ({DEFAULT_AGENT})", "now": m, "then": t, "same": m == t})
        except Exception:  # noqa: BLE001 - the agent's choice is a help, never a failure
            pass
        return out

    def _rebuilt(self, variant: Any) -> State:
        """This position under ``variant``: the start rebuilt with its rules, then the moves replayed by text."""
        start = self.root_state.to_dict()
        if isinstance(start.get("rules"), dict):
            start["rules"] = variant.to_dict()
        try:
            st = self.game.state_from_dict(start)
        except Exception as exc:  # noqa: BLE001 - a variant that the position itself contradicts
            if self.scenario is not None:
                raise WidgetError(_short(f"the start cannot be rebuilt under the variant: {exc}")) from None
            st = self.game.new_initial_state(variant, seed=self.seed)  # a new game's start under the variant
        path = []
        n = self.node
        while n.parent is not None:
            path.append(n)
            n = n.parent
        for i, n in enumerate(reversed(path), start=1):
            try:
                st.apply_action(st.string_to_action(n.text))
            except (IllegalAction, ValueError) as exc:
                raise WidgetError(_short(f"under the variant move {i} ({n.text}) is not legal: {exc}")) from None
        return st

    # ------------------------------------------------------------------ what the page shows
    def result_text(self) -> str:
        st = self.state
        if not st.is_terminal():
            return ""
        w = st.winner()
        kind = st.victory()
        if w is None:
            return f"{st.outcome()}" + (f" ({kind})" if kind else "")
        team = self.info().teams[self.info().team_of(w)]
        who = " & ".join(self.label(p) for p in team)
        return f"{who} won" + (f" ({kind})" if kind else "")

    def status(self) -> str:
        """Turn, side to move, result, and the game's own facts from its ``summary()``."""
        st = self.state
        p = st.current_player()
        parts = [f"{self.info().turn_word} {st.turn()}"]
        if st.is_terminal():
            parts.append(self.result_text())
        else:
            offered = self.offered_seats()
            if len(offered) > 1:  # a simultaneous phase (big chess's setup): every seat whose actions are offered
                parts.append(f"{', '.join(self.label(q) for q in offered)} act (any order)")
            else:
                parts.append(f"{self.label(p)} to move" + (" (roll)" if p == CHANCE else ""))
        try:
            facts: list[str] = []
            _flatten("", st.summary(), facts)  # a declared State method (``{}`` by default), never discovered
            parts.extend(f for f in facts if not f.startswith(("to move", "turn ")))
        except Exception:  # noqa: BLE001 - a status line must not break the board
            pass
        return " · ".join(parts)

    def offered_seats(self) -> list[int]:
        """The seats whose actions the board offers now: the side to move, and in a simultaneous phase (big chess's
        setup) every seat with actions of its own (a game that ignores ``legal_actions(player)`` counts one)."""
        st = self.state
        p = st.current_player()
        if st.is_terminal() or p == CHANCE:
            return []
        here = self._here()
        if here.offered is not None:
            return here.offered
        everything = here.total
        out = [p]
        for q in range(self.info().num_players):
            if q == p:
                continue
            try:
                mine = st.legal_actions(q)
            except Exception:  # noqa: BLE001 - a game without per-seat lists: the side to move only
                return [p]
            if mine and len(mine) < everything:
                out.append(q)
        here.offered = sorted(out)
        return here.offered

    def _previews(self, lit: dict[int, list[Any]]) -> dict[str, dict[str, Any]]:
        """Effects of the action a lit cell would complete (when it completes exactly one)."""
        out: dict[str, dict[str, Any]] = {}
        n = len(self.selection) + 1
        for cell, acts in lit.items():
            if len(out) >= MAX_PREVIEWS:
                break
            if len(acts) != 1:
                continue
            complete = [a for a in acts if len(self._cells(a)) == n]
            if len(complete) != 1:
                continue
            try:
                eff = self.state.action_effects(complete[0]) or {}
            except Exception:  # noqa: BLE001 - a preview is a help, never a failure
                eff = {}
            odds = {str(k): str(v) for k, v in (eff.get("odds") or {}).items()}
            # a cell with odds may survive: it gets its probability, never the strike of a certain removal
            removed = [self.names[c] for c in eff.get("removed", []) if isinstance(c, int) and 0 <= c < len(self.names)]
            out[self.names[cell]] = {
                "text": _short(str(eff.get("text") or self.state.action_to_string(complete[0])), 200),
                "odds": odds, "removed": [n for n in removed if n not in odds], "at_risk": [n for n in removed if n in odds],
                "damage": self._damage(eff),
                "ends": bool(eff.get("ends")),
            }
        return out

    def _palette_cells(self, lit: dict[int, list[Any]], longer: set[int], occupied: set[int]) -> list[str]:
        """Empty lit cells where one click opens a palette of several actions (purchases next to a King or a
        fortress): the page marks them with a blue cross, as big chess's rulebook marks purchase cells."""
        return [self.names[c] for c, acts in lit.items() if c not in occupied and len(acts) > 1 and c not in longer]

    def view(self) -> dict[str, Any]:
        """Everything the page draws, as JSON: glyphs, lit cells, previews, buttons, moves, status."""
        st = self.state
        n = len(self.selection)
        sel = tuple(self.selection)
        lit: dict[int, list[Any]] = {}
        longer: set[int] = set()  # lit cells from which some action goes on
        if self.editing:
            pass
        elif self._capped():  # too many actions to walk: the game's own builder lights the next clicks
            lit = {c: [] for c in self._step(self.selection)[0]}
        elif not n:  # the position's own lit cells, kept with its actions (read here, never changed)
            _, lit, longer = self._index()
        else:
            for a, cells in self._index()[0].get(sel[0], ()):
                if len(cells) > n and cells[:n] == sel:
                    lit.setdefault(cells[n], []).append(a)
                    if len(cells) > n + 1:
                        longer.add(cells[n])
        targets: dict[str, str] = {}
        if n:  # what each lit target means (TerraFeud's move / attack / stop), for the page's data-target
            for cell, acts in lit.items():
                done = [a for a in acts if len(self._cells(a)) == n + 1]
                if done:
                    try:
                        kind = str(st.target_kind(done[0]) or "")
                    except Exception:  # noqa: BLE001 - a help, never a failure
                        kind = ""
                    targets[self.names[cell]] = kind or "move"
        glyphs = []
        occupied: set[int] = set()
        over: dict[int, list[str]] = {}
        for name in sorted(self.overlays):
            try:
                for cell, mark in (st.overlay(name) or {}).items():
                    over.setdefault(cell, []).append(str(mark))
            except Exception:  # noqa: BLE001 - a layer is a help, never a failure
                continue
        for g in (self._edit_glyphs() if self.editing else st.glyphs()):
            if g.piece:
                occupied.add(g.cell)
            glyphs.append({"cell": self.names[g.cell], "terrain": g.terrain, "piece": g.piece, "owner": g.owner,
                           "badges": list(g.badges)[:4], "facing": g.facing,
                           "marks": [*over.get(g.cell, []), *g.marks][:4]})
        buttons = []
        hinted = 0
        for i, a in enumerate([] if self.editing else self.buttons()):
            text = st.action_to_string(a)
            try:
                card = st.action_card(a)
            except Exception:  # noqa: BLE001 - a palette without cards is still a palette
                card = None
            try:
                label = str(st.action_label(a) or "")
            except Exception:  # noqa: BLE001 - a label is a help, never a failure
                label = ""
            b: dict[str, Any] = {"index": i, "text": text, "hint": "", "label": label}
            if card:  # a purchase: its card and price say what it does (no probe of the position)
                b.update(card=str(card.get("card", "")), price=card.get("price"), first=bool(card.get("first")),
                         pattern=str(card.get("pattern", "")), hint=f"{card.get('card')}, price {card.get('price')}")
            elif hinted < MAX_BUTTON_PREVIEWS:
                hinted += 1
                b["hint"] = _short(str(self._effects(a).get("text") or ""), 200)
            buttons.append(b)
        _group(buttons)
        rows = []
        ahead: set[int] = set()  # the moves after this one along its line (undone moves Redo plays again)
        nxt = self.node.next()
        while nxt is not None and len(ahead) < 2 * MOVES_SHOWN:
            ahead.add(nxt.id)
            nxt = nxt.next()
        for node, depth in self.tree.rows()[-MOVES_SHOWN:]:
            rows.append({"id": node.id, "text": node.text, "depth": depth, "chance": node.effects.get("player") == CHANCE,
                         "player": self.label(node.effects.get("player", 0)), "current": node is self.node,
                         "turn": node.effects.get("turn", 0), "words": node.effects.get("words", ""),
                         "result": node.effects.get("result", ""), "main": depth == 0,
                         # the move's evaluation: the agent's own search value (its seat's view) when it gave one,
                         # "settled" for an agent that gave none, else the static evaluation (the first seat's view)
                         "eval": node.score[0] if node.score else node.static,
                         "eval_kind": "search" if node.score else "settled" if node.effects.get("agent") else "static",
                         "sign": (node.shapes.get("sign") or [[""]])[0][0],
                         "comment": (node.shapes.get("comment") or [[""]])[0][0], "future": node.id in ahead})
        heat: dict[str, float] = {}
        heat_scale: list[float] = []
        if self.heat_layer:
            try:
                raw = st.heat(self.heat_layer, self.heat_player)
                top = max((abs(v) for v in raw.values()), default=0.0) or 1.0
                heat = {self.names[c]: round(v / top, 3) for c, v in raw.items() if 0 <= c < len(self.names)}
                heat_scale = [round(min(raw.values(), default=0.0), 3), round(max(raw.values(), default=0.0), 3)]
            except Exception as exc:  # noqa: BLE001
                self.message, self.level = _short(f"heat {self.heat_layer}: {exc}"), "warn"
        info = self.info()
        p = st.current_player()
        return {
            "game": self.game.name, "title": self.game.title, "status": self.status(),
            "to_move": self.label(p), "to_move_index": p, "chance": p == CHANCE, "over": st.is_terminal(),
            "glyphs": glyphs, "lit": [self.names[c] for c in lit], "selection": [self.names[c] for c in self.selection],
            "previews": self._previews(lit), "buy_cells": self._palette_cells(lit, longer, occupied), "buttons": buttons, "moves": rows,
            "message": self.message, "level": self.level, "heat": heat, "heat_layer": self.heat_layer,
            "heat_player": self.heat_player, "diff": self.diff, "evaluation": self.evaluation,
            "agents": {self.label(k): v for k, v in self.agents.items()}, "auto_roll": self.auto_roll,
            "check": self.check_text(), "scenario": self.scenario_name,
            "players": list(info.labels), "can_undo": self.node.parent is not None,
            "can_redo": self.node.next() is not None, "rules": self.rules.label(),
            "heat_scale": heat_scale, "eval": self._eval_line(), "hover": self.hover,
            "shapes": {k: v for k, v in self.node.shapes.items() if k in ("arrows", "circles")},
            "lines": self.lines if self.lines_at == self.node.id else [], "is_main": self.node.is_main(),
            "node": self.node.id, "last": self._last_move(),
            "pattern": {"card": self.pattern_card, "svg": self.pattern_svg(self.pattern_card)} if self.pattern_card else {},
            "observation": "" if self.layout.cells else _short(self._observation(), 4000), "legend": self._glyph_legend(glyphs),
            "palette": self._cards(buttons), "editor": self._editor_view(), "targets": targets,
            "to_move_name": info.players[p] if 0 <= p < len(info.players) else "", "overlays": sorted(self.overlays),
            "blocks": list(self.blocks), "attack_lines": self._attack_lines(), "modes": self._modes_view(),
            "attackers": self._attackers(), "actions": self._actions_view(),
        }

    def actions_words(self) -> str:
        """How many legal actions there are when too many to list (MAX_VIEW_ACTIONS), and how one is chosen; ""
        when the board lists them all."""
        if self.editing:
            return ""
        here = self._here()
        if here.total <= MAX_VIEW_ACTIONS:
            return ""
        many = f"{here.total:,}" if here.exact else f"more than {MAX_VIEW_ACTIONS:,}"
        step = self._step(list(self.selection))
        clicks = (f"build one by clicking lit cells{f' (next: {step[2]})' if step[2] else ''}, or "
                  if step[0] or self.selection else "")
        return (f"{many} legal actions, too many to list as buttons (over {MAX_VIEW_ACTIONS:,}): {clicks}type one in "
                "the game's notation in the copy-and-paste box and press Paste")

    def _actions_view(self) -> dict[str, Any]:
        """The number of legal actions here, how many the view lists, and the words shown when it cannot list them."""
        here = self._here()
        return {"total": here.total, "listed": len(here.pairs), "capped": here.total > MAX_VIEW_ACTIONS,
                "words": self.actions_words()}

    def _attack_lines(self) -> list[list[str]]:
        """Attacker lines the game draws (``State.attack_lines``: TerraFeud's attackers of a threatened feudal),
        as [from, to, attacking seat's name]; cached per position."""
        if self.editing:
            return []
        here = self._here()
        if here.lines is None:
            try:
                raw = list(self.state.attack_lines())[:60]
            except Exception:  # noqa: BLE001 - a help, never a failure
                raw = []
            n = len(self.names)
            here.lines = [[self.names[a], self.names[b], self.label(s)] for a, b, s in raw if 0 <= a < n and 0 <= b < n]
        return list(here.lines)

    def _attackers(self) -> dict[str, list[list[str]]]:
        """Who attacks each cell (``State.attackers``: every seat's attacks on its next move, by the game's rules),
        as cell -> [[attacker's cell, attacking seat's name]]: the page draws a hovered cell's lines; cached per
        position."""
        if self.editing:
            return {}
        here = self._here()  # kept with the position's actions: an undo or a redo finds them (TerraFeud's ~10 ms)
        if here.attackers is None:
            try:
                raw = list(self.state.attackers())
            except Exception:  # noqa: BLE001 - a help, never a failure
                raw = []
            n = len(self.names)
            out: dict[str, list[list[str]]] = {}
            for a, b, seat in raw[:MAX_ATTACKS]:
                if 0 <= a < n and 0 <= b < n:
                    out.setdefault(self.names[b], []).append([self.names[a], self.label(seat)])
            here.attackers = out
        return {k: [list(x) for x in v] for k, v in here.attackers.items()}

    def _editor_view(self) -> dict[str, Any]:
        """The editor's bar: its pieces (with their seat's colour index), the chosen one, the seat to move, what is wrong."""
        if not self.editing:
            return {}
        shown = self._edit_state if self._edit_state is not None else self._edit_shown
        try:
            to_move = shown.current_player() if shown is not None else -1
        except Exception:  # noqa: BLE001 - the seat select is a help
            to_move = -1
        options = [{"name": n, "words": w, "choices": list(ch), "value": self.edit_opts.get(n, ch[0] if ch else "")}
                   for n, w, ch in self._options(self.edit_piece)]
        return {"pieces": [{"code": c, "owner": o, "words": w} for c, o, w in self._palette],
                "piece": self.edit_piece, "to_move": to_move, "error": self.edit_error, "options": options,
                "pairs": list(self.game.edit_pairs), "first": self.edit_first}

    def _last_move(self) -> dict[str, Any]:
        """The last decision's cells (its line from source to target) and what it and its rolls removed (marked)."""
        n, removed = self.node, []
        while n.parent is not None and n.effects.get("player") == CHANCE:
            removed.extend(n.effects.get("removed", []))
            n = n.parent
        if n.parent is None:
            return {"cells": [], "removed": removed, "damaged": {}}
        return {"cells": n.effects.get("cells", []), "removed": removed + list(n.effects.get("removed", [])),
                "damaged": dict(n.effects.get("damaged") or {})}

    def pattern_svg(self, card: str) -> str:
        """A card's first pattern diagram as SVG (``GameDef.card_patterns``), cached; "" when the game has none."""
        cache = self._patterns
        if card not in cache:
            from workbench.viz.generic import patterns_svg

            try:
                pats = list(self.game.card_patterns(card, self.rules))[:1]
            except Exception:  # noqa: BLE001 - a diagram is a help, never a failure
                pats = []
            cache[card] = patterns_svg(pats, cell=11.0, margin=3.0) if pats else ""
        return str(cache[card])

    def _observation(self) -> str:
        """A game without cells (many OpenSpiel games) shows its observation string instead of a board."""
        try:
            return str(self.state.observation_string())
        except Exception:  # noqa: BLE001
            return ""

    def _eval_line(self) -> dict[str, Any]:
        """The static evaluation along the current line (the graph) and here (the bar), first seat's view."""
        path = []
        n = self.node
        while n.parent is not None:
            path.append(n)
            n = n.parent
        path.reverse()
        ahead = self.node.next()
        while ahead is not None and len(path) < 2 * MOVES_SHOWN:
            path.append(ahead)
            ahead = ahead.next()
        points = [[p.ply, p.static, p.id] for p in path[-2 * MOVES_SHOWN:] if p.static is not None]
        swings = []  # a move after which the evaluation jumps (a piece won or lost): the graph marks it
        before = self.tree.root.static if self.tree.root.static is not None else self._root_static()
        for p in path[-2 * MOVES_SHOWN:]:
            if p.static is not None and before is not None and abs(p.static - before) >= SWING:
                swings.append({"ply": p.ply, "id": p.id, "text": p.text, "change": round(p.static - before, 2)})
            before = p.static
        here = self.node.static
        if here is None and self.node.parent is None and not self.state.is_terminal():
            try:
                here = round(float(self.state.evaluate(0)), 3)
            except Exception:  # noqa: BLE001
                here = None
        return {"unit": self.game.evaluation_unit, "seat": self.label(0), "view": self.view_words(0),
                "against": self._against(0), "here": here, "points": points,
                "current": self.node.ply, "swings": swings[-40:]}

    def view_words(self, player: int) -> str:
        """Whose view a score is in: the seat, its team where it has teammates, and "against the others" where
        more than two sides play (the bar, the graph and the best lines of a 4-player game say which seat)."""
        info = self.info()
        team = next((t for t in info.teams if player in t), (player,))
        words = f"{self.label(player)}'s view"
        if len(team) > 1:
            words += f" (team {' & '.join(info.players[q] for q in team)})"
        if len(info.teams) > 2:
            words += f", against the other {len(info.teams) - 1} sides"
        return words

    def _against(self, player: int) -> int:
        """The seat whose colour the bar's other side is drawn in: the first of the one opposing team; -1 where
        more than two sides play (the bar's rest is every other side)."""
        info = self.info()
        others = [t for t in info.teams if player not in t]
        return others[0][0] if len(others) == 1 and others[0] else -1

    def _root_static(self) -> float | None:
        """The start's static evaluation (first seat's view), kept on the root once asked."""
        if self.root_state.is_terminal():
            return None
        try:
            self.tree.root.static = round(float(self.root_state.evaluate(0)), 3)
        except Exception:  # noqa: BLE001 - a game without an evaluation draws no graph
            return None
        return self.tree.root.static

    def _glyph_legend(self, glyphs: list[dict[str, Any]]) -> list[dict[str, str]]:
        """Every mark and badge drawn now, with the game's words for it (``GameDef.glyph_words``)."""
        words = self.game.glyph_words
        out: dict[str, dict[str, str]] = {}
        for g in glyphs:
            for kind, items in (("mark", g["marks"]), ("badge", g["badges"])):
                for item in items:
                    key = next((k for k in (item, re.sub(r"\d+", "#", item), item.split(" ")[0] + " #") if k in words), "")
                    label = key or item
                    if label not in out:
                        out[label] = {"kind": kind, "sign": item, "words": words.get(key, "") if key else ""}
        return list(out.values())[:40]

    def _cards(self, buttons: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A purchase palette as cards (``action_effects``' ``card`` and ``price``), the King first, then by price."""
        cards: dict[str, dict[str, Any]] = {}
        for b in buttons:
            card = b.get("card")
            if card:
                c = cards.setdefault(card, {"card": card, "price": b.get("price"), "indexes": [], "first": b.get("first", False),
                                            "pattern": b.get("pattern", "")})
                c["indexes"].append(b["index"])
        return sorted(cards.values(), key=lambda c: (not c["first"], c["price"] if c["price"] is not None else 1e9, c["card"]))

    def geometry(self) -> dict[str, Any]:
        """The layout once: each cell's polygon and centre, the legend and the seats' colours."""
        cells: list[dict[str, Any]] = []
        for c in self.layout.cells:
            pts = self.layout.polygon(c)
            cells.append({"name": c.name, "x": round(c.x, 3), "y": round(c.y, 3),
                          "points": " ".join(f"{x:.3f},{y:.3f}" for x, y in pts)})
        xs = [float(p.split(",")[0]) for c in cells for p in c["points"].split()] or [0.0, 1.0]
        ys = [float(p.split(",")[1]) for c in cells for p in c["points"].split()] or [0.0, 1.0]
        pad = self.layout.size * 0.3
        colours = player_colours(self.info().labels)
        return {
            "shape": self.layout.shape, "size": self.layout.size, "cells": cells,
            "viewbox": [min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad],
            "legend": [{"cls": cls, "colour": colour, "words": words} for cls, colour, words in self.game.legend],
            "colours": colours, "inks": [ink_of(c) for c in colours], "players": list(self.info().labels),
            "heat_layers": list(self.game.heat_layers),
            "teams": [[self.label(p) for p in team] for team in self.info().teams], "unit": self.game.evaluation_unit,
            "can_edit": bool(self.layout.cells) and self._can_edit(),
            "aliases": dict(self.game.board_aliases),
            "overlays": [{"name": n, "words": w} for n, w in self.game.overlays],
            "rule_fields": self.rule_fields(),
        }

    def _can_edit(self) -> bool:
        """Whether the game declares editor pieces for this position (``GameDef.edit_pieces``)."""
        try:
            return bool(self.game.edit_pieces(self.game.edit_form(self.state)))
        except Exception:  # noqa: BLE001 - the button is a help: the text editor remains
            return False

    def rule_fields(self) -> list[dict[str, Any]]:
        """The new-game panel's fields: every rule of the game's spec but those naming a file (the page never
        sets those), each with its default, the value in play, its choices and what it accepts."""
        from workbench.core.rulespec import format_value

        now = self.rules.to_dict()
        out = []
        for p in self.game.spec.params:
            if p.kind == "path":
                continue
            value = now.get(p.name, p.default)
            choices = [format_value(c) for c in p.choices] if p.kind == "choice" else (["true", "false"] if p.kind == "bool" else [])
            out.append({"name": p.name, "kind": p.kind, "default": format_value(p.default),
                        "value": format_value(p.default if value is None else value), "choices": choices,
                        "title": _short(f"{p.meaning} ({p.allowed()}; default {format_value(p.default)})", 300)})
        return out
