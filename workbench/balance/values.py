"""What pieces are worth under this variant: a learned weights file (``workbench learn``) read for designers.

Each feature's learned value, in the game's evaluation unit (its log-odds weight over the log-odds of one
unit of the hand evaluation), with the bootstrap's 95% interval (whole games resampled), beside the hand
weight the agents use by default ("the rulebook's"), and whether that default lies outside the interval.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd


def _num(x: Any) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def values_frame(doc: dict[str, Any]) -> pd.DataFrame:
    """One row per feature: learned value [interval], the hand default, the change, and a flag when it moved."""
    rows = []
    if not doc.get("units", True):
        return pd.DataFrame([{"feature": name, "learned (log-odds)": f"{_num(v.get('weight')):+.3f} "
                              f"[{_num(v.get('weight_low')):+.3f}, {_num(v.get('weight_high')):+.3f}]",
                              "default": "–" if v.get("default") is None else f"{_num(v.get('default')):g}"}
                             for name, v in doc.get("values", {}).items()])
    for name, v in doc.get("values", {}).items():
        value, lo, hi, default = (_num(v.get(k)) for k in ("value", "value_low", "value_high", "default"))
        moved = not math.isnan(default) and not (lo <= default <= hi)
        rows.append({"feature": name, "learned": f"{value:.2f} [{lo:.2f}, {hi:.2f}]",
                     "default": "–" if math.isnan(default) else f"{default:g}",
                     "change": "–" if math.isnan(default) else f"{value - default:+.2f}",
                     "default outside the interval": "yes" if moved else "no"})
    return pd.DataFrame(rows)


def values_lines(doc: dict[str, Any]) -> list[str]:
    """The section's sentences: how the values were fitted, each value, and what moved (or that nothing did)."""
    unit = doc.get("unit") or "the game's evaluation units"
    variant = doc.get("rules") or "the rulebook's rules"
    lo, hi = doc.get("scale_interval", [math.nan, math.nan])
    lines = [f"Learned from {doc.get('games')} self-play games of {doc.get('agent')} under {variant} "
             f"({doc.get('positions')} positions, {doc.get('rounds')} refit round(s) with the learned weights), "
             f"by logistic regression of the result on the game's declared evaluation features; values in {unit} "
             f"(a feature's log-odds weight over the {float(doc.get('scale', math.nan)):.3f} [{float(lo):.3f}, "
             f"{float(hi):.3f}] log-odds of one unit of the hand evaluation), with 95% intervals from "
             f"{doc.get('boot')} bootstrap resamples of whole games."]
    moved = []
    if not doc.get("units", True):
        wrong = float(hi) < 0
        lines[0] += ((" The hand evaluation predicts these games' results the wrong way (its scale's whole interval "
                      "lies below 0: the side it favours loses more often)" if wrong else
                      " The hand evaluation does not clearly predict these games' results (its scale's interval "
                      "reaches 0)")
                     + ", so no value is put in the game's unit: the weights below are log-odds per unit of each "
                     "feature, and no default can be set against them.")
        for name, v in doc.get("values", {}).items():
            lines.append(f"{name} {_num(v.get('weight')):+.3f} [{_num(v.get('weight_low')):+.3f}, "
                         f"{_num(v.get('weight_high')):+.3f}] log-odds per unit under {variant}.")
        return lines + _versus(doc)
    for name, v in doc.get("values", {}).items():
        value, vlo, vhi, default = (_num(v.get(k)) for k in ("value", "value_low", "value_high", "default"))
        against = "" if math.isnan(default) else f", against {default:g} by the rulebook's weights"
        lines.append(f"{name} {value:.2f} [{vlo:.2f}, {vhi:.2f}] under {variant}{against}.")
        if not math.isnan(default) and not (vlo <= default <= vhi):
            moved.append(name)
    if doc.get("unseen"):
        lines.append(f"Not seen varying in these games (no value learned): {', '.join(doc['unseen'])}.")
    lines.append(f"Values whose default lies outside the learned interval: {', '.join(moved)}." if moved else
                 "No learned value moves outside its interval from the default: at this strength and sample the "
                 "hand weights are not contradicted.")
    return lines + _versus(doc)


def _versus(doc: dict[str, Any]) -> list[str]:
    if "versus" not in doc:
        return []
    v = doc["versus"]
    return [f"The agent with these weights against the same agent with the hand weights: score "
            f"{100 * v['upper_score']:.1f}% [{100 * v['score_lo']:.1f}, {100 * v['score_hi']:.1f}] over "
            f"{v['games']} games, seats alternated."]


def values_section(doc: dict[str, Any]) -> Any:
    """The report's section "What pieces are worth under this variant"."""
    from .report import Section

    return Section("What pieces are worth under this variant", values_lines(doc), values_frame(doc))


__all__ = ["values_frame", "values_lines", "values_section"]
