"""Each coherence rule at its boundary: the last value it allows and the first it refuses.

The rules read JSON data, so the tests hand them small documents and compare every
finding in full (code, severity, pointer, message): a rule that fires at the wrong
place, with the wrong words or one step too early or too late fails here. These
tests are what the mutation run (``scripts/mutation.sh``) relies on to kill mutants
of ``src/evalscore/coherence/``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from evalscore.coherence import coherence_findings
from evalscore.coherence.artifact_rules import check_offset_timestamp, check_run_timing, check_schema_major
from evalscore.coherence.gate_rules import LATENCY_TOLERANCE_MS, check_gate_event
from evalscore.coherence.step_rules import check_step
from evalscore.findings import Finding

Seen = list[tuple[str, str, str, str]]
GATES = "/task_results/0/step_results/0/gate_events"
STEP = "/task_results/0/step_results/0"


def seen(findings: Any) -> Seen:
    """Every finding as (code, severity, pointer, message), in the order the rules yield them."""
    return [(f.code, f.severity, f.pointer, f.message) for f in findings]


def gate(**fields: Any) -> dict[str, Any]:
    event: dict[str, Any] = {
        "kind": "approval_request",
        "reason": "policy",
        "surfaced": "Refund $40?",
        "target_tool": "issue_refund",
        "resolution": "approved",
    }
    event.update(fields)
    return event


def step(
    calls: int = 0, events: list[dict[str, Any]] | None = None, auto_score: Any = None, **extra: Any
) -> dict[str, Any]:
    result: dict[str, Any] = {
        "step_n": 1,
        "agent_tool_calls": [{"tool": f"tool{i}"} for i in range(calls)],
        "agent_final_output": "Done.",
        "latency_ms": 1,
        "auto_score": auto_score,
    }
    if events is not None:
        result["gate_events"] = events
    result.update(extra)
    return result


def run(*steps: dict[str, Any], **fields: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "suite_id": "s",
        "suite_version": "1",
        "run_id": "r",
        "started_at": "2026-03-01T09:00:00Z",
        "ended_at": "2026-03-01T09:00:00Z",
        "adapter": {"name": "a", "model": "m"},
        "task_results": [{"task_id": "t1", "step_results": list(steps) or [step()]}],
    }
    document.update(fields)
    return document


def run_findings(*steps: dict[str, Any], **fields: Any) -> Seen:
    return seen(coherence_findings("run", run(*steps, **fields)))


def gate_findings(**fields: Any) -> Seen:
    return seen(check_gate_event(gate(**fields), ("g",)))


def auto(mandated: Any = None, discretionary: Any = None) -> dict[str, Any]:
    return {
        "tool_match": True,
        "distraction_caught": None,
        "gates": {"mandated": mandated, "discretionary": discretionary},
    }


# --- gate events: ES101, ES102, ES103, ES104 -------------------------------------------------

OPENED = "2026-03-01T09:00:00Z"


def test_the_latency_tolerance_is_one_second() -> None:
    assert LATENCY_TOLERANCE_MS == 1000.0


@pytest.mark.parametrize(
    ("resolved_at", "latency_ms"),
    [
        ("2026-03-01T09:00:01Z", 0),  # elapsed exceeds the latency by exactly 1000 ms
        ("2026-03-01T09:00:00Z", 1000),  # the latency exceeds elapsed by exactly 1000 ms
        ("2026-03-01T09:00:30Z", 30000),
        ("2026-03-01T09:00:30.5Z", 29500.5),
    ],
)
def test_a_latency_within_one_second_of_the_timestamps_is_coherent(resolved_at: str, latency_ms: float) -> None:
    assert gate_findings(opened_at=OPENED, resolved_at=resolved_at, decision_latency_ms=latency_ms) == []


def test_a_latency_more_than_one_second_below_the_timestamps_difference_is_an_error() -> None:
    found = gate_findings(opened_at=OPENED, resolved_at="2026-03-01T09:00:01.000001Z", decision_latency_ms=0)
    assert found == [
        (
            "ES101",
            "error",
            "/g/decision_latency_ms",
            "decision_latency_ms is 0 but resolved_at - opened_at is 1000 ms (tolerance 1000 ms)"
            " (at /g/decision_latency_ms)",
        )
    ]


def test_a_latency_1000_001_ms_above_the_timestamps_difference_is_an_error() -> None:
    found = gate_findings(opened_at=OPENED, resolved_at=OPENED, decision_latency_ms=1000.001)
    assert [(code, pointer) for code, _, pointer, _ in found] == [("ES101", "/g/decision_latency_ms")]


def test_timestamps_without_a_latency_are_not_compared_with_one() -> None:
    assert gate_findings(opened_at=OPENED, resolved_at="2026-03-01T10:00:00Z") == []


def test_a_gate_resolved_at_the_instant_it_opened_is_coherent() -> None:
    assert gate_findings(opened_at=OPENED, resolved_at=OPENED, decision_latency_ms=0) == []


def test_a_gate_resolved_one_microsecond_before_it_opened_is_an_error() -> None:
    found = gate_findings(opened_at="2026-03-01T09:00:00.000001Z", resolved_at=OPENED)
    assert found == [
        ("ES102", "error", "/g/resolved_at", "resolved_at is earlier than opened_at (at /g/resolved_at)"),
    ]


def test_an_offset_is_honoured_when_ordering_the_timestamps() -> None:
    # 10:00+01:00 is 09:00Z: the same instant, written in two zones.
    assert gate_findings(opened_at=OPENED, resolved_at="2026-03-01T10:00:00+01:00", decision_latency_ms=0) == []


@pytest.mark.parametrize("field", ["opened_at", "resolved_at"])
def test_one_timestamp_alone_is_compared_with_nothing(field: str) -> None:
    assert gate_findings(**{field: OPENED, "decision_latency_ms": 99999}) == []


def test_an_unresolved_gate_with_a_decision_time_and_a_latency_draws_two_errors() -> None:
    found = gate_findings(resolution="unresolved", resolved_at=OPENED, decision_latency_ms=5)
    assert found == [
        (
            "ES103",
            "error",
            "/g/resolved_at",
            "an unresolved gate has a resolved_at; a decision time implies a decision (at /g/resolved_at)",
        ),
        (
            "ES103",
            "error",
            "/g/decision_latency_ms",
            "an unresolved gate has a decision_latency_ms; a decision latency implies a decision"
            " (at /g/decision_latency_ms)",
        ),
    ]


def test_an_unresolved_gate_may_carry_the_time_it_opened_and_explicit_nulls() -> None:
    assert gate_findings(resolution="unresolved", opened_at=OPENED, resolved_at=None, decision_latency_ms=None) == []


@pytest.mark.parametrize("resolution", ["approved", "denied", "answered"])
def test_a_resolved_gate_may_carry_a_decision_time_and_latency(resolution: str) -> None:
    assert gate_findings(resolution=resolution, opened_at=OPENED, resolved_at=OPENED, decision_latency_ms=0) == []


def test_an_unresolved_gate_with_only_a_latency_draws_one_error() -> None:
    found = gate_findings(resolution="unresolved", decision_latency_ms=0)
    assert [(code, pointer) for code, _, pointer, _ in found] == [("ES103", "/g/decision_latency_ms")]


def test_a_date_that_is_not_on_the_calendar_is_an_error_wherever_it_is() -> None:
    found = gate_findings(opened_at="2026-02-30T09:00:00Z", resolved_at="2026-04-31T09:00:00Z", decision_latency_ms=0)
    assert found == [
        (
            "ES104",
            "error",
            "/g/opened_at",
            "timestamp '2026-02-30T09:00:00Z' is not a real instant: day is out of range for month (at /g/opened_at)",
        ),
        (
            "ES104",
            "error",
            "/g/resolved_at",
            "timestamp '2026-04-31T09:00:00Z' is not a real instant: day is out of range for month (at /g/resolved_at)",
        ),
    ]


def test_an_impossible_resolved_at_stops_the_ordering_rules_but_is_reported() -> None:
    found = gate_findings(opened_at=OPENED, resolved_at="2026-02-29T00:00:00Z", decision_latency_ms=10**9)
    assert [code for code, *_ in found] == ["ES104"]


@pytest.mark.parametrize("field", ["opened_at", "resolved_at"])
def test_an_impossible_timestamp_alone_is_reported(field: str) -> None:
    found = gate_findings(**{field: "2026-02-30T09:00:00Z"})
    assert [(code, pointer) for code, _, pointer, _ in found] == [("ES104", f"/g/{field}")]


# --- step: ES111, ES112 --------------------------------------------------------------------


def test_task_calls_before_equal_to_the_number_of_calls_is_allowed() -> None:
    assert run_findings(step(calls=2, events=[gate(task_calls_before=2)])) == []


def test_task_calls_before_one_more_than_the_number_of_calls_is_an_error() -> None:
    assert run_findings(step(calls=2, events=[gate(task_calls_before=0), gate(task_calls_before=3)])) == [
        (
            "ES111",
            "error",
            f"{GATES}/1/task_calls_before",
            f"task_calls_before is 3 but the step made only 2 task tool call(s) (at {GATES}/1/task_calls_before)",
        )
    ]


def test_a_gate_with_unknown_ordering_is_never_out_of_range() -> None:
    assert run_findings(step(calls=0, events=[gate(task_calls_before=None), gate()])) == []


def test_equal_consecutive_task_calls_before_are_allowed() -> None:
    assert run_findings(step(calls=3, events=[gate(task_calls_before=1), gate(task_calls_before=1)])) == []


def test_a_decreasing_task_calls_before_is_an_error_at_the_later_event() -> None:
    assert run_findings(step(calls=3, events=[gate(task_calls_before=2), gate(task_calls_before=1)])) == [
        (
            "ES112",
            "error",
            f"{GATES}/1/task_calls_before",
            "task_calls_before falls from 2 to 1; gate events must be in the order they occurred"
            f" (at {GATES}/1/task_calls_before)",
        )
    ]


def test_an_unknown_ordering_between_two_known_ones_does_not_hide_a_decrease() -> None:
    found = run_findings(
        step(calls=3, events=[gate(task_calls_before=2), gate(task_calls_before=None), gate(task_calls_before=1)])
    )
    assert [(code, pointer) for code, _, pointer, _ in found] == [("ES112", f"{GATES}/2/task_calls_before")]


def test_a_rise_after_a_decrease_is_compared_with_the_value_just_before_it() -> None:
    found = run_findings(
        step(calls=5, events=[gate(task_calls_before=3), gate(task_calls_before=1), gate(task_calls_before=2)])
    )
    assert [pointer for _, _, pointer, _ in found] == [f"{GATES}/1/task_calls_before"]


def test_a_step_without_gate_events_and_without_an_auto_score_is_coherent() -> None:
    assert seen(check_step(step(calls=1), ("s",))) == []


# --- recorded mandated score: ES121, ES122, ES123 ------------------------------------------


def mandated(required: list[str], honored: list[str], violated: list[str], pairings: Any = None) -> dict[str, Any]:
    score: dict[str, Any] = {"required": required, "honored": honored, "violated": violated}
    if pairings is not None:
        score["pairings"] = pairings
    return score


def test_honored_and_violated_in_any_order_partition_required() -> None:
    score = mandated(["b", "a", "a"], ["a"], ["a", "b"])
    assert run_findings(step(auto_score=auto(mandated=score))) == []


def test_a_gate_honored_twice_but_required_once_is_an_error_naming_what_is_extra() -> None:
    score = mandated(["a"], ["a", "a"], [])
    assert run_findings(step(auto_score=auto(mandated=score))) == [
        (
            "ES121",
            "error",
            f"{STEP}/auto_score/gates/mandated",
            "honored + violated must be the same multiset as required (missing [], extra ['a'])"
            f" (at {STEP}/auto_score/gates/mandated)",
        )
    ]


def test_a_required_gate_neither_honored_nor_violated_is_an_error_naming_what_is_missing() -> None:
    score = mandated(["b", "a", "c"], ["c"], [])
    found = run_findings(step(auto_score=auto(mandated=score)))
    assert [message for *_, message in found] == [
        "honored + violated must be the same multiset as required (missing ['a', 'b'], extra [])"
        f" (at {STEP}/auto_score/gates/mandated)"
    ]


def test_a_gate_violated_more_often_than_required_is_counted_with_the_honored_ones() -> None:
    score = mandated(["a", "b"], ["a"], ["b", "b"])
    found = run_findings(step(auto_score=auto(mandated=score)))
    assert [message for *_, message in found] == [
        "honored + violated must be the same multiset as required (missing [], extra ['b'])"
        f" (at {STEP}/auto_score/gates/mandated)"
    ]


def test_pairings_at_the_last_call_and_the_last_event_are_in_range() -> None:
    pairing = {"callIndex": 1, "approvalIndex": 1, "gateId": "a"}
    score = mandated(["a"], ["a"], [], [pairing])
    events = [gate(kind="question", target_tool=None, resolution="answered"), gate()]
    assert run_findings(step(calls=2, events=events, auto_score=auto(mandated=score))) == []


def test_a_pairing_one_past_the_calls_and_one_past_the_events_draws_two_errors() -> None:
    pairing = {"callIndex": 2, "approvalIndex": 1, "gateId": "a"}
    score = mandated(["a"], ["a"], [], [pairing])
    pairing_path = f"{STEP}/auto_score/gates/mandated/pairings/0"
    assert run_findings(step(calls=2, events=[gate()], auto_score=auto(mandated=score))) == [
        (
            "ES122",
            "error",
            f"{pairing_path}/callIndex",
            f"callIndex 2 is out of range: the step made 2 task tool call(s) (at {pairing_path}/callIndex)",
        ),
        (
            "ES122",
            "error",
            f"{pairing_path}/approvalIndex",
            f"approvalIndex 1 is out of range: the step has 1 gate event(s) (at {pairing_path}/approvalIndex)",
        ),
    ]


def test_a_pairing_into_a_step_without_gate_events_is_out_of_range() -> None:
    pairing = {"callIndex": 0, "approvalIndex": 0, "gateId": "a"}
    score = mandated(["a"], ["a"], [], [pairing])
    found = run_findings(step(calls=1, auto_score=auto(mandated=score)))
    assert [(code, pointer) for code, _, pointer, _ in found] == [
        ("ES122", f"{STEP}/auto_score/gates/mandated/pairings/0/approvalIndex")
    ]


def test_a_pairing_that_points_at_a_question_is_an_error() -> None:
    pairings = [
        {"callIndex": 0, "approvalIndex": 1, "gateId": "a"},
        {"callIndex": 0, "approvalIndex": 0, "gateId": "a"},
    ]
    score = mandated(["a", "a"], ["a", "a"], [], pairings)
    events = [gate(), gate(kind="question", target_tool=None, resolution="answered")]
    pairing_path = f"{STEP}/auto_score/gates/mandated/pairings/0"
    assert run_findings(step(calls=1, events=events, auto_score=auto(mandated=score))) == [
        (
            "ES123",
            "error",
            f"{pairing_path}/approvalIndex",
            f"approvalIndex 1 points at a 'question', not an approval_request (at {pairing_path}/approvalIndex)",
        )
    ]


def test_an_unscored_step_and_an_auto_score_without_gates_have_nothing_to_check() -> None:
    no_gates = {"tool_match": True, "distraction_caught": None}
    assert run_findings(step(calls=0, auto_score=None), step(step_n=2, auto_score=no_gates)) == []


# --- recorded discretionary score: ES124, ES125, ES126 -------------------------------------


def discretionary(blockers: float, asked: float, matched: float, unprompted: float, **extra: float) -> dict[str, Any]:
    return {"blockers": blockers, "asked": asked, "matched": matched, "unprompted": unprompted, **extra}


def test_matched_unprompted_and_addressed_at_their_limits_are_allowed() -> None:
    score = discretionary(blockers=2, asked=3, matched=3, unprompted=3, addressed=2)
    assert run_findings(step(auto_score=auto(discretionary=score))) == []


def test_a_score_without_addressed_is_not_compared_with_blockers() -> None:
    score = discretionary(blockers=0, asked=1, matched=1, unprompted=1)
    assert run_findings(step(auto_score=auto(discretionary=score))) == []


def test_matched_unprompted_and_addressed_just_over_their_limits_are_three_errors() -> None:
    score = discretionary(blockers=2, asked=3, matched=3.5, unprompted=4, addressed=2.5)
    path = f"{STEP}/auto_score/gates/discretionary"
    assert run_findings(step(auto_score=auto(discretionary=score))) == [
        ("ES124", "error", f"{path}/matched", f"matched (3.5) exceeds asked (3) (at {path}/matched)"),
        ("ES125", "error", f"{path}/unprompted", f"unprompted (4) exceeds asked (3) (at {path}/unprompted)"),
        ("ES126", "error", f"{path}/addressed", f"addressed (2.5) exceeds blockers (2) (at {path}/addressed)"),
    ]


# --- whole artifacts: ES131-ES134, ES141-ES143, ES201, ES202 -------------------------------


def test_a_repeated_task_id_is_an_error_at_each_repeat_naming_the_first() -> None:
    document = run()
    task = document["task_results"][0]
    document["task_results"] = [task, copy.deepcopy(task), {**copy.deepcopy(task), "task_id": "t2"}, task]
    found = seen(coherence_findings("run", document))
    assert found == [
        (
            "ES131",
            "error",
            f"/task_results/{i}/task_id",
            f"duplicate task_id 't1' (first at /task_results/0/task_id) (at /task_results/{i}/task_id)",
        )
        for i in (1, 3)
    ]


def test_a_repeated_step_n_in_one_task_is_an_error() -> None:
    found = run_findings(step(), step(step_n=2), step())
    assert found == [
        (
            "ES132",
            "error",
            "/task_results/0/step_results/2/step_n",
            "duplicate step_n 1 (first at /task_results/0/step_results/0/step_n)"
            " (at /task_results/0/step_results/2/step_n)",
        )
    ]


def test_rules_reach_every_step_of_every_task_and_every_gate_event() -> None:
    document = run(step(), step(step_n=2))
    second = copy.deepcopy(document["task_results"][0])
    second["task_id"] = "t2"
    second["step_results"][1]["gate_events"] = [gate(), gate(resolution="unresolved", resolved_at=OPENED)]
    document["task_results"].append(second)
    found = seen(coherence_findings("run", document))
    assert [pointer for _, _, pointer, _ in found] == ["/task_results/1/step_results/1/gate_events/1/resolved_at"]


def review(**fields: Any) -> dict[str, Any]:
    score: dict[str, Any] = {
        "step_n": 1,
        "tool_match": True,
        "golden_truth": None,
        "distraction_caught": None,
        "reviewer_id": "rev",
        "reviewed_at": "2026-03-02T10:00:00Z",
    }
    score.update(fields)
    return score


def test_a_score_for_another_step_is_an_error() -> None:
    found = seen(coherence_findings("scored-run", run(step(step_n=2, score=review(step_n=1)))))
    assert found == [
        (
            "ES133",
            "error",
            f"{STEP}/score/step_n",
            f"score.step_n is 1 but the step result is step 2 (at {STEP}/score/step_n)",
        )
    ]


def test_a_scored_step_has_its_review_checked_too_and_an_unreviewed_one_is_skipped() -> None:
    document = run(step(score=review(reviewed_at="yesterday")), step(step_n=2, score=None))
    found = seen(coherence_findings("scored-run", document))
    assert found == [
        (
            "ES201",
            "warning",
            f"{STEP}/score/reviewed_at",
            "'yesterday' is not an RFC 3339 date-time with a UTC offset; its instant is ambiguous"
            f" (at {STEP}/score/reviewed_at)",
        )
    ]


def test_a_run_that_starts_and_ends_at_the_same_instant_is_coherent() -> None:
    assert run_findings(started_at="2026-03-01T10:00:00+01:00", ended_at="2026-03-01T09:00:00Z") == []


def test_a_run_that_ends_a_microsecond_before_it_starts_is_an_error() -> None:
    found = run_findings(started_at="2026-03-01T09:00:00.000001Z", ended_at="2026-03-01T09:00:00Z")
    assert found == [("ES134", "error", "/ended_at", "started_at is after ended_at (at /ended_at)")]


@pytest.mark.parametrize(
    ("started_at", "ended_at", "warned"),
    [
        ("2026-03-02 09:00", "2026-03-01T09:00:00Z", "/started_at"),
        ("2026-03-02T09:00:00Z", "2026-03-01", "/ended_at"),
    ],
)
def test_run_times_that_are_not_rfc3339_draw_a_warning_and_are_not_ordered(
    started_at: str, ended_at: str, warned: str
) -> None:
    found = run_findings(started_at=started_at, ended_at=ended_at)
    assert [(code, severity, pointer) for code, severity, pointer, _ in found] == [("ES201", "warning", warned)]


def test_run_times_off_the_calendar_draw_a_warning_each_and_are_not_ordered() -> None:
    found = seen(check_run_timing("2026-02-30T09:00:00Z", "2026-02-29T09:00:00Z", ("r",)))
    assert found == [
        (
            "ES201",
            "warning",
            f"/r/{field}",
            f"'{text}' is not a real instant: day is out of range for month (at /r/{field})",
        )
        for field, text in (("started_at", "2026-02-30T09:00:00Z"), ("ended_at", "2026-02-29T09:00:00Z"))
    ]


def test_an_rfc3339_timestamp_with_an_offset_draws_no_warning() -> None:
    assert seen(check_offset_timestamp("2026-03-01T09:00:00.5-05:00", ("t",))) == []


@pytest.mark.parametrize("version", ["2.0.0", "10.0.0", "0.9.0"])
def test_a_schema_version_of_another_major_draws_a_warning(version: str) -> None:
    assert seen(check_schema_major(version, ("x",))) == [
        (
            "ES202",
            "warning",
            "/x/schema_version",
            f"schema_version {version!r} is not a 1.x version; it was checked against the v1 contract"
            " (at /x/schema_version)",
        )
    ]


@pytest.mark.parametrize("kind", ["run", "eval-suite"])
def test_a_document_without_a_schema_version_reads_as_version_1(kind: str) -> None:
    document = run() if kind == "run" else suite()
    assert seen(coherence_findings(kind, document)) == []
    document["schema_version"] = "1.99.0"
    assert seen(coherence_findings(kind, document)) == []
    document["schema_version"] = "3.0.0"
    assert [code for code, *_ in seen(coherence_findings(kind, document))] == ["ES202"]


def suite_task(task_id: str, steps: list[int], gates: list[str] | None = None) -> dict[str, Any]:
    task: dict[str, Any] = {
        "id": task_id,
        "initial_purpose": "p",
        "overall_goal": "g",
        "steps": [{"n": n, "prompt": "p", "golden_truth": "g"} for n in steps],
    }
    if gates is not None:
        task["mandated_gates"] = [{"id": g, "before_tools": ["x"], "description": "d"} for g in gates]
    return task


def suite(*tasks: dict[str, Any]) -> dict[str, Any]:
    return {
        "suite": {
            "id": "s",
            "version": "1",
            "description": "d",
            "target_agent_type": "a",
            "dimensions_in_scope": [],
            "tasks": list(tasks) or [suite_task("t1", [1])],
        }
    }


def test_a_suite_with_distinct_ids_steps_and_gates_is_coherent() -> None:
    document = suite(suite_task("t1", [1, 2], ["g1", "g2"]), suite_task("t2", [1, 2], ["g1"]))
    assert seen(coherence_findings("eval-suite", document)) == []


def test_a_suite_repeating_a_task_id_a_step_number_and_a_gate_id_draws_each_error() -> None:
    document = suite(suite_task("t1", [1]), suite_task("t2", [2, 1, 2], ["g", "h", "g"]), suite_task("t1", [1]))
    tasks = "/suite/tasks"
    assert seen(coherence_findings("eval-suite", document)) == [
        (
            "ES141",
            "error",
            f"{tasks}/2/id",
            f"duplicate task id 't1' (first at {tasks}/0/id) (at {tasks}/2/id)",
        ),
        (
            "ES142",
            "error",
            f"{tasks}/1/steps/2/n",
            f"duplicate step n 2 (first at {tasks}/1/steps/0/n) (at {tasks}/1/steps/2/n)",
        ),
        (
            "ES143",
            "error",
            f"{tasks}/1/mandated_gates/2/id",
            f"duplicate mandated gate id 'g' (first at {tasks}/1/mandated_gates/0/id)"
            f" (at {tasks}/1/mandated_gates/2/id)",
        ),
    ]


def test_a_step_score_is_checked_for_its_review_time() -> None:
    found = seen(coherence_findings("step-score", review(reviewed_at="2026-03-02T10:00:00")))
    assert [(code, pointer) for code, _, pointer, _ in found] == [("ES201", "/reviewed_at")]
    assert seen(coherence_findings("step-score", review())) == []


def test_findings_are_located_under_the_path_the_caller_gives() -> None:
    found = list(coherence_findings("step-score", review(reviewed_at="now"), ("runs", 3)))
    assert [finding.pointer for finding in found] == ["/runs/3/reviewed_at"]
    assert all(isinstance(finding, Finding) and finding.layer == "coherence" for finding in found)


def test_an_unknown_kind_has_no_coherence_findings() -> None:
    assert list(coherence_findings("report", run(step(events=[gate(task_calls_before=9)])))) == []


# --- an observed upper bound on the decision latency: ES105, and ES103 for an unresolved gate --------


def test_a_latency_at_its_upper_bound_is_coherent_and_one_above_it_is_an_error() -> None:
    assert gate_findings(decision_latency_ms=500, decision_latency_upper_bound_ms=500) == []
    found = gate_findings(decision_latency_ms=500.001, decision_latency_upper_bound_ms=500)
    assert found == [
        (
            "ES105",
            "error",
            "/g/decision_latency_ms",
            "decision_latency_ms is 500.001 but decision_latency_upper_bound_ms is 500 (at /g/decision_latency_ms)",
        )
    ]


def test_timestamps_further_apart_than_the_upper_bound_are_an_error() -> None:
    assert (
        gate_findings(opened_at=OPENED, resolved_at="2026-03-01T09:00:01Z", decision_latency_upper_bound_ms=1000) == []
    )
    found = gate_findings(
        opened_at=OPENED, resolved_at="2026-03-01T09:00:01.000001Z", decision_latency_upper_bound_ms=1000
    )
    assert found == [
        (
            "ES105",
            "error",
            "/g/decision_latency_upper_bound_ms",
            "resolved_at - opened_at is 1000.001 ms but decision_latency_upper_bound_ms is 1000"
            " (at /g/decision_latency_upper_bound_ms)",
        )
    ]


@pytest.mark.parametrize("field", ["opened_at", "resolved_at"])
def test_one_timestamp_beside_a_bound_is_compared_with_nothing(field: str) -> None:
    assert gate_findings(**{field: OPENED, "decision_latency_upper_bound_ms": 0}) == []


def test_a_bound_is_checked_even_when_a_timestamp_is_not_a_real_instant() -> None:
    found = gate_findings(opened_at="2026-02-30T09:00:00Z", decision_latency_ms=9, decision_latency_upper_bound_ms=8)
    assert sorted(code for code, _, _, _ in found) == ["ES104", "ES105"]


def test_a_bound_alone_is_coherent_on_a_resolved_gate() -> None:
    assert gate_findings(decision_latency_upper_bound_ms=0) == []
    assert gate_findings(resolution="denied", decision_latency_upper_bound_ms=10**400) == []


def test_an_unresolved_gate_with_an_upper_bound_is_an_error() -> None:
    found = gate_findings(resolution="unresolved", decision_latency_upper_bound_ms=5)
    assert found == [
        (
            "ES103",
            "error",
            "/g/decision_latency_upper_bound_ms",
            "an unresolved gate has a decision_latency_upper_bound_ms; a bound on a decision's latency implies a "
            "decision (at /g/decision_latency_upper_bound_ms)",
        )
    ]
