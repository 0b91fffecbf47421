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
            eff = action_effects(self.inner, action)
        except IllegalActionError as exc:
            raise IllegalAction(str(exc)) from None
        said = [w for w in str(eff.get("text") or "").split("; ") if w and w != "castles"]
        eff["text"] = "; ".join([f"{self.action_to_string(action)}: {self._doing(action)}", *said])
        return eff

    def _doing(self, action: Any) -> str:
        """What ``action`` is, in words (its effects follow it in ``action_effects``' text)."""
        from workbench.games.terrafeud.engine import CASTLE, MOVE, ORDER, SHOT
        from workbench.games.terrafeud.engine.geometry import hex_name
        from workbench.games.terrafeud.engine.pieces import KIND_NAMES, SIDE_NAMES
        from workbench.games.terrafeud.engine.state import order_steps

        st = self.inner
        side = SIDE_NAMES[st.to_move]
        kind = action[0]
        if kind == MOVE:
            said = f"the {side} {KIND_NAMES[kind_of(st.squares[action[1]])]} on {hex_name(action[1])} moves to {hex_name(action[2])}"
            promo = KIND_NAMES[action[3]] if len(action) > 3 and action[3] else ""
            return said + (f", promoted to {'an' if promo[:1] in 'aeiou' else 'a'} {promo}" if promo else "")
        if kind == SHOT:
            return f"the {side} archer on {hex_name(action[1])} shoots at {hex_name(action[2])} (W8)"
        if kind == CASTLE:
            return f"{side} castles ({hex_name(action[1])} and {hex_name(action[2])})"
        if kind == ORDER:
            return f"{side} gives an Order (W12): " + ", ".join(f"{hex_name(a)}-{hex_name(t)}" for a, t, _p in order_steps(action))
        return f"{side} passes"

    def overlay(self, name: str) -> dict[int, str]:
        """``zones``: each side's zone of control; ``markers``: the hexes archers have marked (and the archers);
        ``aura``: the hexes within each feudal's aura (the ``aura_radius`` rule)."""
        from workbench.games.terrafeud.engine.geometry import DISTANCE

        st, side = self.inner, ("white", "black")
        out: dict[int, str] = {}
        if name == "zones":
            for s in (0, 1):
                for h in st.zone(s):
                    out[h] = "zones" if h in out else f"zone-{side[s]}"
        elif name == "markers":
            for s in (0, 1):
                for archer, target in st.markers[s].items():
                    out[target] = f"marked-{side[s]}"
                    out.setdefault(archer, "marker-archer")
        elif name == "aura":
            radius = getattr(st.board, "aura_radius", 2)
            for s in (0, 1):
                f = st.feudal[s]
                if f >= 0:
                    for h in range(len(st.squares)):
                        if DISTANCE[f][h] <= radius:
                            out[h] = "auras" if h in out else f"aura-{side[s]}"
        return out

    def target_kind(self, action: Any) -> str:
        """``attack`` onto an enemy, ``mine`` onto an enemy marker, ``stop`` where a move is cut short (W2: a
        bridge, a zone, a ford or swamp for a knight or cavalry), ``shot``, ``castle``, ``order``, else ``move``."""
        from workbench.games.terrafeud.engine import CASTLE, MOVE, ORDER, SHOT
        from workbench.games.terrafeud.engine.geometry import CAVALRY_PATHS, RAYS
        from workbench.games.terrafeud.engine.pieces import CAVALRY, KNIGHT

        kind = action[0]
        if kind != MOVE:
            return {SHOT: "shot", CASTLE: "castle", ORDER: "order"}.get(kind, "")
        st = self.inner
        h, t = action[1], action[2]
        if st.squares[t]:
            return "attack"
        s = st.to_move
        if t in st.marked_by(1 - s):
            return "mine"
        piece = kind_of(st.squares[h])
        if piece == KNIGHT:
            for ray in RAYS[h]:
                if t in ray:
                    i = ray.index(t)
                    after_bridge = i > 0 and st.board.is_bridge[ray[i - 1]] and getattr(st.rules, "knight_bridge_stop", True)
                    if after_bridge or t in st.zone(1 - s) or st.board.stop_for[s][t]:
                        return "stop"
        elif piece == CAVALRY:
            if t not in {land for land, _ in CAVALRY_PATHS[h]} or st.board.cavalry_stop_for[s][t]:
                return "stop"
        return "move"

    def action_mode(self, action: Any) -> str:
        """An Order (W12) is the board's ``order`` mode: several infantry moves given as one action."""
        from workbench.games.terrafeud.engine import ORDER

        return "order" if action[0] == ORDER else ""

    def explain_cells(self, cells: Any) -> dict[str, Any] | None:
        """A piece sent to a hex it cannot reach: the engine's first failing rule and the hexes that block it (an
        archer reaches hexes beyond its neighbours only by a shot, W8, so that is the action explained)."""
        from workbench.games.terrafeud.engine import MOVE, SHOT
        from workbench.games.terrafeud.engine.geometry import DISTANCE
        from workbench.games.terrafeud.engine.notation import illegal_detail
        from workbench.games.terrafeud.engine.pieces import ARCHER

        st = self.inner
        if len(cells) != 2 or not st.squares[cells[0]] or side_of(st.squares[cells[0]]) != st.to_move:
            return None
        frm, h = int(cells[0]), int(cells[1])
        shot = kind_of(st.squares[frm]) == ARCHER and DISTANCE[frm][h] >= 2
        detail = illegal_detail(st, (SHOT, frm, h) if shot else (MOVE, frm, h, 0))
        return {"text": str(detail["text"]), "blocks": [int(b) for b in detail.get("blocks") or []]}

    def action_label(self, action: Any) -> str:
        """A promotion's button names the destroyed piece it brings back (``promote to C cavalry``)."""
        from workbench.games.terrafeud.engine import MOVE
        from workbench.games.terrafeud.engine.pieces import KIND_NAMES

        if action[0] == MOVE and len(action) > 3 and action[3]:
            return f"promote to {LETTERS[action[3]]} {KIND_NAMES[action[3]]}"
        return ""

    def attackers(self) -> list[tuple[int, int, int]]:
        """The enemy pieces that could attack each piece in their side's next turn (the engine's threat probe,
        ``threat_sets``: moves, shots, markers and coordinated attacks played by the engine)."""
        from workbench.games.terrafeud.engine.analysis import threat_sets

        st = self.inner
        if st.winner is not None:
            return []
        out = []
        for side in (0, 1):
            sets = threat_sets(st, side)
            out.extend((a, h, 1 - side) for h, c in enumerate(st.squares) if c and side_of(c) == side for a in sorted(sets[h]))
        return out

    def attack_lines(self) -> list[tuple[int, int, int]]:
        """The attackers of a threatened feudal, and of a mated one (the engine's threat probe)."""
        from workbench.games.terrafeud.engine.analysis import attackers

        st = self.inner
        sides = [s for s in (0, 1) if st.winner is None and st.is_threatened(s)]
        if st.victory == "checkmate" and st.winner is not None:
            sides.append(1 - st.winner)
        return [(a, st.feudal[s], 1 - s) for s in sides if st.feudal[s] >= 0 for a in attackers(st, s) if a != st.feudal[s]]

    def glyphs(self) -> list[Glyph]:
        """Terrain and pieces; a feudal under threat is marked ``threatened``, a checkmated one ``mated``."""
        st = self.inner
        board = st.board
        lost = {st.feudal[1 - st.winner]} if st.victory == "checkmate" and st.winner is not None else set()
        threatened = {st.feudal[s] for s in (0, 1) if st.winner is None and st.feudal[s] >= 0 and st.is_threatened(s)}
        out = []
        for h, c in enumerate(st.squares):
            terrain = ("river" if h in board.river else "ford" if h in board.fords else "bridge" if h in board.bridges
                       else "hill" if board.is_hill[h] else "swamp" if board.swamp_owner[h] >= 0 else "")
            marks = ("mated",) if h in lost else ("threatened",) if h in threatened else ()
            out.append(Glyph(h, terrain=terrain, piece=LETTERS[kind_of(c)] if c else "",
                             owner=side_of(c) if c else None, marks=marks))
        return out

    def summary(self, player: int | None = None) -> dict[str, Any]:
        """What the board's status line adds: the season, who owns the hill and the swamp (rolled terrain), and a
        feudal under threat (W10)."""
        st = self.inner
        out: dict[str, Any] = {"season": st.rules.season}
        terrain = st.board.terrain.to_dict()
        for key, word in (("hills", "hill:"), ("swamps", "swamp:")):
            owners = ", ".join(f"{side} {h}" for side, h in terrain[key].items() if h)
            if owners:
                out[word] = owners
        if st.winner is None:
            for s, side in enumerate(("white", "black")):
                if st.feudal[s] >= 0 and st.is_threatened(s):
                    out[f"{side} feudal"] = "under threat"
        return out

    def heat(self, layer: str, player: int) -> dict[int, float]:
        """``threat``: how many of ``player``'s pieces could attack each hex next turn; ``control``: how many of its
        pikemen's zones cover it; ``mobility``: how many of its pieces reach it; ``safe``: where its feudal is safe."""
        from workbench.games.terrafeud.engine import analysis

        st = self.inner
        if layer == "threat":  # threat_counts(state, s) counts the attackers of s's enemy on each hex
            values: list[float] = [float(v) for v in analysis.threat_counts(st, 1 - player)]
        elif layer == "control":
            values = [float(v) for v in analysis.zone_counts(st, player)]
        elif layer == "mobility":
            values = [float(v) for v in analysis.mobility(st, player)]
        elif layer == "safe":
            values = [float(v) for v in analysis.safe_feudal_hexes(st, player)]
        else:
            return {}
        return {h: v for h, v in enumerate(values) if v == v}  # NaN: not a hex the layer speaks of (the river)

    def evaluate(self, player: int) -> float:
        # TerraFeud's weights, shared with its native twin
        from workbench.games.terrafeud.agents.evaluate import evaluate

        return evaluate(self.inner, player)
