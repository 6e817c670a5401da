"""The Pydantic AI mapping on hand-made histories: each rule at its edge, and every refusal.

The shapes are those pydantic-ai 2.x writes (tests/acceptance/test_import_pydantic_ai.py runs the
real framework); here each message is built by hand so that one fact changes at a time.
"""

from __future__ import annotations

from typing import Any, Final

import pytest

from evalscore.importers.pydantic_ai._history import HistoryShapeError, read_history
from evalscore.importers.pydantic_ai._step import (
    FINAL_RESULT,
    NO_RETURN,
    NOT_RUN_REASONS,
    RESPONSE_INTERRUPTED,
    SKIPPED,
    TOOL_SKIPPED,
    map_history,
)

T0: Final = "2026-12-01T10:00:00Z"
T1: Final = "2026-12-01T10:00:01.500Z"
T2: Final = "2026-12-01T10:05:00Z"


def call(call_id: str, tool: str = "refund", args: Any = None) -> dict[str, Any]:
    return {"part_kind": "tool-call", "tool_name": tool, "tool_call_id": call_id, "args": args or {"id": call_id}}


def returned(
    call_id: str, outcome: str | None = "success", tool: str = "refund", content: Any = "ok"
) -> dict[str, Any]:
    part: dict[str, Any] = {
        "part_kind": "tool-return",
        "tool_name": tool,
        "tool_call_id": call_id,
        "content": content,
        "timestamp": T1,
    }
    if outcome is not None:
        part["outcome"] = outcome
    return part


def request(*parts: dict[str, Any], timestamp: str | None = T0, run_id: str | None = "run-2") -> dict[str, Any]:
    """A request of the resumed run (``run-2``) by default: the one that answers deferred calls."""
    return {"kind": "request", "parts": list(parts), "timestamp": timestamp, "run_id": run_id}


def response(*parts: dict[str, Any], timestamp: str = T0, run_id: str | None = "run-1") -> dict[str, Any]:
    return {"kind": "response", "parts": list(parts), "timestamp": timestamp, "run_id": run_id, "model_name": "m"}


def prompt() -> dict[str, Any]:
    return request({"part_kind": "user-prompt", "content": "refund", "timestamp": T0}, run_id="run-1")


def step_of(messages: list[dict[str, Any]], approval_tools: tuple[str, ...] = ("refund",)) -> dict[str, Any]:
    return map_history(read_history(messages), approval_tools).step


def refusal(messages: object, approval_tools: tuple[str, ...] = ("refund",)) -> HistoryShapeError:
    with pytest.raises(HistoryShapeError) as refused:
        map_history(read_history(messages), approval_tools)
    return refused.value


