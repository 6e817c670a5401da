"""Checks over parsed JSON that the parsers do not make: numbers not finite, and what a Run line cannot carry.

jiter reads ``1e400`` as ``inf``; written back out it would become ``null``,
a number silently turned into "not observed". A mapped Run nested deeper than
``MAX_DEPTH`` would be refused by evalscore's own readers, and an integer beyond
64 bits cannot be written exactly by orjson. Each check walks the value
iteratively (no recursion, whatever the depth) and names the JSON Pointer of
the first offending value.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any, Final

from evalscore.findings import pointer_of

Path = tuple[str | int, ...]

_MAY_OVERFLOW: Final = re.compile(rb"[eE][-+]?[0-9]{3}|[0-9]{210}")
"""Where a JSON number beyond a double could be: an exponent of three digits or more, or a run of 210
digits (with an exponent of at most 99, 209 digits stay below 1e308 and the largest double is about
1.8e308). Strings may match too: this only decides whether to walk the value."""
INT64_MIN: Final = -(2**63)
UINT64_MAX: Final = 2**64 - 1
"""The integers orjson writes: signed and unsigned 64-bit."""


def may_hold_non_finite(data: bytes) -> bool:
    """False when no number in the JSON text ``data`` can be beyond the range of a double."""
    return _MAY_OVERFLOW.search(data) is not None


def first_non_finite(value: Any) -> str | None:
    """The JSON Pointer of the first float in ``value`` that is infinite or NaN; None when there is none."""
    for path, item, _ in walk(value):
        if isinstance(item, float) and not math.isfinite(item):
            return pointer_of(path)
    return None


def first_unwritable(value: Any, max_depth: int) -> str | None:
    """Why ``value`` cannot be written as a JSON line evalscore reads back, naming where; None when it can."""
    for path, item, depth in walk(value):
        if depth > max_depth:
            return f"the value at {pointer_of(path)} is nested deeper than {max_depth} arrays and objects"
        if isinstance(item, int) and not INT64_MIN <= item <= UINT64_MAX:  # a bool is 0 or 1
            return f"the integer at {pointer_of(path)} needs more than 64 bits, which the JSONL writer cannot hold"
    return None


def walk(value: Any) -> Iterator[tuple[Path, Any, int]]:
    """Every value inside ``value`` (itself first), with its path and how many arrays and objects hold it."""
    stack: list[tuple[Path, Any]] = [((), value)]
    while stack:
        path, item = stack.pop()
        yield path, item, len(path)
        if isinstance(item, dict):
            stack.extend(((*path, key), child) for key, child in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend(((*path, index), child) for index, child in reversed(list(enumerate(item))))
