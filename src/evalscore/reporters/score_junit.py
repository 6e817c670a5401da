"""``--format junit`` for score: the decision, each check, refusal and disagreement as a JUnit test case.

One ``testsuite`` named ``evalscore score``. The decision comes first and carries its reasons: a
``failure`` when it is fail, an ``error`` when it is refused (a figure that could not be derived
honestly is not a pass, and a CI system shows an error as red), ``skipped`` when nothing was gated.
Then each threshold and baseline check; one test case per step that holds a mandated gate, failing
exactly on the steps where a gate was violated, with the reasons; each refusal (an ``error``:
nothing could be decided there) and each disagreement between a recorded score and the evidence (a
``failure``). What the report counts but does not list is one test case per kind, so nothing the
decision counted is missing.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable

from evalscore.reporters._formats import json_value, plain
from evalscore.scoring.report import GatedStepEntry, ScoreReport, ViolationEntry

_CLASS = "evalscore.score"


def _case(suite: ET.Element, name: str, outcome: str | None, message: str, detail: str = "") -> None:
    case = ET.SubElement(suite, "testcase", name=plain(name), classname=_CLASS)
    if outcome is None:
        if detail:
            ET.SubElement(case, "system-out").text = plain(detail)
        return
    ET.SubElement(case, outcome, message=plain(message), type=outcome).text = plain(detail or message)


_OUTCOME_ELEMENT = {"pass": None, "fail": "failure", "refused": "error", "not-gated": "skipped"}


def _skipped(suite: ET.Element, name: str, reason: str) -> None:
    case = ET.SubElement(suite, "testcase", name=plain(name), classname=_CLASS)
    ET.SubElement(case, "skipped").text = plain(reason)


def _gated_steps(suite: ET.Element, report: ScoreReport) -> None:
    """A test case per step holding a mandated gate, failing on those where one was violated."""
    reasons: dict[tuple[str, str], list[ViolationEntry]] = {}
    for item in report.violations:
        if item.rate == "mandated_compliance_rate":
            reasons.setdefault((item.source, item.step_pointer), []).append(item)
    for step in report.mandated_steps:
        name = (
            f"gated step {step.source} {step.step_pointer} (run {step.run_id}, task {step.task_id}, step {step.step_n})"
        )
        if not step.violated:
            _case(suite, name, None, "", f"{step.required} gate(s) required, every one honored")
            continue
        _case(suite, name, "failure", _violated(step), _why(reasons.get((step.source, step.step_pointer), ())))
    _unlisted_steps(suite, report)


def _violated(step: GatedStepEntry) -> str:
    return f"{step.violated} of {step.required} gate(s) violated"


def _why(items: Iterable[ViolationEntry]) -> str:
    return "\n".join(f"{item.code} {item.pointer}: {item.message}" for item in items) or "see the JSON report"


def _unlisted_steps(suite: ET.Element, report: ScoreReport) -> None:
    unlisted = report.unlisted_mandated_steps
    if not unlisted:
        return
    found = sum(reason.count for reason in (report.violation_counts.by_reason if report.violation_counts else ())
                if reason.rate == "mandated_compliance_rate")  # fmt: skip
    in_listed = sum(step.violated for step in report.mandated_steps)
    name = f"{unlisted:,} more step(s) holding a mandated gate, not listed"
    if found > in_listed:
        _case(suite, name, "failure", f"{found - in_listed:,} gate(s) violated among them")
    else:
        _case(suite, name, None, "", "every gate honored")


def render_score_junit(report: ScoreReport) -> str:
    root = ET.Element("testsuites", name="evalscore score")
    suite = ET.SubElement(root, "testsuite", name="evalscore score")
    decision = report.decision
    reasons = "\n".join(decision.reasons)
    name = f"decision: {decision.outcome} (exit {decision.exit_code})"
    if decision.outcome == "not-gated":
        _skipped(suite, name, reasons)
    else:
        _case(suite, name, _OUTCOME_ELEMENT[decision.outcome], decision.reasons[0], reasons)
    for check in decision.checks:
        _case(suite, f"check {check.name}", _OUTCOME_ELEMENT[check.outcome], check.reason, check.reason)
    _gated_steps(suite, report)
    for refusal in report.refusals:
        where = f"{refusal.source} {refusal.pointer}".strip()
        _case(suite, f"refusal {refusal.code} {where}", "error", refusal.reason)
    if report.unlisted_refusals:
        _case(suite, f"{report.unlisted_refusals} more refusal(s), not listed", "error", "counted, not listed")
    for item in report.disagreements:
        message = (
            f"{item.field}: recorded {json_value(item.recorded)}, the evidence gives {json_value(item.rederived)} "
            f"(run {item.run_id}, task {item.task_id}, step {item.step_n}, scoring model {item.scoring_model})"
        )
        _case(suite, f"disagreement {item.source} {item.pointer}", "failure", message)
    if report.unlisted_disagreements:
        _case(
            suite, f"{report.unlisted_disagreements} more disagreement(s), not listed", "failure", "counted, not listed"
        )
    cases = suite.findall("testcase")
    for element in (root, suite):
        element.set("tests", str(len(cases)))
        element.set("failures", str(sum(1 for case in cases if case.find("failure") is not None)))
        element.set("errors", str(sum(1 for case in cases if case.find("error") is not None)))
    suite.set("skipped", str(sum(1 for case in cases if case.find("skipped") is not None)))  # not on testsuites
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
