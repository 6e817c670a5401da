"""Map one Inspect sample to one step result, plus what a reviewer must still be able to see.

What ran: a tool event is a task tool call that ran unless the approval
chain for it ended in reject or terminate (or never decided), or Inspect
recorded it with an ``approval`` or ``parsing`` error (the tool was never
invoked). Which gates: an approval chain becomes a gate event only when it
consulted an approver counted as human; chains decided by automatic
approvers alone are kept as ``automatic_approvals`` (they are not moments
control returned to a person).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from evalscore.importers.inspect._approvals import Chain, approval_chains
from evalscore.importers.inspect._errors import SampleMappingError
from evalscore.importers.inspect._events import Positioned, resolve_attachments, tool_and_approval_events
from evalscore.importers.inspect._timestamps import aware_rfc3339

STEP_N: Final = 1
"""An Inspect sample is one prompt: one step."""
NOT_INVOKED_ERRORS: Final = frozenset({"approval", "parsing"})
"""Tool error types with which Inspect never invoked the tool."""


@dataclass(frozen=True, slots=True)
class MappedSample:
    """One sample's step result and the facts kept beside it for a reviewer."""

    sample_id: str
    epoch: int | None
    step: dict[str, Any]
    automatic_approvals: list[dict[str, Any]]
    calls_not_run: list[dict[str, Any]]
    notes: dict[str, Any]


@dataclass(frozen=True, slots=True)
class _ToolRun:
    item: Positioned
    chain: Chain | None
    not_run_reason: str | None


def map_sample(sample: Mapping[str, Any], human_approvers: frozenset[str]) -> MappedSample:
    sample_id = sample_identity(sample)
    epoch = sample.get("epoch")
    attachments = sample.get("attachments")
    attachments = attachments if isinstance(attachments, Mapping) else {}
    items = tool_and_approval_events(sample.get("events"))
    chains = approval_chains(items)
    runs = tool_runs(items, chains)
    ran = [run for run in runs if run.not_run_reason is None]
    step = {
        "step_n": STEP_N,
        "agent_tool_calls": [tool_call(run.item.event, attachments) for run in ran],
        "agent_final_output": final_output(sample),
        "latency_ms": latency_ms(sample),
        "auto_score": None,
        "gate_events": [gate_event(chain, ran) for chain in chains if chain.consulted_any(human_approvers)],
    }
    return MappedSample(
        sample_id=sample_id,
        epoch=epoch if isinstance(epoch, int) and not isinstance(epoch, bool) else None,
        step=step,
        automatic_approvals=[automatic_approval(chain) for chain in chains if not chain.consulted_any(human_approvers)],
        calls_not_run=[
            {"call_id": run.item.event.get("id"), "tool": run.item.event.get("function"), "reason": run.not_run_reason}
            for run in runs
            if run.not_run_reason is not None
        ],
        notes=sample_notes(sample),
    )


def sample_identity(sample: Mapping[str, Any]) -> str:
    sample_id = sample.get("id")
    if isinstance(sample_id, bool) or not isinstance(sample_id, str | int):
        raise SampleMappingError(f"a sample has no id (found {sample_id!r})")
    return str(sample_id)


def tool_runs(items: list[Positioned], chains: list[Chain]) -> list[_ToolRun]:
    """Each tool event, the approval chain that decided it, and why it did not run (None when it ran)."""
    unmatched = list(chains)
    runs: list[_ToolRun] = []
    for item in items:
        if item.event.get("event") != "tool":
            continue
        chain = _chain_for(item, unmatched)
        runs.append(_ToolRun(item, chain, not_run_reason(item.event, chain)))
    return runs


def _chain_for(item: Positioned, unmatched: list[Chain]) -> Chain | None:
    """The chain that decided this tool event's call; each chain decides one call.

    Inspect records the tool event after the decision: the latest unmatched
    chain for the call id that ended before it. Failing that (an order some
    logs use), the first unmatched chain for the id after it.
    """
    call_id = item.event.get("id")
    same_call = [chain for chain in unmatched if chain.call_id == call_id]
    before = [chain for chain in same_call if chain.position < item.position]
    chain = before[-1] if before else next(iter(same_call), None)
    if chain is not None:
        unmatched.remove(chain)
    return chain


