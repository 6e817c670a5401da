"""Turn source files into parsed documents, one at a time.

A JSONL file is streamed line by line, so memory does not grow with its
length; a JSON or YAML file is one document. Stdin and a file whose suffix
announces no format are sniffed: JSONL when the first line is a complete JSON
value and more lines follow, else one JSON (starts with ``{`` or ``[``) or
YAML document. Every problem becomes a syntax finding on the document it
concerns, never an exception, so one bad file never stops the others from
being checked. Reading stops at ``--max-document-bytes``: the rest of an
oversized input is never read, not even to hash it (the record says so).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import sys
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any, Final, Literal

from evalscore.finding_codes import NO_ARTIFACT, NOT_GZIP, REPEATED_KEY, TOO_DEEP, TOO_LARGE, UNREADABLE
from evalscore.findings import Finding
from evalscore.inputs import strict_json
from evalscore.inputs.errors import os_reason
from evalscore.inputs.expansion import expand_paths
from evalscore.inputs.paths import STDIN, SourceFile, not_regular
from evalscore.inputs.positions import LOCATE_LIMIT
from evalscore.inputs.syntax_error import DocumentSyntaxError
from evalscore.inputs.urls import open_url, url_size

DEFAULT_MAX_DOCUMENT_BYTES: Final = 512 * 1024 * 1024
_CHUNK: Final = 1024 * 1024
_BOM: Final = b"\xef\xbb\xbf"
_JSON_OPENERS: Final = (b"{", b"[")
JSON_WHITESPACE: Final = b" \t\r\n"
"""RFC 8259's four; ``bytes.strip()`` also strips \\x0b and \\x0c, which are not JSON whitespace."""
_WHITESPACE_BYTES: Final = frozenset(JSON_WHITESPACE[index : index + 1] for index in range(len(JSON_WHITESPACE)))
"""The same four, each as a one-byte ``bytes``: what ``line[:1]`` of a blank line can be."""


@dataclass(frozen=True, slots=True)
class Document:
    """One parsed document (or the syntax finding that prevented parsing).

    ``text`` is the document's own bytes and their format, kept for a document of at most
    ``LOCATE_LIMIT`` bytes so that its findings, if it has any, can be given a line and column.
    """

    source: str
    line: int | None
    value: Any
    syntax: Finding | None = None
    text: tuple[Literal["json", "yaml"], bytes] | None = None


@dataclass(frozen=True, slots=True)
class InputRecord:
    """One input as a report names it: where it came from and its bytes' digest.

    ``complete`` is False when reading stopped at a limit (or the input could not be
    read to its end): ``sha256`` is then the digest of the first ``hashed_bytes`` bytes.
    ``sha256`` is None, and ``hashed_bytes`` 0, when no digest was asked for (the report
    shows none).
    """

    path: str
    sha256: str | None
    complete: bool
    hashed_bytes: int


