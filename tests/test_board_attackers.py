"""Attacker lines of every game with attacks (issue 30): ``State.attackers`` lists, for every seat, the attacks its
pieces could make on its next move, by the game's own rules; the board sends them per attacked cell and the page
draws the lines into a hovered cell. Each game's list is checked in several positions, one without any attack,
against an independent count: the position is given to each seat in turn through the game's own editor hooks
(``edit_form``, ``edit_to_move``, ``edit_state``) and that seat's legal attack actions are read off its legal
actions (their source cell and what their effect removes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from workbench.games import get
from workbench.widget.board_controller import GameBoardController

ROOT = Path(__file__).resolve().parents[1] / "scenarios"


def _at(game: str, scenario: str | None, rules: str | None = None) -> GameBoardController:
    g = get(game)
    c = GameBoardController(g, g.spec.make(rules) if rules else None)
    if scenario:
        c.load_scenario_file(ROOT / scenario)
    return c


def _as_seat(c: GameBoardController, seat: int) -> Any:
    """The board's position with ``seat`` to move, made by the game's own editor hooks (not by ``attackers``). In big
    chess a seat's own locks and shadows expire when its turn starts (8.5, 9.3, 11): the form drops them first."""
    g = c.game
    form = g.edit_form(c.state)
    if c.game.name == "big-chess":
        pos = dict(form["position"])
        letter = c.info().players[seat]
        pos["locks"] = [lk for lk in pos.get("locks") or [] if not lk.startswith(letter)]
        pos["shadows"] = {k: v for k, v in (pos.get("shadows") or {}).items()
                          if not str(pos["pieces"].get(v, "")).startswith(letter)}
        form = {**form, "position": pos}
    return g.edit_state(g.edit_to_move(form, seat))


def _pole_attacks(st: Any) -> set[tuple[int, int]]:
    """An attack is an action whose effect carries odds; it removes (at best) the cells it names."""
    out = set()
    for a in st.legal_actions():
        eff = st.action_effects(a)
        if eff.get("odds"):
            src = st.action_cells(a)[0]
            out.update((src, t) for t in eff["removed"])
    return out


def _cursed_attacks(st: Any) -> set[tuple[int, int]]:
    """ATTACK ``d2xf2`` and MOVE_ATTACK ``e2-f1xf2``: the unit's hex (first click) and the target (last click)."""
    out = set()
    for a in st.legal_actions():
        if "x" in st.action_to_string(a):
            cells = st.action_cells(a)
            out.add((cells[0], cells[-1]))
    return out


def _big_chess_attacks(st: Any) -> set[tuple[int, int]]:
    """Strikes ``3,3x4,4`` and takes ``3,3*4,4`` name their target; an area take removes what its effect removes."""
    names = {n: i for i, n in enumerate(st.ctx.names)}
    out = set()
    for a in st.legal_actions():
        src = a.split("x")[0].split("*")[0].split("-")[0]
        if a.endswith("*area"):
            out.update((names[src], t) for t in st.action_effects(a)["removed"])
        elif "x" in a or "*" in a:
            out.add((names[src], names[a.replace("*", "x").split("x")[1].split("=")[0]]))
    return out


CASES = {
    "pole": (_pole_attacks, [("pole/catapult-dead-two.yaml", None), ("pole/zone-archer.yaml", None),
                             ("pole/zone-melee.yaml", None), ("pole/classic-start.yaml", None)]),
    "cursed-lands": (_cursed_attacks, [("cursed-lands/combat-ranged.yaml", None),
                                       ("cursed-lands/combat-counterattack.yaml", None),
                                       ("cursed-lands/combat-melee-hill.yaml", None), (None, None)]),
    "big-chess": (_big_chess_attacks, [("big-chess/bc-26-area-take.yaml", None),
                                       ("big-chess/bc-21-king-strike-wins.yaml", None),
                                       ("big-chess/bc-21d-elimination-four-players.yaml", None), (None, "start=deployed")]),
}


