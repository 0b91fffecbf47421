"""``python -m workbench simbench`` is one batch benchmark for every game (``--game``): its measures print figures."""

from __future__ import annotations

import json

import pytest

from workbench import simbench
from workbench.__main__ import main as workbench_main


def test_batch_and_errors_measure_any_game(capsys) -> None:
    out = simbench.batch("pole", "max_turns=10", "random", 3, workers=0, seed=2, engine="python")
    assert out["games"] == 3 and out["cells"] == 1 and out["errors"] == 0 and out["engines"] == ["python"]
    if out["decided"]:
        share, lo, hi = out["red_share_of_decided"]
        assert 0 <= lo <= share <= hi <= 1
    err = simbench.errors("pole", "max_turns=10", "random", 2, engine="python", workers=0)
    assert err["games"] == 2 and err["errors"] == 0 and err["share"][2] > 0  # "none in 2" is still an interval
    assert workbench_main(["simbench", "batch", "--game", "pole", "--rules", "max_turns=10", "--games", "2",
                           "--workers", "0", "--engine", "python"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 2


def test_a_bad_value_is_one_line(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        workbench_main(["simbench", "errors", "--game", "pole", "--agent", "random"])
    assert stop.value.code == 2
    assert "SPEC=GAMES" in capsys.readouterr().err
