"""``--format text`` for validate: one line per finding, ``path:line:col: CODE pointer message``, then the totals.

The message opens with the finding's layer and severity (``contract error: ...``), so each line says
whether the shape or the meaning is wrong and whether it fails the artifact.
A finding is read, grepped, clicked in an editor and copied as one line, so lines are never wrapped;
the line and column are those of the offending value (its JSONL line and column, or its line and
column in a JSON or YAML document: ``inputs.positions``), left out where not known. With ``-v`` every
listed artifact also gets its verdict line; with ``-q`` only the totals are printed. Every text from
the input is made printable and long ids are cut in the middle.
"""

from __future__ import annotations

from collections.abc import Iterator

from evalscore.findings import Finding
from evalscore.printable import ID_LIMIT, MESSAGE_LIMIT, shortened
from evalscore.reporters.ansi import painted
from evalscore.validation.summary import ArtifactVerdict, ValidationSummary

QUIET = -1
VERBOSE = 1


def _where(verdict: ArtifactVerdict) -> str:
    source = shortened(verdict.source, ID_LIMIT)
    return f"{source}:{verdict.line}" if verdict.line is not None else source


def finding_place(verdict: ArtifactVerdict, finding: Finding) -> str:
    """``path``, ``path:line`` or ``path:line:col``: as much of where the finding is as is known."""
    place = shortened(verdict.source, ID_LIMIT)
    line = finding.line if finding.line is not None else verdict.line
    if line is None:
        return place
    return f"{place}:{line}:{finding.column}" if finding.column is not None else f"{place}:{line}"


def _verdict_line(verdict: ArtifactVerdict, strict: bool, color: bool) -> str:
    mark = painted("ok", "green", color) if verdict.valid(strict) else painted("INVALID", "bold red", color)
    kind = verdict.kind or "unknown kind"
    at_least = "" if verdict.complete else "at least "
    return f"{mark} {_where(verdict)} ({kind}): {at_least}{verdict.errors} error(s), {verdict.warnings} warning(s)"


def _finding_lines(verdict: ArtifactVerdict, show_all: str, color: bool) -> Iterator[str]:
    for finding in verdict.findings:
        code = painted(finding.code, "red" if finding.is_error else "yellow", color)
        yield (
            f"{finding_place(verdict, finding)}: {code} {shortened(finding.pointer or '/', ID_LIMIT)} "
            f"{finding.layer} {finding.severity}: {shortened(finding.message, MESSAGE_LIMIT)}"
        )
    if verdict.omitted and verdict.complete:
        yield f"{_where(verdict)}: ... and {verdict.omitted} more finding(s); use {show_all} to show all"
    elif not verdict.complete:
        more = f"... and at least {verdict.omitted} more finding(s); use {show_all} to find and show all"
        yield f"{_where(verdict)}: {more}"


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


def _report_lines(summary: ValidationSummary, color: bool, verbosity: int) -> Iterator[str]:
    if verbosity > QUIET:
        for verdict in summary.verdicts:
            noteworthy = bool(verdict.findings) or not verdict.valid(summary.strict)
            if verbosity >= VERBOSE:
                yield _verdict_line(verdict, summary.strict, color)
            if noteworthy:
                yield from _finding_lines(verdict, summary.show_all, color)
        if summary.unlisted_with_findings:
            yield (
                f"... and {summary.unlisted_with_findings} more artifact(s) with findings, not listed "
                f"(past the first {summary.listed_per_group:,}, or {summary.listed_text:,} characters of findings); "
                "the totals below count them"
            )
    yield _totals_line(summary, color)


def render_validation_text(
    summary: ValidationSummary, *, color: bool = False, width: int = 100, verbosity: int = 0
) -> str:
    """The report; ``width`` is accepted for the reporters' common signature (lines are never wrapped)."""
    return "".join(line + "\n" for line in _report_lines(summary, color, verbosity))
