"""Position evaluation for the AI agents, built on the rulebook's AI material weights.

The weights (feudal 1000, knight 4.5, cavalry 3.5, pikeman 3, archer 2, infantry 1) are data in
``workbench/games/terrafeud/data/terrafeud.json`` under ``ai_weights``, so a designer can change them without code.

``material`` is what the greedy agent and the simulation's ``eval_white`` column use.
``evaluate`` adds what a one-ply material count cannot see and the search needs: pikeman zones,
markers (ultimatums and mines), the feudal's safety and progress towards the enemy castle.
It deliberately leaves tactics to the search: no exchange analysis here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from workbench.games.terrafeud.engine import GameState
from workbench.games.terrafeud.engine.board import board_data
from workbench.games.terrafeud.engine.geometry import ADJACENT, DISTANCE, WITHIN
from workbench.games.terrafeud.engine.pieces import ARCHER, FEUDAL, INFANTRY, KIND_BY_LETTER, KIND_NAMES, PIKEMAN

WIN_SCORE = 100_000.0  # a finished game dwarfs any material count

# The positional terms of ``evaluate``, in material units. One table for both engines: the native
# agents receive it (and the data file's ``ai_weights``) from here, so the two never drift apart.
TERMS: dict[str, float] = {
    "ultimatum": 0.5,  # share of a marked piece's weight lost (it must leave or die)
    "ultimatum_cap": 5.0,  # ... counted at most at this weight (a marked feudal is not 500 down)
    "zone": 0.1,  # a non-pikeman standing in an enemy pikeman zone
    "advance": 0.06,  # per hex nearer the enemy castle centre than 10 hexes
    "advance_base": 10.0,
    "aura": 0.05,  # per own infantryman within 2 of the own feudal
    "mine": 0.2,  # per own marker next to the enemy feudal
    "threat_mover": 3.0,  # own feudal threatened (W10) with the move to parry
    "threat_waiting": 40.0,  # feudal threatened and the opponent to move
}


@lru_cache(maxsize=1)
def piece_weights() -> tuple[float, ...]:
    """Weight per piece code (index ``kind | side << 3``), from the data file's ``ai_weights``."""
    raw = board_data()["ai_weights"]
    by_kind = [0.0] * 8
    for letter, w in raw.items():
        by_kind[KIND_BY_LETTER[letter]] = float(w)
    return tuple(by_kind + by_kind)


def material(state: GameState, side: int) -> float:
    """Sum of the AI weights of ``side``'s pieces minus the opponent's (feudal counted)."""
    w = piece_weights()
    total = 0.0
    for c in state.squares:
        if c:
            total += w[c] if c >> 3 == side else -w[c]
    return total


def material_white(state: GameState) -> float:
    """``material`` from White's view: the simulation's ``eval_white``."""
    return material(state, 0)


def terminal_score(state: GameState, side: int) -> float:
    """Score of a finished game for ``side``: a win, a loss (sooner is stronger) or 0."""
    if state.winner is None:
        return 0.0
    sign = 1.0 if state.winner == side else -1.0
    return sign * (WIN_SCORE - state.ply)


