"""Input that cannot be loaded at all."""

from __future__ import annotations


class InputError(Exception):
    """A path or stream that cannot be read; the message is one clear line."""

    def __init__(self, source: str, reason: str) -> None:
        super().__init__(f"{source}: {reason}")
        self.source = source
        self.reason = reason


def os_reason(error: BaseException) -> str:
    """Why reading failed, in the words of a finding: the OS's reason, else the error's own."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    text = str(error) or type(error).__name__
    return text[:1].lower() + text[1:]
