"""The importer's guards on hand-written event streams: what is copied from the log, what stays null.

These tests are the mutation-testing selection for the Inspect importer (the real-log tests need
Inspect to write logs in every pytest session, which mutmut starts once per mutant). Each test
states one rule of docs/inspect-import.md and compares whole records, so a renamed key, a dropped
null or a proxy written into a not-observed field fails it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from evalscore.importers.inspect._errors import SampleMappingError
from evalscore.importers.inspect._sample import MappedSample, map_sample
from evalscore.importers.inspect._timestamps import aware_rfc3339

HUMAN = frozenset({"human"})
VIEW = {"context": {"format": "text", "content": "ctx"}, "call": {"format": "text", "content": "view"}}


def at(second: int) -> str:
    return f"2025-01-01T10:00:{second:02d}+00:00"


def approval(call_id: str, approver: str, decision: str, second: int = 0, tool: str = "refund") -> dict[str, Any]:
    return {
        "event": "approval",
        "timestamp": at(second),
        "message": f"calling {tool}",
        "call": {"id": call_id, "function": tool, "arguments": {}},
        "view": VIEW,
        "approver": approver,
        "decision": decision,
    }


def tool(call_id: str, name: str = "refund", **fields: Any) -> dict[str, Any]:
    event: dict[str, Any] = {"event": "tool", "id": call_id, "function": name, "arguments": {"n": 1}, "result": "ok"}
    event.update(fields)
    return event


def sample(*events: Any, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "s-1",
        "epoch": 1,
        "events": list(events),
        "output": {"completion": "done"},
        "total_time": 1.5,
    }
    base.update(fields)
    return base


def mapped(*events: Any, **fields: Any) -> MappedSample:
    return map_sample(sample(*events, **fields), HUMAN)


# -- gate events: observed, derived, not observed ------------------------------------------------------


def test_a_gate_event_copies_what_the_log_observed_and_leaves_time_gate_opened_latency_and_overseers_empty() -> None:
    result = mapped(
        approval("c9", "triage", "escalate", 1, tool="delete_record"),
        approval("c9", "human", "approve", 7, tool="delete_record"),
        tool("c9", "delete_record"),
    )
    assert result.step["gate_events"] == [
        {
            "kind": "approval_request",
            "reason": "Inspect approval policy sent tool call c9 to an approver",
            "surfaced": "calling delete_record\n\nctx\n\nview",
            "target_tool": "delete_record",
            "resolution": "approved",
            "task_calls_before": 0,
            "uses": None,
            "opened_at": None,
            "resolved_at": at(7),  # the deciding approver's event, not the escalation before it
            "decision_latency_ms": None,
            "overseers": [],
            "approval_chain": [
                {"approver": "triage", "decision": "escalate"},
                {"approver": "human", "decision": "approve"},
            ],
        }
    ]


def test_a_step_holds_the_calls_that_ran_the_final_output_the_wall_time_and_no_score() -> None:
    step = mapped(tool("a", "lookup"), approval("b", "human", "reject", 1), tool("b")).step
    assert set(step) == {"step_n", "agent_tool_calls", "agent_final_output", "latency_ms", "auto_score", "gate_events"}
    assert step["step_n"] == 1
    assert step["agent_tool_calls"] == [{"tool": "lookup", "args": {"n": 1}, "result": "ok"}]
    assert step["agent_final_output"] == "done"
    assert step["latency_ms"] == 1500.0
    assert step["auto_score"] is None
    assert len(step["gate_events"]) == 1


# -- chains no human saw -------------------------------------------------------------------------------


def test_a_chain_decided_by_automatic_approvers_alone_is_kept_for_review_and_is_not_a_gate() -> None:
    result = mapped(
        approval("l1", "auto", "approve", 2, tool="lookup"),
        tool("l1", "lookup"),
        approval("r1", "human", "approve", 3),
        tool("r1"),
    )
    assert result.automatic_approvals == [
        {
            "call_id": "l1",
            "tool": "lookup",
            "resolution": "approved",
            "decided_at": at(2),
            "approval_chain": [{"approver": "auto", "decision": "approve"}],
        }
    ]
    assert [gate["target_tool"] for gate in result.step["gate_events"]] == ["refund"]
    assert [call["tool"] for call in result.step["agent_tool_calls"]] == ["lookup", "refund"]


def test_an_automatic_chain_cut_short_while_escalating_has_no_decision_time() -> None:
    result = mapped(approval("d1", "triage", "escalate", 4, tool="delete_record"))
    assert result.automatic_approvals == [
        {
            "call_id": "d1",
            "tool": "delete_record",
            "resolution": "unresolved",
            "decided_at": None,
            "approval_chain": [{"approver": "triage", "decision": "escalate"}],
        }
    ]
    assert result.step["gate_events"] == []


def test_an_automatic_decision_time_without_an_offset_is_dropped_not_assumed_utc() -> None:
    event = approval("l1", "auto", "approve", tool="lookup")
    event["timestamp"] = "2025-01-01T10:00:00"
    (entry,) = mapped(event, tool("l1", "lookup")).automatic_approvals
    assert entry["decided_at"] is None


# -- calls that did not run ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "reason"),
    [
        pytest.param([approval("c", "human", "reject"), tool("c")], "approval reject by human", id="rejected"),
        pytest.param([approval("c", "human", "terminate"), tool("c")], "approval terminate by human", id="terminated"),
        pytest.param([approval("c", "human", "escalate"), tool("c")], "approval never decided", id="cut-short"),
        pytest.param(
            [tool("c", error={"type": "parsing", "message": "bad args"})], "parsing error: bad args", id="parsing"
        ),
        pytest.param([tool("c", error={"type": "approval"})], "approval error", id="no-message"),
        pytest.param(
            [tool("c", error={"type": "parsing", "message": "unknown tool TAX"})],
            "parsing error: unknown tool TAX",
            id="message-kept-whole",
        ),
    ],
)
def test_a_call_that_did_not_run_is_left_out_and_listed_with_its_tool_and_why(
    events: list[dict[str, Any]], reason: str
) -> None:
    result = mapped(*events)
    assert result.step["agent_tool_calls"] == []
    assert result.calls_not_run == [{"call_id": "c", "tool": "refund", "reason": reason}]


def test_a_tool_error_after_which_the_tool_was_invoked_does_not_hide_the_call() -> None:
    result = mapped(tool("c", error={"type": "timeout", "message": "slow"}))
    assert [call["tool"] for call in result.step["agent_tool_calls"]] == ["refund"]
    assert result.calls_not_run == []


def test_a_tool_event_is_decided_by_the_latest_chain_for_its_call_before_it() -> None:
    result = mapped(approval("c", "human", "reject", 1), approval("c", "human", "approve", 2), tool("c"))
    assert [call["tool"] for call in result.step["agent_tool_calls"]] == ["refund"]
    assert result.calls_not_run == []
    assert [gate["resolution"] for gate in result.step["gate_events"]] == ["denied", "approved"]


# -- tool calls ----------------------------------------------------------------------------------------


def test_a_tool_call_carries_only_the_arguments_and_result_the_log_recorded() -> None:
    bare = {"event": "tool", "id": "a", "function": "lookup"}
    step = mapped(bare, tool("b")).step
    assert step["agent_tool_calls"] == [{"tool": "lookup"}, {"tool": "refund", "args": {"n": 1}, "result": "ok"}]


def test_pooled_attachments_in_arguments_and_results_are_resolved_from_the_sample() -> None:
    event = tool("c", arguments={"note": "attachment://n1"}, result="attachment://r1")
    step = mapped(event, attachments={"n1": "a long note", "r1": "a long result"}).step
    assert step["agent_tool_calls"] == [{"tool": "refund", "args": {"note": "a long note"}, "result": "a long result"}]


@pytest.mark.parametrize("attachments", [None, ["n1"]], ids=["absent", "not-a-mapping"])
def test_attachment_references_stay_as_written_when_the_sample_has_no_attachment_pool(attachments: object) -> None:
    event = tool("c", arguments={"note": "attachment://n1"}, result="attachment://r1")
    step = mapped(event, attachments=attachments).step
    assert step["agent_tool_calls"] == [
        {"tool": "refund", "args": {"note": "attachment://n1"}, "result": "attachment://r1"}
    ]


def test_a_tool_event_without_a_function_is_refused_naming_its_call() -> None:
    with pytest.raises(SampleMappingError, match=r"^tool event 'c' names no function$"):
        mapped({"event": "tool", "id": "c"})


# -- approval events the importer cannot read ----------------------------------------------------------


def _without(event: dict[str, Any], *path: str) -> dict[str, Any]:
    *parents, last = path
    target = event
    for key in parents:
        target = target[key]
    del target[last]
    return event


@pytest.mark.parametrize(
    ("event", "message"),
    [
        pytest.param(_without(approval("c", "human", "approve"), "call"), "at position 0 has no tool call", id="call"),
        pytest.param(
            _without(approval("c", "human", "approve"), "call", "function"),
            "at position 0 names no call id and function",
            id="function",
        ),
        pytest.param(
            _without(approval("c", "human", "approve"), "call", "id"),
            "at position 0 names no call id and function",
            id="call-id",
        ),
        pytest.param(
            _without(approval("c", "human", "approve"), "approver"), "for call 'c' names no approver", id="approver"
        ),
    ],
)
def test_an_approval_event_missing_what_joins_it_to_a_call_and_a_decider_is_refused(
    event: dict[str, Any], message: str
) -> None:
    with pytest.raises(SampleMappingError, match=f"^approval event {message}$"):
        mapped(event)


# -- what the approver was shown -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "view", "surfaced"),
    [
        pytest.param(
            "calling refund", {"call": {"content": "refund(5)"}}, "calling refund\n\nrefund(5)", id="no-context"
        ),
        pytest.param(None, VIEW, "ctx\n\nview", id="no-message"),
        pytest.param(123, VIEW, "ctx\n\nview", id="message-not-text"),
        pytest.param("calling refund", ["not", "a", "view"], "calling refund", id="view-not-a-mapping"),
    ],
)
def test_what_was_surfaced_holds_only_the_text_the_log_recorded(message: object, view: object, surfaced: str) -> None:
    event = approval("c", "human", "approve")
    event["view"] = view
    if message is None:
        del event["message"]
    else:
        event["message"] = message
    (gate,) = mapped(event, tool("c")).step["gate_events"]
    assert gate["surfaced"] == surfaced


# -- the sample's own fields ---------------------------------------------------------------------------


@pytest.mark.parametrize(("sample_id", "expected"), [("s-1", "s-1"), (7, "7")])
def test_the_sample_id_becomes_the_task_id_as_text(sample_id: object, expected: str) -> None:
    assert mapped(id=sample_id).sample_id == expected


@pytest.mark.parametrize(("epoch", "expected"), [(2, 2), (True, None), ("2", None), (None, None)])
def test_the_epoch_is_kept_only_when_the_log_records_an_integer(epoch: object, expected: int | None) -> None:
    assert mapped(epoch=epoch).epoch == expected


def test_a_sample_whose_model_gave_no_choices_has_an_empty_final_output() -> None:
    assert mapped(output={"choices": []}).step["agent_final_output"] == ""


@pytest.mark.parametrize(
    ("output", "message"),
    [
        pytest.param(None, "has no output", id="no-output"),
        pytest.param({}, "has no output completion", id="no-completion"),
        pytest.param({"choices": [{"stop_reason": "stop"}]}, "has no output completion", id="choices-no-completion"),
    ],
)
def test_a_sample_without_a_final_output_is_refused_naming_the_sample(output: object, message: str) -> None:
    with pytest.raises(SampleMappingError, match=f"^sample 's-1' {message}$"):
        mapped(output=output)


@pytest.mark.parametrize(
    ("total_time", "latency"),
    [(0, 0.0), (0.0005, 0.5), (1.23456789, 1234.568), (2, 2000.0)],
)
def test_the_wall_time_is_the_samples_total_time_in_milliseconds(total_time: float, latency: float) -> None:
    assert mapped(total_time=total_time).step["latency_ms"] == latency


@pytest.mark.parametrize("total_time", [True, None, "1.5"])
def test_a_sample_without_a_usable_total_time_is_refused_naming_the_sample(total_time: object) -> None:
    with pytest.raises(SampleMappingError, match=r"^sample 's-1' records no total_time"):
        mapped(total_time=total_time)


@pytest.mark.parametrize(("total_time", "shown"), [(-5, "-5"), (-0.001, "-0.001")])
def test_a_negative_total_time_is_refused_as_negative_with_its_value(total_time: float, shown: str) -> None:
    with pytest.raises(SampleMappingError) as caught:
        mapped(total_time=total_time)
    assert str(caught.value) == (
        f"sample 's-1' records a negative total_time ({shown} s), so the step's wall time is unknown"
    )


@pytest.mark.parametrize("total_time", [10**400, 1e306], ids=["int-beyond-a-double", "ms-beyond-a-double"])
def test_a_total_time_too_large_for_milliseconds_is_refused_not_a_crash_or_infinity(total_time: float) -> None:
    with pytest.raises(SampleMappingError) as caught:
        mapped(total_time=total_time)
    assert str(caught.value) == "sample 's-1' records a total_time too large to be a duration"


def test_the_largest_total_time_whose_milliseconds_are_a_double_is_kept() -> None:
    assert mapped(total_time=1.7e305).step["latency_ms"] == 1.7e305 * 1000.0


def test_sample_notes_keep_the_error_message_and_the_limit_that_ended_the_sample() -> None:
    notes = mapped(
        error={"message": "boom", "traceback": "..."},
        limit={"type": "operator", "limit": 1, "extra": "not kept"},
    ).notes
    assert notes == {"error": "boom", "limit": {"type": "operator", "limit": 1}}


def test_sample_notes_keep_the_reason_a_limit_gives() -> None:
    notes = mapped(limit={"type": "message", "limit": 5, "reason": "too many messages"}).notes
    assert notes == {"limit": {"type": "message", "limit": 5, "reason": "too many messages"}}


def test_a_sample_that_ended_normally_has_no_notes() -> None:
    assert mapped().notes == {}


# -- the event stream ----------------------------------------------------------------------------------


def test_entries_of_the_event_stream_that_are_not_events_are_skipped_not_the_rest() -> None:
    result = mapped(None, "junk", approval("c", "human", "approve"), tool("c"))
    assert len(result.step["gate_events"]) == 1
    assert len(result.step["agent_tool_calls"]) == 1


def test_only_a_tool_events_nested_events_are_spliced_into_the_stream() -> None:
    subtask = {"event": "subtask", "name": "helper", "events": [tool("x", "lookup")]}
    result = mapped(subtask, approval("c", "human", "approve"), tool("c"))
    assert [call["tool"] for call in result.step["agent_tool_calls"]] == ["refund"]


# -- decision times ------------------------------------------------------------------------------------


def test_an_iso_time_whose_offset_has_no_seconds_is_rewritten_in_its_own_offset() -> None:
    assert aware_rfc3339("2025-03-01 12:00:00+05:45") == "2025-03-01T12:00:00+05:45"


@pytest.fixture
def machine_zone_new_york(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("machine_zone_new_york")
def test_an_offset_with_seconds_is_converted_to_utc_whatever_the_machines_zone() -> None:
    assert aware_rfc3339("2025-03-01T12:00:00+00:00:30") == "2025-03-01T11:59:30+00:00"


@pytest.mark.parametrize("value", ["0001-01-01 00:00:00+00:00:30", "9999-12-31 23:59:59-00:00:30"])
def test_a_time_that_has_no_utc_instant_in_range_becomes_null_instead_of_crashing(value: str) -> None:
    assert aware_rfc3339(value) is None
