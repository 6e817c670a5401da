"""``--format github`` for validate: GitHub Actions workflow commands, one annotation per finding.

``::error file=PATH,line=N,title=CODE::POINTER MESSAGE`` (``::warning`` for a warning), so each
finding is shown on the file (and the JSONL line) in the pull request; then one ``::notice`` or
``::error`` with the totals. Properties and messages are escaped as the runner reads them (``%``,
CR, LF; in properties also ``:`` and ``,``), after every control character of the log is shown as
an escape, so no text from a log can end a command or start one of its own.
"""

from __future__ import annotations

from collections.abc import Iterator

from evalscore.findings import Finding
from evalscore.reporters._formats import plain, workflow_data, workflow_property
from evalscore.validation.summary import ArtifactVerdict, ValidationSummary


def annotation(level: str, file: str | None, line: int | None, title: str, message: str) -> str:
    """One workflow command: ``::LEVEL file=...,line=...,title=...::message``."""
    properties = []
    if file:
        properties.append(f"file={workflow_property(plain(file))}")
    if line is not None:
        properties.append(f"line={line}")
    properties.append(f"title={workflow_property(plain(title))}")
    return f"::{level} {','.join(properties)}::{workflow_data(message)}"


def _finding_annotation(verdict: ArtifactVerdict, finding: Finding) -> str:
    level = "error" if finding.is_error else "warning"
    message = f"{plain(finding.pointer or '/')} {plain(finding.message)}"
    return annotation(level, verdict.source, verdict.line, f"{finding.code} ({finding.layer})", message)


def _lines(summary: ValidationSummary) -> Iterator[str]:
    for verdict in summary.verdicts:
        for finding in verdict.findings:
            yield _finding_annotation(verdict, finding)
        if verdict.omitted or not verdict.complete:
            more = f"{'at least ' if not verdict.complete else ''}{verdict.omitted} more finding(s) not shown"
            yield annotation("error" if verdict.errors else "warning", verdict.source, verdict.line, "more", more)
    totals = (
        f"{summary.artifacts} artifact(s) in {len(summary.inputs)} input(s): "
        f"{summary.artifacts - summary.invalid} valid, {summary.invalid} invalid, {summary.warnings} warning(s)"
    )
    if summary.unlisted_with_findings:
        totals += f"; {summary.unlisted_with_findings} artifact(s) with findings not listed"
    level = "notice" if summary.exit_code == 0 else "error"
    yield annotation(level, None, None, "evalscore validate", f"{totals} (exit {summary.exit_code})")


def render_validation_github(summary: ValidationSummary) -> str:
    return "".join(line + "\n" for line in _lines(summary))
