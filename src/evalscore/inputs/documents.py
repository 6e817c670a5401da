"""Turn source files into parsed documents, one at a time.

A JSONL file is streamed line by line, so memory does not grow with its
length; a JSON or YAML file is one document. Every problem becomes a
syntax finding on the document it concerns, never an exception, so one bad
file never stops the others from being checked.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import sys
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any, Final

import orjson
import yaml

from evalscore.findings import Finding
from evalscore.inputs.paths import STDIN, SourceFile, expand_paths
from evalscore.inputs.yaml_loader import YamlTooLargeError, load_yaml

DEFAULT_MAX_DOCUMENT_BYTES: Final = 512 * 1024 * 1024
_CHUNK: Final = 1024 * 1024
_BOM: Final = b"\xef\xbb\xbf"

UNREADABLE = "ES001"
NOT_JSON = "ES002"
NOT_YAML = "ES003"
NOT_UTF8 = "ES004"
NOT_GZIP = "ES007"
TOO_LARGE = "ES006"
NO_ARTIFACT = "ES008"

SYNTAX_CODES: Final[dict[str, str]] = {
    UNREADABLE: "input-unreadable",
    NOT_JSON: "not-valid-json",
    NOT_YAML: "not-valid-yaml",
    NOT_UTF8: "not-utf-8",
    NOT_GZIP: "not-valid-gzip",
    TOO_LARGE: "document-too-large",
    NO_ARTIFACT: "no-artifact-in-input",
}


@dataclass(frozen=True, slots=True)
class Document:
    """One parsed document (or the syntax finding that prevented parsing)."""

    source: str
    line: int | None
    value: Any
    syntax: Finding | None = None


@dataclass(frozen=True, slots=True)
class InputRecord:
    """One input as a report names it: where it came from and its exact bytes' digest."""

    path: str
    sha256: str | None


def syntax_finding(code: str, source: str, line: int | None, message: str, pointer: str = "") -> Finding:
    return Finding(
        layer="syntax", code=code, severity="error", pointer=pointer, message=message, source=source, line=line
    )


class _HashingReader(io.RawIOBase):
    """A raw binary reader that hashes every byte read through it."""

    def __init__(self, raw: IO[bytes]) -> None:
        self._raw = raw
        self.digest = hashlib.sha256()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        data = self._raw.read(len(buffer))
        self.digest.update(data)
        buffer[: len(data)] = data
        return len(data)

    def drain(self) -> str:
        while self.read(_CHUNK):
            pass
        return self.digest.hexdigest()


