"""A parsed run with the input it came from: what every scorer of one run takes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evalscore.models.run import RunOf


@dataclass(frozen=True, slots=True)
class SourcedRun:
    """A parsed run (or scored run) and the input it came from (a path, ``path:line`` for JSONL, ``-``)."""

    source: str
    run: RunOf[Any]