def resolutions(step: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [(gate["target_tool"], gate["resolution"], gate["task_calls_before"]) for gate in step["gate_events"]]


def test_only_a_successful_return_is_a_call_that_ran_and_the_others_are_listed_with_why() -> None:
    messages = [
        prompt(),
        response(
            call("a", "lookup"), call("b", "lookup"), call("c", "lookup"), call("d", "lookup"), call("e", "lookup")
        ),
        request(
            returned("a", "success", "lookup"), returned("b", "failed", "lookup"), returned("c", "retried", "lookup")
        ),
        request(returned("d", "denied", "lookup"), timestamp=T2),
    ]
    mapped = map_history(read_history(messages), ())
    assert mapped.step["agent_tool_calls"] == [{"tool": "lookup", "args": {"id": "a"}, "result": "ok"}]
    assert [(entry["call_id"], entry["reason"]) for entry in mapped.calls_not_run] == [
        ("b", "returned outcome 'failed': the history does not say whether the tool's body ran"),
        ("c", "returned outcome 'retried': the history does not say whether the tool's body ran"),
        ("d", "denied"),
        ("e", NO_RETURN),
    ]
    assert mapped.step["gate_events"] == []
    assert mapped.denials_not_gated == 1


def test_a_denial_of_a_named_tool_is_a_gate_not_an_unnamed_denial() -> None:
    mapped = map_history(read_history([prompt(), response(call("c1")), request(returned("c1", "denied"))]), ("refund",))
    assert mapped.denials_not_gated == 0
    assert resolutions(mapped.step) == [("refund", "denied", 0)]


def test_an_approved_call_keeps_no_args_and_its_request_goes_to_the_provenance() -> None:
    messages = [prompt(), response(call("c1", args={"amount": 30})), request(returned("c1", content="Refunded 15"))]
    mapped = map_history(read_history(messages), ("refund",))
    assert mapped.step["agent_tool_calls"] == [{"tool": "refund", "result": "Refunded 15"}]
    assert mapped.requested_args == [{"call_id": "c1", "tool": "refund", "requested_args": {"amount": 30}}]


def test_a_gate_carries_no_time_no_person_and_no_approver() -> None:
    (gate,) = step_of([prompt(), response(call("c1")), request(returned("c1"), timestamp=T2)])["gate_events"]
    assert gate["opened_at"] is None
    assert gate["resolved_at"] is None
    assert gate["decision_latency_ms"] is None
    assert gate["overseers"] == []
    assert gate["approval_chain"] == []
    assert gate["kind"] == "approval_request"
    assert gate["surfaced"] == 'refund({"id":"c1"})'
    assert "uses" not in gate


def test_args_sent_as_json_text_are_read_as_the_object_they_hold_and_other_text_is_kept() -> None:
    messages = [
        prompt(),
        response(call("a", "lookup", '{"id": "A1"}'), call("b", "lookup", "not json"), call("c", "lookup", "[1]")),
        request(*(returned(i, tool="lookup") for i in "abc")),
    ]
    assert [c["args"] for c in step_of(messages, ())["agent_tool_calls"]] == [{"id": "A1"}, "not json", "[1]"]


def test_latency_runs_from_the_earliest_to_the_latest_recorded_timestamp() -> None:
    messages = [prompt(), response(call("c1"), timestamp=T1), request(returned("c1"), timestamp=T2)]
    assert step_of(messages)["latency_ms"] == 300_000.0


def test_a_history_with_fewer_than_two_timestamps_is_refused_not_given_a_latency() -> None:
    lone = [request({"part_kind": "user-prompt", "content": "x"}, timestamp=T0), response(call("c1"), timestamp=T0)]
    lone[1]["timestamp"] = None
    assert "fewer than two timestamps" in refusal(lone).reason


def test_the_final_output_is_the_text_of_the_last_response() -> None:
    messages = [
        prompt(),
        response({"part_kind": "text", "content": "first "}, call("c1")),
        request(returned("c1")),
        response(call("c2")),
    ]
    assert step_of(messages)["agent_final_output"] == ""
    messages.append(response({"part_kind": "text", "content": "a"}, {"part_kind": "text", "content": "b"}))
    assert step_of(messages)["agent_final_output"] == "ab"


def test_a_legacy_retry_prompt_is_a_retried_return() -> None:
    retry = {
        "part_kind": "retry-prompt",
        "tool_name": "lookup",
        "tool_call_id": "l1",
        "content": "bad",
        "timestamp": T1,
    }
    mapped = map_history(read_history([prompt(), response(call("l1", "lookup")), request(retry)]), ())
    assert mapped.step["agent_tool_calls"] == []
    assert mapped.calls_not_run[0]["reason"].startswith("returned outcome 'retried'")


@pytest.mark.parametrize(
    ("messages", "pointer", "words"),
    [
        ({"kind": "request"}, "", "a history is a JSON array of messages, not an object"),
        ([[]], "/0", "a message is a JSON object, not an array"),
        ([{"kind": "system", "parts": []}], "/0/kind", "request or response, not 'system'"),
        ([{"kind": "request", "parts": {}}], "/0/parts", "parts are an array, not an object"),
        ([request("x")], "/0/parts/0", "a message part is a JSON object, not a text"),  # type: ignore[arg-type]
        ([request({"content": "x"})], "/0/parts/0/part_kind", "part_kind is text, not null"),
        ([response({"part_kind": "text", "content": 3})], "/0/parts/0/content", "content is text, not a number"),
        ([response(call("c1"), call("c1"))], "/0/parts/1/tool_call_id", "tool call id 'c1' is used twice"),
        (
            [response({"part_kind": "tool-call", "tool_name": "t", "tool_call_id": ""})],
            "/0/parts/0/tool_call_id",
            "non-empty",
        ),
        (
            [response({"part_kind": "tool-call", "tool_call_id": "c"})],
            "/0/parts/0/tool_name",
            "non-empty text, not null",
        ),
        ([response(call("c1")), request(returned("c1", "lost"))], "/1/parts/0/outcome", "unknown tool outcome 'lost'"),
        ([response(call("c1")), request(returned("c1"), returned("c1"))], "/1/parts/1", "a second return"),
        ([request(returned("zz"))], "/0/parts/0", "returns for tool call 'zz', which no earlier response made"),
        ([response(call("c1")), request(returned("c1", tool="other"))], "/1/parts/0", "under the name 'other'"),
        ([request(timestamp="2026-12-01T10:00:00")], "/0/timestamp", "is not RFC 3339 with a UTC offset"),
        ([request(timestamp="2026-02-30T10:00:00Z")], "/0/timestamp", "is not RFC 3339 with a UTC offset"),
        ([request(timestamp=5)], "/0/timestamp", "a timestamp is text, not a number"),  # type: ignore[arg-type]
        ([request(run_id=7)], "/0/run_id", "run_id is text or null, not a number"),  # type: ignore[arg-type]
    ],
)
def test_a_history_the_mapping_cannot_read_honestly_is_refused_where_it_breaks(
    messages: object, pointer: str, words: str
) -> None:
    error = refusal(messages)
    assert error.pointer == pointer
    assert words in error.reason


def test_part_kinds_the_mapping_does_not_read_are_passed_over() -> None:
    messages = [
        request({"part_kind": "system-prompt", "content": "s"}, {"part_kind": "instruction-delta", "id": 1}),
        response({"part_kind": "thinking", "content": "hm"}, call("c1")),
        request(returned("c1"), timestamp=T2),
    ]
    assert resolutions(step_of(messages)) == [("refund", "approved", 0)]


def test_the_history_s_ids_models_and_message_count_are_read_once_each_in_order() -> None:
    messages = [
        {**prompt(), "conversation_id": "conv"},
        {**response(call("c1")), "conversation_id": "conv", "model_name": "m1"},
        {**request(returned("c1"), run_id="run-2"), "conversation_id": None},
        {**response(run_id="run-2"), "model_name": "m2"},
    ]
    history = read_history(messages)
    assert [list(history.conversation_ids), list(history.run_ids), list(history.models)] == [
        ["conv"],
        ["run-1", "run-2"],
        ["m1", "m2"],
    ]
    assert len(history.messages) == 4


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        (None, "null"),
        (True, "a boolean"),
        (3, "a number"),
        (1.5, "a number"),
        ([], "an array"),
        ({}, "an object"),
        ("", "an empty text"),
    ],
)
def test_a_refusal_says_what_kind_of_value_it_found(value: object, kind: str) -> None:
    error = refusal([response({"part_kind": "tool-call", "tool_name": "t", "tool_call_id": value})])
    assert error.reason == f"tool_call_id is a non-empty text, not {kind}"
    assert str(error) == f"/0/parts/0/tool_call_id: tool_call_id is a non-empty text, not {kind}"


