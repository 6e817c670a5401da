"""Which runs were met before: a run met again would weigh twice, so it is refused instead.

Each run id is remembered by a digest, with the source it was first met at. The latest ones are
kept in a dict of bounded size; when it fills, they go to a private temporary SQLite database on
disk in one transaction and the dict starts again empty, so memory stays flat however long the
input is. A lookup asks the dict, then the disk; a filter of the digests on disk answers for most
ids never met without asking it.
"""

from __future__ import annotations

import hashlib
import sqlite3
from types import TracebackType
from typing import TYPE_CHECKING, Final

from evalscore.scoring import aggregate as agg
from evalscore.scoring.join import step_count
from evalscore.scoring.partials import Partial
from evalscore.scoring.refusal import RUN_REPEATED, Refusal

if TYPE_CHECKING:
    from evalscore.scoring.sourced_run import SourcedRun

RUN_ID_DIGEST_BYTES: Final = 16
"""128 bits: two different ids share a digest with odds far below one in 10^20 for a billion runs,
and a chosen collision of BLAKE2b is out of reach."""

MEMORY_ENTRIES: Final = 50_000
"""Run ids kept in memory at most; the one that reaches it sends them all to disk. An entry costs
about 135 bytes beside its source's characters (the digest, the source string's header, the dict's
slot): about 7 MB."""

MEMORY_SOURCE_CHARS: Final = 2_000_000
"""Characters of the sources kept in memory at most (a source is a path of any length and ``:line``);
reaching it sends them all to disk too: 2 MB of ASCII, 8 MB at worst (four bytes a character)."""

DISK_CACHE_KIB: Final = 2_048
"""SQLite's page cache for the database on disk, in KiB; the rest of it is read back through the
operating system's file cache, which is not this process's memory (a cache of 16 MiB made no
difference: the digests are random, so the pages wanted are too)."""

FILTER_BITS: Final = 1 << 25
"""Bits of the filter of the digests on disk (4 MiB, made at the first spill), one set for each digest
there: a run id whose bit is clear was never sent to disk, so most new ids skip the lookup, which
costs about 4 microseconds. With n ids on disk, a new one is looked up in vain with odds n / 2^25: 1 in 80 at
400,000, 1 in 6 at 5.8 million."""

_SETUP: Final = (
    f"PRAGMA cache_size = -{DISK_CACHE_KIB}",
    # Nothing to recover: the database dies with the connection, so no journal and no fsync.
    "PRAGMA journal_mode = OFF",
    "PRAGMA synchronous = OFF",
    # The source as a BLOB of its UTF-8 with surrogates passed: a path read from the file system
    # may hold a lone surrogate (an undecodable byte), which SQLite's TEXT cannot bind.
    "CREATE TABLE seen (key BLOB PRIMARY KEY, source BLOB NOT NULL) WITHOUT ROWID",
)
_INSERT: Final = "INSERT INTO seen (key, source) VALUES (?, ?)"
_SELECT: Final = "SELECT source FROM seen WHERE key = ?"
_COUNT: Final = "SELECT count(*) FROM seen"


class RunIdsLostError(Exception):
    """The run ids met so far could not be kept on disk (no room, no temporary directory): whether a
    later run repeats one of them cannot be told, so nothing is scored."""


def run_id_digest(run_id: str) -> bytes:
    """A fixed-size key for a run id; a lone surrogate (a JSON ``\\ud800`` escape) is hashed as it is."""
    return hashlib.blake2b(run_id.encode(errors="surrogatepass"), digest_size=RUN_ID_DIGEST_BYTES).digest()


def _private_database() -> sqlite3.Connection:
    """A new, empty database on disk that only this connection sees; SQLite deletes its file on close."""
    database = sqlite3.connect("")
    for statement in _SETUP:
        database.execute(statement)
    return database


def _filter_place(key: bytes) -> tuple[int, int]:
    """The byte of the filter and the bit in it that stand for a digest (its low bits: a digest's bits
    are random already)."""
    index = int.from_bytes(key) % FILTER_BITS
    return index >> 3, 1 << (index & 7)


