"""``--format markdown`` for score: a short summary for a CI job page (``$GITHUB_STEP_SUMMARY``).

The decision and its reasons first, then each rate with its numerator and denominator, the oversight
signals (reported, never graded), and the violations (mandated gates first, with a count per reason),
refusals and disagreements, each list cut after ``LISTED_ROWS`` rows with the number left out, so the
summary stays short whatever the log. Text from the log is escaped: it shows as written, never as
markup or HTML.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from evalscore.reporters._formats import (
    decision_headline,
    interval_text,
    json_value,
    markdown_text,
    step_place,
    violations_found,
)
from evalscore.reporters.score_text import RATE_LABELS, fast_approvals_text
from evalscore.scoring.report import RateCount, ScoreReport

LISTED_ROWS: Final = 20
"""Rows of violations, of refusals and of disagreements a summary shows; the rest are counted."""


def _rate(value: float | None, count: RateCount) -> tuple[str, str]:
    shown = "unknown (no data)" if value is None else f"{value:.3f}"
    return shown, f"{count.numerator:g} / {count.denominator:g}"


def _rates(report: ScoreReport) -> Iterator[str]:
    basis = "re-derived from the evidence" if report.source == "rederived" else "as recorded, not re-derived"
    yield f"### Rates ({basis}; scoring model {report.scoring_model or 'mixed'})"
    yield ""
    yield f"| rate | value | from | {report.decision.thresholds.confidence * 100:g}% interval |"
    yield "|---|---:|---:|---:|"
    for key, label in RATE_LABELS:
        counts = getattr(report.counts, key)
        value, count = _rate(getattr(report.rates, key), counts)
        yield f"| {label} | {value} | {count} | {interval_text(counts.interval)} |"
    for dimension, mean in report.rates.dimension_means.items():
        if mean is not None:
            counts = report.counts.dimension_means[dimension]
            counted, spread = _rate(mean, counts)[1], interval_text(counts.interval)
            yield f"| mean {dimension} (0-3) | {mean:.2f} | {counted} | {spread} |"
    counts = report.counts
    yield ""
    yield (
        f"{counts.total_steps} step(s): {counts.scored_steps} with an auto score, {counts.unscored_steps} unscored, "
        f"{counts.refused_steps} refused; {counts.reviewed_steps} reviewed."
    )


def _signals(report: ScoreReport) -> Iterator[str]:
    signals = report.signals
    never = "unknown" if signals.never_denied is None else ("yes" if signals.never_denied else "no")
    yield "### Oversight signals (reported, never graded; they never change the exit code)"
    yield ""
    yield "| signal | gates |"
    yield "|---|---:|"
    yield f"| resolved gates | {signals.resolved_gates} |"
    yield f"| approvals / denials / unresolved | {signals.approvals} / {signals.denials} / {signals.unresolved} |"
    yield f"| resolved with no overseer recorded | {signals.without_overseer} |"
    yield f"| resolved by two or more distinct overseers | {signals.four_eyes} |"
    yield f"| resolved with latency not observed | {signals.latency_unavailable} |"
    thresholds = signals.thresholds
    yield (
        f"| approved faster than {thresholds.fast_approval_floor_ms:g} ms + "
        f"{thresholds.fast_approval_ms_per_char:g} ms/char of surfaced text | "
        f"{fast_approvals_text(signals.fast_approvals, signals.fast_approvals_by_bound)} |"
    )
    yield f"| never denied an approval request | {never} |"


def _refusals(report: ScoreReport) -> Iterator[str]:
    total = len(report.refusals) + report.unlisted_refusals
    if not total:
        return
    yield f"### Refusals ({total})"
    yield ""
    yield "| code | where | reason |"
    yield "|---|---|---|"
    for refusal in report.refusals[:LISTED_ROWS]:
        where = markdown_text(f"{refusal.source} {refusal.pointer}".strip(), 200)
        yield f"| {refusal.code} | {where} | {markdown_text(refusal.reason)} |"
    if total > LISTED_ROWS:
        yield ""
        yield f"... and {total - min(LISTED_ROWS, len(report.refusals)):,} more (the JSON report lists more)."


def _disagreements(report: ScoreReport) -> Iterator[str]:
    total = len(report.disagreements) + report.unlisted_disagreements
    if not total:
        return
    yield f"### Recorded scores the evidence contradicts ({total})"
    yield ""
    yield "| where | field | recorded | evidence |"
    yield "|---|---|---|---|"
    for item in report.disagreements[:LISTED_ROWS]:
        where = markdown_text(f"{item.source} {item.pointer}", 200)
        recorded, rederived = (markdown_text(json_value(value), 200) for value in (item.recorded, item.rederived))
        yield f"| {where} | {markdown_text(item.field)} | {recorded} | {rederived} |"
    if total > LISTED_ROWS:
        yield ""
        shown = min(LISTED_ROWS, len(report.disagreements))
        yield f"... and {total - shown:,} more (the JSON report lists more)."


def _violations(report: ScoreReport) -> Iterator[str]:
    total = violations_found(report)
    if not total:
        return
    yield f"### Violations ({total:,}, mandated gates first)"
    yield ""
    if report.violation_counts is not None:
        yield "| rate | reason | found |"
        yield "|---|---|---:|"
        for reason in report.violation_counts.by_reason:
            yield f"| {reason.rate} | {reason.code} | {reason.count:,} |"
        yield ""
    yield "| reason | where | step | why |"
    yield "|---|---|---|---|"
    for item in report.violations[:LISTED_ROWS]:
        where = markdown_text(f"{item.source} {item.pointer}", 200)
        yield f"| {item.code} | {where} | {markdown_text(step_place(item), 200)} | {markdown_text(item.message)} |"
    shown = min(LISTED_ROWS, len(report.violations))
    if total > shown:
        yield ""
        yield f"... and {total - shown:,} more (the JSON report lists more)."


def _lines(report: ScoreReport) -> Iterator[str]:
    decision = report.decision
    yield "## evalscore score: " + " ".join(decision_headline(decision.outcome, decision.exit_code))
    yield ""
    yield from (f"- {markdown_text(reason)}" for reason in decision.reasons)
    yield ""
    for section in (_rates, _signals, _violations, _refusals, _disagreements):
        lines = list(section(report))
        if lines:
            yield from lines
            yield ""


def render_score_markdown(report: ScoreReport) -> str:
    return "\n".join(_lines(report)).rstrip("\n") + "\n"
