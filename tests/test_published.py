"""``workbench published``: a game's published figures (``GameDef.published_file``) played again beside the figure.

Pole's contract table (section 15) is the first; the game declares it as data, the command (a study, above the
tools) plays it, so the game imports no tool (issue 29: Pole's old turtlebench imported simulate).
"""

from __future__ import annotations

import json

import pytest

from workbench.games import get
from workbench.study.published import PublishedError, main, mean_interval, published_tables


def test_pole_declares_its_contract_table() -> None:
    [table] = published_tables(get("pole"))
    assert table["name"] == "section-15" and len(table["lines"]) == 4 and table["games"] == 200
    assert [m["label"] for m in table["measures"]] == ["Red wins", "Black wins", "unfinished", "mean turns"]
    assert published_tables(get("big-chess")) == []


def test_a_line_is_played_with_intervals(capsys) -> None:
    assert main(["--game", "pole", "--games", "4", "--lines", "after", "--workers", "0", "--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["agent"] for r in rows] == ["random", "turtle"] and all(r["games"] == 4 for r in rows)
    for m in rows[0]["measures"]:
        assert m["low"] <= m["value"] <= m["high"] and isinstance(m["inside"], bool)
    assert main(["--game", "big-chess"]) == 2 and "publishes no table" in capsys.readouterr().err


def test_a_bad_file_names_itself(tmp_path, monkeypatch) -> None:
    game = get("pole")
    monkeypatch.setattr(type(game), "published_file", str(tmp_path / "p.json"))
    (tmp_path / "p.json").write_text(json.dumps({"tables": [{"name": "x", "lines": [{"agent": "random"}],
                                                              "measures": [{"column": "winner", "equals": "red"}]}]}))
    with pytest.raises(PublishedError, match=r"p\.json: table 1, line 1"):
        published_tables(game)
    assert mean_interval([2.0, 4.0])[0] == 3.0 and mean_interval([5.0]) == (5.0, 5.0, 5.0)
