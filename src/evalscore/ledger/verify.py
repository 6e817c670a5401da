"""Verifying a ledger: every line a canonical record whose hash is its own, each chained to the one before.

What ``verify`` detects, line by line (``docs/ledger.md``): a torn last line; a line that is not a
record (not UTF-8, not JSON, a repeated key, nested too deep, longer than ``MAX_LINE_BYTES``, not of
the published record schema); a record not in canonical form (rewritten); a record whose hash is not
its own (edited); a ``seq`` or ``prev`` that does not follow the record before (a record removed,
inserted or reordered); a record met twice (duplicated). With ``head`` (a hash kept elsewhere), a
ledger that no longer holds it has lost records from its end (rolled back). A ledger rewritten
whole, every hash computed again, verifies: only a head kept elsewhere can tell (docs/ledger.md).

Reading is bounded: a line is read up to ``MAX_LINE_BYTES``, findings are kept up to ``MAX_FINDINGS``
(the rest counted), and nothing is held per record but its hash, so cost grows with the ledger's
length and memory with the number of records only by 32 bytes each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import IO, Any, Final

import jsonschema_rs

from evalscore.inputs import strict_json
from evalscore.inputs.syntax_error import DocumentSyntaxError
from evalscore.ledger.record import GENESIS, canonical, ledger_record_json_schema, record_hash
from evalscore.printable import MESSAGE_LIMIT, shortened

MAX_LINE_BYTES: Final = 1024 * 1024
"""A record is a few kilobytes; a longer line is not one, and is not read whole."""
MAX_FINDINGS: Final = 100
"""Findings listed; the others are counted."""


@dataclass(frozen=True, slots=True)
class LedgerFinding:
    line: int
    reason: str


@dataclass(slots=True)
class Verification:
    """What verifying a ledger found: records read, findings (the first ``MAX_FINDINGS``), the head."""

    records: int = 0
    findings: list[LedgerFinding] = field(default_factory=list)
    unlisted: int = 0
    head: str = GENESIS
    hashes: set[bytes] = field(default_factory=set)
    records_read: list[dict[str, Any]] = field(default_factory=list)
    """The records a caller asked to keep (``verify_stream``'s ``wanted``)."""

    @property
    def verified(self) -> bool:
        return not self.findings and not self.unlisted

    def add(self, line: int, reason: str) -> None:
        if len(self.findings) < MAX_FINDINGS:
            self.findings.append(LedgerFinding(line, reason))
        else:
            self.unlisted += 1


@cache
def _validator() -> Any:
    return jsonschema_rs.validator_for(ledger_record_json_schema())


def _lines(stream: IO[bytes]) -> Iterator[tuple[int, bytes, bool]]:
    """``(number, line, whole)`` for each line, read up to ``MAX_LINE_BYTES`` (``whole`` False when longer)."""
    number = 0
    while True:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_BYTES and not line.endswith(b"\n"):
            while (rest := stream.readline(MAX_LINE_BYTES)) and not rest.endswith(b"\n"):
                pass
            yield number, line, False
            continue
        yield number, line, True


def verify_stream(
    stream: IO[bytes], head: str | None = None, wanted: Callable[[dict[str, Any]], bool] | None = None
) -> Verification:
    """Verify a ledger read from ``stream``; the records ``wanted`` selects are kept too (for ``find``)."""
    result = Verification()
    expected_seq, previous = 1, GENESIS
    last_line = 0
    for number, line, whole in _lines(stream):
        last_line = number
        record = _record(result, number, line, whole)
        if record is None:
            continue
        _chain(result, number, record, expected_seq, previous)
        digest = bytes.fromhex(record["hash"])
        if digest in result.hashes:
            result.add(number, "a record met before: duplicated")
        result.hashes.add(digest)
        result.records += 1
        if wanted is not None and wanted(record):
            result.records_read.append(record)
        expected_seq, previous = record["seq"] + 1, record["hash"]
    result.head = previous
    if head is not None and bytes.fromhex(head) not in result.hashes:
        result.add(
            last_line,
            f"the head {head} is not in the ledger: records were removed from its end (rolled back), "
            "or this is another ledger",
        )
    return result


def _record(result: Verification, number: int, line: bytes, whole: bool) -> dict[str, Any] | None:
    """The record on one line, or None with a finding saying why it is not one."""
    if not whole:
        result.add(number, f"a line longer than {MAX_LINE_BYTES:,} bytes: not a record")
        return None
    if not line.endswith(b"\n"):
        result.add(number, "a torn last line (no newline): a write was cut short; it is no record")
        return None
    try:
        value = strict_json.loads(line)
    except DocumentSyntaxError as error:
        result.add(number, f"not a record: {error.reason}")
        return None
    problem = next(iter(_validator().iter_errors(value)), None)
    if problem is not None:  # the message quotes the value: a megabyte of it is shortened
        result.add(number, f"not a ledger record: {shortened(problem.message, MESSAGE_LIMIT)}")
        return None
    if any(type(value[key]) is not int for key in ("seq", "exit_code")):
        result.add(number, "not a ledger record: seq and exit_code are whole numbers written as such (1, not 1.0)")
        return None
    if canonical(value) + b"\n" != line:
        result.add(number, "not in canonical form (keys sorted, no spaces, UTF-8): the record was rewritten")
        return None
    if record_hash(value) != value["hash"]:
        result.add(number, "its hash is not the hash of its fields: the record was edited")
        return None
    record: dict[str, Any] = value
    return record


def _chain(result: Verification, number: int, record: dict[str, Any], expected_seq: int, previous: str) -> None:
    if record["seq"] != expected_seq:
        result.add(
            number,
            f"seq {record['seq']} where {expected_seq} follows: "
            "a record was removed, inserted, reordered or duplicated",
        )
    if record["prev"] != previous:
        result.add(number, "prev is not the hash of the record before: the chain is broken here")
