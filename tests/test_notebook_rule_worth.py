"""``notebooks/10_rule_worth.ipynb`` runs, and its tables are what ``workbench ablate`` prints for the same games."""

from __future__ import annotations

import contextlib
import io
import re
import shutil

import pytest
from nbhelp import NOTEBOOKS, execute_notebook

from workbench.study.ablate import main

RUNS = {  # the notebook's runs, as command lines (their games ship in notebooks/data)
    "worth-terrafeud": ["--game", "terrafeud", "--classes", "archers_shot,castling", "--grid", "archer_range=2,4",
                        "--pairs", "6"],
    "worth-pole": ["--game", "pole", "--classes", "buy_catapult,catapult_attack,fortress_attack", "--pairs", "8"],
}


@pytest.mark.notebook
def test_rule_worth_notebook_tables_are_what_ablate_prints(tmp_path) -> None:
    outputs = execute_notebook("10_rule_worth.ipynb", timeout=600)
    text = "".join(o.get("text", "") for o in outputs)
    images = sum("image/png" in o.get("data", {}) for o in outputs)
    assert images == 2 and "α-Rank" in text
    assert "under archer_range=" in text or "no option's worth changes" in text
    for name, args in RUNS.items():
        shutil.copytree(NOTEBOOKS / "data" / name, tmp_path / name)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):  # the shipped games are complete: the command replays nothing
            assert main([*args, "--out", str(tmp_path / name), "--resume", "--workers", "0"]) == 0
        printed = re.split(r"\n\n\d+ games in ", out.getvalue())[0].strip()
        assert printed.startswith("What each option is worth") and printed in text
