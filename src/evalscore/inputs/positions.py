"""Where in a document's text a JSON Pointer's value starts: the line and column a finding is shown at.

Asked only for documents that have findings, and only for those no larger than ``LOCATE_LIMIT``
(a document larger than that is named by its JSON Pointer alone): finding a position reads the text
again, in Python, up to the last value asked for. A pointer whose value the text does not hold (a
required property that is missing) is placed at the nearest enclosing value it does hold, which is
where the finding's object starts. Columns count characters, from 1; so do lines.
"""

from __future__ import annotations

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

_TOKEN: Final = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')


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
    """The position of each pointer's value in JSON ``data`` (or of its nearest enclosing value)."""
    wanted = {candidate for pointer in pointers for candidate in _ancestors(pointer)}
    starts: dict[str, int] = {}
    stack: list[_Container] = []
    for match in _TOKEN.finditer(data):
        token = match.group()
        if token in (b"}", b"]"):
            stack.pop()
            continue
        if token in (b",", b":"):
            if stack and token == b":":
                stack[-1].after_colon = True
            continue
        top = stack[-1] if stack else None
        if top is not None and top.is_object and not top.after_colon:  # a key
            top.key = escape_pointer_token(json.loads(token))
            continue
        pointer = "" if top is None else _child(top)
        if pointer in wanted and pointer not in starts:
            starts[pointer] = match.start()
            if len(starts) == len(wanted):
                break
        if token in (b"{", b"["):
            stack.append(_Container(pointer, token == b"{"))
    positions = {pointer: _line_column(data, offset) for pointer, offset in starts.items()}
    return _nearest(pointers, positions)


def _child(container: _Container) -> str:
    if container.is_object:
        container.after_colon = False
        return f"{container.pointer}/{container.key}"
    pointer = f"{container.pointer}/{container.index}"
    container.index += 1
    return pointer


def _line_column(data: bytes, offset: int) -> Position:
    line_start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, len(data[line_start:offset].decode("utf-8", errors="replace")) + 1


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
