"""JSON read so that no two readers can disagree about what a document says.

RFC 8259 leaves the meaning of an object that repeats a key to the reader: most
keep the last value, some the first, some refuse. A log that says
``"resolution": "denied", "resolution": "approved"`` would then be approved to
one reader and denied to another, so a repeated key makes the document invalid.
Nesting is bounded (``MAX_DEPTH``) so that no reader recurses without end, and
``NaN``/``Infinity`` are not JSON.

The parser is jiter (the Rust JSON parser of the pydantic project) with its
duplicate-key check on: it costs about what ``orjson.loads`` costs (see
CONTRIBUTING.md, "Parsing"). jiter says where a repeated key's value starts;
the object's JSON Pointer and the key are recovered from the bytes, and only
for a document that has one.
"""

from __future__ import annotations

import re
import secrets
from typing import Any, Final

import jiter

from evalscore.finding_codes import NOT_JSON, NOT_UTF8, REPEATED_KEY, TOO_DEEP
from evalscore.findings import pointer_of
from evalscore.inputs.syntax_error import DocumentSyntaxError

MAX_DEPTH: Final = 200
"""No value may sit inside more than this many arrays and objects: a JSON Pointer has at most
200 tokens. It is jiter's own recursion limit; ``tests/unit/test_strict_json.py`` pins it."""


_POSITION: Final = re.compile(r" at line (\d+) column (\d+)$")
_DUPLICATE: Final = "Detected duplicate key"
_RECURSION: Final = "recursion limit exceeded"
_WHITESPACE: Final = b" \t\r\n"
_LOCATOR_NONCE: Final = secrets.token_hex(8)
_LOCATOR_KEY: Final = "\x00evalscore-locator-" + _LOCATOR_NONCE
"""A key no log can predict, appended where a repeated key starts to find the object holding it."""
_LOCATOR_MEMBER: Final = b'"\\u0000evalscore-locator-' + _LOCATOR_NONCE.encode() + b'":0'
"""The same key as JSON: one member to append after the prefix."""


JsonSyntaxError = DocumentSyntaxError
"""The readers share one exception; this name says which reader raised it."""


def loads(data: bytes) -> Any:
    """One JSON document; raises ``JsonSyntaxError`` (repeated key, too deep, not UTF-8, not JSON)."""
    try:
        return jiter.from_json(data, catch_duplicate_keys=True, allow_inf_nan=False, cache_mode="keys")
    except ValueError as error:
        raise _syntax_error(str(error), data) from None


def _syntax_error(message: str, data: bytes) -> JsonSyntaxError:
    utf8 = utf8_error(data)
    if utf8 is not None:
        return utf8
    found = _POSITION.search(message)
    line, column = (int(found.group(1)), int(found.group(2))) if found else (None, None)
    reason = message[: found.start()] if found else message
    if reason.startswith(_DUPLICATE) and line is not None and column is not None:
        located = _locate_repeated_key(data, _offset(data, line, column))
        if located is not None:
            return located
        return JsonSyntaxError(REPEATED_KEY, f"{reason[len('Detected ') :]}: an object repeats it", line, column)
    if reason.startswith(_RECURSION):
        return JsonSyntaxError(
            TOO_DEEP, f"nested deeper than {MAX_DEPTH} arrays and objects, evalscore's limit", line, column
        )
    return JsonSyntaxError(NOT_JSON, reason, line, max(column or 1, 1) if line is not None else None)


def utf8_error(data: bytes) -> JsonSyntaxError | None:
    """The first byte that is not UTF-8, located; None when ``data`` is UTF-8."""
    try:
        data.decode()
    except UnicodeDecodeError as error:
        return located_utf8_error(data, error)
    return None


def located_utf8_error(data: bytes, error: UnicodeDecodeError) -> JsonSyntaxError:
    """``ES004`` at the byte where decoding ``data`` as UTF-8 failed with ``error``."""
    start = error.start
    return JsonSyntaxError(NOT_UTF8, f"invalid UTF-8 byte 0x{data[start]:02x}", *_line_column(data, start))


def _line_column(data: bytes, index: int) -> tuple[int, int]:
    """The 1-based line and byte column of ``data[index]``."""
    return data.count(b"\n", 0, index) + 1, index - data.rfind(b"\n", 0, index)


def _offset(data: bytes, line: int, column: int) -> int:
    """jiter's line and column as an index: columns count bytes, and column 0 is the newline before the line."""
    start = 0
    for _ in range(line - 1):
        start = data.index(b"\n", start) + 1
    return start + column - 1


def _locate_repeated_key(data: bytes, value_start: int) -> JsonSyntaxError | None:
    """The repeated key and the pointer of its object, given where jiter stopped (just after the colon).

    The document is valid JSON up to there, so the key's quotes can be found
    going back; the prefix before the key is parsed with a locator key in its
    place, and the path to that key is the object's pointer.
    """
    colon = value_start - 1
    if not 0 <= colon < len(data) or data[colon] != ord(":"):
        return None
    before_colon = data[:colon].rstrip(_WHITESPACE)
    if not before_colon.endswith(b'"'):
        return None
    close = len(before_colon) - 1
    open_quote = _opening_quote(data, close)
    if open_quote is None:
        return None
    try:
        key = jiter.from_json(data[open_quote : close + 1])
        probe = data[:open_quote] + _LOCATOR_MEMBER
        partial = jiter.from_json(probe, partial_mode=True)
    except ValueError:
        return None
    path = _path_to_locator(partial)
    if path is None or not isinstance(key, str):
        return None
    line, column = _line_column(data, open_quote)
    pointer = pointer_of(tuple(path))
    where = f"the object at {pointer}" if pointer else "the top-level object"
    return JsonSyntaxError(
        REPEATED_KEY,
        f"{where} repeats the key {key!r} (readers disagree on which of its values counts)",
        line,
        column,
        pointer,
    )


def _opening_quote(data: bytes, close: int) -> int | None:
    """The quote that opens the string ending at ``close``: the first one going back that no
    odd run of backslashes escapes (inside a JSON string every quote is escaped)."""
    end = close
    while True:
        position = data.rfind(b'"', 0, end)
        if position < 0:
            return None
        slashes = 0
        while position - slashes - 1 >= 0 and data[position - slashes - 1] == ord("\\"):
            slashes += 1
        if slashes % 2 == 0:
            return position
        end = position


def _path_to_locator(value: Any) -> list[str | int] | None:
    """Reference tokens down the last-added members to the object whose last key is the locator."""
    path: list[str | int] = []
    node = value
    while True:
        if isinstance(node, dict) and node:
            last = next(reversed(node))
            if last == _LOCATOR_KEY:
                return path
            path.append(last)
            node = node[last]
        elif isinstance(node, list) and node:
            path.append(len(node) - 1)
            node = node[-1]
        else:
            return None
