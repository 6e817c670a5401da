"""``--format sarif`` for validate: SARIF 2.1.0, so that code-scanning views show the findings.

One run of the ``evalscore`` tool. Its ``rules`` are the codes the findings carry (a coherence rule's
name from the registry, a syntax or contract code's from theirs, ``schema.<keyword>`` for the
published schema's keywords); each finding is a ``result`` at its file (a URI reference relative to
the working directory, or a ``file://`` URI for an absolute path) and JSONL line, with its JSON
Pointer as the logical location. The inputs are listed as ``artifacts`` with their SHA-256, and the
invocation carries the exit code.
"""

from __future__ import annotations

import os
from pathlib import PurePosixPath
from typing import Any, Final
from urllib.parse import quote

from evalscore.coherence.registry import RULES
from evalscore.finding_codes import CONTRACT_CODES, SYNTAX_CODES
from evalscore.findings import Finding
from evalscore.json_output import dumps_text
from evalscore.reporters._formats import plain, whole
from evalscore.validation.summary import ArtifactVerdict, ValidationSummary
from evalscore.version import __version__

SARIF_SCHEMA: Final = "https://json.schemastore.org/sarif-2.1.0.json"
_NAMES: Final[dict[str, str]] = {
    **{rule.code: rule.name for rule in RULES},
    **SYNTAX_CODES,
    **CONTRACT_CODES,
}


def artifact_uri(path: str) -> str:
    """A path as a SARIF ``artifactLocation.uri``: an absolute path a ``file://`` URI, any other a relative
    URI reference with ``/`` separators; characters a URI cannot hold are percent-encoded."""
    if os.path.isabs(path):
        return "file://" + quote(PurePosixPath(path.replace(os.sep, "/")).as_posix(), safe="/")
    return quote(path.replace(os.sep, "/"), safe="/")


def _rule(code: str, level: str) -> dict[str, Any]:
    name = _NAMES.get(code) or code.replace(".", "-")
    description = (
        f"the published schema's {code.removeprefix('schema.')!r} keyword" if code.startswith("schema.") else name
    )
    return {
        "id": code,
        "name": name,
        "shortDescription": {"text": description},
        "defaultConfiguration": {"level": level},
    }


def _result(verdict: ArtifactVerdict, finding: Finding, rule_index: int) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": artifact_uri(whole(verdict.source))}}
    if verdict.line is not None:
        physical["region"] = {"startLine": verdict.line}
    location: dict[str, Any] = {"physicalLocation": physical}
    if finding.pointer:
        location["logicalLocations"] = [{"fullyQualifiedName": whole(finding.pointer), "kind": "object"}]
    return {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": "error" if finding.is_error else "warning",
        "message": {"text": f"{plain(finding.pointer or '/')} {plain(finding.message)}"},
        "locations": [location],
        "properties": {"layer": finding.layer, "kind": verdict.kind},
    }


def validation_sarif_dict(summary: ValidationSummary) -> dict[str, Any]:
    rules: dict[str, int] = {}
    levels: dict[str, str] = {}
    results = []
    for verdict in summary.verdicts:
        for finding in verdict.findings:
            index = rules.setdefault(finding.code, len(rules))
            levels.setdefault(finding.code, "error" if finding.is_error else "warning")
            results.append(_result(verdict, finding, index))
    artifacts = [
        {"location": {"uri": artifact_uri(whole(record.path))}, "hashes": {"sha-256": record.sha256}}
        for record in summary.inputs
        if record.sha256 and record.complete
    ]
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "evalscore",
                "version": __version__,
                "rules": [_rule(code, levels[code]) for code in rules],
            }
        },
        "invocations": [
            {
                "executionSuccessful": summary.exit_code in (0, 1),
                "exitCode": summary.exit_code,
                "properties": {
                    "artifacts": summary.artifacts,
                    "invalid": summary.invalid,
                    "warnings": summary.warnings,
                    "unlisted_artifacts": summary.unlisted,
                },
            }
        ],
        "results": results,
    }
    if artifacts:
        run["artifacts"] = artifacts
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def render_validation_sarif(summary: ValidationSummary) -> str:
    return dumps_text(validation_sarif_dict(summary))
