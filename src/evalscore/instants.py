"""RFC 3339 timestamps with a UTC offset: recognise and read them, never invent them."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Final

from evalscore.models._base import RFC3339_OFFSET_PATTERN

_SHAPE: Final = re.compile(RFC3339_OFFSET_PATTERN)
_PARTS: Final = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?"
    r"(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))"
)


def has_offset_shape(text: str) -> bool:
    """True when ``text`` is spelled as RFC 3339 date-time with an offset."""
    return _SHAPE.match(text) is not None


def parse_instant(text: str) -> datetime | None:
    """Read an RFC 3339 timestamp with an offset as an aware datetime.

    Returns None when the text is not in that shape, and raises ValueError
    when it is in that shape but names no calendar instant (``02-30``).
    A leap second (``:60``) is read as the instant one second after ``:59``.
    """
    if not has_offset_shape(text):
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        pass  # lower-case t/z, a leap second, or no such calendar day: read by hand below
    parts = _PARTS.match(text)
    if parts is None:  # pragma: no cover - the shape check above guarantees a match
        return None
    year, month, day, hour, minute, second, fraction, sign, off_h, off_m = parts.groups()
    leap = second == "60"
    offset = timedelta(0)
    if sign is not None:
        offset = timedelta(hours=int(off_h), minutes=int(off_m))
        if sign == "-":
            offset = -offset
    microseconds = int((fraction or "0")[:6].ljust(6, "0"))
    instant = datetime(
        int(year),
        int(month),
        int(day),
        int(hour),
        int(minute),
        59 if leap else int(second),
        microseconds,
        tzinfo=timezone(offset),
    )
    return instant + timedelta(seconds=1) if leap else instant


def milliseconds_between(start: datetime, end: datetime) -> float:
    """``end - start`` in milliseconds (negative when end is earlier)."""
    return (end - start) / timedelta(milliseconds=1)
