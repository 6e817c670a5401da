"""The run ids met so far are kept in memory up to a bound, the rest on disk: the answers are the dict's.

Most tests lower the bound to a few entries, so that every path crosses the line between memory and
disk; one measures the memory taken by 300,000 ids under the default bound.
"""

from __future__ import annotations

import sqlite3
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest

from evalscore.scoring import repeated_runs
from evalscore.scoring.repeated_runs import (
    DISK_CACHE_KIB,
    RUN_ID_DIGEST_BYTES,
    RepeatedRuns,
    RunIdsLostError,
    run_id_digest,
)


def key(index: int) -> bytes:
    return run_id_digest(f"run-{index}")


def meet(repeated: RepeatedRuns, count: int, start: int = 0) -> list[str | None]:
    """The answers for ``count`` distinct ids from ``start``, each met at ``log:<index>``."""
    return [repeated.first_source(key(index), f"log:{index}") for index in range(start, start + count)]


def test_nothing_goes_to_disk_below_the_bound_and_no_database_is_opened() -> None:
    repeated = RepeatedRuns(memory_entries=10)
    assert meet(repeated, 9) == [None] * 9
    assert (repeated.in_memory(), repeated.on_disk()) == (9, 0)
    assert repeated._disk is None  # opened at the first spill only


def test_the_entry_that_reaches_the_bound_sends_every_entry_to_disk() -> None:
    repeated = RepeatedRuns(memory_entries=10)
    assert meet(repeated, 10) == [None] * 10
    assert (repeated.in_memory(), repeated.on_disk()) == (0, 10)
    assert meet(repeated, 3, start=10) == [None] * 3
    assert (repeated.in_memory(), repeated.on_disk()) == (3, 10)


def test_the_sources_characters_are_bounded_too() -> None:
    repeated = RepeatedRuns(memory_entries=100, memory_chars=10)
    assert repeated.first_source(key(1), "a" * 4) is None
    assert repeated.first_source(key(2), "b" * 5) is None
    assert (repeated.in_memory(), repeated.on_disk()) == (2, 0)
    assert repeated.first_source(key(3), "c") is None  # 10 characters: the bound is reached
    assert (repeated.in_memory(), repeated.on_disk()) == (0, 3)
    assert repeated.first_source(key(4), "d" * 9) is None  # counted again from nothing after the spill
    assert (repeated.in_memory(), repeated.on_disk()) == (1, 3)


def test_one_source_longer_than_the_character_bound_goes_to_disk_at_once() -> None:
    repeated = RepeatedRuns(memory_entries=100, memory_chars=10)
    assert repeated.first_source(key(1), "x" * 50) is None
    assert (repeated.in_memory(), repeated.on_disk()) == (0, 1)
    assert repeated.first_source(key(1), "y") == "x" * 50


def test_a_run_first_met_before_a_spill_is_found_on_disk_after_it() -> None:
    repeated = RepeatedRuns(memory_entries=10)
    meet(repeated, 25)
    assert (repeated.in_memory(), repeated.on_disk()) == (5, 20)
    assert repeated.first_source(key(3), "again:1") == "log:3"
    assert repeated.first_source(key(19), "again:2") == "log:19"


def test_a_run_first_met_after_a_spill_is_found_in_memory_and_after_the_next_spill_on_disk() -> None:
    repeated = RepeatedRuns(memory_entries=10)
    meet(repeated, 12)
    assert (repeated.in_memory(), repeated.on_disk()) == (2, 10)
    assert repeated.first_source(key(11), "again:1") == "log:11"  # in memory, with a database open
    meet(repeated, 8, start=12)
    assert (repeated.in_memory(), repeated.on_disk()) == (0, 20)
    assert repeated.first_source(key(11), "again:2") == "log:11"


def test_a_repeat_is_answered_with_the_first_source_and_remembered_no_further() -> None:
    repeated = RepeatedRuns(memory_entries=4)
    meet(repeated, 3)
    answers = []
    for round_ in range(6):
        answers.append(repeated.first_source(key(1), f"later:{round_}"))
        meet(repeated, 2, start=100 + 2 * round_)
    assert answers == ["log:1"] * 6
    assert repeated.in_memory() + repeated.on_disk() == 3 + 12


def test_memory_never_holds_the_bound_however_many_runs() -> None:
    repeated = RepeatedRuns(memory_entries=10)
    held = []
    for index in range(1_000):
        assert repeated.first_source(key(index), f"log:{index}") is None
        held.append(repeated.in_memory())
    assert len(held) == 1_000
    assert max(held) == 9
    assert repeated.on_disk() == 1_000


