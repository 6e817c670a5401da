"""Build JSON values from ``ijson.basic_parse`` events, refusing what ``evalscore.inputs.strict_json`` refuses.

``ijson.items`` and its ``ObjectBuilder`` keep the last value of a repeated
key, and ``ijson.parse`` builds a prefix string per event that grows with the
depth (quadratic in it). This builder reads the plain events (no prefixes),
tracks the keys of every open object and the depth, and refuses a repeated
key (naming the object's JSON Pointer and the key), a value inside more than
``MAX_DEPTH`` arrays and objects, and a number that is not finite. With
``keep=False`` it checks a value without building it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, Final

from evalscore.findings import pointer_of
from evalscore.inputs.strict_json import MAX_DEPTH

Event = tuple[str, Any]
Path = tuple[str | int, ...]

_OPENERS: Final = frozenset({"start_map", "start_array"})
_CLOSERS: Final = frozenset({"end_map", "end_array"})
_END: Final = ("", None)
"""What ``next_event`` returns when the events run out."""


class StreamSyntaxError(ValueError):
    """A value the strict reader refuses; the message names where (its JSON Pointer) and why, in one line."""


class _Open:
    """An array or object being built: its value (None when only checked), its keys so far, the current token."""

    __slots__ = ("keys", "token", "value")

    def __init__(self, value: Any, keys: set[str] | None) -> None:
        self.value = value
        self.keys = keys
        self.token: str | int = 0


def next_event(events: Iterator[Event]) -> Event:
    """The next event, or ``_END`` (an empty event name) when there is none."""
    return next(events, _END)


def build(events: Iterator[Event], first: Event, at: Path, *, keep: bool = True) -> Any:
    """The value that starts with ``first`` (found at ``at``), read from ``events`` up to its end.

    Returns None when ``keep`` is false: the value is checked, not built.
    """
    stack: list[_Open] = []
    event, value = first
    while True:
        if not event:
            raise StreamSyntaxError("the JSON text ends inside a value")
        if event == "map_key":
            _add_key(stack, value, at)
        elif event in _CLOSERS:
            done = stack.pop()
            if not stack:
                return done.value
            _attach(stack[-1], done.value)
        else:
            item = _start(event, value, stack, at, keep)
            if isinstance(item, _Open):
                stack.append(item)
            elif not stack:
                return item
            else:
                _attach(stack[-1], item)
        event, value = next_event(events)


def _start(event: str, value: Any, stack: list[_Open], at: Path, keep: bool) -> Any:
    """A new value: an open container, or the scalar itself (checked)."""
    if len(at) + len(stack) > MAX_DEPTH:
        raise StreamSyntaxError(
            f"the value at {_pointer(at, stack)} is nested deeper than {MAX_DEPTH} arrays and objects, "
            "evalscore's limit"
        )
    if event == "start_map":
        return _Open({} if keep else None, set())
    if event == "start_array":
        return _Open([] if keep else None, None)
    if isinstance(value, float) and not math.isfinite(value):
        raise StreamSyntaxError(f"the number at {_pointer(at, stack)} is beyond the range of a double")
    return value if keep else None


def _add_key(stack: list[_Open], key: str, at: Path) -> None:
    frame = stack[-1]
    assert frame.keys is not None  # ijson sends map_key only inside an object
    if key in frame.keys:
        where = _pointer(at, stack[:-1])
        what = f"the object at {where}" if where else "the top-level object"
        raise StreamSyntaxError(f"{what} repeats the key {key!r} (readers disagree on which of its values counts)")
    frame.keys.add(key)
    frame.token = key


def _attach(frame: _Open, item: Any) -> None:
    if frame.keys is None:
        if frame.value is not None:
            frame.value.append(item)
        frame.token = int(frame.token) + 1
    elif frame.value is not None:
        frame.value[frame.token] = item


def _pointer(at: Path, stack: list[_Open]) -> str:
    return pointer_of((*at, *(frame.token for frame in stack)))


def top_level_members(events: Iterator[Event]) -> Iterator[tuple[str, Event]]:
    """Each key of the top-level object with the first event of its value; refuses a repeated key.

    The caller must consume each value from ``events`` (``build``) before
    asking for the next key. The text after the object must be empty.
    """
    if next_event(events)[0] != "start_map":
        raise StreamSyntaxError("expected a JSON object at the top level")
    seen: set[str] = set()
    while True:
        event, key = next_event(events)
        if event == "end_map":
            break
        if event != "map_key":
            raise StreamSyntaxError("the JSON text ends inside the top-level object")
        if key in seen:
            raise StreamSyntaxError(
                f"the top-level object repeats the key {key!r} (readers disagree on which of its values counts)"
            )
        seen.add(key)
        yield key, next_event(events)
    if next_event(events)[0]:
        raise StreamSyntaxError("text after the top-level object")


def array_items(events: Iterator[Event], first: Event, at: Path, *, keep: bool = True) -> Iterator[Any]:
    """Each item of the array that starts with ``first`` (found at ``at``), built (or only checked) one at a time."""
    if first[0] != "start_array":
        raise StreamSyntaxError(f"{pointer_of(at)} is not an array")
    index = 0
    while True:
        event = next_event(events)
        if event[0] == "end_array":
            return
        if not event[0]:
            raise StreamSyntaxError(f"the JSON text ends inside {pointer_of(at)}")
        yield build(events, event, (*at, index), keep=keep)
        index += 1