def syntax_finding(
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


class _HashingReader(io.RawIOBase):
    """A raw binary reader that hashes (when asked to) and counts every byte read through it."""

    def __init__(self, raw: IO[bytes], digest: bool) -> None:
        self._raw = raw
        self.digest = hashlib.sha256() if digest else None
        self.count = 0

    def record(self, source: str, complete: bool) -> InputRecord:
        if self.digest is None:
            return InputRecord(source, None, complete=complete, hashed_bytes=0)
        return InputRecord(source, self.digest.hexdigest(), complete=complete, hashed_bytes=self.count)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        count = self._raw.readinto(buffer)  # type: ignore[attr-defined]  # every source here is a raw or BytesIO stream
        if count:
            if self.digest is not None:
                self.digest.update(memoryview(buffer)[:count])
            self.count += count
        return count or 0

    def drain(self) -> None:
        while self.read(_CHUNK):
            pass


@dataclass(slots=True)
class _Reading:
    """How far one input was read: ``stopped`` when reading ended before its end, on purpose."""

    stopped: bool = False


def _finding_of(error: DocumentSyntaxError, source: str, jsonl_line: int | None) -> Finding:
    """A syntax finding from a reader's error; on a JSONL line the line is the file's and only the column is said."""
    if jsonl_line is not None:
        where = f" (column {error.column})" if error.column is not None else ""
        return syntax_finding(error.code, source, jsonl_line, error.reason + where, error.pointer, error.column)
    return syntax_finding(error.code, source, error.line, str(error), error.pointer, error.column)


def parse_json(data: bytes, source: str, line: int | None = None) -> Document:
    """One JSON document (``line``: its JSONL line). A byte order mark is the caller's to strip:
    it may only open a file, never a later line."""
    try:
        return Document(
            source, line, strict_json.loads(data), text=("json", data) if len(data) <= LOCATE_LIMIT else None
        )
    except DocumentSyntaxError as error:
        if line is not None and data.endswith(b"\n"):
            return parse_json(data.rstrip(b"\r\n"), source, line)  # locate within the line, not on the next
        return Document(source, line, None, _finding_of(error, source, line))


def parse_yaml(data: bytes, source: str) -> Document:
    from evalscore.inputs.yaml_loader import load_yaml  # noqa: PLC0415 - PyYAML is loaded for YAML input only

    try:
        return Document(source, None, load_yaml(data), text=("yaml", data) if len(data) <= LOCATE_LIMIT else None)
    except DocumentSyntaxError as error:
        return Document(source, error.line, None, _finding_of(error, source, None))


def _too_large(source: str, line: int | None, limit: int, what: str) -> Document:
    message = f"{what} is larger than {limit:,} bytes; raise --max-document-bytes to read it"
    return Document(source, line, None, syntax_finding(TOO_LARGE, source, line, message))


def _read_limited(stream: IO[bytes], limit: int, size_hint: int | None = None) -> bytes | None:
    """Up to ``limit`` bytes, read in chunks (never a buffer of ``limit`` bytes up front);
    None when there are more, of which at most one chunk's worth has been read.

    ``size_hint`` (a regular file's size) lets a file that fits be read in one piece.
    """
    if size_hint is not None and size_hint < limit:
        data = stream.read(size_hint + 1)
        if len(data) <= size_hint:
            return data
        rest = _read_limited(stream, limit - len(data))
        return None if rest is None else data + rest
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = stream.read(min(_CHUNK, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return None if size > limit else b"".join(chunks)


def _without_bom(data: bytes) -> bytes:
    return data[len(_BOM) :] if data.startswith(_BOM) else data


RawLine = tuple[int, bytes]
"""A JSONL line not parsed yet, with its line number (for parsing in a worker)."""


def _jsonl_documents(
    stream: IO[bytes],
    source: str,
    limit: int,
    reading: _Reading,
    *,
    raw: bool = False,
    skippable: bool,
    first_line: int = 1,
    whole_input: bool = True,
) -> Iterator[Document | RawLine]:
    """Each line of a JSONL stream, the first being line ``first_line`` of its file.

    A line longer than ``limit`` (not counting its ``\\n`` or ``\\r\\n``) is refused; the
    lines after it are still read when the rest of the line can be skipped in finite time
    (``skippable``: a regular file), else reading stops there (a pipe or a device may never
    end the line). A stream that is only part of its input (not ``whole_input``) may hold
    no line at all: only the whole input is refused for that.
    """
    number = first_line - 1
    seen_any = False
    while True:
        line = stream.readline(limit + 2)
        if not line:
            break
        number += 1
        if _content_length(line) > limit:
            yield _too_large(source, number, limit, "line")
            seen_any = True
            if line.endswith(b"\n"):
                continue
            if not skippable:
                reading.stopped = True
                return
            while (rest := stream.readline(_CHUNK)) and not rest.endswith(b"\n"):
                pass
            continue
        if number == 1:
            line = _without_bom(line)
        if (not line or line[:1] in _WHITESPACE_BYTES) and not line.strip(JSON_WHITESPACE):
            continue  # a blank line (or a byte order mark alone); a line that opens a value is not copied to learn it
        seen_any = True
        yield (number, line) if raw else parse_json(line, source, number)
    if not seen_any and whole_input:
        yield no_line(source)


def jsonl_part_documents(stream: IO[bytes], source: str, limit: int, first_line: int) -> Iterator[Document]:
    """The lines of one part of a regular JSONL file, parsed, as reading the whole file gives them."""
    reading = _Reading()
    lines = _jsonl_documents(stream, source, limit, reading, skippable=True, first_line=first_line, whole_input=False)
    for item in lines:
        assert isinstance(item, Document)  # raw is off
        yield item


def no_line(source: str) -> Document:
    return Document(source, None, None, syntax_finding(NO_ARTIFACT, source, None, "the JSONL input holds no line"))


def _content_length(line: bytes) -> int:
    """A line's length without its line break (``\\n`` or ``\\r\\n``)."""
    if not line.endswith(b"\n"):
        return len(line)
    return len(line) - (2 if line.endswith(b"\r\n") else 1)


def _whole_document(
    stream: IO[bytes], file: SourceFile, limit: int, reading: _Reading, size_hint: int | None
) -> Document:
    data = _read_limited(stream, limit, size_hint)
    if data is None:
        reading.stopped = True
        return _too_large(file.source, None, limit, "document")
    if file.format == "yaml":
        return _yaml_or_empty(data, file.source)
    return _json_or_empty(_without_bom(data), file.source)


def _json_or_empty(data: bytes, source: str) -> Document:
    if not data.strip(JSON_WHITESPACE):
        return Document(source, None, None, syntax_finding(NO_ARTIFACT, source, None, "the input is empty"))
    return parse_json(data, source)


def _yaml_or_empty(data: bytes, source: str) -> Document:
    if not _without_bom(data).strip(JSON_WHITESPACE):
        return Document(source, None, None, syntax_finding(NO_ARTIFACT, source, None, "the input is empty"))
    return parse_yaml(data, source)


class _Prefixed(io.RawIOBase):
    """Bytes already read (while sniffing), then the rest of the stream."""

    def __init__(self, prefix: bytes, rest: IO[bytes]) -> None:
        self._prefix = io.BytesIO(prefix)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> bytes:
        line = self._prefix.readline(size)
        if line.endswith(b"\n"):
            return line
        if size is None or size < 0:
            return line + self._rest.readline()
        return line + self._rest.readline(size - len(line))  # nothing more when the prefix gave ``size`` bytes

    def read(self, size: int | None = -1) -> bytes:
        data = self._prefix.read(size)
        if size is None or size < 0:
            return data + self._rest.read()
        return data + self._rest.read(size - len(data))


def _is_complete_json(line: bytes) -> bool:
    """Whether a line holds a whole JSON value by itself (a repeated key or a depth beyond the limit
    still makes it one: the line is then an invalid document, not part of a larger one)."""
    try:
        strict_json.loads(line)
    except DocumentSyntaxError as error:
        return error.code in (REPEATED_KEY, TOO_DEEP)
    return True


class _SniffedTooMuchError(Exception):
    """More than a document's worth of bytes was read while looking for the first two lines."""


def _next_content_line(stream: IO[bytes], limit: int, read: list[bytes]) -> bytes | None:
    """The next line that is not blank (None at the end); every line read is appended to ``read``.

    What is read counts against ``limit`` (a line of ``limit`` bytes may end with ``\\r\\n``):
    endless blank lines on stdin must not grow ``read`` without bound.
    """
    budget = limit + 2 - sum(len(line) for line in read)
    while line := stream.readline(limit + 2):
        read.append(line)
        budget -= len(line)
        if line.strip(JSON_WHITESPACE):
            return line
        if budget < 0:
            raise _SniffedTooMuchError
    return None


def _sniffed_documents(
    stream: IO[bytes], source: str, limit: int, reading: _Reading, *, skippable: bool
) -> Iterator[Document | RawLine]:
    read: list[bytes] = []
    try:
        first = _next_content_line(stream, limit, read)
        if first is None:
            yield Document(source, None, None, syntax_finding(NO_ARTIFACT, source, None, "the input is empty"))
            return
        if _content_length(first) > limit:
            raise _SniffedTooMuchError
        complete = _is_complete_json(_without_bom(first) if len(read) == 1 else first)
        second = _next_content_line(stream, limit, read) if complete else None
    except _SniffedTooMuchError:
        reading.stopped = True
        yield _too_large(source, None, limit, "the start of the input")
        return
    if complete:
        if second is None:
            yield _json_or_empty(_without_bom(b"".join(read)), source)
            return
        rest = _Prefixed(b"".join(read), stream)
        yield from _jsonl_documents(rest, source, limit, reading, skippable=skippable)  # type: ignore[arg-type]
        return
    so_far = b"".join(read)
    more = _read_limited(stream, limit - len(so_far)) if len(so_far) <= limit else None
    if more is None:
        reading.stopped = True
        yield _too_large(source, None, limit, "document")
        return
    data = _without_bom(so_far + more)
    if data.lstrip(JSON_WHITESPACE)[:1] in _JSON_OPENERS:
        yield _json_or_empty(data, source)
    else:
        yield _yaml_or_empty(data, source)


def read_file_documents(
    file: SourceFile,
    limit: int = DEFAULT_MAX_DOCUMENT_BYTES,
    stdin: IO[bytes] | None = None,
    raw_jsonl: bool = False,
    *,
    digest: bool = True,
) -> tuple[Iterator[Document | RawLine], Callable[[], InputRecord]]:
    """The documents of one source, and a function that gives its record once they are consumed.

    With ``raw_jsonl`` a JSONL file's lines come unparsed, for parsing in a worker process.
    Without ``digest`` (a report that shows none), the record's ``sha256`` is None.
    """
    source = file.source
    if file.problem is not None:
        problem = file.problem
        return iter([Document(source, None, None, syntax_finding(UNREADABLE, source, None, problem))]), (
            lambda: InputRecord(source, None, complete=False, hashed_bytes=0)
        )
    reading = _Reading()
    record = {"value": InputRecord(source, None, complete=False, hashed_bytes=0)}

    def documents() -> Iterator[Document | RawLine]:
        try:
            raw = _open_raw(file, stdin)
        except OSError as error:
            yield Document(source, None, None, syntax_finding(UNREADABLE, source, None, os_reason(error)))
            return
        hashing = _HashingReader(raw, digest)
        buffered = io.BufferedReader(hashing, _CHUNK)
        try:
            stream: IO[bytes] = gzip.GzipFile(fileobj=buffered, mode="rb") if file.gzipped else buffered  # type: ignore[assignment]
            size = None if file.gzipped else (url_size(raw) if file.is_url else _regular_size(raw))
            skippable = file.is_url or size is not None or _is_regular(raw)  # a URL names a file of known size
            yield from _documents_of(stream, file, limit, reading, raw_jsonl=raw_jsonl, skippable=skippable, size=size)
            if not reading.stopped and hashing.digest is not None:
                hashing.drain()  # the digest covers every byte; without one, the rest need not be read
            record["value"] = hashing.record(source, complete=not reading.stopped)
        except (gzip.BadGzipFile, EOFError, zlib.error) as error:
            record["value"] = hashing.record(source, complete=False)
            reason = f"not a valid gzip stream: {os_reason(error)}"
            yield Document(source, None, None, syntax_finding(NOT_GZIP, source, None, reason))
        except OSError as error:
            yield Document(source, None, None, syntax_finding(UNREADABLE, source, None, os_reason(error)))
        except MemoryError:
            reason = (
                "the input does not fit in the memory available; lower --max-document-bytes or raise the memory limit"
            )
            yield Document(source, None, None, syntax_finding(TOO_LARGE, source, None, reason))
        finally:
            if raw is not stdin and file.path != STDIN:
                raw.close()

    return documents(), lambda: record["value"]


def _documents_of(
    stream: IO[bytes],
    file: SourceFile,
    limit: int,
    reading: _Reading,
    *,
    raw_jsonl: bool,
    skippable: bool,
    size: int | None,
) -> Iterator[Document | RawLine]:
    """A generator, not a list: a document yielded is held by nobody once the caller drops it."""
    if file.format == "sniff":
        yield from _sniffed_documents(stream, file.source, limit, reading, skippable=skippable)
    elif file.format == "jsonl":
        yield from _jsonl_documents(stream, file.source, limit, reading, raw=raw_jsonl, skippable=skippable)
    else:
        yield _whole_document(stream, file, limit, reading, size)


class _NotRegularFileError(OSError):
    """A file met while walking a directory turned out not to be a regular file when opened."""


def _open_raw(file: SourceFile, stdin: IO[bytes] | None) -> IO[bytes]:
    """The byte stream behind a source (a URL through fsspec); the caller closes it (never stdin).

    A walked file is opened without blocking and checked to be a regular file
    first: a FIFO swapped in after the walk looked must not block the run.
    """
    if stdin is not None:
        return stdin
    if file.path == STDIN:
        return sys.stdin.buffer
    if file.is_url:
        return open_url(file.path)
    if not file.walked:
        return open(file.path, "rb", buffering=0)
    descriptor = os.open(file.path, os.O_RDONLY | os.O_NONBLOCK)  # not inherited by children (PEP 446)
    what = not_regular(os.fstat(descriptor).st_mode)
    if what is not None:
        os.close(descriptor)
        raise _NotRegularFileError(f"{what}, not a regular file: skipped")
    os.set_blocking(descriptor, True)
    return os.fdopen(descriptor, "rb", buffering=0)


def _regular_size(raw: IO[bytes]) -> int | None:
    """The size of a regular file (None for anything else: a pipe, a device, bytes in memory)."""
    try:
        status = os.fstat(raw.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        return None
    return status.st_size if not_regular(status.st_mode) is None else None


def _is_regular(raw: IO[bytes]) -> bool:
    """True when the rest of the stream can be skipped in finite time (a regular file, or bytes in memory)."""
    try:
        return not_regular(os.fstat(raw.fileno()).st_mode) is None
    except (OSError, ValueError, io.UnsupportedOperation):
        return isinstance(raw, io.BytesIO)


def read_documents(
    paths: list[str],
    limit: int = DEFAULT_MAX_DOCUMENT_BYTES,
    on_input: Callable[[InputRecord], None] | None = None,
    stdin: IO[bytes] | None = None,
) -> Iterator[Document]:
    """Every document of every path, in order; ``on_input`` hears of each input once it is read."""
    for file in expand_paths(paths):
        documents, record = read_file_documents(file, limit, stdin if file.path == STDIN else None)
        for document in documents:
            assert isinstance(document, Document)  # raw_jsonl is off
            yield document
        if on_input is not None:
            on_input(record())
