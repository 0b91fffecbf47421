"""``HexBoard``: the TerraFeud board as a notebook widget (anywidget), for JupyterLab and Voila.

Thin on purpose: two JSON traits go to the browser (``geometry`` from ``viz.layout.Layout`` once,
``view`` from ``BoardController.view()`` after every change) and the browser sends back small
messages (``{"type": "click", "hex": "f3"}``, ``{"type": "undo"}``, ...). All game logic lives in
``controller.py``; the JavaScript draws and reports, it never decides what is legal.
"""

from __future__ import annotations

import pathlib
import re
from collections.abc import Callable
from typing import Any

import anywidget
import traitlets

from workbench.engine import GameState, RulesConfig, new_game
from workbench.engine.rules import parse_pairs
from workbench.viz.layout import Layout

from .controller import OVERLAYS, BoardController, WidgetError

_HERE = pathlib.Path(__file__).parent


class HexBoard(anywidget.AnyWidget):
    """An interactive board: ``HexBoard()`` for a new game, ``HexBoard(state, agent="greedy")``.

    The Python methods mirror the buttons (``click``, ``undo``, ``redo``, ``new_game``,
    ``load_scenario``, ``save_record``, ...) so a notebook can script what a designer clicks.
    """

    _esm = _HERE / "hexboard.js"
    _css = _HERE / "hexboard.css"
    geometry = traitlets.Dict().tag(sync=True)
    view = traitlets.Dict().tag(sync=True)
    export_text = traitlets.Unicode("").tag(sync=True)

    def __init__(
        self,
        state: GameState | None = None,
        *,
        rules: RulesConfig | dict | str | None = None,
        seed: int | None = 0,
        agent: str | None = None,
        agent_side: int | str = "black",
        agent_seed: int | None = None,
        size: float = 26.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.controller = BoardController(state if state is not None else new_game(rules, seed))
        self.geometry = _rounded(Layout(size=size).to_json())
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
        """Redraw after the state was changed from Python directly."""
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

    def new_game(self, seed: int | None = 0, **toggles: Any) -> None:
        """New game button: ``new_game(season="winter", hill=False, castling="sacrifice")``."""
        self._do(self.controller.new_game, seed, **toggles)

    def set_agent(self, name: str | None, side: int | str = "black", seed: int | None = None) -> None:
        """Play against ``workbench.agents.make_agent(name)`` as the other colour (``None``: two humans)."""
        self._do(self.controller.set_agent, name, side, seed)

    def load_scenario(self, path: str | pathlib.Path) -> None:
        """Show a scenario file's position; ``step(+1)`` walks through its ``play``."""
        self._do(self.controller.load_scenario, path)

    def step(self, delta: int = 1) -> None:
        """Step through the loaded scenario's ``play``."""
        self._do(self.controller.step, delta)

    def save_record(self, path: str | pathlib.Path) -> None:
        """Save the game as a JSON record."""
        self._do(self.controller.save_record, path)

    def load_record(self, path: str | pathlib.Path) -> None:
        """Load a JSON game record."""
        self._do(self.controller.load_record, path)

    def show(self, **overlays: bool) -> None:
        """Switch overlays: ``show(zones=True, threat=True)``; names are ``controller.OVERLAYS``."""
        for name, on in overlays.items():
            if name not in OVERLAYS:
                raise WidgetError(f"unknown overlay {name!r}; overlays: {', '.join(OVERLAYS)}")
            self.controller.overlays[name] = bool(on)
        self._sync()

    def export_scenario(self, scenario_id: str = "edited-position", title: str = "Edited position") -> str:
        """The current or edited position as scenario YAML (also shown in the panel)."""
        text = self.controller.export_scenario(scenario_id, title)
        self.export_text = text
        return text

    # ------------------------------------------------------------------ browser messages
    def _do(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        """Run a controller gesture; a user-facing error becomes the panel message, then redraw."""
        try:
            fn(*args, **kwargs)
        except (WidgetError, ValueError, OSError) as exc:
            self.controller.message = str(exc)
        self._sync()

    def _sync(self) -> None:
        self.view = self.controller.view()

    def _on_msg(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        """Dispatch one message from the JavaScript (see ``hexboard.js`` ``send``)."""
        c = self.controller
        kind = content.get("type")
        path = str(content.get("path") or "").strip()
        handlers: dict[str, Callable[[], Any]] = {
            "click": lambda: c.click(str(content["hex"])),
            "undo": c.undo,
            "redo": c.redo,
            "pass": c.pass_turn,
            "cancel": c.cancel,
            "order": c.start_order,
            "choose": lambda: c.choose(int(content["index"])),
            "new_game": lambda: c.new_game(_seed(content.get("seed")), **_toggles(content)),
            "agent": lambda: c.set_agent(content.get("name") or None, content.get("side") or "black"),
            "overlay": lambda: c.overlays.__setitem__(str(content["name"]), bool(content["on"])),
            "heat_side": lambda: setattr(c, "heat_side", 0 if content.get("side") == "white" else 1),
            "load_scenario": lambda: c.load_scenario(_need(path, "a scenario .yaml path")),
            "step": lambda: c.step(int(content.get("delta", 1))),
            "save_record": lambda: c.save_record(_need(path, "a record .json path")),
            "load_record": lambda: c.load_record(_need(path, "a record .json path")),
            "edit": c.start_editing,
            "edit_piece": lambda: c.set_edit_piece(str(content.get("piece", ""))),
            "edit_to_move": lambda: c.set_edit_to_move(str(content.get("side", "white"))),
            "edit_done": c.finish_editing,
            "export": lambda: self._export(path),
        }
        if kind not in handlers:
            c.message = f"unknown widget message {kind!r}"
            self._sync()
            return
        self._do(handlers[kind])

    def _export(self, path: str) -> None:
        stem = re.sub(r"[^a-z0-9]+", "-", pathlib.Path(path).stem.lower()).strip("-") if path else ""
        text = self.controller.export_scenario(stem or "edited-position")
        self.export_text = text
        if path:
            pathlib.Path(path).write_text(text, encoding="utf-8")
            self.controller.message = f"scenario written to {path}"


def _need(path: str, what: str) -> str:
    if not path:
        raise WidgetError(f"type {what} in the path box first")
    return path


def _seed(value: Any) -> int | None:
    if value in (None, ""):
        return 0
    try:
        return int(value)
    except (TypeError, ValueError):
        raise WidgetError(f"seed {value!r} is not a whole number") from None


def _toggles(content: dict[str, Any]) -> dict[str, Any]:
    """Start-screen toggles plus the free ``key=value`` field for any other toggle."""
    toggles = {k: content[k] for k in ("season", "hill", "swamp", "terrain") if k in content}
    toggles.update(parse_pairs(str(content.get("other") or "")))
    return toggles


def _rounded(data: Any) -> Any:
    """Layout JSON with pixels rounded to 0.01, to keep the synced trait small."""
    if isinstance(data, float):
        return round(data, 2)
    if isinstance(data, (list, tuple)):
        return [_rounded(x) for x in data]
    if isinstance(data, dict):
        return {k: _rounded(v) for k, v in data.items()}
    return data


__all__ = ["HexBoard"]
