"""Restricted play (issue 32): planted truths on the Race game, the dataset, resume and the bar= agent."""

from __future__ import annotations

import re

import pytest

from workbench import games
from workbench.balance.worth import barred_of, base_agent, worth_frame
from workbench.simulate import read_results
from workbench.study.ablate import ablate

games.register("footrace", "racegame")


def test_planted_worth_dominant_nothing_and_never(tmp_path) -> None:
    run = ablate("footrace", "greedy", pairs=8, out=tmp_path / "race", workers=0, progress=False)
    verdicts = dict(zip(run.result.table["class"], run.result.table["verdict"], strict=True))
    assert verdicts == {"leap": "dominant", "dance": "used, worth nothing measurable", "wait": "never used"}
    table = run.result.table.set_index("class")
    assert table.loc["leap", "worth"] == 50 and table.loc["leap", "high"] < 50 + 1e-9
    assert table.loc["dance", "low"] < 0 < table.loc["dance", "high"] and table.loc["dance", "usage"] > 0
    text = run.text()
    assert "smallest worth these games could have seen" in text and not re.search(r"\bnan\b", text)
    # the same Parquet dataset format as simulate's; a resumed run plays nothing new and says the same
    assert len(read_results(tmp_path / "race")) == 8 * (1 + 3 * 2)
    again = ablate("footrace", "greedy", pairs=8, out=tmp_path / "race", resume=True, workers=0, progress=False)
    assert worth_frame(again.result).equals(worth_frame(run.result))


def test_grid_compares_worth_across_variants() -> None:
    run = ablate("footrace", "greedy", classes=["leap"], pairs=6, grid={"leap": ["3", "1"]}, workers=0, progress=False)
    v = run.result.variants
    assert list(v["class"]) == ["leap"] and v["change"].iloc[0] == -50  # a leap of 1 is a step: worth nothing
    assert "under leap=1 the leap is worth 50 points less" in run.text()


def test_bar_specs_and_errors() -> None:
    assert barred_of("greedy:bar=leap") == "leap" and barred_of("greedy:depth=2,bar=none") == "none"
    assert barred_of("greedy") is None and base_agent("alphabeta:depth=2,bar=leap") == "alphabeta:depth=2"
    with pytest.raises(ValueError, match="no action class 'fly'"):
        ablate("footrace", "greedy", classes=["fly"], pairs=1, workers=0, progress=False)
    with pytest.raises(ValueError, match="no action classes to bar"):
        ablate("openspiel:tic_tac_toe", "greedy", pairs=1, workers=0, progress=False)


def test_planted_dominant_archetype_is_named_by_alpha_rank() -> None:
    from workbench.study.archetypes import tournament

    run = tournament("footrace", pairs=6, workers=0, progress=False)
    assert run.ranking.dominant == "rush" and "names rush dominant" in run.text()
    assert run.ranking.score.loc["rush", "dancer"] == 100 and run.ranking.high.loc["dancer", "rush"] < 50


def test_alpha_rank_finds_a_cycle() -> None:
    import pandas as pd

    from workbench.balance.strategies import rank_strategies

    rows, gid = [], 0
    for a, b in (("rock", "scissors"), ("scissors", "paper"), ("paper", "rock")):  # a beats b, every seed
        for seed in range(6):
            for first, second in ((a, b), (b, a)):
                rows.append({"game_id": gid, "seed": seed, "players": "x,y", "outcome": "win", "agent_x": first,
                             "agent_y": second, "score_x": 1.0 if first == a else -1.0,
                             "score_y": -1.0 if first == a else 1.0})
                gid += 1
    ranking = rank_strategies(pd.DataFrame(rows))
    assert ranking.dominant is None and sorted(ranking.cycle) == ["paper", "rock", "scissors"]
    assert "cycle" in ranking.verdict


def test_style_agent_reads_the_games_archetypes() -> None:
    from workbench.agents.generic import make_protocol_agent

    race = games.get("footrace")
    assert "leaps at once" in make_protocol_agent("style:archetype=rush", race).describe()
    with pytest.raises(ValueError, match="no archetype 'nope'; its archetypes: rush, dancer, idler"):
        make_protocol_agent("style:archetype=nope", race)
    for name in ("terrafeud", "pole", "cursed-lands", "big-chess"):  # every game ships three, in data files
        assert len(games.get(name).archetypes) >= 3
    assert [a.spec() for a in games.get("pole").archetypes if a.name == "turtle"] == ["turtle"]


def test_a_move_forced_by_the_bar_is_played_and_counted() -> None:
    from workbench.agents.generic import make_protocol_agent
    from workbench.agents.restrict import Restricted
    from workbench.core.classes import ActionClass, ActionClasses

    race = games.get("footrace")

    class Everything:  # a game whose one class is every action: a bar on it leaves nothing legal
        name = "footrace"
        action_classes = ActionClasses((ActionClass("any", "every action"),), lambda state, action: {"any"})

    agent = Restricted(make_protocol_agent("greedy", race, seed=1), Everything(), frozenset({"any"}))
    state = race.new_initial_state()
    assert agent.select_action(state) in state.legal_actions()
    assert agent.tally() == {"decisions": 1, "forced": 1, "class_any": 1}


def test_profile_says_how_each_style_plays() -> None:
    from workbench.study.archetypes import profile, profile_text

    scores, shares = profile("footrace", pairs=2, scheduler="inprocess")
    share = shares.set_index(["style", "class"])["share"]
    assert share["rush", "leap"] > 0 and share["idler", "leap"] == 0 and share["idler", "wait"] == 100
    assert list(scores["style"]) == ["rush", "dancer", "idler"] and (scores["games"] == 4).all()
    text = profile_text(scores, shares)
    assert "share of each style's actions" in text and not re.search(r"\bnan\b", text)
