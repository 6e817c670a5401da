"""A session of named tests (how mutmut runs each mutant) makes items only for the names asked for.

tests/conftest.py skips making the other test functions of a named test's module; these tests run
pytest in a child process with a plugin that counts the test items made, and check that the tests
asked for are exactly the tests run, whatever the form of their names.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
COUNTER = """
import pytest

made = []


@pytest.hookimpl(hookwrapper=True)
def pytest_pycollect_makeitem(collector, name, obj):
    outcome = yield
    result = outcome.get_result()
    if name.startswith("test") and result is not None:
        made.extend(result if isinstance(result, list) else [result])


def pytest_collection_finish(session):
    print(f"MADE {len(made)}")
"""


def collect(tmp_path: Path, *args: str) -> tuple[int, list[str]]:
    """Items made while collecting, and the ids collected."""
    (tmp_path / "count_made.py").write_text(COUNTER)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "count_made", "-p", "no:cacheprovider", "--collect-only", "-q", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    lines = completed.stdout.splitlines()
    (made,) = [int(line.split()[1]) for line in lines if line.startswith("MADE ")]
    return made, [line for line in lines if "::" in line]


LISTING = "tests/unit/test_listing.py"
SUMMARY = "tests/unit/test_validation_summary.py"


def test_named_tests_are_the_only_items_made_in_their_modules(tmp_path: Path) -> None:
    asked = [
        f"{LISTING}::test_no_items_means_nothing_is_listed",
        f"{SUMMARY}::test_ten_thousand_of_each_group_are_listed",
    ]
    made, collected = collect(tmp_path, *asked)
    assert collected == asked
    assert made == 2


def test_a_parametrized_name_makes_its_function_s_items_and_runs_the_one_asked_for(tmp_path: Path) -> None:
    _, every = collect(tmp_path, SUMMARY)
    parametrized = [node for node in every if "[" in node]
    assert parametrized, "the summary's tests are expected to hold a parametrized one"
    asked = parametrized[0]
    siblings = [node for node in every if node.split("[")[0] == asked.split("[")[0]]
    made, collected = collect(tmp_path, asked)
    assert collected == [asked]
    assert made == len(siblings)


def test_a_module_or_a_directory_makes_every_item(tmp_path: Path) -> None:
    defined = sum(line.startswith("def test_") for line in (REPO / LISTING).read_text().splitlines())
    assert defined >= 7  # test_listing.py has no parametrized test: one item per function
    made, collected = collect(tmp_path, LISTING)
    assert made == len(collected) == defined
    whole_summary, _ = collect(tmp_path, SUMMARY)
    made_with_one, collected = collect(tmp_path, LISTING, f"{SUMMARY}::test_ten_thousand_of_each_group_are_listed")
    assert len(collected) == defined + 1
    assert made_with_one == defined + whole_summary > defined + 1  # a module among the arguments: the hook stands aside
