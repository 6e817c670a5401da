"""One history as one step: the calls that ran, the gates, and what was requested and not run.

The rules (docs/pydantic-ai-import.md gives the pydantic-ai facts behind each):

- A call **ran** when its return's outcome is ``success`` and the content is not the framework's
  note that it skipped the call. ``denied``, ``interrupted``, no return, and ``failed``/``retried``
  (which do not say whether the tool's body ran) are calls that did not run, listed with why.
  Output-tool calls (the framework's ``Final result processed.`` / ``Output tool not used - ...``)
  and the framework's own tools (``tool_kind`` ``tool-search``, ``capability-load``) are not task
  calls; a named tool's call is never taken for one. A call whose run was cut off (a message of
  that run with ``state`` ``interrupted``) and that has no answer was never handled.
- The calls that ran are in the order their returns sit in the history (the order pydantic-ai
  recorded them).
- A **gate** exists only for a call of a tool named by ``--approval-tool``, and only where the
  history shows the run paused for it. On the premise the option states (the tool always asks;
  the application decides only by resuming with ``deferred_tool_results``), an answer from a later
  run than the call's is a decision after a pause; so is no answer when no later run followed (the
  history ends paused) or the next run opened with a new prompt (the application moved on).
  ``success`` is ``approved``, ``denied`` is ``denied``, no answer (or one pydantic-ai made up when
  it abandoned the call) is ``unresolved``. A named call whose arguments were rejected in its own
  run (``failed``/``retried``) never reached approval: no gate. Every other case cannot be told
  apart from a decision made inside the run (by a handler, or no approval needed) or from one the
  history does not record, and refuses the history.
- Gates are listed in the order they were decided. ``task_calls_before`` counts the calls that ran
  before the run that answered the gate began (for an unresolved gate, before its own run ended);
  it is null where pydantic-ai merged the requests and that run's start is no longer recorded.
- An approved call keeps no ``args``: ``ToolApproved`` may have overridden them and the history
  keeps only the model's request, which goes to the provenance.
- No time, person or decision is read from anything else: ``opened_at``, ``resolved_at``,
  ``decision_latency_ms`` stay null, ``overseers`` and ``approval_chain`` empty.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Final

import orjson

from evalscore.importers.pydantic_ai._history import (
    History,
    HistoryShapeError,
    Outcome,
    ToolCallRecord,
    ToolReturnRecord,
)
from evalscore.inputs import strict_json
from evalscore.instants import milliseconds_between

FINAL_RESULT: Final = "Final result processed."
OUTPUT_NOT_USED: Final = "Output tool not used - "
TOOL_SKIPPED: Final = "Tool not executed - a final result was already processed."
FRAMEWORK_TOOL_KINDS: Final = frozenset({"tool-search", "capability-load"})
NOT_RUN_REASONS: Final = {
    "denied": "denied",
    "interrupted": "interrupted before it produced a result",
    "failed": "returned outcome 'failed': the history does not say whether the tool's body ran",
    "retried": "returned outcome 'retried': the history does not say whether the tool's body ran",
}
NO_RETURN: Final = "no return recorded (the history ends with the call pending)"
SKIPPED: Final = "not executed: the run had already produced its final result"
RESPONSE_INTERRUPTED: Final = "its run was interrupted (a cancelled stream, a crash) before the call was handled"


@dataclass(frozen=True, slots=True)
class MappedHistory:
    """A history mapped: its step (a Run step document without ``step_n``) and its provenance."""

    step: dict[str, Any]
    calls_not_run: list[dict[str, Any]]
    requested_args: list[dict[str, Any]]
    other_calls: list[dict[str, Any]]
    """Output-tool and framework-tool calls: not the agent's task calls."""
    denials_not_gated: int


@dataclass(frozen=True, slots=True)
class _Gate:
    call: ToolCallRecord
    resolution: str
    decided_before: tuple[int] | None
    """The message before which a call that ran preceded the decision; None when the history
    no longer shows where the answering run began (pydantic-ai merged its requests)."""


