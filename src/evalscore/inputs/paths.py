"""Local paths (and stdin) expanded into the files to read, in a stable order; ``expansion`` adds URLs."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final, Literal

from evalscore.printable import path_text

Format = Literal["json", "jsonl", "yaml", "sniff"]
"""How to read a source; ``sniff`` (stdin, a file of unknown suffix) decides from the first line."""

STDIN: Final = "-"
_URL: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+(?:://|::)")
"""A protocol of two characters or more (``C://`` stays a path), or fsspec's chaining (``simplecache::s3://``)."""
_FORMATS: Final[dict[str, Format]] = {".json": "json", ".jsonl": "jsonl", ".yaml": "yaml", ".yml": "yaml"}
_FILE_TYPES: Final = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a directory"),
)


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One file (or stdin) to read, with how to read it.

    ``path`` opens it; ``source`` names it in findings and reports (the path, with
    bytes that are not UTF-8 shown as ``\\xNN`` so that every output can carry it).
    A file met while walking a directory must be a regular file (``walked``): a FIFO
    there would block the walk forever.
    """

    path: str
    format: Format
    gzipped: bool
    problem: str | None = None  # why it cannot be read, when known before opening
    walked: bool = False

    @property
    def source(self) -> str:
        return path_text(self.path)

    @property
    def is_url(self) -> bool:
        """Named by a URL that fsspec opens (``inputs.urls``), not a local path."""
        return is_url(self.path)


def is_url(path: str) -> bool:
    return _URL.match(path) is not None


def classify(path: str) -> tuple[Format, bool] | None:
    """The format and compression a file name announces, or None when it announces none."""
    name = path.lower()
    gzipped = name.endswith(".gz")
    if gzipped:
        name = name[: -len(".gz")]
    for suffix, fmt in _FORMATS.items():
        if name.endswith(suffix):
            return fmt, gzipped
    return None


def not_regular(mode: int) -> str | None:
    """What a file that is not a regular file is ("a FIFO"...), or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    for test, name in _FILE_TYPES:
        if test(mode):
            return name
    return "not a regular file"


FileKey = tuple[int, int]
"""A file's device and inode: the same file whatever the name it is reached by."""


def file_key(path: str) -> FileKey | None:
    """The key of the file at ``path``; None for stdin or a path that cannot be looked at."""
    if path == STDIN:
        return None
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_dev, status.st_ino


def expand_local_path(path: str, skip: frozenset[FileKey] = frozenset()) -> Iterator[SourceFile]:
    """The files one path that is not a URL names (``expansion.expand_paths``, which reads URLs too)."""
    if path == STDIN:
        yield SourceFile(STDIN, "sniff", gzipped=False)
        return
    try:
        status = os.stat(path)
    except OSError as error:
        yield SourceFile(path, "json", gzipped=False, problem=_reason(error))
        return
    mode = status.st_mode
    if stat.S_ISDIR(mode):
        yield from _walk(path, skip)
    elif (status.st_dev, status.st_ino) in skip:
        return
    else:
        fmt, gzipped = classify(path) or ("sniff", path.lower().endswith(".gz"))
        yield SourceFile(path, fmt, gzipped)


def _walk(directory: str, skip: frozenset[FileKey]) -> Iterator[SourceFile]:
    errors: list[OSError] = []
    for root, dirs, files in os.walk(directory, onerror=errors.append):
        dirs.sort()
        for name in sorted(files):
            announced = classify(name)
            if announced is not None:
                walked = _walked_file(os.path.join(root, name), *announced, skip)
                if walked is not None:
                    yield walked
    for error in errors:
        yield SourceFile(error.filename or directory, "json", gzipped=False, problem=_reason(error))


def _walked_file(path: str, fmt: Format, gzipped: bool, skip: frozenset[FileKey]) -> SourceFile | None:
    try:
        status = os.stat(path)
    except OSError as error:
        return SourceFile(path, fmt, gzipped, problem=_reason(error), walked=True)
    if (status.st_dev, status.st_ino) in skip:
        return None
    what = not_regular(status.st_mode)
    if what is not None:
        return SourceFile(path, fmt, gzipped, problem=f"{what}, not a regular file: skipped", walked=True)
    return SourceFile(path, fmt, gzipped, walked=True)


def _reason(error: OSError) -> str:
    return error.strerror.lower() if error.strerror else str(error)
