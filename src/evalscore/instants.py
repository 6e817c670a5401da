"""RFC 3339 timestamps with a UTC offset: recognise and read them, never invent them."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Final

# ``(?![\s\S])`` instead of ``$``: Python's ``$`` also matches before a final
# newline, ECMA's does not; the lookahead means "end of text" in every engine
# the contract is checked with (jsonschema, jsonschema-rs, hypothesis).
END_OF_TEXT: Final = r"(?![\s\S])"
RFC3339_OFFSET_PATTERN: Final = (
    r"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt]"
    r"([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?"
    r"([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])" + END_OF_TEXT
)

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
    when it is in that shape but names no calendar instant (``02-30``, or a
    second 60 anywhere but 23:59 UTC, the only minute that has a leap second).
    A leap second is read as the last microsecond of its minute: before the next
    minute, so order against every other instant is kept (and year 9999's last
    leap second needs no year 10000).
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
    if leap and not is_last_utc_minute(int(hour), int(minute), offset):
        raise ValueError("second 60 is a leap second, and only the minute 23:59 UTC has one")
    microseconds = LAST_MICROSECOND if leap else int((fraction or "0")[:6].ljust(6, "0"))
    return datetime(
        int(year),
        int(month),
        int(day),
        int(hour),
        int(minute),
        59 if leap else int(second),
        microseconds,
        tzinfo=timezone(offset),
    )


LAST_MICROSECOND: Final = 999_999
_MINUTES_PER_DAY: Final = 24 * 60


def is_last_utc_minute(hour: int, minute: int, offset: timedelta) -> bool:
    """True when the local ``hour:minute`` at ``offset`` is 23:59 in UTC."""
    local = hour * 60 + minute
    return (local - offset // timedelta(minutes=1)) % _MINUTES_PER_DAY == _MINUTES_PER_DAY - 1


_MILLISECOND: Final = timedelta(milliseconds=1)


def milliseconds_between(start: datetime, end: datetime) -> float:
    """``end - start`` in milliseconds (negative when end is earlier)."""
    return (end - start) / _MILLISECOND
