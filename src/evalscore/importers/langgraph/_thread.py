"""One thread as one step: the lineage, the calls that ran, the gates, and what did not run.

The rules (docs/langgraph-import.md gives the LangGraph facts behind each):

- The **lineage** is the chain of parents from the thread's latest checkpoint (the largest id, as
  langgraph reads it) back to its first; other branches are counted, never read. A paused
  checkpoint with more than one child, or whose child on the lineage is not the loop's own (an
  ``update_state`` fork, time travel), is refused: its writes may hold an abandoned branch's answer.
- The **messages** are the latest checkpoint's, then the tool results still pending on it. Each
  checkpoint on the lineage must hold its parent's messages first (langgraph appends, or replaces a
  message in place): a thread whose messages were summarized or removed is refused, since calls that
  ran would be missing from them.
- A **gate** exists only where a review request was recorded (``_pauses``). approve → approved,
  edit → approved (what ran is the edit), reject → denied, respond → answered (the tool did not
  run), an Agent Inbox ignore → unresolved (nothing decided, nothing ran), no answer → unresolved
  (only at the latest checkpoint: a graph that moved past an unanswered interrupt is refused).
- A call **ran** when its tool message is an ordinary result (no HITL marker, status not ``error``)
  and no decision says it did not (an Agent Inbox node writes an ordinary message for every answer).
  A marker the resume writes contradict, or an ordinary result for a call HumanInTheLoopMiddleware
  says never ran, refuses the thread. Calls are listed in the order their results sit in the messages.
- ``task_calls_before`` counts the calls that ran before the pause (their results in the paused
  checkpoint's messages); null when a task other than the reviewing one wrote messages while the
  pause was open (a sibling call, or another per-call review's approved call: which came first is
  not recorded).
- A run resumed past a pause where no review request was recorded (a static breakpoint,
  ``interrupt_before``/``interrupt_after``, resumed with ``invoke(None)``) is no gate: such resumes are
  counted in ``resumes_without_a_recorded_review`` (langgraph records every resume in the next
  checkpoint's ``versions_seen["__interrupt__"]``). A pause with no recorded decision is not an approval.
- Time: ``decision_latency_upper_bound_ms`` is the next checkpoint's ``ts`` minus the paused one's;
  ``opened_at``, ``resolved_at``, ``decision_latency_ms`` stay null, ``overseers`` and
  ``approval_chain`` empty.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

import orjson

from evalscore.importers.langgraph._messages import CallRequest, Message, read_messages, text_of
from evalscore.importers.langgraph._pauses import AGENT_INBOX, Review, reviews_of, same_call
from evalscore.importers.langgraph._store import CheckpointRow, CheckpointStore, ThreadRows, ThreadValueError, WriteRow
from evalscore.instants import milliseconds_between, parse_instant

RESOLUTIONS: Final = {
    "approve": "approved",
    "edit": "approved",
    "reject": "denied",
    "respond": "answered",
    "ignore": "unresolved",
}
NOT_RUN_BY_DECISION: Final = {
    "reject": "rejected by the reviewer",
    "respond": "answered by the reviewer in place of the tool",
    "ignore": "ignored by the reviewer (Agent Inbox): not run, not decided",
}


@dataclass(frozen=True, slots=True)
class MappedThread:
    thread_id: str
    step: dict[str, Any]
    started_at: str
    ended_at: str
    models: tuple[str, ...]
    provenance: dict[str, Any]


@dataclass(frozen=True, slots=True)
class _Pause:
    reviews: list[Review]
    held: int
    """How many messages the paused state held (the first of the final ones: messages are only appended)."""
    writers: frozenset[str]
    """The tasks that wrote messages on the paused checkpoint (results of calls that ran while it was open)."""
    bound_ms: float | None


def map_thread(store: CheckpointStore, rows: ThreadRows) -> MappedThread:
    lineage = _lineage(rows)
    writes = _writes_by_checkpoint(rows.writes)
    paused_ids = {write.checkpoint_id for write in rows.writes if write.channel == "__interrupt__"}
    children = Counter(row.parent_id for row in rows.checkpoints if row.parent_id is not None)
    instants: list[tuple[datetime, str]] = []
    kept: dict[str, list[Message]] = {}  # the messages of the paused and the latest checkpoints only
    unreviewed_resumes = 0
    markers: list[Any] = []
    previous_ids: list[str | None] = []
    for index, row in enumerate(lineage):
        state = store.saved_state(rows.thread_id, row.checkpoint_id)
        instants.append(_instant(state.ts, row))
        resumed = index and state.resumed_at is not None and state.resumed_at != markers[-1]
        if resumed and row.metadata.get("source") == "loop":  # a time-travel replay writes a "fork" checkpoint
            unreviewed_resumes += lineage[index - 1].checkpoint_id not in paused_ids
        markers.append(state.resumed_at)
        read = read_messages(state.messages, f"checkpoint {row.checkpoint_id}")
        ids = [message.message_id for message in read]
        if ids[: len(previous_ids)] != previous_ids:
            raise ThreadValueError(
                f"checkpoint {row.checkpoint_id} no longer holds messages its parent held (summarized or removed): "
                "calls that ran may be missing from the latest messages"
            )
        previous_ids = ids
        if row.checkpoint_id in paused_ids or index == len(lineage) - 1:
            kept[row.checkpoint_id] = read
    latest_id = lineage[-1].checkpoint_id
    messages = kept[latest_id] + _pending_results(writes.get(latest_id, []), latest_id)
    pauses = []
    for index, row in enumerate(lineage):
        if row.checkpoint_id not in paused_ids:
            continue
        state_messages = kept[row.checkpoint_id]
        checkpoint_writes = writes[row.checkpoint_id]
        turn = state_messages[-1] if state_messages and state_messages[-1].kind == "ai" else None
        reviews = reviews_of(row.checkpoint_id, checkpoint_writes, turn)
        latest = index == len(lineage) - 1
        _refuse_forks(lineage, index, children[row.checkpoint_id], reviews, latest)
        bound = None if latest else _bound(instants[index], instants[index + 1])
        writers = frozenset(write.task_id for write in checkpoint_writes if write.channel == "messages")
        pauses.append(_Pause(reviews, len(state_messages), writers, bound))
    mapped = _mapped(rows, lineage, instants, messages, pauses)
    mapped.provenance["resumes_without_a_recorded_review"] = unreviewed_resumes
    return mapped


def _lineage(rows: ThreadRows) -> list[CheckpointRow]:
    if not rows.checkpoints:
        raise ThreadValueError("the thread has no checkpoint in the root graph")
    by_id = {row.checkpoint_id: row for row in rows.checkpoints}
    chain = [max(rows.checkpoints, key=lambda row: row.checkpoint_id)]
    seen = {chain[0].checkpoint_id}
    while chain[-1].parent_id is not None:
        parent = by_id.get(chain[-1].parent_id)
        if parent is None:
            raise ThreadValueError(
                f"checkpoint {chain[-1].checkpoint_id} names a parent {chain[-1].parent_id} the store does not hold"
            )
        if parent.checkpoint_id in seen:
            raise ThreadValueError(f"the parents of checkpoint {parent.checkpoint_id} form a cycle")
        seen.add(parent.checkpoint_id)
        chain.append(parent)
    chain.reverse()
    return chain


def _writes_by_checkpoint(writes: Sequence[WriteRow]) -> dict[str, list[WriteRow]]:
    grouped: dict[str, list[WriteRow]] = {}
    for write in writes:
        grouped.setdefault(write.checkpoint_id, []).append(write)
    return grouped


def _pending_results(writes: Sequence[WriteRow], checkpoint_id: str) -> list[Message]:
    """Tool results written on the latest checkpoint by tasks that finished while the step was still open."""
    pending: list[Message] = []
    for write in writes:
        if write.channel != "messages":
            continue
        value = write.value if isinstance(write.value, list) else [write.value]
        written = read_messages(value, f"a pending write of task {write.task_id} on checkpoint {checkpoint_id}")
        pending.extend(message for message in written if message.kind == "tool")
    return pending


def _refuse_forks(lineage: list[CheckpointRow], index: int, children: int, reviews: list[Review], latest: bool) -> None:
    paused = lineage[index]
    if children > 1:
        raise ThreadValueError(
            f"paused checkpoint {paused.checkpoint_id} has {children} children (a fork): which branch its "
            "recorded answers belong to is not recorded"
        )
    if latest:
        return
    child = lineage[index + 1]
    if child.metadata.get("source") != "loop":
        raise ThreadValueError(
            f"the lineage leaves paused checkpoint {paused.checkpoint_id} through checkpoint {child.checkpoint_id} "
            f"(source {child.metadata.get('source')!r}, not the loop's): its answers may be an abandoned branch's"
        )
    unanswered = [review.call.call_id for review in reviews if review.decision is None]
    if unanswered:
        raise ThreadValueError(
            f"the graph moved past checkpoint {paused.checkpoint_id} with no recorded answer to the review of "
            f"tool call(s) {', '.join(unanswered)}"
        )


def _instant(ts: Any, row: CheckpointRow) -> tuple[datetime, str]:
    try:
        instant = parse_instant(ts) if isinstance(ts, str) else None
    except ValueError:
        instant = None
    if instant is None:
        raise ThreadValueError(f"checkpoint {row.checkpoint_id} records no RFC 3339 ts with an offset ({ts!r})")
    return instant, ts


def _bound(paused: tuple[datetime, str], following: tuple[datetime, str]) -> float | None:
    difference = milliseconds_between(paused[0], following[0])
    return difference if difference >= 0 else None


def _mapped(
    rows: ThreadRows,
    lineage: list[CheckpointRow],
    instants: list[tuple[datetime, str]],
    messages: list[Message],
    pauses: list[_Pause],
) -> MappedThread:
    reviews = {review.call.call_id: review for pause in pauses for review in pause.reviews}
    results: dict[str, tuple[int, Message]] = {}
    for position, message in enumerate(messages):
        if message.answers is None:  # only a tool message answers a call
            continue
        if message.answers in results:
            raise ThreadValueError(f"tool call {message.answers} has two results")
        results[message.answers] = (position, message)
    ran: dict[int, dict[str, Any]] = {}
    not_run: list[dict[str, Any]] = []
    edits: list[dict[str, Any]] = []
    calls = [call for message in messages if message.kind == "ai" for call in message.calls]
    for call in calls:
        review = reviews.get(call.call_id)
        found = results.get(call.call_id)
        outcome = _outcome(call, review, None if found is None else found[1])
        if isinstance(outcome, str):
            entry = {"call_id": call.call_id, "tool": call.tool, "reason": outcome, "requested_args": call.args}
            said = None if review is None or review.decision is None else review.decision.message
            not_run.append(entry if said is None else {**entry, "reviewer_message": said})
            continue
        assert found is not None
        ran[found[0]] = outcome
        if review is not None and review.decision is not None and review.decision.kind == "edit":
            edits.append({"call_id": call.call_id, "requested_tool": call.tool, "requested_args": call.args})
    for call in calls:
        review = reviews.get(call.call_id)
        if review is not None and not same_call(call, review.call):
            raise ThreadValueError(
                f"tool call {call.call_id} was changed after its review (another tool or other args in the latest "
                "messages): what ran cannot be told from what was reviewed"
            )
    positions = sorted(ran)
    gates = [_gate(review, pause, positions) for pause in pauses for review in pause.reviews]
    latency = milliseconds_between(instants[0][0], instants[-1][0])
    if latency < 0:
        raise ThreadValueError("the thread's latest checkpoint has a ts earlier than its first: no latency")
    step = {
        "agent_tool_calls": [ran[position] for position in positions],
        "agent_final_output": _final_output(messages),
        "latency_ms": latency,
        "auto_score": None,
        "gate_events": gates,
    }
    models = tuple(dict.fromkeys(message.model for message in messages if message.model is not None))
    provenance = {
        "thread_id": rows.thread_id,
        "latest_checkpoint_id": lineage[-1].checkpoint_id,
        "lineage_checkpoints": len(lineage),
        "checkpoints_on_other_branches": len(rows.checkpoints) - len(lineage),
        "subgraph_checkpoints": rows.subgraph_checkpoints,
        "pauses_with_review": len(pauses),
        "calls_not_run": not_run,
        "edited_calls_requested": edits,
        "metadata_keys": sorted({key for row in lineage for key in row.metadata if isinstance(key, str)}),
    }
    return MappedThread(rows.thread_id, step, instants[0][1], instants[-1][1], models, provenance)


def _outcome(call: CallRequest, review: Review | None, result: Message | None) -> dict[str, Any] | str:
    """What ran (a tool call entry) or why the call did not run; refuses what contradicts the resume writes."""
    decision = None if review is None else review.decision
    if review is not None and decision is None:
        if result is not None:
            raise ThreadValueError(f"tool call {call.call_id} has a result, yet its review has no recorded answer")
        return "awaiting review: the thread ends paused"
    kind = None if decision is None else decision.kind
    if result is not None and result.marker is not None and result.marker != kind:
        said = f"says {kind}" if kind is not None else "records no review"
        raise ThreadValueError(
            f"the result of tool call {call.call_id} carries a review marker ({result.marker or 'no decision'}) "
            f"but the resume write {said}"
        )
    if kind in NOT_RUN_BY_DECISION:
        # An Agent Inbox node writes an ordinary tool message for every answer: only the resume value says
        # that a response or an ignore never ran the tool. HumanInTheLoopMiddleware marks the messages it writes.
        if result is not None and result.marker is None and review is not None and review.shape != AGENT_INBOX:
            raise ThreadValueError(
                f"tool call {call.call_id} was decided {kind}, yet it has an ordinary result: it may have run"
            )
        return NOT_RUN_BY_DECISION[kind]
    if result is None:
        return "no result recorded (whether the tool's body ran is not recorded)"
    if result.status == "error":
        return "its result has status error: the store does not say whether the tool's body ran"
    if decision is not None and decision.kind == "edit":
        return {"tool": decision.executed_tool, "args": decision.executed_args, "result": result.content}
    return {"tool": call.tool, "args": call.args, "result": result.content}


def _gate(review: Review, pause: _Pause, positions: list[int]) -> dict[str, Any]:
    call, decision = review.call, review.decision
    resolution = "unresolved" if decision is None else RESOLUTIONS[decision.kind]
    target = decision.executed_tool if decision is not None and decision.kind == "edit" else call.tool
    before = None
    others_wrote = any(task != review.task_id for task in pause.writers)  # its own task writes after the decision
    if not others_wrote:
        before = bisect.bisect_left(positions, pause.held)  # the calls that ran before the pause (sorted)
    return {
        "kind": "approval_request",
        "reason": f"the graph paused for review of tool call {call.call_id} of {call.tool} ({review.shape})",
        "surfaced": review.surfaced if review.surfaced is not None else f"{call.tool}({_canonical(call.args)})",
        "target_tool": target,
        "resolution": resolution,
        "task_calls_before": before,
        "opened_at": None,
        "resolved_at": None,
        "decision_latency_ms": None,
        "decision_latency_upper_bound_ms": None if resolution == "unresolved" else pause.bound_ms,
        "overseers": [],
        "approval_chain": [],
    }


def _final_output(messages: Sequence[Message]) -> str:
    for message in reversed(messages):
        if message.kind == "ai":
            return text_of(message.content)
    return ""


def _canonical(value: Any) -> str:
    """A call's args as one line of JSON, keys sorted (plain data: ``read_messages`` refused anything else)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
