"""The documented divergence, both directions: the models are stricter than the schema only by the
coherence rules; on everything else the published schema and the models accept the same documents."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError

from evalscore.contract.builder import SCHEMA_FILES
from evalscore.inputs.yaml_loader import load_yaml
from evalscore.models.by_kind import MODELS

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
SCHEMA_DIR = ROOT / "schemas" / "v1"
COHERENCE_ERROR_RULES = 20


def _raw(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def load_documents(path: Path) -> list[Any]:
    """The documents of a fixture, parsed without the validation pipeline under test."""
    name = path.name.removesuffix(".gz")
    text = _raw(path).decode("utf-8")
    if name.endswith(".jsonl"):
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    if name.endswith((".yaml", ".yml")):
        # YAML 1.2 core-schema scalars, as suites are read (``yes`` stays a string).
        return [load_yaml(text.encode())]
    return [json.loads(text)]


def schema_validator(kind: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads((SCHEMA_DIR / SCHEMA_FILES[kind]).read_text()))  # type: ignore[index]


def _files(verdict: str, prefix: str = "") -> list[tuple[str, Path]]:
    found = []
    for kind_dir in sorted((FIXTURES / verdict).iterdir()):
        for path in sorted(kind_dir.iterdir()):
            if path.is_file() and path.name.startswith(prefix):
                found.append((kind_dir.name, path))
    return found


COHERENCE_FIXTURES = _files("invalid", "ES1")
CONTRACT_FIXTURES = _files("invalid", "schema.")
VALID_FIXTURES = _files("valid")


def _id(case: tuple[str, Path]) -> str:
    return f"{case[0]}/{case[1].name}"


def test_there_is_a_coherence_fixture_for_every_error_rule_and_they_are_all_collected() -> None:
    codes = {path.name.split("--", 1)[0] for _, path in COHERENCE_FIXTURES}
    assert len(codes) == COHERENCE_ERROR_RULES
    assert len(COHERENCE_FIXTURES) >= COHERENCE_ERROR_RULES


@pytest.mark.parametrize("case", COHERENCE_FIXTURES, ids=_id)
def test_a_coherence_fixture_is_accepted_by_the_schema_and_rejected_by_the_models_with_its_code(
    case: tuple[str, Path],
) -> None:
    kind, path = case
    code = path.name.split("--", 1)[0]
    documents = load_documents(path)
    assert len(documents) == 1
    (document,) = documents
    assert schema_validator(kind).is_valid(document), "the published schema must accept it"
    with pytest.raises(ValidationError) as caught:
        MODELS[kind].model_validate(document)  # type: ignore[index]
    assert code in str(caught.value)


@pytest.mark.parametrize("case", CONTRACT_FIXTURES, ids=_id)
def test_a_contract_fixture_is_rejected_by_the_schema_and_by_the_models_alike(case: tuple[str, Path]) -> None:
    kind, path = case
    (document,) = load_documents(path)
    assert not schema_validator(kind).is_valid(document), "the published schema must reject it"
    with pytest.raises(ValidationError):
        MODELS[kind].model_validate(document)  # type: ignore[index]


def test_every_valid_fixture_document_is_accepted_by_the_models_and_by_the_schema() -> None:
    walked = 0
    for kind, path in VALID_FIXTURES:
        for document in load_documents(path):
            MODELS[kind].model_validate(document)  # type: ignore[index]
            assert schema_validator(kind).is_valid(document), f"{path} is accepted by the models only"
            walked += 1
    assert len(VALID_FIXTURES) >= 15
    assert walked > len(VALID_FIXTURES)  # the JSONL files hold several documents each


def test_a_model_dump_of_every_valid_fixture_is_accepted_by_the_schema_and_parses_again() -> None:
    walked = 0
    for kind, path in VALID_FIXTURES:
        for document in load_documents(path):
            model = MODELS[kind].model_validate(document)  # type: ignore[index]
            dumped = json.loads(model.model_dump_json())
            assert schema_validator(kind).is_valid(dumped), path
            assert MODELS[kind].model_validate(dumped) == model  # type: ignore[index]
            walked += 1
    assert walked > len(VALID_FIXTURES)
