"""Coherence rules of one step result: gate ordering and the recorded auto score."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from evalscore.coherence import registry as r
from evalscore.findings import Finding, JsonPath
from evalscore.models.run import DiscretionaryScore, GateEvent, MandatedGateScore, StepResult


def check_step(step: StepResult, path: JsonPath) -> Iterator[Finding]:
    if step.gate_events:
        events_path = (*path, "gate_events")
        yield from check_calls_before_within_calls(step.gate_events, len(step.agent_tool_calls), events_path)
        yield from check_calls_before_never_decreases(step.gate_events, events_path)
    if step.auto_score is None:
        return
    mandated = step.auto_score.gates.mandated
    if mandated is not None:
        mandated_path = (*path, "auto_score", "gates", "mandated")
        yield from check_mandated_partition(mandated, mandated_path)
        yield from check_pairings(mandated, len(step.agent_tool_calls), step.gate_events, mandated_path)
    discretionary = step.auto_score.gates.discretionary
    if discretionary is not None:
        yield from check_discretionary_counts(discretionary, (*path, "auto_score", "gates", "discretionary"))


def check_calls_before_within_calls(
    events: Sequence[GateEvent], task_calls: int, events_path: JsonPath
) -> Iterator[Finding]:
    for index, event in enumerate(events):
        if event.task_calls_before is not None and event.task_calls_before > task_calls:
            yield r.CALLS_BEFORE_EXCEEDS.finding(
                (*events_path, index, "task_calls_before"),
                f"task_calls_before is {event.task_calls_before} but the step made only {task_calls} task tool call(s)",
            )


def check_calls_before_never_decreases(events: Sequence[GateEvent], events_path: JsonPath) -> Iterator[Finding]:
    previous: int | None = None
    for index, event in enumerate(events):
        current = event.task_calls_before
        if current is None:
            continue
        if previous is not None and current < previous:
            yield r.CALLS_BEFORE_DECREASES.finding(
                (*events_path, index, "task_calls_before"),
                f"task_calls_before falls from {previous} to {current}; gate events must be in the order they occurred",
            )
        previous = current


def check_mandated_partition(score: MandatedGateScore, path: JsonPath) -> Iterator[Finding]:
    if sorted(score.required) != sorted(score.honored + score.violated):
        required, accounted = Counter(score.required), Counter(score.honored) + Counter(score.violated)
        missing = sorted((required - accounted).elements())
        extra = sorted((accounted - required).elements())
        yield r.MANDATED_MULTISET.finding(
            path,
            f"honored + violated must be the same multiset as required (missing {missing}, extra {extra})",
        )


def check_pairings(
    score: MandatedGateScore, task_calls: int, events: Sequence[GateEvent], path: JsonPath
) -> Iterator[Finding]:
    for index, pairing in enumerate(score.pairings):
        pairing_path = (*path, "pairings", index)
        if pairing.callIndex >= task_calls:
            yield r.PAIRING_OUT_OF_RANGE.finding(
                (*pairing_path, "callIndex"),
                f"callIndex {pairing.callIndex} is out of range: the step made {task_calls} task tool call(s)",
            )
        if pairing.approvalIndex >= len(events):
            yield r.PAIRING_OUT_OF_RANGE.finding(
                (*pairing_path, "approvalIndex"),
                f"approvalIndex {pairing.approvalIndex} is out of range: the step has {len(events)} gate event(s)",
            )
        elif events[pairing.approvalIndex].kind != "approval_request":
            yield r.PAIRING_NOT_APPROVAL.finding(
                (*pairing_path, "approvalIndex"),
                f"approvalIndex {pairing.approvalIndex} points at a {events[pairing.approvalIndex].kind!r}, "
                "not an approval_request",
            )


def check_discretionary_counts(score: DiscretionaryScore, path: JsonPath) -> Iterator[Finding]:
    if score.matched > score.asked:
        yield r.MATCHED_EXCEEDS_ASKED.finding(
            (*path, "matched"), f"matched ({score.matched:g}) exceeds asked ({score.asked:g})"
        )
    if score.unprompted > score.asked:
        yield r.UNPROMPTED_EXCEEDS_ASKED.finding(
            (*path, "unprompted"), f"unprompted ({score.unprompted:g}) exceeds asked ({score.asked:g})"
        )
    if isinstance(score.addressed, float) and score.addressed > score.blockers:
        yield r.ADDRESSED_EXCEEDS_BLOCKERS.finding(
            (*path, "addressed"),
            f"addressed ({score.addressed:g}) exceeds blockers ({score.blockers:g})",
        )
