"""Appending a decision: the record written, the last record read back, the ledger checked first."""

from __future__ import annotations

import datetime
import os
import re
import stat
import threading
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest
from filelock import FileLock, Timeout

from evalscore.ledger import append
from evalscore.ledger.append import (
    LOCK_TIMEOUT_S,
    LedgerRefusedError,
    _last,
    _line_count,
    append_decision,
    check_ledger,
    lock_of,
)
from evalscore.ledger.record import GENESIS, LedgerRecord, canonical, record_hash, report_digest

from .builders import chain, fields, ledger, line, report, sealed, syntax_reason

RECORDED_AT: Final = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z")
NOT_ITS_OWN: Final = "the last record's hash or form is not its own; run evalscore ledger verify"
NO_SEQ: Final = "the last record has no seq; run evalscore ledger verify"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "decisions.jsonl"


def refusal(path: Path) -> str:
    """The message of the refusal to extend the ledger at ``path``; the ledger is left as it was."""
    before = path.read_bytes()
    with pytest.raises(LedgerRefusedError) as refused:
        append_decision(path, report())
    assert path.read_bytes() == before
    return str(refused.value)


def test_the_first_record_has_seq_one_and_the_genesis_prev(path: Path) -> None:
    record = append_decision(path, report())
    assert (record["seq"], record["prev"]) == (1, GENESIS)
    assert record["hash"] == record_hash(record)
    assert path.read_bytes() == canonical(record) + b"\n"
    assert LedgerRecord.model_validate(record).seq == 1


def test_the_next_record_is_appended_and_chained_to_the_one_before(path: Path) -> None:
    first = append_decision(path, report())
    second = append_decision(path, report())
    third = append_decision(path, report())
    assert [record["seq"] for record in (first, second, third)] == [1, 2, 3]
    assert (second["prev"], third["prev"]) == (first["hash"], second["hash"])
    assert path.read_bytes() == line(first) + line(second) + line(third)


def test_a_record_is_appended_after_the_records_already_there(path: Path) -> None:
    records = chain(2)
    path.write_bytes(ledger(records))
    record = append_decision(path, report())
    assert (record["seq"], record["prev"]) == (3, records[1]["hash"])
    assert path.read_bytes() == ledger([*records, record])


def test_a_record_holds_the_report_s_decision_and_the_digest_of_the_report(path: Path) -> None:
    decided = report()
    record = append_decision(path, decided)
    assert record == {
        "seq": 1,
        "prev": GENESIS,
        "recorded_at": record["recorded_at"],
        "evalscore_version": decided.evalscore_version,
        "inputs": [{"path": "runs/run.json", "sha256": "c" * 64, "kind": "run"}],
        "suites": [{"id": "golden-denied-approval", "version": "1.0.0"}],
        "scoring_model": "v3",
        "thresholds": {
            "min_mandated_compliance": None,
            "min_ask_precision": None,
            "min_blocker_recall": None,
            "min_tool_match": 0.25,
            "min_distraction_catch": None,
            "min_golden_truth_pass": None,
            "max_prefilled_ratio": None,
            "max_drop": 0.5,
            "allow_empty": True,
            "confidence": 0.95,
            "threshold_basis": "point",
        },
        "outcome": "pass",
        "exit_code": 0,
        "report_sha256": report_digest(decided.to_json_dict()),
        "hash": record_hash(record),
    }


def test_a_refused_decision_is_recorded_with_its_outcome_and_exit_code(path: Path) -> None:
    refused = report().model_copy(
        update={"decision": report().decision.model_copy(update={"outcome": "refused", "exit_code": 4})}
    )
    record = append_decision(path, refused)
    assert (record["outcome"], record["exit_code"]) == ("refused", 4)
    assert record["report_sha256"] != report_digest(report().to_json_dict())


