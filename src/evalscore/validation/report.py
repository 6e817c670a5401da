"""The shape of ``evalscore validate --format json``, published as a schema of its own."""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict

from evalscore.described_schema import DescribedJsonSchema

VALIDATION_REPORT_SCHEMA_ID: Final = "https://evalscore.dev/schemas/v1/validation-report.schema.json"
JSON_SCHEMA_DIALECT: Final = "https://json-schema.org/draft/2020-12/schema"


class _ReportModel(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class FindingEntry(_ReportModel):
    """One finding about one artifact."""

    source: str
    """The input the artifact came from (a path, or ``-`` for stdin)."""
    line: int | None
    """The line the offending value starts on: its JSONL line, or its line in a JSON or YAML document
    (for a document of at most 4 MiB, and for a syntax error); null when not located."""
    column: int | None = None
    """The column (characters, from 1) the offending value starts at, when located; null otherwise."""
    layer: Literal["syntax", "contract", "coherence"]
    """Which layer found it: the bytes, the published schema, or a cross-field rule."""
    code: str
    """A stable code (docs/RULES.md): ES0xx input, ES1xx coherence error, ES2xx warning, schema.<keyword>."""
    severity: Literal["error", "warning"]
    """Errors make the artifact invalid; warnings only with --strict."""
    pointer: str
    """RFC 6901 JSON Pointer of the offending value ("" for the whole document)."""
    message: str
    """What is wrong, in words."""


class ArtifactEntry(_ReportModel):
    """The verdict on one artifact."""

    source: str
    """The input it came from."""
    line: int | None
    """Its JSONL line; null for a whole document."""
    kind: str | None
    """The artifact kind, detected or forced; null when it could not be told."""
    valid: bool
    """No error (and, with --strict, no warning)."""
    errors: int
    """How many error findings it drew."""
    warnings: int
    """How many warning findings it drew."""
    findings: list[FindingEntry]
    """The findings shown, most useful first (at most --max-errors)."""
    omitted_findings: int
    """Findings not shown."""
    findings_complete: bool
    """False when evalscore stopped looking for findings once it had more than it would show
    (--max-errors; at least 100 are looked for and the most useful shown): errors, warnings and
    omitted_findings are then lower bounds. The verdict is exact: an error is always looked for."""


class InputEntry(_ReportModel):
    """One input read."""

    path: str
    """The path as given, or ``-``."""
    sha256: str | None
    """SHA-256 of the bytes read (as on disk, compressed or not); null when it could not be read."""
    complete: bool
    """False when reading stopped before the input's end (a document larger than --max-document-bytes,
    or an input that could not be read): sha256 is then the digest of the first hashed_bytes bytes only."""
    hashed_bytes: int
    """How many bytes sha256 covers."""


class SummaryEntry(_ReportModel):
    """The totals behind the exit code."""

    artifacts: int
    valid: int
    invalid: int
    unreadable: int
    warnings: int
    internal_errors: int
    """Artifacts on which evalscore met a bug of its own (ES099): the exit code is then 70."""


class ValidationReport(_ReportModel):
    """What ``evalscore validate --format json`` prints."""

    evalscore_version: str
    """The package version that wrote the report."""
    command: Literal["validate"]
    """Always ``validate``."""
    strict: bool
    """Whether warnings counted as failures."""
    inputs: list[InputEntry]
    """Every input read, in order."""
    artifacts: list[ArtifactEntry]
    """The artifacts checked, in input order: every one, unless there are more than 10,000 with
    findings or 10,000 without (then the first 10,000 of each: memory must not grow with the input)."""
    unlisted_artifacts: int
    """Artifacts checked but not listed in ``artifacts``; ``summary`` counts them all."""
    summary: SummaryEntry
    """The totals."""
    exit_code: Literal[0, 1, 2, 70]
    """0 every artifact valid, 1 any invalid, 2 a usage error, an unreadable path or nothing found,
    70 an internal error (a bug) on some input."""


def validation_report_json_schema() -> dict[str, Any]:
    schema = ValidationReport.model_json_schema(mode="serialization", schema_generator=DescribedJsonSchema)
    return {"$schema": JSON_SCHEMA_DIALECT, "$id": VALIDATION_REPORT_SCHEMA_ID, **schema}
