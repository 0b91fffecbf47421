"""The general board's defects of issue 30, each checked on the controller and widget without a browser:
big chess scenarios on their own board and seats, stale and wrongly coloured messages, the game's own
notation in the page's boxes (only rules declared as paths refused), seat colours from the one palette,
and Pole's dice said as hit or miss with odds that do not claim the result."""

from __future__ import annotations

import random

import pytest

import workbench.games as games
from workbench.core import palette
from workbench.widget.board_controller import GameBoardController
from workbench.widget.common import WidgetError


def test_a_small_big_chess_scenario_is_drawn_on_its_own_board() -> None:
    c = GameBoardController(games.get("big-chess"))
    assert len(c.geometry()["cells"]) == 144  # the default 12x12 board
    c.pick_scenario("bc-01-geometry-rock-blocks-leap.yaml")  # a 7x7 position
    geo = c.geometry()
    assert len(geo["cells"]) == 49 and {cell["name"] for cell in geo["cells"]} >= {"3,5", "6,6"}
    assert "6,7" not in {cell["name"] for cell in geo["cells"]}
    knight = [g for g in c.view()["glyphs"] if g["piece"] and g["cell"] == "3,5"]
    assert knight and knight[0]["owner"] == 0
    c.click("3,5")  # the scenario's knight is clickable on its cell and lights its leaps
    assert set(c.view()["lit"]) == {"1,4", "5,4", "1,6", "5,6"}


def test_a_four_player_scenario_seats_four() -> None:
    c = GameBoardController(games.get("big-chess"))
    c.pick_scenario("bc-21d-elimination-four-players.yaml")
    assert c.info().num_players == 4
    geo = c.geometry()
    assert geo["players"] == ["player a", "player b", "player c", "player d"] and len(set(geo["colours"])) == 4
    assert len(geo["cells"]) == 64
    assert c.view()["to_move"] == "player b"


def test_messages_do_not_outlive_later_actions() -> None:
    c = GameBoardController(games.get("pole"), seed=3)
    c.choose(0) if not c.view()["lit"] else c.play_text(c.state.action_to_string(c.state.legal_actions()[0]))
    c.undo()
    assert c.message.startswith("undone")
    c.redo()
    assert "undone" not in c.message and c.message.startswith("redone")
    c.goto(c.tree.root.id)
    assert "redone" not in c.message and "start" in c.message


def test_a_failed_compare_clears_the_previous_diff() -> None:
    c = GameBoardController(games.get("pole"), seed=3)
    c.compare("purchases_per_turn=2")
    assert c.view()["diff"] is not None
    with pytest.raises(WidgetError):
        c.compare("no_such_rule=1")
    assert c.view()["diff"] is None


def test_new_game_is_not_drawn_in_error_red() -> None:
    from workbench.widget.board import GameBoard

    b = GameBoard("pole", seed=1)
    b.click("zz")  # an error first
    assert b.view["level"] == "error"
    b.new_game()
    assert b.view["message"].startswith("new game") and b.view["level"] == "info"


@pytest.mark.parametrize(("game", "rules", "seen"), [
    ("cursed-lands", "factions=orcs/dwarves", "orcs"),
    ("big-chess", "board=classic-4,teams=ac/bd", "teams=ac"),
])
def test_the_page_takes_the_game_s_own_notation(game: str, rules: str, seen: str) -> None:
    from workbench.widget.board import GameBoard

    b = GameBoard(game, seed=1)
    b._on_msg(b, {"type": "new_game", "rules": rules, "seed": ""}, [])
    assert b.view["level"] == "info" and b.view["message"].startswith("new game"), b.view["message"]
    assert seen in b.view["rules"]
    b._on_msg(b, {"type": "compare", "change": rules}, [])
    assert "cannot name a file" not in b.view["message"]


def test_only_rules_declared_as_paths_are_refused_from_the_page() -> None:
    from workbench.widget.board import GameBoard

    b = GameBoard("pole", seed=1)
    assert b.controller.game.spec["start"].kind == "path"
    b._on_msg(b, {"type": "new_game", "rules": "start=my-position.yaml", "seed": ""}, [])
    assert b.view["level"] == "error" and "can name a file" in b.view["message"]
    b._on_msg(b, {"type": "new_game", "rules": "purchases_per_turn=2", "seed": ""}, [])
    assert b.view["level"] == "info"


