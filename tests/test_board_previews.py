"""Hover previews of every action kind of every game (issue 30): what the board shows for an action before it is
played, read the way a designer reaches it (the action's cells clicked but the last, then the lit last cell's
preview and hover line, or, where several actions share the cells, the choice button's hint). Each kind says what
it does in a sentence from its game (the notation first), marks what it removes (odds where a roll decides, never
a certain removal), says when it ends the game, and plays nothing. Chance results and damage read as sentences in
the move list."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from workbench.games import get
from workbench.widget.board_controller import GameBoardController

ROOT = Path(__file__).resolve().parents[1] / "scenarios"


def shown(c: GameBoardController, text: str) -> dict[str, Any]:
    """What the board shows for the legal action ``text`` here, and that showing it played nothing."""
    st = c.state
    cells = list(st.action_cells(st.string_to_action(text)))
    before = (len(c.view()["moves"]), st.move_number())
    for cell in cells[:-1]:
        c.click(c.names[cell])
    v = c.view()
    last = c.names[cells[-1]] if cells else ""
    if last in v["previews"]:
        out = {**v["previews"][last], "via": "preview"}
        assert c.hover_reason(last) == out["text"]  # the hover line says the preview
    else:
        if last:
            c.click(last)  # several actions end on these cells: each is a choice button
        hints = [b for b in c.view()["buttons"] if b["text"] == text]
        assert len(hints) == 1, (text, c.message)
        out = {"text": hints[0]["hint"], "via": "button", "price": hints[0].get("price")}
    assert (len(c.view()["moves"]), c.state.move_number()) == before, f"{text}: showing it played it"
    c.cancel()
    return out


# game -> (scenario, action, the sentence shown, cells marked removed (odds: at risk), ends the game)
KINDS: dict[str, list[tuple[str, str, str, list[str], bool]]] = {
    "pole": [
        ("act-first-removed.yaml", "a1-a2", "a1-a2: Red's Prince on a1 moves to a2", [], False),  # move
        ("act-first-removed.yaml", "e5xe6", "e5xe6: 15/36 to remove the archer on e6", ["odds:e6"], False),  # attack
        ("act-first-removed.yaml", "pass", "pass: Red passes", [], False),
        ("act-first-removed-position.yaml", "b@d7", "barracks, price 3", [], False),  # a purchase: its card, price
        ("act-first-removed-position.yaml", "nobuy", "nobuy: Black buys nothing", [], False),
        ("attack-all.yaml", "c6x*",  # attack_all: one attack on every target in the zone
         "c6x*: 21/36 to remove the archer on e6; 15/36 to remove the infantryman on f6", [], False),
    ],
    "cursed-lands": [
        ("activation-extra-cost.yaml", "+A", "+A: p1 produces an archer on its flag f1 (section 9)", [], False),
        ("activation-extra-cost.yaml", "d3-b2", "d3-b2: the swordsman of p1 on d3 moves to b2", [], False),
        ("activation-extra-cost.yaml", "e3xe4", "e3xe4: the swordsman of p1 on e3 attacks the swordsman on e4; "
         "the swordsman on e4 takes 2 damage (3 -> 1 hp)", [], False),
        ("activation-extra-cost.yaml", "d3-d4xe4", "d3-d4xe4: the swordsman of p1 on d3 moves to d4 and attacks the "
         "swordsman on e4; the swordsman on e4 takes 2 damage (3 -> 1 hp)", [], False),  # a move then an attack
        ("activation-extra-cost.yaml", "end", "end: p1 ends its turn", [], False),
        ("combat-ranged.yaml", "d2xf2", "d2xf2: the artillery of p1 on d2 shoots at the swordsman on f2; the swordsman "
         "on f2 is destroyed", ["f2"], False),  # a ranged attack
        ("agent-view.yaml", "#a2=r", "#a2=r: p1 lays a road tile on a2 (section 7)", [], False),  # a tile placed
        ("combat-counter-kill.yaml", "e3xe4", "e3xe4: the swordsman of p1 on e3 attacks the swordsman on e4; the "
         "swordsman on e4 takes 2 damage (3 -> 1 hp); the swordsman on e3 is destroyed; ends the game (elimination)",
         ["e3"], True),  # the counterattack kills the attacker (C41)
    ],
    "big-chess": [
        ("bc-01-geometry-rock-blocks-leap.yaml", "3,5-1,4", "3,5-1,4: the knight of player a on 3,5 moves to 1,4", [],
         False),
        ("bc-09-push-and-altar.yaml", "1,5x1,4",
         "1,5x1,4: the berserk of player a on 1,5 strikes the infantry of player b on 1,4 (removed, 5.2)", [], False),
        ("bc-09-push-and-altar.yaml", "1,5>1,4",
         "1,5>1,4: the berserk of player a on 1,5 pushes the infantry of player b on 1,4 to 1,3 (5.4)", [], False),
        ("bc-34-card-override.yaml", "3,3*3,2", "3,3*3,2: the knight of player a on 3,3 takes the slave of player b on "
         "3,2 (removed; the taker stays, 5.3)", ["3,2"], False),
        ("bc-26-area-take.yaml", "3,3*area", "3,3*area: the omnigon of player a on 3,3 takes every enemy around it: "
         "the infantry of player c on 2,2, the knight of player d on 4,4", [], False),
        ("bc-26-area-take.yaml", "3,3x4,4",
         "3,3x4,4: the omnigon of player a on 3,3 strikes the knight of player d on 4,4 (removed, 5.2)", ["4,4"], False),
        ("bc-11-veterancy.yaml", "^3,5:0", "^3,5:0: the infantry of player a on 3,5 gains level 0 for 5 trophies (10)",
         [], False),
        ("bc-13-jester-blocks-enemies.yaml", "+infantry@3,5", "Infantry, price 10", [], False),  # a purchase's card
        ("bc-17-victim-transformation.yaml", "+berserk@5,1", "Berserk, price 10", [], False),  # a transformation's
        ("bc-18-prince-buy.yaml", "$2,4", "$2,4: player a's Prince buys the infantry of player b on 2,4 for 10 (10.3)",
         [], False),
        ("bc-20-promotion.yaml", "3,1-3,0=bishop",
         "3,1-3,0=bishop: the infantry of player a on 3,1 moves to 3,0, promoted to a bishop (10.4)", [], False),
        ("bc-22c-bare-kings-pass.yaml", "pass", "pass: player a passes", [], False),
        ("bc-23-setup-phase.yaml", "a:+berserk@0,4:E", "Berserk, price 20", [], False),  # a setup placement's card
        ("bc-21-king-strike-wins.yaml", "3,2x3,1", "3,2x3,1: the veteran of player a on 3,2 strikes the king of player "
         "b on 3,1 (removed, 5.2); player b is out; ends the game: player a wins", ["3,1", "5,1"], True),  # with the King,
        # its owner is out and its other pieces go (13)
    ],
    "terrafeud": [
        ("rulebook/archer-hill-range.yaml", "d2*b1", "d2*b1: the white archer on d2 shoots at b1 (W8); marks b1 (a mine)",
         [], False),
        ("rulebook/aura-move-stops-on-ford.yaml", "d3<>d4", "d3<>d4: white castles (d3 and d4)", [], False),
        ("rulebook/castle-capture.yaml", "f10-g10=A",
         "f10-g10=A: the white infantryman on f10 moves to g10, promoted to an archer", [], False),
        ("rulebook/castling-once.yaml", "order e1-e2 f2-f3", "order e1-e2 f2-f3: white gives an Order (W12): e1-e2, f2-f3",
         [], False),
        ("rulebook/pass-when-nothing-is-legal.yaml", "pass", "pass: white passes; white infantryman on h4 dies (ultimatum)",
         [], False),
        ("rulebook/coordinated-attack-kills-feudal.yaml", "e3-e4", "e3-e4: the white infantryman on e3 moves to e4; "
         "white infantryman on c3 dies (coordinated attack); black feudal on d4 dies (coordinated attack); white wins "
         "(destroyed)", ["c3", "d4"], True),
    ],
}


@pytest.mark.parametrize("game", sorted(KINDS))
def test_every_action_kind_previews_what_it_does_marks_what_it_removes_and_plays_nothing(game: str) -> None:
    g = get(game)
    folder = "big-chess" if game == "big-chess" else game
    for scenario, text, words, removed, ends in KINDS[game]:
        c = GameBoardController(g)
        c.load_scenario_file(ROOT / folder / scenario)
        out = shown(c, text)
        assert out["text"] == words, (scenario, text, out)
        if out["via"] == "preview":
            odds = [f"odds:{k}" for k in out["odds"]]
            assert sorted(out["removed"] + odds) == sorted(removed), (text, out)
            assert out["at_risk"] == list(out["odds"])  # a roll decides: at risk, never struck as certain
            assert out["ends"] is ends, (text, out)
        else:
            assert not removed and not ends
        if out["text"].endswith(("price 3", "price 10", "price 20")):  # a card: its price is the action's own
            assert out["price"] == int(out["text"].rsplit(" ", 1)[1])


def test_pole_roll_results_say_what_they_did_and_the_prince_hit_ends_the_game_in_the_move_list() -> None:
    """The roll of an attack on the Prince: each result says hit or miss and what is destroyed; the hit ends the
    game (``ends``) and the move list reads it, with the result, as sentences."""
    c = GameBoardController(get("pole"), auto_roll=False)
    c.load_scenario_file(ROOT / "pole" / "victory-prince.yaml")
    c.play_text("h6xh9")
    st = c.state
    assert st.is_chance_node()
    said = {st.action_to_string(o): st.action_effects(o) for o, _p in st.chance_outcomes()}
    assert said["6:2"]["text"] == "6:2, hit: the Prince on h9 is destroyed; Red wins" and said["6:2"]["ends"]
    assert said["6:3"]["text"] == "6:3, miss: nothing is destroyed" and not said["6:3"]["ends"]
    assert sum(1 for e in said.values() if e["outcome"] == "hit") == 3  # the scenario's 3/36
    c.play_text("6:2")
    row = c.view()["moves"][-1]
    assert row["chance"] and row["words"] == "6:2, hit: the Prince on h9 is destroyed; Red wins", row
    assert row["result"] and "Red" in row["result"]


def test_a_text_only_game_previews_its_buttons_by_their_notation() -> None:
    """A game without cells (tic-tac-toe) declares no effects: its buttons carry the action's own words, no hint
    made up by the board."""
    c = GameBoardController(get("openspiel:tic_tac_toe"))
    buttons = c.view()["buttons"]
    assert buttons and all(b["hint"] == "" and b["text"] for b in buttons)
    assert c.view()["previews"] == {}


def test_a_generic_chance_games_rolls_say_what_followed_in_the_move_list() -> None:
    """An OpenSpiel game's chance outcome has no sentence of its game (``Roll 1`` in pig): the move list says what
    followed it, the seat to move (pig's 1 passes the turn, another roll keeps it) or the end of the game."""
    c = GameBoardController(get("openspiel:pig"), seed=1)
    rolls = []
    for _ in range(12):
        if c.state.is_terminal():
            break
        roller = c.view()["to_move"]
        c.choose(next(b["index"] for b in c.view()["buttons"] if b["text"] == "roll"))
        row = c.view()["moves"][-1]
        assert row["chance"] and row["words"] == f"{row['text']}: {c.view()['to_move']} to move", row
        rolls.append((row["text"], roller, c.view()["to_move"]))
    assert any(t == "Roll 1" and a != b for t, a, b in rolls)  # a 1 passes the turn, as the words say
    assert any(t != "Roll 1" and a == b for t, a, b in rolls)


def test_setup_actions_preview_their_placements_removals_and_camps() -> None:
    """The setup phases: big chess's removal and relocation of a placed piece (13), The Cursed Lands' camp (C44)."""
    c = GameBoardController(get("big-chess"))
    c.load_scenario_file(ROOT / "big-chess" / "bc-23-setup-phase.yaml")
    c.play_text("a:+berserk@0,4:E")
    assert shown(c, "a:-0,4")["text"] == "a:-0,4: player a takes its berserk on 0,4 off the board"
    assert shown(c, "a:0,4-1,4")["text"] == "a:0,4-1,4: player a moves its berserk on 0,4 to 1,4"
    # (the camp is asked of the state: the board lists The Cursed Lands' 483,840 camps as buttons, 11 s a view)
    g = get("cursed-lands")
    st = g.scenario_state(g.scenario(yaml.safe_load((ROOT / "cursed-lands" / "setup-phase.yaml").read_text()), "setup-phase.yaml"))
    first = st.legal_actions()[0]
    text = st.action_to_string(first)
    assert st.action_effects(first)["text"] == f"{text}: p1 sets up its camp (section 2); ends the turn"


def test_damage_is_marked_on_hover_and_after_the_move() -> None:
    """The Cursed Lands' attack that leaves its target alive: its preview carries the hit points lost (the page writes
    ``−2`` over the piece), and after the move the last move's marks keep them beside its deaths."""
    c = GameBoardController(get("cursed-lands"))
    c.load_scenario_file(ROOT / "cursed-lands" / "activation-extra-cost.yaml")
    c.click("e3")
    p = c.view()["previews"]["e4"]
    assert p["damage"] == {"e4": 2} and p["removed"] == []
    c.click("e4")
    last = c.view()["last"]
    assert last["damaged"] == {"e4": 2} and last["removed"] == [] and last["cells"] == ["e3", "e4"]
    row = c.view()["moves"][-1]
    assert row["words"] == "the swordsman of p1 on e3 attacks the swordsman on e4; the swordsman on e4 takes 2 damage (3 -> 1 hp)"
    c.load_scenario_file(ROOT / "cursed-lands" / "combat-counter-kill.yaml")
    c.play_text("e3xe4")  # the attacker dies to the counterattack: a death, and the target's damage
    last = c.view()["last"]
    assert last["removed"] == ["e3"] and last["damaged"] == {"e4": 2}
