"""``--format text`` for validate: invalid artifacts first-finding-first, then the totals.

One line per verdict and per finding, never wrapped (a finding is read, grepped and copied as
one line); every text from the input is made printable and long ids are cut in the middle.
"""

from __future__ import annotations

from collections.abc import Iterator

from evalscore.printable import ID_LIMIT, MESSAGE_LIMIT, shortened
from evalscore.reporters.ansi import colour_wanted, painted
from evalscore.validation.summary import ArtifactVerdict, ValidationSummary


def _where(verdict: ArtifactVerdict) -> str:
    source = shortened(verdict.source, ID_LIMIT)
    return f"{source}:{verdict.line}" if verdict.line is not None else source


def _verdict_lines(verdict: ArtifactVerdict, strict: bool, show_all: str, color: bool) -> Iterator[str]:
    mark = painted("ok", "green", color) if verdict.valid(strict) else painted("INVALID", "bold red", color)
    kind = verdict.kind or "unknown kind"
    at_least = "" if verdict.complete else "at least "
    yield f"{mark} {_where(verdict)} ({kind}): {at_least}{verdict.errors} error(s), {verdict.warnings} warning(s)"
    for finding in verdict.findings:
        severity = painted(finding.severity, "red" if finding.is_error else "yellow", color)
        yield (
            f"  {severity} {finding.layer} {finding.code} {shortened(finding.pointer or '/', ID_LIMIT)}: "
            f"{shortened(finding.message, MESSAGE_LIMIT)}"
        )
    if verdict.omitted and verdict.complete:
        yield f"  ... and {verdict.omitted} more finding(s); use {show_all} to show all"
    elif not verdict.complete:
        yield f"  ... and at least {verdict.omitted} more finding(s); use {show_all} to find and show all"


def _totals_line(summary: ValidationSummary, color: bool) -> str:
    verdict_word = painted("VALID", "green", color) if summary.exit_code == 0 else painted("INVALID", "bold red", color)
    if summary.internal_errors:
        verdict_word = painted("INTERNAL ERROR", "bold red", color) + " (a bug in evalscore, see ES099 above)"
    elif summary.unreadable:
        verdict_word = painted("UNREADABLE INPUT", "bold red", color)
    elif not summary.artifacts:
        verdict_word = (
            painted("NO ARTIFACT FOUND", "bold red", color) + " (no .json, .jsonl, .yaml or .yml file under the paths)"
        )
    total = summary.artifacts
    return (
        f"{verdict_word}: {total} artifact(s) in {len(summary.inputs)} input(s): {total - summary.invalid} valid, "
        f"{summary.invalid} invalid, {summary.warnings} warning(s)"
        + (" (--strict: warnings fail)" if summary.strict else "")
    )


def _report_lines(summary: ValidationSummary, color: bool) -> Iterator[str]:
    for verdict in summary.verdicts:
        if verdict.findings or not verdict.valid(summary.strict):
            yield from _verdict_lines(verdict, summary.strict, summary.show_all, color)
    if summary.unlisted_with_findings:
        yield (
            f"... and {summary.unlisted_with_findings} more artifact(s) with findings, not listed "
            f"(past the first {summary.listed_per_group:,}); the totals below count them"
        )
    yield _totals_line(summary, color)


def render_validation_text(summary: ValidationSummary, *, color: bool = False, width: int = 100) -> str:
    """The report; ``width`` is accepted for the reporters' common signature (lines are never wrapped)."""
    return "".join(line + "\n" for line in _report_lines(summary, colour_wanted(color)))
