"""Appending a decision to the ledger: under an exclusive lock, one line, then fsync.

The lock (``filelock``, on ``FILE.lock``) makes appends from any number of processes one at a time,
so each record's ``prev`` and ``seq`` are those of the record it really follows. Only the last
record is read to extend the chain (the whole chain is ``verify``'s work): it must be a whole line
that parses as a record whose hash is its own. A ledger whose last line is torn (a crash while
writing, or an edit) is never extended: the append is refused with the line, and nothing changes.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from evalscore.inputs import strict_json
from evalscore.inputs.syntax_error import DocumentSyntaxError
from evalscore.ledger.record import GENESIS, canonical, record_hash, report_digest
from evalscore.output_file import non_regular_kind, same_file_as
from evalscore.scoring.report import ScoreReport

if TYPE_CHECKING:
    from filelock import FileLock

TAIL_BYTES: Final = 1024 * 1024
"""The longest last line an append reads back; a longer one is refused like a torn one."""
LOCK_TIMEOUT_S: Final = 120.0


class LedgerRefusedError(Exception):
    """The ledger cannot be extended; the message says why and where (``FILE:LINE``)."""


def check_ledger(path: Path, inputs: Iterable[str]) -> None:
    """Refuse a ledger that is not a regular file or that is one of the inputs (appending would change it)."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as error:
        raise LedgerRefusedError(f"{path}: cannot read the ledger: {error.strerror or error}") from None
    kind = non_regular_kind(status.st_mode)
    if kind is not None:
        raise LedgerRefusedError(f"{path}: {kind}; a ledger is a regular file")
    same = same_file_as(status, inputs)
    if same is not None:
        raise LedgerRefusedError(f"{path}: is the input {same}; appending to it would change the input")
    try:
        with lock_of(path):  # read while no append is half-written: its line would look torn
            _last(path)  # a torn or foreign last line is refused now, before any report is written
    except OSError as error:
        raise LedgerRefusedError(f"{path}: cannot read the ledger: {error.strerror or error}") from None


def lock_of(path: Path) -> FileLock:
    from filelock import FileLock  # noqa: PLC0415 - 10 ms of every score's start-up, wanted only with --ledger

    return FileLock(str(path) + ".lock", timeout=LOCK_TIMEOUT_S)


def append_decision(path: Path, report: ScoreReport) -> dict[str, Any]:
    """Append the record of ``report``'s decision to the ledger at ``path`` (created if absent); the record."""
    with lock_of(path):
        seq, prev = _last(path)
        fields: dict[str, Any] = {
            "seq": seq + 1,
            "prev": prev,
            "recorded_at": _now(),
            "evalscore_version": report.evalscore_version,
            "inputs": [entry.model_dump() for entry in report.inputs],
            "suites": [suite.model_dump() for suite in report.suites],
            "scoring_model": report.scoring_model,
            "thresholds": report.decision.thresholds.model_dump(),
            "outcome": report.decision.outcome,
            "exit_code": report.decision.exit_code,
            "report_sha256": report_digest(report.to_json_dict()),
        }
        fields["hash"] = record_hash(fields)
        line = canonical(fields) + b"\n"
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            written = 0
            while written < len(line):  # a write may take fewer bytes (a full disk raises on the next)
                written += os.write(descriptor, line[written:])
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
    return fields


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _last(path: Path) -> tuple[int, str]:
    """The last record's ``seq`` and ``hash``; ``(0, GENESIS)`` for an absent or empty ledger."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return 0, GENESIS
    if size == 0:
        return 0, GENESIS
    with path.open("rb") as stream:
        stream.seek(max(0, size - TAIL_BYTES))
        tail = stream.read()
    if not tail.endswith(b"\n"):
        raise LedgerRefusedError(f"{path}:{_line_count(path)}: the last line is torn (no newline); not extended")
    start = tail.rfind(b"\n", 0, len(tail) - 1) + 1
    if start == 0 and size > TAIL_BYTES:
        raise LedgerRefusedError(f"{path}: the last line is longer than {TAIL_BYTES:,} bytes; not extended")
    last = tail[start:]
    where = f"{path}:{_line_count(path)}"
    try:
        record = strict_json.loads(last)
    except DocumentSyntaxError as error:
        raise LedgerRefusedError(f"{where}: the last line is not a record ({error.reason}); not extended") from None
    if not isinstance(record, dict) or not _is_own(record, last):
        raise LedgerRefusedError(f"{where}: the last record's hash or form is not its own; run evalscore ledger verify")
    seq = record.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise LedgerRefusedError(f"{where}: the last record has no seq; run evalscore ledger verify")
    return seq, str(record["hash"])


def _is_own(record: dict[str, Any], line: bytes) -> bool:
    """Whether ``line`` is ``record`` in canonical form with its own hash; a value JSON cannot write back
    (a number read as infinity) makes it not."""
    try:
        return record.get("hash") == record_hash(record) and canonical(record) + b"\n" == line
    except (ValueError, RecursionError):
        return False


def _line_count(path: Path) -> int:
    """The number of the last line (a line without a newline counts)."""
    count = 0
    last = b"\n"
    with path.open("rb") as stream:
        while chunk := stream.read(1024 * 1024):
            count += chunk.count(b"\n")
            last = chunk[-1:]
    return count + (0 if last == b"\n" else 1)
