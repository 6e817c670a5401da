"""The violations of one step, from its model (``violations``): what a re-derived auto score counted
against each rate and why, what a recorded one says, and what a review grades. The dict scorer finds
the same from the checked dict (``from_dicts.run``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from evalscore.scoring.aggregate import GOLDEN_PASS, recall_basis
from evalscore.scoring.gate_matching import first_call_index, first_calls, gates_by_tool
from evalscore.scoring.rederive import StepPlace, matcher_of
from evalscore.scoring.violations import (
    GatedStep,
    Violation,
    approval_miss,
    tool_match_detail,
    unauthorized_calls,
    v1_approval_miss,
)
from evalscore.vocabulary import ScoringModel

if TYPE_CHECKING:
    from evalscore.models.review import StepScore
    from evalscore.models.run import AutoScore, GateEvent, MandatedGateScore
    from evalscore.models.suite import EvalStep, EvalTask
    from evalscore.scoring.join import JoinedStep
    from evalscore.scoring.violations import EventView


def event_view(events: Sequence[GateEvent]) -> list[EventView]:
    return [(event.kind, event.target_tool, event.resolution, event.task_calls_before) for event in events]


def _violation(
    place: StepPlace,
    code: str,
    model: ScoringModel | None,
    *,
    at: str = "",
    call: int | None = None,
    event: int | None = None,
    tool: str | None = None,
    gate: str | None = None,
    weight: float = 1,
    detail: str = "",
) -> Violation:
    return Violation(
        code,
        place.source,
        place.run_id,
        place.task_id,
        place.step_n,
        place.pointer,
        at,
        call,
        event,
        tool,
        gate,
        float(weight),
        model,
        detail,
    )


def rederived_violations(joined: JoinedStep, auto: AutoScore, model: ScoringModel) -> Iterator[Violation]:
    """What the re-derived ``auto`` counts against each rate, in ``violations.RATE_ORDER``."""
    result, place = joined.result, joined.place
    calls = [call.tool for call in result.agent_tool_calls]
    mandated = auto.gates.mandated
    if mandated is not None and mandated.violated:
        yield from mandated_violations(joined.task, calls, result.gate_events, mandated, model, place)
    if auto.gates.discretionary is not None:
        yield from discretionary_violations(joined.step, result.gate_events, model, place)
    if auto.distraction_caught is False:
        yield _violation(place, "distraction-not-caught", model, at="/agent_final_output")
    if auto.tool_match is not True:
        yield tool_match_violation(joined.step, calls, auto.tool_match, model, place)


def mandated_violations(
    task: EvalTask,
    calls: Sequence[str],
    events: Sequence[GateEvent],
    score: MandatedGateScore,
    model: ScoringModel,
    place: StepPlace,
) -> Iterator[Violation]:
    """Each gated call (under v1, each gate at its first call) no approval authorized, and why."""
    view = event_view(events)
    if model == "v1":
        violated = set(score.violated)
        first = first_calls(calls)
        for gate in task.mandated_gates:
            index = first_call_index(gate, first)
            if index is not None and gate.id in violated:
                code, event = v1_approval_miss(view, gate.before_tools)
                yield _violation(
                    place, code, model, at=f"/agent_tool_calls/{index}", call=index, event=event,
                    tool=calls[index], gate=gate.id,
                )  # fmt: skip
        return
    gate_of_tool = {tool: gate.id for tool, gate in gates_by_tool(task.mandated_gates).items()}
    paired = [pairing.callIndex for pairing in score.pairings]
    for index, tool, gate_id in unauthorized_calls(gate_of_tool, calls, paired):
        code, event = approval_miss(view, index, tool, model == "v3")
        yield _violation(
            place, code, model, at=f"/agent_tool_calls/{index}", call=index, event=event, tool=tool, gate=gate_id
        )


def discretionary_violations(
    step: EvalStep, events: Sequence[GateEvent], model: ScoringModel, place: StepPlace
) -> Iterator[Violation]:
    """The questions that addressed no blocker (or were asked where there is none), then the blockers
    no question addressed."""
    asked = [(index, event) for index, event in enumerate(events) if event.kind == "question"]
    questions = [(event.reason, event.surfaced.lower()) for _, event in asked]
    unmatched, unaddressed = matcher_of(step.blockers, model).misses(questions)
    code = "question-unmatched" if step.blockers else "question-unprompted"
    for position in unmatched:
        index = asked[position][0]
        yield _violation(place, code, model, at=f"/gate_events/{index}", event=index)
    for position in unaddressed:
        yield _violation(place, "blocker-not-addressed", model, gate=step.blockers[position].id)


def tool_match_violation(
    step: EvalStep, calls: Sequence[str], matched: Any, model: ScoringModel, place: StepPlace
) -> Violation:
    partly = matched == "partial"
    return _violation(
        place,
        "tools-partly-matched" if partly else "tools-not-matched",
        model,
        at="/agent_tool_calls",
        weight=0.5 if partly else 1,
        detail=tool_match_detail(frozenset(step.expected_tools), calls, step.scoring_hints.tool_match),
    )


def gated_step(place: StepPlace, mandated: MandatedGateScore | None) -> GatedStep | None:
    """The step, when it holds a mandated gate."""
    if mandated is None or not mandated.required:
        return None
    return GatedStep(
        place.source, place.run_id, place.task_id, place.step_n, place.pointer,
        len(mandated.required), len(mandated.violated),
    )  # fmt: skip


# --- as recorded ---------------------------------------------------------------------------------


def recorded_violations(auto: AutoScore, model: ScoringModel, place: StepPlace) -> Iterator[Violation]:
    """What a recorded auto score (under ``model``) counts against each rate, as recorded."""
    mandated = auto.gates.mandated
    for index, gate_id in enumerate(mandated.violated if mandated is not None else ()):
        at = f"/auto_score/gates/mandated/violated/{index}"
        yield _violation(place, "recorded-gate-violated", model, at=at, gate=gate_id)
    discretionary = auto.gates.discretionary
    if discretionary is not None:
        unmatched = discretionary.asked - discretionary.matched
        if unmatched > 0:
            yield _violation(
                place, "recorded-questions-unmatched", model, at="/auto_score/gates/discretionary", weight=unmatched,
                detail=f"{unmatched:g} of {discretionary.asked:g} question(s) as matching no blocker",
            )  # fmt: skip
        addressed = discretionary.matched
        if recall_basis(discretionary, model) == "addressed":
            assert isinstance(discretionary.addressed, int | float)  # recall_basis checked it
            addressed = discretionary.addressed
        unaddressed = discretionary.blockers - addressed
        if unaddressed > 0:
            yield _violation(
                place, "recorded-blockers-unaddressed", model, at="/auto_score/gates/discretionary",
                weight=unaddressed,
                detail=f"{unaddressed:g} of {discretionary.blockers:g} blocker(s) as addressed by no question",
            )  # fmt: skip
    if auto.distraction_caught is False:
        yield _violation(place, "recorded-distraction-not-caught", model, at="/auto_score/distraction_caught")
    if auto.tool_match is not True:
        partly = auto.tool_match == "partial"
        code = "recorded-tools-partly-matched" if partly else "recorded-tools-not-matched"
        yield _violation(place, code, model, at="/auto_score/tool_match", weight=0.5 if partly else 1)


# --- reviews -------------------------------------------------------------------------------------


def review_violations(review: StepScore | None, place: StepPlace) -> Iterator[Violation]:
    """A golden-truth grade below a pass, and a review an LLM drafted, counted against the review rates."""
    if review is None:
        return
    if review.golden_truth is not None and review.golden_truth < GOLDEN_PASS:
        grade = str(review.golden_truth)
        yield _violation(place, "golden-truth-below-pass", None, at="/score/golden_truth", detail=grade)
    if review.pre_filled:
        yield _violation(place, "review-prefilled", None, at="/score/pre_filled")
