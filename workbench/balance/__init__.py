"""Balance statistics on simulation tables: per-cell summaries with intervals, comparisons, SPRT, reports.

Consumes the DataFrames written by ``workbench.simulate`` (any game: see ``table`` for the contract);
knows nothing of an engine. Three quantities are kept apart everywhere: advantage (the first seat's
share of decided games), decisiveness (share decided) and length (Kaplan-Meier, the cap censored).

    from workbench.balance import summarize_cells, compare_toggles, build_report, games_needed
    games_needed(diff=0.05, power=0.8)          # 1565 games a side to see 5 points around 50%
    summary = summarize_cells(games)            # advantage, decisiveness, length, verdict per cell
    for c in compare_toggles(games):
        print(c.verdict())                      # "Winter: games are more decisive (...); White's share ..."
    build_report(games, events).write("out/")   # the cap at the top, flags, curves, skill, rule usage
"""

from .cells import cell_columns, per_game_event_measures, summarize_cells
from .compare import Comparison, compare, compare_toggles, comparisons_table, simulation_runner, sprt_variant
from .curves import curve_parameters, response_curve
from .power import detectable_difference, games_needed, plan_grid
from .report import Report, build_report, write_report
from .stats import (
    BalanceError,
    SPRTResult,
    adjust,
    benjamini_hochberg,
    bootstrap_difference,
    compare_proportions,
    fisher_exact_p,
    holm,
    mean_interval,
    newcombe_interval,
    sprt,
    wilson_interval,
)
from .survival import compare_lengths, km_median, length_summary
from .table import UNFINISHED_THRESHOLD, Study, normalize, study_of
from .usage import rule_association, rule_locations, usage_changes, usage_matrix, usage_summary

__all__ = [
    "BalanceError", "Comparison", "Report", "SPRTResult", "adjust", "benjamini_hochberg", "bootstrap_difference",
    "build_report", "cell_columns", "compare", "compare_proportions", "compare_toggles", "comparisons_table",
    "curve_parameters", "fisher_exact_p", "holm", "mean_interval", "newcombe_interval", "per_game_event_measures",
    "response_curve", "rule_association", "rule_locations", "simulation_runner", "sprt", "sprt_variant",
    "summarize_cells", "usage_changes", "usage_summary", "wilson_interval", "write_report",
    "UNFINISHED_THRESHOLD", "Study", "compare_lengths", "detectable_difference",
    "games_needed", "km_median", "length_summary", "normalize", "plan_grid", "study_of", "usage_matrix",
]
