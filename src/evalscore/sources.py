"""Where a run came from: ``path``, or ``path:line`` for a line of a JSONL file."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

_LINE_OF_SOURCE: Final = re.compile(r"(.*):([0-9]+)")


def located(source: str, inputs: Sequence[str]) -> tuple[str, int | None]:
    """A run's source (``path`` or ``path:line`` for a JSONL line) as its path and line.

    Only a path the report lists as an input is split off, so a path that holds a colon is
    never cut in the wrong place."""
    if source in inputs:
        return source, None
    path, colon, line = source.rpartition(":")
    if colon and line.isdigit() and path in inputs:
        return path, int(line)
    return source, None


def source_order(source: str) -> tuple[str, int]:
    """``path`` or ``path:line`` as (path, line): line 10 after line 9, where the text would put it first;
    a whole file (line 0) before its lines, which start at 1."""
    match = _LINE_OF_SOURCE.fullmatch(source)
    return (source, 0) if match is None else (match.group(1), int(match.group(2)))
