"""One history as one step: the calls that ran, the gates, and what was requested and not run.

The rules (docs/pydantic-ai-import.md has the reasons):

- A call **ran** when its return's outcome is ``success``. ``denied``, ``interrupted`` and a call with
  no return did not run; ``failed`` and ``retried`` do not say whether the tool's body ran (arguments
  rejected before it, or the tool raised), so those calls are listed, not counted as run.
- A **gate** exists for each call of a tool named by ``--approval-tool``: the history never records
  that a tool required approval. Its resolution is read from the return: ``success`` → approved,
  ``denied`` → denied, no return or ``interrupted`` → unresolved. A ``failed`` or ``retried``
  return of such a call, or one from a version that records no outcome, cannot tell an approval
  from a denial or from a call stopped before approval was asked: the history is refused.
- The args of a call that ran after approval are not recorded as what ran (``ToolApproved`` may
  have overridden them, and the history keeps only the model's request): they are left out of
  the call and kept in the provenance as requested.
- No time, person or decision is read from anything else: ``opened_at``, ``resolved_at``,
  ``decision_latency_ms`` stay null, ``overseers`` and ``approval_chain`` empty.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Final

import orjson

from evalscore.importers.pydantic_ai._history import History, HistoryShapeError, ToolCallRecord, ToolReturnRecord
from evalscore.inputs import strict_json
from evalscore.instants import milliseconds_between

NOT_RUN_REASONS: Final = {
    "denied": "denied",
    "interrupted": "interrupted before it produced a result",
    "failed": "returned outcome 'failed': the history does not say whether the tool's body ran",
    "retried": "returned outcome 'retried': the history does not say whether the tool's body ran",
}
NO_RETURN: Final = "no return recorded (the history ends with the call pending)"


@dataclass(frozen=True, slots=True)
class MappedHistory:
    """A history mapped: its step (a Run step document without ``step_n``) and its provenance."""

    step: dict[str, Any]
    calls_not_run: list[dict[str, Any]]
    requested_args: list[dict[str, Any]]
    denials_not_gated: int


def map_history(history: History, approval_tools: Collection[str]) -> MappedHistory:
    """The step of one history; raises ``HistoryShapeError`` where the history cannot be mapped honestly."""
    ran: list[dict[str, Any]] = []
    gates: list[dict[str, Any]] = []
    not_run: list[dict[str, Any]] = []
    requested_args: list[dict[str, Any]] = []
    denials_not_gated = 0
    for call in history.calls:
        returned = history.returns.get(call.call_id)
        if returned is not None and returned.tool != call.tool:
            reason = f"returns for tool call {call.call_id!r} of {call.tool!r} under the name {returned.tool!r}"
            raise HistoryShapeError(returned.pointer, reason)
        gated = call.tool in approval_tools
        outcome = _outcome(call, returned, gated)
        if gated:
            gates.append(_gate(call, returned, calls_before=len(ran)))
        if returned is not None and outcome == "success":
            if gated:  # what ran may be an override of the request: only the request is recorded
                requested_args.append({"call_id": call.call_id, "tool": call.tool, "requested_args": _args(call.args)})
                ran.append({"tool": call.tool, "result": returned.content})
            else:
                ran.append({"tool": call.tool, "args": _args(call.args), "result": returned.content})
        else:
            reason = NO_RETURN if outcome is None else NOT_RUN_REASONS[outcome]
            not_run.append(
                {"call_id": call.call_id, "tool": call.tool, "reason": reason, "requested_args": _args(call.args)}
            )
            denials_not_gated += outcome == "denied" and not gated
    step = {
        "agent_tool_calls": ran,
        "agent_final_output": history.final_text,
        "latency_ms": latency_ms(history),
        "auto_score": None,
        "gate_events": gates,
    }
    return MappedHistory(step, not_run, requested_args, denials_not_gated)


def _outcome(call: ToolCallRecord, returned: ToolReturnRecord | None, gated: bool) -> str | None:
    if returned is None:
        return None
    if returned.outcome is None:
        if gated:
            raise HistoryShapeError(
                returned.pointer,
                f"the return of {call.tool!r} call {call.call_id!r} records no outcome (a Pydantic AI version "
                "before outcomes were recorded): an approval cannot be told from a denial",
            )
        return "success"  # a tool not named by --approval-tool could not have been denied
    return returned.outcome


def _gate(call: ToolCallRecord, returned: ToolReturnRecord | None, calls_before: int) -> dict[str, Any]:
    return {
        "kind": "approval_request",
        "reason": f"Pydantic AI deferred tool call {call.call_id} for approval ({call.tool} named by --approval-tool)",
        "surfaced": f"{call.tool}({_canonical(_args(call.args))})",
        "target_tool": call.tool,
        "resolution": _resolution(call, returned),
        "task_calls_before": calls_before,
        "opened_at": None,
        "resolved_at": None,
        "decision_latency_ms": None,
        "overseers": [],
        "approval_chain": [],
    }


def _resolution(call: ToolCallRecord, returned: ToolReturnRecord | None) -> str:
    if returned is None or returned.outcome == "interrupted":
        return "unresolved"
    if returned.outcome == "success":
        return "approved"
    if returned.outcome == "denied":
        return "denied"
    raise HistoryShapeError(
        returned.pointer,
        f"the return of {call.tool!r} call {call.call_id!r} has outcome {returned.outcome!r}: the history does not "
        "say whether the call was approved and then failed, or stopped before approval was asked",
    )


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
