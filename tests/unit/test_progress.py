"""The progress line: on a terminal only, past a count, redrawn at most ten times a second, then removed."""

from __future__ import annotations

import signal
import sys
import threading
from typing import ClassVar

import pytest
from _terminals import NotATerminal, Terminal

from evalscore.cli import progress as progress_module
from evalscore.cli.progress import Progress

ERASE_LINE = "\x1b[2K"
SHOW_CURSOR = "\x1b[?25h"


class RecordedLine:
    """Stands in for the rich line: records what it was asked to draw."""

    made: ClassVar[list[RecordedLine]] = []

    def __init__(self, stream: object, label: str, total: int | None, completed: int) -> None:
        self.label = label
        self.total = total
        self.draws: list[int] = []
        self.removed = False
        RecordedLine.made.append(self)

    def draw(self, completed: int) -> None:
        self.draws.append(completed)

    def remove(self) -> None:
        self.removed = True


def on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> Terminal:
    """stderr a terminal, for this test's call (pytest's capture resets ``sys.stderr`` after fixtures run)."""
    stderr = Terminal()
    monkeypatch.setattr(sys, "stderr", stderr)
    monkeypatch.delenv("NO_COLOR", raising=False)
    return stderr


def recording(monkeypatch: pytest.MonkeyPatch) -> list[RecordedLine]:
    """stderr a terminal, and the lines the progress would draw recorded instead."""
    from evalscore.cli import progress_line  # noqa: PLC0415 - replaced in the module it is taken from

    on_a_terminal(monkeypatch)
    RecordedLine.made = []
    monkeypatch.setattr(progress_line, "ProgressLine", RecordedLine)
    return RecordedLine.made


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_on_a_terminal_the_count_is_drawn_then_the_line_removed(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = on_a_terminal(monkeypatch)
    progress = Progress("runs", every=2)
    for _ in range(5):
        progress.tick()
    progress.done()
    written = terminal.getvalue()
    assert "5 runs checked" in written
    assert written.endswith(ERASE_LINE)
    assert SHOW_CURSOR in written


def test_nothing_is_shown_before_the_count_reaches_every(monkeypatch: pytest.MonkeyPatch) -> None:
    recorded = recording(monkeypatch)
    progress = Progress("artifacts")
    for _ in range(999):
        progress.tick()
    progress.done()
    assert recorded == []
    assert isinstance(sys.stderr, Terminal)
    assert sys.stderr.getvalue() == ""


def test_the_line_appears_at_every_and_shows_the_last_count_when_done(monkeypatch: pytest.MonkeyPatch) -> None:
    recorded = recording(monkeypatch)
    progress = Progress("artifacts")
    for _ in range(1000):
        progress.tick()
    assert len(recorded) == 1
    assert recorded[0].label == "artifacts checked"
    assert recorded[0].draws == [1000]
    progress.tick()
    progress.done()
    assert recorded[0].draws[-1] == 1001
    assert recorded[0].removed


def test_the_line_is_redrawn_at_most_ten_times_a_second(monkeypatch: pytest.MonkeyPatch) -> None:
    recorded = recording(monkeypatch)
    clock = Clock()
    monkeypatch.setattr(progress_module.time, "monotonic", clock)
    progress = Progress("runs", every=1)
    for _ in range(100):  # one item every 10 ms for one second
        progress.tick()
        clock.now += 0.01
    assert len(recorded) == 1
    assert len(recorded[0].draws) in (10, 11)  # the first, then one each 0.1 s (the clock's rounding decides the last)
    assert recorded[0].draws[0] == 1


def test_nothing_is_written_when_stderr_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    stderr = NotATerminal()
    monkeypatch.setattr(sys, "stderr", stderr)
    progress = Progress("runs", every=1)
    for _ in range(3):
        progress.tick()
    progress.done()
    assert stderr.getvalue() == ""


def test_a_message_written_meanwhile_is_printed_above_the_line(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = on_a_terminal(monkeypatch)
    progress = Progress("logs", verb="imported", every=1)
    progress.tick()
    sys.stderr.write("evalscore import inspect: a.eval: not an Inspect log\n")
    progress.tick()
    progress.done()
    written = terminal.getvalue()
    assert "evalscore import inspect: a.eval: not an Inspect log\n" in written
    assert written.index("not an Inspect log") < written.rindex("2 logs imported")
    assert sys.stderr is terminal  # given back when the line is removed


def test_with_a_total_the_count_is_shown_out_of_it(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = on_a_terminal(monkeypatch)
    progress = Progress("logs", verb="imported", every=1, total=4)
    progress.tick()
    progress.done()
    assert "1/4 logs imported" in terminal.getvalue()


def test_no_thread_runs_beside_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    on_a_terminal(monkeypatch)
    before = threading.active_count()
    progress = Progress("runs", every=1)
    progress.tick()
    assert threading.active_count() == before
    progress.done()


def test_no_colour_is_honoured(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = on_a_terminal(monkeypatch)
    monkeypatch.setenv("NO_COLOR", "1")
    progress = Progress("runs", every=1)
    progress.tick()
    progress.done()
    assert "\x1b[3" not in terminal.getvalue()  # no foreground colour; cursor and erase codes remain
    assert "1 runs checked" in terminal.getvalue()


def test_used_as_a_context_the_line_is_removed_and_the_cursor_shown_when_the_command_is_interrupted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    terminal = on_a_terminal(monkeypatch)

    def interrupted() -> None:
        with Progress("runs", every=1) as progress:
            progress.tick()
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted()
    written = terminal.getvalue()
    assert "1 runs checked" in written
    assert written.endswith(ERASE_LINE)
    assert written.rindex(SHOW_CURSOR) > written.rindex("1 runs checked")


def test_a_long_message_written_meanwhile_is_not_rewrapped(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = on_a_terminal(monkeypatch)
    monkeypatch.setenv("COLUMNS", "40")
    message = "evalscore import inspect: " + "a very long path with spaces " * 10 + "is unreadable"
    with Progress("logs", verb="imported", every=1) as progress:
        progress.tick()
        sys.stderr.write(message + "\n")
    assert message + "\n" in terminal.getvalue()


class MaskRecordingLine(RecordedLine):
    """Records whether Ctrl-C and SIGTERM are held back while each of its methods runs."""

    held: ClassVar[list[tuple[str, bool]]] = []

    def __init__(self, stream: object, label: str, total: int | None, completed: int) -> None:
        super().__init__(stream, label, total, completed)
        MaskRecordingLine.held.append(("start", _held()))

    def draw(self, completed: int) -> None:
        super().draw(completed)
        MaskRecordingLine.held.append(("draw", _held()))

    def remove(self) -> None:
        super().remove()
        MaskRecordingLine.held.append(("remove", _held()))


def _held() -> bool:
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    return {signal.SIGINT, signal.SIGTERM} <= blocked


def test_an_interrupt_waits_until_the_line_is_drawn_or_removed(monkeypatch: pytest.MonkeyPatch) -> None:
    from evalscore.cli import progress_line  # noqa: PLC0415 - replaced in the module it is taken from

    on_a_terminal(monkeypatch)
    MaskRecordingLine.held = []
    monkeypatch.setattr(progress_line, "ProgressLine", MaskRecordingLine)
    progress = Progress("runs", every=1)
    progress.tick()
    assert not _held()  # given back between draws: the command itself stays interruptible
    progress.done()
    assert MaskRecordingLine.held == [("start", True), ("draw", True), ("draw", True), ("remove", True)]
    assert not _held()
