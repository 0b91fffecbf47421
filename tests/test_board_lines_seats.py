"""Best lines and the evaluation bar of games of more than two seats (issue 30): every line's score is the seat to
move's view, said in words with its team and the number of opposing sides; the lines are on one scale (one agent,
one depth, ordered, and no root move left out scores better than the last line); the bar and graph say they are
the first seat's view and draw its other side in the one opposing team's colour, or grey where several sides
oppose it."""

from __future__ import annotations

from pathlib import Path

from workbench.agents.generic import make_protocol_agent
from workbench.games import get
from workbench.widget.board_controller import GameBoardController

ROOT = Path(__file__).resolve().parents[1] / "scenarios" / "big-chess"


def _lines_on_one_scale(c: GameBoardController, seat: str, view: str) -> list[dict]:
    lines = c.analyse(depth=1, lines=3, length=2)
    assert len(lines) == 3 and len({x["moves"][0] for x in lines}) == 3
    assert {x["seat"] for x in lines} == {seat} and {x["view"] for x in lines} == {view}
    assert len({x["by"] for x in lines}) == 1 and {x["depth"] for x in lines} == {1}
    scores = [x["score"] for x in lines]
    assert None not in scores and scores == sorted(scores, reverse=True)
    for x in lines:  # the words name the seat whose view the score is
        assert x["words"].startswith(seat) or x["words"].startswith("level"), x
    # one scale: the same agent with the three lines' moves left out finds nothing better than line 3
    st = c.state
    agent = make_protocol_agent(lines[0]["by"], c.game, c.rules, seed=c.seed)
    agent.exclude = [a for a in st.legal_actions() if st.action_to_string(a) in {x["moves"][0] for x in lines}]
    agent.select_action(st.clone())
    assert agent.score <= scores[-1] + 1e-9
    return lines


def test_four_players_in_two_teams_lines_in_the_movers_teams_view_and_the_bar_against_the_other_team() -> None:
    c = GameBoardController(get("big-chess"))
    c.load_scenario_file(ROOT / "bc-26-area-take.yaml")  # teams ab,cd; player a to move
    assert c.info().teams == ((0, 1), (2, 3)) and c.state.current_player() == 0
    _lines_on_one_scale(c, "player a", "player a's view (team a & b)")
    e = c.view()["eval"]
    assert e["view"] == "player a's view (team a & b)" and e["against"] == 2  # player c: the other team's first


def test_four_players_each_alone_lines_in_the_movers_view_against_three_sides_and_a_grey_bar() -> None:
    g = get("big-chess")
    c = GameBoardController(g, g.spec.make("board=classic-4,start=deployed,teams=a/b/c/d"))
    c.play_text(next(a for a in c.state.legal_actions() if "-" in a))  # player a moves a piece: player b to move
    assert len(c.info().teams) == 4 and c.state.current_player() == 1
    lines = _lines_on_one_scale(c, "player b", "player b's view, against the other 3 sides")
    e = c.view()["eval"]
    # the bar is the first seat's, the lines the mover's: each says whose view it is
    assert e["view"] == "player a's view, against the other 3 sides" and e["against"] == -1
    assert lines[0]["view"] != e["view"]


def test_two_seats_keep_their_words_and_the_bar_against_the_other_seat() -> None:
    c = GameBoardController(get("pole"), seed=5)
    lines = c.analyse(depth=1, lines=2, length=1)
    assert {x["view"] for x in lines} == {"Red's view"}
    assert c.view()["eval"]["view"] == "Red's view" and c.view()["eval"]["against"] == 1


def test_lines_stopped_at_different_depths_are_all_scored_at_the_shallowest(monkeypatch) -> None:  # noqa: ANN001
    """A node budget stops line 1's search (every root move) shallower or deeper than lines 2 and 3 (fewer root moves):
    every line is then scored at the shallowest depth reached, its own first move alone at the root, so the three
    scores are one search's on one scale (each recomputed here by an independent search at that depth)."""
    g = get("big-chess")
    c = GameBoardController(g, g.spec.make("board=classic-4,start=deployed,teams=a/b/c/d"))
    monkeypatch.setattr(c, "analysis_spec", lambda depth=2, seconds=1.0: "alphabeta:depth=3,nodes=400,seconds=5")
    lines = c.analyse(depth=3, lines=3, length=1)
    depths = {x["depth"] for x in lines}
    assert len(depths) == 1, lines
    low = depths.pop()
    st = c.state
    for x in lines:
        agent = make_protocol_agent(f"alphabeta:depth={low},nodes=400,seconds=5", g, c.rules, seed=c.seed)
        agent.exclude = [a for a in st.legal_actions() if st.action_to_string(a) != x["moves"][0]]
        agent.select_action(st.clone())
        assert x["score"] == round(agent.score, 2), x
    assert [x["score"] for x in lines] == sorted((x["score"] for x in lines), reverse=True)
