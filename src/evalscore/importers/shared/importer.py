"""What an importer is to the ``evalscore import`` commands: one kind of source made into runs, and a
tally of what was written. The commands (``cli/importing.py``) do the rest the same way for every kind."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from evalscore.models import EvalSuite, Run


class Tally(Protocol):
    """What an importer counts over the runs it wrote, and the one line that says it."""

    def add(self, run: Run) -> None: ...

    def summary(self, output: str) -> str: ...


class Importer(Protocol):
    """One kind of source. ``import_source`` makes a source (a path, or a store's address) into its Run,
    or its Runs one at a time (a checkpoint store holds one per thread), calling ``tick`` per unit read
    for progress, or raises ``ImportFailedError``: a source that fails part way leaves nothing written."""

    @property
    def unit(self) -> str:
        """What the progress line counts (``samples``, ``threads``)."""
        ...

    @property
    def noun(self) -> str:
        """What one source is called in messages (``log``, ``store``)."""
        ...

    def import_source(self, source: str, suite: EvalSuite | None, tick: Callable[[], None]) -> Run | Iterable[Run]: ...

    def tally(self) -> Tally: ...
