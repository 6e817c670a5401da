"""Instants read from RFC 3339 text: leap seconds where they exist, calendar extremes without a crash."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from evalscore.instants import is_last_utc_minute, parse_instant


def test_a_leap_second_is_the_last_microsecond_of_its_minute_and_keeps_its_order() -> None:
    leap = parse_instant("2016-12-31T23:59:60.5Z")
    assert leap == datetime(2016, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC)
    before = parse_instant("2016-12-31T23:59:59.7Z")
    after = parse_instant("2017-01-01T00:00:00.2Z")
    assert before is not None
    assert after is not None
    assert before < leap < after


def test_the_leap_second_of_year_9999_is_read_without_overflowing_into_year_10000() -> None:
    assert parse_instant("9999-12-31T23:59:60Z") == datetime(9999, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC)


@pytest.mark.parametrize("text", ["2016-12-31T15:59:60-08:00", "2017-01-01T05:29:60+05:30", "2016-12-31t23:59:60z"])
def test_a_leap_second_at_23_59_utc_in_any_offset_is_an_instant(text: str) -> None:
    assert parse_instant(text) is not None


@pytest.mark.parametrize("text", ["2016-12-31T12:00:60Z", "2016-12-31T23:59:60+01:00", "2016-12-31T23:58:60Z"])
def test_a_second_60_outside_23_59_utc_names_no_instant(text: str) -> None:
    with pytest.raises(ValueError, match="leap second"):
        parse_instant(text)


def test_the_last_utc_minute_is_found_across_midnight_and_offsets() -> None:
    assert is_last_utc_minute(23, 59, timedelta(0))
    assert is_last_utc_minute(0, 59, timedelta(hours=1))
    assert is_last_utc_minute(15, 59, timedelta(hours=-8))
    assert not is_last_utc_minute(23, 59, timedelta(hours=1))
    assert not is_last_utc_minute(23, 58, timedelta(0))