def test_a_refusal_of_the_whole_history_is_at_the_root_pointer() -> None:
    error = refusal("not a history")
    assert (error.pointer, str(error)) == ("", "/: a history is a JSON array of messages, not a text")


def test_an_unknown_outcome_is_refused_naming_the_known_ones() -> None:
    error = refusal([response(call("c1")), request(returned("c1", "lost"))])
    assert error.reason == "unknown tool outcome 'lost' (known: success, failed, denied, interrupted, retried)"


@pytest.mark.parametrize(
    ("messages", "pointer"),
    [
        ([{**request(), "conversation_id": 5}], "/0/conversation_id"),
        ([{**response(), "model_name": 5}], "/0/model_name"),
        ([response({"part_kind": 5})], "/0/parts/0/part_kind"),
        ([response(call("c1")), request({**returned("c1"), "tool_call_id": 5})], "/1/parts/0/tool_call_id"),
        ([response(call("c1")), request({**returned("c1"), "tool_name": 5})], "/1/parts/0/tool_name"),
        ([response({**returned("c1"), "part_kind": "builtin-tool-return", "tool_name": 5})], "/0/parts/0/tool_name"),
    ],
)
def test_each_field_read_is_refused_at_its_own_pointer(messages: object, pointer: str) -> None:
    error = refusal(messages)
    assert error.pointer == pointer
    assert error.reason.endswith("not a number")


