"""``HexBoard``: the TerraFeud board as a notebook widget (anywidget), for JupyterLab and Voila.

Thin on purpose: JSON traits go to the browser (``geometry`` from ``viz.layout.Layout`` once, ``view``
from ``BoardController.view()`` after every change, ``download`` when the page asked for a file) and
the browser sends back small messages (``{"type": "click", "hex": "f3"}``). A shared board is not a
backdoor: every message field is checked for type, range and size before use (``MESSAGE_FIELDS``),
no message names a server path (files come and go by browser upload and download, scenarios through
a picker over the project's ``scenarios/``), and agents asked for from the page are capped and run
in a thread so the board stays live while they think.
"""

from __future__ import annotations

import pathlib
import re
import threading
from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from workbench.games.terrafeud.engine import HEX_NAMES, GameState, RulesConfig, new_game
from workbench.games.terrafeud.engine.analysis import detached
from workbench.games.terrafeud.engine.geometry import parse_hex
from workbench.games.terrafeud.engine.rules import parse_pairs
from workbench.games.terrafeud.scenarios.start import NO_SERVER_FILES
from workbench.games.terrafeud.viz.layout import Layout
from workbench.widget import fields
from workbench.widget.common import plain_failure

from .controller import (
    HEATS,
    MAX_FILE_BYTES,
    OVERLAYS,
    SHAPE_COLOURS,
    BoardController,
    WidgetError,
    best_lines,
    capped_agent_spec,
    fresh_seed,
    scored_choice,
)

_HERE = pathlib.Path(__file__).parent
_SIDES = ("white", "black")
_PALETTE = ("F", "K", "P", "C", "A", "I", "f", "k", "p", "c", "a", "i", "", "marker")
MAX_TEXT = 500  # any string field of a message but an upload's text
MAX_PASTE_BYTES = 64 * 1024  # a pasted position or move list


def _hex(name: str, value: Any) -> str:
    text = fields.text(4)(name, value)
    try:
        parse_hex(text)
    except ValueError:
        raise WidgetError(f"message field {name!r} is not a hex name like f3") from None
    return text


# Every message the page may send: its fields, each with its check. Anything else is refused.
MESSAGE_FIELDS: dict[str, dict[str, fields.Check]] = {
    "click": {"hex": _hex},
    "undo": {}, "redo": {}, "pass": {}, "cancel": {}, "order": {}, "flip": {}, "analyse": {},
    "choose": {"index": fields.whole(0, 63)},
    "goto": {"ply": fields.whole(0, 1_000_000)},
    "new_game": {"seed": fields.seed, "rules": fields.rule_values, "other": fields.text(MAX_TEXT)},
    "agent": {"name": fields.text(200), "side": fields.text(8, _SIDES)},
    "overlay": {"name": fields.text(20, OVERLAYS), "on": fields.boolean},
    "heat": {"kind": fields.text(20, ("", *HEATS)), "side": fields.text(8, _SIDES)},
    "compare": {"change": fields.text(200)},
    "pick_scenario": {"name": fields.text(300)},
    "check": {"index": fields.whole(0, 10_000)},
    "step": {"delta": fields.whole(-10_000, 10_000)},
    "upload": {"kind": fields.text(10, ("record", "scenario")), "name": fields.text(200), "text": fields.text(MAX_FILE_BYTES)},
    "download": {"kind": fields.text(10, ("record", "scenario"))},
    "edit": {}, "edit_done": {}, "edit_cancel": {}, "edit_clear": {},
    "edit_piece": {"piece": fields.text(8, _PALETTE)},
    "edit_to_move": {"side": fields.text(8, _SIDES)},
    "nav": {"to": fields.text(8, ("back", "forward", "home", "end")), "count": fields.whole(1, 100_000)},
    "node": {"id": fields.whole(0, 10**9)},
    "promote": {"id": fields.whole(0, 10**9)},
    "delete": {"id": fields.whole(0, 10**9)},
    "main_line": {},
    "shape": {"from": _hex, "to": _hex, "colour": fields.text(8, SHAPE_COLOURS)},
    "clear_shapes": {},
    "drag": {"from": _hex, "to": _hex},
    "paste": {"text": fields.text(MAX_PASTE_BYTES)},
    "copy": {"what": fields.text(10, ("moves", "position"))},
    "analysis": {"on": fields.boolean},
    "catalog": {"verdicts": fields.boolean},
}
# What the page may still do while an agent thinks (the rest waits for its move).
WHILE_THINKING = {"overlay", "heat", "flip", "agent", "new_game", "undo", "download", "cancel", "analysis", "shape",
                  "clear_shapes", "copy", "catalog"}
