"""TerraFeud's ``GameState`` seen through the protocol (a thin wrapper, no copy per call).

The engine keeps its own, older names (``apply``/``undo``, ``winner`` and ``victory`` as fields), so
this class adapts rather than renames: every existing caller, record and test keeps working, and a
tool that speaks the protocol gets the same positions. ``inner`` is the engine state itself.
"""

from __future__ import annotations

from typing import Any

from workbench.core.protocol import TERMINAL, Glyph, IllegalAction, State
from workbench.games.terrafeud.engine import GameState, IllegalActionError, NotationError, explain_illegal
from workbench.games.terrafeud.engine.pieces import LETTERS, kind_of, side_of
from workbench.games.terrafeud.engine.serialize import state_to_dict
from workbench.games.terrafeud.engine.telemetry import counters_dict, fired_text


class TerraFeudState(State):
    """One TerraFeud position. Actions are the engine's tuples; players 0 (White) and 1 (Black)."""

    __slots__ = ("inner",)

    def __init__(self, inner: GameState) -> None:
        self.inner = inner

    def __repr__(self) -> str:
        return repr(self.inner)

    def __str__(self) -> str:
        return str(self.inner)

    def _repr_svg_(self) -> str | None:
        return self.inner._repr_svg_()

    # ------------------------------------------------------------------ protocol
    def current_player(self) -> int:
        return TERMINAL if self.inner.is_terminal() else self.inner.to_move

    def legal_actions(self, player: int | None = None) -> list[Any]:
        if player is not None and player != self.current_player():
            return []
        return self.inner.legal_actions()

    def apply_action(self, action: Any) -> None:
        try:
            self.inner.apply(action)
        except IllegalActionError as exc:
            raise IllegalAction(str(exc)) from None

    def undo_action(self) -> None:
        self.inner.undo()

    def clone(self) -> TerraFeudState:
        return TerraFeudState(self.inner.clone())

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return self.inner.returns()

    def winner(self) -> int | None:
        return self.inner.winner if self.inner.is_terminal() else None

    def outcome(self) -> str:
        if not self.inner.is_terminal():
            return "ongoing"
        if self.inner.winner is not None:
            return "win"
        return "draw" if self.inner.victory == "draw" else "unfinished"

    def victory(self) -> str | None:
        return self.inner.victory

    def move_number(self) -> int:
        return self.inner.ply

    def turn(self) -> int:
        return self.inner.ply // 2 + 1

    def action_to_string(self, action: Any) -> str:
        return self.inner.action_to_string(action)

    def string_to_action(self, text: str) -> Any:
        try:
            action = self.inner.parse_action(text)
        except (NotationError, IllegalActionError) as exc:
            raise IllegalAction(str(exc)) from None
        return action

    def explain_illegal(self, text: str) -> str:
        try:
            action = self.inner.parse_action(text)
        except (NotationError, IllegalActionError) as exc:
            return str(exc)
        return explain_illegal(self.inner, action) or f"{text} is legal"

    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self.inner)

    def observation_string(self, player: int | None = None) -> str:
        return str(self.inner)  # perfect information: every player sees the whole board

    def counters(self) -> dict[str, list[int]]:
        return counters_dict(self.inner.counters)

    def fired(self) -> list[tuple[str, int, int | None]]:
        return [(r, s, h if h >= 0 else None) for r, s, h in self.inner.fired]

    def fired_text(self) -> str:
        """The events table's ``rules`` field for the last action."""
        return fired_text(self.inner.fired)

    def action_cells(self, action: Any) -> list[int]:
        return [v for i, v in enumerate(action[1:], start=1) if not (action[0] in (0, 3) and i % 3 == 0)]

    def action_effects(self, action: Any) -> dict[str, Any]:
        """What ``action`` would change, as the engine plays it (the board's previews and move-list notes)."""
        from workbench.games.terrafeud.engine.analysis import action_effects

        try:
            return action_effects(self.inner, action)
        except IllegalActionError as exc:
            raise IllegalAction(str(exc)) from None

    def glyphs(self) -> list[Glyph]:
        board = self.inner.board
        out = []
        for h, c in enumerate(self.inner.squares):
            terrain = ("river" if h in board.river else "ford" if h in board.fords else "bridge" if h in board.bridges
                       else "hill" if board.is_hill[h] else "swamp" if board.swamp_owner[h] >= 0 else "")
            out.append(Glyph(h, terrain=terrain, piece=LETTERS[kind_of(c)] if c else "",
                             owner=side_of(c) if c else None))
        return out

    def evaluate(self, player: int) -> float:
        # TerraFeud's weights, shared with its native twin
        from workbench.games.terrafeud.agents.evaluate import evaluate

        return evaluate(self.inner, player)
