"""Rule-usage telemetry (issue 12): which rule fired, for which side, where.

``GameState.counters`` is a flat list of ``2 * len(RULES)`` ints, index ``2 * i + side`` (0 White,
1 Black); ``GameState.fired`` lists ``(rule, side, hex or -1)`` for the last applied action in
firing order. Both are restored by ``undo`` and copied by ``clone``. What fires each rule, and which
side is credited, is specified in ``docs/rulings.md`` ("Rule-usage telemetry"); the native core
ports it exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

from .geometry import HEX_NAMES

RULES: tuple[str, ...] = (
    "bridge_stop",
    "ford_stop",
    "zone_stop",
    "swamp_stop",
    "shot",
    "hill_shot",
    "mine_kill",
    "ultimatum_kill",
    "coordinated_kill",
    "archer_melee_death",
    "zone_attack",
    "aura_move",
    "order",
    "castling",
    "promotion",
    "pass",
    "pike_cavalry_mutual",
    "threat",
    # promotion by the kind chosen (fires together with "promotion")
    "promotion_knight",
    "promotion_pikeman",
    "promotion_cavalry",
    "promotion_archer",
    "promotion_infantryman",
)
RULE_INDEX: dict[str, int] = {name: i for i, name in enumerate(RULES)}
N_COUNTERS = 2 * len(RULES)
# Spatial rules: their hex is meaningful for heatmaps (the others fire with hex -1 or a feudal's hex).
SPATIAL_RULES: tuple[str, ...] = (
    "bridge_stop", "ford_stop", "zone_stop", "swamp_stop", "shot", "hill_shot", "mine_kill",
    "ultimatum_kill", "coordinated_kill", "archer_melee_death", "zone_attack", "aura_move",
)
# PROMOTION_RULE[kind]: the per-kind promotion counter of a piece kind (kinds as in pieces.py).
PROMOTION_RULE: dict[int, str] = {
    2: "promotion_knight", 3: "promotion_pikeman", 4: "promotion_cavalry", 5: "promotion_archer",
    6: "promotion_infantryman",
}


def counters_dict(counters: Sequence[int]) -> dict[str, list[int]]:
    """``{rule: [white, black]}`` of a flat counters list (the state_to_dict form)."""
    return {name: [counters[2 * i], counters[2 * i + 1]] for i, name in enumerate(RULES)}


def counters_from_dict(data: object) -> list[int]:
    """Inverse of ``counters_dict``; missing rules count zero. Raises ``ValueError`` naming the rule."""
    out = [0] * N_COUNTERS
    if data is None:
        return out
    if not isinstance(data, dict):
        raise ValueError("counters must map rule names to [white, black] counts")
    for name, pair in data.items():
        if name not in RULE_INDEX:
            raise ValueError(f"counters: unknown rule {str(name)[:40]!r}; known: {', '.join(RULES)}")
        if (
            not isinstance(pair, (list, tuple)) or len(pair) != 2
            or not all(type(x) is int and 0 <= x < 10**9 for x in pair)
        ):
            raise ValueError(f"counters {name}: must be [white, black], two counts >= 0")
        i = RULE_INDEX[name]
        out[2 * i], out[2 * i + 1] = pair
    return out


def fired_text(fired: Sequence[tuple[str, int, int]]) -> str:
    """The events table's ``rules`` field: ``"shot@d4,threat@f1"`` (no ``@`` for hex -1)."""
    return ",".join(f"{r}@{HEX_NAMES[h]}" if h >= 0 else r for r, _, h in fired)


__all__ = [
    "N_COUNTERS", "PROMOTION_RULE", "RULES", "RULE_INDEX", "SPATIAL_RULES", "counters_dict",
    "counters_from_dict", "fired_text",
]
