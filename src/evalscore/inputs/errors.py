"""Input that cannot be loaded at all."""

from __future__ import annotations


class InputError(Exception):
    """A path or stream that cannot be read; the message is one clear line."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason
