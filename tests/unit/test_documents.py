"""Reading one source into documents, below the CLI: what each input yields, what its record says,
and how much is read.

Reading is bounded: at most ``limit`` bytes (plus a line break) of a document or line are held, and
an oversized input is not read on, not even to hash it. stdin and unknown suffixes are sniffed. A
problem is a syntax finding on the document it concerns, never an exception.
"""

from __future__ import annotations

import contextlib
import errno
import gzip
import hashlib
import io
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from evalscore.findings import Finding
from evalscore.inputs import documents
from evalscore.inputs.documents import Document, InputRecord, read_documents, read_file_documents
from evalscore.inputs.paths import SourceFile

ROOT = Path(__file__).resolve().parents[2]
RUN = (ROOT / "fixtures" / "valid" / "run" / "minimal.json").read_bytes()
LINE = b"".join(RUN.split())  # the same run on one line (no string in it holds white space)
RUN_VALUE = documents.strict_json.loads(RUN)
STDIN = SourceFile("-", "sniff", gzipped=False)
BOM = b"\xef\xbb\xbf"
CHUNK = 1024 * 1024


def finding(
    code: str, source: str, line: int | None, message: str, pointer: str = "", column: int | None = None
) -> Finding:
    return Finding(
        layer="syntax",
        code=code,
        severity="error",
        pointer=pointer,
        message=message,
        source=source,
        line=line,
        column=column,
    )


def too_large(source: str, line: int | None, what: str, limit: int) -> Document:
    message = f"{what} is larger than {limit:,} bytes; raise --max-document-bytes to read it"
    return Document(source, line, None, finding("ES006", source, line, message))


def read(
    file: SourceFile, limit: int = 10_000, stdin: Any = None, raw_jsonl: bool = False
) -> tuple[list[Document | tuple[int, bytes]], InputRecord]:
    items, record = read_file_documents(file, limit, stdin, raw_jsonl)
    return list(items), record()


def sniffed(data: bytes, limit: int = 10_000) -> tuple[list[Document | tuple[int, bytes]], InputRecord]:
    return read(STDIN, limit, io.BytesIO(data))


def whole(data: bytes) -> InputRecord:
    return InputRecord("-", hashlib.sha256(data).hexdigest(), complete=True, hashed_bytes=len(data))


def values(items: list[Document | tuple[int, bytes]]) -> list[tuple[int | None, Any, str | None]]:
    shown = []
    for item in items:
        assert isinstance(item, Document)
        shown.append((item.line, item.value, item.syntax.code if item.syntax else None))
    return shown


@contextlib.contextmanager
def pipe(data: bytes) -> Iterator[tuple[int, Any]]:
    """A pipe holding ``data`` (written whole, writer closed): (its read descriptor, a raw reader)."""
    assert len(data) < 60_000  # what a pipe holds without a reader
    read_end, write_end = os.pipe()
    os.write(write_end, data)
    os.close(write_end)
    with os.fdopen(read_end, "rb", buffering=0) as reader:
        yield read_end, reader


