"""Serialize a report or an artifact as JSON text that every reader and every terminal takes as it is.

orjson writes fast but refuses integers beyond 64 bits, which a log may hold
(JSON has no such limit and evalscore reads them exactly); such a value is
written by the standard library instead, with the same layout. The text
then carries no raw C1, bidirectional or separator character (see
``evalscore.printable.json_safe_text``).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from evalscore.printable import json_safe_text


def dumps_bytes(value: Any, *, indent: bool = False) -> bytes:
    """``value`` as UTF-8 JSON, compact (one line) or indented by two spaces, safe to print."""
    try:
        data = orjson.dumps(value, option=orjson.OPT_INDENT_2 if indent else 0)
    except orjson.JSONEncodeError as error:
        if "Integer exceeds 64-bit range" not in str(error):
            raise
        separators = (",", ": ") if indent else (",", ":")
        indentation = 2 if indent else None
        data = json.dumps(
            value, ensure_ascii=False, allow_nan=False, indent=indentation, separators=separators
        ).encode()
    if data.isascii() and b"\x7f" not in data:
        return data
    text = data.decode()
    safe = json_safe_text(text)
    return data if safe is text else safe.encode()


def dumps_text(value: Any, *, indent: bool = True) -> str:
    """``value`` as JSON text safe to print, ending with a newline."""
    return dumps_bytes(value, indent=indent).decode() + "\n"
