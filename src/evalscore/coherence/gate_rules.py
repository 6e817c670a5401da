"""Coherence rules of one gate event: its timestamps, latency and resolution.

Rules read the artifact as JSON data (what the schema validated), so that
``validate`` need not build model objects; the models run the same rules on
their own dump. An absent optional field reads as its "not observed" default.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any, Final

from evalscore.coherence import registry as r
from evalscore.findings import Finding, JsonPath, show_number
from evalscore.instants import milliseconds_between, parse_instant

LATENCY_TOLERANCE_MS: Final = 1000.0


def _instant(event: dict[str, Any], field: str, path: JsonPath, bad: list[Finding]) -> datetime | None:
    text = event.get(field)
    if text is None:
        return None
    try:
        return parse_instant(text)
    except ValueError as error:
        bad.append(r.TIMESTAMP_NOT_REAL.finding((*path, field), f"timestamp {text!r} is not a real instant: {error}"))
        return None


def check_gate_event(event: dict[str, Any], path: JsonPath) -> Iterator[Finding]:
    # Called for every gate event of every log: the common, coherent event costs the reads and
    # comparisons only, and the rules' own functions run only when there is something to say.
    if event["resolution"] == "unresolved":
        yield from check_unresolved_has_no_decision(event, path)
    bad: list[Finding] = []
    opened = _instant(event, "opened_at", path, bad)
    resolved = _instant(event, "resolved_at", path, bad)
    latency_ms = event.get("decision_latency_ms")
    bound_ms = event.get("decision_latency_upper_bound_ms")
    if bound_ms is not None:
        elapsed = None if opened is None or resolved is None else milliseconds_between(opened, resolved)
        yield from check_latency_within_bound(latency_ms, elapsed, bound_ms, path)
    if bad:
        yield from bad
        return
    if opened is None or resolved is None:
        return
    yield from check_resolved_not_before_opened(opened, resolved, path)
    if latency_ms is not None:
        yield from check_latency_agrees(opened, resolved, latency_ms, path)


def check_unresolved_has_no_decision(event: dict[str, Any], path: JsonPath) -> Iterator[Finding]:
    if event["resolution"] != "unresolved":
        return
    if event.get("resolved_at") is not None:
        yield r.UNRESOLVED_WITH_DECISION.finding(
            (*path, "resolved_at"),
            "an unresolved gate has a resolved_at; a decision time implies a decision",
        )
    if event.get("decision_latency_ms") is not None:
        yield r.UNRESOLVED_WITH_DECISION.finding(
            (*path, "decision_latency_ms"),
            "an unresolved gate has a decision_latency_ms; a decision latency implies a decision",
        )
    if event.get("decision_latency_upper_bound_ms") is not None:
        yield r.UNRESOLVED_WITH_DECISION.finding(
            (*path, "decision_latency_upper_bound_ms"),
            "an unresolved gate has a decision_latency_upper_bound_ms; a bound on a decision's latency implies a "
            "decision",
        )


def check_latency_within_bound(
    latency_ms: float | None, elapsed_ms: float | None, bound_ms: float, path: JsonPath
) -> Iterator[Finding]:
    """A decision cannot have taken longer than an observed upper bound on its latency (no tolerance: a bound
    is the bracket the source recorded, and a latency or timestamps beyond it contradict it)."""
    # comparisons, not differences: a JSON number may be an int beyond the float range
    if latency_ms is not None and latency_ms > bound_ms:
        yield r.LATENCY_ABOVE_BOUND.finding(
            (*path, "decision_latency_ms"),
            f"decision_latency_ms is {latency_ms} but decision_latency_upper_bound_ms is {bound_ms}",
        )
    if elapsed_ms is not None and elapsed_ms > bound_ms:
        yield r.LATENCY_ABOVE_BOUND.finding(
            (*path, "decision_latency_upper_bound_ms"),
            f"resolved_at - opened_at is {elapsed_ms} ms but decision_latency_upper_bound_ms is {bound_ms}",
        )


def check_resolved_not_before_opened(opened: datetime, resolved: datetime, path: JsonPath) -> Iterator[Finding]:
    if resolved < opened:
        yield r.RESOLVED_BEFORE_OPENED.finding((*path, "resolved_at"), "resolved_at is earlier than opened_at")


def check_latency_agrees(
    opened: datetime, resolved: datetime, latency_ms: float | None, path: JsonPath
) -> Iterator[Finding]:
    if latency_ms is None:
        return
    elapsed = milliseconds_between(opened, resolved)
    # comparisons, not a difference: a JSON number may be an int beyond the float range
    if not elapsed - LATENCY_TOLERANCE_MS <= latency_ms <= elapsed + LATENCY_TOLERANCE_MS:
        yield r.LATENCY_DISAGREES.finding(
            (*path, "decision_latency_ms"),
            f"decision_latency_ms is {show_number(latency_ms)} "
            f"but resolved_at - opened_at is {show_number(elapsed)} ms "
            f"(tolerance {show_number(LATENCY_TOLERANCE_MS)} ms)",
        )
