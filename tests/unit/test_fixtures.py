"""Every committed fixture meets the verdict its folder and file name promise, in both layers."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalscore.coherence.registry import RULES
from evalscore.contract.builder import ARTIFACT_KINDS
from evalscore.contract.fixture_check import artifact_files, check_artifact_file, expectation_for
from evalscore.finding_codes import SYNTAX_CODES

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
SCHEMA_DIR = ROOT / "schemas" / "v1"
FIXTURE_FILES = list(artifact_files(ROOT, ("fixtures",)))
VALID_FILES = [path for path in FIXTURE_FILES if path.relative_to(FIXTURES).parts[0] == "valid"]
INVALID_FILES = [path for path in FIXTURE_FILES if path.relative_to(FIXTURES).parts[0] == "invalid"]
MIN_FIXTURES = 70
COHERENCE_ERROR_RULES = 20


def _fixture_id(path: Path) -> str:
    return str(path.relative_to(FIXTURES))


def test_the_fixture_corpus_holds_at_least_the_expected_number_of_files() -> None:
    assert len(FIXTURE_FILES) >= MIN_FIXTURES
    assert len(VALID_FILES) + len(INVALID_FILES) == len(FIXTURE_FILES)


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=_fixture_id)
def test_each_fixture_meets_its_expected_verdict_in_both_layers(path: Path) -> None:
    assert check_artifact_file(path, ROOT, SCHEMA_DIR) == []


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=_fixture_id)
def test_each_fixture_lives_in_a_folder_that_names_its_kind(path: Path) -> None:
    parts = path.relative_to(FIXTURES).parts
    assert parts[0] in {"valid", "invalid"}
    assert parts[1] in ARTIFACT_KINDS
    assert expectation_for(path, ROOT).kind == parts[1]


def test_every_coherence_error_rule_has_at_least_one_invalid_fixture() -> None:
    error_codes = {rule.code for rule in RULES if rule.severity == "error"}
    assert len(error_codes) == COHERENCE_ERROR_RULES
    covered = {path.name.split("--", 1)[0] for path in INVALID_FILES}
    assert sorted(error_codes - covered) == []


def test_every_invalid_fixture_names_a_code_that_exists() -> None:
    known = {rule.code for rule in RULES} | set(SYNTAX_CODES)
    named = [path.name.split("--", 1)[0] for path in INVALID_FILES]
    assert len(named) == len(INVALID_FILES) > 0
    unknown = [code for code in named if code not in known and not code.startswith("schema.")]
    assert unknown == []
    assert all("--" in path.name for path in INVALID_FILES)


def test_every_artifact_kind_has_valid_and_invalid_fixtures() -> None:
    for kind in ARTIFACT_KINDS:
        assert [p for p in VALID_FILES if p.parent.name == kind], f"no valid {kind} fixture"
        assert [p for p in INVALID_FILES if p.parent.name == kind], f"no invalid {kind} fixture"


def test_the_valid_fixtures_include_every_input_format() -> None:
    suffixes = {"".join(path.suffixes[-2:]) if path.suffix == ".gz" else path.suffix for path in VALID_FILES}
    assert {".json", ".jsonl", ".yaml", ".yml", ".json.gz", ".jsonl.gz"} <= suffixes
