"""Names as a reader sees them, so that two spellings a person cannot tell apart count as one.

NFKC (a full-width i is an i), then without the characters that show nothing:
format characters (category Cf: zero-width spaces and joiners, the soft hyphen,
the word joiner, the byte order mark, bidirectional marks) and the Hangul fillers,
which are letters to Unicode and blank on a screen; then trimmed and case-folded.
"""

from __future__ import annotations

import unicodedata
from typing import Final

INVISIBLE_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0")
"""Hangul fillers: letters to Unicode, blank to a reader."""


def visible_key(text: str) -> str:
    """``text`` reduced to what a reader sees: ``"Alice\\u200b "`` and ``"alice"`` give one key."""
    if text.isascii():  # NFKC leaves ASCII as it is, and no ASCII character is Cf or a Hangul filler
        return text.strip().casefold()
    normalized = unicodedata.normalize("NFKC", text)
    shown = "".join(char for char in normalized if unicodedata.category(char) != "Cf" and char not in INVISIBLE_LETTERS)
    return shown.strip().casefold()
