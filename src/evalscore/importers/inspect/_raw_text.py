"""What a ``.json`` log's raw bytes must be that its streaming parser (yajl) does not check.

yajl reads a ``\\uXXXX`` escape of a surrogate its own way: a high surrogate
escape joins whatever ``\\u`` escape follows it (``\\ud800\\u0041`` reads as
U+10041), and one followed by anything else reads as ``?``. Either way the
import would write text that is not in the log, while the ``.eval`` reader
(``strict_json``) refuses the same text. So before a streamed ``.json`` log is
parsed, its bytes are searched for surrogate escapes (``\\ud800``-``\\udfff``, hex
digits in either case), and each must be half of a pair: a high surrogate
followed at once by a low one.

The search is one regular expression whose literal prefix is ``\\u``, and it
matches only what may be wrong: a high escape not followed by a low one, a low
escape not preceded by a high one, and a pair right after a backslash. A pair
written the ordinary way (``json.dumps`` writes every character beyond U+FFFF as
one: ``\\ud83d\\ude00``) is not even a match, so an honest log, however many emoji
it holds, costs one scan at the speed of the regex engine. Each match is then
judged by the backslashes before it: after an odd number of them, the
backslash closes an escaped backslash and what follows is text (``\\\\ud800``).

Raw bytes that are not UTF-8 reach Python from yajl as a ``UnicodeDecodeError``
without a position in the file; ``invalid_utf8_reason`` finds it, on that path only.
"""

from __future__ import annotations

import codecs
import contextlib
import mmap
import re
from collections.abc import Iterator
from typing import IO, Final

_HEX: Final = rb"[0-9a-fA-F]"
_SUSPECT: Final = re.compile(
    rb"\\u[dD](?:"
    rb"(?P<high>[89abAB]" + _HEX + rb"{2})(?!\\u[dD][c-fC-F]" + _HEX + rb"{2})"  # a high not followed by a low
    rb"|(?<!\\u[dD][89abAB]" + _HEX + rb"{2}\\u[dD])(?P<low>[c-fC-F]" + _HEX + rb"{2})"  # a low without a high
    rb"|(?<=\\\\u[dD])(?P<pair>[89abAB]" + _HEX + rb"{2})"  # a high, followed by a low, after a backslash
    rb")"
)
_ESCAPE_LENGTH: Final = len(rb"\ud800")
_BACKSLASH: Final = ord("\\")
_CHUNK: Final = 1 << 20

Raw = bytes | mmap.mmap
"""A log's bytes: mapped, or read whole when the file cannot be mapped."""


def surrogate_escape_problem(data: Raw) -> str | None:
    """Why the JSON text ``data`` holds a surrogate escape that is not half of a pair, with where; None if none."""
    for match in _SUSPECT.finditer(data):
        start = match.start()
        text = preceding_backslashes(data, start) % 2 == 1  # the backslash closes an escaped backslash
        if match["high"] is not None and not text:
            return _lone(data, start, "high", "followed by a low one (\\udc00-\\udfff)")
        if match["low"] is not None and not text:
            return _lone(data, start, "low", "preceded by a high one (\\ud800-\\udbff)")
        if match["pair"] is not None and text:  # "\\ud800" is text: the escape after it has no high half
            return _lone(data, match.end(), "low", "preceded by a high one (\\ud800-\\udbff)")
    return None


def preceding_backslashes(data: Raw, end: int) -> int:
    """How many backslashes stand right before ``end``."""
    start = end
    while start > 0 and data[start - 1] == _BACKSLASH:
        start -= 1
    return end - start


def _lone(data: Raw, start: int, half: str, wanted: str) -> str:
    escape = data[start : start + _ESCAPE_LENGTH].decode("ascii")
    return (
        f"not valid JSON: the escape {escape} {where(data, start)} is a {half} surrogate not {wanted}: "
        "alone, it stands for no character"
    )


def where(data: Raw, offset: int) -> str:
    """``at byte offset N (line L)``, lines counted from 1."""
    lines = 1 + sum(data[at : min(at + _CHUNK, offset)].count(b"\n") for at in range(0, offset, _CHUNK))
    return f"at byte offset {offset} (line {lines})"


def invalid_utf8_reason(data: Raw) -> str:
    """Where ``data`` stops being UTF-8 (a surrogate encoded as bytes, an overlong form...), as one line."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    for at in range(0, len(data), _CHUNK):
        pending = len(decoder.getstate()[0])
        try:
            decoder.decode(data[at : at + _CHUNK], final=at + _CHUNK >= len(data))
        except UnicodeDecodeError as error:
            offset = at - pending + error.start
            return f"not valid JSON: invalid UTF-8 byte 0x{data[offset]:02x} {where(data, offset)}"
    return "not valid JSON: a string is not valid UTF-8"  # the file changed since it was parsed


@contextlib.contextmanager
def mapped(raw: IO[bytes]) -> Iterator[Raw]:
    """The whole file, memory-mapped (read whole when it cannot be mapped: empty, not a regular file)."""
    try:
        data = mmap.mmap(raw.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        raw.seek(0)
        yield raw.read()
        return
    try:
        yield data
    finally:
        data.close()
