"""Approval events grouped into chains, and which chains are gates, on hand-written event streams."""

from __future__ import annotations

from typing import Any

import pytest

from evalscore.importers.inspect._approvals import approval_chains, counted_as_human
from evalscore.importers.inspect._errors import SampleMappingError
from evalscore.importers.inspect._events import flatten_events, resolve_attachments, tool_and_approval_events
from evalscore.importers.inspect._sample import map_sample

T0 = "2025-01-01T10:00:0{}+00:00"


def approval(call_id: str, approver: str, decision: str, second: int = 0, tool: str = "refund") -> dict[str, Any]:
    return {
        "event": "approval",
        "timestamp": T0.format(second),
        "message": f"calling {tool}",
        "call": {"id": call_id, "function": tool, "arguments": {}},
        "view": {"context": {"format": "text", "content": "ctx"}, "call": {"format": "text", "content": "view"}},
        "approver": approver,
        "decision": decision,
    }


def tool(call_id: str, name: str = "refund", error: str | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"event": "tool", "id": call_id, "function": name, "arguments": {"n": 1}, "result": "ok"}
    if error is not None:
        event["error"] = {"type": error, "message": "no"}
    return event


def sample(*events: dict[str, Any], **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": 7,
        "epoch": 1,
        "events": list(events),
        "output": {"completion": "done"},
        "total_time": 1.5,
    }
    base.update(fields)
    return base


HUMAN = frozenset({"human"})


def test_an_escalation_passes_the_call_to_the_next_approver() -> None:
    (chain,) = approval_chains(
        tool_and_approval_events([approval("c", "triage", "escalate"), approval("c", "human", "modify", 1)])
    )
    assert chain.as_json() == [
        {"approver": "triage", "decision": "escalate"},
        {"approver": "human", "decision": "modify"},
    ]
    assert chain.resolution == "approved"
    assert chain.final is not None
    assert chain.final.approver == "human"


@pytest.mark.parametrize(
    ("decision", "resolution"),
    [("approve", "approved"), ("modify", "approved"), ("reject", "denied"), ("terminate", "denied")],
)
def test_each_final_decision_has_its_resolution(decision: str, resolution: str) -> None:
    (chain,) = approval_chains(tool_and_approval_events([approval("c", "human", decision)]))
    assert chain.resolution == resolution


def test_a_chain_cut_short_while_escalating_is_unresolved_and_has_no_decision_time() -> None:
    mapped = map_sample(sample(approval("c", "human", "escalate")), HUMAN)
    (gate,) = mapped.step["gate_events"]
    assert gate["resolution"] == "unresolved"
    assert gate["resolved_at"] is None
    assert mapped.step["agent_tool_calls"] == []


def test_a_reused_call_id_starts_a_new_chain_after_a_decision() -> None:
    chains = approval_chains(
        tool_and_approval_events([approval("c", "human", "reject"), approval("c", "human", "approve", 1)])
    )
    assert [chain.resolution for chain in chains] == ["denied", "approved"]


def test_gates_count_only_the_task_calls_that_ran_before_them() -> None:
    mapped = map_sample(
        sample(
            tool("a", "lookup"),
            approval("b", "human", "reject", 1),
            tool("b", error="approval"),
            tool("p", "lookup", error="parsing"),
            approval("c", "human", "approve", 2),
            tool("c"),
            approval("d", "human", "approve", 3),
            tool("d"),
        ),
        HUMAN,
    )
    assert [call["tool"] for call in mapped.step["agent_tool_calls"]] == ["lookup", "refund", "refund"]
    assert [gate["task_calls_before"] for gate in mapped.step["gate_events"]] == [1, 1, 2]
    assert [entry["call_id"] for entry in mapped.calls_not_run] == ["b", "p"]


def test_a_tool_event_recorded_before_its_own_approval_is_not_counted_before_it() -> None:
    mapped = map_sample(sample(tool("a", "lookup"), tool("c"), approval("c", "human", "approve")), HUMAN)
    (gate,) = mapped.step["gate_events"]
    assert gate["task_calls_before"] == 1
    assert len(mapped.step["agent_tool_calls"]) == 2


def test_the_gate_keeps_what_the_approver_was_shown_and_invents_no_time_or_person() -> None:
    (gate,) = map_sample(sample(approval("c", "human", "approve", 4), tool("c")), HUMAN).step["gate_events"]
    assert gate["surfaced"] == "calling refund\n\nctx\n\nview"
    assert gate["resolved_at"] == "2025-01-01T10:00:04+00:00"
    assert (gate["opened_at"], gate["decision_latency_ms"], gate["overseers"], gate["uses"]) == (None, None, [], None)


def test_a_naive_decision_time_is_not_carried_over() -> None:
    event = approval("c", "human", "approve")
    event["timestamp"] = "2025-01-01T10:00:00"
    (gate,) = map_sample(sample(event, tool("c")), HUMAN).step["gate_events"]
    assert gate["resolved_at"] is None


def test_automatic_approvers_are_never_counted_as_human() -> None:
    assert counted_as_human({"human", "auto", "policy", "desk"}) == {"human", "desk"}


def test_an_unknown_decision_is_refused_rather_than_guessed() -> None:
    with pytest.raises(SampleMappingError, match="unknown decision 'maybe'"):
        map_sample(sample(approval("c", "human", "maybe")), HUMAN)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"total_time": None}, "no total_time"),
        ({"output": None}, "has no output"),
        ({"id": None}, "has no id"),
    ],
)
def test_a_sample_missing_what_a_step_requires_is_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(SampleMappingError, match=message):
        map_sample(sample(**fields), HUMAN)


def test_nested_tool_sub_events_of_older_logs_are_spliced_before_their_tool_event() -> None:
    outer = tool("c")
    outer["events"] = [approval("c", "human", "approve")]
    assert [event["event"] for event in flatten_events([tool("a", "lookup"), outer])] == ["tool", "approval", "tool"]
    (gate,) = map_sample(sample(tool("a", "lookup"), outer), HUMAN).step["gate_events"]
    assert gate["task_calls_before"] == 1


def test_attachment_references_are_resolved_and_unknown_ones_kept() -> None:
    attachments = {"abc": "the long text"}
    value = {"a": ["attachment://abc", "attachment://zzz"], "b": 3}
    assert resolve_attachments(value, attachments) == {"a": ["the long text", "attachment://zzz"], "b": 3}
