"""Coherence rules of one gate event: its timestamps, latency and resolution."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Final

from evalscore.coherence import registry as r
from evalscore.findings import Finding, JsonPath
from evalscore.instants import milliseconds_between, parse_instant
from evalscore.models.run import GateEvent

LATENCY_TOLERANCE_MS: Final = 1000.0


def _instant(text: str | None, path: JsonPath, bad: list[Finding]) -> datetime | None:
    if text is None:
        return None
    try:
        return parse_instant(text)
    except ValueError as error:
        bad.append(r.TIMESTAMP_NOT_REAL.finding(path, f"timestamp {text!r} is not a real instant: {error}"))
        return None


def check_gate_event(event: GateEvent, path: JsonPath) -> Iterator[Finding]:
    if event.resolution == "unresolved":
        yield from check_unresolved_has_no_decision(event, path)
    if event.opened_at is None and event.resolved_at is None:
        return
    bad: list[Finding] = []
    opened = _instant(event.opened_at, (*path, "opened_at"), bad)
    resolved = _instant(event.resolved_at, (*path, "resolved_at"), bad)
    yield from bad
    if opened is None or resolved is None:
        return
    yield from check_resolved_not_before_opened(opened, resolved, path)
    yield from check_latency_agrees(opened, resolved, event.decision_latency_ms, path)


def check_unresolved_has_no_decision(event: GateEvent, path: JsonPath) -> Iterator[Finding]:
    if event.resolution != "unresolved":
        return
    if event.resolved_at is not None:
        yield r.UNRESOLVED_WITH_DECISION.finding(
            (*path, "resolved_at"),
            "an unresolved gate has a resolved_at; a decision time implies a decision",
        )
    if event.decision_latency_ms is not None:
        yield r.UNRESOLVED_WITH_DECISION.finding(
            (*path, "decision_latency_ms"),
            "an unresolved gate has a decision_latency_ms; a decision latency implies a decision",
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
    if abs(elapsed - latency_ms) > LATENCY_TOLERANCE_MS:
        yield r.LATENCY_DISAGREES.finding(
            (*path, "decision_latency_ms"),
            f"decision_latency_ms is {latency_ms:g} but resolved_at - opened_at is {elapsed:g} ms "
            f"(tolerance {LATENCY_TOLERANCE_MS:g} ms)",
        )
