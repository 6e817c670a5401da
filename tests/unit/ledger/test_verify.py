"""``verify_stream``: what it detects, on which line, in which words; what it counts and keeps."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any, Final

import pytest

from evalscore.ledger import verify
from evalscore.ledger.record import GENESIS
from evalscore.ledger.verify import MAX_FINDINGS, LedgerFinding, Verification, verify_stream

from .builders import chain, fields, ledger, line, sealed, syntax_reason

EDITED: Final = "its hash is not the hash of its fields: the record was edited"
BROKEN: Final = "prev is not the hash of the record before: the chain is broken here"
DUPLICATED: Final = "a record met before: duplicated"
REWRITTEN: Final = "not in canonical form (keys sorted, no spaces, UTF-8): the record was rewritten"
TORN: Final = "a torn last line (no newline): a write was cut short; it is no record"


def rolled_back(head: str) -> str:
    return (
        f"the head {head} is not in the ledger: records were removed from its end (rolled back), "
        "or this is another ledger"
    )


def out_of_order(seq: int, expected: int) -> str:
    return f"seq {seq} where {expected} follows: a record was removed, inserted, reordered or duplicated"


def verified(
    data: bytes, head: str | None = None, wanted: Callable[[dict[str, Any]], bool] | None = None
) -> Verification:
    return verify_stream(io.BytesIO(data), head, wanted)


def found(result: Verification) -> list[tuple[int, str]]:
    return [(finding.line, finding.reason) for finding in result.findings]


def test_a_clean_chain_verifies_with_the_last_hash_as_head_and_every_record_counted() -> None:
    records = chain(3)
    result = verified(ledger(records))
    assert result.verified
    assert (found(result), result.unlisted) == ([], 0)
    assert result.records == 3
    assert result.head == records[-1]["hash"]
    assert result.records_read == []


def test_an_empty_ledger_verifies_with_no_record_and_the_genesis_head() -> None:
    result = verified(b"")
    assert result.verified
    assert (result.records, result.head, found(result)) == (0, GENESIS, [])


def test_an_edited_record_is_named_and_the_next_one_no_longer_follows() -> None:
    first, second, third = chain(3)
    result = verified(line(first) + line({**second, "outcome": "fail"}) + line(third))
    assert found(result) == [(2, EDITED), (3, out_of_order(3, 2)), (3, BROKEN)]
    assert not result.verified
    assert result.records == 2


def test_an_edited_and_rehashed_record_breaks_the_chain_at_the_next_line() -> None:
    first, second, third = chain(3)
    changed = sealed({**second, "outcome": "fail"})
    assert changed["hash"] != second["hash"]
    result = verified(line(first) + line(changed) + line(third))
    assert found(result) == [(3, BROKEN)]
    assert result.records == 3


def test_reordered_records_are_named_where_each_no_longer_follows() -> None:
    first, second, third = chain(3)
    result = verified(line(first) + line(third) + line(second))
    assert found(result) == [(2, out_of_order(3, 2)), (2, BROKEN), (3, out_of_order(2, 4)), (3, BROKEN)]


def test_a_removed_record_is_named_at_the_line_that_no_longer_follows() -> None:
    first, _, third = chain(3)
    result = verified(line(first) + line(third))
    assert found(result) == [(2, out_of_order(3, 2)), (2, BROKEN)]
    assert result.head == third["hash"]


def test_a_duplicated_record_is_named_as_met_before() -> None:
    records = chain(3)
    result = verified(ledger(records) + line(records[2]))
    assert found(result) == [(4, out_of_order(3, 4)), (4, BROKEN), (4, DUPLICATED)]
    assert result.records == 4


def test_a_record_met_before_far_back_is_named_as_duplicated() -> None:
    records = chain(3)
    result = verified(ledger(records) + line(records[0]))
    assert found(result) == [(4, out_of_order(1, 4)), (4, BROKEN), (4, DUPLICATED)]


@pytest.mark.parametrize(
    "rewritten",
    [
        json.dumps(sealed(fields()), indent=1).replace("\n", " ").encode() + b"\n",
        json.dumps(sealed(fields()), separators=(",", ":")).encode() + b"\n",
        json.dumps(sealed(fields(evalscore_version="0.1.0+café")), sort_keys=True, separators=(",", ":")).encode()
        + b"\n",
        json.dumps(sealed(fields()), sort_keys=True, separators=(",", ":")).encode() + b" \n",
    ],
    ids=["spaces", "keys-unsorted", "non-ascii-escaped", "trailing-space"],
)
def test_a_record_not_in_canonical_form_is_named_as_rewritten(rewritten: bytes) -> None:
    assert line(json.loads(rewritten)) != rewritten
    result = verified(rewritten)
    assert found(result) == [(1, REWRITTEN)]
    assert result.records == 0


def test_a_record_not_in_canonical_form_is_named_rewritten_even_when_its_hash_is_wrong() -> None:
    record = {**sealed(fields()), "hash": "e" * 64}
    result = verified(json.dumps(record).encode() + b"\n")
    assert found(result) == [(1, REWRITTEN)]


@pytest.mark.parametrize(
    "bad",
    [
        b"not json at all\n",
        b'{"seq": 1, "seq": 2}\n',
        b'{"seq": "\xff"}\n',
        b"[" * 300 + b"]" * 300 + b"\n",
        b"\n",
        b"{}{}\n",
    ],
    ids=["not-json", "repeated-key", "not-utf8", "too-deep", "empty-line", "two-values"],
)
def test_a_line_that_is_not_json_is_named_with_the_reader_s_reason_and_the_next_line_is_read(bad: bytes) -> None:
    first, second = chain(2)
    result = verified(line(first) + bad + line(second))
    assert found(result) == [(2, f"not a record: {syntax_reason(bad)}")]
    assert result.records == 2
    assert result.head == second["hash"]


def test_the_reader_s_reasons_name_what_is_wrong() -> None:
    assert syntax_reason(b'{"seq": 1, "seq": 2}\n').startswith("the top-level object repeats the key 'seq'")
    assert syntax_reason(b'{"seq": "\xff"}\n') == "invalid UTF-8 byte 0xff"
    assert syntax_reason(b"[" * 300 + b"]" * 300 + b"\n").startswith("nested deeper than 200")


def without(key: str) -> dict[str, Any]:
    record = fields()
    del record[key]
    return sealed(record)


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        (line(without("outcome")), '"outcome" is a required property'),
        (line(sealed(fields(extra=1))), "Additional properties are not allowed ('extra' was unexpected)"),
        (line(sealed(fields(seq=0))), "0 is less than the minimum of 1"),
        (line(sealed(fields(seq=True))), 'true is not of type "integer"'),
        (line([1]), '[1] is not of type "object"'),
        (b'{"seq": 1}\n', '"prev" is a required property'),
        (line({**sealed(fields()), "hash": "E" * 64}), '"EEEE'),
    ],
    ids=["no-outcome", "extra-field", "seq-0", "bool-seq", "array", "spaced-and-partial", "upper-case-hash"],
)
def test_a_line_not_of_the_record_schema_is_named_with_the_schema_s_words(bad: bytes, reason: str) -> None:
    result = verified(bad)
    assert len(result.findings) == 1
    assert result.findings[0].line == 1
    assert result.findings[0].reason.startswith(f"not a ledger record: {reason}")
    assert result.records == 0


def test_a_torn_last_line_is_named_as_torn_even_when_it_is_a_whole_record_but_its_newline() -> None:
    first, second, third = chain(3)
    result = verified(line(first) + line(second) + line(third)[:-1])
    assert found(result) == [(3, TORN)]
    assert result.records == 2
    assert result.head == second["hash"]
    assert found(verified(line(first) + b'{"seq":2,"prev":"')) == [(2, TORN)]


def test_a_line_is_read_whole_up_to_max_line_bytes_before_its_newline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verify, "MAX_LINE_BYTES", 2048)
    (record,) = chain(1)
    longest = b"x" * 2048 + b"\n"
    assert found(verified(longest + line(record))) == [(1, f"not a record: {syntax_reason(longest)}")]
    too_long = b"x" * 2049 + b"\n"
    result = verified(too_long + line(record))
    assert found(result) == [(1, "a line longer than 2,048 bytes: not a record")]
    assert result.records == 1


def test_a_torn_last_line_is_torn_up_to_max_line_bytes_and_too_long_past_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(verify, "MAX_LINE_BYTES", 2048)
    (record,) = chain(1)
    assert found(verified(line(record) + b"x" * 2048)) == [(2, TORN)]
    assert found(verified(line(record) + b"x" * 2049)) == [(2, "a line longer than 2,048 bytes: not a record")]


def test_the_limit_is_the_real_constant_at_its_boundary() -> None:
    longest = b"[" + b" " * (verify.MAX_LINE_BYTES - 2) + b"]\n"
    assert found(verified(longest)) == [(1, 'not a ledger record: [] is not of type "object"')]
    assert found(verified(b" " + longest)) == [(1, "a line longer than 1,048,576 bytes: not a record")]


def test_a_line_far_longer_than_the_limit_is_skipped_whole_and_the_next_line_keeps_its_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(verify, "MAX_LINE_BYTES", 1000)
    first, second = chain(2)
    huge = b"y" * 3500 + b"\n"
    result = verified(line(first) + huge + huge + line(second) + b"z" * 2500)
    longer = "a line longer than 1,000 bytes: not a record"
    assert found(result) == [(2, longer), (3, longer), (5, longer)]
    assert result.records == 2
    assert result.head == second["hash"]


class Spy(io.BytesIO):
    """A stream that remembers the longest piece one read returned."""

    longest = 0

    def readline(self, size: int | None = -1, /) -> bytes:
        piece = super().readline(size)
        self.longest = max(self.longest, len(piece))
        return piece


def test_no_read_takes_more_than_one_byte_past_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(verify, "MAX_LINE_BYTES", 1000)
    (record,) = chain(1)
    stream = Spy(b"y" * 5000 + b"\n" + line(record))
    result = verify_stream(stream)
    assert (result.records, len(result.findings)) == (1, 1)
    assert 1000 <= stream.longest <= 1001


def test_a_head_the_ledger_holds_verifies_whether_the_last_or_an_older_one() -> None:
    records = chain(3)
    assert verified(ledger(records), head=records[2]["hash"]).verified
    assert verified(ledger(records), head=records[0]["hash"]).verified


def test_a_head_the_ledger_does_not_hold_is_named_at_the_last_line() -> None:
    records = chain(3)
    lost = sealed(fields(4, records[2]["hash"]))["hash"]
    result = verified(ledger(records), head=lost)
    assert found(result) == [(3, rolled_back(lost))]
    assert result.records == 3


def test_a_head_against_an_empty_ledger_is_named_at_line_zero() -> None:
    result = verified(b"", head="a" * 64)
    assert found(result) == [(0, rolled_back("a" * 64))]


def test_a_head_counts_only_records_not_lines_that_failed() -> None:
    first, second = chain(2)
    result = verified(line(first) + line({**second, "outcome": "fail"}) + b"junk\n", head=second["hash"])
    assert found(result) == [
        (2, EDITED),
        (3, f"not a record: {syntax_reason(b'junk')}"),
        (3, rolled_back(second["hash"])),
    ]


def test_exactly_max_findings_are_all_listed() -> None:
    result = verified(b"junk\n" * MAX_FINDINGS)
    assert len(result.findings) == MAX_FINDINGS == 100
    assert result.unlisted == 0
    assert [finding.line for finding in result.findings] == list(range(1, 101))
    assert not result.verified


def test_findings_past_max_findings_are_counted_not_listed() -> None:
    result = verified(b"junk\n" * 101)
    assert (len(result.findings), result.unlisted) == (100, 1)
    assert result.findings[-1].line == 100
    assert not result.verified
    more = verified(b"junk\n" * 103)
    assert (len(more.findings), more.unlisted) == (100, 3)


def test_a_verification_with_only_unlisted_findings_does_not_verify() -> None:
    assert Verification().verified
    assert not Verification(unlisted=1).verified
    assert not Verification(findings=[LedgerFinding(1, "x")]).verified


def test_wanted_keeps_only_the_records_it_selects() -> None:
    records = chain(4)
    asked: list[int] = []

    def odd(record: dict[str, Any]) -> bool:
        asked.append(record["seq"])
        return bool(record["seq"] % 2)

    result = verified(ledger(records[:2]) + b"junk\n" + ledger(records[2:]), wanted=odd)
    assert result.records_read == [records[0], records[2]]
    assert asked == [1, 2, 3, 4]
    assert result.records == 4


FRACTIONAL: Final = "not a ledger record: seq and exit_code are whole numbers written as such (1, not 1.0)"


@pytest.mark.parametrize("key", ["seq", "exit_code"])
def test_a_whole_number_written_as_a_fraction_is_no_record(key: str) -> None:
    record = fields()
    record[key] = float(record[key])
    written = line(sealed(record))
    assert b'":1.0,' in written or b'":0.0,' in written  # canonical as written: the check is the type
    assert found(verified(written)) == [(1, FRACTIONAL)]


def test_a_schema_finding_quotes_a_long_value_shortened_to_a_message_s_length() -> None:
    result = verified(line(sealed(fields(suites="x" * 5_000))))
    ((number, reason),) = found(result)
    assert number == 1
    assert reason.startswith("not a ledger record: ")
    assert "chars)..." in reason
    assert 500 < len(reason) < 700  # a message's limit (600), not a name's (much shorter)
