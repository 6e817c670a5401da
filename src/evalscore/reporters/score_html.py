"""The HTML report of a score: one self-contained page a reviewer opens from a CI artifact.

The decision and why first; each rate with its numerator and denominator, and a bar; per target tool,
approval requests approved, denied and left unresolved; the distribution of observed approval
latencies with the fast-approval floor drawn and the approvals whose latency is unknown counted
beside it (never drawn as zero); who oversaw the gates; the violations by reason, and the refusals and
disagreements, with their JSON Pointers. Charts are inline SVG from matplotlib (``_plots``); the page
loads nothing: no script, no stylesheet, font or image from anywhere. Every text from a log is escaped
for HTML after being made printable.
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Sequence
from typing import Final

from evalscore.reporters._formats import (
    decision_headline,
    interval_text,
    json_value,
    plain,
    step_place,
    violations_found,
)
from evalscore.reporters._plots import RateBar, ToolCounts, latency_chart, rates_chart, tools_chart
from evalscore.reporters.score_text import RATE_LABELS
from evalscore.scoring.report import RateCount, ScoreReport

LISTED_ROWS: Final = 200
"""Rows of violations, of refusals and of disagreements the page shows; the rest are counted (the JSON report
lists more)."""
CHARTED_TOOLS: Final = 30
"""Target tools charted, those with the most approval requests first; all are in the table."""

_STYLE: Final = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; color: #111; line-height: 1.4; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
.outcome { font-weight: bold; padding: 0.1rem 0.5rem; border-radius: 0.3rem; color: #fff; }
.pass { background: #2e7d32; } .fail { background: #c62828; } .refused { background: #6d4c41; }
.not-gated { background: #546e7a; }
table { border-collapse: collapse; margin: 0.5rem 0; } td, th { border: 1px solid #ddd; padding: 0.2rem 0.5rem; }
td.number { text-align: right; font-variant-numeric: tabular-nums; } .note { color: #555; }
code { font-size: 0.9em; word-break: break-all; } svg { max-width: 100%; height: auto; }
"""


def _text(text: str, limit: int = 600) -> str:
    return html.escape(plain(text, limit), quote=True)


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], numeric: frozenset[int] = frozenset()) -> str:
    head = "".join(f"<th>{html.escape(header)}</th>" for header in headers)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="number">{cell}</td>' if index in numeric else f"<td>{cell}</td>"
            for index, cell in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _cell(index: int, cell: str, numeric: frozenset[int]) -> str:
    return f'<td class="number">{cell}</td>' if index in numeric else f"<td>{cell}</td>"


def _figure(value: float | None) -> str:
    return "unknown (no data)" if value is None else f"{value:.3f}"


def _decision(report: ScoreReport) -> Iterator[str]:
    decision = report.decision
    yield '<section id="decision">'
    word, detail = decision_headline(decision.outcome, decision.exit_code)
    yield f'<h1>evalscore score: <span class="outcome {decision.outcome}">{word}</span> {detail}</h1>'
    yield "<ul>" + "".join(f"<li>{_text(reason)}</li>" for reason in decision.reasons) + "</ul>"
    basis = "re-derived from the evidence" if report.source == "rederived" else "as recorded, not re-derived"
    suites = ", ".join(f"{suite.id} {suite.version}" for suite in report.suites) or "none"
    yield (
        f'<p class="note">Figures {basis}, scoring model {html.escape(report.scoring_model or "mixed")}; '
        f"suites: {_text(suites)}; evalscore {html.escape(report.evalscore_version)}.</p>"
    )
    if decision.checks:
        rows = [[_text(check.name), html.escape(check.outcome), _text(check.reason)] for check in decision.checks]
        yield _table(["check", "outcome", "why"], rows)
    yield "</section>"


