"""``--format text`` for validate: invalid artifacts first-finding-first, then the totals."""

from __future__ import annotations

import io

from rich.console import Console

from evalscore.reporters._safe_text import shown, shown_message
from evalscore.validation.summary import ArtifactVerdict, ValidationSummary


def _where(verdict: ArtifactVerdict) -> str:
    source = shown(verdict.source)
    return f"{source}:{verdict.line}" if verdict.line is not None else source


def _render_verdict(console: Console, verdict: ArtifactVerdict, strict: bool) -> None:
    mark = "[green]ok[/]" if verdict.valid(strict) else "[bold red]INVALID[/]"
    kind = verdict.kind or "unknown kind"
    at_least = "" if verdict.complete else "at least "
    console.print(
        f"{mark} {_where(verdict)} ({kind}): {at_least}{verdict.errors} error(s), {verdict.warnings} warning(s)",
        highlight=False,
    )
    for finding in verdict.findings:
        colour = "red" if finding.is_error else "yellow"
        console.print(
            f"  [{colour}]{finding.severity}[/] {finding.layer} {finding.code} {shown(finding.pointer or '/')}: "
            f"{shown_message(finding.message)}",
            highlight=False,
        )
    if verdict.omitted and verdict.complete:
        console.print(f"  ... and {verdict.omitted} more finding(s); use --max-errors 0 to show all", highlight=False)
    elif not verdict.complete:
        console.print(
            f"  ... and at least {verdict.omitted} more finding(s); use --max-errors 0 to find and show all",
            highlight=False,
        )


def render_validation_text(summary: ValidationSummary, *, color: bool = False, width: int = 100) -> str:
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=color, no_color=not color, width=width, soft_wrap=True)
    for verdict in summary.verdicts:
        if verdict.findings or not verdict.valid(summary.strict):
            _render_verdict(console, verdict, summary.strict)
    if summary.unlisted_with_findings:
        console.print(
            f"... and {summary.unlisted_with_findings} more artifact(s) with findings, not listed "
            f"(past the first {summary.listed_per_group:,}); the totals below count them",
            highlight=False,
        )
    total = summary.artifacts
    valid = total - summary.invalid
    verdict_word = "[green]VALID[/]" if summary.exit_code == 0 else "[bold red]INVALID[/]"
    if summary.internal_errors:
        verdict_word = "[bold red]INTERNAL ERROR[/] (a bug in evalscore, see ES099 above)"
    elif summary.unreadable:
        verdict_word = "[bold red]UNREADABLE INPUT[/]"
    elif not summary.artifacts:
        verdict_word = "[bold red]NO ARTIFACT FOUND[/] (no .json, .jsonl, .yaml or .yml file under the paths)"
    console.print(
        f"{verdict_word}: {total} artifact(s) in {len(summary.inputs)} input(s): {valid} valid, "
        f"{summary.invalid} invalid, {summary.warnings} warning(s)"
        + (" (--strict: warnings fail)" if summary.strict else ""),
        highlight=False,
    )
    return buffer.getvalue()
