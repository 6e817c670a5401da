"""``--format github`` for score: failed or refused checks, violations, refusals and disagreements as
GitHub Actions workflow commands, each on the run's file and JSONL line when it has one, the decision last.

GitHub shows a few annotations of a step and drops the rest, so each list gives at most
``ANNOTATED`` of its items (violations mandated gates first) and then one line counting the others.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from evalscore.reporters._formats import decision_headline, json_value, located, plain, step_place, violations_found
from evalscore.reporters.validation_github import annotation
from evalscore.scoring.report import ScoreReport

ANNOTATED: Final = 50
"""Violations, refusals and disagreements annotated at most, each; the rest are counted in one line."""
_LEVEL = {"pass": "notice", "fail": "error", "refused": "error", "not-gated": "notice"}


def _more(total: int, annotated: int, what: str) -> Iterator[str]:
    if total > annotated:
        yield annotation("error", None, None, what, f"{total - annotated:,} more {what} not annotated (see the report)")


def _violations(report: ScoreReport, inputs: list[str]) -> Iterator[str]:
    items = report.violations[:ANNOTATED]
    for item in items:
        file, line = located(item.source, inputs)
        message = plain(f"{item.pointer} ({step_place(item)}): {item.message}")
        yield annotation("error", file, line, f"violation: {item.code} ({item.rate})", message)
    yield from _more(violations_found(report), len(items), "violation(s)")


def _lines(report: ScoreReport) -> Iterator[str]:
    inputs = [entry.path for entry in report.inputs]
    for check in report.decision.checks:
        if check.outcome != "pass":
            yield annotation("error", None, None, f"{check.outcome}: {check.name}", plain(check.reason))
    yield from _violations(report, inputs)
    for refusal in report.refusals[:ANNOTATED]:
        file, line = located(refusal.source, inputs)
        message = plain(f"{refusal.pointer} {refusal.reason}")
        yield annotation("error", file or None, line, f"refused: {refusal.code}", message)
    yield from _more(
        len(report.refusals) + report.unlisted_refusals, min(ANNOTATED, len(report.refusals)), "refusal(s)"
    )
    for item in report.disagreements[:ANNOTATED]:
        file, line = located(item.source, inputs)
        recorded, rederived = json_value(item.recorded), json_value(item.rederived)
        message = plain(f"{item.pointer}: recorded {recorded}, the evidence gives {rederived}")
        yield annotation("error", file, line, f"disagreement: {item.field}", message)
    total = len(report.disagreements) + report.unlisted_disagreements
    yield from _more(total, min(ANNOTATED, len(report.disagreements)), "disagreement(s)")
    decision = report.decision
    reasons = "; ".join(plain(reason) for reason in decision.reasons)
    title = "evalscore score: " + " ".join(decision_headline(decision.outcome, decision.exit_code))
    yield annotation(_LEVEL[decision.outcome], None, None, title, reasons)


def render_score_github(report: ScoreReport) -> str:
    return "".join(line + "\n" for line in _lines(report))
