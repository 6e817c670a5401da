"""``--format sarif`` for score: SARIF 2.1.0, so that code-scanning views show each violation where it is.

One run of the ``evalscore`` tool. A result per listed violation (its reason code the rule; ``error``
for a mandated gate, ``warning`` for the other rates), per refusal (``refusal/<code>``, a
``warning``: not derivable, so not counted either way) and per disagreement between a recorded score
and the evidence (``recorded-score-disagrees``, an ``error``), each at its file (a URI reference
relative to the working directory, or a ``file://`` URI for an absolute path) and JSONL line, with its
JSON Pointer as the logical location. The report's bounds apply (``--max-listed``); the invocation
carries the decision, its exit code and how many of each were found.
"""

from __future__ import annotations

from typing import Any, Final

from evalscore.json_output import dumps_text
from evalscore.reporters._formats import json_value, located, plain, violations_found, whole
from evalscore.reporters.validation_sarif import SARIF_SCHEMA, artifact_uri
from evalscore.scoring.report import ScoreReport
from evalscore.scoring.violations import VIOLATION_CODES
from evalscore.version import __version__

DISAGREES: Final = "recorded-score-disagrees"


class _Rules:
    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.rules: list[dict[str, Any]] = []

    def of(self, rule_id: str, description: str, level: str) -> int:
        if rule_id not in self.index:
            self.index[rule_id] = len(self.rules)
            self.rules.append(
                {
                    "id": rule_id,
                    "name": rule_id,
                    "shortDescription": {"text": description},
                    "defaultConfiguration": {"level": level},
                }
            )
        return self.index[rule_id]


def _location(source: str, pointer: str, inputs: list[str]) -> dict[str, Any]:
    path, line = located(source, inputs)
    physical: dict[str, Any] = {"artifactLocation": {"uri": artifact_uri(whole(path))}}
    if line is not None:
        physical["region"] = {"startLine": line}
    location: dict[str, Any] = {"physicalLocation": physical}
    if pointer:
        location["logicalLocations"] = [{"fullyQualifiedName": whole(pointer), "kind": "object"}]
    return location


def _result(
    rule_id: str, index: int, level: str, message: str, location: dict[str, Any], **properties: Any
) -> dict[str, Any]:
    return {
        "ruleId": rule_id,
        "ruleIndex": index,
        "level": level,
        "message": {"text": message},
        "locations": [location],
        "properties": properties,
    }


def score_sarif_dict(report: ScoreReport) -> dict[str, Any]:
    inputs = [entry.path for entry in report.inputs]
    rules = _Rules()
    results = []
    for item in report.violations:
        level = "error" if item.rate == "mandated_compliance_rate" else "warning"
        index = rules.of(item.code, VIOLATION_CODES[item.code][1], level)
        message = f"{plain(item.pointer)} (run {plain(item.run_id)}, task {plain(item.task_id)}, step {item.step_n}): "
        message += plain(item.message)
        location = _location(item.source, item.pointer, inputs)
        results.append(_result(item.code, index, level, message, location, rate=item.rate, weight=item.weight))
    for refusal in report.refusals:
        rule_id = f"refusal/{refusal.code}"
        index = rules.of(rule_id, "not derivable honestly: excluded from every rate", "warning")
        location = _location(refusal.source, refusal.pointer, inputs)
        results.append(_result(rule_id, index, "warning", plain(f"{refusal.pointer} {refusal.reason}"), location))
    for found in report.disagreements:
        index = rules.of(DISAGREES, "a recorded auto score the evidence contradicts", "error")
        text = f"{found.pointer}: {found.field} recorded {json_value(found.recorded)}, the evidence gives "
        text += json_value(found.rederived)
        results.append(_result(DISAGREES, index, "error", plain(text), _location(found.source, found.pointer, inputs)))
    decision = report.decision
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "evalscore", "version": __version__, "rules": rules.rules}},
        "invocations": [
            {
                "executionSuccessful": True,
                "exitCode": decision.exit_code,
                "properties": {
                    "outcome": decision.outcome,
                    "reasons": [plain(reason) for reason in decision.reasons],
                    "violations": violations_found(report),
                    "refusals": len(report.refusals) + report.unlisted_refusals,
                    "disagreements": len(report.disagreements) + report.unlisted_disagreements,
                },
            }
        ],
        "results": results,
    }
    artifacts = [
        {"location": {"uri": artifact_uri(whole(entry.path))}, "hashes": {"sha-256": entry.sha256}}
        for entry in report.inputs
        if entry.sha256
    ]
    if artifacts:
        run["artifacts"] = artifacts
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def render_score_sarif(report: ScoreReport) -> str:
    return dumps_text(score_sarif_dict(report))
