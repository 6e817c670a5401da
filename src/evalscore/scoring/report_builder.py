"""The report of a scoring: merged partials in, one ``ScoreReport`` value out, decision included.

Refusals (missing ordering, unknown suite/task/step, a recorded model that is not the one asked
for) are data in the report. The rates are printed over the derivable steps, with the refused ones
counted and what they could add to each rate's denominator (``refused_at_most``): a check they could
flip is refused (exit 4), one they could not is decided (``decision``, ``refused_bounds``), so a pass
or fail never vouches for steps nobody could score. Every counted failure of a rate is listed as a
violation (``step_violations``, ``violations``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

from evalscore.scoring import aggregate as agg
from evalscore.scoring.compare import Disagreement
from evalscore.scoring.decision import Scope, Scored, decide
from evalscore.scoring.engine import score_run
from evalscore.scoring.intervals import DEFAULT_CONFIDENCE, Proportion, dimension_proportion, rate_proportion
from evalscore.scoring.join import index_suites
from evalscore.scoring.partials import DEFAULT_LISTED, ModelRuns, Partial, RefusalTally, sum_partials
from evalscore.scoring.refusal import (
    SCORING_MODELS_MIXED,
    Refusal,
)
from evalscore.scoring.repeated_runs import RepeatedRuns
from evalscore.scoring.report import (
    Counts,
    DisagreementEntry,
    InputRef,
    LatencyHistogram,
    RateCount,
    RateInterval,
    Rates,
    RecallCount,
    RefusalEntry,
    ScoreReport,
    SignalsReport,
    SignalThresholds,
    Source,
    SuiteRef,
    ToolMatchCount,
    ToolSignal,
    ToolUnresolved,
)
from evalscore.scoring.report_entries import gated_entry, listed_violations, violation_counts, violation_entry
from evalscore.scoring.signals import LATENCY_EDGES_MS, SignalParams, Signals
from evalscore.scoring.sourced_run import SourcedRun
from evalscore.scoring.thresholds import Thresholds
from evalscore.sources import source_order
from evalscore.version import __version__
from evalscore.vocabulary import DEFAULT_MODEL, ScoringModel

if TYPE_CHECKING:
    from evalscore.models.suite import EvalSuite


def _number(value: Any) -> float:
    return float(value)


def interval_entry(side: Proportion | None) -> RateInterval | None:
    if side is None:
        return None
    interval = side.interval
    return RateInterval(low=interval.low, high=interval.high, confidence=interval.confidence, method=interval.method)


def rate_interval(rate: str, ratio: agg.Ratio, confidence: float) -> RateInterval | None:
    """The rate's interval at ``confidence`` (``scoring.intervals``); None when its denominator is 0."""
    return interval_entry(rate_proportion(rate, ratio.numerator, ratio.denominator, confidence))


def rate_count(rate: str, ratio: agg.Ratio, confidence: float, refused_at_most: int | None = 0) -> RateCount:
    return RateCount(
        numerator=_number(ratio.numerator),
        denominator=_number(ratio.denominator),
        interval=rate_interval(rate, ratio, confidence),
        refused_at_most=refused_at_most,
    )


def refused_at_most(total: agg.Aggregate) -> dict[str, int | None]:
    """The most the refused steps could add to each auto-score rate's denominator (None: no bound)."""
    unbounded = total.refused_unbounded > 0
    return {
        "mandated_compliance_rate": None if unbounded else total.refused_gated_calls,
        "discretionary_ask_precision": None if unbounded else total.refused_questions,
        "discretionary_blocker_recall": None if unbounded else total.refused_blockers,
        "tool_match_accuracy": total.refused_steps,
        "distraction_detection_rate": total.refused_distraction,
    }


def dimension_count(ratio: agg.Ratio, confidence: float) -> RateCount:
    return RateCount(
        numerator=_number(ratio.numerator),
        denominator=_number(ratio.denominator),
        interval=interval_entry(dimension_proportion(ratio.numerator, ratio.denominator, confidence)),
    )