def test_a_provider_s_built_in_tool_answered_in_the_response_is_a_call_that_ran() -> None:
    search = {"part_kind": "builtin-tool-call", "tool_name": "web_search", "tool_call_id": "b1", "args": {"q": "x"}}
    answer = {**returned("b1", tool="web_search", content=["hit"]), "part_kind": "builtin-tool-return"}
    step = step_of([prompt(), response(search, answer, timestamp=T2)], ())
    assert step["agent_tool_calls"] == [{"tool": "web_search", "args": {"q": "x"}, "result": ["hit"]}]


def test_a_retry_prompt_without_a_tool_is_feedback_to_the_model_not_a_return() -> None:
    feedback = {"part_kind": "retry-prompt", "tool_name": None, "content": "answer in JSON", "timestamp": T1}
    step = step_of([prompt(), response(call("c1")), request(feedback), request(returned("c1"), timestamp=T2)])
    assert resolutions(step) == [("refund", "approved", 0)]


def test_args_holding_a_lone_surrogate_are_kept_as_the_text_given() -> None:
    lone = '{"note": "\ud800"}'
    step = step_of([prompt(), response(call("l1", "lookup", lone)), request(returned("l1", tool="lookup"))], ())
    assert step["agent_tool_calls"][0]["args"] == lone


def test_two_timestamps_are_enough_for_a_latency_and_one_is_refused_at_the_root() -> None:
    two = [request({"part_kind": "user-prompt", "content": "x"}, timestamp=T0), response(timestamp=T1)]
    assert step_of(two)["latency_ms"] == 1500.0
    two[1]["timestamp"] = None
    error = refusal(two)
    assert (error.pointer, error.reason) == (
        "",
        "the history records fewer than two timestamps: its latency cannot be derived",
    )


def test_a_call_that_did_not_run_is_listed_with_its_tool_reason_and_requested_args() -> None:
    messages = [prompt(), response(call("c1", args={"amount": 5})), request(returned("c1", "denied"), timestamp=T2)]
    mapped = map_history(read_history(messages), ("refund",))
    assert mapped.calls_not_run == [
        {"call_id": "c1", "tool": "refund", "reason": "denied", "requested_args": {"amount": 5}}
    ]
    assert sorted(mapped.step) == ["agent_final_output", "agent_tool_calls", "auto_score", "gate_events", "latency_ms"]
    assert mapped.step["auto_score"] is None


def test_an_answer_from_the_resumed_run_resolves_the_gate_and_a_history_ending_paused_leaves_it_unresolved() -> None:
    paused = [prompt(), response(call("c1"), call("c2"), call("c3"))]
    resumed = [*paused, request(returned("c1", "success"), returned("c2", "denied"), returned("c3", "success"))]
    assert resolutions(step_of(resumed)) == [
        ("refund", "approved", 0),
        ("refund", "denied", 0),
        ("refund", "approved", 0),
    ]
    assert resolutions(step_of([*paused, response(timestamp=T2)])) == [("refund", "unresolved", 0)] * 3