def test_every_id_met_again_after_many_spills_names_its_own_first_source() -> None:
    repeated = RepeatedRuns(memory_entries=7)
    meet(repeated, 200)
    again = [repeated.first_source(key(index), f"again:{index}") for index in reversed(range(200))]
    assert again == [f"log:{index}" for index in reversed(range(200))]
    assert repeated.in_memory() + repeated.on_disk() == 200


class CountingLookups:
    """A database that counts the lookups of a first source made through it."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real
        self.lookups = 0

    def execute(self, sql: str, *parameters: Any) -> sqlite3.Cursor:
        self.lookups += sql.startswith("SELECT source")
        return self.real.execute(sql, *parameters)

    def executemany(self, sql: str, rows: Any) -> sqlite3.Cursor:
        return self.real.executemany(sql, rows)

    def __enter__(self) -> sqlite3.Connection:
        return self.real.__enter__()

    def __exit__(self, *exc: Any) -> Any:
        return self.real.__exit__(*exc)


def counting_lookups(repeated: RepeatedRuns) -> CountingLookups:
    assert repeated._disk is not None
    counting = CountingLookups(repeated._disk.database)
    repeated._disk.database = counting  # type: ignore[assignment]
    return counting


def test_new_ids_are_mostly_answered_without_asking_the_disk_and_repeats_are_asked_for() -> None:
    repeated = RepeatedRuns(memory_entries=10)
    meet(repeated, 10)
    counting = counting_lookups(repeated)
    assert meet(repeated, 2_000, start=10) == [None] * 2_000
    assert repeated.on_disk() == 2_010
    # About 2,000 x 1,000 / 2^25 lookups are due to bits shared with another digest (0.06 on average).
    assert counting.lookups <= 5, counting.lookups
    before = counting.lookups
    assert [repeated.first_source(key(index), "again") for index in range(0, 2_010, 10)] == [
        f"log:{index}" for index in range(0, 2_010, 10)
    ]
    assert counting.lookups - before == 201


def raw(value: int) -> bytes:
    """A key whose low bits, the ones the filter reads, are ``value``'s."""
    return value.to_bytes(RUN_ID_DIGEST_BYTES, "big")


def test_the_filter_keeps_one_bit_per_digest_and_every_bit_set() -> None:
    repeated = RepeatedRuns(memory_chars=10)
    for value, source in ((0, "a"), (1, "b"), (9, "c")):  # 0 and 1 share the filter's first byte
        assert repeated.first_source(raw(value), source * 10) is None  # ten characters: sent to disk at once
    assert (repeated.in_memory(), repeated.on_disk()) == (0, 3)
    counting = counting_lookups(repeated)
    assert [repeated.first_source(raw(value), "") for value in (8, 2, 2**25 + 1)] == [None] * 3
    assert counting.lookups == 1  # only 2^25 + 1, whose low 25 bits are 1's
    assert [repeated.first_source(raw(value), "") for value in (0, 1, 9)] == ["a" * 10, "b" * 10, "c" * 10]
    assert counting.lookups == 4


def test_ids_with_lone_surrogates_and_sources_with_them_survive_the_trip_to_disk() -> None:
    repeated = RepeatedRuns(memory_entries=2)
    ids = ["r\ud800", "r\ud801", "r", "\udcff"]
    sources = ["\udcffpath.jsonl:1", "p\ud800:2", "p:3", ""]
    assert [repeated.first_source(run_id_digest(i), s) for i, s in zip(ids, sources, strict=True)] == [None] * 4
    assert repeated.on_disk() == 4
    assert [repeated.first_source(run_id_digest(i), "x") for i in ids] == sources


def test_a_refusal_names_the_first_source_kept_on_disk() -> None:
    repeated = RepeatedRuns(memory_entries=2)
    assert repeated.refusal_of("good", "a.jsonl:1", 1) is None
    assert repeated.refusal_of("bad", "a.jsonl:2", 1) is None
    assert repeated.on_disk() == 2
    part = repeated.refusal_of("good", "b.jsonl:9", 3)
    assert part is not None
    (refusal,) = part.refusals
    assert (refusal.code, refusal.source, refusal.pointer, refusal.steps) == ("run-repeated", "b.jsonl:9", "/run_id", 3)
    assert refusal.reason == ("run 'good' was already read from a.jsonl:1; a run counted twice would weigh twice")