def map_history(history: History, approval_tools: Collection[str]) -> MappedHistory:
    """The step of one history; raises ``HistoryShapeError`` where the history cannot be mapped honestly."""
    ran: dict[tuple[int, int], dict[str, Any]] = {}  # by where the answer sits: the order pydantic-ai recorded them
    gates: list[_Gate] = []
    not_run: list[dict[str, Any]] = []
    requested_args: list[dict[str, Any]] = []
    other_calls: list[dict[str, Any]] = []
    denials_not_gated = 0
    runs = _Runs.of(history)
    for call in history.calls:
        returned = history.returns.get(call.call_id)
        if returned is not None and returned.tool != call.tool:
            reason = f"returns for tool call {call.call_id!r} of {call.tool!r} under the name {returned.tool!r}"
            raise HistoryShapeError(returned.pointer, reason)
        outcome = None if returned is None else _recorded_outcome(call, returned)
        gated = call.tool in approval_tools
        other = None if gated else _not_a_task_call(call, returned)  # a named tool's call is never hidden
        if other is not None:
            other_calls.append({"call_id": call.call_id, "tool": call.tool, "what": other})
            continue
        if gated and call.complete:
            gate = _gate(call, returned, history, runs)
            if gate is not None:
                gates.append(gate)
        if returned is None:
            interrupted = not call.complete or call.run_id in history.interrupted_runs
            not_run.append(_not_run(call, RESPONSE_INTERRUPTED if interrupted else NO_RETURN))
        elif outcome == "success" and returned.content != TOOL_SKIPPED:
            if gated:  # what ran may be an override of the request: only the request is recorded
                requested_args.append({"call_id": call.call_id, "tool": call.tool, "requested_args": _args(call.args)})
                ran[returned.position] = {"tool": call.tool, "result": returned.content}
            else:
                ran[returned.position] = {"tool": call.tool, "args": _args(call.args), "result": returned.content}
        else:
            assert outcome is not None  # a return always has one (_recorded_outcome)
            not_run.append(_not_run(call, SKIPPED if outcome == "success" else NOT_RUN_REASONS[outcome]))
            denials_not_gated += outcome == "denied" and not gated
    positions = sorted(ran)
    step = {
        "agent_tool_calls": [ran[position] for position in positions],
        "agent_final_output": _final_output(history),
        "latency_ms": latency_ms(history),
        "auto_score": None,
        "gate_events": [_gate_event(gate, _calls_before(gate, positions)) for gate in sorted(gates, key=_decided)],
    }
    return MappedHistory(step, not_run, requested_args, other_calls, denials_not_gated)


@dataclass(frozen=True, slots=True)
class _Runs:
    """Where each run begins, where the next run begins after each message, and which run made the
    next response after each message (one pass over the history each)."""

    first_message: dict[str, int]
    next_run: list[int]
    """For message i: the index of the first later message of another run (or of unknown run), else len."""
    next_response_run: list[str | None]
    """For message i: the run id of the first response after it (None: none, or its run is not recorded)."""
    past_silent: list[int]
    """For message i: the first message from i on that is not a request of unrecorded run holding neither a
    prompt nor an answer (such a request holds only what pydantic-ai made up when it abandoned calls)."""

    @classmethod
    def of(cls, history: History) -> _Runs:
        messages = history.messages
        first: dict[str, int] = {}
        for index, message in enumerate(messages):
            if message.run_id is not None:
                first.setdefault(message.run_id, index)
        count = len(messages)
        following = [count] * count
        response_run: list[str | None] = [None] * count
        past_silent = list(range(count + 1))
        for index in range(count - 1, -1, -1):
            message = messages[index]
            silent = message.run_id is None and not message.is_response
            if silent and not message.opens_with_prompt and message.answers == 0:
                past_silent[index] = past_silent[index + 1]
            if index == count - 1:
                continue
            later = messages[index + 1]
            same = message.run_id is not None and later.run_id == message.run_id
            following[index] = following[index + 1] if same else index + 1
            response_run[index] = later.run_id if later.is_response else response_run[index + 1]
        return cls(first, following, response_run, past_silent)


def _not_a_task_call(call: ToolCallRecord, returned: ToolReturnRecord | None) -> str | None:
    """What the call is when it is the framework's, not the agent's: an output tool, a framework tool."""
    if call.tool_kind in FRAMEWORK_TOOL_KINDS:
        return f"framework tool ({call.tool_kind})"
    content = None if returned is None else returned.content
    if content == FINAL_RESULT or (isinstance(content, str) and content.startswith(OUTPUT_NOT_USED)):
        return "output tool"
    return None


def _not_run(call: ToolCallRecord, reason: str) -> dict[str, Any]:
    return {"call_id": call.call_id, "tool": call.tool, "reason": reason, "requested_args": _args(call.args)}


def _recorded_outcome(call: ToolCallRecord, returned: ToolReturnRecord) -> Outcome:
    if returned.outcome is None:
        raise HistoryShapeError(
            returned.pointer,
            f"the return of {call.tool!r} call {call.call_id!r} records no outcome (a Pydantic AI version before "
            "outcomes were recorded): a denial cannot be told from a call that ran",
        )
    return returned.outcome