def test_a_call_left_unanswered_when_the_application_moved_on_with_a_new_prompt_is_unresolved() -> None:
    moved_on = [prompt(), response(call("c1")), request({"part_kind": "user-prompt", "content": "next"}), response()]
    assert resolutions(step_of(moved_on)) == [("refund", "unresolved", 0)]
    abandoned = {**returned("c1", "interrupted"), "metadata": {"pydantic_ai_synthesized_tool_return": True}}
    repaired = [prompt(), response(call("c1")), request(abandoned, {"part_kind": "user-prompt", "content": "next"})]
    assert resolutions(step_of(repaired)) == [("refund", "unresolved", 0)]


def test_an_unanswered_call_followed_by_a_resumed_run_was_decided_off_the_record_and_is_refused() -> None:
    error = refusal([prompt(), response(call("c1")), request(), response()])
    assert (error.pointer, error.reason) == (
        "",
        "'refund' call 'c1' has no answer, yet a later run followed that did not open with a new prompt: the call "
        "was answered, deferred again or dropped there, and the history does not say which",
    )
    cut_off = refusal([prompt(), response(call("c1")), request(returned("c1", "interrupted"))])
    assert cut_off.reason == (
        "the return of 'refund' call 'c1' (interrupted) cannot say whether it was approved before it went wrong"
    )


@pytest.mark.parametrize("outcome", ["success", "denied"])
def test_an_answer_inside_the_run_that_made_the_call_is_refused_as_not_a_pause(outcome: str) -> None:
    error = refusal([prompt(), response(call("c1")), request(returned("c1", outcome), run_id="run-1")])
    assert error.pointer == "/2/parts/0"
    assert error.reason == (
        f"the return of 'refund' call 'c1' ({outcome}) cannot say who decided: it was answered inside the run that "
        "made it, as a handler or a call that needed no approval would be, not after a pause"
    )


@pytest.mark.parametrize("outcome", ["failed", "retried"])
def test_a_named_call_rejected_in_its_own_run_never_reached_approval(outcome: str) -> None:
    mapped = map_history(
        read_history([prompt(), response(call("c1")), request(returned("c1", outcome), run_id="run-1")]), ("refund",)
    )
    assert mapped.step["gate_events"] == []
    assert mapped.step["agent_tool_calls"] == []
    assert [entry["reason"] for entry in mapped.calls_not_run] == [NOT_RUN_REASONS[outcome]]
    later = refusal([prompt(), response(call("c1")), request(returned("c1", outcome))])
    assert later.reason == (
        f"the return of 'refund' call 'c1' ({outcome}) cannot say whether it was approved before it went wrong"
    )


def test_a_call_whose_run_is_not_recorded_is_refused() -> None:
    error = refusal([prompt(), response(call("c1"), run_id=None), request(returned("c1"))])
    assert error.reason == (
        "the return of 'refund' call 'c1' (success) cannot say whether the run paused for it: the history does not "
        "record its run"
    )


def test_an_answer_in_requests_pydantic_ai_merged_is_a_gate_whose_place_in_the_sequence_is_unknown() -> None:
    merged = request(returned("l1", tool="lookup"), returned("c1"), run_id=None)
    later = response({"part_kind": "text", "content": "done"}, timestamp=T2, run_id="run-2")
    step = step_of([prompt(), response(call("l1", "lookup"), call("c1")), merged, later])
    assert resolutions(step) == [("refund", "approved", None)]  # the ordering is not observed: null, not guessed
    assert [c["tool"] for c in step["agent_tool_calls"]] == ["lookup", "refund"]
    same_run = refusal([prompt(), response(call("l1", "lookup"), call("c1")), merged, {**later, "run_id": "run-1"}])
    assert same_run.reason.endswith(
        "cannot say whether it was decided after a pause: the history no longer records its run"
    )
    assert refusal([prompt(), response(call("c1")), request(returned("c1"), run_id=None)]).pointer == "/2/parts/0"
    with_prompt = request(returned("c1"), {"part_kind": "user-prompt", "content": "next"}, run_id=None)
    assert refusal([prompt(), response(call("c1")), with_prompt, later]).pointer == "/2/parts/0"


