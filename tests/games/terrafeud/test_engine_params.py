"""Rule parameters (issue 11): each one at a non-default value changes what is legal, exactly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from enginehelp import dest, piece, pos, texts

from workbench.games.terrafeud.engine import RulesConfig, RulesError, make_game, new_game, parse_hex, state_to_dict
from workbench.games.terrafeud.engine.rules import PARAMETERS, rules_table
from workbench.games.terrafeud.scenarios import dump_scenario
from workbench.scenarios import load_scenario_text

ROOT = Path(__file__).resolve().parents[3]


# ----------------------------------------------------------------------------- parsing and validation
def test_defaults_are_the_rulebook():
    r = RulesConfig()
    assert (r.archer_range, r.hill_bonus, r.aura_radius, r.aura_step, r.aura_memory) == (2, 1, 2, 2, True)
    assert (r.coordinated, r.order_size, r.order_radius, r.castling_uses) == (2, 2, 2, 1)
    assert r.promotion and r.knight_bridge_stop and r.start is None
    assert r.bridges == ("b4", "f6", "k4") and r.fords == ("d5", "h5")
    assert r.non_default() == {} and r.label() == "default"


def test_parse_from_strings_and_dicts():
    r = RulesConfig.parse("archer_range=3 aura_memory=false bridges=k4,b4 fords=d5/h5/f6 castling_uses=0")
    assert r.archer_range == 3 and r.aura_memory is False and r.castling_uses == 0
    assert r.bridges == ("b4", "k4") and r.fords == ("d5", "f6", "h5")  # board order
    assert r.non_default() == {
        "archer_range": 3, "aura_memory": False, "castling_uses": 0, "bridges": "b4,k4", "fords": "d5,f6,h5",
    }
    # the label is key=value text that parses back to the same rules
    assert RulesConfig.parse(r.label()) == r
    d = RulesConfig.from_dict({"bridges": "b4,f6,k4", "fords": ["h5", "d5"], "order_size": "3"})
    assert d.bridges == ("b4", "f6", "k4") and d.fords == ("d5", "h5") and d.order_size == 3
    assert RulesConfig.from_dict(r.to_dict()) == r
    assert RulesConfig.parse("bridges=none").bridges == ()


@pytest.mark.parametrize(
    "text,words",
    [
        ("archer_range=0", "parameter archer_range=0 is out of range; allowed: whole numbers 2..10"),
        ("archer_range=1", "archer_range=1 is out of range"),
        ("archer_range=abc", "archer_range='abc' is not a whole number; allowed: whole numbers 2..10"),
        ("archer_range=2.5", "not a whole number"),
        ("hill_bonus=-1", "hill_bonus=-1 is out of range; allowed: whole numbers 0..8"),
        ("aura_radius=11", "aura_radius=11 is out of range"),
        ("aura_step=0", "aura_step=0 is out of range; allowed: whole numbers 1..10"),
        ("coordinated=7", "coordinated=7 is out of range; allowed: whole numbers 1..6"),
        ("order_size=4", "order_size=4 is out of range; allowed: whole numbers 0..3"),
        ("order_radius=0", "order_radius=0 is out of range"),
        ("castling_uses=99999999999999999999", "castling_uses='99999999999999999999' is not a whole number"),
        ("promotion=perhaps", "parameter promotion='perhaps' must be true or false"),
        ("bridges=b3", "parameter bridges: b3 is not on the river; a crossing must be one of"),
        ("fords=d5,d5", "parameter fords: d5 is listed twice"),
        ("fords=j4", "parameter fords: unknown hex 'j4'"),
        ("fords=d5,f6,h5", "parameters bridges and fords: f6 is both a bridge and a ford"),
        ("bridges=e5,e6", "parameter bridges: e5 and e6 are adjacent"),
        ("draw_after=99999999999999999999", "draw_after='99999999999999999999' is not a whole number"),
        ("draw_after=2000000", "draw_after=2000000 must be none or a number of plies 1..1000000"),
        ("archer_rang=3", "unknown rule 'archer_rang'"),
    ],
)
def test_bad_values_name_the_parameter_and_range(text, words):
    with pytest.raises(RulesError) as info:
        RulesConfig.parse(text)
    assert words in str(info.value)


def test_adjacent_bridges_are_fine_without_the_knight_bridge_stop():
    assert RulesConfig.parse("bridges=e5,e6 knight_bridge_stop=false").bridges == ("e5", "e6")


def test_start_validation_and_a_file_that_does_not_load(tmp_path):
    with pytest.raises(RulesError, match="parameter start must be the path"):
        RulesConfig(start=5)  # type: ignore[arg-type]
    missing = tmp_path / "missing.yaml"
    with pytest.raises(RulesError, match=rf"parameter start={re.escape(str(missing))}: the start file does not load"):
        make_game(f"start={missing}")
    with pytest.raises(RulesError, match="the start file does not load: not a regular file"):
        make_game(f"start={tmp_path}")
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\ntitle: t\nposition: {pieces: {f1: F}}\n", encoding="utf-8")
    with pytest.raises(RulesError, match="the start file does not load: .*exactly one black feudal"):
        make_game(f"start={bad}")
    good = tmp_path / "good.yaml"
    good.write_text("id: good\ntitle: t\n", encoding="utf-8")
    nested = tmp_path / "nested.yaml"
    nested.write_text(f"id: nested\ntitle: t\nrules: {{start: {good}}}\n", encoding="utf-8")
    with pytest.raises(RulesError, match="may not itself name start="):
        make_game(f"start={nested}")


# ----------------------------------------------------------------------------- the rules table
def test_rules_command_and_docs_list_the_same_table(capsys):
    from workbench.__main__ import main

    assert main(["rules", "--markdown"]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed == rules_table(markdown=True)
    docs = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    block = docs.split("<!-- rules-table:start -->")[1].split("<!-- rules-table:end -->")[0].strip()
    assert block == printed
    # every field of RulesConfig has exactly one row
    assert [p.name for p in PARAMETERS] == RulesConfig.names()
    assert main(["rules"]) == 0
    assert "archer_range" in capsys.readouterr().out


# ----------------------------------------------------------------------------- each parameter changes play
def test_archer_range_three():
    st = pos({"f1": "F", "f11": "f", "d2": "A"})
    assert "d2*d5" not in texts(st) and "d2*d4" in texts(st)
    st3 = pos({"f1": "F", "f11": "f", "d2": "A"}, rules={"archer_range": 3})
    assert "d2*d5" in texts(st3) and "d2*d4" not in texts(st3)
    with pytest.raises(Exception, match="an archer shoots exactly 3"):
        st3.play("d2*d4")


def test_hill_bonus():
    hills = {"hill": True, "hills": {"white": "h4", "black": "c6"}}
    base = pos({"f1": "F", "f11": "f", "h4": "A"}, rules=hills)
    assert {"h4*h6", "h4*h7"} <= texts(base) and "h4*h8" not in texts(base)
    two = pos({"f1": "F", "f11": "f", "h4": "A"}, rules={**hills, "hill_bonus": 2})
    assert {"h4*h6", "h4*h7", "h4*h8"} <= texts(two)
    zero = pos({"f1": "F", "f11": "f", "h4": "A"}, rules={**hills, "hill_bonus": 0})
    assert "h4*h6" in texts(zero) and "h4*h7" not in texts(zero)


def test_aura_radius():
    # from the feudal on f1: f2 is at distance 1, e2 at 2, e3 at 3
    pieces = {"f1": "F", "f11": "f", "f2": "I", "e2": "I", "e3": "I"}
    extra = {"aura_ready": ["f2", "e2", "e3"]}
    base = pos(pieces, **extra)
    assert "f4" in dest(base, "f2") and "c2" in dest(base, "e2") and "c3" not in dest(base, "e3")
    one = pos(pieces, rules={"aura_radius": 1}, **extra)
    assert "f4" in dest(one, "f2") and "c2" not in dest(one, "e2")
    three = pos(pieces, rules={"aura_radius": 3}, **extra)
    assert "c3" in dest(three, "e3")
    # aura_ready follows the radius: after a White move, e3 is ready only with aura_radius=3
    three.play("f2-f3")
    assert "e3" in state_to_dict(three)["aura_ready"]
    base.play("f2-f3")
    assert state_to_dict(base)["aura_ready"] == ["e2", "f3"]
    none = pos(pieces, rules={"aura_radius": 0}, **extra)
    assert dest(none, "f2") == {"e1", "f3", "g1", "g2"}


def test_aura_step_three_and_a_stop_on_the_way():
    st = pos({"f1": "F", "f11": "f", "f2": "I"}, aura_ready=["f2"])
    assert dest(st, "f2") == {"d2", "e1", "e2", "f3", "f4", "g1", "g2", "h2"}
    st3 = pos({"f1": "F", "f11": "f", "f2": "I"}, rules={"aura_step": 3}, aura_ready=["f2"])
    assert dest(st3, "f2") == {"c2", "d2", "e1", "e2", "f3", "f4", "f5", "g1", "g2", "h2", "i2"}
    # an enemy pikeman on the bridge f6 has f4 in its zone: the three-hex move ends there
    zone = pos({"f1": "F", "f11": "f", "f2": "I", "f6": "p"}, rules={"aura_step": 3}, aura_ready=["f2"])
    assert "f4" in dest(zone, "f2") and "f5" not in dest(zone, "f2")
    one = pos({"f1": "F", "f11": "f", "f2": "I"}, rules={"aura_step": 1}, aura_ready=["f2"])
    assert dest(one, "f2") == {"e1", "e2", "f3", "g1", "g2"}


def test_aura_memory_off():
    st = pos({"f1": "F", "f11": "f", "f2": "I"})  # f2 is not in aura_ready
    assert "f4" not in dest(st, "f2")
    off = pos({"f1": "F", "f11": "f", "f2": "I"}, rules={"aura_memory": False})
    assert "f4" in dest(off, "f2")


def test_coordinated():
    pieces = {"f1": "F", "f11": "f", "e5": "k", "d4": "I", "e3": "I"}
    st = pos(pieces)
    st.play("e3-e4")  # e4 and d4 are both next to the knight on e5
    assert piece(st, "e5") is None and piece(st, "d4") is None  # the first in board order dies with it
    three = pos(pieces, rules={"coordinated": 3})
    three.play("e3-e4")
    assert piece(three, "e5") == "k" and piece(three, "d4") == "I"
    one = pos({"f1": "F", "f11": "f", "e5": "k", "e3": "I"}, rules={"coordinated": 1})
    one.play("e3-e4")
    assert piece(one, "e5") is None and piece(one, "e4") is None


def test_order_size_and_radius():
    pieces = {"f1": "F", "f11": "f", "e2": "I", "g2": "I", "f3": "I", "h2": "I"}
    two = texts(pos(pieces))
    assert "order e2-e3 g2-g3" in two and not any(t.count("-") + t.count("x") == 3 for t in two if t.startswith("order"))
    three = texts(pos(pieces, rules={"order_size": 3}))
    assert "order e2-e3 g2-g3 f3-f4" in three and "order e2-e3 g2-g3" not in three
    one = texts(pos(pieces, rules={"order_size": 1}))
    assert "order e2-e3" in one and "order e2-e3 g2-g3" not in one
    assert not any(t.startswith("order") for t in texts(pos(pieces, rules={"order_size": 0})))
    # h2 is at distance 3 from f1: commanded only with order_radius=3
    assert not any("h2-" in t for t in two if t.startswith("order"))
    wide = texts(pos(pieces, rules={"order_radius": 3}))
    assert "order h2-h3 e2-e3" in wide
    st = pos(pieces, rules={"order_size": 3})
    st.play("order e2-e3 g2-g3 f3-f4")
    assert (piece(st, "e3"), piece(st, "g3"), piece(st, "f4")) == ("I", "I", "I")
    assert st.fired == (("order", 0, -1),)


def test_castling_uses():
    pieces = {"f1": "F", "f11": "f", "f2": "I", "e1": "I"}
    st = pos(pieces)
    st.play("f1<>f2", "f11-f10")
    assert not any("<>" in t for t in texts(st))
    twice = pos(pieces, rules={"castling_uses": 2})
    twice.play("f1<>f2", "f11-f10")
    assert "f2<>f1" in texts(twice)
    assert state_to_dict(twice)["castled"] == ["white"]
    twice.play("f2<>f1", "f10-f11")
    assert state_to_dict(twice)["castled"] == ["white", "white"]
    assert not any("<>" in t for t in texts(twice))
    never = pos(pieces, rules={"castling_uses": 0})
    assert not any("<>" in t for t in texts(never))
    with pytest.raises(Exception, match="castling is switched off"):
        never.play("f1<>f2")


def test_promotion_off():
    pieces = {"f1": "F", "a6": "f", "e9": "I"}
    on = pos(pieces, destroyed={"white": ["C", "A"]})
    assert {"e9-e10=A", "e9-e10=C"} <= texts(on) and "e9-e10" not in texts(on)
    off = pos(pieces, rules={"promotion": False}, destroyed={"white": ["C", "A"]})
    assert "e9-e10" in texts(off) and not any("=" in t for t in texts(off))
    off.play("e9-e10")
    assert piece(off, "e10") == "I"


def test_knight_bridge_stop_off():
    st = pos({"f1": "F", "f11": "f", "f3": "K"})
    assert "f6" not in dest(st, "f3") and "f7" in dest(st, "f3")
    off = pos({"f1": "F", "f11": "f", "f3": "K"}, rules={"knight_bridge_stop": False})
    assert {"f6", "f7", "f8"} <= dest(off, "f3")
    # an enemy on the bridge is attacked normally, not killed in passing
    enemy = pos({"f1": "F", "f11": "f", "f3": "K", "f6": "i"}, rules={"knight_bridge_stop": False})
    assert "f7" not in dest(enemy, "f3") and "f6" in dest(enemy, "f3")
    default = pos({"f1": "F", "f11": "f", "f3": "K", "f6": "i"})
    assert "f7" in dest(default, "f3") and "f6" not in dest(default, "f3")


def test_the_centre_bridge_as_a_ford():
    rules = {"bridges": "b4,k4", "fords": "d5,f6,h5", "aura_step": 3}
    knight = pos({"f1": "F", "f11": "f", "f3": "K"}, rules=rules)
    assert {"f4", "f5"} <= dest(knight, "f3") and not {"f6", "f7"} & dest(knight, "f3")
    default_knight = pos({"f1": "F", "f11": "f", "f3": "K"}, rules={"aura_step": 3})
    assert "f7" in dest(default_knight, "f3")
    # an aura move of up to 3 hexes from f4 crosses the bridge but stops on the ford
    bridge = pos({"f2": "F", "f11": "f", "f4": "I"}, rules={"aura_step": 3}, aura_ready=["f4"])
    assert {"f6", "f7"} <= dest(bridge, "f4")
    ford = pos({"f2": "F", "f11": "f", "f4": "I"}, rules=rules, aura_ready=["f4"])
    assert "f6" in dest(ford, "f4") and "f7" not in dest(ford, "f4")
    # the text board and the SVG draw the actual crossings
    assert str(ford).splitlines()[10] == "10   =   :   :   :   ="
    ford.play("f4-f6")
    f6 = parse_hex("f6")
    assert ford.fired == (("aura_move", 0, f6), ("ford_stop", 0, f6))
    from workbench.games.terrafeud.viz.svg import board_svg

    svg = board_svg(ford)
    assert 'class="hex ford" data-hex="f6"' in svg and 'class="hex river" data-hex="e5"' in svg


def test_board_pictures_follow_custom_bridges():
    st = new_game("bridges=c4,k4,hill=false,swamp=false")
    rows = str(st).splitlines()
    assert rows[10] == "10   ~   :   ~   :   =" and rows[11] == " 9 ~   =   ~   ~   ~   ~"
    from workbench.games.terrafeud.viz.svg import board_svg

    svg = board_svg(st)
    assert 'class="hex bridge" data-hex="c4"' in svg and 'class="hex river" data-hex="f6"' in svg
    assert 'class="hex bridge" data-hex="f6"' not in svg


# ----------------------------------------------------------------------------- start= and round trips
def test_start_game_begins_at_the_file_position(tmp_path):
    f = tmp_path / "duel.yaml"
    f.write_text(
        "id: knight-duel\ntitle: a duel\nrules: {hill: false, swamp: false, archer_range: 3}\n"
        "position:\n  to_move: black\n  pieces: {a1: F, l6: f, f3: K, f9: k}\n",
        encoding="utf-8",
    )
    game = make_game(f"start={f},season=winter", seed=7)
    st = game.new_initial_state()
    assert st.to_move == 1 and game.rules.archer_range == 3 and game.rules.season == "winter"
    assert game.rules.start == str(f) and game.start_id == "knight-duel" and len(game.start_hash) == 12
    first = texts(st)
    assert first and all(t.startswith(("l6", "f9")) for t in first)
    assert "f9-f7" in first  # winter: the f-file knight slides onto the bridge's far side
    # the same file always gives the same id and hash; another position another hash
    assert make_game(f"start={f}").start_hash == game.start_hash
    f.write_text(f.read_text().replace("f3: K", "f2: K"), encoding="utf-8")
    assert make_game(f"start={f}").start_hash != game.start_hash
    # new_game too, and the state's rules name the start so records carry it
    st2 = new_game(f"start={f}")
    assert state_to_dict(st2)["rules"]["start"] == str(f)


def test_start_file_without_position_is_the_classic_setup_under_its_rules(tmp_path):
    f = tmp_path / "winter.yaml"
    f.write_text("id: winter-classic\ntitle: t\nrules: {season: winter, castling_uses: 0}\n", encoding="utf-8")
    st = new_game(f"start={f}")
    assert st.rules.season == "winter" and len(st.legal_actions()) == len(new_game("season=winter").legal_actions())


@pytest.mark.parametrize(
    "rules",
    [
        "archer_range=3,hill_bonus=2,aura_radius=3,aura_step=3,aura_memory=false",
        "coordinated=3,order_size=3,order_radius=3,castling_uses=2,promotion=false",
        "knight_bridge_stop=false,bridges=b4/e5/e6,fords=d5/h5/k4,season=summer",
    ],
)
def test_scenario_round_trip_with_parameters(rules):
    st = new_game(rules, seed=3)
    import random

    rng = random.Random(5)
    for _ in range(30):
        if st.is_terminal():
            break
        st.apply(rng.choice(st.legal_actions()))
    text = dump_scenario(st, "round-trip", "round trip")
    back = load_scenario_text(text).initial_state()
    # a rolled game is written with the hexes it drew, so only terrain's way of saying it differs
    assert back.rules.replace(hills=None, swamps=None, terrain="rolled") == st.rules.replace(
        hills=None, swamps=None, terrain="rolled")
    assert back.game.terrain == st.game.terrain
    assert back.key() == st.key()
    assert back.legal_actions() == st.legal_actions()


def test_a_game_built_directly_resolves_its_start_when_asked_for_the_initial_state(tmp_path):
    from workbench.games.terrafeud.engine import Game

    f = tmp_path / "w.yaml"
    f.write_text("id: w\ntitle: t\nrules: {season: winter, hill: false, swamp: false}\n"
                 "position: {pieces: {f1: F, f11: f, c4: C}}\n", encoding="utf-8")
    game = Game(rules=RulesConfig(start=str(f)), seed=2)  # no file is read here
    assert game.start is None and game.rules.season == "summer"
    st = game.new_initial_state()
    assert st.rules.season == "winter" and st.game.start_id == "w" and piece(st, "c4") == "C"


def test_matplotlib_draws_the_actual_crossings():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.colors import to_hex

    from workbench.games.terrafeud.viz.mpl import draw_board
    from workbench.games.terrafeud.viz.scene import COLOURS, Poly, board_scene

    st = new_game("bridges=c4,k4,fords=d5,f6,h5,hill=false,swamp=false")
    scene = board_scene(st)
    fills = {p.attrs["data-hex"]: p.fill for p in scene.shapes if isinstance(p, Poly) and "data-hex" in p.attrs}
    assert fills["c4"] == COLOURS["bridge"] and fills["f6"] == COLOURS["ford"] and fills["b4"] == COLOURS["river"]
    ax = draw_board(st)
    terrain = ax.collections[0]  # the hex polygons, in board order
    colours = [to_hex(c) for c in terrain.get_facecolors()]
    assert colours[parse_hex("c4")] == COLOURS["bridge"] and colours[parse_hex("f6")] == COLOURS["ford"]


def test_perft_command_reports_a_bad_parameter_in_one_line(capsys):
    from workbench.__main__ import main

    with pytest.raises(SystemExit) as info:
        main(["perft", "--depth", "1", "--rules", "archer_range=0"])
    assert info.value.code == 2
    assert "--rules: parameter archer_range=0 is out of range" in capsys.readouterr().err
    assert main(["perft", "--depth", "1", "--rules", "start=scenarios/terrafeud/rulebook/order.yaml"]) == 0
    assert capsys.readouterr().out.split()[-2:] == ["1", "82"]  # the start file's position, not the classic 53


@pytest.mark.parametrize(
    "rules,line,words",
    [
        ("{archer_range: 0}", 3, "parameter archer_range=0 is out of range"),
        ("{bridges: b3}", 3, "parameter bridges: b3 is not on the river"),
        ("\n  bridges: b4\n  fords: b4", 4, "b4 is both a bridge and a ford"),
        ("\n  bridges: [e5, e6]\n  knight_bridge_stop: true", 4, "e5 and e6 are adjacent"),
        ("{start: nowhere.yaml}", 3, "parameter start=nowhere.yaml: the start file does not load"),
    ],
)
def test_scenario_files_report_bad_parameters_with_their_line(rules, line, words):
    from workbench.scenarios import ScenarioError

    text = f"id: p\ntitle: t\nrules: {rules}\n"
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, source="p.yaml")
    assert info.value.line == line and words in str(info.value)
    ok = load_scenario_text("id: p\ntitle: t\nrules: {bridges: [e5, e6], knight_bridge_stop: false}\n")
    assert ok.rules.bridges == ("e5", "e6")


def test_positions_carry_ply_and_quiet():
    from workbench.scenarios import ScenarioError

    text = "id: q\ntitle: t\nrules: {draw_after: 5}\nposition: {pieces: {f1: F, f11: f}, quiet: 4, ply: 9}\n"
    st = load_scenario_text(text).initial_state()
    assert (st.quiet, st.ply) == (4, 9)
    st.play("f1-f2")
    assert st.victory == "draw"
    with pytest.raises(ScenarioError, match="quiet must be a whole number"):
        load_scenario_text(text.replace("quiet: 4", "quiet: -1"))


def test_bench_plays_from_a_start_file_with_parameters(tmp_path, capsys):
    """``bench --rules start=PATH,...``: the playouts start at the file's position, on both engines."""
    from workbench.__main__ import main
    from workbench.games.terrafeud import native
    from workbench.games.terrafeud.bench import playouts

    f = tmp_path / "duel.yaml"
    f.write_text("id: knight-duel\ntitle: a duel\nrules: {hill: false, swamp: false}\n"
                 "position:\n  to_move: black\n  pieces: {a1: F, l6: f, f3: K, f9: k, d2: A, h8: a}\n",
                 encoding="utf-8")
    rules = f"start={f},archer_range=3,castling_uses=0"
    py = playouts(4, 2, 300, engine="python", rules=rules)
    assert 0 < py["plies"] < 4 * 300  # few pieces: random games end (the classic start's run to the cap)
    if native.available():
        assert playouts(4, 2, 300, engine="native", rules=rules)["plies"] == py["plies"]
    assert main(["bench", "--games", "2", "--max-plies", "20", "--no-peer", "--engine", "python", "--rules", rules]) == 0
    out = capsys.readouterr().out
    assert "duel.yaml" in out and "archer_range=3" in out  # the rules label names the start file
    for bad, named in (("archer_range=0", "archer_range=0 is out of range"), ("start=nowhere.yaml", "start file does not load")):
        assert main(["bench", "--games", "1", "--no-peer", "--rules", bad]) == 2
        err = capsys.readouterr().err
        assert f"bench: error: --rules: parameter {bad}" in err and named in err