def _gate(call: ToolCallRecord, returned: ToolReturnRecord | None, history: History, runs: _Runs) -> _Gate | None:
    """The gate of a named tool's call, None when it never reached approval; refuses what cannot be told."""
    if returned is None or (returned.outcome == "interrupted" and returned.synthesized):
        if call.run_id in history.interrupted_runs:
            return None  # the run was cut off (a crash, a cancelled stream): it did not pause for the call
        _refuse_unless_paused(call, history, runs)
        return _Gate(call, "unresolved", (runs.next_run[call.message],))
    if returned.content == TOOL_SKIPPED:
        return None  # the run ended on its final result before the call was handled
    same_run = returned.run_id is not None and returned.run_id == call.run_id
    if same_run and returned.outcome in ("failed", "retried"):
        return None  # rejected in its own run (its arguments, typically): approval was never asked
    if call.run_id is None:
        raise _refusal(call, returned, "whether the run paused for it: the history does not record its run")
    if same_run:
        raise _refusal(call, returned, "who decided: it was answered inside the run that made it, as a handler "
                       "or a call that needed no approval would be, not after a pause")  # fmt: skip
    decided_before: tuple[int] | None = None  # where the deciding run began, when still recorded
    if returned.run_id is not None:
        decided_before = (runs.first_message[returned.run_id],)
    elif not _answered_at_a_resume(call, returned, history, runs):
        raise _refusal(call, returned, "whether it was decided after a pause: the history no longer records its run")
    if returned.outcome == "success":
        return _Gate(call, "approved", decided_before)
    if returned.outcome == "denied":
        return _Gate(call, "denied", decided_before)
    raise _refusal(call, returned, "whether it was approved before it went wrong")


def _answered_at_a_resume(call: ToolCallRecord, returned: ToolReturnRecord, history: History, runs: _Runs) -> bool:
    """For an answer in a request whose run pydantic-ai no longer records (it merges a paused run's last
    request with the resumed run's first when a later run cleans the history): the answer came with a
    resume when the model's next response is another run's and that request holds no new prompt."""
    message = returned.position[0]
    next_run = runs.next_response_run[message]
    return next_run is not None and next_run != call.run_id and not history.messages[message].opens_with_prompt


def _refuse_unless_paused(call: ToolCallRecord, history: History, runs: _Runs) -> None:
    """A call with no answer is undecided only if no later run followed, or the next one opened with a new
    prompt: pydantic-ai resumes a run only with an answer for every deferred call."""
    following = runs.past_silent[runs.next_run[call.message]]
    if following == len(history.messages):
        return
    message = history.messages[following]
    if message.run_id is not None and message.opens_with_prompt:
        return
    raise HistoryShapeError(
        "",
        f"{call.tool!r} call {call.call_id!r} has no answer, yet a later run followed that did not open with a "
        "new prompt: the call was answered, deferred again or dropped there, and the history does not say which",
    )


def _refusal(call: ToolCallRecord, returned: ToolReturnRecord, what: str) -> HistoryShapeError:
    return HistoryShapeError(
        returned.pointer, f"the return of {call.tool!r} call {call.call_id!r} ({returned.outcome}) cannot say {what}"
    )


def _decided(gate: _Gate) -> tuple[int]:
    """Gates are listed in the order they were decided (a call approved twice, at two pauses, is decided
    at the second); a gate whose deciding run is no longer recorded keeps its call's place."""
    return gate.decided_before if gate.decided_before is not None else (gate.call.message,)


def _calls_before(gate: _Gate, positions: list[tuple[int, int]]) -> int | None:
    """How many calls that ran came before the gate was decided (``positions``: where their returns sit,
    sorted); None when the history no longer shows where the deciding run began."""
    return None if gate.decided_before is None else bisect_left(positions, gate.decided_before)


def _gate_event(gate: _Gate, calls_before: int | None) -> dict[str, Any]:
    call = gate.call
    return {
        "kind": "approval_request",
        "reason": f"the run paused on tool call {call.call_id} of {call.tool} (named by --approval-tool)",
        "surfaced": f"{call.tool}({_canonical(_args(call.args))})",
        "target_tool": call.tool,
        "resolution": gate.resolution,
        "task_calls_before": calls_before,
        "opened_at": None,
        "resolved_at": None,
        "decision_latency_ms": None,
        "overseers": [],
        "approval_chain": [],
    }


def _final_output(history: History) -> str:
    """The last response's text; when it has none, the args of its output call that produced the result."""
    if history.final_text or history.last_response is None:
        return history.final_text
    for call in history.calls:
        returned = history.returns.get(call.call_id)
        if call.message == history.last_response and returned is not None and returned.content == FINAL_RESULT:
            return _canonical(_args(call.args))
    return ""


def _args(args: Any) -> Any:
    """The call's args as the model gave them: an object, or the JSON text it sent when that is not one."""
    if isinstance(args, str):
        try:
            parsed = strict_json.loads(args.encode("utf-8", "surrogatepass"))
        except strict_json.JsonSyntaxError:
            return args
        return parsed if isinstance(parsed, dict) else args
    return args


def _canonical(value: Any) -> str:
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:
        return repr(value)


def latency_ms(history: History) -> float:
    """From the earliest to the latest timestamp the history records, in milliseconds."""
    if len(history.timestamps) < 2:
        raise HistoryShapeError("", "the history records fewer than two timestamps: its latency cannot be derived")
    instants = [instant for instant, _ in history.timestamps]
    return milliseconds_between(min(instants), max(instants))
