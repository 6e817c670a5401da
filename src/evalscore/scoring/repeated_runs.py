"""Which runs were met before: a run met again would weigh twice, so it is refused instead.

Each run id is remembered by a digest, with the source it was first met at. The latest ones are
kept in a dict of bounded size; when it fills, they go to a private temporary SQLite database on
disk in one transaction and the dict starts again empty, so memory stays flat however long the
input is. A lookup asks the dict, then the disk.
"""

from __future__ import annotations

import hashlib
import sqlite3
from types import TracebackType
from typing import Final

from evalscore.scoring import aggregate as agg
from evalscore.scoring.engine import Partial, SourcedRun
from evalscore.scoring.join import step_count
from evalscore.scoring.refusal import RUN_REPEATED, Refusal

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

DISK_CACHE_KIB: Final = 4_096
"""SQLite's page cache for the database on disk, in KiB; the rest of it is read back through the
operating system's file cache, which is not this process's memory."""

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


def run_id_digest(run_id: str) -> bytes:
    """A fixed-size key for a run id; a lone surrogate (a JSON ``\\ud800`` escape) is hashed as it is."""
    return hashlib.blake2b(run_id.encode(errors="surrogatepass"), digest_size=RUN_ID_DIGEST_BYTES).digest()


def _private_database() -> sqlite3.Connection:
    """A new, empty database on disk that only this connection sees; SQLite deletes its file on close."""
    database = sqlite3.connect("")
    for statement in _SETUP:
        database.execute(statement)
    return database


class RepeatedRuns:
    """The run ids scored so far: a run met again would weigh twice, so it is refused instead.

    The same log given twice, a JSONL line repeated twenty times, a symlink to a log
    in a walked directory: each would otherwise move every rate towards that run.

    Memory is bounded (``MEMORY_ENTRIES``, ``MEMORY_SOURCE_CHARS``); the rest is on disk, in a
    database opened at the first spill. ``close`` (or leaving a ``with`` block) deletes it.
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
        self._disk: sqlite3.Connection | None = None
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
            self._disk.close()
            self._disk = None
        self._latest.clear()
        self._latest_chars = 0

    def in_memory(self) -> int:
        """How many run ids are remembered in memory."""
        return len(self._latest)

    def on_disk(self) -> int:
        """How many run ids are remembered on disk (0 before the first spill)."""
        if self._disk is None:
            return 0
        (count,) = self._disk.execute(_COUNT).fetchone()
        return int(count)

    def first_source(self, key: bytes, source: str) -> str | None:
        """None when the digest ``key`` was not met before (it is now remembered as met at ``source``);
        else the source it was first met at."""
        first = self._latest.get(key)
        if first is None and self._disk is not None:
            first = self._on_disk(self._disk, key)
        if first is None:
            self._remember(key, source)
        return first

    def _on_disk(self, disk: sqlite3.Connection, key: bytes) -> str | None:
        row = disk.execute(_SELECT, (key,)).fetchone()
        if row is None:
            return None
        first: bytes = row[0]
        return first.decode(errors="surrogatepass")

    def _remember(self, key: bytes, source: str) -> None:
        self._latest[key] = source
        self._latest_chars += len(source)
        if len(self._latest) >= self._memory_entries or self._latest_chars >= self._memory_chars:
            self._spill()

    def _spill(self) -> None:
        """Every run id in memory to disk, in one transaction; memory starts again empty."""
        if self._disk is None:
            self._disk = _private_database()
        latest = self._latest
        # In key order, each insert lands next to the one before in the table's B-tree; the rows are
        # made one at a time, so that the spill does not hold a second copy of the entries.
        rows = ((key, latest[key].encode(errors="surrogatepass")) for key in sorted(latest))
        with self._disk:
            self._disk.executemany(_INSERT, rows)
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
