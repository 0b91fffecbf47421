"""Big chess through the generic tools: batch starts, teams with /, OpenSpiel with 4 players, agents in
the setup phase, the cards command, undo keeping the legal list, and the report's own sections."""

from __future__ import annotations

import random
from collections import Counter

from workbench.games import get

GAME = get("big-chess")


def test_deployed_start_any_board_and_teams_with_slash() -> None:
    r = GAME.rules("start=deployed,board=classic-4,teams=ac/bd")
    assert r["teams"] == "ac,bd"
    st = GAME.new_initial_state(r)
    assert st.phase == "play" and st.move_number() == 0 and st.log == [] and st.treasury == [30] * 4
    assert GAME.info(r).teams == ((0, 2), (1, 3))
    assert GAME.rules("cost_knight=card")["cost_knight"] == GAME.spec["cost_knight"].default == 30


def test_openspiel_four_players_with_teams_as_slash() -> None:
    import pyspiel

    import workbench.openspiel  # noqa: F401  (registers)

    g = pyspiel.load_game("workbench_big_chess(board=classic-4,teams=ac/bd,start=deployed,max_turns=6)")
    assert g.num_players() == 4
    st = g.new_initial_state()
    assert st.inner.ctx.teams_text == "ac,bd"
    rng = random.Random(1)
    while not st.is_terminal():
        st.apply_action(rng.choice(st.legal_actions()))
    assert len(st.returns()) == 4


def test_undo_keeps_legal_list_and_quiet_matches_material() -> None:
    st = GAME.new_initial_state(GAME.rules("start=army"))
    rng = random.Random(3)
    for _ in range(150):
        if st.is_terminal():
            break
        legal = st.legal_actions()
        a = rng.choice(legal)
        before = Counter((pc.owner, pc.card) for pc in st.pieces.values())
        quiet, vet = st.quiet, a.startswith("^")
        st.apply_action(a)
        st.undo_action()
        assert st.legal_actions() == legal
        st.apply_action(a)
        after = Counter((pc.owner, pc.card) for pc in st.pieces.values())
        if not vet and not st.is_terminal():
            assert st.quiet == (0 if after != before else quiet + 1)


def test_greedy_plays_its_own_setup_then_play() -> None:
    from workbench.agents.generic import make_protocol_agent

    r = GAME.rules("max_turns=4")
    st = GAME.new_initial_state(r)
    agents = [make_protocol_agent("greedy", GAME, r, seed=i) for i in range(2)]
    while st.phase == "setup":
        p = st.current_player()
        a = agents[p].select_action(st)
        assert a.startswith(st.ctx.players[p] + ":")
        st.apply_action(a)
    assert st.treasury[0] < 5 and st.phase == "play"


def test_cards_command(capsys) -> None:  # noqa: ANN001
    from workbench.__main__ import main

    assert main(["cards", "--rules", "cost_knight=40", "knight"]) == 0
    out = capsys.readouterr().out
    assert "knight" in out and "cost   40" in out and "leap (1,-2)" in out
    assert main(["cards", "nosuch"]) == 2


def test_report_sections_by_team_and_economy() -> None:
    from workbench.balance.report import build_report
    from workbench.simulate.protocol_play import expand_protocol_grid, play_protocol_game, protocol_specs

    cells = expand_protocol_grid("big-chess", {"start": ["deployed"], "board": ["classic-4"], "max_turns": ["60"]})
    specs = protocol_specs("big-chess", cells, ("greedy",), 2, 0, 3000, True)
    import pandas as pd

    results = [play_protocol_game(s) for s in specs]
    games = pd.DataFrame([r.row for r in results])
    events = pd.DataFrame([e for r in results for e in r.events])
    assert set(games["winner_team"].dropna()) <= {-1, 0, 1} and "buys_knight" in games.columns  # -1: no winner
    report = build_report(games, events, title="bc")
    md = report.markdown()
    assert "## Results by seat and by team" in md and "team ab" in md and "## Piece economy" in md
    economy = next(s for s in report.sections if s.title == "Piece economy")
    assert [stem for stem, _ in economy.figures] == ["big_chess_economy_curves"]
    assert "Treasury and trophy curves over the 2 games with events" in economy.markdown_text
    # the generic summary reads the sides as teams: team ab moves first, fair is one in two
    assert "| team ab |" in md and "Teams ab,cd: a seat wins when its team wins" in md


def test_engine_native_for_a_game_without_a_core_says_so_and_auto_is_python(monkeypatch) -> None:
    """A game without a native core (big chess's declared backend swapped for the base one): ``native`` must not
    send the designer to rebuild one; with its core, big chess resolves as the other games do."""
    import pytest

    from workbench.core.protocol import NativeBackend
    from workbench.games.big_chess import BigChess
    from workbench.games.big_chess.native import available
    from workbench.simulate.protocol_play import resolve_protocol_engine

    assert resolve_protocol_engine("big-chess", "auto") == ("native" if available() else "python")
    monkeypatch.setattr(BigChess, "native", NativeBackend())
    with pytest.raises(ValueError, match="big-chess has no native core \\(its Python engine plays it\\)"):
        resolve_protocol_engine("big-chess", "native")
    assert resolve_protocol_engine("big-chess", "auto") == "python"
