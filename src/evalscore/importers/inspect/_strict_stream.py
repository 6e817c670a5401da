"""Read JSON from ``ijson.basic_parse`` events, refusing what ``evalscore.inputs.strict_json`` refuses.

``ijson.items`` and its ``ObjectBuilder`` keep the last value of a repeated
key, and ``ijson.parse`` builds a prefix string per event that grows with the
depth (quadratic in it). These functions read the plain events (no prefixes),
keep the keys of every open object and count the depth, and refuse a repeated
key, a value inside more than ``MAX_DEPTH`` arrays and objects, and a number
that is not finite.

Two speeds. ``check_value`` and ``build_value`` are the hot path: they track
no position and raise a bare ``Refused``. ``locate_refusal`` walks the same
rules while tracking every position, to name the JSON Pointer; a reader calls
it on a second walk only after a refusal, so a refused log costs about twice
what an accepted one does, not more. The hot loops compare event names with two
``==`` (ijson's names are interned, so each is a pointer comparison) rather than
a set lookup, which measured a third slower per event.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, Final

from evalscore.findings import pointer_of
from evalscore.inputs.strict_json import MAX_DEPTH

Event = tuple[str, Any]
Path = tuple[str | int, ...]

_END: Final = ("", None)
"""What ``next_event`` returns when the events run out."""
_isfinite: Final = math.isfinite


class Refused(Exception):  # noqa: N818 - a verdict without a message; the reader locates it
    """The value breaks a strict-JSON rule; ``locate_refusal`` says which and where."""


class StreamSyntaxError(ValueError):
    """A value the strict reader refuses; the message names where (its JSON Pointer) and why, in one line."""


def next_event(events: Iterator[Event]) -> Event:
    """The next event, or ``_END`` (an empty event name) when there is none."""
    return next(events, _END)


def check_value(events: Iterator[Event], first: Event, depth: int) -> None:
    """Read the value that starts with ``first`` (inside ``depth`` arrays and objects) without building it."""
    event, value = first
    if event != "start_map" and event != "start_array":  # noqa: PLR1714 - speed, see above
        if not event or depth > MAX_DEPTH or (value.__class__ is float and not _isfinite(value)):
            raise Refused
        return
    limit = MAX_DEPTH - depth
    if limit < 0:
        raise Refused
    keys: set[str] | None = set() if event == "start_map" else None  # of the innermost open object
    enclosing: list[set[str] | None] = []
    full = limit == 0  # the innermost container may hold no value: it sits at the limit
    for event, value in events:
        if event == "map_key":
            if value in keys:  # type: ignore[operator]  # ijson sends map_key only inside an object
                raise Refused
            keys.add(value)  # type: ignore[union-attr]
        elif event == "end_map" or event == "end_array":  # noqa: PLR1714 - speed, see above
            if not enclosing:
                return
            keys = enclosing.pop()
            full = False
        elif full:
            raise Refused
        elif event == "start_map" or event == "start_array":  # noqa: PLR1714 - speed, see above
            enclosing.append(keys)
            keys = set() if event == "start_map" else None
            full = len(enclosing) == limit
        elif value.__class__ is float and not _isfinite(value):
            raise Refused
    raise Refused  # the events ended inside the value


def build_value(events: Iterator[Event], first: Event, depth: int) -> Any:
    """The value that starts with ``first`` (inside ``depth`` arrays and objects), built."""
    event, value = first
    if event != "start_map" and event != "start_array":  # noqa: PLR1714 - speed, see above
        if not event or depth > MAX_DEPTH or (value.__class__ is float and not _isfinite(value)):
            raise Refused
        return value
    limit = MAX_DEPTH - depth
    if limit < 0:
        raise Refused
    root: Any = {} if event == "start_map" else []
    current, in_list, key = root, event == "start_array", ""  # the innermost open container
    enclosing: list[tuple[Any, bool, str]] = []
    full = limit == 0  # the innermost container may hold no value: it sits at the limit
    for event, value in events:
        if event == "map_key":
            if value in current:
                raise Refused
            key = value
        elif event == "end_map" or event == "end_array":  # noqa: PLR1714 - speed, see above
            if not enclosing:
                return root
            current, in_list, key = enclosing.pop()
            full = False
        elif full:
            raise Refused
        elif event == "start_map" or event == "start_array":  # noqa: PLR1714 - speed, see above
            child: Any = {} if event == "start_map" else []
            if in_list:
                current.append(child)
            else:
                current[key] = child
            enclosing.append((current, in_list, key))
            current, in_list, key = child, event == "start_array", ""
            full = len(enclosing) == limit
        elif value.__class__ is float and not _isfinite(value):
            raise Refused
        elif in_list:
            current.append(value)
        else:
            current[key] = value
    raise Refused  # the events ended inside the value


class _Open:
    """An array or object being walked by ``locate_refusal``: its keys so far (None for an array), its position."""

    __slots__ = ("keys", "token")

    def __init__(self, keys: set[str] | None) -> None:
        self.keys = keys
        self.token: str | int = -1


def locate_refusal(events: Iterator[Event], first: Event, at: Path) -> None:
    """Walk the value that starts with ``first`` (found at ``at``) and raise ``StreamSyntaxError`` naming
    the first rule it breaks and where; return when it breaks none."""
    stack: list[_Open] = []
    event, value = first
    while True:
        if not event:
            raise StreamSyntaxError(f"the JSON text ends inside the value at {pointer_of(at)}")
        if event == "map_key":
            _add_key(stack, value, at)
        elif event in {"end_map", "end_array"}:
            stack.pop()
            if not stack:
                return
        else:
            _enter_value(event, value, stack, at)
            if not stack:
                return
        event, value = next_event(events)


def _enter_value(event: str, value: Any, stack: list[_Open], at: Path) -> None:
    if stack and stack[-1].keys is None:
        stack[-1].token = int(stack[-1].token) + 1
    if len(at) + len(stack) > MAX_DEPTH:
        raise StreamSyntaxError(
            f"the value at {_pointer(at, stack)} is nested deeper than {MAX_DEPTH} arrays and objects, "
            "evalscore's limit"
        )
    if event == "start_map":
        stack.append(_Open(set()))
    elif event == "start_array":
        stack.append(_Open(None))
    elif isinstance(value, float) and not math.isfinite(value):
        raise StreamSyntaxError(f"the number at {_pointer(at, stack)} is beyond the range of a double")


def _add_key(stack: list[_Open], key: str, at: Path) -> None:
    frame = stack[-1]
    assert frame.keys is not None  # ijson sends map_key only inside an object
    if key in frame.keys:
        raise StreamSyntaxError(repeated_key(_pointer(at, stack[:-1]), key))
    frame.keys.add(key)
    frame.token = key


def repeated_key(pointer: str, key: str) -> str:
    """The message for an object that repeats a key, worded as ``strict_json`` words it."""
    what = f"the object at {pointer}" if pointer else "the top-level object"
    return f"{what} repeats the key {key!r} (readers disagree on which of its values counts)"


def _pointer(at: Path, stack: list[_Open]) -> str:
    return pointer_of((*at, *(frame.token for frame in stack)))


def top_level_members(events: Iterator[Event]) -> Iterator[tuple[str, Event]]:
    """Each key of the top-level object with the first event of its value; refuses a repeated key.

    The caller must read each value from ``events`` before asking for the
    next key. The text after the object must be empty.
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
            raise StreamSyntaxError(repeated_key("", key))
        seen.add(key)
        yield key, next_event(events)
    if next_event(events)[0]:
        raise StreamSyntaxError("text after the top-level object")


def array_starts(events: Iterator[Event], first: Event, at: Path) -> Iterator[Event]:
    """The first event of each item of the array that starts with ``first`` (found at ``at``).

    The caller must read each item from ``events`` before asking for the next.
    """
    if first[0] != "start_array":
        raise StreamSyntaxError(f"{pointer_of(at)} is not an array")
    while True:
        event = next_event(events)
        if event[0] == "end_array":
            return
        if not event[0]:
            raise StreamSyntaxError(f"the JSON text ends inside {pointer_of(at)}")
        yield event
