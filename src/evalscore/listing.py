"""How much of what it found a report keeps to list: a number of items and the text they hold.

A report lists the first items in input order and counts the rest. A bound on the number alone
does not bound memory: an id, a key or a quoted value is as long as the log makes it, and ten
thousand items of a megabyte each are ten gigabytes. So the listing also stops once the items
would hold more than ``LISTED_TEXT`` characters of text, and it stops for good at the first item
that does not fit: what is listed is always a prefix of what was found, whichever way the input
was split among processes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

LISTED_TEXT: Final = 16 * 2**20
"""Characters of text (messages, pointers, ids, sources, quoted values) that the items a report
lists of one kind may hold together."""
MESSAGE_KEPT: Final = 4_096
"""Characters kept of a finding's message or a refusal's reason: one that quotes a whole value from
the log (an id, a key, a timestamp) is cut in the middle past this, saying how long it was."""


def kept_message(text: str) -> str:
    """``text``, or its start and end with its whole length between them, in at most
    ``MESSAGE_KEPT`` characters (so cutting again changes nothing)."""
    if len(text) <= MESSAGE_KEPT:
        return text
    marker = f" ...({len(text):,} characters, cut here)... "
    keep = MESSAGE_KEPT - len(marker)
    head = keep - keep // 2
    return text[:head] + marker + text[len(text) - keep // 2 :]


def text_size(value: object) -> int:
    """Characters of text in a JSON-like value: a string its length, a container the sum over its
    keys and items, anything else 1."""
    size = 0
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            size += len(item)
        elif isinstance(item, Mapping):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)
        else:
            size += 1
    return size


class Listing:
    """The room left in one report's listing of one kind: items, and characters of text.

    ``take`` answers for each item in input order; the first ``False`` closes the listing (no room
    for any item is left), so a smaller item met later is counted too and the listed items stay a
    prefix.
    """

    __slots__ = ("_chars", "_items")

    def __init__(self, items: int, chars: int = LISTED_TEXT) -> None:
        self._items = items
        self._chars = chars

    def take(self, size: int) -> bool:
        """Whether the next item, holding ``size`` characters of text, is listed."""
        if self._items <= 0 or size > self._chars:
            self._items = 0
            return False
        self._items -= 1
        self._chars -= size
        return True

    def full(self) -> bool:
        """Whether no item would be listed now, whatever its text (what to build can be skipped)."""
        return self._items <= 0

    def close(self) -> None:
        """An item was counted, not listed, elsewhere (in a part merged in): list nothing after it."""
        self._items = 0
