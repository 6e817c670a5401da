"""Scoring: gate matching, re-derivation, comparison, aggregation, signals, decision and the report.

Each name is imported on first use: a forked worker that scores checked dicts imports this package's
dict scorer, and must not pay for (nor need) the models and pydantic that the rest imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from evalscore.lazy_names import imported_on_first_use

if TYPE_CHECKING:
    from evalscore.scoring.aggregate import Aggregate, compute_rates, empty, merge
    from evalscore.scoring.compare import Disagreement, compare_step
    from evalscore.scoring.decision import decide
    from evalscore.scoring.engine import score_run
    from evalscore.scoring.gate_matching import OrderingUnobserved, match_mandated
    from evalscore.scoring.join import SuiteIndex, index_suites, join_run
    from evalscore.scoring.partials import ModelRuns, Partial, merge_partials
    from evalscore.scoring.rederive import Rederived, StepPlace, rederive_step
    from evalscore.scoring.refusal import Refusal
    from evalscore.scoring.report import InputRef, ScoreReport, parse_report, report_json_schema
    from evalscore.scoring.report_builder import build_report, score
    from evalscore.scoring.signals import SignalParams, Signals, merge_signals, signals_of
    from evalscore.scoring.sourced_run import SourcedRun
    from evalscore.scoring.thresholds import Thresholds

_PUBLIC: Final[dict[str, str]] = {
    "Aggregate": "evalscore.scoring.aggregate",
    "Disagreement": "evalscore.scoring.compare",
    "InputRef": "evalscore.scoring.report",
    "ModelRuns": "evalscore.scoring.partials",
    "OrderingUnobserved": "evalscore.scoring.gate_matching",
    "Partial": "evalscore.scoring.partials",
    "Rederived": "evalscore.scoring.rederive",
    "Refusal": "evalscore.scoring.refusal",
    "ScoreReport": "evalscore.scoring.report",
    "SignalParams": "evalscore.scoring.signals",
    "Signals": "evalscore.scoring.signals",
    "SourcedRun": "evalscore.scoring.sourced_run",
    "StepPlace": "evalscore.scoring.rederive",
    "SuiteIndex": "evalscore.scoring.join",
    "Thresholds": "evalscore.scoring.thresholds",
    "build_report": "evalscore.scoring.report_builder",
    "compare_step": "evalscore.scoring.compare",
    "compute_rates": "evalscore.scoring.aggregate",
    "decide": "evalscore.scoring.decision",
    "empty": "evalscore.scoring.aggregate",
    "index_suites": "evalscore.scoring.join",
    "join_run": "evalscore.scoring.join",
    "match_mandated": "evalscore.scoring.gate_matching",
    "merge": "evalscore.scoring.aggregate",
    "merge_partials": "evalscore.scoring.partials",
    "merge_signals": "evalscore.scoring.signals",
    "parse_report": "evalscore.scoring.report",
    "rederive_step": "evalscore.scoring.rederive",
    "report_json_schema": "evalscore.scoring.report",
    "score": "evalscore.scoring.report_builder",
    "score_run": "evalscore.scoring.engine",
    "signals_of": "evalscore.scoring.signals",
}

__all__ = [
    "Aggregate",
    "Disagreement",
    "InputRef",
    "ModelRuns",
    "OrderingUnobserved",
    "Partial",
    "Rederived",
    "Refusal",
    "ScoreReport",
    "SignalParams",
    "Signals",
    "SourcedRun",
    "StepPlace",
    "SuiteIndex",
    "Thresholds",
    "build_report",
    "compare_step",
    "compute_rates",
    "decide",
    "empty",
    "index_suites",
    "join_run",
    "match_mandated",
    "merge",
    "merge_partials",
    "merge_signals",
    "parse_report",
    "rederive_step",
    "report_json_schema",
    "score",
    "score_run",
    "signals_of",
]

__getattr__, __dir__ = imported_on_first_use(globals(), _PUBLIC)