class _OnDisk:
    """The run ids sent to disk with their first sources, and the filter of their digests."""

    def __init__(self) -> None:
        self.database = _private_database()
        self._filter = bytearray(FILTER_BITS // 8)

    def first_source(self, key: bytes) -> str | None:
        """Where ``key`` was first met, if it was sent to disk."""
        byte, bit = _filter_place(key)
        if not self._filter[byte] & bit:
            return None
        row = self.database.execute(_SELECT, (key,)).fetchone()
        if row is None:
            return None
        first: bytes = row[0]
        return first.decode(errors="surrogatepass")

    def add(self, first_sources: dict[bytes, str]) -> None:
        """Send run ids never sent before, in one transaction."""
        for key in first_sources:
            byte, bit = _filter_place(key)
            self._filter[byte] |= bit
        # In key order, each insert lands next to the one before in the table's B-tree; the rows are
        # made one at a time, so that the spill does not hold a second copy of the entries.
        rows = ((key, first_sources[key].encode(errors="surrogatepass")) for key in sorted(first_sources))
        with self.database:
            self.database.executemany(_INSERT, rows)

    def count(self) -> int:
        """How many run ids were sent (it reads the whole table: for tests and diagnostics)."""
        (count,) = self.database.execute(_COUNT).fetchone()
        return int(count)


class RepeatedRuns:
    """The run ids scored so far: a run met again would weigh twice, so it is refused instead.

    The same log given twice, a JSONL line repeated twenty times, a symlink to a log
    in a walked directory: each would otherwise move every rate towards that run.

    Memory is bounded: the dict (``MEMORY_ENTRIES``, ``MEMORY_SOURCE_CHARS``: about 7 MB, 15 at
    worst), and from the first spill the filter (4 MiB) and SQLite's page cache (2 MiB); the rest is
    on disk, in a database opened at the first spill. ``close`` (or leaving a ``with`` block) deletes
    it. Only the process that made it may use it: a process forked from this one must not.
    """

    def __init__(self, *, memory_entries: int = MEMORY_ENTRIES, memory_chars: int = MEMORY_SOURCE_CHARS) -> None:
        self._memory_entries = memory_entries
        self._memory_chars = memory_chars
        self._latest: dict[bytes, str] = {}
        """Where each run id met since the last spill was first met, keyed by a digest of the id: an id
        is a string of any length from the log, and keeping every one whole would let a log of long ids
        fill memory."""
        self._latest_chars = 0
        """The characters of the sources in ``_latest``."""
        self._disk: _OnDisk | None = None
        """Every run id met before the last spill, with its first source; None until the first spill."""

    def __enter__(self) -> RepeatedRuns:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Forget every run id met, and delete the database on disk if there is one."""
        if self._disk is not None:
            self._disk.database.close()
            self._disk = None
        self._latest.clear()
        self._latest_chars = 0

    def in_memory(self) -> int:
        """How many run ids are remembered in memory."""
        return len(self._latest)

    def on_disk(self) -> int:
        """How many run ids are remembered on disk (0 before the first spill)."""
        return 0 if self._disk is None else self._disk.count()

    def first_source(self, key: bytes, source: str) -> str | None:
        """None when the digest ``key`` (a ``run_id_digest``) was not met before (it is now remembered as
        met at ``source``); else the source it was first met at. ``RunIdsLostError`` when the database
        on disk cannot be written or read."""
        try:
            first = self._latest.get(key)
            if first is None and self._disk is not None:
                first = self._disk.first_source(key)
            if first is None:
                self._remember(key, source)
        except (sqlite3.Error, OSError) as error:
            raise RunIdsLostError(
                f"the run ids read so far could not be kept in a temporary database on disk ({error}); "
                "give SQLITE_TMPDIR or TMPDIR a directory with room"
            ) from None
        return first

    def _remember(self, key: bytes, source: str) -> None:
        self._latest[key] = source
        self._latest_chars += len(source)
        if len(self._latest) >= self._memory_entries or self._latest_chars >= self._memory_chars:
            self._spill()

    def _spill(self) -> None:
        """Every run id in memory to disk, in one transaction; memory starts again empty."""
        if self._disk is None:
            self._disk = _OnDisk()
        self._disk.add(self._latest)
        self._latest.clear()
        self._latest_chars = 0

    def refusal(self, sourced: SourcedRun) -> Partial | None:
        """None for a run id not met before (now remembered); else a refusal of the whole run."""
        return self.refusal_of(sourced.run.run_id, sourced.source, step_count(sourced.run))

    def refusal_of(self, run_id: str, source: str, steps: int) -> Partial | None:
        """``refusal`` of a run known by its id, source and step count (a run scored in another process)."""
        first = self.first_source(run_id_digest(run_id), source)
        if first is None:
            return None
        refusal = Refusal(
            code=RUN_REPEATED,
            reason=f"run {run_id!r} was already read from {first}; a run counted twice would weigh twice",
            pointer="/run_id",
            source=source,
            run_id=run_id,
            steps=steps,
        )
        return Partial(aggregate=agg.from_refused(refusal.steps), refusals=(refusal,))