def rates_section(rates: agg.Rates) -> Rates:
    return Rates(
        mandated_compliance_rate=rates.mandated_compliance_rate.value,
        discretionary_ask_precision=rates.discretionary_ask_precision.value,
        discretionary_blocker_recall=rates.discretionary_blocker_recall.value,
        tool_match_accuracy=rates.tool_match_accuracy.value,
        distraction_detection_rate=rates.distraction_detection_rate.value,
        golden_truth_pass_rate=rates.golden_truth_pass_rate.value,
        dimension_means={dimension: ratio.value for dimension, ratio in rates.dimension_means},
        prefilled_ratio=rates.prefilled_ratio.value,
    )


def counts_section(
    total: agg.Aggregate, rates: agg.Rates, confidence: float = DEFAULT_CONFIDENCE, runs: int | None = None
) -> Counts:
    recall = rates.discretionary_blocker_recall
    tool = rates.tool_match_accuracy
    refused = refused_at_most(total)
    return Counts(
        runs=runs,
        total_steps=total.total_steps,
        reviewed_steps=total.reviewed_steps,
        unscored_steps=total.unscored_steps,
        refused_steps=total.refused_steps,
        scored_steps=total.scored_steps,
        mandated_compliance_rate=rate_count(
            "mandated_compliance_rate", rates.mandated_compliance_rate, confidence, refused["mandated_compliance_rate"]
        ),
        discretionary_ask_precision=rate_count(
            "discretionary_ask_precision",
            rates.discretionary_ask_precision,
            confidence,
            refused["discretionary_ask_precision"],
        ),
        discretionary_blocker_recall=RecallCount(
            numerator=_number(recall.numerator),
            denominator=_number(recall.denominator),
            interval=rate_interval("discretionary_blocker_recall", recall, confidence),
            refused_at_most=refused["discretionary_blocker_recall"],
            basis=rates.recall_basis,
        ),
        tool_match_accuracy=ToolMatchCount(
            numerator=_number(tool.numerator),
            denominator=_number(tool.denominator),
            interval=rate_interval("tool_match_accuracy", tool, confidence),
            refused_at_most=refused["tool_match_accuracy"],
            true=total.tool_match_true,
            partial=total.tool_match_partial,
            false=total.tool_match_false,
        ),
        distraction_detection_rate=rate_count(
            "distraction_detection_rate",
            rates.distraction_detection_rate,
            confidence,
            refused["distraction_detection_rate"],
        ),
        golden_truth_pass_rate=rate_count("golden_truth_pass_rate", rates.golden_truth_pass_rate, confidence),
        dimension_means={dimension: dimension_count(ratio, confidence) for dimension, ratio in rates.dimension_means},
        prefilled_ratio=rate_count("prefilled_ratio", rates.prefilled_ratio, confidence),
    )


def signals_section(signals: Signals, params: SignalParams) -> SignalsReport:
    return SignalsReport(
        resolved_gates=signals.resolved_gates,
        approvals=signals.approvals,
        denials=signals.denials,
        unresolved=signals.unresolved,
        without_overseer=signals.without_overseer,
        four_eyes=signals.four_eyes,
        latency_unavailable=signals.latency_unavailable,
        fast_approvals=signals.fast_approvals,
        fast_approvals_by_bound=signals.fast_approvals_by_bound,
        never_denied=signals.never_denied,
        # A tool is tallied only once an approval request naming it was approved or denied, so its
        # never_denied is never null: true iff none was denied.
        by_target_tool=[
            ToolSignal(target_tool=tool, approvals=approved, denials=denied, never_denied=denied == 0)
            for tool, approved, denied in signals.by_target_tool
        ],
        unresolved_by_target_tool=[
            ToolUnresolved(target_tool=tool, unresolved=count) for tool, count in signals.unresolved_by_target_tool
        ],
        approval_latencies=LatencyHistogram(
            edges_ms=list(LATENCY_EDGES_MS),
            counts=list(signals.approval_latency_bins or [0] * len(LATENCY_EDGES_MS)),
            unknown=signals.approval_latency_unknown,
        ),
        thresholds=SignalThresholds(
            fast_approval_floor_ms=params.floor_ms, fast_approval_ms_per_char=params.ms_per_char
        ),
    )


_DISAGREEMENT_FIELDS: Final = tuple(field.name for field in dataclasses.fields(Disagreement))


def disagreement_entry(item: Disagreement) -> DisagreementEntry:
    """The report's entry; its fields are copied as they are (``dataclasses.asdict`` deep-copies every
    recorded and re-derived value, five times the cost, for values the entry validates anyway)."""
    return DisagreementEntry(**{name: getattr(item, name) for name in _DISAGREEMENT_FIELDS})


