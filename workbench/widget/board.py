"""``Board(game=...)``: the general board, an anywidget over ``GameBoardController`` for any game.

``Board("pole")``, ``Board(game="cursed-lands", rules="factions=orcs/humans")``, ``Board("big-chess",
rules="players=4")``, ``Board("terrafeud")`` (also ``HexBoard(...)``, the board's first name): one board for
every game, each adding declarations only (``GameDef``/``State``: overlays, editor pieces, target kinds, the
class names of an older page).

It trusts nothing from the page: every message's type and fields are checked
(``MESSAGE_FIELDS``) for type, range and size; any failure is one plain panel message; no message names
a server path (scenarios come from a picker over the game's own ``scenarios/`` folder); page-sent trait
values are ignored; agents are capped and think in a thread under a busy sign.

A click's view goes to the page as a patch of the parts that changed (``view_patch``: top-level fields, and the
items of the long lists by index), applied by the page to the view it holds; the whole view is sent on load, on
reconnect (the widget's state is always the whole view) and whenever the page's view is not the one a patch was
made against (the page then asks with a ``full`` message).
"""

from __future__ import annotations

import gc
import json
import pathlib
import re
import threading
from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from workbench.core.safefile import page_input
from workbench.games import DEFAULT

from . import fields
from .board_controller import ANNOTATION_SIGNS, GameBoardController
from .common import MAX_FILE_BYTES, SCENARIO_ROOT, WidgetError, plain_failure

_HERE = pathlib.Path(__file__).parent


def _rules(name: str, value: Any) -> dict[str, Any]:
    """Rule values from the page: short texts, numbers or booleans in the game's notation (``factions=orcs/dwarves``)."""
    if isinstance(value, str):
        from workbench.core.rulespec import parse_pairs

        fields.text(1000)(name, value)
        try:
            value = parse_pairs(value)
        except ValueError as exc:
            raise WidgetError(str(exc)[:200]) from None
    return fields.rule_values(name, value)  # the game's path rules are refused by the controller (refuse_paths)


SHAPE_COLOURS = ("green", "red", "blue", "yellow")  # drawings: right-drag arrows and circles, as lichess draws them
MESSAGE_FIELDS: dict[str, dict[str, fields.Check]] = {
    "click": {"cell": fields.text(24)},
    "choose": {"index": fields.whole(0, 10_000)},
    "undo": {}, "redo": {}, "cancel": {}, "roll": {}, "agent_move": {}, "evaluate": {}, "catalog": {},
    "goto": {"node": fields.whole(0, 10_000_000)},
    "new_game": {"seed": fields.seed, "rules": _rules},
    "agent": {"seat": fields.whole(0, 24), "spec": fields.text(200)},
    "heat": {"layer": fields.text(30), "player": fields.whole(0, 24)},
    "auto_roll": {"on": fields.boolean},
    "compare": {"change": fields.text(200)},
    "pick_scenario": {"name": fields.text(300)},
    "check": {"delta": fields.whole(-1, 1)},
    "why": {"cell": fields.text(24)},
    "end": {},
    "annotate": {"sign": fields.text(2, ANNOTATION_SIGNS), "comment": fields.text(300)},
    "upload": {"name": fields.text(200), "text": fields.text(MAX_FILE_BYTES), "kind": fields.text(10, ("record", "scenario"))},
    "edit": {}, "edit_done": {}, "edit_cancel": {}, "edit_clear": {},
    "edit_piece": {"piece": fields.text(40)},
    "edit_option": {"name": fields.text(30), "value": fields.text(30)},
    "edit_to_move": {"seat": fields.whole(0, 24)},
    "download": {"kind": fields.text(10, ("record", "svg", "scenario"))},
    "pick_game": {"game_id": fields.whole(0, 2**62)},
    "promote": {"id": fields.whole(0, 10**9)},
    "delete": {"id": fields.whole(0, 10**9)},
    "main_line": {},
    "shape": {"from": fields.text(24), "to": fields.text(24), "colour": fields.text(8, SHAPE_COLOURS)},
    "clear_shapes": {},
    "drag": {"from": fields.text(24), "to": fields.text(24)},
    "copy": {"what": fields.text(10, ("moves", "position"))},
    "paste": {"text": fields.text(MAX_FILE_BYTES)},
    "analysis": {"on": fields.boolean},
    "pattern": {"card": fields.text(40)},
    "overlay": {"name": fields.text(30), "on": fields.boolean},
    "mode": {"name": fields.text(30), "on": fields.boolean},
    "nav": {"to": fields.text(8, ("back", "forward", "home", "end")), "count": fields.whole(1, 100_000)},
    "full": {},  # the page's view is not the one the last patch was made against: send the whole view
}
WHILE_THINKING = {"new_game", "undo", "cancel", "heat", "overlay", "catalog", "check", "why", "download", "shape", "clear_shapes", "copy",
                  "analysis", "pattern"}


