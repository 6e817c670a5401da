"""Hypothesis profiles: ``default`` keeps the suite fast, ``ci`` is reproducible, ``long`` digs.

Choose one with ``HYPOTHESIS_PROFILE=long pytest tests/properties`` (see CONTRIBUTING.md).
Deadlines are off everywhere: this machine's two shared cores make timings noisy.

A property test that sets its own budget uses ``tests/properties/_budget.examples(n)``: n examples
under ``default`` and ``ci``, scaled by ``long``'s budget over the default's (x80) under ``long``, so the
long run digs deeper in every test (tests/properties/test_example_budgets.py checks it). The long run
of tests/properties takes tens of minutes.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_QUICK = {"max_examples": 25, "deadline": None, "suppress_health_check": [HealthCheck.too_slow]}

settings.register_profile("default", **_QUICK)
settings.register_profile("ci", derandomize=True, database=None, **_QUICK)
settings.register_profile("long", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
