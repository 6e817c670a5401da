"""``--format github`` for score: the decision, failed or refused checks, refusals and disagreements
as GitHub Actions workflow commands, each on the run's file and JSONL line when it has one."""

from __future__ import annotations

from collections.abc import Iterator

from evalscore.reporters._formats import decision_headline, json_value, located, plain
from evalscore.reporters.validation_github import annotation
from evalscore.scoring.report import ScoreReport

_LEVEL = {"pass": "notice", "fail": "error", "refused": "error"}


def _lines(report: ScoreReport) -> Iterator[str]:
    inputs = [entry.path for entry in report.inputs]
    for check in report.decision.checks:
        if check.outcome != "pass":
            yield annotation("error", None, None, f"{check.outcome}: {check.name}", plain(check.reason))
    for refusal in report.refusals:
        file, line = located(refusal.source, inputs)
        message = plain(f"{refusal.pointer} {refusal.reason}")
        yield annotation("error", file or None, line, f"refused: {refusal.code}", message)
    if report.unlisted_refusals:
        yield annotation("error", None, None, "refused", f"{report.unlisted_refusals} more refusal(s), not listed")
    for item in report.disagreements:
        file, line = located(item.source, inputs)
        recorded, rederived = json_value(item.recorded), json_value(item.rederived)
        message = plain(f"{item.pointer}: recorded {recorded}, the evidence gives {rederived}")
        yield annotation("error", file, line, f"disagreement: {item.field}", message)
    if report.unlisted_disagreements:
        yield annotation("error", None, None, "disagreement", f"{report.unlisted_disagreements} more, not listed")
    decision = report.decision
    reasons = "; ".join(plain(reason) for reason in decision.reasons)
    title = "evalscore score: " + " ".join(decision_headline(decision.outcome, decision.exit_code))
    yield annotation(_LEVEL[decision.outcome], None, None, title, reasons)


def render_score_github(report: ScoreReport) -> str:
    return "".join(line + "\n" for line in _lines(report))
