"""``--format junit`` for score: the decision, each check, refusal and disagreement as a JUnit test case.

One ``testsuite`` named ``evalscore score``. The decision comes first and carries its reasons: a
``failure`` when it is fail, an ``error`` when it is refused (a figure that could not be derived
honestly is not a pass, and a CI system shows an error as red). Then each threshold and baseline
check, each refusal (an ``error``: nothing could be decided there) and each disagreement between a
recorded score and the evidence (a ``failure``); refusals and disagreements the report counts but
does not list are one test case each, so nothing the decision counted is missing.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from evalscore.reporters._formats import json_value, plain
from evalscore.scoring.report import ScoreReport

_CLASS = "evalscore.score"


def _case(suite: ET.Element, name: str, outcome: str | None, message: str, detail: str = "") -> None:
    case = ET.SubElement(suite, "testcase", name=plain(name), classname=_CLASS)
    if outcome is None:
        if detail:
            ET.SubElement(case, "system-out").text = plain(detail)
        return
    ET.SubElement(case, outcome, message=plain(message), type=outcome).text = plain(detail or message)


_OUTCOME_ELEMENT = {"pass": None, "fail": "failure", "refused": "error"}


def render_score_junit(report: ScoreReport) -> str:
    root = ET.Element("testsuites", name="evalscore score")
    suite = ET.SubElement(root, "testsuite", name="evalscore score")
    decision = report.decision
    reasons = "\n".join(decision.reasons)
    _case(
        suite,
        f"decision: {decision.outcome} (exit {decision.exit_code})",
        _OUTCOME_ELEMENT[decision.outcome],
        decision.reasons[0],
        reasons,
    )
    for check in decision.checks:
        _case(suite, f"check {check.name}", _OUTCOME_ELEMENT[check.outcome], check.reason, check.reason)
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
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
