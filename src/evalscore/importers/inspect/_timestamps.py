"""Carry a log's timestamps over only when they name an instant: aware, with an offset. Never invent one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from evalscore.instants import parse_instant


def aware_rfc3339(value: object) -> str | None:
    """The timestamp as RFC 3339 with an offset, or None when it is absent, naive or unreadable.

    A value already in that shape is kept verbatim. Another ISO 8601 spelling
    (``2025-01-01 12:00:00+00:00``) is rewritten to RFC 3339 only when it
    carries an offset; a naive time is ambiguous and is dropped, not assumed UTC.
    """
    if not isinstance(value, str):
        return None
    try:
        if parse_instant(value) is not None:
            return value
    except ValueError:
        return None
    try:
        instant = datetime.fromisoformat(value)
    except ValueError:
        return None
    offset = instant.utcoffset()
    if offset is None:
        return None
    if offset % timedelta(minutes=1):
        try:
            instant = instant.astimezone(UTC)  # RFC 3339 offsets have no seconds
        except OverflowError:
            return None  # no UTC instant within the calendar: unreadable, not guessed
    return instant.isoformat()
