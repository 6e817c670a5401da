"""The README's promises about itself: its two commands, CI running the same test command,
and a claims table whose every test exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
FENCED = re.compile(r"^```\n(.*?)\n```$", re.MULTILINE | re.DOTALL)


def _commands() -> list[str]:
    return FENCED.findall(README)[:2]


def _defined_tests() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.update(re.findall(r"^(?:async )?def (test_\w+)", path.read_text(), re.MULTILINE))
    return names


def _claims_table() -> list[tuple[str, list[str]]]:
    section = README.split("## Claims and the tests that enforce them", 1)[1]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and "`test_" in cells[1]:
            rows.append((cells[0], re.findall(r"`(test_\w+)`", cells[1] + cells[2])))
    return rows


def test_the_readme_opens_with_the_main_job_command_then_the_test_command() -> None:
    main_job, tests = _commands()
    assert README.index(main_job) < README.index("## ")
    assert "evalscore score examples/partner-log.jsonl --suite examples/partner-suite.yaml" in main_job
    assert tests.endswith(".venv/bin/pytest")
    assert all((ROOT / path).is_file() for path in ("examples/partner-log.jsonl", "examples/partner-suite.yaml"))


def test_ci_runs_the_readmes_test_command_verbatim() -> None:
    _, tests = _commands()
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert tests in ci_lines


def test_every_test_the_claims_table_names_exists() -> None:
    rows = _claims_table()
    assert len(rows) >= 40
    defined = _defined_tests()
    named = [name for _, names in rows for name in names]
    assert len(named) >= len(rows)
    missing = sorted(set(named) - defined)
    assert missing == []


def test_ci_installs_the_published_schemas_and_fails_rather_than_skips_without_them() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    install = ci.index("npm ci --prefix tests/external")
    required = ci.index("export EVALSCORE_REQUIRE_EXTERNAL=1")
    tests = ci.index(".venv/bin/pytest")
    assert install < required < tests
    lock = json.loads((ROOT / "tests" / "external" / "package-lock.json").read_text(encoding="utf-8"))
    pinned = lock["packages"][""]["devDependencies"]
    assert pinned == {"@microsoft/jest-sarif": "1.0.0-beta.0", "mocha-junit-reporter": "2.2.1"}