@pytest.mark.parametrize("game", sorted(CASES))
def test_attackers_are_every_seats_legal_attacks_in_several_positions_one_without_any(game: str) -> None:
    count, positions = CASES[game]
    seen_none = seen_some = False
    for scenario, rules in positions:
        c = _at(game, scenario, rules)
        st = c.state
        listed = st.attackers()
        assert len(listed) == len(set(listed)), (scenario, "an attack listed twice")
        seats = range(c.info().num_players)
        for seat in seats:
            mine = {(a, b) for a, b, s in listed if s == seat}
            assert mine == count(_as_seat(c, seat)), (scenario, c.label(seat))
        seen_none |= not listed
        seen_some |= bool(listed)
        # the view: per attacked cell, its attackers' cells and seats by name, exactly the game's list
        view = c.view()["attackers"]
        flat = sorted((c.ids[a], c.ids[b], c.info().labels.index(s)) for b, rows in view.items() for a, s in rows)
        assert flat == sorted(listed)
    assert seen_none and seen_some


def test_attack_lines_of_the_key_pieces_are_their_attackers() -> None:
    """Pole's Prince, The Cursed Lands' castle and big chess's King: the lines always drawn are exactly the attacks
    on those cells, and none where nothing attacks them."""
    c = _at("cursed-lands", "cursed-lands/combat-ranged.yaml")
    f2, e1 = c.ids["f2"], c.ids["e1"]
    assert c.state.attack_lines() == [(f2, e1, 1)]  # p2's unit on f2 reaches p1's castle
    assert c.view()["attack_lines"] == [["f2", "e1", "Player 2"]]
    c = _at("big-chess", "big-chess/bc-21-king-strike-wins.yaml")
    st = c.state
    kings = {cell for cell, pc in st.pieces.items() if st.ctx.is_king[pc.card]}
    lines = st.attack_lines()
    assert lines and {b for _a, b, _s in lines} <= kings
    assert lines == [x for x in st.attackers() if x[1] in kings]
    for game, scenario in (("pole", "pole/classic-start.yaml"), ("big-chess", None), ("cursed-lands", None)):
        assert _at(game, scenario, "start=deployed" if game == "big-chess" else None).state.attack_lines() == []
    c = _at("pole", "pole/catapult-dead-two.yaml")
    assert c.state.attack_lines() == []  # the catapult's targets are infantry, not the Prince
    assert all(b != c.state.prince_of(1 - s) for _a, b, s in c.state.attackers())


def test_terrafeud_attackers_hold_every_attack_move_and_the_threatened_feudal_lines() -> None:
    """TerraFeud's attackers come from its threat probe (moves, shots, markers, coordinated attacks): every legal
    move onto an enemy piece is among them, and so is every line drawn to a threatened feudal."""
    for scenario in ("terrafeud/rulebook/coordinated-attack-kills-feudal.yaml", "terrafeud/rulebook/classic-start.yaml"):
        c = _at("terrafeud", scenario)
        listed = {(a, b) for a, b, _s in c.state.attackers()}
        for seat in (0, 1):
            st = _as_seat(c, seat)
            onto = {tuple(st.action_cells(a)[:2]) for a in st.legal_actions() if st.target_kind(a) == "attack"}
            assert onto <= listed, (scenario, seat, onto - listed)
        assert {(a, b) for a, b, _s in c.state.attack_lines()} <= listed


def test_attackers_view_is_empty_while_editing_and_for_a_game_that_declares_none() -> None:
    c = _at("pole", "pole/catapult-dead-two.yaml")
    assert c.view()["attackers"]["e9"] == [["e5", "Red"]]
    assert c.hover_reason("e9").endswith("; e9 is attacked from e5 (Red)")  # an unlit cell's hover says them too
    c.start_editing()
    assert c.view()["attackers"] == {}
    assert _at("openspiel:tic_tac_toe", None).view()["attackers"] == {}
