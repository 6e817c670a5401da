"""A package's public names imported on first use (PEP 562), so importing the package costs nothing.

The command line imports only what a command needs: ``validate`` never loads the models or pydantic,
and a forked worker of ``score`` loads the dict scorer without the rest of ``evalscore.scoring``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def imported_on_first_use(
    namespace: dict[str, Any], public: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A module's ``__getattr__`` and ``__dir__``: each name of ``public`` is taken from the module it
    names when first asked for, then kept in ``namespace`` (the module's globals), so later look-ups
    find it there; ``__dir__`` lists ``namespace["__all__"]``."""

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module attribute PEP 562 looks for
        if name not in public:
            raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(public[name]), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:  # noqa: N807
        return sorted(namespace["__all__"])

    return __getattr__, __dir__
