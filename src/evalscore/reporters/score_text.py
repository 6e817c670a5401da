"""``--format text`` for score: rates with the counts behind them, the unscored
oversight signals in a section of their own, findings, and the decision last."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Final

from rich.console import Console
from rich.table import Table

from evalscore.reporters._formats import decision_headline, interval_text, reason_groups, step_place, violations_found
from evalscore.reporters._safe_text import shown, shown_message
from evalscore.scoring.report import RateCount, ScoreReport, ToolSignal

TOOLS_LISTED: Final = 50
"""Target tools the signals table has a row for; the JSON and HTML reports list every one."""
RATE_LABELS = (
    ("mandated_compliance_rate", "mandated gate compliance"),
    ("discretionary_ask_precision", "discretionary ask precision"),
    ("discretionary_blocker_recall", "discretionary blocker recall"),
    ("tool_match_accuracy", "tool match accuracy"),
    ("distraction_detection_rate", "distraction detection"),
    ("golden_truth_pass_rate", "golden truth pass rate"),
    ("prefilled_ratio", "pre-filled (LLM-drafted) reviews"),
)


def _figure(value: float | None) -> str:
    return "unknown (no data)" if value is None else f"{value:.3f}"


def _count(count: RateCount) -> str:
    return f"{count.numerator:g} / {count.denominator:g}"


def _rates_table(report: ScoreReport) -> Table:
    basis = "re-derived from evidence" if report.source == "rederived" else "as recorded, not re-derived"
    model = report.scoring_model or "mixed"
    confidence = report.decision.thresholds.confidence
    table = Table(title=f"Rates ({basis}; scoring model {model})", title_justify="left", expand=False)
    table.add_column("rate", overflow="ellipsis")
    table.add_column("value", justify="right", overflow="ellipsis")
    table.add_column("from", justify="right", overflow="ellipsis")
    table.add_column(f"{confidence * 100:g}% interval", justify="right", overflow="ellipsis")
    for key, label in RATE_LABELS:
        count: RateCount = getattr(report.counts, key)
        extra = ""
        if key == "discretionary_blocker_recall" and report.counts.discretionary_blocker_recall.basis:
            extra = f" ({report.counts.discretionary_blocker_recall.basis})"
        table.add_row(label + extra, _figure(getattr(report.rates, key)), _count(count), interval_text(count.interval))
    for dimension, mean in report.rates.dimension_means.items():
        if mean is not None:
            count = report.counts.dimension_means[dimension]
            table.add_row(f"mean {dimension} (0-3)", f"{mean:.2f}", _count(count), interval_text(count.interval))
    return table


def _signals_table(report: ScoreReport) -> Table:
    signals = report.signals
    table = Table(
        title="Oversight signals (reported, never graded; they never change the exit code)",
        title_justify="left",
    )
    table.add_column("signal", overflow="ellipsis")
    table.add_column("gates", justify="right", overflow="ellipsis")
    never_denied = "unknown" if signals.never_denied is None else ("yes" if signals.never_denied else "no")
    fast = (
        f"approved faster than {signals.thresholds.fast_approval_floor_ms:g} ms + "
        f"{signals.thresholds.fast_approval_ms_per_char:g} ms/char of surfaced text"
    )
    for label, value in (
        ("resolved gates", str(signals.resolved_gates)),
        ("approvals / denials / unresolved", f"{signals.approvals} / {signals.denials} / {signals.unresolved}"),
        ("resolved with no overseer recorded", str(signals.without_overseer)),
        ("resolved by two or more distinct overseers", str(signals.four_eyes)),
        ("resolved with latency not observed", str(signals.latency_unavailable)),
        (fast, fast_approvals_text(signals.fast_approvals, signals.fast_approvals_by_bound)),
        ("never denied an approval request", never_denied),
    ):
        table.add_row(label, value)
    tools = listed_tools(signals.by_target_tool)
    for tool in tools:
        name = tool.target_tool if tool.target_tool is not None else "(no target tool)"
        table.add_row(
            f"  {shown(name)}: approvals / denials, never denied",
            f"{tool.approvals} / {tool.denials}, {'yes' if tool.never_denied else 'no'}",
        )
    unlisted = len(signals.by_target_tool) - len(tools)
    if unlisted:
        table.add_row(f"  ... and {unlisted:,} more target tools (--format json lists every one)", "")
    return table


def listed_tools(tools: Sequence[ToolSignal]) -> list[ToolSignal]:
    """The ``TOOLS_LISTED`` target tools with the most decided requests, in the report's order: a
    terminal table of every tool of a log that names 120,000 took 48 s to draw, and no one reads it."""
    if len(tools) <= TOOLS_LISTED:
        return list(tools)
    busiest = sorted(range(len(tools)), key=lambda index: -(tools[index].approvals + tools[index].denials))
    return [tools[index] for index in sorted(busiest[:TOOLS_LISTED])]


TEXT_LISTED: Final = 20
"""Violations, disagreements and refusals each printed at most, unless ``-v``: then every one the report lists."""


def _render_findings(console: Console, report: ScoreReport, verbosity: int) -> None:
    _render_violations(console, report, len(report.violations) if verbosity > 0 else TEXT_LISTED)
    if report.disagreements:
        total = len(report.disagreements) + report.unlisted_disagreements
        console.print(f"[bold]Recorded scores that disagree with the evidence[/] ({total}):")
        for item in report.disagreements[: len(report.disagreements) if verbosity > 0 else TEXT_LISTED]:
            console.print(
                f"  {shown(item.source)} {shown(item.pointer)}: {shown(item.field)} recorded "
                f"{shown(repr(item.recorded))}, evidence gives {shown(repr(item.rederived))} "
                f"(under {item.scoring_model})",
                highlight=False,
                soft_wrap=True,
            )
        _render_more(console, total, verbosity, "disagreement(s)", len(report.disagreements))
    if report.refusals:
        total = len(report.refusals) + report.unlisted_refusals
        console.print(f"[bold]Refused: not derivable honestly[/] ({total}):")
        for refusal in report.refusals[: len(report.refusals) if verbosity > 0 else TEXT_LISTED]:
            console.print(
                f"  {refusal.code} {shown(refusal.source)} {shown(refusal.pointer or '/')}: "
                f"{shown_message(refusal.reason)}",
                highlight=False,
                soft_wrap=True,
            )
        _render_more(console, total, verbosity, "refusal(s)", len(report.refusals))


def _render_violations(console: Console, report: ScoreReport, limit: int) -> None:
    total = violations_found(report)
    if not total:
        return
    console.print(f"[bold]Violations[/] ({total:,}, mandated gates first):", highlight=False)
    for rate, code, found, positions in reason_groups(report, limit):
        console.print(f"  {rate} {code} ({found:,}):", highlight=False, soft_wrap=True)
        for position in positions:
            item = report.violations[position]
            console.print(
                f"    {shown(item.source)} {shown(item.pointer)} ({shown(step_place(item))}): "
                f"{shown_message(item.message)}",
                highlight=False,
                soft_wrap=True,
            )
    printed = min(limit, len(report.violations))
    if total > printed:
        more = (
            "-v prints every one listed, --format json lists them"
            if printed < len(report.violations)
            else ("--max-listed lists more in --format json")
        )
        console.print(f"  ... and {total - printed:,} more violation(s) ({more})", highlight=False, soft_wrap=True)


def _render_more(console: Console, total: int, verbosity: int, what: str, listed: int) -> None:
    printed = listed if verbosity > 0 else min(listed, TEXT_LISTED)
    if total > printed:
        console.print(
            f"  ... and {total - printed:,} more {what} (-v and --format json list more); the decision counts them",
            highlight=False,
            soft_wrap=True,
        )


def render_score_text(report: ScoreReport, *, color: bool = False, width: int = 100, verbosity: int = 0) -> str:
    """The report; with ``verbosity`` -1 only the decision, with 1 the inputs and their digests too.
    Free text is printed unwrapped (a line is grepped and copied whole); tables wrap only between words."""
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=color, no_color=not color, width=width, emoji=False)
    if verbosity >= 0:
        _render_body(console, report, verbosity)
    outcome = report.decision.outcome
    colour = {"pass": "green", "fail": "red", "refused": "yellow", "not-gated": "cyan"}[outcome]
    word, detail = decision_headline(outcome, report.decision.exit_code)
    console.print(f"[bold {colour}]{word}[/] {detail}", highlight=False)
    for reason in report.decision.reasons:
        console.print(f"  {shown_message(reason)}", highlight=False, soft_wrap=True)
    return buffer.getvalue()


def _render_body(console: Console, report: ScoreReport, verbosity: int) -> None:
    counts = report.counts
    console.print(
        f"{len(report.inputs)} input(s); {counts.total_steps} step(s): {counts.scored_steps} with an auto score, "
        f"{counts.unscored_steps} unscored, {counts.refused_steps} refused; {counts.reviewed_steps} reviewed.",
        highlight=False,
        soft_wrap=True,
    )
    if verbosity > 0:
        for entry in report.inputs:
            console.print(
                f"input: {shown(entry.path)} ({entry.kind}) sha256 {entry.sha256}", highlight=False, soft_wrap=True
            )
    for note in report.notes:
        console.print(f"note: {shown_message(note)}", highlight=False, soft_wrap=True)
    console.print(_rates_table(report))
    console.print(_signals_table(report))
    _render_findings(console, report, verbosity)
    for check in report.decision.checks:
        console.print(
            f"  check {shown(check.name)}: {check.outcome} - {shown_message(check.reason)}",
            highlight=False,
            soft_wrap=True,
        )


def fast_approvals_text(fast_approvals: int, by_bound: int) -> str:
    """The fast-approval count, and how many of them rest on an upper bound rather than a latency."""
    if not by_bound:
        return str(fast_approvals)
    return f"{fast_approvals} ({by_bound} proven by an upper bound on an unobserved latency)"
