"""Generate every published schema from the reference models.

The output is deterministic (sorted keys, two-space indent, trailing newline)
so that the drift check can compare bytes. Nested shapes are inlined: each
published file stands alone, like the anchor implementation's contract.
"""

from __future__ import annotations

from typing import Any, Final

import orjson

from evalscore.artifact_kinds import (
    ARTIFACT_KINDS,
    LEDGER_RECORD_SCHEMA_FILE,
    REPORT_SCHEMA_FILE,
    SCHEMA_FILES,
    VALIDATION_REPORT_SCHEMA_FILE,
    ArtifactKind,
)
from evalscore.described_schema import DescribedJsonSchema
from evalscore.models import CURRENT_SCHEMA_VERSION
from evalscore.models.by_kind import MODELS

__all__ = [
    "ARTIFACT_KINDS",
    "REPORT_SCHEMA_FILE",
    "SCHEMA_FILES",
    "VALIDATION_REPORT_SCHEMA_FILE",
    "ArtifactKind",
    "build_report_schema",
    "build_schema",
    "build_schemas",
    "build_validation_report_schema",
    "render_schema",
]

ID_BASE: Final = "https://evalscore.dev/schemas/v1/"
DRAFT: Final = "https://json-schema.org/draft/2020-12/schema"
GENERATOR_NOTE: Final = (
    "GENERATED from the evalscore models by evalscore.contract.build_schemas; do not edit by hand. "
    "Regenerate with: python scripts/check_schema_drift.py --write"
)
TITLES: Final[dict[ArtifactKind, str]] = {
    "eval-suite": "evalscore EvalSuite",
    "run": "evalscore Run",
    "scored-run": "evalscore ScoredRun",
    "step-score": "evalscore StepScore",
}


def _inline(node: Any, definitions: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        reference = node.get("$ref")
        if isinstance(reference, str):
            target = _inline(definitions[reference.removeprefix("#/$defs/")], definitions)
            siblings = {key: _inline(value, definitions) for key, value in node.items() if key != "$ref"}
            return {**target, **siblings}
        return {key: _inline(value, definitions) for key, value in node.items() if key != "$defs"}
    if isinstance(node, list):
        return [_inline(item, definitions) for item in node]
    return node


def _drop_generated_titles(node: Any) -> Any:
    """Drop the titles pydantic derives from field and generic names; they say nothing new."""
    if isinstance(node, dict):
        cleaned = {key: _drop_generated_titles(value) for key, value in node.items()}
        properties = cleaned.get("properties")
        if isinstance(properties, dict):
            for prop in properties.values():
                if isinstance(prop, dict):
                    prop.pop("title", None)
        title = cleaned.get("title")
        if isinstance(title, str) and "[" in title:
            del cleaned["title"]
        return cleaned
    if isinstance(node, list):
        return [_drop_generated_titles(item) for item in node]
    return node


def build_schema(kind: ArtifactKind) -> dict[str, Any]:
    """The published JSON Schema of one artifact kind."""
    model = MODELS[kind]
    raw = model.model_json_schema(mode="validation", schema_generator=DescribedJsonSchema)
    body = _drop_generated_titles(_inline(raw, raw.get("$defs", {})))
    body.pop("title", None)
    return {
        "$schema": DRAFT,
        "$id": ID_BASE + SCHEMA_FILES[kind],
        "title": TITLES[kind],
        "x-evalscore": {"schema_version": CURRENT_SCHEMA_VERSION, "generated": GENERATOR_NOTE},
        **body,
    }


def build_report_schema() -> dict[str, Any]:
    """The published schema of ``evalscore score --format json``."""
    from evalscore.scoring.report import report_json_schema  # noqa: PLC0415 - scoring imports the models too

    return report_json_schema()


def build_validation_report_schema() -> dict[str, Any]:
    """The published schema of ``evalscore validate --format json``."""
    from evalscore.validation.report import validation_report_json_schema  # noqa: PLC0415 - same as above

    return validation_report_json_schema()


def build_ledger_record_schema() -> dict[str, Any]:
    """The published schema of one record of the decision ledger (``score --ledger``)."""
    from evalscore.ledger.record import ledger_record_json_schema  # noqa: PLC0415 - the ledger imports the report

    return ledger_record_json_schema()


def build_schemas() -> dict[str, dict[str, Any]]:
    """Every published schema, keyed by its file name under ``schemas/v1/``."""
    schemas = {SCHEMA_FILES[kind]: build_schema(kind) for kind in ARTIFACT_KINDS}
    schemas[REPORT_SCHEMA_FILE] = build_report_schema()
    schemas[VALIDATION_REPORT_SCHEMA_FILE] = build_validation_report_schema()
    schemas[LEDGER_RECORD_SCHEMA_FILE] = build_ledger_record_schema()
    return schemas


def render_schema(schema: dict[str, Any]) -> bytes:
    """The exact bytes a schema file holds: sorted keys, two-space indent, trailing newline."""
    return orjson.dumps(schema, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n"
