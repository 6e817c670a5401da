"""Text from a log or a path, ready for a rich console: controls escaped, markup inert, long ids cut."""

from __future__ import annotations

from rich.markup import escape

from evalscore.printable import ID_LIMIT, MESSAGE_LIMIT, shortened


def shown(text: str, limit: int = ID_LIMIT) -> str:
    """``text`` as console markup that prints exactly the (escaped, shortened) text."""
    return escape(shortened(text, limit))


def shown_message(text: str) -> str:
    """A finding's or a reason's message: escaped, and cut only when very long."""
    return escape(shortened(text, MESSAGE_LIMIT))
