"""The Cursed Lands played whole inside the native core: the same games and events rows as ``play_protocol_game``.

``GAME.native.play_game`` (the ``GameDef`` hook that ``workbench.simulate.protocol_play`` asks) calls this module, so
the simulate tool names no game; the row helpers it fills are simulate's own, imported when a game is played.

The Python engine deals the start (``new_initial_state``: rules, setup file, decks from the seed); the
native core plays the game with the GIL released, with the native twins of the generic agents seeded as
the Python agents are; the trace it returns (actions, legal counts, sides, turns, AP, deck tops, ``fired``)
is turned into rows here with the Python engine's own notation and game columns, so a row says the same
whichever engine played it, except ``engine`` and ``seconds``.

A game plays here when the core is built and every seat's agent has a native twin. Under a hidden deck top
(``deck_top_visible=false``) a searching agent picks on a view whose top allows exactly the placements it is
offered (C5, C46; ``view`` in both engines), so its pick is legal in the real state. Should a pick ever be
illegal, the core stops there and hands it back, and this module plays the Python loop's ply on the Python
state (``apply_action`` raises), so the row is the Python path's error row and the events end where its
events end. One case stays on the Python path: a setup phase of 2-3 starting units with a searching agent
(millions of camp actions to search).
"""

from __future__ import annotations

from typing import Any

GAME_NAME = "cursed-lands"


def _native_agents(names: list[str]) -> list[tuple[str, dict[str, Any]]] | None:
    from workbench.core.agents import native_agent_specs
    from workbench.games.cursed_lands.native import AGENT_NAMES, AGENT_PARAMS

    return native_agent_specs(names, AGENT_NAMES, AGENT_PARAMS)


def playable(spec: Any, rules: Any, n_seats: int = 2) -> bool:
    """True when this game of ``spec`` can be played by the native core (see the module docstring)."""
    from workbench.core.rows import seat_agents
    from workbench.games.cursed_lands.native import available

    if spec.game != GAME_NAME or not available():
        return False
    try:
        agents = _native_agents(seat_agents(spec, n_seats))
    except ValueError:
        return False
    if agents is None:
        return False
    searching = any(base != "random" for base, _ in agents)
    return not (searching and rules["setup_phase"] and rules["starting_units"] >= 2)


def action_text(rules: Any, action: int, side: int, top: int) -> str:
    """Canonical notation of ``action`` played by ``side`` with ``top`` on its deck (``CursedState._text``)."""
    from workbench.games.cursed_lands import actions as act
    from workbench.games.cursed_lands.geometry import HEX_NAMES, hex_of
    from workbench.games.cursed_lands.notation import camp_text
    from workbench.games.cursed_lands.rules import KINDS
    from workbench.games.cursed_lands.state import CAMP_ROWS

    kind, f, t, g = act.decode(action)
    if kind == "end":
        return "end"
    if kind == "produce":
        return "+" + KINDS[f]
    if kind == "tile":
        return f"#{HEX_NAMES[t]}" + (f"={'prfhm'[top - 1]}" if top else "")
    if kind == "move":
        return f"{HEX_NAMES[f]}-{HEX_NAMES[t]}"
    if kind == "attack":
        return f"{HEX_NAMES[f]}x{HEX_NAMES[g]}"
    if kind == "move_attack":
        return f"{HEX_NAMES[f]}-{HEX_NAMES[t]}x{HEX_NAMES[g]}"
    castle, flags, units = act.decode_camp(action, rules["starting_units"])
    r = CAMP_ROWS[side]
    return camp_text(hex_of(castle, r), [hex_of(c, r) for c in flags], [(hex_of(c, r), k) for c, k in units])


def _cost(rules: Any, kind: str, action: int) -> int:
    from workbench.games.cursed_lands import actions as act
    from workbench.games.cursed_lands.rules import KINDS

    if kind == "produce":
        return rules[f"produce_cost_{KINDS[action - act.PRODUCE]}"]
    if kind == "tile":
        return rules["tile_cost"]
    if kind == "move":
        return rules["activation_cost"]
    if kind in ("attack", "move_attack"):
        return rules["activation_cost"] + rules["attack_extra_cost"]
    return 0


def play_native(spec: Any) -> Any:
    """One game of ``spec`` in the native core; the ``GameResult`` ``play_protocol_game`` would return."""
    from workbench.core.nativekit import CoreGame, native_seats, play_in_core
    from workbench.games.cursed_lands import GAME as game  # its own GameDef: a game needs no registry
    from workbench.games.cursed_lands import actions as act
    from workbench.games.cursed_lands.native import AGENT_NAMES, AGENT_PARAMS, core, fields_of, python_state, rules_dict

    def body(g: CoreGame) -> None:
        rules = g.rules
        info = game.info(rules)
        start = game.new_initial_state(rules, spec.seed)
        agents = native_seats(spec, game, rules, AGENT_NAMES, AGENT_PARAMS)
        out = core().play_game(rules_dict(rules, start.factions), fields_of(start), agents, spec.max_plies, spec.events)
        state = g.state = python_state(rules, start.seed, start.factions, out["final"])
        g.n_legal = list(out["n_legal"])
        if spec.events:
            first = start.moves_played
            cell_names = {c.id: c.name for c in game.layout(rules).cells}  # events name cells, as the Python path
            for i, a in enumerate(out["actions"]):
                side, top, ap = out["sides"][i], out["tops"][i], out["ap_before"][i]
                kind = act.decode(a)[0]
                fired = ",".join(r if c is None else f"{r}@{cell_names.get(c, c)}" for r, _, c in out["fired"][i])
                g.events.append({"game_id": spec.game_id, "ply": first + i + 1, "turn": out["turns"][i],
                                 "side": info.players[side], "action": action_text(rules, a, side, top),
                                 "n_legal": g.n_legal[i], "rules": fired, "action_kind": kind, "ap_before": ap,
                                 "ap_left": ap - _cost(rules, kind, a),
                                 "tile": "prfhm"[top - 1] if kind == "tile" and top else None})
        illegal = out["illegal"]
        if illegal is not None:  # picked on a view, not legal in the real state: the Python loop's ply, which raises
            if spec.events:
                state.action_to_string(illegal)
                game.event_row(state, illegal)
            state.apply_action(illegal)
            raise RuntimeError(f"native core: action {illegal} stopped the game but is legal in Python")

    return play_in_core(spec, game, body)
