"""``--format markdown`` for validate: the totals and the invalid artifacts, for a CI job page.

One line with the verdict and the totals, then a table of the artifacts with findings (each with its
most useful finding), cut after ``LISTED_ROWS`` rows with the number left out. Text from the log and
the paths is escaped: it shows as written, never as markup or HTML.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from evalscore.reporters._formats import markdown_text
from evalscore.validation.summary import ValidationSummary

LISTED_ROWS: Final = 50
"""Artifacts with findings a summary shows; the rest are counted."""


def _lines(summary: ValidationSummary) -> Iterator[str]:
    verdict = "VALID" if summary.exit_code == 0 else "INVALID"
    yield f"## evalscore validate: {verdict} (exit {summary.exit_code})"
    yield ""
    yield (
        f"{summary.artifacts} artifact(s) in {len(summary.inputs)} input(s): {summary.artifacts - summary.invalid} "
        f"valid, {summary.invalid} invalid, {summary.warnings} warning(s)" + (" (--strict)" if summary.strict else "")
    )
    noteworthy = [verdict for verdict in summary.verdicts if verdict.findings or not verdict.valid(summary.strict)]
    total = len(noteworthy) + summary.unlisted_with_findings
    if not total:
        return
    yield ""
    yield "| artifact | kind | errors | warnings | first finding |"
    yield "|---|---|---:|---:|---|"
    for item in noteworthy[:LISTED_ROWS]:
        where = f"{item.source}:{item.line}" if item.line is not None else item.source
        first = item.findings[0] if item.findings else None
        shown = markdown_text(f"{first.code} {first.pointer or '/'} {first.message}") if first else ""
        at_least = "" if item.complete else "≥ "
        yield (
            f"| {markdown_text(where, 200)} | {item.kind or 'unknown'} | {at_least}{item.errors} | "
            f"{item.warnings} | {shown} |"
        )
    if total > LISTED_ROWS:
        yield ""
        yield f"... and {total - min(LISTED_ROWS, len(noteworthy)):,} more artifact(s) with findings."


def render_validation_markdown(summary: ValidationSummary) -> str:
    return "\n".join(_lines(summary)) + "\n"
