"""Values that workers send to the parent pickle as their fields, rebuilt by their constructor.

A slotted dataclass pickles through ``dataclasses``' own state functions, which set its fields
one at a time in Python on the way in and build a dict of them on the way out. A worker of a long
JSONL file sends a verdict per line and, for ``score``, a partial score per run: that cost was
paid per line on both sides, and the parent's side is not spread over the cores.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any, TypeVar

_T = TypeVar("_T")


def pickled_as_fields(cls: type[_T]) -> type[_T]:
    """Give a dataclass a ``__reduce__`` of ``(its class, its field values in order)``.

    Every field must be a positional ``__init__`` parameter, in declaration order, so that the constructor
    rebuilds the value it was given; a class with another field, or with its own ``__reduce__``,
    is refused when decorated.
    """
    if "__reduce__" in vars(cls):
        raise TypeError(f"{cls.__name__} already says how it pickles")
    declared = fields(cls)  # type: ignore[arg-type]  # a dataclass, checked here at run time
    not_in_init = [field.name for field in declared if not field.init or field.kw_only is True]
    if not_in_init:
        raise TypeError(
            f"{cls.__name__} cannot be rebuilt from its fields: {', '.join(not_in_init)} not positional in __init__"
        )
    names = [field.name for field in declared]
    values: Callable[[Any], Any] = attrgetter(*names)
    if len(names) == 1:
        single = values
        values = lambda item: (single(item),)  # noqa: E731 - attrgetter of one name gives no tuple

    def reduce_to_fields(self: _T) -> tuple[type[_T], tuple[Any, ...]]:
        return type(self), values(self)

    setattr(cls, "__reduce__", reduce_to_fields)  # noqa: B010 - mypy refuses assigning a method to a type
    return cls
