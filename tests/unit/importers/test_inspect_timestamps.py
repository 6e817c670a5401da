"""A log's timestamp is carried over only when it names an instant; nothing is assumed or invented."""

from __future__ import annotations

import pytest

from evalscore.importers.inspect._timestamps import aware_rfc3339


@pytest.mark.parametrize(
    "value",
    ["2025-03-01T12:00:00.123456+00:00", "2025-03-01T12:00:00Z", "2025-03-01T12:00:00-05:30"],
)
def test_an_rfc3339_timestamp_with_an_offset_is_kept_verbatim(value: str) -> None:
    assert aware_rfc3339(value) == value


def test_another_iso_spelling_with_an_offset_is_rewritten_as_rfc3339() -> None:
    assert aware_rfc3339("2025-03-01 12:00:00+02:00") == "2025-03-01T12:00:00+02:00"


def test_an_offset_with_seconds_is_converted_to_utc() -> None:
    assert aware_rfc3339("2025-03-01T12:00:00+00:00:30") == "2025-03-01T11:59:30+00:00"


@pytest.mark.parametrize(
    "value",
    [
        "2025-03-01T12:00:00",  # naive: older Inspect logs wrote local time without an offset
        "2025-03-01",
        "2025-02-30T12:00:00+00:00",
        "yesterday",
        "",
        None,
        1_700_000_000,
        1.5,
    ],
)
def test_a_naive_unreadable_or_missing_timestamp_becomes_null(value: object) -> None:
    assert aware_rfc3339(value) is None
