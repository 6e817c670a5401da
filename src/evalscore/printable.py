"""Text from a log or a path, made safe to print: control characters shown, never obeyed.

A log is written by a party that may gain from a better score, and so is a file
name. Printed raw, an escape sequence in a ``target_tool`` can clear the screen,
forge a hyperlink or a ``VALID`` line, or leave an OSC sequence open that
swallows what follows. ``printable`` shows every such character as a visible
escape (``\\x1b``, ``\\n``, ``\\u202e``), so what reaches a terminal is exactly
the text and nothing the terminal would act on.
"""

from __future__ import annotations

import os
import re
from typing import Final

_UNSAFE: Final = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")
"""C0 and C1 controls, DEL, the line and paragraph separators, the bidirectional
controls (which reorder what a terminal shows) and the byte order mark."""
_SHORT_NAMES: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
DEFAULT_TEXT_LIMIT: Final = 200
"""Longest id or name shown whole in text output; longer ones are shortened in the middle."""


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    short = _SHORT_NAMES.get(char)
    if short is not None:
        return short
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control, bidirectional or separator character shown as an escape."""
    return _UNSAFE.sub(_escape, text) if _UNSAFE.search(text) else text


ID_LIMIT: Final = 120
"""An id, a name, a path or a pointer longer than this is shortened in the middle in text output."""
MESSAGE_LIMIT: Final = 600
"""A finding's or a reason's message is cut only beyond this many characters."""


def shortened(text: str, limit: int = DEFAULT_TEXT_LIMIT) -> str:
    """``text`` made printable and, when longer than ``limit`` characters, cut in the middle
    with the number of characters left out, so the start and end of an id stay readable."""
    safe = printable(text)
    if len(safe) <= limit:
        return safe
    keep = max(limit - 30, 2)
    head, tail = keep - keep // 2, keep // 2
    return f"{safe[:head]}...({len(safe) - head - tail:,} chars)...{safe[len(safe) - tail :]}"


def path_text(path: str) -> str:
    """A path as text that any serializer can write: bytes that are not UTF-8 (kept by the
    file system as surrogate escapes) are shown as ``\\xNN``; nothing else changes."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(path).decode("utf-8", errors="backslashreplace")
    return path


def printable_path(path: str) -> str:
    """A path fit for a terminal: ``path_text``, then every control character as an escape."""
    return printable(path_text(path))


_RAW_IN_JSON: Final = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")
"""What ``printable`` escapes that a JSON serializer leaves raw inside strings (it escapes C0 itself)."""


def json_safe_text(text: str) -> str:
    """Serialized JSON with the characters a serializer leaves raw written as ``\\uXXXX`` escapes.

    The JSON value is unchanged (a JSON string may spell any character as an
    escape) and those characters only occur inside strings, but a terminal
    showing the document obeys none of them. orjson already escapes the C0
    controls (and the structural newlines of indented output are left alone).
    """
    return _RAW_IN_JSON.sub(lambda match: f"\\u{ord(match.group()):04x}", text) if _RAW_IN_JSON.search(text) else text
