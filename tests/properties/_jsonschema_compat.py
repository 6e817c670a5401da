"""Let hypothesis-jsonschema 0.23 run, and run fast, on this Hypothesis.

1. ``many.more()``:
hypothesis-jsonschema (latest release 0.23.1) drives objects with the old private
``cu.many(...).more()`` loop; newer Hypothesis replaced it with an iterator used as
``with many(...) as elements: for _ in elements:``. This adapter gives the old
interface on top of the new one, for that one module only, and only when needed.
Remove it once hypothesis-jsonschema ships a release that follows Hypothesis.

2. Speed: hypothesis-jsonschema re-canonicalises the subschema of every object
property on every draw (about a second per generated run document). The
strategy for a subschema depends only on that subschema, so it is memoised by
the subschema's canonical JSON text, which makes generation some ten times faster.
"""

from __future__ import annotations

import json
import types
from collections.abc import Callable, Iterator
from typing import Any

from hypothesis.internal.conjecture import utils as conjecture_utils
from hypothesis_jsonschema import _from_schema


class _MoreLoop:
    """``many`` with the ``while elements.more(): ... elements.reject()`` interface."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._many = conjecture_utils.many(*args, **kwargs)
        self._steps: Iterator[None] | None = None

    def more(self) -> bool:
        if self._steps is None:
            self._steps = iter(self._many.__enter__())
        if next(self._steps, StopIteration) is StopIteration:
            self._many.__exit__(None)
            return False
        return True

    def reject(self, why: str | None = None) -> None:
        self._many.reject(why)


def _memoised(build: Callable[..., Any]) -> Callable[..., Any]:
    strategies: dict[tuple[str, int, int], Any] = {}

    def cached(schema: Any, *, alphabet: Any, custom_formats: Any) -> Any:
        key = (json.dumps(schema, sort_keys=True), id(alphabet), id(custom_formats))
        if key not in strategies:
            strategies[key] = build(schema, alphabet=alphabet, custom_formats=custom_formats)
        return strategies[key]

    cached.__wrapped__ = build  # type: ignore[attr-defined]
    return cached


def install() -> None:
    """Patch hypothesis-jsonschema once: the ``many`` adapter when needed, and the memo."""
    if getattr(_from_schema, "_evalscore_patched", False):
        return
    if not hasattr(conjecture_utils.many, "more"):
        proxy = types.SimpleNamespace(**vars(conjecture_utils))
        proxy.many = _MoreLoop
        _from_schema.cu = proxy  # type: ignore[attr-defined]
    _from_schema.merged_as_strategies = _memoised(_from_schema.merged_as_strategies)
    _from_schema._evalscore_patched = True  # type: ignore[attr-defined]