def not_run_reason(event: Mapping[str, Any], chain: Chain | None) -> str | None:
    if chain is not None and not chain.lets_call_run:
        final = chain.final
        return f"approval {final.decision} by {final.approver}" if final is not None else "approval never decided"
    error = event.get("error")
    if isinstance(error, Mapping) and error.get("type") in NOT_INVOKED_ERRORS:
        return f"{error.get('type')} error: {error.get('message', '')}".rstrip(": ")
    return None


def tool_call(event: Mapping[str, Any], attachments: Mapping[str, Any]) -> dict[str, Any]:
    function = event.get("function")
    if not isinstance(function, str):
        raise SampleMappingError(f"tool event {event.get('id')!r} names no function")
    call: dict[str, Any] = {"tool": function}
    if "arguments" in event:
        call["args"] = resolve_attachments(event["arguments"], attachments)
    if "result" in event:
        call["result"] = resolve_attachments(event["result"], attachments)
    return call


def gate_event(chain: Chain, ran: list[_ToolRun]) -> dict[str, Any]:
    final = chain.final
    return {
        "kind": "approval_request",
        "reason": f"Inspect approval policy sent tool call {chain.call_id} to an approver",
        "surfaced": surfaced_text(chain),
        "target_tool": chain.tool,
        "resolution": chain.resolution,
        "task_calls_before": calls_before(chain, ran),
        "uses": None,
        "opened_at": None,
        "resolved_at": aware_rfc3339(final.timestamp) if final is not None else None,
        "decision_latency_ms": None,
        "overseers": [],
        "approval_chain": chain.as_json(),
    }


def calls_before(chain: Chain, ran: list[_ToolRun]) -> int:
    """Task calls that ran before the chain ended, not counting the call it decided."""
    return sum(1 for run in ran if run.item.position < chain.position and run.chain is not chain)


def surfaced_text(chain: Chain) -> str:
    """What the approvers were shown: the agent's message and the tool call view, as recorded."""
    link = chain.links[0]
    parts = [link.message]
    if link.view is not None:
        for key in ("context", "call"):
            content = link.view.get(key)
            if isinstance(content, Mapping) and isinstance(content.get("content"), str):
                parts.append(content["content"])
    return "\n\n".join(part for part in parts if part)


def automatic_approval(chain: Chain) -> dict[str, Any]:
    final = chain.final
    return {
        "call_id": chain.call_id,
        "tool": chain.tool,
        "resolution": chain.resolution,
        "decided_at": aware_rfc3339(final.timestamp) if final is not None else None,
        "approval_chain": chain.as_json(),
    }


def final_output(sample: Mapping[str, Any]) -> str:
    output = sample.get("output")
    if not isinstance(output, Mapping):
        raise SampleMappingError(f"sample {sample.get('id')!r} has no output")
    completion = output.get("completion")
    if isinstance(completion, str):
        return completion
    choices = output.get("choices")
    if isinstance(choices, list) and not choices:
        return ""
    raise SampleMappingError(f"sample {sample.get('id')!r} has no output completion")


def latency_ms(sample: Mapping[str, Any]) -> float:
    total = sample.get("total_time")
    if isinstance(total, bool) or not isinstance(total, int | float):
        raise SampleMappingError(
            f"sample {sample.get('id')!r} records no total_time, so the step's wall time is unknown"
        )
    if total < 0:
        raise SampleMappingError(
            f"sample {sample.get('id')!r} records a negative total_time ({total!r} s), "
            "so the step's wall time is unknown"
        )
    milliseconds = finite_milliseconds(total)
    if milliseconds is None:
        raise SampleMappingError(f"sample {sample.get('id')!r} records a total_time too large to be a duration")
    return round(milliseconds, 3)  # without float noise (Inspect keeps ms)


def finite_milliseconds(seconds: int | float) -> float | None:
    """``seconds`` in milliseconds, or None when that is beyond a double (an integer of 400 digits, 1e307 s)."""
    try:
        milliseconds = float(seconds) * 1000.0
    except OverflowError:
        return None
    return milliseconds if math.isfinite(milliseconds) else None


def sample_notes(sample: Mapping[str, Any]) -> dict[str, Any]:
    notes: dict[str, Any] = {}
    error = sample.get("error")
    if isinstance(error, Mapping):
        notes["error"] = error.get("message")
    limit = sample.get("limit")
    if isinstance(limit, Mapping):
        notes["limit"] = {key: limit.get(key) for key in ("type", "limit", "reason") if key in limit}
    return notes
