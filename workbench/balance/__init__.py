"""Balance statistics on simulation tables: per-cell summaries with intervals, comparisons, SPRT, reports.

Consumes the DataFrames written by ``workbench.simulate``; knows nothing of the engine's internals.

    from workbench.balance import summarize_cells, compare_toggles, build_report
    summary = summarize_cells(games)
    for c in compare_toggles(games):
        print(c.verdict())
    build_report(games, events).write("out/")   # with response curves and the "Rule usage" section
"""

from .cells import cell_columns, per_game_event_measures, summarize_cells
from .compare import Comparison, compare, compare_toggles, comparisons_table, simulation_runner, sprt_variant
from .curves import curve_parameters, response_curve
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
from .usage import rule_association, rule_locations, usage_changes, usage_summary

__all__ = [
    "BalanceError", "Comparison", "Report", "SPRTResult", "adjust", "benjamini_hochberg", "bootstrap_difference",
    "build_report", "cell_columns", "compare", "compare_proportions", "compare_toggles", "comparisons_table",
    "curve_parameters", "fisher_exact_p", "holm", "mean_interval", "newcombe_interval", "per_game_event_measures",
    "response_curve", "rule_association", "rule_locations", "simulation_runner", "sprt", "sprt_variant",
    "summarize_cells", "usage_changes", "usage_summary", "wilson_interval", "write_report",
]