def test_calls_that_ran_are_in_the_order_they_ran_and_a_gate_counts_those_before_its_decision() -> None:
    messages = [
        prompt(),
        response(call("r1"), call("l1", "lookup"), call("r2"), call("l2", "lookup")),
        request(returned("l1", tool="lookup"), returned("l2", tool="lookup"), run_id="run-1"),  # before the pause
        request(returned("r1", "denied"), returned("r2")),  # the resumed run
        response(call("r3")),
    ]
    step = step_of(messages)
    assert resolutions(step) == [("refund", "denied", 2), ("refund", "approved", 2), ("refund", "unresolved", 3)]
    assert [c.get("args", c["tool"]) for c in step["agent_tool_calls"]] == [{"id": "l1"}, {"id": "l2"}, "refund"]


def test_a_return_without_an_outcome_refuses_the_history_whatever_the_tool() -> None:
    for tool in ("refund", "lookup"):
        error = refusal([prompt(), response(call("c1", tool)), request(returned("c1", None, tool))])
        assert error.pointer == "/2/parts/0"
        assert error.reason == (
            f"the return of {tool!r} call 'c1' records no outcome (a Pydantic AI version before outcomes were "
            "recorded): a denial cannot be told from a call that ran"
        )


def test_a_call_the_framework_skipped_after_the_final_result_did_not_run_and_is_no_gate() -> None:
    skipped = returned("c1", content=TOOL_SKIPPED)
    mapped = map_history(
        read_history(
            [
                prompt(),
                response(call("c1"), call("l1", "lookup")),
                request(skipped, {**returned("l1", tool="lookup", content=TOOL_SKIPPED)}, run_id="run-1"),
            ]
        ),
        ("refund",),
    )
    assert mapped.step["gate_events"] == []
    assert mapped.step["agent_tool_calls"] == []
    assert [entry["reason"] for entry in mapped.calls_not_run] == [SKIPPED, SKIPPED]


def test_output_tool_and_framework_tool_calls_are_not_task_calls_and_the_output_is_the_final_answer() -> None:
    output = call("o1", "final_result", {"answer": 42})
    unused = call("o2", "final_result", {"answer": 41})
    search = {**call("s1", "search_tools"), "tool_kind": "tool-search"}
    answers = request(
        returned("s1", tool="search_tools", content=["refund"]),
        returned("o1", tool="final_result", content=FINAL_RESULT),
        returned("o2", tool="final_result", content="Output tool not used - a final result was already processed."),
        run_id="run-1",
    )
    mapped = map_history(read_history([prompt(), response(search, output, unused), answers]), ("refund",))
    assert mapped.step["agent_tool_calls"] == []
    assert mapped.step["gate_events"] == []
    assert mapped.other_calls == [
        {"call_id": "s1", "tool": "search_tools", "what": "framework tool (tool-search)"},
        {"call_id": "o1", "tool": "final_result", "what": "output tool"},
        {"call_id": "o2", "tool": "final_result", "what": "output tool"},
    ]
    assert mapped.step["agent_final_output"] == '{"answer":42}'


def test_calls_of_an_interrupted_response_were_never_handled_and_are_no_gates() -> None:
    cut = {**response(call("c1")), "state": "interrupted"}
    mapped = map_history(read_history([prompt(), cut, request()]), ("refund",))
    assert mapped.step["gate_events"] == []
    assert [entry["reason"] for entry in mapped.calls_not_run] == [RESPONSE_INTERRUPTED]


def test_surfaced_shows_the_requested_args_as_canonical_json_or_as_given_when_json_cannot_hold_them() -> None:
    messages = [prompt(), response(call("c1", args={"b": 1, "a": 2}), call("c2", args={"n": 2**70}))]
    surfaced = [gate["surfaced"] for gate in step_of([*messages, response(timestamp=T2)])["gate_events"]]
    assert surfaced == ['refund({"a":2,"b":1})', "refund({'n': 1180591620717411303424})"]


def test_a_gate_says_on_which_call_the_run_paused_and_why_it_is_a_gate() -> None:
    (gate,) = step_of([prompt(), response(call("c9")), response(timestamp=T2)])["gate_events"]
    assert gate["reason"] == "the run paused on tool call c9 of refund (named by --approval-tool)"
    assert gate["target_tool"] == "refund"


