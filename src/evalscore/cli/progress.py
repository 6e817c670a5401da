"""How far a long command has got: a progress line on stderr, only when stderr is a terminal.

Nothing is shown until ``every`` items are counted, so a short command prints nothing, and the
line is removed when the command is done, so the report (on stdout) and the messages (on stderr)
read as without it; a message written to stderr meanwhile is printed above the line. The line is
redrawn at most ten times a second, and only when an item is counted: no thread runs beside the
command (the JSONL readers fork worker processes, and forking a process with threads is unsafe).
"""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Final

from evalscore.cli import common

if TYPE_CHECKING:
    from evalscore.cli.progress_line import ProgressLine

REDRAW_SECONDS: Final = 0.1
_DEFERRED: Final = frozenset({signal.SIGINT, signal.SIGTERM})


@contextmanager
def _uninterrupted() -> Iterator[None]:
    """Ctrl-C (or SIGTERM) waits until the line is drawn: raised inside rich, it could leave the cursor
    hidden or rich's state half-changed, so the line would not be removed. Held signals are delivered
    when the block ends, and the command is interrupted as usual."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _DEFERRED)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


class Progress:
    """Counts ``noun`` (``artifacts checked``, ``samples read``): ``tick`` per item, ``done`` at the end
    (or use it as a context manager, which calls ``done`` however the block ends).

    With ``total``, a bar and the count out of it; without, the count and the rate.
    """

    def __init__(self, noun: str, *, verb: str = "checked", every: int = 1000, total: int | None = None) -> None:
        self._enabled = common.stream_is_terminal(sys.stderr)
        self._label = f"{noun} {verb}"
        self._every = every
        self._total = total
        self._count = 0
        self._drawn_at = 0.0
        self._line: ProgressLine | None = None

    def tick(self, items: int = 1) -> None:
        self._count += items
        if not self._enabled or self._count < self._every:
            return
        if self._line is not None and time.monotonic() - self._drawn_at < REDRAW_SECONDS:
            return
        with _uninterrupted():
            if self._line is None:
                from evalscore.cli.progress_line import ProgressLine  # noqa: PLC0415 - rich.progress only when shown

                self._line = ProgressLine(sys.stderr, self._label, self._total, self._count)
            self._line.draw(self._count)
        self._drawn_at = time.monotonic()  # after drawing: the first draw imports rich, which takes a while

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exception: object) -> None:
        """The line is removed however the command ends: rich hides the cursor while it is shown,
        and an interrupted command must give it back."""
        self.done()

    def done(self) -> None:
        """The last count drawn, then the line removed; nothing when no line was shown."""
        if self._line is None:
            return
        with _uninterrupted():
            self._line.draw(self._count)
            self._line.remove()
            self._line = None