def _utf8_error(data: bytes, source: str, line_offset: int | None) -> Finding | None:
    """Locate the first byte that is not UTF-8; orjson does not say where it is."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        start = error.start
        column = start - (data.rfind(b"\n", 0, start) + 1) + 1
        if line_offset is None:
            line = data.count(b"\n", 0, start) + 1
            where = f"line {line} column {column}"
        else:
            line, where = line_offset, f"column {column}"
        return syntax_finding(NOT_UTF8, source, line, f"invalid UTF-8 byte 0x{data[start]:02x} ({where})")
    return None


def _decode_error(error: orjson.JSONDecodeError, data: bytes, source: str, line_offset: int | None) -> Finding:
    message = str(error)
    if "UTF-8" in message:
        located = _utf8_error(data, source, line_offset)
        if located is not None:
            return located
    code = NOT_UTF8 if "UTF-8" in message else NOT_JSON
    line = error.lineno if line_offset is None else line_offset
    where = f"column {error.colno}" if line_offset is not None else f"line {error.lineno} column {error.colno}"
    reason = message.split(": line ", maxsplit=1)[0]
    return syntax_finding(code, source, line, f"{reason} ({where})")


def parse_json(data: bytes, source: str, line: int | None = None) -> Document:
    if data.startswith(_BOM):
        data = data[len(_BOM) :]
    try:
        return Document(source, line, orjson.loads(data))
    except orjson.JSONDecodeError as error:
        return Document(source, line, None, _decode_error(error, data, source, line))


def parse_yaml(data: bytes, source: str) -> Document:
    try:
        return Document(source, None, load_yaml(data))
    except YamlTooLargeError as error:
        return Document(source, None, None, syntax_finding(TOO_LARGE, source, None, str(error)))
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        line = mark.line + 1 if mark is not None else None
        column = f" column {mark.column + 1}" if mark is not None else ""
        reason = error.problem or str(error)
        code = NOT_UTF8 if isinstance(error, yaml.reader.ReaderError) else NOT_YAML
        return Document(source, line, None, syntax_finding(code, source, line, f"{reason} (line {line}{column})"))
    except yaml.YAMLError as error:
        return Document(source, None, None, syntax_finding(NOT_YAML, source, None, str(error).splitlines()[0]))


def _read_limited(stream: IO[bytes], limit: int) -> bytes | None:
    data = stream.read(limit + 1)
    return None if len(data) > limit else data


RawLine = tuple[int, bytes]
"""A JSONL line not parsed yet, with its line number (for parsing in a worker)."""


def _jsonl_documents(stream: IO[bytes], source: str, limit: int, raw: bool = False) -> Iterator[Document | RawLine]:
    number = 0
    seen_any = False
    while True:
        line = stream.readline(limit + 1)
        if not line:
            break
        number += 1
        if len(line) > limit and not line.endswith(b"\n"):
            while (rest := stream.readline(_CHUNK)) and not rest.endswith(b"\n"):
                pass
            yield Document(
                source,
                number,
                None,
                syntax_finding(
                    TOO_LARGE,
                    source,
                    number,
                    f"line is longer than {limit:,} bytes; raise --max-document-bytes to read it",
                ),
            )
            seen_any = True
            continue
        if not line.strip():
            continue
        seen_any = True
        yield (number, line) if raw else parse_json(line, source, number)
    if not seen_any:
        yield Document(source, None, None, syntax_finding(NO_ARTIFACT, source, None, "the JSONL input holds no line"))


def _whole_document(stream: IO[bytes], file: SourceFile, limit: int) -> Document:
    data = _read_limited(stream, limit)
    if data is None:
        return Document(
            file.path,
            None,
            None,
            syntax_finding(
                TOO_LARGE,
                file.path,
                None,
                f"document is larger than {limit:,} bytes; raise --max-document-bytes to read it",
            ),
        )
    if not data.strip():
        return Document(file.path, None, None, syntax_finding(NO_ARTIFACT, file.path, None, "the input is empty"))
    if file.format == "yaml":
        return parse_yaml(data, file.path)
    return parse_json(data, file.path)


def _stdin_documents(stream: IO[bytes], limit: int) -> Iterator[Document]:
    data = _read_limited(stream, limit)
    if data is None:
        yield Document(
            STDIN, None, None, syntax_finding(TOO_LARGE, STDIN, None, f"stdin holds more than {limit:,} bytes")
        )
        return
    whole = parse_json(data, STDIN)
    lines = [line for line in data.splitlines() if line.strip()]
    if whole.syntax is None or len(lines) <= 1:
        if whole.syntax is not None and not data.strip():
            yield Document(STDIN, None, None, syntax_finding(NO_ARTIFACT, STDIN, None, "stdin is empty"))
        else:
            yield whole
        return
    for document in _jsonl_documents(io.BytesIO(data), STDIN, limit):
        assert isinstance(document, Document)  # raw is off
        yield document


def read_file_documents(
    file: SourceFile, limit: int = DEFAULT_MAX_DOCUMENT_BYTES, stdin: IO[bytes] | None = None, raw_jsonl: bool = False
) -> tuple[Iterator[Document | RawLine], Callable[[], InputRecord]]:
    """The documents of one source, and a function that gives its record once they are consumed.

    With ``raw_jsonl`` a JSONL file's lines come unparsed, for parsing in a worker process.
    """
    if file.problem is not None:
        problem = file.problem
        return iter([Document(file.path, None, None, syntax_finding(UNREADABLE, file.path, None, problem))]), (
            lambda: InputRecord(file.path, None)
        )
    state: dict[str, str | None] = {"sha256": None}

    def documents() -> Iterator[Document | RawLine]:
        try:
            raw = _open_raw(file.path, stdin)
        except OSError as error:
            yield Document(file.path, None, None, syntax_finding(UNREADABLE, file.path, None, _os_reason(error)))
            return
        hashing = _HashingReader(raw)
        buffered = io.BufferedReader(hashing, _CHUNK)
        try:
            stream: IO[bytes] = gzip.GzipFile(fileobj=buffered, mode="rb") if file.gzipped else buffered  # type: ignore[assignment]
            if file.path == STDIN:
                yield from _stdin_documents(stream, limit)
            elif file.format == "jsonl":
                yield from _jsonl_documents(stream, file.path, limit, raw_jsonl)
            else:
                yield _whole_document(stream, file, limit)
            state["sha256"] = hashing.drain()
        except (gzip.BadGzipFile, EOFError, zlib.error) as error:
            reason = f"not a valid gzip stream: {_os_reason(error)}"
            yield Document(file.path, None, None, syntax_finding(NOT_GZIP, file.path, None, reason))
        except OSError as error:
            yield Document(file.path, None, None, syntax_finding(UNREADABLE, file.path, None, _os_reason(error)))
        finally:
            if raw is not stdin and file.path != STDIN:
                raw.close()

    return documents(), lambda: InputRecord(file.path, state["sha256"])


def _open_raw(path: str, stdin: IO[bytes] | None) -> IO[bytes]:
    """The byte stream behind a source; the caller closes it (never stdin)."""
    if stdin is not None:
        return stdin
    if path == STDIN:
        return sys.stdin.buffer
    return open(path, "rb")


def _os_reason(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    text = str(error) or type(error).__name__
    return text[:1].lower() + text[1:]


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
