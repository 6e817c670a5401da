"""The LangGraph mapping's rules, one by one, on hand-made store facts (langgraph_facts.py): the decoder, the
messages, the pauses and the thread. Fast and database-free, so the mutation gate runs them for every mutant."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from langgraph_facts import (
    Checkpoint,
    FakeStore,
    ai,
    chain,
    human,
    interrupt,
    paused_thread,
    per_call,
    request,
    tool,
)

from evalscore.importers.langgraph._decode import (
    MAX_OBJECT_DEPTH,
    DeltaSnapshot,
    Named,
    StoredValueError,
    decode_stored,
)
from evalscore.importers.langgraph._messages import read_messages, text_of
from evalscore.importers.langgraph._pauses import match_key
from evalscore.importers.langgraph._store import ThreadValueError
from evalscore.importers.langgraph._thread import MappedThread, map_thread

CALL = ("call-1", "refund", {"order": "A1"})
RAN = tool("m-t", "call-1", "refunded A1")


def mapped(store: FakeStore, **rows: Any) -> MappedThread:
    return map_thread(store, store.rows(**rows))


def gates(thread: MappedThread) -> list[tuple[Any, ...]]:
    return [
        (g["resolution"], g["target_tool"], g["task_calls_before"], g["decision_latency_upper_bound_ms"])
        for g in thread.step["gate_events"]
    ]


def calls(thread: MappedThread) -> list[tuple[str, Any, Any]]:
    return [(c["tool"], c["args"], c["result"]) for c in thread.step["agent_tool_calls"]]


def not_run(thread: MappedThread) -> list[tuple[str, str]]:
    return [(entry["call_id"], entry["reason"]) for entry in thread.provenance["calls_not_run"]]


def refused(store: FakeStore, match: str) -> None:
    with pytest.raises(ThreadValueError, match=match):
        mapped(store)


# --- decoding: data only ----------------------------------------------------------------------------


def ext(code: int, *parts: Any) -> msgpack.ExtType:
    return msgpack.ExtType(code, msgpack.packb(list(parts)))


@pytest.mark.parametrize("code", [0, 1, 2, 3, 4, 5])
def test_every_object_extension_is_a_named_record_never_built(code: int) -> None:
    value = decode_stored("msgpack", msgpack.packb({"x": ext(code, "os", "system", ["echo"], "method")}))
    assert value == {"x": Named("os", "system", ["echo"])}
    assert value["x"].is_("os", "system")
    assert not value["x"].is_("os", "popen")
    assert not value["x"].is_("posix", "system")
    assert value["x"].qualified == "os.system"


def test_a_delta_snapshot_is_its_value_and_numpy_or_unknown_extensions_are_refused() -> None:
    assert decode_stored("msgpack", msgpack.packb(msgpack.ExtType(7, msgpack.packb([1, 2])))) == DeltaSnapshot([1, 2])
    for code in (6, 8, 100):
        with pytest.raises(StoredValueError, match=f"extension {code} is not an object"):
            decode_stored("msgpack", msgpack.packb(msgpack.ExtType(code, msgpack.packb([]))))


@pytest.mark.parametrize("payload", [["os"], ["os", 1, 2], [1, "x", 2], "os.system", None])
def test_an_extension_that_names_no_module_and_class_is_refused(payload: Any) -> None:
    with pytest.raises(StoredValueError, match="does not name a module and a class"):
        decode_stored("msgpack", msgpack.packb(msgpack.ExtType(2, msgpack.packb(payload))))


def test_objects_nested_deeper_than_the_bound_are_refused() -> None:
    def nested(depth: int) -> bytes:
        value = msgpack.packb(None)
        for _ in range(depth):
            value = msgpack.packb(msgpack.ExtType(7, value))
        return value

    assert decode_stored("msgpack", nested(MAX_OBJECT_DEPTH)) is not None
    with pytest.raises(StoredValueError, match=f"nested more than {MAX_OBJECT_DEPTH} deep"):
        decode_stored("msgpack", nested(MAX_OBJECT_DEPTH + 1))


@pytest.mark.parametrize(
    ("tag", "data", "expected"), [("null", b"junk", None), ("bytes", b"ab", b"ab"), ("bytearray", None, b"")]
)
def test_null_and_bytes_values(tag: str, data: bytes | None, expected: Any) -> None:
    assert decode_stored(tag, data) == expected


@pytest.mark.parametrize(
    ("tag", "data", "reason"),
    [
        ("pickle", b"\x80\x04N.", "never loaded"),
        ("json", b"{}", "type 'json' is not one"),
        (None, b"", "type None is not one"),
        ("msgpack", None, "no bytes"),
        ("msgpack", b"\xc1", "not a msgpack value"),
        ("msgpack", b"\x91" * 5000 + b"\xc0", "not a msgpack value"),
        ("msgpack", b"\x81\x91\x01\x02", "not a msgpack value"),
        ("msgpack", b"\xa2\xff\xfe", "not a msgpack value"),
        ("msgpack", b"\xc0\xc0", "not a msgpack value"),
    ],
)
def test_what_langgraph_would_not_write_as_data_is_refused(tag: Any, data: bytes | None, reason: str) -> None:
    with pytest.raises(StoredValueError, match=reason):
        decode_stored(tag, data)


# --- messages ---------------------------------------------------------------------------------------


def test_langchain_messages_are_read_and_anything_else_is_refused_by_its_type() -> None:
    read = read_messages([human("h"), ai("a", CALL, model="m-1"), RAN], "cp")
    assert [(m.kind, m.message_id) for m in read] == [("human", "h"), ("ai", "a"), ("tool", "m-t")]
    assert [(c.call_id, c.tool, c.args) for c in read[1].calls] == [CALL]
    assert (read[1].model, read[0].model) == ("m-1", None)
    assert (read[2].answers, read[2].status, read[2].marker) == ("call-1", "success", None)
    with pytest.raises(ThreadValueError, match=r"cp, message 1 is of type evil\.Thing"):
        read_messages([human("h"), Named("evil", "Thing", {})], "cp")
    with pytest.raises(ThreadValueError, match="is a dict, not a LangChain message"):
        read_messages([{"role": "user"}], "cp")
    with pytest.raises(ThreadValueError, match="holds a str, not a list"):
        read_messages("hello", "cp")
    assert read_messages(None, "cp") == []
    assert [m.kind for m in read_messages(DeltaSnapshot([human("h")]), "cp")] == ["human"]


def test_a_review_marker_is_read_with_its_decision() -> None:
    marked = read_messages([tool("t", "c", "no", status="error", marker="reject")], "cp")[0]
    assert marked.marker == "reject"
    bare = Named(
        "langchain_core.messages.tool",
        "ToolMessage",
        {"content": "x", "tool_call_id": "c", "additional_kwargs": {"lc_source": "hitl_interrupt_decision"}},
    )
    assert read_messages([bare], "cp")[0].marker == ""
    other = Named(
        "langchain_core.messages.tool",
        "ToolMessage",
        {"content": "x", "tool_call_id": "c", "additional_kwargs": {"lc_source": "summary"}},
    )
    assert read_messages([other], "cp")[0].marker is None


@pytest.mark.parametrize(
    ("tool_calls", "reason"),
    [
        ("refund", "tool_calls is a str, not a list"),
        ([{"name": "refund"}], "tool call 0 has no string id and name"),
        ([{"id": "c", "name": 5}], "tool call 0 has no string id and name"),
        ([{"id": "c", "name": "r", "args": {"when": Named("datetime", "datetime", ["2026"])}}], "JSON cannot carry"),
        ([{"id": "c", "name": "r", "args": {1: "x"}}], "map key that is not a string"),
        ([{"id": "c", "name": "r", "args": [b"raw"]}], "JSON cannot carry"),
    ],
)
def test_tool_calls_must_be_plain_data(tool_calls: Any, reason: str) -> None:
    message = Named("langchain_core.messages.ai", "AIMessage", {"content": "", "tool_calls": tool_calls})
    with pytest.raises(ThreadValueError, match=reason):
        read_messages([message], "cp")


def test_text_of_a_message() -> None:
    assert text_of("plain") == "plain"
    assert text_of([{"type": "text", "text": "a"}, {"type": "image"}, {"text": "b"}, "c"]) == "ab"
    assert text_of(None) == ""


# --- batched reviews ----------------------------------------------------------------------------------


def test_approve_is_approved_with_a_bound_and_the_call_ran() -> None:
    thread = mapped(paused_thread({"decisions": [{"type": "approve"}]}, [RAN]))
    assert gates(thread) == [("approved", "refund", 0, 500.0)]
    assert calls(thread) == [("refund", {"order": "A1"}, "refunded A1")]
    gate = thread.step["gate_events"][0]
    assert gate["surfaced"] == "Review refund {'order': 'A1'}"
    assert (gate["opened_at"], gate["resolved_at"], gate["decision_latency_ms"]) == (None, None, None)
    assert (gate["overseers"], gate["approval_chain"], gate["kind"]) == ([], [], "approval_request")
    assert gate["reason"] == "the graph paused for review of tool call call-1 of refund (batched)"
    assert thread.step["agent_final_output"] == "done"
    assert thread.step["latency_ms"] == 600.0
    assert (thread.started_at, thread.ended_at) == (
        "2026-03-01T09:00:00.000000+00:00",
        "2026-03-01T09:00:00.600000+00:00",
    )


def test_a_request_without_a_description_surfaces_the_call_itself() -> None:
    store = paused_thread(
        {"decisions": [{"type": "approve"}]}, [RAN], value=request(("refund", {"order": "A1"}), descriptions=False)
    )
    assert mapped(store).step["gate_events"][0]["surfaced"] == 'refund({"order":"A1"})'


def test_edit_is_approved_and_what_ran_is_the_edit() -> None:
    edit = {"type": "edit", "edited_action": {"name": "refund_small", "args": {"order": "A1", "cap": 2}}}
    thread = mapped(paused_thread({"decisions": [edit]}, [RAN]))
    assert gates(thread) == [("approved", "refund_small", 0, 500.0)]
    assert calls(thread) == [("refund_small", {"order": "A1", "cap": 2}, "refunded A1")]
    assert thread.provenance["edited_calls_requested"] == [
        {"call_id": "call-1", "requested_tool": "refund", "requested_args": {"order": "A1"}}
    ]


@pytest.mark.parametrize(
    ("decision", "resolution", "reason"),
    [
        ({"type": "reject", "message": "no"}, "denied", "rejected by the reviewer"),
        ({"type": "reject"}, "denied", "rejected by the reviewer"),
        ({"type": "respond", "message": "Visa"}, "answered", "answered by the reviewer in place of the tool"),
    ],
)
def test_reject_and_respond_did_not_run(decision: dict[str, Any], resolution: str, reason: str) -> None:
    marked = tool("m-t", "call-1", "x", status="error", marker=decision["type"])
    for results in ([marked], []):
        thread = mapped(paused_thread({"decisions": [decision]}, results))
        assert gates(thread) == [(resolution, "refund", 0, 500.0)]
        assert calls(thread) == []
        assert not_run(thread) == [("call-1", reason)]
        assert thread.provenance["calls_not_run"][0]["requested_args"] == {"order": "A1"}


def test_no_answer_at_the_latest_checkpoint_is_unresolved_without_a_bound() -> None:
    thread = mapped(paused_thread(None, [], resumed=False))
    assert gates(thread) == [("unresolved", "refund", 0, None)]
    assert not_run(thread) == [("call-1", "awaiting review: the thread ends paused")]
    assert thread.step["agent_final_output"] == ""


def test_a_batch_pairs_decisions_by_position_and_a_call_let_through_is_free() -> None:
    turn = (("c-a", "refund", {"o": 1}), ("c-l", "lookup", {"o": 1}), ("c-b", "refund", {"o": 2}))
    answer = {"decisions": [{"type": "approve"}, {"type": "reject", "message": "no"}]}
    results = [
        tool("t-b", "c-b", "no", status="error", marker="reject"),
        tool("t-l", "c-l", "ok"),
        tool("t-a", "c-a", "done"),
    ]
    value = request(("refund", {"o": 1}), ("refund", {"o": 2}))
    thread = mapped(paused_thread(answer, results, calls=turn, value=value))
    assert gates(thread) == [("approved", "refund", 0, 500.0), ("denied", "refund", 0, 500.0)]
    assert calls(thread) == [("lookup", {"o": 1}, "ok"), ("refund", {"o": 1}, "done")]  # in the order of their results


def test_a_listed_call_the_turn_does_not_hold_refuses() -> None:
    refused(
        paused_thread(None, [], value=request(("refund", {"order": "B2"})), resumed=False),
        "args the model turn does not hold",
    )


def test_args_must_match_type_for_type() -> None:
    for args in ({"order": "A1", "n": 1.0}, {"order": "A1", "n": True}):
        turn = (("call-1", "refund", {"order": "A1", "n": 1}),)
        refused(paused_thread(None, [], calls=turn, value=request(("refund", args)), resumed=False), "does not hold")


def test_an_unlisted_call_identical_to_a_listed_one_is_ambiguous_and_refused() -> None:
    turn = (("c-1", "refund", {"o": 1}), ("c-2", "refund", {"o": 1}))
    refused(
        paused_thread(None, [], calls=turn, value=request(("refund", {"o": 1})), resumed=False),
        "which of the identical",
    )


def test_listed_calls_are_matched_in_order() -> None:
    turn = (("c-1", "refund", {"o": 1}), ("c-2", "refund", {"o": 2}))
    refused(
        paused_thread(None, [], calls=turn, value=request(("refund", {"o": 2}), ("refund", {"o": 1})), resumed=False),
        "does not hold",
    )


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ({"decisions": [{"type": "ignore"}]}, "decision type 'ignore' is not one of approve, edit, reject, respond"),
        ({"decisions": ["approve"]}, "decision type None"),
        ({"decisions": []}, "answers 0 decision"),
        ({"decisions": "approve"}, "answers 0 decision"),
        ({"decision": [{"type": "approve"}]}, "answers 0 decision"),
        ({"decisions": [{"type": "approve"}, {"type": "approve"}]}, "answers 2 decision"),
        ({"decisions": [{"type": "edit", "edited_action": {"name": "refund"}}]}, "an edit without an edited action"),
        ({"decisions": [{"type": "edit", "edited_action": {"name": 1, "args": {}}}]}, "an edit without"),
        ({"decisions": [{"type": "edit", "edited_action": {"name": "r", "args": {"d": b"x"}}}]}, "JSON cannot carry"),
        ({"decisions": [{"type": "respond"}]}, "respond decision without its message"),
        ({"decisions": [{"type": "reject", "message": 5}]}, "the message is not text"),
    ],
)
def test_a_decision_that_does_not_fit_refuses(answer: Any, reason: str) -> None:
    refused(paused_thread(answer, [RAN]), reason)


def test_resume_values_must_pair_with_the_interrupts() -> None:
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    store.checkpoints[1].writes[1] = ("task-h", "__resume__", [{"decisions": [{"type": "approve"}]}] * 2)
    refused(store, "do not pair one to one with its 1 interrupt")
    store.checkpoints[1].writes[1] = ("task-h", "__resume__", {"decisions": [{"type": "approve"}]})
    refused(store, "do not pair one to one")


def test_another_tasks_resume_is_not_this_reviews_answer() -> None:
    store = paused_thread(None, [RAN])
    store.checkpoints[1].writes.append(("other-task", "__resume__", [{"decisions": [{"type": "approve"}]}]))
    refused(store, "moved past checkpoint c2 with no recorded answer to the review of tool call")


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ([], "is not a list of interrupts"),
        ("x", "is not a list of interrupts"),
        ([Named("langgraph.types", "Send", {})], "an interrupt that is not langgraph's"),
        ([Named("langgraph.types", "Interrupt", ["v"])], "an interrupt that is not langgraph's"),
        ([interrupt("Continue?")], "not a HumanInTheLoopMiddleware review request"),
        ([interrupt([{"action_request": {"action": "refund", "args": {}}}, {"other": 1}])], "not a HumanInTheLoop"),
        ([interrupt([])], "not a HumanInTheLoopMiddleware review request"),
    ],
)
def test_an_interrupt_that_is_not_a_review_request_refuses(value: Any, reason: str) -> None:
    store = paused_thread(None, [], resumed=False)
    store.checkpoints[1].writes[0] = ("task-h", "__interrupt__", value)
    refused(store, reason)


def test_a_review_whose_paused_state_ends_without_a_model_turn_refuses() -> None:
    store = paused_thread(None, [], resumed=False)
    store.checkpoints[1].messages = [human("m-h")]
    refused(store, "last message is no model turn")


# --- per-call reviews ---------------------------------------------------------------------------------


def per_call_thread(decisions: list[Any], *, sibling: bool) -> FakeStore:
    turn = ai("m-ai", ("c-a", "refund", {"o": 1}), ("c-l", "lookup", {"o": 1}), ("c-b", "refund", {"o": 2}))
    base = [human("m-h"), turn]
    writes: list[tuple[str, str, Any]] = [
        ("task-a", "__interrupt__", [interrupt(per_call("c-a", "refund", {"o": 1}))]),
        ("task-b", "__interrupt__", [interrupt(per_call("c-b", "refund", {"o": 2}))]),
    ]
    if sibling:
        writes.append(("task-l", "messages", [tool("t-l", "c-l", "ok")]))
    for task, decision in zip(("task-a", "task-b"), decisions, strict=False):
        writes.append((task, "__resume__", [decision]))
    results = [
        tool("t-a", "c-a", "done"),
        tool("t-l", "c-l", "ok"),
        tool("t-b", "c-b", "no", status="error", marker="reject"),
    ]
    return FakeStore(
        chain(
            Checkpoint("c1", 0, [human("m-h")]),
            Checkpoint("c2", 10, base, writes=writes),
            Checkpoint("c3", 30, [*base, *results]),
        )
    )


def test_per_call_reviews_name_their_call_and_a_sibling_result_makes_the_order_unknown() -> None:
    decisions = [{"type": "approve"}, {"type": "reject"}]
    thread = mapped(per_call_thread(decisions, sibling=True))
    assert gates(thread) == [("approved", "refund", None, 20.0), ("denied", "refund", None, 20.0)]
    assert thread.step["gate_events"][0]["reason"].endswith("(per_call)")
    assert thread.step["gate_events"][0]["surfaced"] == "? refund"
    without_sibling = mapped(per_call_thread(decisions, sibling=False))
    assert [g[2] for g in gates(without_sibling)] == [0, 0]


def test_a_per_call_review_of_a_call_the_turn_does_not_hold_or_with_other_args_refuses() -> None:
    store = per_call_thread([{"type": "approve"}] * 2, sibling=False)
    store.checkpoints[1].writes[0] = ("task-a", "__interrupt__", [interrupt(per_call("c-x", "refund", {"o": 1}))])
    refused(store, "a review of tool call 'c-x', which the paused model turn does not hold")
    store.checkpoints[1].writes[0] = ("task-a", "__interrupt__", [interrupt(per_call("c-a", "refund", {"o": 9}))])
    refused(store, "names another tool or other args")
    store.checkpoints[1].writes[0] = ("task-a", "__interrupt__", [interrupt(per_call(["c-a"], "refund", {"o": 1}))])  # type: ignore[arg-type]
    refused(store, r"a review of tool call \['c-a'\], which the paused model turn does not hold")
    store.checkpoints[1].writes[0] = ("task-a", "__interrupt__", [interrupt(per_call("c-a", "lookup", {"o": 1}))])
    refused(store, "names another tool or other args")


def test_a_per_call_answer_while_another_call_still_waits_has_no_bound() -> None:
    store = per_call_thread([{"type": "approve"}], sibling=False)
    store.checkpoints.pop()  # the thread ends paused on c-b; c-a's result is still a pending write
    store.checkpoints[1].writes.append(("task-a", "messages", [tool("t-a", "c-a", "done")]))
    thread = mapped(store)
    # c-a's own result came after its decision (0 before it); it ran while c-b's review was open (order unknown)
    assert gates(thread) == [("approved", "refund", 0, None), ("unresolved", "refund", None, None)]
    assert calls(thread) == [("refund", {"o": 1}, "done")]
    assert not_run(thread) == [
        ("c-l", "no result recorded (whether the tool's body ran is not recorded)"),
        ("c-b", "awaiting review: the thread ends paused"),
    ]


# --- results against decisions ------------------------------------------------------------------------


def test_a_marker_the_resume_contradicts_refuses() -> None:
    marked = tool("m-t", "call-1", "x", status="error", marker="reject")
    refused(
        paused_thread({"decisions": [{"type": "approve"}]}, [marked]),
        r"carries a review marker \(reject\) but the resume write says approve",
    )
    refused(paused_thread({"decisions": [{"type": "respond", "message": "m"}]}, [marked]), "says respond")


def test_a_marker_on_a_call_no_review_answered_refuses() -> None:
    turn = (CALL, ("call-2", "lookup", {}))
    results = [RAN, tool("t-2", "call-2", "x", marker="approve")]
    store = paused_thread(
        {"decisions": [{"type": "approve"}]}, results, calls=turn, value=request(("refund", {"order": "A1"}))
    )
    refused(store, "marker .approve. but the resume write records no review")


def test_a_marker_without_a_decision_contradicts_every_decision() -> None:
    bare = Named(
        "langchain_core.messages.tool",
        "ToolMessage",
        {"content": "x", "tool_call_id": "call-1", "additional_kwargs": {"lc_source": "hitl_interrupt_decision"}},
    )
    refused(paused_thread({"decisions": [{"type": "approve"}]}, [bare]), r"marker \(no decision\)")


def test_an_ordinary_result_for_a_rejected_or_answered_call_refuses() -> None:
    for decision in ({"type": "reject"}, {"type": "respond", "message": "m"}):
        refused(paused_thread({"decisions": [decision]}, [RAN]), "ordinary result: it may have run")


def test_a_result_for_an_unanswered_review_refuses() -> None:
    store = paused_thread(None, [], resumed=False)
    store.checkpoints[1].writes.append(("task-t", "messages", [RAN]))
    refused(store, "has a result, yet its review has no recorded answer")


def test_an_error_result_or_none_is_a_call_that_did_not_run() -> None:
    failed = tool("m-t", "call-1", "boom", status="error")
    thread = mapped(paused_thread({"decisions": [{"type": "approve"}]}, [failed]))
    assert calls(thread) == []
    assert not_run(thread) == [
        ("call-1", "its result has status error: the store does not say whether the tool's body ran")
    ]
    assert gates(thread)[0][0] == "approved"
    missing = mapped(paused_thread({"decisions": [{"type": "approve"}]}, []))
    assert not_run(missing) == [("call-1", "no result recorded (whether the tool's body ran is not recorded)")]


def test_two_results_for_one_call_refuse() -> None:
    refused(paused_thread({"decisions": [{"type": "approve"}]}, [RAN, tool("m-t2", "call-1", "again")]), "two results")


def test_messages_removed_from_the_state_refuse_the_thread() -> None:
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    for checkpoint in store.checkpoints[2:]:
        checkpoint.messages = [human("m-h"), ai("m-end", content="done")]
    assert message_of(store) == (
        "checkpoint c3 no longer holds messages its parent held (summarized or removed): calls that ran may be "
        "missing from the latest messages"
    )
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    store.checkpoints[3].messages = [ai("m-ai", CALL), human("m-h"), RAN]  # reordered
    refused(store, "checkpoint c4 no longer holds")


def test_calls_before_a_pause_are_those_whose_results_the_paused_state_holds() -> None:
    first = ai("m-1", ("c-l", "lookup", {}))
    looked = tool("t-l", "c-l", "ok")
    turn = ai("m-2", CALL)
    base = [human("m-h"), first, looked, turn]
    writes = [("task-h", "__interrupt__", [interrupt(request(("refund", {"order": "A1"})))]),
              ("task-h", "__resume__", [{"decisions": [{"type": "approve"}]}])]  # fmt: skip
    store = FakeStore(
        chain(
            Checkpoint("c1", 0, base[:3]), Checkpoint("c2", 5, base, writes=writes), Checkpoint("c3", 9, [*base, RAN])
        )
    )
    thread = mapped(store)
    assert gates(thread) == [("approved", "refund", 1, 4.0)]
    assert [c[0] for c in calls(thread)] == ["lookup", "refund"]
    # a history rewritten after the pause is refused, not counted
    store.checkpoints[2].messages = [human("m-other"), *base[1:], RAN]
    refused(store, "checkpoint c3 no longer holds messages its parent held")


def test_the_lineage_ends_at_the_largest_id_and_other_branches_are_counted_not_read() -> None:
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    store.checkpoints.append(Checkpoint("c0-abandoned", 1, [human("m-x")], parent="c1"))
    thread = mapped(store, thread_id="t", subgraph=3)
    assert thread.provenance["lineage_checkpoints"] == 4
    assert thread.provenance["checkpoints_on_other_branches"] == 1
    assert thread.provenance["subgraph_checkpoints"] == 3
    assert thread.provenance["latest_checkpoint_id"] == "c4"
    assert thread.provenance["pauses_with_review"] == 1
    assert thread.provenance["metadata_keys"] == ["source", "user_id"]
    assert thread.provenance["thread_id"] == "t"


def test_a_paused_checkpoint_with_two_children_is_a_fork_and_refused() -> None:
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    store.checkpoints.append(Checkpoint("c2-b", 20, store.checkpoints[1].messages, parent="c2"))
    refused(store, "paused checkpoint c2 has 2 children")


def test_leaving_a_pause_other_than_by_the_loop_is_refused() -> None:
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    store.checkpoints[2].source = "update"
    refused(store, r"through checkpoint c3 \(source 'update', not the loop's\)")


def test_a_missing_parent_or_a_cycle_is_refused() -> None:
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    store.checkpoints[0].parent = "c9"
    refused(store, "checkpoint c1 names a parent c9 the store does not hold")
    store.checkpoints[0].parent = "c4"
    refused(store, "form a cycle")
    refused(FakeStore([]), "no checkpoint in the root graph")


def test_a_ts_that_is_not_an_instant_refuses_and_a_clock_running_backwards_gives_no_bound() -> None:
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    store.checkpoints[1].ts = "yesterday"
    refused(store, r"checkpoint c2 records no RFC 3339 ts with an offset \('yesterday'\)")
    store.checkpoints[1].ts = "2026-03-01T09:00:00"
    refused(store, "no RFC 3339 ts")
    store.checkpoints[1].ts = 5
    refused(store, "no RFC 3339 ts")
    store.checkpoints[1].ts = "2026-02-30T09:00:00+00:00"
    refused(store, "no RFC 3339 ts")
    store.checkpoints[1].ts = "2026-03-01T09:00:00.600000+00:00"  # after the next checkpoint's
    assert gates(mapped(store))[0][3] is None
    store.checkpoints[1].ts = "2026-03-01T09:00:00.510000+00:00"  # the same instant: a bound of zero
    assert gates(mapped(store))[0][3] == 0.0
    store.checkpoints[3].ts = "2026-03-01T08:00:00+00:00"
    refused(store, "latest checkpoint has a ts earlier than its first")


def test_each_lineage_state_is_read_once() -> None:
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    mapped(store)
    assert store.reads == 4


def test_models_are_listed_once_each_in_order() -> None:
    turn = [ai("a", model="m-2"), ai("b", model="m-1"), ai("c", model="m-2"), ai("d", CALL)]
    writes = [("task-h", "__interrupt__", [interrupt(request(("refund", {"order": "A1"})))]),
              ("task-h", "__resume__", [{"decisions": [{"type": "approve"}]}])]  # fmt: skip
    store = FakeStore(
        chain(
            Checkpoint("c1", 0, turn[:1]), Checkpoint("c2", 5, turn, writes=writes), Checkpoint("c3", 9, [*turn, RAN])
        )
    )
    assert mapped(store).models == ("m-2", "m-1")


def inbox(*actions: tuple[str, Any]) -> list[dict[str, Any]]:
    return [
        {"action_request": {"action": name, "args": args}, "config": {}, "description": name} for name, args in actions
    ]


INBOX_TURN = (("c-a", "refund", {"o": 1}), ("c-b", "refund", {"o": 2}), ("c-q", "ask", {}), ("c-l", "lookup", {}))
INBOX_VALUE = inbox(("refund", {"o": 1}), ("refund", {"o": 2}), ("ask", {}), ("lookup", {}))


def inbox_thread(answer: Any, results: list[Any] | None = None) -> FakeStore:
    ordinary = [
        tool("t-a", "c-a", "ran a"),
        tool("t-b", "c-b", "ran b"),
        tool("t-q", "c-q", "Visa"),
        tool("t-l", "c-l", "ignored"),
    ]
    return paused_thread(answer, ordinary if results is None else results, calls=INBOX_TURN, value=INBOX_VALUE)


def test_agent_inbox_answers_are_decisions_and_ordinary_messages_of_unrun_calls_are_not_runs() -> None:
    answer = [
        {"type": "accept", "args": None},
        {"type": "edit", "args": {"action": "refund", "args": {"o": 3}}},
        {"type": "response", "args": "Visa"},
        {"type": "ignore", "args": None},
    ]
    thread = mapped(inbox_thread(answer))
    assert gates(thread) == [
        ("approved", "refund", 0, 500.0),
        ("approved", "refund", 0, 500.0),
        ("answered", "ask", 0, 500.0),
        ("unresolved", "lookup", 0, None),
    ]
    assert calls(thread) == [("refund", {"o": 1}, "ran a"), ("refund", {"o": 3}, "ran b")]
    assert not_run(thread) == [
        ("c-q", "answered by the reviewer in place of the tool"),
        ("c-l", "ignored by the reviewer (Agent Inbox): not run, not decided"),
    ]
    assert thread.step["gate_events"][0]["reason"].endswith("(agent_inbox)")
    assert thread.step["gate_events"][2]["surfaced"] == "ask"


def test_an_ignored_call_lets_the_graph_move_on_and_an_unanswered_one_does_not() -> None:
    ignore_all = [{"type": "ignore", "args": None}] * 4
    assert [g[0] for g in gates(mapped(inbox_thread(ignore_all)))] == ["unresolved"] * 4
    refused(inbox_thread(None), "moved past checkpoint c2 with no recorded answer")


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ([{"type": "accept"}] * 3, "answers 3 human response.s. to 4 request"),
        ({"type": "accept"}, "answers 0 human response"),
        ([{"type": "approve"}] * 4, "response type 'approve' is not one of accept, edit, ignore, response"),
        ([{"type": "edit", "args": {"action": "refund"}}] + [{"type": "accept"}] * 3, "an edit without an edited"),
        ([{"type": "edit", "args": {"action": 1, "args": {}}}] + [{"type": "accept"}] * 3, "an edit without"),
        ([{"type": "edit", "args": {"action": "r", "args": {"x": b"b"}}}] + [{"type": "accept"}] * 3, "JSON cannot"),
        ([{"type": "response", "args": None}] + [{"type": "accept"}] * 3, "a response without its text"),
        (["accept"] * 4, "response type None"),
    ],
)
def test_an_agent_inbox_answer_that_does_not_fit_refuses(answer: Any, reason: str) -> None:
    refused(inbox_thread(answer), reason)


def test_an_agent_inbox_request_must_name_an_action_the_turn_holds() -> None:
    store = inbox_thread([{"type": "accept"}] * 4)
    store.checkpoints[1].writes[0] = ("task-h", "__interrupt__", [interrupt([{"action_request": {"args": {}}}])])
    refused(store, "human interrupt 0 names no action")
    store.checkpoints[1].writes[0] = ("task-h", "__interrupt__", [interrupt([{"action_request": "refund"}])])
    refused(store, "human interrupt 0 names no action")
    store.checkpoints[1].writes[0] = ("task-h", "__interrupt__", [interrupt(inbox(("refund", {"o": 9})))])
    refused(store, "args the model turn does not hold")
    store.checkpoints[1].writes[0] = ("task-h", "__interrupt__", [interrupt(inbox(("lookup", {})))])
    store.checkpoints[1].messages = [human("m-h"), ai("m-ai", *INBOX_TURN, ("c-l2", "lookup", {}))]
    refused(store, "tool call c-l2 has the name and args of a reviewed call but was not listed")
    store.checkpoints[1].messages = [human("m-h")]
    refused(store, "last message is no model turn")


def test_a_review_marker_on_an_agent_inbox_call_is_checked_against_the_response() -> None:
    answer = [{"type": "accept"}, {"type": "accept"}, {"type": "response", "args": "Visa"}, {"type": "ignore"}]
    results = [tool("t-a", "c-a", "x", marker="reject"), tool("t-b", "c-b", "ran b")]
    refused(inbox_thread(answer, results), r"marker \(reject\) but the resume write says approve")


# --- each refusal says where and what -----------------------------------------------------------------


def message_of(store: FakeStore) -> str:
    with pytest.raises(ThreadValueError) as raised:
        mapped(store)
    return str(raised.value)


def test_decoding_refusals_name_what_and_why() -> None:
    with pytest.raises(StoredValueError) as raised:
        decode_stored("pickle", b"")
    assert str(raised.value) == "the value is a Python pickle, which is never loaded: it can run any code"
    with pytest.raises(StoredValueError) as raised:
        decode_stored("msgpack", None)
    assert str(raised.value) == "a msgpack value with no bytes"
    with pytest.raises(StoredValueError) as raised:
        decode_stored("msgpack", b"\xc0\xc0")
    assert str(raised.value).startswith("not a msgpack value langgraph writes (ExtraData: ")


def test_an_object_of_three_parts_is_named_and_maps_may_have_keys_that_are_not_strings() -> None:
    assert decode_stored("msgpack", msgpack.packb(ext(0, "uuid", "UUID", "abc"))) == Named("uuid", "UUID", "abc")
    assert decode_stored("msgpack", msgpack.packb({1: "a", 2.5: "b"})) == {1: "a", 2.5: "b"}


def test_message_refusals_name_the_message_and_the_field() -> None:
    with pytest.raises(ThreadValueError) as raised:
        read_messages([ai("a", ("c", "r", {"when": Named("datetime", "datetime", [])}))], "cp")
    assert str(raised.value) == (
        "cp, message 0: tool call c args holds an object of type datetime.datetime, which JSON cannot carry as it "
        "was stored"
    )
    with pytest.raises(ThreadValueError) as raised:
        read_messages([ai("a", content=[{"image": b"png"}])], "cp")
    assert str(raised.value) == "cp, message 0: content holds a bytes, which JSON cannot carry as it was stored"
    with pytest.raises(ThreadValueError) as raised:
        read_messages([ai("a", ("c", "r", {3: 1}))], "cp")
    assert str(raised.value) == "cp, message 0: tool call c args has a map key that is not a string (a int)"


def test_fields_of_other_kinds_of_message_are_not_read() -> None:
    human_fields = {"content": "hi", "id": 7, "tool_calls": "garbage", "tool_call_id": "c", "status": "error"}
    (read,) = read_messages([Named("langchain_core.messages.human", "HumanMessage", human_fields)], "cp")
    assert (read.calls, read.answers, read.status, read.message_id) == ((), None, None, None)
    for model in ("", 5):
        assert read_messages([ai("a", model=model)], "cp")[0].model is None  # type: ignore[arg-type]


def test_a_single_pending_message_not_in_a_list_is_read() -> None:
    store = per_call_thread([{"type": "approve"}], sibling=False)
    store.checkpoints.pop()
    store.checkpoints[1].writes.append(("task-a", "messages", tool("t-a", "c-a", "done")))
    assert calls(mapped(store)) == [("refund", {"o": 1}, "done")]


def test_pause_refusals_name_the_checkpoint() -> None:
    store = paused_thread(None, [], resumed=False, value=request(("refund", {"order": "B2"})))
    assert (
        message_of(store) == "checkpoint c2: the review request lists 'refund' with args the model turn does not hold"
    )
    store = paused_thread(None, [], resumed=False, value={"action_requests": ["refund"]})
    assert message_of(store) == "checkpoint c2: action request 0 names no tool"
    store = paused_thread({"decisions": [{"type": "maybe"}]}, [RAN])
    assert message_of(store) == (
        "checkpoint c2: decision 0: decision type 'maybe' is not one of approve, edit, reject, respond"
    )
    store = paused_thread({"decisions": [{"type": "edit", "edited_action": {"name": "r", "args": {"x": b""}}}]}, [RAN])
    assert message_of(store) == (
        "checkpoint c2: decision 0: the edited args holds a bytes, which JSON cannot carry as it was stored"
    )
    store = paused_thread(None, [], resumed=False)
    store.checkpoints[1].writes[0] = ("task-h", "__interrupt__", "x")
    assert message_of(store) == "checkpoint c2: the interrupt write of task task-h is not a list of interrupts"
    store.checkpoints[1].writes[0] = ("task-h", "__interrupt__", [interrupt(["Continue?"])])
    assert message_of(store) == (
        "checkpoint c2: an interrupt that is not a HumanInTheLoopMiddleware review request; which call it gated, "
        "if any, is not recorded"
    )
    turn = (("c-1", "refund", {"o": 1}), ("c-2", "refund", {"o": 1}))
    store = paused_thread(None, [], calls=turn, value=request(("refund", {"o": 1})), resumed=False)
    assert message_of(store) == (
        "checkpoint c2: tool call c-2 has the name and args of a reviewed call but was not listed; which of the "
        "identical calls was reviewed is not recorded"
    )


def test_per_call_refusals_name_the_call() -> None:
    store = per_call_thread([{"type": "nope"}], sibling=False)
    assert message_of(store) == (
        "checkpoint c2: decision on tool call c-a: decision type 'nope' is not one of approve, edit, reject, respond"
    )
    store = per_call_thread([], sibling=False)
    store.checkpoints[1].messages = [human("m-h")]
    store.checkpoints.pop()
    assert message_of(store) == "checkpoint c2: a review of tool call 'c-a', which the paused model turn does not hold"


def test_adjacent_listed_calls_are_both_found() -> None:
    turn = (("c-1", "refund", {"o": 1}), ("c-2", "refund", {"o": 2}))
    value = request(("refund", {"o": 1}), ("refund", {"o": 2}))
    store = paused_thread(None, [], calls=turn, value=value, resumed=False)
    assert [g[0] for g in gates(mapped(store))] == ["unresolved", "unresolved"]


def test_args_match_whatever_the_order_of_their_keys() -> None:
    turn = (("call-1", "refund", {"b": 1, "a": 2}),)
    store = paused_thread(None, [], calls=turn, value=request(("refund", {"a": 2, "b": 1})), resumed=False)
    assert [g[0] for g in gates(mapped(store))] == ["unresolved"]


def test_a_batched_answer_that_is_not_a_map_refuses() -> None:
    refused(paused_thread([{"type": "approve"}], [RAN]), "the resume answers 0 decision.s. to a request for 1")


def test_the_reviewing_tasks_own_messages_do_not_hide_the_count() -> None:
    store = paused_thread(
        {"decisions": [{"type": "reject"}]}, [tool("m-t", "call-1", "no", status="error", marker="reject")]
    )
    store.checkpoints[1].writes.append(
        ("task-h", "messages", [tool("m-t", "call-1", "no", status="error", marker="reject")])
    )
    assert gates(mapped(store)) == [("denied", "refund", 0, 500.0)]
    store.checkpoints[1].writes.append(("task-other", "messages", []))
    assert gates(mapped(store)) == [("denied", "refund", None, 500.0)]


def test_a_description_that_is_not_text_is_not_what_was_surfaced() -> None:
    value = {"action_requests": [{"name": "refund", "args": {"order": "A1"}, "description": 5}]}
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN], value=value)
    assert mapped(store).step["gate_events"][0]["surfaced"] == 'refund({"order":"A1"})'


def test_the_surfaced_fallback_is_the_call_with_its_keys_sorted() -> None:
    args = {"b": 1, "a": [2, None]}
    value = request(("refund", args), descriptions=False)
    store = paused_thread(None, [], calls=(("call-1", "refund", args),), value=value, resumed=False)
    assert mapped(store).step["gate_events"][0]["surfaced"] == 'refund({"a":[2,null],"b":1})'


@pytest.mark.parametrize(
    "other",
    [
        {"b": 1, "a": [2]},
        {"b": 1, "a": [2, None, 3]},
        {"b": 1},
        {"b": 1, "a": [2, None], "c": 0},
        {"b": True, "a": [2, None]},
        {"b": 1, "a": (2, None)},
        {"b": 1.0, "a": [2, None]},
        {"b": 2, "a": [2, None]},
    ],
)
def test_args_that_differ_anywhere_do_not_match(other: Any) -> None:
    args = {"b": 1, "a": [2, None]}
    store = paused_thread(
        None, [], calls=(("call-1", "refund", args),), value=request(("refund", other)), resumed=False
    )
    refused(store, "args the model turn does not hold")


def test_a_nan_matches_nothing() -> None:
    nan = {"x": float("nan")}
    store = paused_thread(None, [], calls=(("call-1", "refund", nan),), value=request(("refund", nan)), resumed=False)
    refused(store, "args the model turn does not hold")


def test_the_reviewers_message_is_kept_with_the_call_that_did_not_run() -> None:
    marked = tool("m-t", "call-1", "x", status="error", marker="reject")
    thread = mapped(paused_thread({"decisions": [{"type": "reject", "message": "too much"}]}, [marked]))
    assert thread.provenance["calls_not_run"] == [
        {"call_id": "call-1", "tool": "refund", "reason": "rejected by the reviewer", "requested_args": {"order": "A1"},
         "reviewer_message": "too much"}
    ]  # fmt: skip
    assert (
        "reviewer_message"
        not in mapped(paused_thread({"decisions": [{"type": "reject"}]}, [marked])).provenance["calls_not_run"][0]
    )


def test_the_step_and_thread_fields() -> None:
    thread = mapped(paused_thread({"decisions": [{"type": "approve"}]}, [RAN]), thread_id="th-9")
    assert thread.thread_id == "th-9"
    assert set(thread.step) == {"agent_tool_calls", "agent_final_output", "latency_ms", "auto_score", "gate_events"}
    assert thread.step["auto_score"] is None


def test_a_thread_without_a_model_answer_has_an_empty_output_and_zero_latency_is_a_latency() -> None:
    store = FakeStore([Checkpoint("c1", 0, [human("m-h")])])
    thread = mapped(store)
    assert (thread.step["agent_final_output"], thread.step["latency_ms"]) == ("", 0.0)
    store = FakeStore(chain(Checkpoint("c1", 0, [human("m-h")]), Checkpoint("c2", 0.5, [human("m-h")])))
    assert mapped(store).step["latency_ms"] == 0.5


def test_lineage_and_fork_refusals_say_what() -> None:
    assert message_of(FakeStore([])) == "the thread has no checkpoint in the root graph"
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    store.checkpoints[0].parent = "c2"  # a cycle below the latest checkpoint
    assert message_of(store) == "the parents of checkpoint c2 form a cycle"
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    store.checkpoints.append(Checkpoint("c2-b", 20, store.checkpoints[1].messages, parent="c2"))
    assert message_of(store) == (
        "paused checkpoint c2 has 2 children (a fork): which branch its recorded answers belong to is not recorded"
    )
    turn = (CALL, ("call-2", "refund", {"order": "B2"}))
    store = paused_thread(None, [RAN], calls=turn)
    assert message_of(store) == (
        "the graph moved past checkpoint c2 with no recorded answer to the review of tool call(s) call-1, call-2"
    )
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    store.checkpoints[3].messages = [human("m-h"), ai("m-ai", ("call-1", "refund", {"order": "A2"})), RAN]
    assert message_of(store) == (
        "tool call call-1 was changed after its review (another tool or other args in the latest messages): what "
        "ran cannot be told from what was reviewed"
    )
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    store.checkpoints[3].ts = "2026-03-01T08:00:00+00:00"
    assert message_of(store) == "the thread's latest checkpoint has a ts earlier than its first: no latency"


def test_agent_inbox_refusals_name_the_response_and_the_reviewers_answer_is_kept() -> None:
    edit = [{"type": "edit", "args": {"action": "refund", "args": {"x": b""}}}] + [{"type": "accept"}] * 3
    assert message_of(inbox_thread(edit)) == (
        "checkpoint c2: human response 0: the edited args holds a bytes, which JSON cannot carry as it was stored"
    )
    store = inbox_thread([{"type": "accept"}] * 4)
    store.checkpoints[1].writes[0] = ("task-h", "__interrupt__", [interrupt(inbox(("refund", {"o": 9})))])
    assert message_of(store) == (
        "checkpoint c2: the review request lists 'refund' with args the model turn does not hold"
    )
    answer = [{"type": "accept"}, {"type": "accept"}, {"type": "response", "args": "Visa"}, {"type": "ignore"}]
    entries = mapped(inbox_thread(answer)).provenance["calls_not_run"]
    assert [(entry["call_id"], entry.get("reviewer_message")) for entry in entries] == [("c-q", "Visa"), ("c-l", None)]


def test_an_agent_inbox_reviewing_tasks_own_messages_do_not_hide_the_count() -> None:
    store = inbox_thread([{"type": "accept"}] * 4)
    store.checkpoints[1].writes.append(("task-h", "messages", []))
    assert [g[2] for g in gates(mapped(store))] == [0, 0, 0, 0]


def test_a_message_that_cannot_be_read_is_named_by_where_it_is() -> None:
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    store.checkpoints[3].messages = [Named("evil", "Thing", {})]
    assert message_of(store) == "checkpoint c4, message 0 is of type evil.Thing, which this importer does not read"
    store = per_call_thread([{"type": "approve"}], sibling=False)
    store.checkpoints.pop()
    store.checkpoints[1].writes.append(("task-a", "messages", [Named("evil", "Thing", {})]))
    assert message_of(store) == (
        "a pending write of task task-a on checkpoint c2, message 0 is of type evil.Thing, which this importer does "
        "not read"
    )


def test_a_resume_past_a_pause_without_a_review_is_counted_and_is_no_gate() -> None:
    steps = [human("m-h"), ai("m-ai", CALL)]
    store = FakeStore(
        chain(
            Checkpoint("c1", 0, steps[:1]),
            Checkpoint("c2", 5, steps),  # paused here by interrupt_before: nothing is written for it
            Checkpoint("c3", 9, [*steps, RAN], resumed={"messages": "v2"}),
            Checkpoint("c4", 12, [*steps, RAN, ai("m-end", content="done")], resumed={"messages": "v2"}),
            Checkpoint("c5", 20, [*steps, RAN, ai("m-end", content="done")], resumed={"messages": "v4"}),
        )
    )
    thread = mapped(store)
    assert thread.step["gate_events"] == []
    assert calls(thread) == [("refund", {"order": "A1"}, "refunded A1")]
    assert thread.provenance["resumes_without_a_recorded_review"] == 2


def test_a_resume_of_a_recorded_review_is_not_counted_as_one_without() -> None:
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    store.checkpoints[2].resumed = {"messages": "v1"}
    store.checkpoints[3].resumed = {"messages": "v1"}
    assert mapped(store).provenance["resumes_without_a_recorded_review"] == 0
    store.checkpoints[0].resumed = {"messages": "v0"}  # the first checkpoint has nothing before it to resume
    assert mapped(store).provenance["resumes_without_a_recorded_review"] == 0


# --- what a reviewer of the importer found (hostile values, decisions never applied) ---------------------


@pytest.mark.parametrize("kind", [["approve"], {"approve": 1}])
def test_a_decision_type_that_is_not_text_refuses(kind: Any) -> None:
    refused(paused_thread({"decisions": [{"type": kind}]}, [RAN]), "decision type .* is not one of")
    answer = [{"type": kind}] + [{"type": "accept"}] * 3
    refused(inbox_thread(answer), "response type .* is not one of")


def test_a_msgpack_timestamp_or_too_deep_args_are_refused() -> None:
    stamp = decode_stored("msgpack", msgpack.packb(msgpack.Timestamp(5)))
    with pytest.raises(ThreadValueError, match="holds a Timestamp, which JSON cannot carry"):
        read_messages([ai("a", ("c", "r", {"when": stamp}))], "cp")
    deep: Any = 1
    for _ in range(101):
        deep = [deep]
    with pytest.raises(ThreadValueError, match="cp, message 0: tool call c args nests deeper than 100"):
        read_messages([ai("a", ("c", "r", {"x": deep}))], "cp")
    deep = deep[0]  # 100 arrays inside the args map: 101 levels from the args, at the bound
    assert len(read_messages([ai("a", ("c", "r", deep))], "cp")) == 1


def test_a_decision_its_review_config_does_not_allow_was_never_applied_and_refuses() -> None:
    value = request(("refund", {"order": "A1"}))
    value["review_configs"] = [{"action_name": "refund", "allowed_decisions": ["reject", "respond"]}]
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN], value=value)
    assert message_of(store) == (
        "checkpoint c2: the approve decision on 'refund' is not one its review config allows (reject, respond): "
        "the middleware refuses it, so it was not applied"
    )
    value["review_configs"] = [{"action_name": "lookup", "allowed_decisions": []}, {"action_name": "refund",
                               "allowed_decisions": ["approve"]}, "junk"]  # fmt: skip
    assert gates(mapped(paused_thread({"decisions": [{"type": "approve"}]}, [RAN], value=value)))[0][0] == "approved"
    value["review_configs"] = [{"action_name": "refund", "allowed_decisions": ["approve"]},
                               {"action_name": "refund", "allowed_decisions": []}]  # fmt: skip
    assert gates(mapped(paused_thread({"decisions": [{"type": "approve"}]}, [RAN], value=value)))[0][0] == "approved"


def test_a_reviewing_task_that_failed_after_its_resume_refuses() -> None:
    store = paused_thread({"decisions": [{"type": "approve"}]}, [RAN])
    store.checkpoints[1].writes.append(("task-other", "__error__", None))
    assert gates(mapped(store))[0][0] == "approved"
    store.checkpoints[1].writes.append(("task-h", "__error__", None))
    assert message_of(store) == (
        "checkpoint c2: task task-h failed after it was resumed (an __error__ write): whether its answer was "
        "applied is not recorded"
    )
    unanswered = paused_thread(None, [], resumed=False)
    unanswered.checkpoints[1].writes.append(("task-h", "__error__", None))
    assert gates(mapped(unanswered))[0][0] == "unresolved"


def test_a_time_travel_replay_is_not_counted_as_a_resume_without_review() -> None:
    steps = [human("m-h"), ai("m-ai", CALL)]
    store = FakeStore(
        chain(
            Checkpoint("c1", 0, steps[:1]),
            Checkpoint("c2", 5, steps),
            Checkpoint("c3", 9, steps, source="fork", resumed={"messages": "v2"}),
            Checkpoint("c4", 12, [*steps, RAN], resumed={"messages": "v2"}),
        )
    )
    assert mapped(store).provenance["resumes_without_a_recorded_review"] == 0


def test_nested_maps_are_allowed_to_the_bound_and_refused_past_it() -> None:
    deep: Any = 1
    for _ in range(100):
        deep = {"a": deep}
    assert len(read_messages([ai("a", ("c", "r", deep))], "cp")) == 1
    with pytest.raises(ThreadValueError, match="nests deeper than 100"):
        read_messages([ai("a", ("c", "r", {"a": deep}))], "cp")


def test_a_listed_review_without_a_model_turn_names_its_checkpoint() -> None:
    for store in (paused_thread(None, [], resumed=False), inbox_thread([{"type": "accept"}] * 4)):
        store.checkpoints[1].messages = [human("m-h")]
        store.checkpoints[2:] = []
        assert message_of(store) == (
            "checkpoint c2: a review request, but the paused state's last message is no model turn"
        )


def test_an_unanswered_listed_review_keeps_its_shape_and_task() -> None:
    store = paused_thread(None, [], resumed=False)
    store.checkpoints[1].writes.append(("task-h", "messages", []))  # its own task's write: the count stays known
    gate = mapped(store).step["gate_events"][0]
    assert (gate["reason"], gate["task_calls_before"]) == (
        "the graph paused for review of tool call call-1 of refund (batched)",
        0,
    )
    inbox_store = FakeStore(inbox_thread(None).checkpoints[:2])
    inbox_store.checkpoints[1].writes.append(("task-h", "messages", []))
    inbox_gates = mapped(inbox_store).step["gate_events"]
    assert [(g["reason"].endswith("(agent_inbox)"), g["task_calls_before"]) for g in inbox_gates] == [(True, 0)] * 4


# --- finding listed calls by key -----------------------------------------------------------


def test_equal_args_share_a_key_and_neither_their_order_of_keys_nor_minus_zero_tells_them_apart() -> None:
    assert match_key("t", {"a": 1, "b": [None, -0.0]}) == match_key("t", {"b": [None, 0.0], "a": 1})
    assert match_key("t", {"a": 1}) != match_key("t", {"a": 1.0}) != match_key("t", {"a": True})
    assert match_key("t", {"a": 1}) != match_key("t", {"b": 1})
    assert match_key("t", 1e-20) != match_key("t", 0.0)
    assert len({match_key("t", value) for value in (True, False, None, "T", 1, [], {})}) == 7
    assert match_key("t", [1, 2]) != match_key("t", [2, 1])
    assert match_key("t", {}) != match_key("t", [])
    assert match_key("t", [[1], 2]) != match_key("t", [[1, 2]])  # where a container ends is written
    assert match_key("t", {"a": {"b": 1}, "c": 2}) != match_key("t", {"a": {"b": 1, "c": 2}})
    assert match_key("t", "x") != match_key("u", "x")
    assert match_key("t", 10**5000) == match_key("t", 10**5000)  # no limit on the digits of an integer
    nan = float("nan")
    assert match_key("t", [nan]) != match_key("t", [nan])
    assert match_key("t", {1: "a"}) != match_key("t", {1: "a"})
    assert match_key(1, "a") != match_key(1, "a")
    assert match_key("t", Named("m", "C", {})) != match_key("t", Named("m", "C", {}))