def _rates(report: ScoreReport) -> Iterator[str]:
    bars = []
    rows = []
    for key, label in RATE_LABELS:
        value: float | None = getattr(report.rates, key)
        count: RateCount = getattr(report.counts, key)
        bars.append(RateBar(label, value, count.numerator, count.denominator, count.interval))
        rows.append(
            [
                html.escape(label),
                _figure(value),
                f"{count.numerator:g} / {count.denominator:g}",
                interval_text(count.interval),
            ]
        )
    for dimension, mean in report.rates.dimension_means.items():
        count = report.counts.dimension_means[dimension]
        shown = "unknown (no data)" if mean is None else f"{mean:.2f}"
        rows.append(
            [
                f"mean {html.escape(dimension)} (0-3)",
                shown,
                f"{count.numerator:g} / {count.denominator:g}",
                interval_text(count.interval),
            ]
        )
    counts = report.counts
    yield '<section id="rates"><h2>Rates</h2>'
    yield rates_chart(bars)
    confidence = f"{report.decision.thresholds.confidence * 100:g}%"
    yield _table(["rate", "value", "from", f"{confidence} interval"], rows, frozenset({1, 2, 3}))
    yield (
        f'<p class="note">{counts.total_steps} step(s): {counts.scored_steps} with an auto score, '
        f"{counts.unscored_steps} unscored, {counts.refused_steps} refused; {counts.reviewed_steps} reviewed. "
        "A rate with no data is unknown, never 0 or 1.</p>"
    )
    yield "</section>"


def _tools(report: ScoreReport) -> list[ToolCounts]:
    tallies: dict[str | None, list[int]] = {}
    for entry in report.signals.by_target_tool:
        tallies.setdefault(entry.target_tool, [0, 0, 0])[:2] = [entry.approvals, entry.denials]
    for waiting in report.signals.unresolved_by_target_tool:
        tallies.setdefault(waiting.target_tool, [0, 0, 0])[2] = waiting.unresolved
    return [ToolCounts(tool, *counts) for tool, counts in tallies.items()]


def _per_tool(report: ScoreReport) -> Iterator[str]:
    tools = _tools(report)
    yield '<section id="tools"><h2>Approval requests per target tool</h2>'
    if not tools:
        yield '<p class="note">No approval request was approved, denied or left unresolved.</p></section>'
        return
    charted = sorted(tools, key=lambda tool: -(tool.approvals + tool.denials + tool.unresolved))[:CHARTED_TOOLS]
    yield tools_chart(charted)
    if len(tools) > CHARTED_TOOLS:
        yield (
            f'<p class="note">The {CHARTED_TOOLS} tools with the most requests are charted; '
            f"the table has all {len(tools)}.</p>"
        )
    rows = [
        [
            "<em>(no target tool)</em>" if tool.tool is None else f"<code>{_text(tool.tool, 200)}</code>",
            str(tool.approvals),
            str(tool.denials),
            str(tool.unresolved),
        ]
        for tool in tools
    ]
    yield _table(["target tool", "approved", "denied", "unresolved"], rows, frozenset({1, 2, 3}))
    yield "</section>"


def _latency(report: ScoreReport) -> Iterator[str]:
    signals = report.signals
    histogram = signals.approval_latencies
    thresholds = signals.thresholds
    yield '<section id="latency"><h2>Observed approval latencies</h2>'
    if histogram is None:
        yield '<p class="note">This report was written before evalscore kept the distribution of latencies.</p>'
    else:
        yield latency_chart(
            histogram.edges_ms,
            histogram.counts,
            histogram.unknown,
            thresholds.fast_approval_floor_ms,
            thresholds.fast_approval_ms_per_char,
        )
        yield (
            f'<p class="note">Approved approval requests: {sum(histogram.counts)} with an observed latency, '
            f'<strong id="latency-unknown">{histogram.unknown}</strong> whose latency is unknown (not plotted: '
            "unknown is not zero).</p>"
        )
    yield (
        f"<p>Fast approvals (faster than {thresholds.fast_approval_floor_ms:g} ms + "
        f"{thresholds.fast_approval_ms_per_char:g} ms per character of surfaced text): "
        f'<strong id="fast-approvals">{signals.fast_approvals}</strong>{_by_bound(signals.fast_approvals_by_bound)}. '
        "Resolved gates whose latency is unknown: "
        f"{signals.latency_unavailable}. Signals are reported, never graded: they never change the exit code.</p>"
    )
    yield "</section>"