def test_seat_colours_come_from_one_palette_and_red_is_red() -> None:
    from workbench.viz.generic import board_svg

    g = games.get("pole")
    c = GameBoardController(g, seed=1)
    colours = c.geometry()["colours"]
    assert colours[0] == palette.NAMED["red"] != "#f4f1e8"
    svg = board_svg(g, c.state)
    assert palette.NAMED["red"] in svg
    assert len(set(palette.seat_colours(25))) == 25
    from workbench.balance.palette import seat_colour

    assert seat_colour(0, ("Red", "Black")) == colours[0]


def test_pole_dice_say_hit_or_miss_and_odds_do_not_strike_the_target() -> None:
    g = games.get("pole")
    c = GameBoardController(g, seed=5)
    rng = random.Random(2)
    said = []
    for _ in range(600):
        st = c.state
        if st.is_terminal():
            break
        attacks = [a for a in st.legal_actions() if "x" in st.action_to_string(a) and "*" not in st.action_to_string(a)]
        if attacks:
            cells = st.action_cells(attacks[0])
            c.click(c.names[cells[0]])
            p = c.view()["previews"][c.names[cells[-1]]]
            assert p["odds"] and p["removed"] == [] and p["at_risk"] == [c.names[cells[-1]]]
            for cell in cells[1:]:
                c.click(c.names[cell])
            said.append(c.message)
            row = c.view()["moves"][-1]
            assert row["chance"] and (", hit: " in row["words"] or ", miss" in row["words"]), row
        else:
            c.play_text(st.action_to_string(rng.choice(st.legal_actions())))
        if len(said) >= 3:
            break
    assert said and all(", hit: " in m or ", miss" in m for m in said), said


def test_a_cursed_lands_attack_says_its_damage_in_the_move_list() -> None:
    c = GameBoardController(games.get("cursed-lands"))
    c.pick_scenario("combat-counter-kill.yaml")
    c.play_text("e3xe4")
    row = c.view()["moves"][-1]
    assert "takes 2 damage (3 -> 1 hp)" in row["words"] and "is destroyed" in row["words"]
    assert row["result"] == "Player 2 won (elimination)"


def test_fortress_rounding_changes_odds_evaluation_and_best_move_in_the_rule_diff() -> None:
    """Pole's ``fortress_rounding`` in the board's outcome diff, at the contract's scenario where it matters
    (odd damage on fortress pieces, P15/P48): under ``down`` the infantryman's 1 rounds to 0 and the Prince's 3
    to 1 (the scenario's own 0/36 and 1/36); under ``exact`` they are 1/36 and 3/36, and the diff says so."""
    from pathlib import Path

    c = GameBoardController(games.get("pole"))
    c.load_scenario_file(Path(__file__).resolve().parent.parent / "scenarios" / "pole" / "fortress-halving-down.yaml")
    assert c.rules.to_dict()["fortress_rounding"] == "down"
    diff = c.compare("fortress_rounding=exact")
    rows = {o["what"]: o for o in diff["outcomes"]}
    assert rows["d8xe9"]["now"].startswith("d8xe9: 0/36") and rows["d8xe9"]["then"].startswith("d8xe9: 1/36")
    assert rows["e6xe9"]["now"].startswith("e6xe9: 1/36") and rows["e6xe9"]["then"].startswith("e6xe9: 3/36")
    assert not rows["d8xe9"]["same"] and not rows["e6xe9"]["same"]
    assert rows["e5xe9"]["same"] and rows["e5xe9"]["now"].startswith("e5xe9: 3/36")  # an even hit: no rounding
    assert not rows["evaluation of Red (coins)"]["same"]  # the evaluation counts the fortress's odds too
    assert diff["n_added"] == diff["n_removed"] == 0  # the same actions: only what they do differs
    best = next(o for what, o in rows.items() if what.startswith("best move"))
    assert (best["now"], best["then"]) == ("f9xe9", "e6xe9")  # the Prince's 3/36 under exact outbids the archer
    differ = sum(1 for o in diff["outcomes"] if not o["same"])
    assert differ >= 5 and f"{differ} of {len(diff['outcomes'])} outcomes differ" in c.message, c.message
