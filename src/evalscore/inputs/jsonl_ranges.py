"""A long, regular JSONL file cut into ranges of whole lines, each read where it is checked.

The process that cuts reads the file once, to find line breaks (and to hash it when the
report shows the digest); the bytes themselves are read again by whoever checks a range, so
they never travel between processes. Each range carries the identity of the file as it was when cut
(inode, size, modification and status-change times): a reader that finds
another identity says the file changed while it was read, instead of judging bytes
that are not the ones cut (and hashed, when the report shows the digest).
"""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any, Final

from evalscore.finding_codes import UNREADABLE
from evalscore.inputs.documents import Document, InputRecord, jsonl_part_documents, syntax_finding
from evalscore.inputs.errors import os_reason
from evalscore.inputs.paths import SourceFile, not_regular

_READ_BYTES: Final = 1024 * 1024
_BREAKS_FOUND_ONE_BY_ONE: Final = 512
"""Line breaks looked for one at a time in a chunk, before the rest is counted in one pass.
``find`` is memchr, which skips through a partner log's kilobyte-long lines (a MiB of 20 kB
lines: 0.03 ms, against 0.5 ms for ``count``, which looks at every byte); short lines make it
cost more per byte than ``count``, so past this many the chunk's rest is counted. Either way
the cost is linear in the chunk, and at most about 1.25 times ``count`` alone."""


@dataclass(frozen=True, slots=True)
class FileIdentity:
    """What says a file is still the one cut. Not its device: a file on a shared file system has one
    device number per machine that mounts it (a Dask worker's is not the client's), while its inode
    and times are the server's, the same on every machine."""

    inode: int
    size: int
    modified_ns: int
    changed_ns: int


@dataclass(frozen=True, slots=True)
class LineRange:
    """Bytes ``start`` up to ``end`` of a file: whole lines, the first being line ``first_line``."""

    path: str
    source: str
    start: int
    end: int
    first_line: int
    identity: FileIdentity


def identity_of(descriptor: int) -> FileIdentity | None:
    """The identity of an open regular file; None when it is not one."""
    status = os.fstat(descriptor)
    if not_regular(status.st_mode) is not None:
        return None
    return FileIdentity(status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def changed(source: str) -> Document:
    reason = (
        "the file changed while it was being read (its size, times or identity differ from when it was "
        "opened); its lines were not all judged on the same bytes: read it again once it is written"
    )
    return Document(source, None, None, syntax_finding(UNREADABLE, source, None, reason))


def _unreadable(source: str, error: OSError) -> Document:
    return Document(source, None, None, syntax_finding(UNREADABLE, source, None, os_reason(error)))


def _open_regular(path: str) -> tuple[int, FileIdentity | None]:
    """A descriptor on ``path``, opened without blocking (a FIFO swapped in must not hang us)."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        identity = identity_of(descriptor)
        os.set_blocking(descriptor, True)
    except OSError:
        os.close(descriptor)
        raise
    return descriptor, identity


Ranges = Iterator[LineRange | Document]


def line_breaks(chunk: bytes) -> int:
    """How many ``\\n`` bytes ``chunk`` holds."""
    breaks = 0
    position = chunk.find(b"\n")
    while position >= 0:
        breaks += 1
        if breaks == _BREAKS_FOUND_ONE_BY_ONE:
            return breaks + chunk.count(b"\n", position + 1)
        position = chunk.find(b"\n", position + 1)
    return breaks


def line_ranges(
    file: SourceFile, target_bytes: int, *, digest: bool = True
) -> tuple[Ranges, Callable[[], InputRecord]]:
    """Ranges of about ``target_bytes`` (more when a line is longer), in order, and the
    file's record once they are consumed. A problem reading it is a document with the finding.
    Without ``digest`` (a report that shows none), the record's ``sha256`` is None."""
    source = file.source
    record = {"value": InputRecord(source, None, complete=False, hashed_bytes=0)}

    def ranges() -> Ranges:
        try:
            descriptor, identity = _open_regular(file.path)
        except OSError as error:
            yield _unreadable(source, error)
            return
        with os.fdopen(descriptor, "rb", buffering=0) as raw:
            if identity is None:
                yield changed(source)
                return
            hashing = hashlib.sha256() if digest else None
            start = offset = lines_before = lines = 0
            try:
                while chunk := raw.read(min(_READ_BYTES, target_bytes)):
                    if hashing is not None:
                        hashing.update(chunk)
                    lines += line_breaks(chunk)
                    offset += len(chunk)
                    if offset - start >= target_bytes and (last := chunk.rfind(b"\n")) >= 0:
                        end = offset - len(chunk) + last + 1
                        yield LineRange(file.path, source, start, end, lines_before + 1, identity)
                        start, lines_before = end, lines
            except OSError as error:
                yield _unreadable(source, error)
                return
            if offset > start:
                yield LineRange(file.path, source, start, offset, lines_before + 1, identity)
            if identity_of(raw.fileno()) != identity or offset != identity.size:
                yield changed(source)
                return
            sha256 = None if hashing is None else hashing.hexdigest()
            record["value"] = InputRecord(source, sha256, complete=True, hashed_bytes=0 if hashing is None else offset)

    return ranges(), lambda: record["value"]


class _Bounded(io.RawIOBase):
    """At most ``size`` bytes of a raw stream, from where it stands."""

    def __init__(self, raw: IO[bytes], size: int) -> None:
        self._raw = raw
        self._left = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._left <= 0:
            return 0
        view = memoryview(buffer)[: self._left]
        count = self._raw.readinto(view) or 0  # type: ignore[attr-defined]  # a raw file
        self._left -= count
        return count


class FileChangedError(Exception):
    """The file is not the one that was cut into ranges: its verdicts would not be of the bytes cut."""


def range_documents(line_range: LineRange, limit: int) -> Iterator[Document]:
    """The documents of one range, read from the file, one at a time. A file that cannot be
    opened or read is one document with the finding; ``FileChangedError`` is raised, after the
    last document, when the file is not the one that was cut (the caller drops what it read)."""
    source = line_range.source
    try:
        descriptor, identity = _open_regular(line_range.path)
    except OSError as error:
        yield _unreadable(source, error)
        return
    with os.fdopen(descriptor, "rb", buffering=0) as raw:
        if identity != line_range.identity:
            raise FileChangedError
        try:
            raw.seek(line_range.start)
            stream = io.BufferedReader(_Bounded(raw, line_range.end - line_range.start), _READ_BYTES)
            yield from jsonl_part_documents(stream, source, limit, line_range.first_line)
        except OSError as error:
            yield _unreadable(source, error)
            return
        if identity_of(raw.fileno()) != identity:
            raise FileChangedError