def synthesized(call_id: str) -> dict[str, Any]:
    """The return pydantic-ai's ``repair_messages`` makes up for a call it abandons."""
    return {**returned(call_id, "interrupted"), "metadata": {"pydantic_ai_synthesized_tool_return": True}}


def new_prompt(run_id: str = "run-2") -> dict[str, Any]:
    return request({"part_kind": "user-prompt", "content": "something else"}, run_id=run_id)


def test_made_up_returns_in_a_request_of_no_run_are_passed_over_to_the_new_prompt() -> None:
    repaired = [prompt(), response(call("c1"), call("c2")), request(synthesized("c1"), synthesized("c2"), run_id=None)]
    assert (
        resolutions(step_of([*repaired, new_prompt(), response(run_id="run-2")])) == [("refund", "unresolved", 0)] * 2
    )
    assert resolutions(step_of(repaired)) == [("refund", "unresolved", 0)] * 2  # the history ends there


def test_a_request_of_no_run_holding_a_real_answer_is_not_passed_over() -> None:
    mixed = request(synthesized("c1"), returned("l1", tool="lookup"), run_id=None)
    history = [prompt(), response(call("c1"), call("l1", "lookup")), mixed, new_prompt()]
    assert refusal(history).reason.startswith("'refund' call 'c1' has no answer, yet a later run followed")


def test_a_later_response_or_an_empty_resumed_request_is_a_later_run_not_a_new_prompt() -> None:
    assert refusal([prompt(), response(call("c1")), response(run_id=None)]).pointer == ""
    assert refusal([prompt(), response(call("c1")), request(), new_prompt()]).pointer == ""


def test_an_unresolved_gate_counts_the_calls_of_its_own_run_and_not_the_next_one() -> None:
    messages = [
        prompt(),
        response(call("c1"), call("l1", "lookup")),
        request(returned("l1", tool="lookup"), run_id="run-1"),
        new_prompt(),
        response(call("l2", "lookup"), run_id="run-2"),
        request(returned("l2", tool="lookup"), run_id="run-2"),
    ]
    assert resolutions(step_of(messages)) == [("refund", "unresolved", 1)]


def test_an_answer_at_the_head_of_the_resumed_run_comes_after_the_decision() -> None:
    messages = [
        prompt(),
        response(call("c1"), call("c2")),
        request(returned("c1"), returned("c2", "denied")),
        response(timestamp=T2, run_id="run-2"),
    ]
    assert resolutions(step_of(messages)) == [("refund", "approved", 0), ("refund", "denied", 0)]


def test_merged_requests_are_read_as_a_resume_only_from_the_next_response_s_run() -> None:
    merged_first = request(returned("c1"), run_id=None)
    gap = request(run_id=None)
    later = response({"part_kind": "text", "content": "done"}, timestamp=T2, run_id="run-2")
    assert resolutions(step_of([prompt(), response(call("c1")), merged_first, gap, later])) == [
        ("refund", "approved", None)
    ]
    same_run = {**later, "run_id": "run-1"}
    assert refusal([prompt(), response(call("c1")), merged_first, gap, same_run]).pointer == "/2/parts/0"


def test_a_response_stated_complete_has_its_calls_handled() -> None:
    complete = {**response(call("c1")), "state": "complete"}
    assert resolutions(step_of([prompt(), complete, response(timestamp=T2)])) == [("refund", "unresolved", 0)]
    assert refusal([prompt(), {**complete, "state": 5}]).pointer == "/1/state"
    assert refusal([prompt(), response({**call("c1"), "tool_kind": 5})]).pointer == "/1/parts/0/tool_kind"


def test_a_named_call_is_never_taken_for_an_output_tool_whatever_its_answer_says() -> None:
    echoed = returned("c1", content="Output tool not used - a final result was already processed.")
    error = refusal([prompt(), response(call("c1")), request(echoed, run_id="run-1")])
    assert "cannot say who decided" in error.reason