@contextlib.contextmanager
def no_longer_than(seconds: float) -> Iterator[None]:
    """Fail the test, rather than wait, when a read blocks."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"still blocked after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class Recording(io.BytesIO):
    """Bytes that remember the size of every read, and give at most ``most`` bytes a call."""

    def __init__(self, data: bytes, most: int | None = None) -> None:
        super().__init__(data)
        self.sizes: list[int | None] = []
        self._most = most

    def read(self, size: int | None = -1) -> bytes:
        self.sizes.append(size)
        if self._most is not None and size is not None and size > self._most:
            size = self._most
        return super().read(size)

    def readline(self, size: int | None = -1) -> bytes:
        self.sizes.append(size)
        return super().readline(size)


class Failing(io.RawIOBase):
    """A stream that fails when read."""

    def __init__(self, error: BaseException) -> None:
        self._error = error

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise self._error


# --- records ----------------------------------------------------------------------------------


def test_a_source_known_to_be_unreadable_is_one_finding_and_a_record_of_nothing_read() -> None:
    file = SourceFile("gone.json", "json", gzipped=False, problem="no such file or directory")
    assert read(file) == (
        [Document("gone.json", None, None, finding("ES001", "gone.json", None, "no such file or directory"))],
        InputRecord("gone.json", None, complete=False, hashed_bytes=0),
    )


def test_before_its_documents_are_read_an_input_is_recorded_as_not_read(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_bytes(RUN)
    items, record = read_file_documents(SourceFile(str(path), "json", gzipped=False))
    assert record() == InputRecord(str(path), None, complete=False, hashed_bytes=0)
    assert values(list(items)) == [(None, RUN_VALUE, None)]
    assert record() == InputRecord(str(path), hashlib.sha256(RUN).hexdigest(), complete=True, hashed_bytes=len(RUN))


def test_an_input_cut_at_the_limit_is_recorded_with_the_digest_of_what_was_read() -> None:
    data = b'"' + b"x" * (3 * CHUNK)
    items, record = sniffed(data, limit=100)
    assert items == [too_large("-", None, "the start of the input", 100)]
    assert record.complete is False
    assert 100 < record.hashed_bytes < 3 * CHUNK
    assert record.sha256 == hashlib.sha256(data[: record.hashed_bytes]).hexdigest()


def test_a_whole_input_is_hashed_to_its_end_whatever_was_parsed(tmp_path: Path) -> None:
    data = RUN + b"\n" * (2 * CHUNK)  # trailing white space read in more than one chunk
    path = tmp_path / "run.json"
    path.write_bytes(data)
    items, record = read(SourceFile(str(path), "json", gzipped=False), limit=4 * CHUNK)
    assert values(items) == [(None, RUN_VALUE, None)]
    assert record == InputRecord(str(path), hashlib.sha256(data).hexdigest(), complete=True, hashed_bytes=len(data))


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"this is not gzip at all", "not a valid gzip stream: not a gzipped file (b'th')"),
        (
            gzip.compress(RUN)[:40],
            "not a valid gzip stream: compressed file ended before the end-of-stream marker was reached",
        ),
    ],
)
def test_a_gzip_stream_that_breaks_is_a_finding_and_its_bytes_are_recorded(
    tmp_path: Path, data: bytes, reason: str
) -> None:
    path = tmp_path / "run.json.gz"
    path.write_bytes(data)
    items, record = read(SourceFile(str(path), "json", gzipped=True))
    assert items == [Document(str(path), None, None, finding("ES007", str(path), None, reason))]
    assert record == InputRecord(str(path), hashlib.sha256(data).hexdigest(), complete=False, hashed_bytes=len(data))


# --- opening ----------------------------------------------------------------------------------


def test_a_walked_file_that_turned_into_a_fifo_is_skipped_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "runs.jsonl"
    os.mkfifo(fifo)
    with no_longer_than(5):
        items, record = read(SourceFile(str(fifo), "jsonl", gzipped=False, walked=True))
    assert items == [
        Document(str(fifo), None, None, finding("ES001", str(fifo), None, "a FIFO, not a regular file: skipped"))
    ]
    assert record == InputRecord(str(fifo), None, complete=False, hashed_bytes=0)


def test_a_pipe_named_directly_is_read() -> None:
    with pipe(RUN) as (descriptor, _), no_longer_than(5):
        path = f"/dev/fd/{descriptor}"
        items, record = read(SourceFile(path, "json", gzipped=False))
    assert values(items) == [(None, RUN_VALUE, None)]
    assert record == InputRecord(path, hashlib.sha256(RUN).hexdigest(), complete=True, hashed_bytes=len(RUN))


def test_a_directory_opened_as_a_file_is_unreadable_with_the_reason(tmp_path: Path) -> None:
    items, record = read(SourceFile(str(tmp_path), "json", gzipped=False))
    assert items == [Document(str(tmp_path), None, None, finding("ES001", str(tmp_path), None, "is a directory"))]
    assert record == InputRecord(str(tmp_path), None, complete=False, hashed_bytes=0)


def test_an_input_that_fails_while_being_read_is_unreadable_with_the_reason() -> None:
    items, record = read(STDIN, stdin=Failing(OSError(errno.EIO, "Input/output error")))
    assert items == [Document("-", None, None, finding("ES001", "-", None, "input/output error"))]
    assert record == InputRecord("-", None, complete=False, hashed_bytes=0)


def test_an_input_that_does_not_fit_in_memory_is_too_large_with_what_to_do() -> None:
    items, record = read(STDIN, stdin=Failing(MemoryError()))
    reason = "the input does not fit in the memory available; lower --max-document-bytes or raise the memory limit"
    assert items == [Document("-", None, None, finding("ES006", "-", None, reason))]
    assert record == InputRecord("-", None, complete=False, hashed_bytes=0)


def test_the_stdin_given_is_read_instead_of_the_process_stdin() -> None:
    assert values(sniffed(RUN)[0]) == [(None, RUN_VALUE, None)]


def test_the_process_stdin_is_read_when_none_is_given_and_left_open(monkeypatch: pytest.MonkeyPatch) -> None:
    buffer = io.BytesIO(RUN)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(buffer))
    items, record = read(STDIN)
    assert values(items) == [(None, RUN_VALUE, None)]
    assert record == whole(RUN)
    assert not buffer.closed


def test_a_regular_files_size_is_the_readers_hint_and_nothing_else_has_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hints: list[int | None] = []
    real = documents._read_limited

    def spy(stream: Any, limit: int, size_hint: int | None = None) -> bytes | None:
        hints.append(size_hint)
        return real(stream, limit, size_hint)

    monkeypatch.setattr(documents, "_read_limited", spy)
    (tmp_path / "run.json").write_bytes(RUN)
    (tmp_path / "run.json.gz").write_bytes(gzip.compress(RUN))
    for name, gzipped in (("run.json", False), ("run.json.gz", True)):
        assert values(read(SourceFile(str(tmp_path / name), "json", gzipped))[0]) == [(None, RUN_VALUE, None)]
    with pipe(RUN) as (descriptor, _):
        assert values(read(SourceFile(f"/dev/fd/{descriptor}", "json", gzipped=False))[0]) == [(None, RUN_VALUE, None)]
    assert hints == [len(RUN), None, None]


# --- JSONL --------------------------------------------------------------------------------------


def test_jsonl_lines_come_parsed_unless_raw_lines_are_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(LINE + b"\n\n" + LINE + b"\n")
    file = SourceFile(str(path), "jsonl", gzipped=False)
    assert values(read(file)[0]) == [(1, RUN_VALUE, None), (3, RUN_VALUE, None)]
    assert read(file, raw_jsonl=True)[0] == [(1, LINE + b"\n"), (3, LINE + b"\n")]


def test_a_jsonl_input_without_a_line_holds_no_artifact() -> None:
    file = SourceFile("-", "jsonl", gzipped=False)
    inputs = (b"", b"\n\n \n", BOM, BOM + b"\n", BOM + b" \t")
    for data in inputs:
        assert read(file, stdin=io.BytesIO(data))[0] == [
            Document("-", None, None, finding("ES008", "-", None, "the JSONL input holds no line"))
        ], data
    assert len(inputs) == 5


@pytest.mark.parametrize("ending", [b"\n", b"\r\n"])
def test_a_jsonl_line_one_byte_over_the_limit_is_refused_whatever_its_line_break(ending: bytes) -> None:
    limit = len(LINE)
    data = LINE + ending + LINE + b" " + ending + LINE + ending
    items, record = read(SourceFile("-", "jsonl", gzipped=False), limit, io.BytesIO(data))
    assert items[1] == too_large("-", 2, "line", limit)
    assert values(items) == [(1, RUN_VALUE, None), (2, None, "ES006"), (3, RUN_VALUE, None)]
    assert record == whole(data)


@pytest.mark.parametrize(("line", "length"), [(b"abc\r\n", 3), (b"abc\n", 3), (b"abc", 3), (b"\r\n", 0), (b"\r", 1)])
def test_a_lines_length_does_not_count_its_line_break(line: bytes, length: int) -> None:
    assert documents._content_length(line) == length


def test_jsonl_is_read_a_bounded_line_at_a_time_and_an_oversized_line_skipped_in_chunks() -> None:
    long_line = b"[" + b"1," * (3 * CHUNK) + b"1]\n"
    stream = Recording(LINE + b"\n" + long_line + LINE + b"\n")
    items = list(documents._jsonl_documents(stream, "s", 1000, documents._Reading(), skippable=True))
    assert values(items) == [(1, RUN_VALUE, None), (2, None, "ES006"), (3, RUN_VALUE, None)]  # type: ignore[arg-type]
    assert set(stream.sizes) == {1002, CHUNK}
    assert stream.sizes.count(CHUNK) == 6  # the rest of its 6 MiB and 4 bytes, after the first 1002
    assert stream.sizes.count(1002) == 4  # three lines and the end


def _oversized_then_more(limit: int) -> bytes:
    return LINE + b"\n" + b"[" + b"1," * limit + b"1]\n" + LINE + b"\n"


def test_an_oversized_jsonl_line_in_a_pipe_stops_the_reading_there() -> None:
    limit = len(LINE)
    data = _oversized_then_more(limit)
    with pipe(data) as (descriptor, _):
        path = f"/dev/fd/{descriptor}"
        items, record = read(SourceFile(path, "jsonl", gzipped=False), limit)
    assert values(items) == [(1, RUN_VALUE, None), (2, None, "ES006")]
    assert record.complete is False


def test_an_oversized_sniffed_jsonl_line_in_a_pipe_stops_the_reading_there() -> None:
    limit = len(LINE)
    data = LINE + b"\n" + _oversized_then_more(limit)
    with pipe(data) as (_, reader):
        items, record = read(STDIN, limit, reader)
    assert values(items) == [(1, RUN_VALUE, None), (2, RUN_VALUE, None), (3, None, "ES006")]
    assert record.complete is False


@pytest.mark.parametrize(("name", "gzipped"), [("runs.jsonl.gz", True), ("runs.log", False)])
def test_an_oversized_line_of_a_gzipped_or_sniffed_regular_file_is_skipped(
    tmp_path: Path, name: str, gzipped: bool
) -> None:
    limit = len(LINE)
    data = LINE + b"\n" + _oversized_then_more(limit)
    path = tmp_path / name
    path.write_bytes(gzip.compress(data) if gzipped else data)
    items, record = read(SourceFile(str(path), "jsonl" if gzipped else "sniff", gzipped), limit)
    assert values(items) == [(1, RUN_VALUE, None), (2, RUN_VALUE, None), (3, None, "ES006"), (4, RUN_VALUE, None)]
    assert record.complete is True


@pytest.mark.parametrize(
    ("line", "message", "column"),
    [
        (b'{"a": 1,   \n', "EOF while parsing a value (column 11)", 11),
        (b'{"a": 1,\t\r\n', "EOF while parsing a value (column 9)", 9),
        (b"[1, X\n", "expected value (column 5)", 5),
    ],
)
def test_a_bad_jsonl_line_is_located_within_the_line_not_after_its_break(
    line: bytes, message: str, column: int
) -> None:
    expected = Document("s", 7, None, finding("ES002", "s", 7, message, column=column))
    assert documents.parse_json(line, "s", 7) == expected


def test_an_error_with_no_column_on_a_jsonl_line_says_only_its_reason() -> None:
    error = documents.DocumentSyntaxError("ES002", "bad", None, None, "/a")
    assert documents._finding_of(error, "s", 3) == finding("ES002", "s", 3, "bad", "/a")
    located = documents.DocumentSyntaxError("ES002", "bad", 1, 4)
    assert documents._finding_of(located, "s", 3) == finding("ES002", "s", 3, "bad (column 4)", column=4)
    assert documents._finding_of(located, "s", None) == finding("ES002", "s", 1, "bad (line 1 column 4)", column=4)


# --- whole documents ----------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "fmt"), [("empty.json", "json"), ("empty.yaml", "yaml")])
@pytest.mark.parametrize("data", [b"", b" \t\r\n", BOM + b"\n"])
def test_an_empty_json_or_yaml_file_holds_no_artifact(tmp_path: Path, name: str, fmt: str, data: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    assert read(SourceFile(str(path), fmt, gzipped=False))[0] == [  # type: ignore[arg-type]
        Document(str(path), None, None, finding("ES008", str(path), None, "the input is empty"))
    ]


def test_a_form_feed_or_vertical_tab_is_no_white_space_of_a_suite(tmp_path: Path) -> None:
    path = tmp_path / "suite.yaml"
    path.write_bytes(b"\x0b\n")
    ((_, _, code),) = values(read(SourceFile(str(path), "yaml", gzipped=False))[0])
    assert code == "ES003"


def test_a_document_over_the_limit_is_refused_and_not_read_on(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_bytes(RUN + b" " * (3 * CHUNK))
    items, record = read(SourceFile(str(path), "json", gzipped=False), limit=len(RUN))
    assert items == [too_large(str(path), None, "document", len(RUN))]
    assert record.complete is False
    assert record.hashed_bytes <= 2 * CHUNK


def test_a_yaml_error_places_the_document_at_the_errors_line() -> None:
    document = documents.parse_yaml(b"a: 1\nb: 2\nc: !!binary x\n", "s.yaml")
    assert (document.line, document.syntax) == (
        3,
        finding(
            "ES003",
            "s.yaml",
            3,
            "the tag !!binary is not allowed: a suite is JSON data (only !!str, !!int, !!float, !!bool, !!null,"
            " !!seq and !!map) (line 3 column 4)",
            "/c",
            column=4,
        ),
    )


# --- sniffing -----------------------------------------------------------------------------------


@pytest.mark.parametrize("data", [b"", b"\n \n\t\n"])
def test_empty_stdin_holds_no_artifact(data: bytes) -> None:
    assert sniffed(data) == (
        [Document("-", None, None, finding("ES008", "-", None, "the input is empty"))],
        whole(data),
    )


def test_a_first_line_of_exactly_the_limit_is_read_and_one_byte_more_is_refused() -> None:
    document = b'{"a": 123}'
    assert values(sniffed(document + b"\r\n", limit=len(document))[0]) == [(None, {"a": 123}, None)]
    items, record = sniffed(b'{"a": 1234}\n', limit=len(document))
    assert items == [too_large("-", None, "the start of the input", len(document))]
    assert record.complete is False


def test_a_byte_order_mark_opens_sniffed_jsonl_only_on_its_first_line() -> None:
    data = LINE + b"\n" + LINE + b"\n"
    assert values(sniffed(BOM + data)[0]) == [(1, RUN_VALUE, None), (2, RUN_VALUE, None)]
    ((line, value, _),) = values(sniffed(b"\n" + BOM + data)[0])  # one document, not lines: text, not a run
    assert (line, type(value)) == (None, str)


def test_a_yaml_first_line_followed_by_endless_blank_lines_is_a_document_too_large() -> None:
    items, record = sniffed(b"a: 1\n" + b"\n" * 200 + b"b: 2\n", limit=100)
    assert items == [too_large("-", None, "document", 100)]
    assert record.complete is False


def test_a_sniffed_document_of_exactly_the_limit_is_read_and_one_byte_more_is_refused() -> None:
    assert values(sniffed(b"a: 1", limit=4)[0]) == [(None, {"a": 1}, None)]
    assert values(sniffed(b"a: 1\nb: 2\n", limit=10)[0]) == [(None, {"a": 1, "b": 2}, None)]
    items, record = sniffed(b"a: 1\nb: 2\n", limit=9)
    assert items == [too_large("-", None, "document", 9)]
    assert record.complete is False


def test_blank_lines_before_a_sniffed_yaml_document_are_part_of_it() -> None:
    assert values(sniffed(b"\n\r\n\nsuite: x\n")[0]) == [(None, {"suite": "x"}, None)]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b'\x0c{"a": 1}', "ES003"),  # a form feed is no JSON white space: not JSON, so YAML, which forbids it
        (b' {\n "a": [1,\n', "ES002"),  # JSON, after JSON white space: one JSON document
        (b"\t[\n1,\n", "ES002"),
    ],
)
def test_a_sniffed_document_is_json_when_it_opens_like_json_after_json_white_space(data: bytes, code: str) -> None:
    ((_, _, found),) = values(sniffed(data)[0])
    assert found == code


def test_the_blank_lines_sniffing_may_hold_are_bounded_by_the_limit() -> None:
    content = Recording(b"\n" * 12 + b"{}\n")
    read_lines: list[bytes] = []
    assert documents._next_content_line(content, 10, read_lines) == b"{}\n"
    assert read_lines == [b"\n"] * 12 + [b"{}\n"]
    assert content.sizes == [12] * 13
    with pytest.raises(documents._SniffedTooMuchError):
        documents._next_content_line(io.BytesIO(b"\n" * 13 + b"{}\n"), 10, [])
    assert documents._next_content_line(io.BytesIO(b"\n" * 7 + b"{}\n"), 10, [b"12345"]) == b"{}\n"
    with pytest.raises(documents._SniffedTooMuchError):
        documents._next_content_line(io.BytesIO(b"\n" * 8 + b"{}\n"), 10, [b"12345"])
    assert documents._next_content_line(io.BytesIO(b"\n\n"), 10, []) is None
    assert documents._next_content_line(io.BytesIO(b"\x0c\n{}\n"), 10, []) == b"\x0c\n"


# --- the pieces ----------------------------------------------------------------------------------


def test_read_limited_gives_all_bytes_up_to_the_limit_and_none_beyond() -> None:
    assert documents._read_limited(io.BytesIO(b"x" * 10), 10) == b"x" * 10
    assert documents._read_limited(io.BytesIO(b""), 10) == b""
    over = Recording(b"x" * (3 * CHUNK))
    assert documents._read_limited(over, 100) is None
    assert (over.tell(), over.sizes) == (101, [101])


def test_read_limited_stops_one_byte_past_the_limit_when_reads_come_short() -> None:
    trickle = Recording(b"abcd", most=1)
    assert documents._read_limited(trickle, 3) is None
    assert trickle.sizes == [4, 3, 2, 1]
    exact = Recording(b"abc", most=1)
    assert documents._read_limited(exact, 3) == b"abc"
    assert exact.sizes == [4, 3, 2, 1]
    halves = Recording(b"y" * 300, most=50)
    assert documents._read_limited(halves, 100) is None
    assert (halves.tell(), halves.sizes) == (101, [101, 51, 1])


def test_a_size_hint_reads_a_file_that_fits_in_one_piece_and_a_grown_file_still_within_the_limit() -> None:
    fits = Recording(b"x" * 5)
    assert documents._read_limited(fits, 100, size_hint=5) == b"x" * 5
    assert fits.sizes == [6]
    assert documents._read_limited(io.BytesIO(b"x" * 10), 100, size_hint=4) == b"x" * 10
    grown = io.BytesIO(b"x" * 102)
    assert documents._read_limited(grown, 100, size_hint=4) is None
    assert grown.tell() == 101


def test_the_hashing_reader_counts_and_hashes_every_byte_read_through_it() -> None:
    data = os.urandom(2 * CHUNK + 7)
    hashing = documents._HashingReader(io.BytesIO(data), digest=True)
    hashing.drain()
    assert hashing.digest is not None
    assert (hashing.count, hashing.digest.hexdigest()) == (len(data), hashlib.sha256(data).hexdigest())
    assert hashing.read(10) == b""
    assert hashing.record("in", complete=True) == InputRecord("in", hashlib.sha256(data).hexdigest(), True, len(data))


def test_a_reader_asked_for_no_digest_counts_the_bytes_and_records_no_digest() -> None:
    data = os.urandom(2 * CHUNK + 7)
    counting = documents._HashingReader(io.BytesIO(data), digest=False)
    counting.drain()
    assert (counting.count, counting.digest) == (len(data), None)
    assert counting.record("in", complete=True) == InputRecord("in", None, True, 0)


def test_prefixed_bytes_are_read_before_the_rest_of_the_stream() -> None:
    def prefixed() -> documents._Prefixed:
        return documents._Prefixed(b"ab\ncd", io.BytesIO(b"ef\ngh"))

    assert prefixed().readable() is True
    for size in (-1, None):
        assert prefixed().read(size) == b"ab\ncdef\ngh"
    stream = prefixed()
    assert [stream.read(3), stream.read(4), stream.read(0), stream.read(10), stream.read(1)] == [
        b"ab\n",
        b"cdef",
        b"",
        b"\ngh",
        b"",
    ]
    stream = prefixed()
    assert [stream.readline(), stream.readline(), stream.readline(), stream.readline()] == [
        b"ab\n",
        b"cdef\n",
        b"gh",
        b"",
    ]
    stream = prefixed()
    assert [stream.readline(2), stream.readline(None), stream.readline(0), stream.readline(3)] == [
        b"ab",
        b"\n",
        b"",
        b"cde",
    ]
    stream = prefixed()
    stream.readline()
    assert [stream.readline(None), stream.readline(-1)] == [b"cdef\n", b"gh"]
    stream = prefixed()
    stream.readline()
    assert stream.readline(2) == b"cd"


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (FileNotFoundError(errno.ENOENT, "No such file or directory"), "no such file or directory"),
        (OSError("The disk said no"), "the disk said no"),
        (ValueError("Bad Thing"), "bad Thing"),
        (EOFError(), "eOFError"),
        (gzip.BadGzipFile("Not a gzipped file (b'th')"), "not a gzipped file (b'th')"),
    ],
)
def test_an_error_is_said_in_its_own_words_starting_lower_case(error: BaseException, reason: str) -> None:
    assert documents.os_reason(error) == reason


def test_read_documents_reads_every_path_in_order_and_records_each_input(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(LINE + b"\n" + LINE + b"\n")
    records: list[InputRecord] = []
    found = list(read_documents([str(path), "-"], 10_000, records.append, io.BytesIO(RUN)))
    assert [(d.source, d.line, d.value) for d in found] == [
        (str(path), 1, RUN_VALUE),
        (str(path), 2, RUN_VALUE),
        ("-", None, RUN_VALUE),
    ]
    assert records == [
        InputRecord(str(path), hashlib.sha256(path.read_bytes()).hexdigest(), True, path.stat().st_size),
        whole(RUN),
    ]
    assert [d.syntax for d in read_documents([str(path)], limit=len(LINE) - 1)] == [
        finding(
            "ES006", str(path), 1, f"line is larger than {len(LINE) - 1:,} bytes; raise --max-document-bytes to read it"
        ),
        finding(
            "ES006", str(path), 2, f"line is larger than {len(LINE) - 1:,} bytes; raise --max-document-bytes to read it"
        ),
    ]


def test_blank_lines_before_the_one_json_document_of_a_sniffed_input_are_whitespace() -> None:
    found = list(read_documents(["-"], 10_000, stdin=io.BytesIO(b"\n \r\n\t\n" + b'{"a": [1, 2]}\n')))
    assert [(document.value, document.syntax) for document in found] == [({"a": [1, 2]}, None)]


def test_a_yaml_document_is_kept_to_locate_its_findings_up_to_the_limit_and_not_past_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(documents, "LOCATE_LIMIT", 10)
    at_the_limit, past_it = b"a: 1234567", b"a: 12345678"
    assert len(at_the_limit) == 10
    assert documents.parse_yaml(at_the_limit, "s.yaml").text == ("yaml", at_the_limit)
    assert documents.parse_yaml(past_it, "s.yaml").text is None
    assert documents.parse_yaml(past_it, "s.yaml").value == {"a": 12345678}
