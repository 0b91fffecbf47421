"""Learned evaluation weights: a file of ``workbench learn`` that a generic agent searches with (``eval=NAME``;
a game's own agent may take the same name and sum the same features itself, as TerraFeud's tuned searchers do).

``alphabeta:eval=pole-down.json`` replaces the game's hand evaluation by ``sum(weight * feature)`` over the
features the game declares (``GameDef.evaluation_features``), in log-odds of winning. A file is chosen by
*name*, never by a path: it is looked up in the study's folder (the current directory) and then in the
game's own folder (``data/weights/``), so a page or a spec cannot open a file the user did not name.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench.core.weights import MAX_BYTES, NAME, available_weights, feature_names, load_weights, weights_folders


class LearnedEvaluation:
    """``sum(weight * feature)`` over the game's declared features, from one player's side (log-odds)."""

    def __init__(self, game: Any, weights: Mapping[str, float], name: str = "") -> None:
        self.game = game
        self.weights = dict(weights)
        self.name = name

    def __call__(self, state: Any, player: int) -> float:
        features = self.game.evaluation_features(state, player)
        if features is None:
            raise ValueError(f"{self.game.name} declares no evaluation features (GameDef.evaluation_features)")
        w = self.weights
        return float(sum(w.get(k, 0.0) * v for k, v in features.items()))


def learned_evaluation(game: Any, name: str, study: str | Path | None = None) -> LearnedEvaluation:
    """The evaluation of weights file ``name``; ``ValueError`` when the game declares no features or a weight
    names a feature the game does not have."""
    weights = load_weights(game, name, study)
    rules = game.spec.defaults()
    try:
        probe = feature_names(game)
    except ValueError:
        raise ValueError(f"eval={name}: {game.name} declares no evaluation features (GameDef.evaluation_features)") from None
    unknown = sorted(set(weights) - set(probe) - set(game.evaluation_weights(rules)))
    if unknown:
        raise ValueError(f"eval={name}: {game.name} has no evaluation feature {unknown[0]!r}")
    return LearnedEvaluation(game, weights, name)


__all__ = ["MAX_BYTES", "NAME", "LearnedEvaluation", "available_weights", "learned_evaluation", "load_weights", "weights_folders"]
