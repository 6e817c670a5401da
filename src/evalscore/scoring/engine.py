"""The scoring engine: parsed runs and suites in, one ``ScoreReport`` value out.

With suites, every step's auto score is re-derived from the evidence under
``scoring_model`` (default v3) and the recorded auto score is compared with a
re-derivation under the run's *recorded* model. Without suites, the recorded
auto scores are aggregated and labelled as recorded. Work splits per run into
``Partial`` values that merge, so runs can be scored in several processes.

Refusals (missing ordering, unknown suite/task/step, a recorded model that is
not the one asked for) are data in the report. The rates are printed over the
derivable steps, with the refused ones counted and what they could add to each
rate's denominator (``refused_at_most``): a check they could flip is refused
(exit 4), one they could not is decided (``decision``, ``refused_bounds``), so a
pass or fail never vouches for steps nobody could score. Every counted failure
of a rate is listed as a violation (``step_violations``, ``violations``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from evalscore.scoring import aggregate as agg
from evalscore.scoring.compare import Disagreement, compare_step
from evalscore.scoring.decision import Scope, Scored, decide
from evalscore.scoring.intervals import DEFAULT_CONFIDENCE, Proportion, dimension_proportion, rate_proportion
from evalscore.scoring.join import JoinedStep, SuiteIndex, index_suites, join_run, step_count
from evalscore.scoring.partials import DEFAULT_LISTED, ModelRuns, Partial, PartialSum, RefusalTally, sum_partials
from evalscore.scoring.rederive import Rederived, StepPlace, rederive_step
from evalscore.scoring.refusal import (
    SCORING_MODEL_UNAVAILABLE,
    SCORING_MODELS_MIXED,
    Refusal,
)
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
from evalscore.scoring.representable import oversized_count
from evalscore.scoring.signals import LATENCY_EDGES_MS, SignalParams, Signals, signals_of
from evalscore.scoring.step_violations import gated_step, recorded_violations, rederived_violations, review_violations
from evalscore.scoring.thresholds import Thresholds
from evalscore.sources import source_order
from evalscore.version import __version__
from evalscore.vocabulary import DEFAULT_MODEL, ScoringModel

if TYPE_CHECKING:
    from evalscore.models.run import GateEvent, RunOf, StepResult
    from evalscore.models.suite import EvalSuite


@dataclass(frozen=True, slots=True)
class SourcedRun:
    """A parsed run (or scored run) and the input it came from (a path, ``path:line`` for JSONL, ``-``)."""

    source: str
    run: RunOf[Any]


# --- one run -------------------------------------------------------------------------------


def steps_of(run: RunOf[Any]) -> Iterable[StepResult]:
    for task in run.task_results:
        yield from task.step_results


def review_of(step: StepResult) -> Any:
    from evalscore.models.review import ScoredStepResult  # noqa: PLC0415 - the report is built without the models

    return step.score if isinstance(step, ScoredStepResult) else None


def gate_events_of(run: RunOf[Any]) -> Iterable[GateEvent]:
    for step in steps_of(run):
        yield from step.gate_events


def places_of(sourced: SourcedRun) -> Iterable[tuple[StepPlace, StepResult]]:
    """Each step of the run, and where it is."""
    run = sourced.run
    for task_index, task in enumerate(run.task_results):
        for step_index, step in enumerate(task.step_results):
            pointer = f"/task_results/{task_index}/step_results/{step_index}"
            yield StepPlace(sourced.source, run.run_id, task.task_id, step.step_n, pointer), step


def add_run_facts(total: PartialSum, sourced: SourcedRun, params: SignalParams) -> None:
    """What every run adds whatever the mode: its steps, reviews, signals, model and suite."""
    run = sourced.run
    for place, step in places_of(sourced):
        review = review_of(step)
        total.add_step_counts(STEP_EXISTS)
        total.add_step_counts(agg.review_counts(review))
        total.add_violations(list(review_violations(review, place)))
    total.add_signals(signals_of(gate_events_of(run), params))
    total.add_run(run.scoring_model, sourced.source, (run.suite_id, run.suite_version))


STEP_EXISTS: Final = {"total_steps": 1}


def add_rederived(total: PartialSum, joined: JoinedStep, model: ScoringModel) -> None:
    """Re-derive one joined step under ``model`` into ``total``, with what the record under the run's
    recorded model disagrees with."""
    outcome = rederive_step(joined.task, joined.step, joined.result, model, joined.place)
    if isinstance(outcome, Refusal):
        total.add_refusal(outcome)  # one step: rederive_step refuses steps one at a time
        return
    auto = outcome.auto_score
    total.add_step_counts(agg.auto_counts(auto, model))
    total.add_violations(list(rederived_violations(joined, auto, model)))
    gated = gated_step(joined.place, auto.gates.mandated)
    if gated is not None:
        total.add_gated_step(gated)
    total.add_disagreements(disagreements_under_recorded(joined, outcome))


def disagreements_under_recorded(joined: JoinedStep, rederived: Rederived) -> list[Disagreement]:
    recorded = joined.result.auto_score
    if recorded is None:
        return []
    model = joined.recorded_model
    if model != rederived.scoring_model:
        replay = rederive_step(joined.task, joined.step, joined.result, model, joined.place)
        if isinstance(replay, Refusal):  # pragma: no cover - ordering does not depend on the model
            return []
        rederived = replay
    return compare_step(recorded, rederived.auto_score, model, joined.place)


def score_run_rederived(sourced: SourcedRun, index: SuiteIndex, model: ScoringModel, params: SignalParams) -> Partial:
    total = PartialSum()
    add_run_facts(total, sourced, params)
    for item in join_run(sourced.run, sourced.source, index):
        if isinstance(item, Refusal):
            total.add_refusal(item)
        else:
            add_rederived(total, item, model)
    return total.total()


def score_run_recorded(sourced: SourcedRun, model: ScoringModel | None, params: SignalParams) -> Partial:
    run = sourced.run
    total = PartialSum()
    add_run_facts(total, sourced, params)
    if model is not None and run.scoring_model != model:
        total.add_refusal(
            Refusal(
                code=SCORING_MODEL_UNAVAILABLE,
                reason=(
                    f"the run's auto scores were recorded under {run.scoring_model}; {model} figures can only be "
                    "re-derived from the evidence, which needs the run's suite (--suite)"
                ),
                pointer="/scoring_model",
                source=sourced.source,
                run_id=run.run_id,
                steps=step_count(run),
            )
        )
        return total.total()
    oversized = oversized_count(run, sourced.source)
    if oversized is not None:
        total.add_refusal(oversized)
        return total.total()
    for place, step in places_of(sourced):
        auto = step.auto_score
        total.add_step_counts(agg.auto_counts(auto, run.scoring_model))
        if auto is not None:
            total.add_violations(list(recorded_violations(auto, run.scoring_model, place)))
            gated = gated_step(place, auto.gates.mandated)
            if gated is not None:
                total.add_gated_step(gated)
    return total.total()


def score_run(
    sourced: SourcedRun,
    *,
    index: SuiteIndex | None,
    scoring_model: ScoringModel | None,
    signal_params: SignalParams,
) -> Partial:
    """The partial of one run: re-derived when ``index`` is given, else as recorded."""
    if index is not None:
        return score_run_rederived(sourced, index, scoring_model or DEFAULT_MODEL, signal_params)
    return score_run_recorded(sourced, scoring_model, signal_params)


# --- the report ----------------------------------------------------------------------------


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
    from evalscore.scoring.repeated_runs import RepeatedRuns  # noqa: PLC0415 - it imports this module's Partial

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
