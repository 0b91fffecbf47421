"""The report of a small real batch (issue 22): a few dozen fast TerraFeud games, simulate -> report.

Greedy against random with a short cap: White wins most decided games, some games are cut by the cap.
Every figure the report states is recomputed here from the table, so the test holds for any outcome.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from lifelines import KaplanMeierFitter

from workbench.__main__ import main as workbench_main
from workbench.balance import build_report
from workbench.balance.cli import read_manifest
from workbench.balance.power import detectable_difference
from workbench.simulate import read_results, simulate

CAP, PER_CELL = 60, 16


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("batch") / "games.parquet"
    simulate({"season": ["summer", "winter"]}, "greedy", "random", games=PER_CELL, seed=22, max_plies=CAP,
             out=out, workers=0, progress=False)
    return out


def test_report_of_a_real_batch(batch: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert workbench_main(["report", str(batch), "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    games = read_results(batch)
    unfinished = int((games["victory"] == "unfinished").sum())
    assert f"Cap: {CAP} plies (the batch manifest). {unfinished} of {len(games)} games" in printed
    assert read_manifest(batch)["max_plies"] == CAP
    md = (tmp_path / "report.md").read_text()
    top = md.split("## Summary")[0]
    assert f"Cap: {CAP} plies" in top
    d = detectable_difference(PER_CELL, PER_CELL)
    assert (f"With {PER_CELL} games a cell, differences under {math.ceil(100 * d)} points in decisiveness between "
            "two cells could not be seen (80% power).") in top
    report = build_report(games, manifest=read_manifest(batch))  # as the command line builds it
    for r in report.summary.to_dict("records"):
        cell = games[games["season"] == r["season"]]
        cut = cell["victory"] == "unfinished"
        assert r["flagged"] == (cut.mean() > 0.2)
        if r["flagged"]:
            assert "balanced" not in r["verdict"] and f"⚠ {r['label']}: " in top
        decided = cell[cell["winner"] != "none"]
        if len(decided):
            assert r["advantage"] == pytest.approx((decided["winner"] == "white").mean())
        assert r["decisive"] == pytest.approx(len(decided) / len(cell))
        km = KaplanMeierFitter().fit(cell["plies"], ~cut)
        assert r["length_median"] == km.median_survival_time_ or math.isinf(r["length_median"])
    (c,) = report.comparisons
    assert c.verdict() in md and "share of decided games" in c.verdict() and "decisive" in c.verdict()
    dec = math.ceil(100 * detectable_difference(PER_CELL, PER_CELL))
    assert c.detectable_words().startswith(f"Winter: with {PER_CELL} games a cell, differences under {dec} points in "
                                           f"decisiveness ({PER_CELL} against {PER_CELL} games)")
    assert c.detectable_words().endswith("could not be seen (80% power).") and c.detectable_words() in md
    assert "## Game length" in md and "](figures/lengths.png)" in md
    assert "| rule | change across cells | season=summer | season=winter |" in md
