"""Coherence rules of one step result: gate ordering and the recorded auto score (as JSON data)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from evalscore.coherence import registry as r
from evalscore.findings import Finding, JsonPath, show_number


def check_step(step: dict[str, Any], path: JsonPath) -> Iterator[Finding]:
    # Called for every step of every log: paths are built and rule functions entered only where
    # there may be something to say (a coherent step costs its reads and comparisons).
    events: list[dict[str, Any]] = step.get("gate_events", [])
    task_calls = len(step["agent_tool_calls"])
    if events:
        events_path = (*path, "gate_events")
        yield from check_calls_before_within_calls(events, task_calls, events_path)
        yield from check_calls_before_never_decreases(events, events_path)
    auto_score = step["auto_score"]
    if auto_score is None:
        return
    gates = auto_score.get("gates")
    if not gates:
        return
    mandated = gates.get("mandated")
    if mandated is not None:
        mandated_path = (*path, "auto_score", "gates", "mandated")
        yield from check_mandated_partition(mandated, mandated_path)
        if mandated.get("pairings"):
            yield from check_pairings(mandated, task_calls, events, mandated_path)
    discretionary = gates.get("discretionary")
    if discretionary is not None:
        yield from check_discretionary_counts(discretionary, (*path, "auto_score", "gates", "discretionary"))


def check_calls_before_within_calls(
    events: Sequence[dict[str, Any]], task_calls: int, events_path: JsonPath
) -> Iterator[Finding]:
    for index, event in enumerate(events):
        before = event.get("task_calls_before")
        if before is not None and before > task_calls:
            yield r.CALLS_BEFORE_EXCEEDS.finding(
                (*events_path, index, "task_calls_before"),
                f"task_calls_before is {show_number(before)} but the step made only {task_calls} task tool call(s)",
            )


def check_calls_before_never_decreases(events: Sequence[dict[str, Any]], events_path: JsonPath) -> Iterator[Finding]:
    previous: float | None = None
    for index, event in enumerate(events):
        current = event.get("task_calls_before")
        if current is None:
            continue
        if previous is not None and current < previous:
            yield r.CALLS_BEFORE_DECREASES.finding(
                (*events_path, index, "task_calls_before"),
                f"task_calls_before falls from {show_number(previous)} to {show_number(current)}; "
                "gate events must be in the order they occurred",
            )
        previous = current


def check_mandated_partition(score: dict[str, Any], path: JsonPath) -> Iterator[Finding]:
    required, honored, violated = score["required"], score["honored"], score["violated"]
    if sorted(required) != sorted(honored + violated):
        expected, accounted = Counter(required), Counter(honored) + Counter(violated)
        missing = sorted((expected - accounted).elements())
        extra = sorted((accounted - expected).elements())
        yield r.MANDATED_MULTISET.finding(
            path,
            f"honored + violated must be the same multiset as required (missing {missing}, extra {extra})",
        )


def check_pairings(
    score: dict[str, Any], task_calls: int, events: Sequence[dict[str, Any]], path: JsonPath
) -> Iterator[Finding]:
    """The mandated score's pairings (the caller knows it has some) point at a call and an approval."""
    for index, pairing in enumerate(score["pairings"]):
        pairing_path = (*path, "pairings", index)
        call_index, approval_index = pairing["callIndex"], pairing["approvalIndex"]
        if call_index >= task_calls:
            yield r.PAIRING_OUT_OF_RANGE.finding(
                (*pairing_path, "callIndex"),
                f"callIndex {show_number(call_index)} is out of range: the step made {task_calls} task tool call(s)",
            )
        if approval_index >= len(events):
            yield r.PAIRING_OUT_OF_RANGE.finding(
                (*pairing_path, "approvalIndex"),
                f"approvalIndex {show_number(approval_index)} is out of range: "
                f"the step has {len(events)} gate event(s)",
            )
        elif events[int(approval_index)]["kind"] != "approval_request":
            yield r.PAIRING_NOT_APPROVAL.finding(
                (*pairing_path, "approvalIndex"),
                f"approvalIndex {show_number(approval_index)} points at a {events[int(approval_index)]['kind']!r}, "
                "not an approval_request",
            )


def check_discretionary_counts(score: dict[str, Any], path: JsonPath) -> Iterator[Finding]:
    asked = score["asked"]
    if score["matched"] > asked:
        yield r.MATCHED_EXCEEDS_ASKED.finding(
            (*path, "matched"), f"matched ({show_number(score['matched'])}) exceeds asked ({show_number(asked)})"
        )
    if score["unprompted"] > asked:
        yield r.UNPROMPTED_EXCEEDS_ASKED.finding(
            (*path, "unprompted"),
            f"unprompted ({show_number(score['unprompted'])}) exceeds asked ({show_number(asked)})",
        )
    addressed = score.get("addressed")
    if addressed is not None and addressed > score["blockers"]:
        yield r.ADDRESSED_EXCEEDS_BLOCKERS.finding(
            (*path, "addressed"),
            f"addressed ({show_number(addressed)}) exceeds blockers ({show_number(score['blockers'])})",
        )
