"""Names as a reader sees them, so that two spellings a person cannot tell apart count as one.

NFKC (a full-width i is an i), then without the characters that show nothing:
format characters (category Cf: zero-width spaces and joiners, the soft hyphen,
the word joiner, the byte order mark, bidirectional marks) and the Hangul fillers,
which are letters to Unicode and blank on a screen; then trimmed and case-folded.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Final

INVISIBLE_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0")
"""Hangul fillers: letters to Unicode, blank to a reader."""
NON_STARTERS_IN_A_ROW: Final = 30
"""The longest run of combining characters that UAX #15's Stream-Safe Text Format leaves as it is."""
COMBINING_GRAPHEME_JOINER: Final = "\u034f"


def visible_key(text: str) -> str:
    """``text`` reduced to what a reader sees: ``"Alice\\u200b "`` and ``"alice"`` give one key."""
    if text.isascii():  # NFKC leaves ASCII as it is, and no ASCII character is Cf or a Hangul filler
        return text.strip().casefold()
    normalized = unicodedata.normalize("NFKC", stream_safe(text))
    shown = "".join(char for char in normalized if unicodedata.category(char) != "Cf" and char not in INVISIBLE_LETTERS)
    return shown.strip().casefold()


@lru_cache(maxsize=4096)
def non_starters(char: str) -> tuple[int, int, bool]:
    """``(leading, trailing, all)``: the combining characters at each end of ``char``'s NFKD
    decomposition, and whether it holds nothing else (U+0F73 is no combining character itself,
    but decomposes to two)."""
    decomposed = unicodedata.normalize("NFKD", char)
    classes = [unicodedata.combining(part) != 0 for part in decomposed]
    leading = next((index for index, combining in enumerate(classes) if not combining), len(classes))
    if leading == len(classes):
        return leading, leading, True
    trailing = next(index for index, combining in enumerate(reversed(classes)) if not combining)
    return leading, trailing, False


def stream_safe(text: str) -> str:
    """``text`` with a combining grapheme joiner (U+034F) wherever more than ``NON_STARTERS_IN_A_ROW``
    combining characters would follow one another once decomposed, as UAX #15's Stream-Safe Text
    Format does. NFKC puts such a run in order one insertion at a time, in time that grows with the
    square of its length: an overseer id of one letter and 160,000 marks (320 kB) took 28 s to
    ``score``. No text a person reads has more than a few in a row, so this changes no key that a
    reader could tell apart from another."""
    pieces: list[str] = []
    run = 0
    for char in text:
        leading, trailing, only = non_starters(char)
        if run + leading > NON_STARTERS_IN_A_ROW:
            pieces.append(COMBINING_GRAPHEME_JOINER)
            run = 0
        run = run + leading if only else trailing
        pieces.append(char)
    return "".join(pieces)
