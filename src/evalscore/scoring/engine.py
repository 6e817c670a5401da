"""Scoring one run: its steps re-derived from the evidence against the suites, or aggregated as recorded.

With suites, every step's auto score is re-derived from the evidence under ``scoring_model``
(default v3) and the recorded auto score is compared with a re-derivation under the run's *recorded*
model. Without suites, the recorded auto scores are aggregated and labelled as recorded. Each run
gives a ``Partial`` value; partials merge, so runs can be scored in several processes, and
``report_builder`` turns the merged one into the report.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from evalscore.scoring import aggregate as agg
from evalscore.scoring.compare import Disagreement, compare_step
from evalscore.scoring.join import JoinedStep, SuiteIndex, join_run, step_count
from evalscore.scoring.partials import Partial, PartialSum
from evalscore.scoring.rederive import Rederived, StepPlace, rederive_step
from evalscore.scoring.refusal import (
    SCORING_MODEL_UNAVAILABLE,
    Refusal,
)
from evalscore.scoring.representable import oversized_count
from evalscore.scoring.signals import SignalParams, signals_of
from evalscore.scoring.sourced_run import SourcedRun
from evalscore.scoring.step_violations import gated_step, recorded_violations, rederived_violations, review_violations
from evalscore.vocabulary import DEFAULT_MODEL, ScoringModel

if TYPE_CHECKING:
    from evalscore.models.run import GateEvent, RunOf, StepResult


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
