"""Per-test example budgets that scale with the hypothesis profile (profiles: tests/conftest.py).

A property test that needs its own budget writes ``@settings(max_examples=examples(50))``: 50
examples under the ``default`` and ``ci`` profiles, and as many times more under a bigger profile
(``long``) as that profile's ``max_examples`` is above the default one's. A literal
``max_examples=50`` would cap the test at 50 even under ``HYPOTHESIS_PROFILE=long``.
"""

from __future__ import annotations

from hypothesis import settings


def scale() -> float:
    """How many times the loaded profile's budget is the default profile's (never below 1)."""
    loaded = settings.default
    assert loaded is not None  # tests/conftest.py loads a profile before any test module is imported
    return max(1.0, loaded.max_examples / settings.get_profile("default").max_examples)


def examples(quick: int) -> int:
    """``quick`` examples under the default and ci profiles, scaled up under a bigger one."""
    return round(quick * scale())