def _overseers(report: ScoreReport) -> Iterator[str]:
    signals = report.signals
    never = "unknown" if signals.never_denied is None else ("yes" if signals.never_denied else "no")
    rows = [
        ["resolved gates", str(signals.resolved_gates)],
        ["approved / denied / unresolved", f"{signals.approvals} / {signals.denials} / {signals.unresolved}"],
        ['resolved with <strong id="without-overseer">no overseer recorded</strong>', str(signals.without_overseer)],
        ["resolved by two or more distinct overseers", str(signals.four_eyes)],
        ["never denied an approval request", never],
    ]
    yield '<section id="overseers"><h2>Who decided</h2>'
    yield _table(["signal", "gates"], rows, frozenset({1}))
    yield "</section>"


def _violations(report: ScoreReport) -> Iterator[str]:
    total = violations_found(report)
    yield f'<section id="violations"><h2>Violations ({total:,})</h2>'
    if not total:
        yield '<p class="note">No counted failure of any rate.</p></section>'
        return
    if report.violation_counts is not None:
        counts = [
            [html.escape(reason.rate), f"<code>{html.escape(reason.code)}</code>", f"{reason.count:,}"]
            for reason in report.violation_counts.by_reason
        ]
        yield _table(["rate", "reason", "found"], counts, frozenset({2}))
    rows = [
        [
            f"<code>{html.escape(item.code)}</code>",
            f"<code>{_text(item.source, 200)}</code>",
            _text(step_place(item), 300),
            f"<code>{_text(item.pointer, 300)}</code>",
            _text(item.message),
        ]
        for item in report.violations[:LISTED_ROWS]
    ]
    yield _table(["reason", "input", "step", "JSON Pointer", "why"], rows)
    shown = min(LISTED_ROWS, len(report.violations))
    if total > shown:
        yield f'<p class="note">... and {total - shown:,} more (the JSON report lists more).</p>'
    yield "</section>"


def _refusals(report: ScoreReport) -> Iterator[str]:
    total = len(report.refusals) + report.unlisted_refusals
    yield f'<section id="refusals"><h2>Refusals ({total})</h2>'
    if not total:
        yield '<p class="note">Nothing was refused.</p></section>'
        return
    rows = [
        [
            html.escape(refusal.code),
            f"<code>{_text(refusal.source, 200)}</code>",
            f"<code>{_text(refusal.pointer, 300)}</code>",
            str(refusal.steps),
            _text(refusal.reason),
        ]
        for refusal in report.refusals[:LISTED_ROWS]
    ]
    yield _table(["code", "input", "JSON Pointer", "steps", "why"], rows, frozenset({3}))
    shown = min(LISTED_ROWS, len(report.refusals))
    if total > shown:
        yield f'<p class="note">... and {total - shown:,} more, counted in the decision.</p>'
    yield "</section>"


def _disagreements(report: ScoreReport) -> Iterator[str]:
    total = len(report.disagreements) + report.unlisted_disagreements
    yield f'<section id="disagreements"><h2>Recorded scores the evidence contradicts ({total})</h2>'
    if not total:
        yield '<p class="note">No recorded score disagrees with the evidence.</p></section>'
        return
    rows = [
        [
            f"<code>{_text(item.source, 200)}</code>",
            f"<code>{_text(item.pointer, 300)}</code>",
            _text(item.field),
            f"<code>{_text(json_value(item.recorded), 300)}</code>",
            f"<code>{_text(json_value(item.rederived), 300)}</code>",
        ]
        for item in report.disagreements[:LISTED_ROWS]
    ]
    yield _table(["input", "JSON Pointer", "field", "recorded", "evidence"], rows)
    shown = min(LISTED_ROWS, len(report.disagreements))
    if total > shown:
        yield f'<p class="note">... and {total - shown:,} more, counted in the decision.</p>'
    yield "</section>"


def render_score_html(report: ScoreReport) -> str:
    """The page; raises ``PlottingUnavailableError`` when matplotlib is not installed."""
    sections = (_decision, _rates, _violations, _per_tool, _latency, _overseers, _refusals, _disagreements)
    body = "\n".join(part for section in sections for part in section(report))
    title = f"evalscore score: {decision_headline(report.decision.outcome, report.decision.exit_code)[0]}"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>\n<body>\n{body}\n</body></html>\n"
    )


def _by_bound(by_bound: int) -> str:
    if not by_bound:
        return ""
    count = f'<strong id="fast-approvals-by-bound">{by_bound}</strong>'
    return f" ({count} proven by an upper bound on an unobserved latency)"