def refusal_order(item: Refusal) -> tuple[str, int]:
    """The order refusals are listed in, whatever order the inputs were given or read in: by input and
    line, and, sorted stably, as met within one (the report of the same inputs is the same bytes;
    ``evalscore.ledger`` hashes it)."""
    return source_order(item.source)


def disagreement_order(item: Disagreement) -> tuple[str, int]:
    """As ``refusal_order``: the fields of one step stay in the order the comparison gives them."""
    return source_order(item.source)


_REFUSAL_FIELDS: Final = tuple(name for name in RefusalEntry.model_fields)


def refusal_entry(item: Refusal) -> RefusalEntry:
    """The report's entry (the bounds a refusal carries are counted in the aggregate, not listed)."""
    return RefusalEntry(**{name: getattr(item, name) for name in _REFUSAL_FIELDS})


def mixed_models_refusal(recorded_models: Sequence[ModelRuns]) -> Refusal | None:
    """Recorded figures from several scoring models cannot be added up into one rate."""
    if len(recorded_models) <= 1:
        return None
    detail = "; ".join(model_detail(runs) for runs in sorted(recorded_models, key=lambda runs: runs.model))
    return Refusal(
        code=SCORING_MODELS_MIXED,
        reason=(
            f"the recorded auto scores come from different scoring models ({detail}); their rates mix different "
            "gate rules. Score each model's runs separately, or give the suite(s) to re-derive them under one model"
        ),
        pointer="/scoring_model",
        steps=0,
    )


def model_detail(runs: ModelRuns) -> str:
    """``v1: a.json, c.json``; past the sources kept, ``v2: 12 runs (a.jsonl:1, ... and 2 more)``."""
    named = ", ".join(sorted(runs.sources))
    more = runs.runs - len(runs.sources)
    if more <= 0:
        return f"{runs.model}: {named}"
    return f"{runs.model}: {runs.runs:,} runs ({named} and {more:,} more)"


def refusal_summary(refusals: Sequence[Refusal], unlisted: RefusalTally = ()) -> list[str]:
    """One decision reason for all refusals, listed or not (the entries carry the detail)."""
    codes: Counter[str] = Counter(refusal.code for refusal in refusals)
    steps = sum(refusal.steps for refusal in refusals)
    for code, count, covered in unlisted:
        codes[code] += count
        steps += covered
    total = codes.total()
    if not total:
        return []
    kinds = ", ".join(f"{code}: {count}" for code, count in sorted(codes.items()))
    return [
        f"{total} refusal(s) ({kinds}) covering {steps} step(s): not derivable honestly, so excluded from every "
        "rate and listed; a check they could change is not decided (see refusals)"
    ]


def listed_refusals(refusals: Sequence[Refusal], unlisted: RefusalTally, listed: int) -> tuple[list[Refusal], int]:
    """The first ``listed`` refusals, and how many are not listed."""
    not_kept = sum(count for _, count, _ in unlisted)
    return list(refusals[:listed]), not_kept + max(len(refusals) - listed, 0)


def report_model(partial: Partial, rederived: bool, scoring_model: ScoringModel | None) -> ScoringModel | None:
    if rederived:
        return scoring_model or DEFAULT_MODEL
    if scoring_model is not None:
        return scoring_model
    models = [runs.model for runs in partial.recorded_models]
    return models[0] if len(models) == 1 else None


def report_notes(rederived: bool, model: ScoringModel | None) -> list[str]:
    if rederived:
        figures = (
            f"figures re-derived from the raw evidence under scoring model {model}; the recorded auto scores were "
            "compared with a re-derivation under each run's recorded scoring model"
        )
    else:
        figures = (
            "figures as recorded, not re-derived: no suite was given, so every rate is the producers' own auto score"
        )
    return [
        figures,
        "verification (content verifiers) is never re-derived: recorded values are carried, labelled as recorded",
        "oversight signals are reported, never graded: they do not affect the decision or the exit code",
    ]


