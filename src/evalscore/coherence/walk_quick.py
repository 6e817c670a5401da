"""The twin of ``coherence.walk`` for runs and scored runs: a quick test that a run has no coherence
finding at all, so that the walk runs only where it may.

The walk names every finding with its JSON Pointer, and pays for that on every step of every log:
paths, generators, a function per rule. Most runs are coherent, and for them this module gives the
same answer (nothing to say) at a fraction of the cost, in one pass that builds no path and no
finding. It is a *sufficient* test: True means the walk would find nothing; False means only that
the walk must look (and it decides). It reads a document that the published schema of its kind
has accepted, as the walk does.

Every rule of the walk for runs and scored runs has its check here (``MIRRORED``; the suites' rules
are ``NOT_MIRRORED``, with why); a new rule changes both homes (CONTRIBUTING.md, "A new rule").
``tests/properties/test_quick_coherence_agrees.py`` holds the two together (each rule at its
boundary, every committed run fixture, generated runs); ``tests/unit/test_twins.py`` fails on a
registered rule with neither a check nor a reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Final

from evalscore.coherence import registry as r
from evalscore.coherence.gate_rules import LATENCY_TOLERANCE_MS
from evalscore.instants import has_offset_shape, milliseconds_between, parse_instant

MIRRORED: Final[dict[str, str]] = {
    r.LATENCY_DISAGREES.code: "_event_is_plain",
    r.RESOLVED_BEFORE_OPENED.code: "_event_is_plain",
    r.UNRESOLVED_WITH_DECISION.code: "_event_is_plain",
    r.TIMESTAMP_NOT_REAL.code: "_gate_instant",
    r.LATENCY_ABOVE_BOUND.code: "_event_is_plain",
    r.CALLS_BEFORE_EXCEEDS.code: "_step_is_plain",
    r.CALLS_BEFORE_DECREASES.code: "_step_is_plain",
    r.MANDATED_MULTISET.code: "_mandated_is_plain",
    r.PAIRING_OUT_OF_RANGE.code: "_mandated_is_plain",
    r.PAIRING_NOT_APPROVAL.code: "_mandated_is_plain",
    r.MATCHED_EXCEEDS_ASKED.code: "_discretionary_is_plain",
    r.UNPROMPTED_EXCEEDS_ASKED.code: "_discretionary_is_plain",
    r.ADDRESSED_EXCEEDS_BLOCKERS.code: "_discretionary_is_plain",
    r.DUPLICATE_TASK_RESULT.code: "is_plainly_coherent",
    r.DUPLICATE_STEP_RESULT.code: "is_plainly_coherent",
    r.SCORE_STEP_MISMATCH.code: "_step_is_plain",
    r.RUN_ENDS_BEFORE_START.code: "is_plainly_coherent",
    r.TIMESTAMP_WITHOUT_OFFSET.code: "_offset_instant",
    r.UNKNOWN_MAJOR_VERSION.code: "is_plainly_coherent",
}
"""Each rule the walk applies to runs, and the function here that checks it."""
NOT_MIRRORED: Final[dict[str, str]] = {
    r.DUPLICATE_SUITE_TASK.code: "a rule of suites: the quick test reads runs only",
    r.DUPLICATE_SUITE_STEP.code: "a rule of suites: the quick test reads runs only",
    r.DUPLICATE_GATE_ID.code: "a rule of suites: the quick test reads runs only",
}
"""Each rule with no check here, and why."""


def is_plainly_coherent(run: dict[str, Any]) -> bool:
    """True only when the walk finds nothing in ``run`` (a schema-valid run or scored run)."""
    if run.get("schema_version", "1").partition(".")[0] != "1":
        return False
    started, ended = _offset_instant(run["started_at"]), _offset_instant(run["ended_at"])
    if started is None or ended is None or started > ended:
        return False
    tasks = run["task_results"]
    if len({task["task_id"] for task in tasks}) != len(tasks):
        return False
    for task in tasks:
        steps = task["step_results"]
        if len({step["step_n"] for step in steps}) != len(steps):
            return False
        for step in steps:
            if not _step_is_plain(step):
                return False
    return True


def _offset_instant(text: str) -> datetime | None:
    """The instant of a free-text timestamp; None when the walk would warn about it."""
    if not has_offset_shape(text):
        return None
    try:
        return parse_instant(text)
    except ValueError:
        return None


def _gate_instant(text: str) -> datetime | None:
    """``parse_instant`` of a gate timestamp, whose shape the schema's pattern has checked: for such
    a string ``fromisoformat`` gives what ``parse_instant`` gives, without matching the pattern again;
    the spellings it refuses (a lower-case t or z, a leap second) and days that do not exist are
    left to ``parse_instant``."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return parse_instant(text)


def _step_is_plain(step: dict[str, Any]) -> bool:
    calls = len(step["agent_tool_calls"])
    events: list[dict[str, Any]] = step.get("gate_events", [])
    previous = None
    for event in events:
        if not _event_is_plain(event):
            return False
        before = event.get("task_calls_before")
        if before is not None:
            if before > calls or (previous is not None and before < previous):
                return False
            previous = before
    auto_score = step["auto_score"]
    gates = auto_score.get("gates") if auto_score is not None else None
    if gates:
        mandated = gates.get("mandated")
        if mandated is not None and not _mandated_is_plain(mandated, calls, events):
            return False
        discretionary = gates.get("discretionary")
        if discretionary is not None and not _discretionary_is_plain(discretionary):
            return False
    score = step.get("score")
    if score is not None:
        return score["step_n"] == step["step_n"] and _offset_instant(score["reviewed_at"]) is not None
    return True


def _event_is_plain(event: dict[str, Any]) -> bool:
    opened_at, resolved_at = event.get("opened_at"), event.get("resolved_at")
    latency = event.get("decision_latency_ms")
    bound = event.get("decision_latency_upper_bound_ms")
    if event["resolution"] == "unresolved" and (resolved_at is not None or latency is not None or bound is not None):
        return False
    if bound is not None and latency is not None and latency > bound:
        return False
    try:
        opened = None if opened_at is None else _gate_instant(opened_at)
        resolved = None if resolved_at is None else _gate_instant(resolved_at)
    except ValueError:  # not a calendar instant
        return False
    if opened is None or resolved is None:
        return True
    if resolved < opened:
        return False
    elapsed = milliseconds_between(opened, resolved)
    if bound is not None and elapsed > bound:
        return False
    if latency is None:
        return True
    return bool(elapsed - LATENCY_TOLERANCE_MS <= latency <= elapsed + LATENCY_TOLERANCE_MS)


def _mandated_is_plain(mandated: dict[str, Any], calls: int, events: Sequence[dict[str, Any]]) -> bool:
    required, accounted = mandated["required"], mandated["honored"] + mandated["violated"]
    if required != accounted and sorted(required) != sorted(accounted):
        return False
    for pairing in mandated.get("pairings") or ():
        approval_index = pairing["approvalIndex"]
        if pairing["callIndex"] >= calls or approval_index >= len(events):
            return False
        if events[int(approval_index)]["kind"] != "approval_request":
            return False
    return True


def _discretionary_is_plain(discretionary: dict[str, Any]) -> bool:
    asked = discretionary["asked"]
    if discretionary["matched"] > asked or discretionary["unprompted"] > asked:
        return False
    addressed = discretionary.get("addressed")
    return addressed is None or addressed <= discretionary["blockers"]