EDITOR_MESSAGES = {"overlay", "click", "edit", "edit_piece", "edit_option", "edit_to_move", "edit_clear", "edit_done", "edit_cancel", "copy",
                   "download", "shape", "clear_shapes", "why", "heat", "pattern"}


PATCHED_LISTS = ("glyphs", "moves")  # a view's long lists, patched item by item (a click changes a few pieces, rows)


def _encoded(view: dict[str, Any]) -> dict[str, Any]:
    """Each top-level field of ``view`` as its JSON text, and each item of the long lists as one (the texts are
    what is compared: a change from 1 to true, or 1 to 1.0, is a change, as the page sees it)."""
    out: dict[str, Any] = {}
    for key, value in view.items():
        if key in PATCHED_LISTS and isinstance(value, list):
            out[key] = [json.dumps(item) for item in value]
        else:
            out[key] = json.dumps(value)
    return out


def view_patch(sent: dict[str, Any], view: dict[str, Any], now: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The patch from the view whose texts are ``sent`` (``_encoded``) to ``view`` (texts ``now``), and its size in
    characters: ``set`` the fields that changed, ``drop`` those gone, ``lists`` the long lists' changed items
    (``{"n": length, "at": [[index, item], ...]}``; a list whose items mostly changed is set whole). The page
    applies it only to the view of seq ``base`` (board.js ``applyPatch``)."""
    patch: dict[str, Any] = {"kind": "view-patch", "base": json.loads(sent["seq"]) if "seq" in sent else -1,
                             "seq": view.get("seq", 0), "set": {}, "drop": [k for k in sent if k not in now], "lists": {}}
    size = 0
    for key, text in now.items():
        old = sent.get(key)
        if key == "seq" or old == text:
            continue
        if isinstance(text, list) and isinstance(old, list):
            at = [[i, view[key][i]] for i, t in enumerate(text) if i >= len(old) or old[i] != t]
            if len(at) * 2 <= len(text):
                patch["lists"][key] = {"n": len(text), "at": at}
                size += sum(len(text[i]) for i, _ in at)
                continue
        patch["set"][key] = view[key]
        size += sum(map(len, text)) if isinstance(text, list) else len(text)
    return patch, size


_FROZEN: list[bool] = []  # whether this process's loaded objects were moved out of the collector's sight


def freeze_loaded() -> None:
    """Once per process, when the first board is built: move every object alive now (the kernel, the libraries, the
    games, their tables) to the cyclic collector's permanent generation (``gc.freeze``). Why: a full collection
    walked ~185,000 of them in the middle of a click (140 ms of CPU in big chess's four-player setup, whose
    clicks allocate thousands of tuples); after it, the objects a click makes are what is walked (~17 ms)."""
    if not _FROZEN:
        _FROZEN.append(True)
        gc.freeze()


def validate_message(content: Any) -> tuple[str, dict[str, Any]]:
    """The message's type and checked fields; ``WidgetError`` for anything unexpected (size capped first)."""
    return fields.validate(content, MESSAGE_FIELDS)


class GameBoard(anywidget.AnyWidget):
    """The general board widget (use ``Board(game=...)``); Python methods mirror the page's buttons."""

    _esm = _HERE / "board.js"
    _css = _HERE / "board.css"
    geometry = traitlets.Dict().tag(sync=True)
    view = traitlets.Dict().tag(sync=True)
    busy = traitlets.Unicode("").tag(sync=True)
    catalog: traitlets.List[Any] = traitlets.List().tag(sync=True)
    download = traitlets.Dict().tag(sync=True)  # {"name", "text", "n"}: the page saves it as a file
    batch: traitlets.List[Any] = traitlets.List().tag(sync=True)
    clipboard = traitlets.Dict().tag(sync=True)  # {"text", "n"}: what Copy put in the text box  # the batch picker's rows (game id, cell, result, plies, agents)

    def __init__(self, game: str = DEFAULT, *, rules: Any = None, seed: int = 0, agents: dict[int, str] | None = None,
                 auto_roll: bool = True, state: Any = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        from workbench.games import get

        gdef = get(game)
        freeze_loaded()
        self.controller = GameBoardController(gdef, gdef.rules(rules) if rules is not None else None, seed=seed,
                                              state=state, auto_roll=auto_roll)
        self._lock = threading.RLock()
        self._thinking: threading.Thread | None = None
        self._downloads = 0  # downloads and copies sent to the page (each a new value, so the page sees it)
        self._analysing = False  # continuous analysis on
        self._analyser: threading.Thread | None = None
        self._seq = 0
        self._sent: dict[str, Any] = {}  # the JSON texts of the view the page holds (``_encoded``), {} before any
        self._quiet = False  # the view being set is sent as a patch, not whole
        self.sent_chars = 0  # what the last view cost on the wire: its patch, or the whole view (the benchmark)
        self._once: int | None = None  # the seat an Agent move borrowed the default agent for
        for seat, spec in (agents or {}).items():
            self.controller.set_agent(int(seat), spec)
        self.on_msg(self._on_msg)
        self.geometry = self.controller.geometry()
        self._sync()
        self._maybe_think()

    # ------------------------------------------------------------------ Python API
    @property
    def state(self) -> Any:
        return self.controller.state

    def click(self, cell: str) -> None:
        self._gesture("click", cell=cell)

    def choose(self, index: int) -> None:
        self._gesture("choose", index=index)

    def press(self, text: str) -> None:
        """Press the button whose text is ``text`` (End turn, Pass, a purchase)."""
        for b in self.view.get("buttons", []):
            if b["text"] == text:
                self._gesture("choose", index=b["index"])
                return
        raise WidgetError(f"no button {text!r} here")

    def undo(self) -> None:
        self._gesture("undo")

    def set_mode(self, name: str, on: bool = True) -> None:
        """A multi-step action's mode, as its button (``GameDef.action_modes``: ``set_mode("order")`` on TerraFeud),
        then ``click`` its cells in turn."""
        self._gesture("mode", name=name, on=on)

    def redo(self) -> None:
        self._gesture("redo")

    def new_game(self, rules: Any = None, seed: int | None = None) -> None:
        """A new game (``rules`` a mapping or ``"k=v,..."``); from the notebook a rule may name a start file."""
        if isinstance(rules, str):
            from workbench.core.rulespec import parse_pairs

            rules = parse_pairs(rules)
        with self._lock:  # allowed while an agent thinks: it answers the new game
            self._call(self.controller.new_game, rules or {}, seed, True)
            self.geometry = self.controller.geometry()
            self._sync()
        self._maybe_think()

    def set_agent(self, seat: int, spec: str) -> None:
        self._gesture("agent", seat=seat, spec=spec)

    def load_scenario(self, name: str | pathlib.Path) -> None:
        """A file of this game's scenario folder, by its name in the picker (``attack-all.yaml``), or a scenario
        file's path given by the notebook (as ``HexBoard.load_scenario(path)``; the page can only pick)."""
        if isinstance(name, pathlib.Path) or (("/" in name or "\\" in name) and pathlib.Path(name).is_file()):
            with self._lock:
                try:
                    self.controller.load_scenario_file(name)
                except (WidgetError, ValueError, OSError) as exc:
                    self.controller.message, self.controller.level = str(exc)[:300], "error"
                self.geometry = self.controller.geometry()
                self._sync()
            return
        self._gesture("pick_scenario", name=name)

    def compare(self, change: str) -> None:
        self._gesture("compare", change=change)

    def open_batch(self, path: str | pathlib.Path, game_id: int | None = None, where: str | None = None) -> None:
        """A simulate batch in the picker, and one of its games on the board: ``game_id``, else the first game
        that ``where`` (a pandas query on the games table, e.g. ``"winner == 'black' and fortress_rounding == 'down'"``)
        selects, else the first game. The path comes from the notebook, never from the page."""
        c = self.controller
        rows = c.batch_rows(path)
        if game_id is None:
            if where:
                from .board_controller import _read_batch

                try:
                    hits = _read_batch(path).query(where)
                except Exception as exc:  # noqa: BLE001 - a bad query is the notebook's error, said plainly
                    raise WidgetError(f"where={where!r}: {type(exc).__name__}: {str(exc)[:120]}") from None
                if hits.empty:
                    raise WidgetError(f"no game of {pathlib.Path(path).name} matches {where!r}")
                game_id = int(hits["game_id"].iloc[0])
            else:
                game_id = rows[0]["game_id"] if rows else 0
        with self._lock:
            c.load_batch_game(path, int(game_id))
            self.batch = rows
            self.geometry = c.geometry()
            self._sync()

    def pick_game(self, game_id: int) -> None:
        self._gesture("pick_game", game_id=game_id)

    def record(self) -> dict[str, Any]:
        """The game as a record (rules, start, actions, variations, drawings, signs and comments)."""
        return self.controller.record_dict()

    def load_record_text(self, text: str, source: str = "record") -> None:
        """A record's JSON text (an upload): replayed with the engine; the first bad move is named."""
        import json

        try:
            data = json.loads(text)
        except ValueError as exc:
            raise WidgetError(f"{source}: not JSON (line {getattr(exc, 'lineno', '?')})") from None
        except RecursionError:  # "[[[[..." from a page: refused by its shape, never echoed
            raise WidgetError(f"{source}: not a record (JSON nested too deeply)") from None
        self.controller.load_record_data(data, source)
        self.geometry = self.controller.geometry()

    def annotate(self, sign: str = "", comment: str = "") -> None:
        self._gesture("annotate", sign=sign, comment=comment)

    def edit(self, placements: dict[str, str] | None = None, to_move: int | None = None, done: bool = False,
             options: dict[str, str] | None = None, pairs: dict[str, tuple[str, str]] | None = None) -> None:
        """The position editor from a notebook: ``edit({"f5": "k", "e4": ""}, to_move=1, done=True)`` opens it
        (if closed), sets each cell's piece ("" empties) with ``options`` (``{"hp": "2"}``, ``{"facing": "E"}``),
        places ``pairs`` (``{"marker": ("d2", "d5")}``: a two-click piece), and with ``done`` plays on from the edit."""
        if not self.controller.editing:
            self._gesture("edit")
        for cell, code in (placements or {}).items():
            self._gesture("edit_piece", piece=code)
            for name, value in (options or {}).items():
                self._gesture("edit_option", name=name, value=value)
            self._gesture("click", cell=cell)
        for code, (first, second) in (pairs or {}).items():
            self._gesture("edit_piece", piece=code)
            self._gesture("click", cell=first)
            self._gesture("click", cell=second)
        if to_move is not None:
            self._gesture("edit_to_move", seat=to_move)
        if done:
            self._gesture("edit_done")

    def play(self, *texts: str) -> None:
        """Play actions typed in the game's notation, as if clicked (``play("e3-e4")``)."""
        for text in texts:
            self._call(self.controller.play_text, text)

    def show(self, heat: str | None = None, heat_side: int | str | None = None, **overlays: bool) -> None:
        """Switch the game's overlays (``show(zones=True, aura=False)``) and the heat layer (``heat="threat"``,
        ``heat_side`` a seat's index or name; ``heat=""`` switches it off)."""
        c = self.controller
        for name, on in overlays.items():
            self._call(c.set_overlay, name, bool(on))
        if heat is not None or heat_side is not None:
            seat = c.heat_player
            if isinstance(heat_side, str):
                players = list(c.info().players)
                if heat_side not in players:
                    raise WidgetError(f"heat_side must be one of {', '.join(players)}")
                seat = players.index(heat_side)
            elif heat_side is not None:
                seat = int(heat_side)
            self._gesture("heat", layer=c.heat_layer if heat is None else heat, player=seat)

    def goto_ply(self, ply: int) -> None:
        """The position after ``ply`` actions of the current line (0: the start)."""
        c = self.controller
        node, path = c.node, []
        while node.parent is not None:
            path.append(node)
            node = node.parent
        path.reverse()
        nxt = c.node.next()
        while nxt is not None:
            path.append(nxt)
            nxt = nxt.next()
        if not 0 <= ply <= len(path):
            raise WidgetError(f"this line has {len(path)} actions; there is no ply {ply}")
        self._gesture("goto", node=path[ply - 1].id if ply else c.tree.root.id)

    def save_record(self, path: str | pathlib.Path) -> pathlib.Path:
        """The game as a JSON record file (a path from the notebook; the page downloads instead)."""
        out = pathlib.Path(path)
        out.write_text(self.controller.record_text(), encoding="utf-8")
        return out

    def load_record(self, path: str | pathlib.Path) -> None:
        """A JSON record file named by the notebook (small regular files only)."""
        from workbench.core.safefile import read_text_capped

        with self._lock:
            name = pathlib.Path(path).name
            try:
                self.load_record_text(read_text_capped(path, MAX_FILE_BYTES), name)
            except (WidgetError, ValueError, OSError) as exc:  # the error names the file, never its content
                text = str(exc)[:300]
                self.controller.message, self.controller.level = text if name in text else f"{name}: {text}", "error"
            self._sync()

    def export_scenario(self, scenario_id: str = "edited-position", title: str | None = None) -> str:
        """The position shown (the editor's, while it is open) as a scenario file of the game, with a stub check."""
        c = self.controller
        state = c._edit_state if c.editing and c._edit_state is not None else c.state
        note = "describe what this position shows; then list legal/illegal actions or play and expect"
        try:
            return c.game.dump_scenario(state, scenario_id, title or f"{c.game.title}: {c.status()}",
                                        checks=[{"note": note, "legal": [], "illegal": []}])
        except NotImplementedError:
            raise WidgetError(f"{c.game.name} writes no scenario files") from None

    def refresh(self) -> None:
        """Redraw (after the notebook changed the controller directly)."""
        with self._lock:
            self._sync()

    def _call(self, fn: Callable[..., Any], *args: Any) -> None:
        """A notebook gesture on the controller: a failure is one panel message, as from the page."""
        c = self.controller
        with self._lock:
            try:
                fn(*args)
            except (WidgetError, ValueError, OSError) as exc:
                c.message, c.level = str(exc)[:300], "error"
            self._sync()
        self._maybe_think()

    def load_scenario_text(self, text: str, name: str = "scenario.yaml") -> None:
        """A scenario's YAML text, as an upload from the page (it may name no server file)."""
        self._gesture("upload", kind="scenario", name=name, text=text)

    def export_svg(self) -> str:
        """The position as an SVG picture for a rulebook."""
        return self.controller.export_svg()

    def analysis(self, on: bool = True) -> None:
        """Continuous analysis: best lines of the position on the board, recomputed in a thread when it changes."""
        self._analysing = bool(on)
        if on and self._analyser is None:
            self._analyser = threading.Thread(target=self._analysis_loop, name="board-analysis", daemon=True)
            self._analyser.start()
        if self._thinking is None:  # the busy sign says analysis runs (an agent's thinking says more)
            self.busy = "analysing…" if on else ""
        if not on:
            self.controller.lines, self.controller.lines_at = [], -1

    def _analysis_loop(self) -> None:
        c = self.controller
        try:
            while self._analysing:
                with self._lock:
                    at, done = c.node.id, c.lines_at == c.node.id
                    probe = c.state.clone()
                if done:
                    threading.Event().wait(0.3)
                    continue
                try:
                    lines = c.analyse(depth=2, state=probe)
                except Exception as exc:  # noqa: BLE001 - the analysis is a help: one plain line, then it rests
                    lines = [{"moves": [], "score": None, "unit": "", "depth": 0, "error": plain_failure(exc)}]
                with self._lock:
                    if c.node.id == at and self._analysing:
                        c.lines, c.lines_at = lines, at
                        self._sync()
        finally:
            self._analyser = None

    def _download(self, kind: str) -> None:
        c = self.controller
        self._downloads = self._downloads + 1
        if kind == "svg":
            name, text = f"{c.game.name}-move{c.node.ply}.svg", c.export_svg()
        elif kind == "scenario":
            name, text = f"{c.game.name}-move{c.node.ply}.yaml", c.scenario_text()
        else:
            name, text = f"{c.game.name}-record.json", c.record_text()
        self.download = {"name": name, "text": text, "n": self._downloads}
        c.message, c.level = f"{name} is ready (the page saves it)", "info"

    def wait(self, timeout: float = 60.0) -> None:
        """Wait for a thinking agent (a notebook cell or a test)."""
        t = self._thinking
        if t is not None:
            t.join(timeout)

    # ------------------------------------------------------------------ page messages
    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Ignore trait values sent by the page: it only draws them (all input comes as checked messages)."""
        del sync_data

    def _should_send_property(self, key: str, value: Any) -> bool:
        """ipywidgets' check before it sends a trait whole: a view sent as a patch (``_sync``) is not sent again."""
        if key == "view" and self._quiet:
            return False
        return bool(super()._should_send_property(key, value))

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        try:
            kind, fields = validate_message(content)
            if kind == "full":  # the page lost a patch (a reconnect, a second page): the whole view again
                with self._lock:
                    self.send_state("view")
                    self.sent_chars = len(json.dumps(self.view))
                return
        except WidgetError as exc:
            with self._lock:
                self._say(str(exc), "error")
            return
        except Exception as exc:  # noqa: BLE001 - never a traceback on the page
            with self._lock:
                self._say(plain_failure(exc), "error")
            return
        self._gesture(kind, **fields)

    def _say(self, text: str, level: str) -> None:
        self.controller.message, self.controller.level = text[:300], level
        self._sync()

    def _gesture(self, kind: str, /, **f: Any) -> None:
        c = self.controller
        with self._lock:
            if self._thinking is not None and kind not in WHILE_THINKING:
                self._say("an agent is thinking; wait for its move", "warn")
                return
            try:
                with page_input(SCENARIO_ROOT):  # nothing a page sends opens a server file but the shipped ones
                    self._run(kind, f)
            except (WidgetError, ValueError, OSError) as exc:
                c.message, c.level = plain_failure(exc) if isinstance(exc, OSError) else str(exc)[:300], "error"
            except Exception as exc:  # noqa: BLE001 - a bug must not put server paths on the page
                c.message, c.level = plain_failure(exc), "error"
            self._sync()
        self._maybe_think()

    def _run(self, kind: str, f: dict[str, Any]) -> None:
        c = self.controller
        if c.editing and kind not in EDITOR_MESSAGES:
            c.cancel_editing()  # any other gesture leaves the editor, its edits discarded
        if kind == "click":
            c.click(f["cell"])
        elif kind == "choose":
            c.choose(f["index"])
        elif kind == "undo":
            c.undo()
        elif kind == "redo":
            c.redo()
        elif kind == "cancel":
            c.cancel()
        elif kind == "roll":
            c.roll()
        elif kind == "agent_move":
            self._think_once()
        elif kind == "evaluate":
            self._evaluate()
        elif kind == "goto":
            c.goto(f["node"])
        elif kind == "new_game":
            c.new_game(f.get("rules") or {}, f.get("seed"))
            self.geometry = c.geometry()
        elif kind == "agent":
            c.message = c.set_agent(f["seat"], f["spec"])
            c.level = "warn" if "capped" in c.message else "info"  # a capped request is not what was asked
        elif kind == "heat":
            layer = f["layer"]
            if layer and layer not in c.game.heat_layers:
                raise WidgetError(f"heat layer must be one of {', '.join(c.game.heat_layers) or 'none'}")
            if f.get("player", 0) >= c.info().num_players:
                raise WidgetError("that seat does not exist")
            c.heat_layer, c.heat_player = layer, f.get("player", 0)
        elif kind == "auto_roll":
            c.auto_roll = f["on"]
            c._roll_chance()
        elif kind == "compare":
            c.compare(f["change"])
        elif kind == "pick_scenario":
            c.pick_scenario(f["name"])
            self.geometry = c.geometry()
        elif kind == "check":
            c.step_check(f.get("delta", 1))
        elif kind == "catalog":
            self._load_catalog()
        elif kind == "why":
            c.hover_reason(f["cell"])
        elif kind == "end":
            c.line_end()
        elif kind == "annotate":
            c.annotate(f.get("sign", ""), f.get("comment", ""))
        elif kind == "upload":
            source = re.sub(r"[^A-Za-z0-9._ -]+", "_", f.get("name", "record"))[:80] or "record"
            if f.get("kind") == "scenario" or (not f.get("kind") and source.endswith((".yaml", ".yml"))):
                c.load_scenario_text(f["text"], source)
            else:
                self.load_record_text(f["text"], source)
            self.geometry = c.geometry()
        elif kind == "edit":
            c.start_editing()
        elif kind == "edit_piece":
            c.set_edit_piece(f["piece"])
        elif kind == "edit_option":
            c.set_edit_option(f["name"], f["value"])
        elif kind == "edit_to_move":
            c.set_edit_to_move(f["seat"])
        elif kind == "edit_clear":
            c.clear_edit()
        elif kind == "edit_done":
            if c.finish_editing():
                self.geometry = c.geometry()
        elif kind == "edit_cancel":
            c.cancel_editing()
        elif kind == "download":
            self._download(f.get("kind", "record"))
        elif kind == "promote":
            c.promote(f["id"])
        elif kind == "delete":
            c.delete(f["id"])
        elif kind == "main_line":
            c.back_to_main_line()
        elif kind == "shape":
            c.shape(f["from"], f["to"], f["colour"])
        elif kind == "clear_shapes":
            c.clear_shapes()
        elif kind == "drag":
            c.drag(f["from"], f["to"])
        elif kind == "copy":
            self._downloads = self._downloads + 1
            self.clipboard = {"text": c.copy_text(f["what"]), "n": self._downloads}
            c.message, c.level = f"the {'moves' if f['what'] == 'moves' else 'position'} are in the text box", "info"
        elif kind == "paste":
            c.paste(f["text"])
            self.geometry = c.geometry()
        elif kind == "nav":
            c.nav(f["to"], f.get("count", 1))
        elif kind == "overlay":
            c.set_overlay(f["name"], f["on"])
        elif kind == "mode":
            c.set_mode(f["name"], f["on"])
        elif kind == "pattern":
            if f["card"] and not re.fullmatch(r"[A-Za-z0-9_ -]{1,40}", f["card"]):
                raise WidgetError("message field 'card' must be a card's key")
            c.pattern_card = f["card"]
        elif kind == "analysis":
            self.analysis(f["on"])
        elif kind == "pick_game":
            if c.batch_path is None:
                raise WidgetError("no batch is open on this board (Board.from_batch(path) opens one)")
            c.load_batch_game(c.batch_path, f["game_id"])
            self.geometry = c.geometry()

    def _sync(self) -> None:
        try:
            view = self.controller.view()
        except Exception as exc:  # noqa: BLE001 - drawing failed: say so plainly, keep the board usable
            view = {**self.view, "message": plain_failure(exc), "level": "error"}
        self._seq += 1
        view["seq"] = self._seq
        now = _encoded(view)
        if not self._sent or "seq" not in self._sent:  # the first view: whole (the widget's state)
            self.view = view
            self.sent_chars = sum(len(t) if isinstance(t, str) else sum(map(len, t)) for t in now.values())
        else:
            patch, self.sent_chars = view_patch(self._sent, view, now)
            self._quiet = True
            try:
                self.view = view  # the widget's state stays the whole view (a page that connects later gets it)
            finally:
                self._quiet = False
            self.send(patch)
        self._sent = now

    # ------------------------------------------------------------------ agents and long work in threads
    def _maybe_think(self) -> None:
        with self._lock:
            if self._thinking is not None or not self.controller.agent_due():
                return
            spec = self.controller.agents[self.controller.state.current_player()]
            self._own(threading.Thread(target=self._agent_loop, name="board-agent", daemon=True), f"{spec} is thinking…")

    def _own(self, thread: threading.Thread, busy: str) -> None:
        """Start ``thread`` as the board's one piece of long work, or refuse: the busy state has one owner.

        Why: a catalogue load started during an agent's search used to take the slot and, finishing first,
        clear it while the agent still thought, so the next gesture started a second agent thread.
        """
        with self._lock:
            if self._thinking is not None:
                raise WidgetError(f"{self.busy or 'the board is busy'}; wait for it to finish")
            self._thinking = thread
            self.busy = busy
            thread.start()

    def _release(self) -> None:
        """The owner's last act: free the slot and the busy sign (only the owning thread may)."""
        with self._lock:
            if self._thinking is threading.current_thread():
                self._thinking = None
                self.busy = "analysing…" if self._analysing else ""
            self._sync()

    def _agent_loop(self) -> None:
        c = self.controller
        try:
            for _ in range(2000):  # a long multi-action turn is still bounded
                with self._lock:
                    if not c.agent_due():
                        break
                    at = c.where()
                    probe_state = c.state.clone()
                    spec = c.agents[c.state.current_player()]
                agent = c.make_agent(spec)
                action = agent.select_action(probe_state)
                with self._lock:
                    if at != c.where():  # a new game or a step back while it thought: think again where the board is
                        continue
                    try:
                        c.accept(action, at, getattr(agent, "engine", "python"), getattr(agent, "score", None))
                    except WidgetError as exc:
                        c.message, c.level = str(exc), "warn"
                        break
                    self._sync()
        except WidgetError as exc:  # the board's own refusal (an engine the game lacks): said as it is
            with self._lock:
                c.message, c.level = str(exc)[:300], "error"
        except Exception as exc:  # noqa: BLE001
            with self._lock:
                c.message, c.level = plain_failure(exc), "error"
        finally:
            self._release()

    def _think_once(self) -> None:
        """Agent move: the seat to move's agent (or the default) plays one action, in a thread."""
        c = self.controller
        if c.state.is_terminal():
            raise WidgetError("the game is over")
        seat = c.state.current_player()
        if seat < 0:
            raise WidgetError("chance moves next: press Roll")
        if self._thinking is not None:
            raise WidgetError(f"{self.busy or 'the board is busy'}; wait for it to finish")
        if seat not in c.agents:
            c.agents[seat] = "greedy"
            self._once = seat
        busy = f"{c.agents[seat]} is thinking…"

        def work() -> None:
            action, score, at = c.think()
            with self._lock:
                c.accept(action, at, score=score)

        def done() -> None:
            if self._once == seat:
                c.agents.pop(seat, None)
                self._once = None

        self._in_thread("board-agent-once", work, "warn", done, busy)

    def _evaluate(self) -> None:
        self._in_thread("board-evaluate", self.controller.evaluate, "warn", busy="evaluating…")

    def _load_catalog(self) -> None:
        c = self.controller

        def work() -> None:
            rows = c.catalog()
            with self._lock:
                self.catalog = rows
                c.message, c.level = f"{len(rows)} scenario files", "info"

        self._in_thread("board-catalog", work, "error", busy="running the scenarios' checks…")

    def _in_thread(self, name: str, work: Callable[[], Any], level: str, done: Callable[[], Any] | None = None,
                   busy: str = "working…") -> None:
        """Run ``work`` off the page's thread: a failure is one panel message; the busy sign always clears."""
        c = self.controller

        def run() -> None:
            try:
                work()
            except Exception as exc:  # noqa: BLE001
                with self._lock:
                    c.message = str(exc) if isinstance(exc, WidgetError) and level == "warn" else plain_failure(exc)
                    c.level = level
            finally:
                with self._lock:
                    if done is not None:
                        done()
                self._release()

        self._own(threading.Thread(target=run, name=name, daemon=True), busy)


class _BoardFactory:
    """``Board(game)`` and ``Board.from_batch(path, game_id)``: the board of a game, or of a batch's game."""

    def __call__(self, game: str = DEFAULT, **kwargs: Any) -> GameBoard:
        """The board of ``game`` (every game has the same one; ``general=`` of older notebooks is ignored)."""
        kwargs.pop("general", None)
        return GameBoard(game, **kwargs)

    @staticmethod
    def from_batch(path: str | pathlib.Path, game_id: int | None = None, *, where: str | None = None,
                   **kwargs: Any) -> GameBoard:
        """The general board on one game of a simulate batch (its game read from the batch), with a picker of the
        batch's games: ``Board.from_batch("pole.parquet", 3)`` or ``where="winner == 'black'"``."""
        from .board_controller import _read_batch

        games = _read_batch(path)
        name = str(games["game"].iloc[0]) if "game" in games.columns and len(games) else DEFAULT
        board = GameBoard(name, **kwargs)
        board.open_batch(path, game_id, where)
        return board


Board = _BoardFactory()


def HexBoard(state: Any = None, *, rules: Any = None, seed: int | None = None, agent: str | None = None,  # noqa: N802
             agent_side: int | str = 1, agent_seed: int | None = None, game: str = DEFAULT, **kwargs: Any) -> GameBoard:
    """The board under its first name: ``HexBoard(seed=0)``, ``HexBoard(rules="season=winter", agent="greedy",
    agent_side="black")`` is the one board on the workbench's default game. ``seed=None`` rolls a fresh seed (fresh
    terrain); ``agent`` plays seat ``agent_side`` (an index or a seat name)."""
    import random as _random

    kwargs.pop("size", None)  # the old board's pixel size: the page scales the drawing itself
    if seed is None:
        seed = _random.SystemRandom().randrange(2**31)
    board = GameBoard(game, rules=rules, seed=seed, state=state, **kwargs)
    if agent:
        players = list(board.controller.info().players)
        seat = players.index(agent_side) if isinstance(agent_side, str) and agent_side in players else agent_side
        if not isinstance(seat, int):
            raise WidgetError(f"agent_side must be one of {', '.join(players)}")
        board.controller.agent_seed = agent_seed
        board.set_agent(seat, agent)
    return board
