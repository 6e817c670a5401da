"""What every way of judging shares: a bug met while reading one input ends that input with ``ES099``,
not the command."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeVar

from evalscore.inputs.documents import Document
from evalscore.validation.internal_error import internal_error_finding

Item = TypeVar("Item")


def guarded_reading(items: Iterator[Item], source: str) -> Iterator[Item | Document]:
    """The documents of one input; a bug met while reading it ends that input with ``ES099``, not the run."""
    try:
        yield from items
    except Exception as error:
        yield Document(source, None, None, internal_error_finding(error, source, None))
