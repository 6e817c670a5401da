"""Scoring: gate matching, re-derivation, comparison, aggregation, signals, decision and the report."""

from evalscore.scoring.aggregate import Aggregate, compute_rates, empty, merge
from evalscore.scoring.compare import Disagreement, compare_step
from evalscore.scoring.decision import Thresholds, decide
from evalscore.scoring.engine import ModelRuns, Partial, SourcedRun, build_report, merge_partials, score, score_run
from evalscore.scoring.gate_matching import OrderingUnobserved, match_mandated
from evalscore.scoring.join import SuiteIndex, index_suites, join_run
from evalscore.scoring.rederive import Rederived, StepPlace, rederive_step
from evalscore.scoring.refusal import Refusal
from evalscore.scoring.report import InputRef, ScoreReport, parse_report, report_json_schema
from evalscore.scoring.signals import SignalParams, Signals, merge_signals, signals_of

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
