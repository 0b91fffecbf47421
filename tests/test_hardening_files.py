"""Issue 34's file holes: no page message opens a file, and every file of untrusted origin is read bounded.

Rule parameters that can name a file are ``Param(kind="path")``; the board refuses exactly those (with one
error whatever the value, so a page learns nothing about the disk) and takes every other value in the
game's notation. Files named inside scenarios and records stay in that file's folder or the game's data;
every read is capped and never blocks on a FIFO or floods from a device.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

import workbench.games as games
from workbench.core.rulespec import RulesError
from workbench.core.scenario import ScenarioError
from workbench.widget.board_controller import GameBoardController
from workbench.widget.common import WidgetError

SECRET = "TOPSECRET-line-one"


def _bounded(fn, seconds: float = 2.0):
    """Run ``fn`` in a thread: its result or exception, or a failure if it takes longer than ``seconds``."""
    out: dict = {}

    def run() -> None:
        try:
            out["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            out["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"still reading after {seconds} s (a FIFO or device was opened)"
    if "error" in out:
        raise out["error"]
    return out.get("value")


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, str]:
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET + "\nmore\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    return {"secret": str(secret), "fifo": str(fifo), "missing": str(tmp_path / "nope.json"), "dev": "/dev/zero",
            "relative": "fifo"}


def test_path_rules_are_declared_as_paths() -> None:
    assert games.get("cursed-lands").spec.path_params() == ("setup",)
    assert games.get("pole").spec.path_params() == ("start",)


@pytest.mark.parametrize(("game", "rule"), [("cursed-lands", "setup"), ("pole", "start")])
def test_the_board_never_opens_a_file_a_page_names(game: str, rule: str, files: dict[str, str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from workbench.widget.board import GameBoard

    monkeypatch.chdir(Path(files["fifo"]).parent)  # a relative name would open the FIFO in the kernel's folder
    b = GameBoard(game, seed=1)
    messages = set()
    for value in files.values():
        for msg in ({"type": "compare", "change": f"{rule}={value}"}, {"type": "new_game", "rules": {rule: value}},
                    {"type": "new_game", "rules": f"{rule}={value}"}):
            _bounded(lambda m=msg: (b._on_msg(b, m, []), b.wait()))
            v = b.view
            assert v["level"] == "error" and SECRET not in v["message"], msg
            messages.add(v["message"])
    assert len(messages) == 1, messages  # one error whatever the file: no oracle of what exists


def test_the_board_takes_every_other_value_in_the_game_s_notation() -> None:
    from workbench.widget.board import GameBoard

    b = GameBoard("cursed-lands", seed=1)
    b._on_msg(b, {"type": "compare", "change": "factions=orcs/dwarves"}, [])
    assert b.view["level"] != "error" and "unchanged" in b.view["message"]
    b._on_msg(b, {"type": "new_game", "rules": {"factions": "orcs/dwarves"}}, [])
    assert b.view["level"] != "error" and "factions=orcs/dwarves" in b.view["message"]
    b._on_msg(b, {"type": "new_game", "rules": "setup=classic,factions=elves/orcs"}, [])
    assert b.view["level"] != "error"
    c = GameBoardController(games.get("big-chess"), seed=1)
    c.new_game({"board": "classic-4", "teams": "ac/bd"})
    assert "teams=ac,bd" in c.message
    with pytest.raises(WidgetError):
        c.set_agent(0, "mcts:iterations=/etc/passwd")


@pytest.mark.parametrize("kind", ["secret", "fifo", "missing", "dev", "relative"])
def test_cursed_lands_setup_file_is_read_bounded_in_check_perft_and_records(kind: str, files: dict[str, str],
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from workbench.games.cursed_lands.record import RecordError, load_record_text

    monkeypatch.chdir(Path(files["fifo"]).parent)
    g = games.get("cursed-lands")
    path = files[kind]
    with pytest.raises(RulesError) as err:  # check and perft build their start this way (setup given by the user)
        _bounded(lambda: g.new_initial_state(g.spec.make({"setup": path}), seed=0))
    assert SECRET not in str(err.value)
    record = json.dumps({"game": "cursed-lands", "version": 1, "rules": {"setup": path}, "seed": 0, "actions": []})
    with pytest.raises(RecordError) as err2:
        _bounded(lambda: load_record_text(record))
    assert SECRET not in str(err2.value)
    if kind not in ("missing", "relative"):  # a record names files inside the game's data only
        assert "game's data" in str(err2.value)


def test_files_named_in_scenarios_stay_in_the_scenario_s_folder(tmp_path: Path, files: dict[str, str]) -> None:
    from workbench.scenarios.loader import load_scenario

    cases = {"cursed-lands": ("setup", "id: cl-x\ntitle: x\n"), "pole": ("start", "id: pole-x\ntitle: x\n")}
    for game, (rule, head) in cases.items():
        for value in (files["secret"], "../" * 12 + files["secret"].lstrip("/"), files["fifo"]):
            scen = tmp_path / "sub" / f"{game}.yaml"
            scen.parent.mkdir(exist_ok=True)
            scen.write_text(f"game: {game}\n{head}rules:\n  {rule}: {value}\nchecks: []\n")
            with pytest.raises(ScenarioError) as err:
                case = _bounded(lambda s=scen: load_scenario(s))
                _bounded(lambda c=case: c.run())
            assert SECRET not in str(err.value) and "folder" in str(err.value), (game, value, str(err.value))


def _bc_scenario(folder: Path, cards: str) -> Path:
    path = folder / "bc.yaml"
    path.write_text(f"game: big-chess\nid: bc-cards\ntitle: cards\ncards: {cards}\nchecks: []\n")
    return path


def test_big_chess_card_files_stay_in_the_scenario_s_folder_and_never_echo(tmp_path: Path, files: dict[str, str]) -> None:
    from workbench.scenarios.loader import load_scenario

    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "link.json").symlink_to(files["secret"])
    for item in (files["secret"], "/proc/self/environ", "../secret.txt", "link.json", files["fifo"], "/dev/zero"):
        with pytest.raises(ScenarioError) as err:
            _bounded(lambda i=item: load_scenario(_bc_scenario(tmp_path / "sub", json.dumps([i]))))
        assert SECRET not in str(err.value) and "folder" in str(err.value), (item, str(err.value))
    (tmp_path / "sub" / "junk.json").write_text('{"key": "x", "' + SECRET + '": }')  # malformed: the parser quotes
    with pytest.raises(ScenarioError) as err:
        load_scenario(_bc_scenario(tmp_path / "sub", '["junk.json"]'))
    assert SECRET not in str(err.value) and "malformed" in str(err.value)


def test_big_chess_card_patterns_expand_in_linear_time_and_a_file_is_parsed_once(tmp_path: Path,
                                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from workbench.core import jsonlines
    from workbench.games.big_chess.cards import starter_cards
    from workbench.scenarios.loader import load_scenario

    vecs = [[x, y] for x in range(-64, 65) for y in range(-64, 65) if (x, y) != (0, 0)]  # 16,640 vectors, sym all
    card = {"key": "blob", "id": 90, "name": "Blob", "vector": False, "cost": 10, "buyable": True, "pushable": True,
            "tags": [], "aura": [], "income": 0, "base": [{"act": "move", "leap": vecs, "sym": "all"}]}
    (tmp_path / "blob.json").write_text(json.dumps(card))
    starter_cards()
    calls = []
    real = jsonlines.loads
    monkeypatch.setattr(jsonlines, "loads", lambda text, *a, **k: calls.append(len(text)) or real(text, *a, **k))
    case = _bounded(lambda: load_scenario(_bc_scenario(tmp_path, '["blob.json"]')), 10.0)
    state = _bounded(lambda: case.initial_state(), 10.0)
    assert "blob" in {c.key for c in state.ctx.cards}
    assert len(calls) == 1  # the card file is parsed once (it was three times)


JUNK = [None, True, -1, 10**400, 1.5, "", "x" * 300, [], [1, 2], {}, {"a": {"b": 1}}, "e5", ["e5"], {"bogus": 1}]


@pytest.mark.parametrize("game", ["cursed-lands", "pole", "big-chess"])
def test_record_loaders_name_every_error(game: str) -> None:
    """Record fuzz: deep JSON, wrong types, unknown fields, huge seeds and random field swaps give the game's named
    ``RecordError``, never RecursionError, AttributeError or TypeError (bounded: 300 tries a game)."""
    import importlib
    import random

    mod = importlib.import_module(f"workbench.games.{game.replace('-', '_')}.record")
    g = games.get(game)
    st = g.new_initial_state(g.spec.defaults(), 1)
    rng = random.Random(3)
    for _ in range(6):
        if st.is_terminal():
            break
        acts = st.legal_actions(st.current_player()) if st.current_player() >= 0 else st.legal_actions()
        st.apply_action(rng.choice(list(acts)[:200]))
    good = json.loads(mod.save_record(st))
    texts = ["[" * 50_000 + "]" * 50_000, json.dumps({**good, "rules": [1, 2]}), json.dumps({**good, "bogus": 1}),
             json.dumps({**good, "seed": 10**400}), json.dumps(good)[:-7]]
    for _ in range(300):
        bad = dict(good)
        for _ in range(rng.randint(1, 3)):
            bad[rng.choice([*good, "bogus"])] = rng.choice(JUNK)
        texts.append(json.dumps(bad))
    refused = 0
    for text in texts:
        try:
            mod.load_record_text(text)
        except mod.RecordError:
            refused += 1
    assert refused >= len(texts) - 20  # a few swaps (of result or a harmless field) may still replay


VALUES = [None, True, -1, 0, 3, 10**30, 2.5, "", "a1", "h1", "/etc/shadow", "../../etc/passwd", "x" * 5000,
          "start=/etc/shadow", "setup=fifo", "factions=orcs/dwarves", "greedy", "mcts:iterations=10^9", [], {},
          {"start": "/etc/shadow"}, {"setup": "/dev/zero"}, {"x": {"y": 1}}]
KINDS = ["click", "choose", "undo", "redo", "cancel", "roll", "goto", "new_game", "agent", "heat", "auto_roll",
         "compare", "pick_scenario", "check", "nope"]
FIELDS = ["cell", "index", "node", "seed", "rules", "seat", "spec", "layer", "player", "on", "change", "name", "delta"]


@pytest.mark.parametrize("game", ["pole", "cursed-lands", "big-chess", "openspiel:tic_tac_toe"])
def test_board_message_fuzz(game: str) -> None:
    """Hostile page messages on every game's board: each gets a plain panel message; none shows a traceback, a file's
    content or a server path, and none opens a file (bounded: 120 messages a game, no agent thinking)."""
    import random

    from workbench.widget.board import GameBoard

    b = GameBoard(game, seed=1)
    rng = random.Random(game)
    for _ in range(120):
        msg = {"type": rng.choice(KINDS)}
        for _ in range(rng.randint(0, 2)):
            msg[rng.choice(FIELDS)] = rng.choice(VALUES)
        _bounded(lambda m=msg: (b._on_msg(b, m, []), b.wait(5)))
        text = b.view["message"]
        assert "Traceback" not in text and "root:" not in text and "/work/" not in text, (msg, text)
        assert len(text) <= 300


@pytest.mark.parametrize("game", ["cursed-lands", "pole", "big-chess", "terrafeud"])
def test_scenario_fuzz(game: str) -> None:
    """Shipped scenarios with random keys replaced by junk: a ScenarioError naming the file, or results; never
    another exception and never a file outside the scenario's folder (bounded: 80 files a game)."""
    import random

    from workbench.core.scenario import ScenarioError
    from workbench.core.yamlmarks import load_with_lines
    from workbench.scenarios.loader import load_scenario_text

    folder = Path(__file__).parent.parent / "scenarios" / {"terrafeud": "terrafeud/rulings"}.get(game, game)
    paths = sorted(folder.glob("*.yaml"))[:40]
    rng = random.Random(game)
    refused = 0
    for i in range(80):
        data = dict(load_with_lines(rng.choice(paths).read_text(encoding="utf-8")))
        key = rng.choice([*data, "rules", "position", "checks", "cards", "seed"])
        data[key] = rng.choice([*VALUES[:12], {"setup": "/etc/shadow"}, {"start": "../../x"}, [{"legal": 5}]])
        text = json.dumps(data, default=str)
        try:
            case = _bounded(lambda t=text, n=i: load_scenario_text(t, f"<fuzz {n}>"), 10)
            _bounded(lambda c=case: c.run(), 20)
        except ScenarioError as exc:
            assert str(exc).startswith(f"<fuzz {i}>") and SECRET not in str(exc)
            refused += 1
    assert refused >= 20
