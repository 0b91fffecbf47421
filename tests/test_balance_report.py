"""The balance report and ``python -m workbench report``: self-contained files, verdicts, plain-words refusals."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pandas as pd
import pytest
from test_balance_cells import game_row, synthetic_games

from workbench.__main__ import main as workbench_main
from workbench.balance import build_report


def test_report_files_are_self_contained(tmp_path: Path) -> None:
    games = synthetic_games(per_cell=30, white_rates={"summer": 0.3, "winter": 0.6}, seed=4)
    report = build_report(games, n_boot=300)
    html_path, md_path = report.write(tmp_path / "out")
    page = html_path.read_text()
    md = md_path.read_text()
    # every image is embedded; nothing is fetched from elsewhere
    assert page.count("data:image/png;base64,") == 4  # advantage/decisiveness, victory kinds, lengths, comparisons
    assert not re.search(r"""src=['"](?!data:)""", page) and "<link" not in page
    for c in report.comparisons:
        assert c.verdict() in md and html.escape(c.verdict()) in page
    # was: "Winter: White wins" (White's win rate over all games); each verdict now names the three quantities
    winter = next(c for c in report.comparisons if c.column == "season")
    assert winter.verdict().startswith("Winter: ") and "White's share of decided games" in winter.verdict()
    assert "decisiveness" in winter.verdict() and "median" in winter.verdict()
    assert md.index("## Study") < md.index("## Summary") and "Cap: " in md.split("## Summary")[0]
    assert "| cell | games | verdict | White share of decided % [95% CI]" in md
    for stem in re.findall(r"!\[[^\]]*\]\((figures/[^)]+)\)", md):
        assert (md_path.parent / stem).stat().st_size > 1000
    assert "Skipped: no events table" in md  # heatmaps need events


def test_report_with_one_cell_has_no_comparisons() -> None:
    games = pd.DataFrame([game_row(i, "white" if i % 2 else "black", "castle", 40 + i) for i in range(6)])
    report = build_report(games, n_boot=100)
    assert report.comparisons == []
    assert "every toggle, parameter and agent takes one value" in report.markdown()


def test_cli_writes_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.parquet"
    synthetic_games(per_cell=12).to_parquet(path)
    assert workbench_main(["report", str(path), "--out", str(tmp_path / "rep"), "--correction", "bh"]) == 0
    out = capsys.readouterr().out
    assert "report.html" in out and "Benjamini-Hochberg-adjusted" in out
    assert (tmp_path / "rep" / "report.html").exists() and (tmp_path / "rep" / "report.md").exists()


@pytest.mark.parametrize("rows", [0, 1])
def test_cli_refuses_empty_and_single_row_tables(tmp_path: Path, rows: int, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.parquet"
    columns = list(game_row(0, "", "", 0))
    pd.DataFrame([game_row(i, "white", "castle", 30) for i in range(rows)], columns=columns).to_parquet(path)
    assert workbench_main(["report", str(path), "--out", str(tmp_path / "rep")]) == 1
    err = capsys.readouterr().err
    assert f"has {rows} finished or timed-out game" in err and "Simulate more games first" in err
    assert not (tmp_path / "rep").exists()


def test_cli_names_a_missing_or_unreadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert workbench_main(["report", str(tmp_path / "nope.parquet"), "--out", str(tmp_path)]) == 1
    assert "nope.parquet: no such games file" in capsys.readouterr().err
    bad = tmp_path / "bad.parquet"
    bad.write_text("not parquet")
    assert workbench_main(["report", str(bad), "--out", str(tmp_path)]) == 1
    assert "bad.parquet: cannot read the games table" in capsys.readouterr().err
