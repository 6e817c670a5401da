"""What a mapped Run line cannot carry, found without recursion and named by its JSON Pointer.

A mapped Run nested deeper than ``MAX_DEPTH`` would be refused by evalscore's
own readers; an integer beyond 64 bits cannot be written exactly by orjson (it
raises); and a number that is not finite (jiter reads ``1e400`` as ``inf``)
would be written as ``null``, a number silently turned into "not observed".
``first_unwritable`` checks the whole document on a fast path that tracks no
position, and walks it again with positions only to name what it found.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, Final

from evalscore.findings import pointer_of

Path = tuple[str | int, ...]

INT64_MIN: Final = -(2**63)
UINT64_MAX: Final = 2**64 - 1
"""The integers orjson writes: signed and unsigned 64-bit."""


def first_unwritable(value: Any, max_depth: int) -> str | None:
    """Why ``value`` cannot be written as a JSON line evalscore reads back, naming where; None when it can."""
    if writable(value, max_depth):
        return None
    for path, item, depth in walk(value):
        reason = unwritable_reason(item, depth, max_depth)
        if reason is not None:
            return f"{reason[0]} at {pointer_of(path)} {reason[1]}"
    return None  # pragma: no cover - writable() and unwritable_reason() apply the same rules


def writable(value: Any, max_depth: int) -> bool:
    """True when no value inside ``value`` breaks a rule of ``unwritable_reason`` (the fast path: no positions)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if unwritable_reason(item, depth, max_depth) is not None:
            return False
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return True


def unwritable_reason(item: Any, depth: int, max_depth: int) -> tuple[str, str] | None:
    """What is wrong with one value inside ``depth`` arrays and objects, as (what, why); None when nothing is."""
    if depth > max_depth:
        return "the value", f"is nested deeper than {max_depth} arrays and objects"
    if isinstance(item, float) and not math.isfinite(item):
        return "the number", "is not finite (beyond the range of a double), which the JSONL writer would make null"
    if isinstance(item, int) and not INT64_MIN <= item <= UINT64_MAX:  # a bool is 0 or 1
        return "the integer", "needs more than 64 bits, which the JSONL writer cannot hold"
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
