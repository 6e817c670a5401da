"""The long hypothesis profile digs deeper in every property test; the default and ci ones stay quick.

Each profile is loaded in a fresh interpreter (a profile is read when the test modules are imported),
every test module under tests/ that uses hypothesis is imported as pytest would import it, and the
budget each property test will run with is read from the test object. Hypothesis keeps that budget
in ``_hypothesis_internal_use_settings`` (the settings ``@given`` resolved at decoration time); there
is no public accessor.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
PROPERTY_TESTS_AT_LEAST = 18
"""Property tests today (tests/properties and tests/unit/scoring); new ones only raise the count."""

_READ_BUDGETS = r"""
import importlib, json, runpy, sys
from pathlib import Path

tests = Path(sys.argv[1])
sys.path.insert(0, str(tests))  # as pytest does for a conftest outside a package: its helpers import
runpy.run_path(str(tests / "conftest.py"))  # registers and loads the profile named in HYPOTHESIS_PROFILE
budgets = {}
for path in sorted(tests.rglob("test_*.py")):
    text = path.read_text(encoding="utf-8")
    if "from hypothesis import" not in text and "import hypothesis" not in text:
        continue
    base = path.parent
    while (base / "__init__.py").exists():
        base = base.parent
    if str(base) not in sys.path:
        sys.path.insert(0, str(base))
    name = ".".join(path.relative_to(base).with_suffix("").parts)
    module = importlib.import_module(name)
    for attribute, test in vars(module).items():
        if attribute.startswith("test_") and getattr(test, "is_hypothesis_test", False):
            key = f"{path.relative_to(tests).as_posix()}::{attribute}"
            budgets[key] = test._hypothesis_internal_use_settings.max_examples
print(json.dumps(budgets))
"""


def budgets_under(profile: str) -> dict[str, int]:
    environment = {**os.environ, "HYPOTHESIS_PROFILE": profile}
    done = subprocess.run(
        [sys.executable, "-c", _READ_BUDGETS, str(TESTS)],
        capture_output=True,
        text=True,
        env=environment,
        cwd=TESTS.parent,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    budgets: dict[str, int] = json.loads(done.stdout)
    return budgets


@pytest.fixture(scope="module")
def budgets() -> dict[str, dict[str, int]]:
    return {profile: budgets_under(profile) for profile in ("default", "ci", "long")}


def test_every_property_test_gets_more_examples_under_the_long_profile(budgets: dict[str, dict[str, int]]) -> None:
    default, long = budgets["default"], budgets["long"]
    assert len(default) >= PROPERTY_TESTS_AT_LEAST
    assert sorted(long) == sorted(default)
    capped = {name: (default[name], long[name]) for name in default if long[name] <= default[name]}
    assert capped == {}, "these property tests are capped below the long profile (use _budget.examples)"


def test_the_long_profile_gives_every_property_test_at_least_ten_times_its_quick_budget(
    budgets: dict[str, dict[str, int]],
) -> None:
    default, long = budgets["default"], budgets["long"]
    assert len(default) >= PROPERTY_TESTS_AT_LEAST
    assert {name for name in default if long[name] < 10 * default[name]} == set()


def test_the_ci_profile_runs_the_same_quick_budgets_as_the_default_one(budgets: dict[str, dict[str, int]]) -> None:
    assert len(budgets["ci"]) >= PROPERTY_TESTS_AT_LEAST
    assert budgets["ci"] == budgets["default"]
    assert max(budgets["default"].values()) <= 50  # the quick budgets keep the ordinary suite fast
