"""``workbench.engine`` is TerraFeud's engine, which lives in ``workbench/games/terrafeud/engine/``.

Kept as an alias (the same module objects, not copies), so every import, pickle and monkeypatch that
names ``workbench.engine`` or ``workbench.engine.state`` keeps working for scripts and notebooks
written before the workbench hosted several games.
"""

import importlib
import sys

from workbench.games.terrafeud.engine import *  # noqa: F403 - the alias re-exports the engine
from workbench.games.terrafeud.engine import __all__  # noqa: F401

_REAL = "workbench.games.terrafeud.engine"
SUBMODULES = ("analysis", "board", "boarddata", "game", "geometry", "notation", "pieces", "rules", "safefile",
              "serialize", "state", "telemetry", "text")
for _name in SUBMODULES:
    sys.modules[f"{__name__}.{_name}"] = importlib.import_module(f"{_REAL}.{_name}")
    globals()[_name] = sys.modules[f"{__name__}.{_name}"]
