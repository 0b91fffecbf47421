"""Learned evaluation weights files (``workbench learn``), found by name and read with checks.

A weights file is chosen by *name*, never by a path: it is looked up in the study's folder (the current
directory) and then in the game's own folder (``data/weights/``), so a page or a spec cannot open a file the
user did not name. The agents (``workbench.agents.learned``) search with it in Python; a game's native core
takes the same weights as a vector in the order of the game's declared features (``weights_vector``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

MAX_BYTES = 200_000
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.=+-]{0,120}\.json$")


def weights_folders(game: Any, study: str | Path | None = None) -> list[Path]:
    """Where weights files are looked up, in order: the study's folder (cwd by default), the game's ``data/weights``."""
    from workbench.core.strength import game_folder

    return [Path(study) if study is not None else Path.cwd(), game_folder(game) / "data" / "weights"]


def available_weights(game: Any, study: str | Path | None = None) -> list[str]:
    """The weights files of ``game`` a board may offer, by name (study folder first, no duplicates)."""
    out: list[str] = []
    for folder in weights_folders(game, study):
        if folder.is_dir():
            for path in sorted(folder.glob("*.json")):
                if NAME.match(path.name) and path.name not in out and _is_weights(path, game):
                    out.append(path.name)
    return out


def _is_weights(path: Path, game: Any) -> bool:
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.stat().st_size <= MAX_BYTES else None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return False
    return isinstance(data, dict) and data.get("game") == getattr(game, "name", None) and "weights" in data


def load_weights(game: Any, name: str, study: str | Path | None = None) -> dict[str, float]:
    """The weights of file ``name`` for ``game``; ``ValueError`` naming the file and the rule it breaks."""
    if not isinstance(name, str) or not NAME.match(name):
        raise ValueError(f"eval={name!r}: a weights file is named, not a path: letters, digits, '._=+-', ending .json")
    for folder in weights_folders(game, study):
        path = folder / name
        if path.is_file():
            break
    else:
        raise ValueError(f"eval={name}: no such weights file in the study's folder or {game.name}'s data/weights")
    if path.stat().st_size > MAX_BYTES:
        raise ValueError(f"{path}: a weights file of over {MAX_BYTES} bytes")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path}: not a JSON weights file ({type(exc).__name__})") from None
    if not isinstance(data, dict) or data.get("game") != game.name:
        raise ValueError(f"{path}: a weights file of {game.name} needs \"game\": \"{game.name}\"")
    weights = data.get("weights")
    if not isinstance(weights, Mapping) or not weights:
        raise ValueError(f"{path}: \"weights\" must map feature names to numbers")
    out = {}
    for key, value in weights.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            raise ValueError(f"{path}: weight of {str(key)[:40]!r} is not a finite number")
        out[str(key)] = float(value)
    return out


def feature_names(game: Any) -> list[str]:
    """The game's declared evaluation features in the order ``evaluation_features`` gives them at the start."""
    probe = game.evaluation_features(game.new_initial_state(game.spec.defaults(), 0), 0)
    if probe is None:
        raise ValueError(f"{game.name} declares no evaluation features (GameDef.evaluation_features)")
    return list(probe)


def weights_vector(game: Any, name: str, study: str | Path | None = None) -> list[float]:
    """The weights of file ``name`` as a native core reads them: one number per declared feature, in the
    features' order (a feature the file leaves out weighs 0, as in the Python sum); a weight naming a feature
    the game does not have is refused."""
    weights = load_weights(game, name, study)
    names = feature_names(game)
    unknown = sorted(set(weights) - set(names) - set(game.evaluation_weights(game.spec.defaults())))
    if unknown:
        raise ValueError(f"eval={name}: {game.name} has no evaluation feature {unknown[0]!r}")
    return [weights.get(k, 0.0) for k in names]


__all__ = ["MAX_BYTES", "NAME", "available_weights", "feature_names", "load_weights", "weights_folders", "weights_vector"]
