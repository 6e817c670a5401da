"""``--format json`` for validate: stable keys, one document."""

from __future__ import annotations

from functools import cache
from typing import Any

import jsonschema_rs

from evalscore.artifact_kinds import VALIDATION_REPORT_SCHEMA_FILE
from evalscore.findings import Finding
from evalscore.json_output import dumps_text
from evalscore.published import published_schema
from evalscore.validation.summary import ArtifactVerdict, ValidationSummary
from evalscore.version import __version__


def finding_dict(finding: Finding) -> dict[str, Any]:
    return {
        "source": finding.source,
        "line": finding.line,
        "column": finding.column,
        "layer": finding.layer,
        "code": finding.code,
        "severity": finding.severity,
        "pointer": finding.pointer,
        "message": finding.message,
    }


def _verdict_dict(verdict: ArtifactVerdict, strict: bool) -> dict[str, Any]:
    return {
        "source": verdict.source,
        "line": verdict.line,
        "kind": verdict.kind,
        "valid": verdict.valid(strict),
        "errors": verdict.errors,
        "warnings": verdict.warnings,
        "findings": [finding_dict(f) for f in verdict.findings],
        "omitted_findings": verdict.omitted,
        "findings_complete": verdict.complete,
    }


@cache
def _published_shape() -> Any:
    return jsonschema_rs.validator_for(published_schema(VALIDATION_REPORT_SCHEMA_FILE))


def validation_json_dict(summary: ValidationSummary) -> dict[str, Any]:
    """The report as JSON data, checked against its published schema on the way out: a report
    that does not conform is a bug, and ends the command as one (exit 70), not printed."""
    report = _raw_dict(summary)
    _published_shape().validate(report)
    return report


def _raw_dict(summary: ValidationSummary) -> dict[str, Any]:
    return {
        "evalscore_version": __version__,
        "command": "validate",
        "strict": summary.strict,
        "inputs": [
            {
                "path": record.path,
                "sha256": record.sha256,
                "complete": record.complete,
                "hashed_bytes": record.hashed_bytes,
            }
            for record in summary.inputs
        ],
        "artifacts": [_verdict_dict(v, summary.strict) for v in summary.verdicts],
        "unlisted_artifacts": summary.unlisted,
        "summary": {
            "artifacts": summary.artifacts,
            "valid": summary.artifacts - summary.invalid,
            "invalid": summary.invalid,
            "unreadable": summary.unreadable,
            "warnings": summary.warnings,
            "internal_errors": summary.internal_errors,
        },
        "exit_code": summary.exit_code,
    }


def render_validation_json(summary: ValidationSummary) -> str:
    return dumps_text(validation_json_dict(summary))
