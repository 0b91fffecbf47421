"""The board's benchmark (``python -m workbench.widget.bench``): its statistics and its in-process figures.

No timing is asserted (figures belong to the printout); these check that what it prints is computed right."""

from __future__ import annotations

import pytest

from workbench.widget import bench


def test_median_interval_from_order_statistics() -> None:
    # n = 10: the 2nd smallest to the 2nd largest (P(Binomial(10, 1/2) <= 1) = 1.1%, <= 2 is 5.5%)
    assert bench.median_interval([float(x) for x in range(10, 0, -1)]) == (2.0, 9.0)
    # n = 6: min to max (P(X = 0) = 1.6%, P(X <= 1) = 10.9%)
    assert bench.median_interval([5.0, 1.0, 4.0, 2.0, 6.0, 3.0]) == (1.0, 6.0)
    assert bench.median_interval([1.0, 2.0, 3.0, 4.0, 5.0]) is None
    line = bench.summary([1.0, 2.0, 3.0])
    assert "no interval" in line and "nan" not in line
    assert "nan" not in bench.summary([])


def test_clicks_are_timed_by_kind_along_a_random_game(capsys: pytest.CaptureFixture[str]) -> None:
    r = bench.bench("openspiel:tic_tac_toe", None, clicks=16, seed=3, repeats=2)
    assert len(r["first_ms"]) == 2 and all(x > 0 for x in r["first_ms"])
    kinds = r["clicks"]
    assert set(kinds) == set(bench.KINDS) and kinds["play"]
    assert sum(len(v) for v in kinds.values()) <= 16
    assert bench.kind_of({"type": "click"}, 3, 3) == "select" and bench.kind_of({"type": "choose"}, 3, 4) == "play"
    bench.in_process([("openspiel:tic_tac_toe", None)], clicks=8, seed=1, repeats=2, warm=False)
    out = capsys.readouterr().out
    assert "load average" in out and "CPU:" in out and "first" in out and "nan" not in out


def test_an_undo_or_a_redo_finds_the_positions_actions_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """The board keeps each visited position's legal actions, click cells, index and attackers (the last few nodes):
    an undo or a redo shows the same lit cells and buttons without asking the engine for them again, and the view
    there equals the one first drawn. A board also moves what is loaded out of the collector's sight (gc.freeze)."""
    import gc

    from workbench.games import get
    from workbench.widget.board import GameBoard
    from workbench.widget.board_controller import GameBoardController

    game = get("big-chess")
    c = GameBoardController(game, game.rules("board=classic-4"), seed=1)
    keys = ("lit", "buttons", "buy_cells", "status", "glyphs", "previews", "attackers", "attack_lines")
    first = c.view()
    c.click(first["lit"][0])
    c.choose(0)  # a placement: a new position
    second = c.view()
    asked: list[int] = []
    real = type(c.state).legal_actions
    monkeypatch.setattr(type(c.state), "legal_actions", lambda self, *a: asked.append(1) or real(self, *a))
    told = type(c.state).attackers
    monkeypatch.setattr(type(c.state), "attackers", lambda self: asked.append(2) or told(self))
    c.undo()
    again = c.view()
    assert {k: again[k] for k in keys} == {k: first[k] for k in keys}
    c.redo()
    assert {k: c.view()[k] for k in keys} == {k: second[k] for k in keys}
    assert asked == []
    GameBoard("openspiel:tic_tac_toe")
    assert gc.get_freeze_count() > 0


def test_a_coarse_clocks_mean_has_its_interval_and_never_nan() -> None:
    line = bench.mean_summary([0.0, 10.0, 10.0, 0.0, 20.0, 10.0])
    assert "mean 8.3 ms" in line and "[" in line and "nan" not in line
    assert "no interval" in bench.mean_summary([10.0]) and "nan" not in bench.mean_summary([])
