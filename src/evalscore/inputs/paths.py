"""Expand command-line paths into the files to read, in a stable order."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final, Literal

Format = Literal["json", "jsonl", "yaml"]

STDIN: Final = "-"
_FORMATS: Final[dict[str, Format]] = {".json": "json", ".jsonl": "jsonl", ".yaml": "yaml", ".yml": "yaml"}


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One file (or stdin) to read, with how to read it."""

    path: str
    format: Format
    gzipped: bool
    problem: str | None = None  # why it cannot be read, when known before opening


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


def expand_paths(paths: list[str]) -> Iterator[SourceFile]:
    """Files named directly are read whatever their suffix (JSON by default);
    directories are walked recursively for the suffixes evalscore reads."""
    for path in paths:
        if path == STDIN:
            yield SourceFile(STDIN, "json", gzipped=False)
        elif os.path.isdir(path):
            yield from _walk(path)
        elif os.path.exists(path):
            fmt, gzipped = classify(path) or ("json", path.lower().endswith(".gz"))
            yield SourceFile(path, fmt, gzipped)
        else:
            yield SourceFile(path, "json", gzipped=False, problem="no such file or directory")


def _walk(directory: str) -> Iterator[SourceFile]:
    errors: list[OSError] = []
    for root, dirs, files in os.walk(directory, onerror=errors.append):
        dirs.sort()
        for name in sorted(files):
            announced = classify(name)
            if announced is not None:
                yield SourceFile(os.path.join(root, name), announced[0], announced[1])
    for error in errors:
        yield SourceFile(error.filename or directory, "json", gzipped=False, problem=_reason(error))


def _reason(error: OSError) -> str:
    return error.strerror.lower() if error.strerror else str(error)
