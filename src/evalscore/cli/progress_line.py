"""The progress line as rich draws it: the count, a bar when the total is known, the rate, the time.

Imported only when a line is shown (see ``cli.progress``): a command on a pipe never loads rich.progress.
"""

from __future__ import annotations

from typing import IO

from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TaskID, TextColumn, TimeElapsedColumn
from rich.text import Text


class _Rate(ProgressColumn):
    """Items a second as a plain number (rich's own column writes it in scientific notation, in "it/s")."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.0f}/s", style="progress.data.speed")


class ProgressLine:
    """One transient line on ``stream``, redrawn only when asked: no refresh thread is started."""

    def __init__(self, stream: IO[str], label: str, total: int | None, completed: int) -> None:
        count = "{task.completed:,}" + ("/{task.total:,}" if total is not None else "")
        columns: list[ProgressColumn] = [TextColumn(count), TextColumn(label, markup=False)]
        if total is not None:
            columns.append(BarColumn())
        columns.extend([_Rate(), TimeElapsedColumn()])
        # soft_wrap: a message written to stderr meanwhile is printed above the line as it was written,
        # not re-wrapped at the terminal's width
        console = Console(file=stream, force_terminal=True, highlight=False, soft_wrap=True)
        self._progress = Progress(*columns, console=console, auto_refresh=False, transient=True, redirect_stdout=False)
        self._task: TaskID = self._progress.add_task(label, total=total, completed=completed)
        self._progress.start()

    def draw(self, completed: int) -> None:
        self._progress.update(self._task, completed=completed)
        self._progress.refresh()

    def remove(self) -> None:
        self._progress.stop()
