"""Where in a document's text a JSON Pointer's value starts: the line and column a finding is shown at.

Asked only for documents that have findings, and only for those no larger than ``LOCATE_LIMIT``
(a document larger than that is named by its JSON Pointer alone): finding a position reads the text
again, up to the last value asked for, entering only the containers on the way to one (YAML is read
event by event). A pointer whose value the text does not hold (a
required property that is missing) is placed at the nearest enclosing value it does hold, which is
where the finding's object starts. Columns count characters, from 1; so do lines.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from typing import Final

from evalscore.findings import escape_pointer_token

LOCATE_LIMIT: Final = 4 * 1024 * 1024
"""The largest document whose findings get a line and column (bytes)."""

Position = tuple[int, int]
"""``(line, column)``, both from 1."""


def _ancestors(pointer: str) -> Iterator[str]:
    """``pointer``, then each enclosing pointer out to the whole document (``""``)."""
    while True:
        yield pointer
        if not pointer:
            return
        pointer = pointer[: pointer.rindex("/")]


def _nearest(pointers: Collection[str], starts: dict[str, Position]) -> dict[str, Position]:
    located: dict[str, Position] = {}
    for pointer in pointers:
        for candidate in _ancestors(pointer):
            if candidate in starts:
                located[pointer] = starts[candidate]
                break
    return located


@dataclass(slots=True)
class _Container:
    pointer: str
    is_object: bool
    index: int = 0
    key: str | None = None
    after_colon: bool = False
    seen: set[str] = field(default_factory=set)


def json_positions(data: bytes, pointers: Collection[str]) -> dict[str, Position]:
    """The position of each pointer's value in JSON ``data`` (or of its nearest enclosing value).

    Only the containers on the way to a pointer are read member by member; every other value is
    stepped over by the json module's scanner, in C. Stepping through every token in Python cost
    twenty times what checking the document did, when its one error was at its end."""
    wanted = {candidate for pointer in pointers for candidate in _ancestors(pointer)}
    text = data.decode("utf-8", errors="replace")
    starts: dict[str, int] = {}
    with contextlib.suppress(_AllPlaced, ValueError, IndexError, StopIteration):  # what was placed is kept
        _descend(text, _skip_blank(text, 0), "", wanted, starts)
    positions = {pointer: _line_column(text, offset) for pointer, offset in starts.items()}
    return _nearest(pointers, positions)


_BLANK: Final = re.compile(r"[ \t\n\r]*")
_SCAN: Final = json.JSONDecoder(parse_int=str, parse_float=str).scan_once  # type: ignore[attr-defined]
"""The json module's scanner, in C: ``(value, end)``. Numbers stay text: an integer of more than 4,300
digits is valid JSON that ``int`` refuses to read."""


class _AllPlaced(Exception):  # noqa: N818 - a signal to stop reading, not an error
    """Every pointer asked for is placed: the rest of the text is not read."""


def _skip_blank(text: str, index: int) -> int:
    match = _BLANK.match(text, index)
    assert match is not None  # the pattern matches the empty string anywhere
    return match.end()


def _descend(text: str, index: int, pointer: str, wanted: set[str], starts: dict[str, int]) -> int:
    """Where the value starting at ``index`` ends; the starts of the wanted pointers in it are noted."""
    if pointer not in wanted:
        return int(_SCAN(text, index)[1])
    starts[pointer] = index
    if len(starts) == len(wanted):
        raise _AllPlaced
    opening = text[index]
    if opening not in "{[":
        return int(_SCAN(text, index)[1])
    closing = "}" if opening == "{" else "]"
    index = _skip_blank(text, index + 1)
    member = 0
    while text[index] != closing:
        if opening == "{":
            key, index = _SCAN(text, index)
            index = _skip_blank(text, _skip_blank(text, index) + 1)  # past the colon
            child = f"{pointer}/{escape_pointer_token(key)}"
        else:
            child = f"{pointer}/{member}"
            member += 1
        index = _skip_blank(text, _descend(text, index, child, wanted, starts))
        if text[index] == ",":
            index = _skip_blank(text, index + 1)
    return index + 1


def _child(container: _Container) -> str:
    if container.is_object:
        container.after_colon = False
        return f"{container.pointer}/{container.key}"
    pointer = f"{container.pointer}/{container.index}"
    container.index += 1
    return pointer


def _line_column(text: str, offset: int) -> Position:
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def yaml_positions(data: bytes, pointers: Collection[str]) -> dict[str, Position]:
    """The position of each pointer's value in YAML ``data`` (a document the loader has read)."""
    import yaml  # noqa: PLC0415 - PyYAML is loaded for YAML input only
    from yaml.events import (  # noqa: PLC0415
        AliasEvent,
        CollectionEndEvent,
        MappingStartEvent,
        NodeEvent,
        ScalarEvent,
        SequenceStartEvent,
    )

    wanted = {candidate for pointer in pointers for candidate in _ancestors(pointer)}
    starts: dict[str, Position] = {}
    stack: list[_Container] = []
    try:
        for event in yaml.parse(data.decode("utf-8-sig"), Loader=yaml.SafeLoader):
            if isinstance(event, CollectionEndEvent):
                stack.pop()
                continue
            if not isinstance(event, NodeEvent):
                continue
            top = stack[-1] if stack else None
            if top is not None and top.is_object and not top.after_colon:
                top.key = escape_pointer_token(event.value if isinstance(event, ScalarEvent) else "")
                top.after_colon = True
                continue
            pointer = "" if top is None else _child(top)
            mark = event.start_mark
            if pointer in wanted and pointer not in starts and mark is not None:
                starts[pointer] = (mark.line + 1, mark.column + 1)
            if isinstance(event, MappingStartEvent | SequenceStartEvent):
                stack.append(_Container(pointer, isinstance(event, MappingStartEvent)))
            elif isinstance(event, AliasEvent):
                continue  # what an alias names is not repeated in the text: its pointers are placed at the alias
    except yaml.YAMLError:
        pass  # the loader read it; PyYAML's own reading differs only on what it reads, not where it is
    return _nearest(pointers, starts)