def build_report(
    partial: Partial,
    *,
    rederived: bool,
    scoring_model: ScoringModel | None = None,
    thresholds: Thresholds | None = None,
    baseline: ScoreReport | str | None = None,
    signal_params: SignalParams | None = None,
    inputs: Sequence[InputRef] = (),
    listed: int = DEFAULT_LISTED,
) -> ScoreReport:
    """Turn a merged partial into the report value, decision included; each list holds at most ``listed``."""
    thresholds = thresholds or Thresholds()
    params = signal_params or SignalParams()
    refusals = sorted(partial.refusals, key=refusal_order)
    mixed = None
    if not rederived and scoring_model is None:
        mixed = mixed_models_refusal(partial.recorded_models)
        if mixed is not None:
            refusals.append(mixed)
    model = report_model(partial, rederived, scoring_model)
    computed = agg.compute_rates(partial.aggregate)
    rates = rates_section(computed)
    suites = tuple(SuiteRef(id=suite_id, version=version) for suite_id, version in sorted(partial.suites))
    source: Source = "rederived" if rederived else "recorded"
    runs = sum(runs.runs for runs in partial.recorded_models)
    counts = counts_section(partial.aggregate, computed, thresholds.confidence, runs)
    decision = decide(
        rates,
        thresholds,
        scope=Scope(source=source, scoring_model=model, suites=suites, mixed_models=mixed is not None),
        refusal_reasons=refusal_summary(refusals, partial.unlisted_refusals),
        disagreements=len(partial.disagreements) + partial.unlisted_disagreements,
        baseline=baseline,
        scored=Scored(
            steps=partial.aggregate.total_steps,
            refused=partial.aggregate.refused_steps,
            auto_scored=partial.aggregate.scored_steps,
            reviewed=partial.aggregate.reviewed_steps,
        ),
        counts=counts,
    )
    inputs = sorted(inputs, key=lambda entry: (entry.path, entry.kind, entry.sha256))
    paths = [entry.path for entry in inputs]
    shown_refusals, unlisted_refusals = listed_refusals(refusals, partial.unlisted_refusals, listed)
    disagreements = sorted(partial.disagreements, key=disagreement_order)
    violations = listed_violations(partial.violations, listed)
    gated = sorted(partial.gated_steps, key=lambda step: source_order(step.source))
    return ScoreReport(
        evalscore_version=__version__,
        inputs=inputs,
        source=source,
        scoring_model=model,
        suites=list(suites),
        notes=report_notes(rederived, model),
        rates=rates,
        counts=counts,
        signals=signals_section(partial.signals, params),
        disagreements=[disagreement_entry(item) for item in disagreements[:listed]],
        unlisted_disagreements=partial.unlisted_disagreements + max(len(disagreements) - listed, 0),
        refusals=[refusal_entry(item) for item in shown_refusals],
        unlisted_refusals=unlisted_refusals,
        violations=[violation_entry(item, paths) for item in violations],
        violation_counts=violation_counts(partial.violations, partial.unlisted_violations, len(violations)),
        mandated_steps=[gated_entry(item, paths) for item in gated[:listed]],
        unlisted_mandated_steps=partial.unlisted_gated_steps + max(len(partial.gated_steps) - listed, 0),
        decision=decision,
    )


def score(
    runs: Iterable[SourcedRun],
    suites: Sequence[EvalSuite] = (),
    *,
    scoring_model: ScoringModel | None = None,
    thresholds: Thresholds | None = None,
    baseline: ScoreReport | str | None = None,
    signal_params: SignalParams | None = None,
    inputs: Sequence[InputRef] = (),
    listed: int = DEFAULT_LISTED,
) -> ScoreReport:
    """Score parsed runs, re-deriving against ``suites`` when any are given.

    ``scoring_model``: with suites, the model to re-derive under (None -> v3);
    without suites, None aggregates each run under its recorded model, and a
    model given refuses runs recorded under another. ``baseline`` is an
    earlier report (``parse_report``) or a string saying why the one given
    could not be read (then the decision is refused); each of the report's lists
    holds at most ``listed``.
    """
    index = index_suites(suites) if suites else None
    params = signal_params or SignalParams()
    with RepeatedRuns() as repeated:
        partials = (
            repeated.refusal(run) or score_run(run, index=index, scoring_model=scoring_model, signal_params=params)
            for run in runs
        )
        merged = sum_partials(partials)
    return build_report(
        merged,
        rederived=index is not None,
        scoring_model=scoring_model,
        thresholds=thresholds,
        baseline=baseline,
        signal_params=params,
        inputs=inputs,
        listed=listed,
    )
