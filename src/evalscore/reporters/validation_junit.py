"""``--format junit`` for validate: one JUnit test case per artifact, as CI systems read them.

The document follows the JUnit schema Jenkins publishes, the one most CI systems ingest: a
``testsuites`` root, one ``testsuite`` per input, one ``testcase`` per artifact listed. An invalid
artifact is a ``failure`` (its findings, most useful first, one per line); an input that cannot be
read, or an internal error, is an ``error``; warnings of a valid artifact go to its ``system-out``.
Artifacts past the report's listing bound are counted in one more test case, so the totals of the
``testsuites`` element are every artifact's.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import groupby

from evalscore.finding_codes import INTERNAL_ERROR, UNREADABLE
from evalscore.findings import Finding
from evalscore.reporters._formats import plain
from evalscore.validation.summary import ArtifactVerdict, ValidationSummary

_ERROR_CODES = frozenset({UNREADABLE, INTERNAL_ERROR})


def finding_line(finding: Finding) -> str:
    """``CODE pointer message``, the form every CI format of evalscore shows a finding in."""
    return f"{finding.code} {plain(finding.pointer or '/')} {plain(finding.message)}"


def _case_name(verdict: ArtifactVerdict) -> str:
    where = f"{verdict.source}:{verdict.line}" if verdict.line is not None else verdict.source
    return plain(f"{where} ({verdict.kind or 'unknown kind'})")


def _testcase(suite: ET.Element, verdict: ArtifactVerdict, strict: bool) -> str | None:
    """The artifact's test case; what it counts as (``failure``, ``error`` or None for a pass)."""
    case = ET.SubElement(suite, "testcase", name=_case_name(verdict), classname="evalscore.validate")
    lines = "\n".join(finding_line(finding) for finding in verdict.findings)
    if verdict.omitted or not verdict.complete:
        lines += f"\n... and {'at least ' if not verdict.complete else ''}{verdict.omitted} more finding(s)"
    if verdict.valid(strict):
        if verdict.findings:
            ET.SubElement(case, "system-out").text = lines
        return None
    outcome = "error" if any(finding.code in _ERROR_CODES for finding in verdict.findings) else "failure"
    first = verdict.findings[0] if verdict.findings else None
    element = ET.SubElement(
        case,
        outcome,
        message=finding_line(first) if first else "invalid",
        type=first.code if first else "invalid",
    )
    element.text = lines
    return outcome


def render_validation_junit(summary: ValidationSummary) -> str:
    root = ET.Element("testsuites", name="evalscore validate")
    for source, verdicts in groupby(summary.verdicts, key=lambda verdict: verdict.source):
        suite = ET.SubElement(root, "testsuite", name=plain(source))
        outcomes = [_testcase(suite, verdict, summary.strict) for verdict in verdicts]
        _count(suite, len(outcomes), outcomes.count("failure"), outcomes.count("error"))
    if summary.unlisted:
        _unlisted(root, summary)
    suites = root.findall("testsuite")
    _count(root, *(sum(int(suite.get(name, "0")) for suite in suites) for name in ("tests", "failures", "errors")))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _count(element: ET.Element, tests: int, failures: int, errors: int) -> None:
    element.set("tests", str(tests))
    element.set("failures", str(failures))
    element.set("errors", str(errors))


def _unlisted(root: ET.Element, summary: ValidationSummary) -> None:
    """One test case standing for the artifacts the report does not list, failing when any has a finding."""
    suite = ET.SubElement(root, "testsuite", name="artifacts not listed")
    case = ET.SubElement(
        suite, "testcase", name=f"{summary.unlisted} artifact(s) past the listing bound", classname="evalscore.validate"
    )
    with_findings = summary.unlisted_with_findings
    _count(suite, 1, 1 if with_findings else 0, 0)
    if with_findings:
        message = (
            f"{with_findings} of them have findings; they are counted in the totals but not listed "
            "(run evalscore validate --format json on fewer inputs to see them)"
        )
        ET.SubElement(case, "failure", message=message, type="unlisted").text = message