@pytest.fixture
def far_from_utc() -> Iterator[None]:
    """The process's local time zone is 5 h 45 min ahead of UTC for the test."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "Asia/Kathmandu"
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            del os.environ["TZ"]
        else:
            os.environ["TZ"] = before
        time.tzset()


@pytest.mark.usefixtures("far_from_utc")
def test_recorded_at_is_the_utc_time_of_the_append_to_the_microsecond(path: Path) -> None:
    assert time.localtime().tm_gmtoff == 5 * 3600 + 45 * 60
    start = datetime.datetime.now(datetime.UTC)
    recorded_at = append_decision(path, report())["recorded_at"]
    end = datetime.datetime.now(datetime.UTC)
    assert RECORDED_AT.fullmatch(recorded_at)
    when = datetime.datetime.strptime(recorded_at, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.UTC)
    assert start <= when <= end


def test_a_new_ledger_is_readable_by_all_and_writable_by_its_owner(path: Path) -> None:
    mask = os.umask(0o022)
    try:
        append_decision(path, report())
    finally:
        os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_the_lock_is_the_ledger_s_name_with_lock_and_waits_two_minutes(path: Path) -> None:
    lock = lock_of(path)
    assert lock.lock_file == str(path) + ".lock"
    assert lock.timeout == LOCK_TIMEOUT_S == 120.0


def test_an_append_waits_for_the_lock_and_writes_nothing_without_it(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(append, "LOCK_TIMEOUT_S", 0.05)
    with FileLock(str(path) + ".lock"), pytest.raises(Timeout):
        append_decision(path, report())
    assert not path.exists()


def test_the_start_up_check_waits_for_an_append_in_progress_instead_of_calling_its_half_line_torn(
    path: Path,
) -> None:
    whole = ledger(chain(2))
    outcomes: list[str] = []

    def start_up_check() -> None:
        try:
            check_ledger(path, [])
        except LedgerRefusedError as error:
            outcomes.append(f"refused: {error}")
        else:
            outcomes.append("accepted")

    with lock_of(path):  # an append holds the lock while its line is half-written
        path.write_bytes(whole[:-40])
        checker = threading.Thread(target=start_up_check)
        checker.start()
        checker.join(timeout=0.5)
        assert checker.is_alive(), outcomes  # it waits for the lock rather than reading now
        path.write_bytes(whole)
    checker.join(timeout=30)
    assert outcomes == ["accepted"]


def test_an_absent_or_empty_ledger_has_no_last_record(path: Path) -> None:
    assert _last(path) == (0, GENESIS)
    path.write_bytes(b"")
    assert _last(path) == (0, GENESIS)


def test_the_last_record_of_one_gives_its_seq_and_hash(path: Path) -> None:
    (record,) = chain(1)
    path.write_bytes(line(record))
    assert _last(path) == (1, record["hash"])


def test_the_last_record_of_several_gives_its_seq_and_hash(path: Path) -> None:
    records = chain(3)
    path.write_bytes(ledger(records))
    assert _last(path) == (3, records[2]["hash"])


def test_the_last_record_is_read_whatever_comes_before_it(path: Path) -> None:
    (record,) = chain(1)
    path.write_bytes(b"junk\n\n" + line(record))
    assert _last(path) == (1, record["hash"])


def test_a_torn_last_line_is_refused_with_its_line_and_nothing_is_written(path: Path) -> None:
    path.write_bytes(ledger(chain(2)) + b'{"seq":3,"prev":"')
    assert refusal(path) == f"{path}:3: the last line is torn (no newline); not extended"


def test_a_whole_record_without_its_newline_is_refused_as_torn(path: Path) -> None:
    path.write_bytes(line(chain(1)[0])[:-1])
    assert refusal(path) == f"{path}:1: the last line is torn (no newline); not extended"


def test_a_last_line_that_is_not_json_is_refused_with_the_reader_s_reason(path: Path) -> None:
    path.write_bytes(ledger(chain(1)) + b"not json\n")
    assert refusal(path) == f"{path}:2: the last line is not a record ({syntax_reason(b'not json')}); not extended"


def test_an_empty_last_line_is_refused_as_not_a_record(path: Path) -> None:
    path.write_bytes(ledger(chain(1)) + b"\n")
    assert refusal(path) == f"{path}:2: the last line is not a record ({syntax_reason(b'')}); not extended"


def test_a_lone_empty_line_is_refused_as_not_a_record(path: Path) -> None:
    path.write_bytes(b"\n")
    assert refusal(path) == f"{path}:1: the last line is not a record ({syntax_reason(b'')}); not extended"


@pytest.mark.parametrize(
    "last",
    [
        line([1, 2]),
        line("text"),
        line({**sealed(fields(2)), "outcome": "fail"}),
        line({**sealed(fields(2)), "hash": "0" * 64}),
        line(fields(2)),
        line(sealed(fields(2)))[:-1] + b" \n",
        b" " + line(sealed(fields(2))),
        b'{"seq":2,' + line(sealed(fields(2)))[1:].replace(b',"seq":2', b""),
    ],
    ids=["array", "string", "edited", "wrong-hash", "no-hash", "trailing-space", "leading-space", "keys-unsorted"],
)
def test_a_last_record_whose_hash_or_form_is_not_its_own_is_refused(path: Path, last: bytes) -> None:
    path.write_bytes(ledger(chain(1)) + last)
    assert refusal(path) == f"{path}:2: {NOT_ITS_OWN}"


def test_the_unsorted_record_differs_from_the_canonical_one_only_in_order() -> None:
    record = sealed(fields(2))
    unsorted = b'{"seq":2,' + line(record)[1:].replace(b',"seq":2', b"")
    assert unsorted != line(record)
    assert sorted(unsorted) == sorted(line(record))


@pytest.mark.parametrize("seq", [None, "2", 2.0, True, False, [2]], ids=repr)
def test_a_last_record_without_an_integer_seq_is_refused(path: Path, seq: Any) -> None:
    record = fields(2)
    if seq is None:
        del record["seq"]
    else:
        record["seq"] = seq
    path.write_bytes(ledger(chain(1)) + line(sealed(record)))
    assert refusal(path) == f"{path}:2: {NO_SEQ}"
    with pytest.raises(LedgerRefusedError):
        _last(path)


def test_a_last_record_is_read_by_its_bytes_not_its_schema(path: Path) -> None:
    record = sealed({"seq": 41, "note": "not of the schema"})
    path.write_bytes(line(record))
    assert _last(path) == (41, record["hash"])


def test_a_last_line_longer_than_tail_bytes_is_refused(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    records = chain(2)
    monkeypatch.setattr(append, "TAIL_BYTES", len(line(records[1])) - 1)
    assert len(line(records[1])) > 100
    path.write_bytes(ledger(records))
    tail = append.TAIL_BYTES
    assert refusal(path) == f"{path}: the last line is longer than {tail:,} bytes; not extended"


def test_a_last_line_that_fills_the_tail_with_the_newline_before_it_is_read(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = chain(3)
    monkeypatch.setattr(append, "TAIL_BYTES", len(line(records[2])) + 1)
    path.write_bytes(ledger(records))
    assert _last(path) == (3, records[2]["hash"])


def test_a_last_line_shorter_than_the_tail_is_read_from_a_longer_ledger(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = chain(3)
    monkeypatch.setattr(append, "TAIL_BYTES", len(line(records[2])) + 50)
    path.write_bytes(ledger(records))
    assert _last(path) == (3, records[2]["hash"])


def test_a_ledger_of_one_line_exactly_as_long_as_the_tail_is_read(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (record,) = chain(1)
    monkeypatch.setattr(append, "TAIL_BYTES", len(line(record)))
    path.write_bytes(line(record))
    assert _last(path) == (1, record["hash"])


@pytest.mark.parametrize(
    ("data", "count"),
    [
        (b"", 0),
        (b"\n", 1),
        (b"a", 1),
        (b"a\n", 1),
        (b"a\nb", 2),
        (b"a\nb\n", 2),
        (b"\n\n\n", 3),
        (b"a\n\nb", 3),
    ],
)
def test_the_line_count_counts_a_last_line_without_a_newline(path: Path, data: bytes, count: int) -> None:
    path.write_bytes(data)
    assert _line_count(path) == count


def test_the_line_count_adds_up_lines_over_many_reads(path: Path) -> None:
    path.write_bytes(b"x" * 999 + b"\n" + (b"y" * 1023 + b"\n") * 2500 + b"tail")
    assert path.stat().st_size > 2 * 1024 * 1024
    assert _line_count(path) == 2502
    path.write_bytes((b"y" * 1023 + b"\n") * 2048)
    assert _line_count(path) == 2048


def test_the_line_count_holds_no_more_than_two_mebibytes_of_a_long_ledger(path: Path) -> None:
    path.write_bytes((b"y" * 1023 + b"\n") * 8192)
    tracemalloc.start()
    try:
        count = _line_count(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 8192
    assert peak < 3 * 1024 * 1024


def test_an_absent_ledger_may_be_created(path: Path) -> None:
    check_ledger(path, [str(path.with_name("run.json"))])
    assert not path.exists()


def test_a_regular_ledger_that_is_no_input_is_accepted(path: Path) -> None:
    path.write_bytes(b"")
    other = path.with_name("run.json")
    other.write_bytes(b"{}")
    check_ledger(path, [str(other), str(path.with_name("absent.json"))])


def test_a_directory_is_refused_as_a_ledger(tmp_path: Path) -> None:
    with pytest.raises(LedgerRefusedError) as refused:
        check_ledger(tmp_path, [])
    assert str(refused.value) == f"{tmp_path}: is a directory; a ledger is a regular file"


def test_a_ledger_that_is_one_of_the_inputs_is_refused(path: Path) -> None:
    path.write_bytes(b"{}\n")
    other = path.with_name("run.json")
    other.write_bytes(b"{}")
    alias = path.with_name("alias.jsonl")
    alias.symlink_to(path)
    with pytest.raises(LedgerRefusedError) as refused:
        check_ledger(path, [str(other), str(alias)])
    assert str(refused.value) == f"{path}: is the input {alias}; appending to it would change the input"


def test_a_ledger_that_cannot_be_looked_at_is_refused_with_the_reason(path: Path) -> None:
    path.write_bytes(b"")
    inside = path / "decisions.jsonl"
    with pytest.raises(LedgerRefusedError) as refused:
        check_ledger(inside, [])
    assert str(refused.value) == f"{inside}: cannot read the ledger: Not a directory"


def test_a_write_that_takes_part_of_the_line_is_finished(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_write = os.write
    calls: list[int] = []

    def one_byte_at_a_time(descriptor: int, data: bytes) -> int:
        calls.append(len(data))
        return real_write(descriptor, bytes(data[:1]))

    monkeypatch.setattr(append.os, "write", one_byte_at_a_time)
    record = append_decision(path, report())
    monkeypatch.undo()
    assert path.read_bytes() == line(record)
    assert len(calls) == len(line(record))


def test_a_torn_ledger_is_refused_by_the_check_made_before_scoring(path: Path) -> None:
    path.write_bytes(ledger(chain(1)) + b'{"seq":2')
    with pytest.raises(LedgerRefusedError) as refused:
        check_ledger(path, [])
    assert str(refused.value) == f"{path}:2: the last line is torn (no newline); not extended"


def test_a_ledger_whose_last_line_cannot_be_read_is_refused_with_the_reason(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path.write_bytes(ledger(chain(1)))

    def unreadable(*args: Any, **kwargs: Any) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(append, "_last", unreadable)
    with pytest.raises(LedgerRefusedError) as refused:
        check_ledger(path, [])
    assert str(refused.value) == f"{path}: cannot read the ledger: Permission denied"


def test_a_last_record_holding_a_number_json_cannot_write_back_is_not_its_own(path: Path) -> None:
    path.write_bytes(ledger(chain(1)) + b'{"hash":"' + b"0" * 64 + b'","max_drop":1e999,"seq":2}\n')
    assert refusal(path) == f"{path}:2: {NOT_ITS_OWN}"