def test_a_call_left_by_a_run_that_was_cut_off_is_no_gate_and_did_not_run() -> None:
    crashed = {**request(returned("l1", "failed", "lookup"), run_id="run-1"), "state": "interrupted"}
    mapped = map_history(read_history([prompt(), response(call("c1"), call("l1", "lookup")), crashed]), ("refund",))
    assert mapped.step["gate_events"] == []
    assert [(entry["call_id"], entry["reason"]) for entry in mapped.calls_not_run] == [
        ("c1", RESPONSE_INTERRUPTED),
        ("l1", NOT_RUN_REASONS["failed"]),
    ]


def test_gates_are_listed_in_the_order_they_were_decided() -> None:
    messages = [
        prompt(),
        response(call("a"), call("b")),
        request(returned("b")),  # b approved at the first pause; a asked again
        response(run_id="run-2"),
        request(returned("a"), run_id="run-3"),
        response(timestamp=T2, run_id="run-3"),
    ]
    step = step_of(messages)
    assert [(gate["surfaced"], gate["task_calls_before"]) for gate in step["gate_events"]] == [
        ('refund({"id":"b"})', 0),
        ('refund({"id":"a"})', 1),
    ]


def test_a_timestamp_on_a_response_part_is_read_and_checked() -> None:
    answer = {
        **returned("b1", tool="web_search"),
        "part_kind": "builtin-tool-return",
        "timestamp": "2026-12-01T09:00:00Z",
    }
    search = {"part_kind": "builtin-tool-call", "tool_name": "web_search", "tool_call_id": "b1", "args": {}}
    assert step_of([prompt(), response(search, answer, timestamp=T1)], ())["latency_ms"] == 3_601_500.0
    bad = {**answer, "timestamp": "yesterday"}
    assert refusal([prompt(), response(search, bad)], ()).pointer == "/1/parts/1/timestamp"


def test_every_unnamed_denial_is_counted() -> None:
    messages = [
        prompt(),
        response(call("a", "lookup"), call("b", "lookup")),
        request(*(returned(i, "denied", "lookup") for i in "ab")),
    ]
    assert map_history(read_history(messages), ()).denials_not_gated == 2


def test_answers_before_the_made_up_ones_do_not_count_against_them() -> None:
    messages = [
        prompt(),
        response(call("l1", "lookup"), call("c1"), call("c2")),
        request(returned("l1", tool="lookup"), run_id="run-1"),
        request(synthesized("c1"), run_id=None),
        request(synthesized("c2"), run_id=None),
        new_prompt(),
    ]
    assert resolutions(step_of(messages)) == [("refund", "unresolved", 1)] * 2


def test_two_built_in_tools_answered_in_one_response_are_two_calls_in_their_order() -> None:
    parts = [
        {"part_kind": "builtin-tool-call", "tool_name": "web_search", "tool_call_id": "b1", "args": {"q": "1"}},
        {**returned("b1", tool="web_search", content="one"), "part_kind": "builtin-tool-return"},
        {"part_kind": "builtin-tool-call", "tool_name": "web_search", "tool_call_id": "b2", "args": {"q": "2"}},
        {**returned("b2", tool="web_search", content="two"), "part_kind": "builtin-tool-return"},
    ]
    step = step_of([prompt(), response(*parts, timestamp=T2)], ())
    assert [c["result"] for c in step["agent_tool_calls"]] == ["one", "two"]


def test_gates_whose_deciding_run_is_no_longer_recorded_keep_their_calls_places_among_the_others() -> None:
    merged = request(returned("c1"), returned("c2", "denied"), run_id=None)
    messages = [
        prompt(),
        response(call("c1"), call("c2")),
        merged,
        response(call("c3"), run_id="run-2"),
        request(returned("c3"), run_id="run-3"),
        response(timestamp=T2, run_id="run-3"),
    ]
    assert resolutions(step_of(messages)) == [
        ("refund", "approved", None),
        ("refund", "denied", None),
        ("refund", "approved", 1),
    ]