def evaluate(state: GameState, side: int) -> float:
    """Heuristic value of the position for ``side`` (higher is better), in material units.

    Terms, each small next to a piece: material; an enemy marker on an own piece (an ultimatum)
    costs part of its weight, because the piece must leave or die; enemy pieces standing in own
    pikeman zones are held back; pieces near the enemy castle centre threaten a castle victory;
    infantry near the own feudal keeps the aura and the Order available; and a feudal under
    threat (W10) is a big debt for the side not to move, a lesser one for the side to move.
    """
    if state.victory is not None:
        return terminal_score(state, side)
    w = piece_weights()
    t = TERMS
    sq = state.squares
    board = state.board
    score = material(state, side)
    for s, sign in ((side, 1.0), (1 - side, -1.0)):
        e = 1 - s
        centre_e = board.castle_centre[e]
        zone_e = state.zone(e)
        ultimatum = set(state.markers[e].values())
        f = state.feudal[s]
        inf = INFANTRY | (s << 3)
        part = 0.0
        for h in range(91):
            c = sq[h]
            if not c or c >> 3 != s:
                continue
            k = c & 7
            if h in ultimatum:
                part -= t["ultimatum"] * min(w[c], t["ultimatum_cap"])
            if h in zone_e and k != PIKEMAN:
                part -= t["zone"]
            if k != FEUDAL:
                part += t["advance"] * (t["advance_base"] - DISTANCE[h][centre_e])
            if k == ARCHER:
                for n in ADJACENT[h]:
                    cn = sq[n]
                    if cn and cn >> 3 == e:
                        part -= w[c]  # an archer next to an enemy dies at the next trigger pass
                        break
        if f >= 0:
            part += t["aura"] * sum(1 for i in WITHIN[f][2] if sq[i] == inf)
        fe = state.feudal[e]
        if fe >= 0:
            part += t["mine"] * sum(1 for m in state.markers[s].values() if DISTANCE[m][fe] == 1)  # mines hem it in
        score += sign * part
    for s, sign in ((side, 1.0), (1 - side, -1.0)):
        if state.feudal[s] >= 0 and state.is_threatened(s):
            score -= sign * (t["threat_mover"] if s == state.to_move else t["threat_waiting"])
    return score


#: ``GameDef.evaluation_features``' names, in order: a count per kind but the feudal, then ``position``
FEATURES: tuple[str, ...] = (*(name for k, name in KIND_NAMES.items() if k != FEUDAL), "position")


def features(state: GameState, side: int) -> list[float]:
    """The evaluation features (``FEATURES``' order) of ``side``: own count minus the enemy's per kind but the
    feudal (its loss ends the game), then ``position``, the rest of ``evaluate`` in material units
    (``evaluate - material``, 0 once the game is over). Under the hand weights their sum is ``evaluate``."""
    counts = {k: 0 for k in KIND_NAMES if k != FEUDAL}
    for c in state.squares:
        if c and (c & 7) in counts:
            counts[c & 7] += 1 if c >> 3 == side else -1
    out = [float(v) for v in counts.values()]
    out.append(0.0 if state.victory is not None else evaluate(state, side) - material(state, side))
    return out


class LearnedEvaluation:
    """``eval=NAME`` for the tuned agents: the weights file's sum over ``features`` replaces ``evaluate`` (a
    finished game still scores ``terminal_score``). Summed in order from 0, as the generic agents' learned sum
    and the native core's (``eval::evaluate`` with learned weights) are, so all three give the same float."""

    def __init__(self, name: str, weights: Sequence[float]) -> None:
        if len(weights) != len(FEATURES):
            raise ValueError(f"eval={name}: {len(weights)} weights for {len(FEATURES)} features")
        self.name = name
        self.weights = tuple(float(w) for w in weights)

    def __call__(self, state: GameState, side: int) -> float:
        if state.victory is not None:
            return terminal_score(state, side)
        total = 0.0
        for w, f in zip(self.weights, features(state, side), strict=True):
            total += w * f
        return total


def learned_or_hand(who: str, learned: object) -> tuple[LearnedEvaluation | None, Callable[[GameState, int], float]]:
    """A tuned agent's ``learned`` parameter (None or a ``LearnedEvaluation``, resolved from ``eval=NAME``) and
    the evaluation its search scores leaves with."""
    if learned is None:
        return None, evaluate
    if not isinstance(learned, LearnedEvaluation):
        raise ValueError(f"{who}: learned weights are chosen by name (eval=NAME), not {type(learned).__name__}")
    return learned, learned


def learned_evaluation(game: Any, name: str) -> LearnedEvaluation:
    """The weights file ``name`` of ``game`` (TerraFeud's ``GameDef``; by name: the study's folder, then its
    ``data/weights``; ``core.weights``' checks) as the tuned agents' evaluation."""
    from workbench.core.weights import weights_vector

    if game is None:
        raise ValueError(f"eval={name}: learned weights need the game whose features they weigh")
    return LearnedEvaluation(name, weights_vector(game, name))


__all__ = ["FEATURES", "TERMS", "WIN_SCORE", "LearnedEvaluation", "evaluate", "features", "learned_evaluation", "learned_or_hand",
           "material", "material_white", "piece_weights", "terminal_score"]