def test_the_keys_on_disk_are_the_digests() -> None:
    repeated = RepeatedRuns(memory_entries=3)
    meet(repeated, 3)
    assert repeated._disk is not None
    rows = repeated._disk.database.execute("SELECT key, source FROM seen ORDER BY key").fetchall()
    assert rows == sorted((key(index), f"log:{index}".encode()) for index in range(3))
    assert {len(digest) for digest, _ in rows} == {RUN_ID_DIGEST_BYTES}


def test_the_database_is_private_temporary_unjournalled_and_its_cache_bounded() -> None:
    repeated = RepeatedRuns(memory_entries=1)
    meet(repeated, 1)
    assert repeated._disk is not None
    disk = repeated._disk.database
    assert disk.execute("PRAGMA database_list").fetchall() == [(0, "main", "")]  # "": deleted when closed
    assert disk.execute("PRAGMA journal_mode").fetchone() == ("off",)
    assert disk.execute("PRAGMA synchronous").fetchone() == (0,)
    assert disk.execute("PRAGMA cache_size").fetchone() == (-DISK_CACHE_KIB,)
    assert disk.execute("SELECT count(*) FROM sqlite_schema WHERE sql LIKE '%WITHOUT ROWID'").fetchone() == (1,)


def test_close_deletes_the_database_and_forgets_every_run() -> None:
    repeated = RepeatedRuns(memory_entries=3, memory_chars=20)
    meet(repeated, 5)
    assert repeated._disk is not None
    disk = repeated._disk.database
    repeated.close()
    assert repeated._disk is None
    with pytest.raises(Exception, match="closed database"):
        disk.execute("SELECT 1")
    assert (repeated.in_memory(), repeated.on_disk()) == (0, 0)
    assert repeated.first_source(key(99), "y" * 19) is None  # a closed one starts again empty, characters too
    assert (repeated.in_memory(), repeated.on_disk()) == (1, 0)
    assert meet(repeated, 5) == [None] * 5
    repeated.close()
    repeated.close()  # twice is harmless


def test_leaving_a_with_block_closes_it_even_on_an_error() -> None:
    repeated = RepeatedRuns(memory_entries=2)

    def fail_inside() -> None:
        with repeated as entered:
            assert entered is repeated
            meet(repeated, 3)
            assert repeated._disk is not None
            raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        fail_inside()
    assert repeated._disk is None
    assert repeated.in_memory() == 0


def test_closing_before_any_spill_opens_no_database() -> None:
    with RepeatedRuns(memory_entries=10) as repeated:
        meet(repeated, 4)
    assert repeated._disk is None
    assert repeated.in_memory() == 0


def _peak_bytes_of(count: int, remember: Callable[[bytes, str], object]) -> int:
    tracemalloc.start()
    try:
        for index in range(count):
            remember(key(index), f"/data/runs/log.jsonl:{index + 1}")
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_three_hundred_thousand_distinct_runs_take_bounded_memory() -> None:
    # Measured on 2026-12-05 with these sources: a plain dict of the 300,000 took 47.9 MB (traced peak),
    # the bounded tiers 13.7 MB, of which the filter 4.2 (SQLite's own page cache, 2 MiB at most, is not traced).
    with RepeatedRuns() as repeated:
        peak = _peak_bytes_of(300_000, repeated.first_source)
        assert repeated.in_memory() + repeated.on_disk() == 300_000
        assert repeated.on_disk() >= 250_000
    assert peak < 20_000_000, peak


def _disk_full(*_: Any) -> None:
    raise sqlite3.OperationalError("database or disk is full")


def test_a_spill_that_finds_no_room_says_the_run_ids_are_lost_and_how_to_give_room(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(repeated_runs._OnDisk, "add", _disk_full)
    repeated = RepeatedRuns(memory_entries=3)
    assert meet(repeated, 2) == [None, None]
    with pytest.raises(RunIdsLostError) as lost:
        meet(repeated, 1, start=2)
    assert str(lost.value) == (
        "the run ids read so far could not be kept in a temporary database on disk (database or disk is full); "
        "give SQLITE_TMPDIR or TMPDIR a directory with room"
    )
    repeated.close()


def test_a_lookup_on_a_database_that_cannot_be_read_says_so_too(monkeypatch: pytest.MonkeyPatch) -> None:
    repeated = RepeatedRuns(memory_entries=2)
    meet(repeated, 2)
    assert repeated.on_disk() == 2
    monkeypatch.setattr(repeated_runs._OnDisk, "first_source", _disk_full)
    with pytest.raises(RunIdsLostError):
        repeated.first_source(key(0), "log:again")
    repeated.close()
