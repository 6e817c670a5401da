"""import langgraph costs time linear in a thread's size: structural tests that count work, never time it.

What is counted is every line of Python run, and every call and generator step, while a thread is
mapped (``sys.settrace``): the quadratic versions ran a generator step per earlier call for every gate,
and searched the whole turn for every per-call review. At n and 4n the counts must grow about 4
times, not 16.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

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

from evalscore.importers.langgraph._thread import MappedThread, map_thread


def counted(store: FakeStore) -> tuple[MappedThread, int]:
    """The mapped thread, and how many lines, calls and generator steps of Python mapping it took."""
    events = 0

    def count(_frame: Any, _event: str, _argument: Any) -> Any:
        nonlocal events
        events += 1
        return count

    rows = store.rows()
    sys.settrace(count)
    try:
        thread = map_thread(store, rows)
    finally:
        sys.settrace(None)
    return thread, events


def growth(build: Callable[[int], FakeStore], n: int, gates_per_n: float = 1) -> tuple[float, MappedThread]:
    small, small_events = counted(build(n))
    large, large_events = counted(build(4 * n))
    assert len(small.step["gate_events"]) == n * gates_per_n
    assert len(large.step["gate_events"]) == 4 * n * gates_per_n
    return large_events / small_events, large


def turn_calls(count: int) -> tuple[tuple[str, str, Any], ...]:
    return tuple((f"call-{index}", "refund", {"order": index}) for index in range(count))


def batched(count: int) -> FakeStore:
    """One turn of ``count`` gated calls, all listed in one request, approved, and run."""
    calls = turn_calls(count)
    results = [tool(f"m-t{index}", call_id, "ok") for index, (call_id, _, _) in enumerate(calls)]
    return paused_thread({"decisions": [{"type": "approve"}] * count}, results, calls=calls)


def paused_once(calls: tuple[tuple[str, str, Any], ...], interrupts: list[Any], answers: list[Any]) -> FakeStore:
    """A turn of ``calls`` paused with ``interrupts`` answered by ``answers``, after which every call ran."""
    base = [human("m-h"), ai("m-ai", *calls)]
    writes = [("task-h", "__interrupt__", interrupts), ("task-h", "__resume__", answers)]
    results = [tool(f"m-t{index}", call_id, "ok") for index, (call_id, _, _) in enumerate(calls)]
    return FakeStore(
        chain(
            Checkpoint("c1", 0, [human("m-h")]),
            Checkpoint("c2", 10, base, writes=writes),
            Checkpoint("c3", 510, [*base, *results]),
        )
    )


def one_request_per_call(count: int) -> FakeStore:
    """``count`` batched requests at one pause, each listing one call of the turn."""
    calls = turn_calls(count)
    requests = [interrupt(request((name, args))) for _, name, args in calls]
    return paused_once(calls, requests, [{"decisions": [{"type": "approve"}]}] * count)


def half_listed(count: int) -> FakeStore:
    """One request listing every other call; the calls between are of the same tool with other args."""
    calls = turn_calls(2 * count)
    listed = [(name, args) for _, name, args in calls[0::2]]
    return paused_once(calls, [interrupt(request(*listed))], [{"decisions": [{"type": "approve"}] * count}])


def per_call_reviews(count: int) -> FakeStore:
    """One turn of ``count`` gated calls, each reviewed by an interrupt of its own (the per_call shape)."""
    calls = turn_calls(count)
    reviews = [interrupt(per_call(call_id, name, args)) for call_id, name, args in calls]
    return paused_once(calls, reviews, [{"type": "approve"}] * count)


def test_counting_the_calls_that_ran_before_each_gate_is_linear_in_the_gates() -> None:
    ratio, thread = growth(batched, 150)
    assert [gate["task_calls_before"] for gate in thread.step["gate_events"]] == [0] * 600
    assert ratio < 5, ratio


def test_many_requests_at_one_pause_cost_linear_time_in_the_requests() -> None:
    ratio, thread = growth(one_request_per_call, 100)
    assert [gate["resolution"] for gate in thread.step["gate_events"]] == ["approved"] * 400
    assert ratio < 5, ratio


def test_calls_a_request_does_not_list_cost_linear_time_however_many_it_lists() -> None:
    ratio, thread = growth(half_listed, 100)
    assert len(thread.step["agent_tool_calls"]) == 800
    assert ratio < 5, ratio


def test_finding_the_call_of_each_per_call_review_is_linear_in_the_reviews() -> None:
    ratio, thread = growth(per_call_reviews, 150)
    assert [gate["resolution"] for gate in thread.step["gate_events"]] == ["approved"] * 600
    assert ratio < 5, ratio
