"""Text streams that say whether they are a terminal, for the tests of what is shown only on one."""

from __future__ import annotations

import io


class Terminal(io.StringIO):
    """Text written to what says it is a terminal."""

    def isatty(self) -> bool:
        return True


class NotATerminal(io.StringIO):
    def isatty(self) -> bool:
        return False
