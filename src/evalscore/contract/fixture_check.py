"""Check committed artifacts against their expected verdicts, in both layers.

Layout: ``fixtures/valid/<kind>/...`` must be valid; ``fixtures/invalid/<kind>/CODE--what.ext``
must be invalid with a finding whose code is CODE. Elsewhere (goldens, the bundled
example) every artifact must be valid. A valid artifact must pass the committed
schema *and* parse under the models; a coherence-invalid one must pass the schema
and be rejected by the models: that is the documented divergence, tested both ways.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import jsonschema
import orjson
from pydantic import ValidationError

from evalscore.contract.builder import ARTIFACT_KINDS, SCHEMA_FILES, ArtifactKind
from evalscore.inputs.documents import read_documents
from evalscore.inputs.paths import classify
from evalscore.models.by_kind import MODELS
from evalscore.running.pipeline import check_paths
from evalscore.validation.checker import CheckedArtifact
from evalscore.validation.kinds import detect_kind

NOT_ARTIFACTS: Final = frozenset({"labels.json"})


@dataclass(frozen=True, slots=True)
class Expectation:
    kind: ArtifactKind | None
    code: str | None  # None: valid


def expectation_for(path: Path, root: Path) -> Expectation:
    parts = path.relative_to(root).parts
    kind = next((k for part in parts for k in ARTIFACT_KINDS if part == k), None)
    if "invalid" in parts:
        return Expectation(kind, path.name.split("--", 1)[0])
    return Expectation(kind, None)


def artifact_files(root: Path, folders: tuple[str, ...]) -> Iterator[Path]:
    for folder in folders:
        base = root / folder
        if base.is_dir():
            for path in sorted(base.rglob("*")):
                if path.is_file() and classify(path.name) is not None and path.name not in NOT_ARTIFACTS:
                    yield path


def _committed_schema(schema_dir: Path, kind: ArtifactKind) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(orjson.loads((schema_dir / SCHEMA_FILES[kind]).read_bytes()))


def _model_error(kind: ArtifactKind, document: Any) -> str | None:
    try:
        MODELS[kind].model_validate(document)
    except ValidationError as error:
        return str(error).splitlines()[0] + ": " + "; ".join(e["msg"] for e in error.errors())
    return None


def check_artifact_file(path: Path, root: Path, schema_dir: Path) -> list[str]:
    """Problems with one committed artifact file; empty when it meets its expectation."""
    expectation = expectation_for(path, root)
    problems: list[str] = []
    checked_all: list[CheckedArtifact] = list(check_paths([str(path)], expectation.kind, keep_models=False))
    if not checked_all:
        return [f"{path}: holds no artifact"]
    for checked in checked_all:
        where = f"{path}:{checked.line}" if checked.line else str(path)
        codes = {finding.code for finding in checked.findings if finding.is_error}
        if expectation.code is None and codes:
            problems.append(f"{where}: expected valid, got {sorted(codes)}")
        if expectation.code is not None and expectation.code not in codes:
            problems.append(f"{where}: expected a {expectation.code} finding, got {sorted(codes) or 'none'}")
    problems.extend(_check_layers(path, root, schema_dir, expectation))
    return problems


def _check_layers(path: Path, root: Path, schema_dir: Path, expectation: Expectation) -> list[str]:
    """Each layer on its own: the committed schema, then the models with their rules enforced."""
    problems = []
    for document in read_documents([str(path)]):
        if document.syntax is not None:
            continue
        kind = expectation.kind or detect_kind(document.value)
        if kind is None:
            continue
        schema_ok = _committed_schema(schema_dir, kind).is_valid(document.value)
        model_error = _model_error(kind, document.value) if schema_ok else "skipped"
        where = f"{path}:{document.line}" if document.line else str(path)
        code = expectation.code
        if code is None:
            if not schema_ok:
                problems.append(f"{where}: the committed schema rejects a valid artifact")
            elif model_error is not None:
                problems.append(f"{where}: the models reject a valid artifact: {model_error}")
        elif code.startswith("ES1"):
            if not schema_ok:
                problems.append(f"{where}: a coherence fixture must be accepted by the schema ({code})")
            elif model_error is None or code not in model_error:
                problems.append(f"{where}: the models must reject it with {code}, got {model_error}")
        elif code.startswith("schema.") and schema_ok:
            problems.append(f"{where}: the committed schema accepts what must break {code}")
    return problems