ANALYSIS_STEPS = (0.6, 1.2, 2.4)  # continuous analysis: seconds per pass on one position, deepening, then it rests


def validate_message(content: Any) -> tuple[str, dict[str, Any]]:
    """The message's type and checked fields; WidgetError (never echoing a value) if anything is off."""
    return fields.validate(content, MESSAGE_FIELDS)


class HexBoard(anywidget.AnyWidget):
    """An interactive board: ``HexBoard()`` for a new game, ``HexBoard(state, agent="greedy")``.

    The Python methods mirror the buttons (``click``, ``undo``, ``new_game``, ``load_scenario``,
    ``save_record``, ...) so a notebook can script what a designer clicks; only they take paths.
    """

    _esm = _HERE / "hexboard.js"
    _css = _HERE / "hexboard.css"
    geometry = traitlets.Dict().tag(sync=True)
    view = traitlets.Dict().tag(sync=True)
    export_text = traitlets.Unicode("").tag(sync=True)
    download = traitlets.Dict().tag(sync=True)  # {"name", "text", "n"}: the page saves it as a file
    busy = traitlets.Unicode("").tag(sync=True)  # what the kernel is doing for the page ("" when idle)
    clipboard = traitlets.Dict().tag(sync=True)  # {"text", "n"}: what Copy put in the text box
    catalog = traitlets.List().tag(sync=True)  # the picker's rows (name, title, verdict): sent only when they change

    def __init__(
        self,
        state: GameState | None = None,
        *,
        rules: RulesConfig | dict | str | None = None,
        seed: int | None = None,
        agent: str | None = None,
        agent_side: int | str = "black",
        agent_seed: int | None = None,
        size: float = 26.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        if state is None:  # a new game draws fresh rolled terrain unless the designer fixes a seed
            state = new_game(rules, fresh_seed() if seed is None else seed)
        self.controller = BoardController(state)
        self.geometry = _geometry(Layout(size=size))
        self._lock = threading.RLock()
        self._thinking: threading.Thread | None = None
        self._evaluating: threading.Thread | None = None  # Evaluate's search (the page stays live)
        self._downloads = 0
        self._analyser: threading.Thread | None = None  # continuous analysis
        self._analysis_wake = threading.Event()
        self._cataloguing: threading.Thread | None = None
        self.on_msg(self._on_msg)
        if agent:
            self.controller.set_agent(agent, agent_side, seed=agent_seed)
        self._sync()

    # ------------------------------------------------------------------ Python API
    @property
    def state(self) -> GameState:
        """The game shown (the controller's live state: apply/undo on it, then call ``refresh``)."""
        return self.controller.state

    @state.setter
    def state(self, state: GameState) -> None:
        self._do(self.controller.set_state, state)

    def refresh(self) -> None:
        """Redraw after the state was changed from Python directly (its history becomes the move list)."""
        with self._lock:
            self.controller.resync()
            self._sync()

    def click(self, h: int | str) -> None:
        """Same as clicking hex ``h`` on the board."""
        self._do(self.controller.click, h)

    def play(self, *texts: str) -> None:
        """Play actions in notation, as if clicked."""
        for text in texts:
            self._do(self.controller.play, text)

    def undo(self) -> None:
        """Undo button."""
        self._do(self.controller.undo)

    def redo(self) -> None:
        """Redo button."""
        self._do(self.controller.redo)

    def goto(self, ply: int) -> None:
        """Click on a move of the list: show the position after ``ply`` actions."""
        self._do(self.controller.goto, ply)

    def new_game(self, seed: int | None = None, **toggles: Any) -> None:
        """New game button: ``new_game(season="winter", castling="sacrifice")``; ``seed=None`` rolls fresh terrain."""
        self._do(self.controller.new_game, seed, **toggles)

    def set_agent(self, name: str | None, side: int | str = "black", seed: int | None = None) -> None:
        """Play against ``workbench.agents.make_agent(name)`` as the other colour (``None``: two humans)."""
        self._do(self.controller.set_agent, name, side, seed)

    def analyse(self, spec: str | None = None) -> dict[str, Any]:
        """The agent's evaluation of the position and its best action (drawn as an arrow)."""
        self._do(self.controller.analyse, spec)
        return self.controller.analysis or {}

    def compare(self, change: str) -> dict[str, Any]:
        """What changes under a rule value (``compare("castling=sacrifice")``): actions gained and lost."""
        self._do(self.controller.compare_toggle, change)
        return self.controller.diff or {}

    def load_scenario(self, path: str | pathlib.Path) -> None:
        """Show a scenario file's position and its checks; ``step(+1)`` walks through its ``play``."""
        self._do(self.controller.load_scenario, path)

    def show_check(self, index: int) -> None:
        """Show a loaded scenario's check ``index`` (its position after its ``play``)."""
        self._do(self.controller.show_check, index)

    def step(self, delta: int = 1) -> None:
        """Step through the loaded scenario's ``play``."""
        self._do(self.controller.step, delta)

    def save_record(self, path: str | pathlib.Path) -> None:
        """Save the game as a JSON record (a path from Python code; the page downloads instead)."""
        self._do(self.controller.save_record, path)

    def load_record(self, path: str | pathlib.Path) -> None:
        """Load a JSON game record (regular files under the size cap)."""
        self._do(self.controller.load_record, path)

    def show(self, heat: str | None = None, heat_side: str | None = None, **overlays: bool) -> None:
        """Switch overlays (``show(zones=True, aura=False)``) and the one heat map (``heat="threat"``)."""
        for name, on in overlays.items():
            if name in HEATS:  # the old switches: a heat map is a choice, not a layer
                heat = name if on else None
                continue
            if name not in OVERLAYS:
                raise WidgetError(f"unknown overlay {name!r}; overlays: {', '.join(OVERLAYS)}; heat maps: {', '.join(HEATS)}")
            self.controller.overlays[name] = bool(on)
        if heat is not None or "zone_control" in overlays or "threat" in overlays:
            if heat not in (None, *HEATS):
                raise WidgetError(f"unknown heat map {heat!r}; heat maps: {', '.join(HEATS)}")
            self.controller.heat = heat
        if heat_side is not None:
            self.controller.heat_side = _SIDES.index(heat_side)
        self._sync()

    def export_scenario(self, scenario_id: str = "edited-position", title: str | None = None) -> str:
        """The current or edited position as scenario YAML (also shown in the panel)."""
        text = self.controller.export_scenario(scenario_id, title)
        self.export_text = text
        return text

    # ------------------------------------------------------------------ browser messages
    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Ignore trait updates sent by the page: it only draws them (all input comes as checked messages).

        Otherwise a page could push any value, of any size, into ``view`` or ``download`` in the kernel.
        """
        del sync_data

    def _do(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """Run a controller gesture; any failure becomes one plain panel message (never a traceback), then redraw."""
        with self._lock:
            try:
                fn(*args, **kwargs)
            except (WidgetError, ValueError, OSError) as exc:
                self.controller.error(str(exc)[:300])
            except Exception as exc:  # noqa: BLE001 - a bug must not put server paths on the page or leave it busy
                self.controller.error(plain_failure(exc))
            self._sync()

    def _sync(self) -> None:
        try:
            view = self.controller.view()
        except Exception as exc:  # noqa: BLE001 - drawing failed: say so plainly, keep the board usable
            self.controller.error(plain_failure(exc))
            view = {**self.view, "message": self.controller.message, "level": "error",
                    "seq": self.view.get("seq", 0) + 1}
        self.catalog = self.controller.catalog_rows()  # an equal list sends nothing
        self.view = view

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """Dispatch one message from the JavaScript (see ``hexboard.js`` ``send``); a failure is one plain message."""
        try:
            self._dispatch(content)
        except Exception as exc:  # noqa: BLE001 - never a traceback on the page, never a busy sign left on
            with self._lock:
                self.controller.error(plain_failure(exc))
                self.busy = self._busy_text()
                self._sync()

    def _dispatch(self, content: Any) -> None:
        c = self.controller
        with self._lock:
            try:
                kind, f = validate_message(content)
            except WidgetError as exc:
                c.error(str(exc))
                self._sync()
                return
            if self._thinking is not None and kind not in WHILE_THINKING:
                c.warn(f"{c.agent_name} is thinking; wait for its move (or Undo)")
                self._sync()
                return
            c.clear_message()
            handlers: dict[str, Callable[[], Any]] = {
                "click": lambda: c.click(f["hex"]),
                "undo": c.undo,
                "redo": c.redo,
                "goto": lambda: c.goto(f["ply"]),
                "pass": c.pass_turn,
                "cancel": c.cancel,
                "order": c.start_order,
                "choose": lambda: c.choose(f["index"]),
                "flip": lambda: setattr(c, "flipped", not c.flipped),
                "new_game": lambda: c.new_game(f.get("seed"), **_new_game_rules(f)),
                "agent": lambda: self._set_agent(f.get("name", ""), f.get("side", "black")),
                "overlay": lambda: c.overlays.__setitem__(f["name"], f["on"]),
                "heat": lambda: self._set_heat(f.get("kind", ""), f.get("side", "white")),
                "analyse": self._start_analysis,
                "compare": lambda: c.compare_toggle(f.get("change", ""), _page_rules),
                "pick_scenario": lambda: c.pick_scenario(f.get("name", "")),
                "check": lambda: c.show_check(f["index"]),
                "step": lambda: c.step(f.get("delta", 1)),
                "upload": lambda: self._upload(f["kind"], f.get("name", "upload"), f["text"]),
                "download": lambda: self._download(f["kind"]),
                "edit": c.start_editing,
                "edit_done": c.finish_editing,
                "edit_cancel": c.cancel_editing,
                "edit_clear": c.clear_board,
                "edit_piece": lambda: c.set_edit_piece(f.get("piece", "")),
                "edit_to_move": lambda: c.set_edit_to_move(f.get("side", "white")),
                "nav": lambda: c.nav(f["to"], f.get("count", 1)),
                "node": lambda: c.goto_node(f["id"]),
                "promote": lambda: c.promote(f.get("id")),
                "delete": lambda: c.delete_variation(f.get("id")),
                "main_line": c.to_main_line,
                "shape": lambda: c.shape(f["from"], f.get("to"), f.get("colour", "green")),
                "clear_shapes": c.clear_shapes,
                "drag": lambda: c.drag(f["from"], f["to"]),
                "paste": lambda: c.paste_text(f.get("text", "")),
                "copy": lambda: self._copy(f.get("what", "moves")),
                "analysis": lambda: self._set_analysis(f.get("on", False)),
                "catalog": lambda: self._catalog(f.get("verdicts", False)),
            }
            c.agent_runner = self._start_agent  # an agent answering a page gesture thinks in a thread
            token = NO_SERVER_FILES.set(True)  # nothing the page sends opens a server file (start=)
            try:
                self._do(handlers[kind])
            finally:
                NO_SERVER_FILES.reset(token)
                c.agent_runner = None

    def _set_agent(self, name: str, side: str) -> None:
        c = self.controller
        if not name.strip():
            c.set_agent(None)
            return
        spec, notes = capped_agent_spec(name)
        c.set_agent(spec, side)
        if notes and not c.message.startswith(("the", "unknown")):
            c.warn(f"{spec} plays {side} ({'; '.join(notes)}: the board caps what a page may ask)")

    def _copy(self, what: str) -> None:
        text = self.controller.copy_text(what)
        self._downloads += 1
        self.clipboard = {"text": text, "n": self._downloads}
        self.controller.say(f"the {'move list' if what == 'moves' else 'position'} is in the text box: select and copy it")

    def _catalog(self, verdicts: bool) -> None:
        """List the scenario files again; with ``verdicts`` run every file's checks in a thread (busy sign)."""
        c = self.controller
        if not verdicts:
            c.catalog_rows(refresh=True)
            return
        if self._cataloguing is not None:
            return
        self.busy = "running every scenario's checks…"

        def work() -> None:
            try:
                rows, error = c.scenario_catalog(verdicts=True), None
            except Exception as exc:  # noqa: BLE001 - reported on the panel, never a traceback
                rows, error = None, plain_failure(exc)
            with self._lock:
                self._cataloguing = None
                self.busy = self._busy_text()
                if rows is not None:
                    c._catalog_rows = rows
                    done = sum(1 for r in rows if r["verdict"] and r["verdict"].startswith("pass"))
                    c.say(f"checked {len(rows)} scenario files: {done} pass")
                else:
                    c.error(error or "")
                self._sync()

        self._cataloguing = threading.Thread(target=work, name="hexboard-catalog", daemon=True)
        self._cataloguing.start()

    def _busy_text(self) -> str:
        """The busy sign for what still runs (an agent's move first: the page waits for it)."""
        if self._thinking is not None:
            return self.busy if self.busy.endswith("thinking…") else f"{self.controller.agent_name} is thinking…"
        if self._evaluating is not None:
            return "evaluating…"
        if self._cataloguing is not None:
            return "running every scenario's checks…"
        if self.controller.analysing:
            return "analysing…"
        return ""

    def _set_analysis(self, on: bool) -> None:
        """Switch continuous analysis on or off: a thread searches the position shown, deeper each pass."""
        c = self.controller
        c.analysing = on
        self.busy = self._busy_text()
        if not on:
            self._analysis_wake.set()
            c.say("analysis off")
            return
        c.say("analysis on: several best lines of the position shown, deepening (switch off to stop)")
        if self._analyser is not None and self._analyser.is_alive():
            self._analysis_wake.set()
            return

        def work() -> None:
            done_for: tuple[int, int] | None = None
            while c.analysing:
                with self._lock:
                    key = (id(c.tree), c.node.id)
                    state = detached(c.state) if not c.state.is_terminal() else None
                if state is None or done_for == key:
                    self._analysis_wake.wait(0.5)
                    self._analysis_wake.clear()
                    continue
                for seconds in ANALYSIS_STEPS:
                    try:
                        lines, error = best_lines(state, seconds), None
                    except Exception as exc:  # noqa: BLE001 - reported on the panel, never a traceback
                        lines, error = None, plain_failure(exc)
                    with self._lock:
                        if not c.analysing or (id(c.tree), c.node.id) != key:
                            break
                        if error:
                            c.error(error)
                            c.analysing = False
                        else:
                            c.lines = {"node": c.node.id, "lines": lines, "seconds": seconds,
                                       "final": seconds == ANALYSIS_STEPS[-1]}
                        self.busy = self._busy_text()
                        self._sync()
                    if error:
                        break
                else:
                    done_for = key
            with self._lock:
                self._analyser = None
                self.busy = self._busy_text()
                self._sync()

        self._analyser = threading.Thread(target=work, name="hexboard-analysis", daemon=True)
        self._analyser.start()

    def _set_heat(self, kind: str, side: str) -> None:
        self.controller.heat = kind or None
        self.controller.heat_side = _SIDES.index(side)

    def _upload(self, kind: str, name: str, text: str) -> None:
        safe = re.sub(r"[^A-Za-z0-9._ -]+", "_", name)[:80] or "upload"
        if kind == "record":
            self.controller.load_record_text(text, safe)
        else:
            self.controller.load_scenario_text(text, safe)

    def _download(self, kind: str) -> None:
        c = self.controller
        if kind == "record":
            name, text = f"terrafeud-game-ply{c.state.ply}.json", c.record_text()
        else:
            text = c.export_scenario("edited-position")
            self.export_text = text
            name = "edited-position.yaml"
        self._downloads += 1
        self.download = {"name": name, "text": text, "n": self._downloads}
        c.say(f"{name} sent to your browser's downloads")

    def _start_agent(self) -> None:
        """Let the agent choose in a thread; the page shows a busy sign and stays live meanwhile."""
        if self._thinking is not None:
            return
        c = self.controller
        if not c.agent_to_move():
            return
        agent, state, ply, state_id = c.agent, detached(c.state), c.state.ply, id(c.node)
        self.busy = f"{c.agent_name} is thinking…"

        def work() -> None:
            try:
                action, score, source = scored_choice(agent, state)
                error = None
            except Exception as exc:  # an agent failure is reported on the board, never kills it
                action, score, source, error = None, 0.0, "", f"{c.agent_name} failed: {type(exc).__name__}: {str(exc)[:200]}"
            with self._lock:
                self._thinking = None
                self.busy = self._busy_text()
                if error:
                    c.error(error)
                elif action is not None and c.agent is agent:
                    c.agent_apply(action, ply, state_id, (score, source))
                if not error and c.agent_to_move():  # the position changed meanwhile (new game): think again
                    self._start_agent()
                self._sync()

        self._thinking = threading.Thread(target=work, name="hexboard-agent", daemon=True)
        self._thinking.start()

    def _start_analysis(self) -> None:
        """Evaluate in a thread (the agent's search takes up to ``EVAL_SECONDS``) under a busy sign.

        The result is shown only while the board still shows the position it was asked for.
        """
        c = self.controller
        if self._evaluating is not None:
            c.warn("an evaluation is already running")
            return
        request = c.analysis_request()
        if request is None:
            return
        agent, spec, state = request
        self.busy = "evaluating…"

        def work() -> None:
            try:
                action, score, source = scored_choice(agent, state)
                error = None
            except Exception as exc:  # a failing agent is reported on the board, never kills it
                action, score, source = None, 0.0, ""
                error = f"the evaluation failed: {type(exc).__name__}: {str(exc)[:200]}"
            with self._lock:
                self._evaluating = None
                self.busy = self._busy_text()
                if error:
                    c.error(error)
                elif action is not None and c.state.key() == state.key():
                    c.set_analysis(state, spec, action, score, source)
                self._sync()

        self._evaluating = threading.Thread(target=work, name="hexboard-evaluate", daemon=True)
        self._evaluating.start()

    def wait(self, timeout: float = 30.0) -> None:
        """Wait until an agent thinking (or an evaluation running) for the page has finished (scripts, tests)."""
        for t in (self._thinking, self._evaluating, self._cataloguing):
            if t is not None:
                t.join(timeout)


# Rules the page may not set: ``start`` names a server file (a path from the browser would read any file
# and echo its first key), and explicit hexes come with scenarios, which the picker or an upload brings.
PAGE_FORBIDDEN_RULES = ("start",)


def _page_rules(rules: dict[str, Any]) -> dict[str, Any]:
    """Rules named by the page, refused if one of them would make the kernel open a server path."""
    for key in rules:
        if str(key).strip() in PAGE_FORBIDDEN_RULES:
            raise WidgetError(
                "rule 'start' names a server file and cannot be set from the page; "
                "pick a scenario from the list or upload one instead"
            )
    return rules


def _new_game_rules(f: dict[str, Any]) -> dict[str, Any]:
    """The panel's rule controls plus the free ``key=value`` field for any other rule."""
    toggles = {k: v for k, v in f.get("rules", {}).items() if v not in (None, "")}
    toggles.update(parse_pairs(f.get("other", "")))
    return _page_rules(toggles)


def _geometry(layout: Layout) -> dict[str, Any]:
    """Layout JSON (pixels rounded to 0.01) plus the rim coordinates the static pictures print."""
    from workbench.games.terrafeud.viz.scene import _coordinates

    data = _rounded(layout.to_json())
    data["names"] = list(HEX_NAMES)  # the layout comes from the game, the page only draws it
    data["size"] = layout.size
    data["coords"] = [[round(t.x, 2), round(t.y, 2), t.text] for t in _coordinates(layout)]
    data["rule_fields"] = _rule_fields()
    data["max_file_bytes"] = MAX_FILE_BYTES
    return data


def _rule_fields() -> list[dict[str, Any]]:
    """One new-game control per RulesConfig field: a choice for toggles, a text box for parameters.

    Built from the dataclass itself, so rule parameters added to RulesConfig appear without a change here.
    """
    from workbench.games.terrafeud.engine import rules as rules_module

    choices = getattr(rules_module, "_CHOICES", {})
    meanings = {p.name: p for p in getattr(rules_module, "PARAMETERS", ())}
    defaults = RulesConfig().to_dict()
    out = []
    for name in RulesConfig.names():
        if name in ("hills", "swamps", "start"):  # explicit hexes come with scenarios, not the panel
            continue
        default = defaults[name]
        if isinstance(default, (list, tuple)):
            default = ",".join(map(str, default))
        values = choices.get(name)
        if values is None and isinstance(default, bool):
            values = (True, False)
        field: dict[str, Any] = {"name": name, "default": _js(default)}
        if values is not None:
            field["values"] = [_js(v) for v in values]
        p = meanings.get(name)
        if p is not None:
            field["title"] = f"{p.meaning} (default {p.default}; {p.allowed}; {p.source})"
        out.append(field)
    return out


def _js(value: Any) -> Any:
    """A rule value as the page shows it (booleans as true/false text)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value


def _rounded(data: Any) -> Any:
    """Layout JSON with pixels rounded to 0.01, to keep the synced trait small."""
    if isinstance(data, float):
        return round(data, 2)
    if isinstance(data, (list, tuple)):
        return [_rounded(x) for x in data]
    if isinstance(data, dict):
        return {k: _rounded(v) for k, v in data.items()}
    return data


__all__ = ["MESSAGE_FIELDS", "HexBoard", "validate_message"]
