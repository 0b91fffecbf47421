"""The board data file (``workbench/games/terrafeud/data/terrafeud.json``), read once.

A module of its own because both ``rules`` (default crossings, river validation) and ``board``
(setup, castles, terrain candidates) need it, and ``board`` imports ``rules``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any


@lru_cache(maxsize=1)
def board_data() -> dict[str, Any]:
    """The board data file (setup, crossings, terrain candidates) as a dict."""
    text = resources.files("workbench.games.terrafeud").joinpath("data", "terrafeud.json").read_text(encoding="utf-8")
    return json.loads(text)
