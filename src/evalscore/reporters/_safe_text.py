"""Text from a log or a path, ready for a rich console: controls escaped, markup inert, long ids cut."""

from __future__ import annotations

from typing import Final

from rich.markup import escape

from evalscore.printable import shortened

ID_LIMIT: Final = 120
"""An id, a name, a path or a pointer longer than this is shortened in the middle in text output."""
MESSAGE_LIMIT: Final = 600


def shown(text: str, limit: int = ID_LIMIT) -> str:
    """``text`` as console markup that prints exactly the (escaped, shortened) text."""
    return escape(shortened(text, limit))


def shown_message(text: str) -> str:
    """A finding's or a reason's message: escaped, and cut only when very long."""
    return escape(shortened(text, MESSAGE_LIMIT))
