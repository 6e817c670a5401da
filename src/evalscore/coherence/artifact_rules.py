"""Coherence rules of whole artifacts: identity, uniqueness and run timing."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from evalscore.coherence import registry as r
from evalscore.findings import Finding, JsonPath, pointer_of
from evalscore.instants import has_offset_shape, parse_instant


def check_unique(values: Iterable[tuple[Any, JsonPath]], rule: r.Rule, what: str) -> Iterator[Finding]:
    """Flag every repeat of a value after its first occurrence (pointer of the repeat)."""
    first_seen: dict[Any, JsonPath] = {}
    for value, path in values:
        if value in first_seen:
            yield rule.finding(path, f"duplicate {what} {value!r} (first at {pointer_of(first_seen[value])})")
        else:
            first_seen[value] = path


def check_offset_timestamp(text: str, path: JsonPath) -> Iterator[Finding]:
    """Warn when a v1 free-text timestamp is not RFC 3339 with an offset."""
    if not has_offset_shape(text):
        yield r.TIMESTAMP_WITHOUT_OFFSET.finding(
            path, f"{text!r} is not an RFC 3339 date-time with a UTC offset; its instant is ambiguous"
        )
        return
    try:
        parse_instant(text)
    except ValueError as error:
        yield r.TIMESTAMP_WITHOUT_OFFSET.finding(path, f"{text!r} is not a real instant: {error}")


def check_run_timing(started_at: str, ended_at: str, path: JsonPath) -> Iterator[Finding]:
    yield from check_offset_timestamp(started_at, (*path, "started_at"))
    yield from check_offset_timestamp(ended_at, (*path, "ended_at"))
    try:
        started, ended = parse_instant(started_at), parse_instant(ended_at)
    except ValueError:
        return
    if started is not None and ended is not None and started > ended:
        yield r.RUN_ENDS_BEFORE_START.finding((*path, "ended_at"), "started_at is after ended_at")


def check_schema_major(schema_version: str, path: JsonPath) -> Iterator[Finding]:
    if schema_version.split(".", 1)[0] != "1":
        yield r.UNKNOWN_MAJOR_VERSION.finding(
            (*path, "schema_version"),
            f"schema_version {schema_version!r} is not a 1.x version; it was checked against the v1 contract",
        )
