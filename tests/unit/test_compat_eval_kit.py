"""Every artifact eval-kit (the compatibility anchor) writes validates and parses under evalscore's v1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from evalscore.contract.builder import SCHEMA_FILES
from evalscore.inputs.yaml_loader import load_yaml
from evalscore.models.by_kind import MODELS
from evalscore.running.pipeline import check_paths

EVAL_KIT = Path(__file__).resolve().parents[2] / ".." / "shared" / "compat" / "eval-kit"
EXPECTED_ARTIFACTS = 13

pytestmark = pytest.mark.skipif(
    not EVAL_KIT.is_dir(), reason=f"the eval-kit compatibility corpus is not present at {EVAL_KIT}"
)


def _kind(path: Path) -> str:
    if path.name.endswith(".scored.json"):
        return "scored-run"
    if path.suffix in {".yaml", ".yml"} or "suite" in path.name:
        return "eval-suite"
    return "run"


def _artifacts() -> list[Path]:
    if not EVAL_KIT.is_dir():
        return []
    return sorted(
        [
            *EVAL_KIT.glob("runs/*.json"),
            *EVAL_KIT.glob("suites/*.yaml"),
            *EVAL_KIT.glob("legacy/*"),
            EVAL_KIT / "goldens" / "_smoke" / "run.json",
            EVAL_KIT / "goldens" / "_smoke" / "suite.yaml",
        ]
    )


ARTIFACTS = _artifacts()


def _document(path: Path) -> Any:
    if path.suffix in {".yaml", ".yml"}:
        return load_yaml(path.read_bytes())
    return json.loads(path.read_text())


def _id(path: Path) -> str:
    return str(path.relative_to(EVAL_KIT))


def test_the_whole_eval_kit_corpus_is_collected() -> None:
    assert len(ARTIFACTS) == EXPECTED_ARTIFACTS
    assert all(path.is_file() for path in ARTIFACTS)
    assert {_kind(path) for path in ARTIFACTS} == {"run", "scored-run", "eval-suite"}


@pytest.mark.parametrize("path", ARTIFACTS, ids=_id)
def test_an_eval_kit_artifact_validates_with_no_error_and_is_detected_as_its_kind(path: Path) -> None:
    checked = list(check_paths([str(path)]))
    assert len(checked) == 1
    errors = [finding for finding in checked[0].findings if finding.is_error]
    assert errors == []
    assert checked[0].kind == _kind(path)


@pytest.mark.parametrize("path", ARTIFACTS, ids=_id)
def test_an_eval_kit_artifact_parses_under_the_models(path: Path) -> None:
    MODELS[_kind(path)].model_validate(_document(path))  # type: ignore[index]


@pytest.mark.parametrize("path", ARTIFACTS, ids=_id)
def test_an_eval_kit_artifact_is_valid_under_evalscores_committed_schema(path: Path) -> None:
    schema_dir = Path(__file__).resolve().parents[2] / "schemas" / "v1"
    schema = json.loads((schema_dir / SCHEMA_FILES[_kind(path)]).read_text())  # type: ignore[index]
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(_document(path))) == []


@pytest.mark.parametrize("path", ARTIFACTS, ids=_id)
def test_an_eval_kit_artifact_is_valid_under_eval_kits_own_draft_07_schema(path: Path) -> None:
    schema = json.loads((EVAL_KIT / "schemas-v1" / SCHEMA_FILES[_kind(path)]).read_text())  # type: ignore[index]
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert list(jsonschema.Draft7Validator(schema).iter_errors(_document(path))) == []
