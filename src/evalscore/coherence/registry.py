"""The stable codes, names and severities of every coherence rule.

Codes are a contract with users' scripts: never renumber, only add.
docs/RULES.md lists the same table; a test keeps the two in step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from evalscore.findings import Finding, JsonPath, Severity, pointer_of


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    name: str
    severity: Severity

    def finding(self, path: JsonPath, message: str) -> Finding:
        pointer = pointer_of(path)
        return Finding(
            layer="coherence",
            code=self.code,
            severity=self.severity,
            pointer=pointer,
            message=f"{message} (at {pointer or '/'})",
        )


LATENCY_DISAGREES = Rule("ES101", "latency-disagrees-with-timestamps", "error")
RESOLVED_BEFORE_OPENED = Rule("ES102", "resolved-before-opened", "error")
UNRESOLVED_WITH_DECISION = Rule("ES103", "unresolved-gate-has-decision", "error")
TIMESTAMP_NOT_REAL = Rule("ES104", "timestamp-not-a-calendar-instant", "error")
LATENCY_ABOVE_BOUND = Rule("ES105", "latency-exceeds-upper-bound", "error")
CALLS_BEFORE_EXCEEDS = Rule("ES111", "task-calls-before-exceeds-calls", "error")
CALLS_BEFORE_DECREASES = Rule("ES112", "task-calls-before-decreases", "error")
MANDATED_MULTISET = Rule("ES121", "mandated-honored-violated-not-required", "error")
PAIRING_OUT_OF_RANGE = Rule("ES122", "pairing-index-out-of-range", "error")
PAIRING_NOT_APPROVAL = Rule("ES123", "pairing-not-an-approval-request", "error")
MATCHED_EXCEEDS_ASKED = Rule("ES124", "matched-exceeds-asked", "error")
UNPROMPTED_EXCEEDS_ASKED = Rule("ES125", "unprompted-exceeds-asked", "error")
ADDRESSED_EXCEEDS_BLOCKERS = Rule("ES126", "addressed-exceeds-blockers", "error")
DUPLICATE_TASK_RESULT = Rule("ES131", "duplicate-task-id-in-run", "error")
DUPLICATE_STEP_RESULT = Rule("ES132", "duplicate-step-n-in-task", "error")
SCORE_STEP_MISMATCH = Rule("ES133", "score-step-n-differs", "error")
RUN_ENDS_BEFORE_START = Rule("ES134", "run-started-after-ended", "error")
DUPLICATE_SUITE_TASK = Rule("ES141", "duplicate-task-id-in-suite", "error")
DUPLICATE_SUITE_STEP = Rule("ES142", "duplicate-step-n-in-suite-task", "error")
DUPLICATE_GATE_ID = Rule("ES143", "duplicate-mandated-gate-id", "error")
TIMESTAMP_WITHOUT_OFFSET = Rule("ES201", "timestamp-not-rfc3339-with-offset", "warning")
UNKNOWN_MAJOR_VERSION = Rule("ES202", "schema-version-major-not-1", "warning")

RULES: Final[tuple[Rule, ...]] = (
    LATENCY_DISAGREES,
    RESOLVED_BEFORE_OPENED,
    UNRESOLVED_WITH_DECISION,
    TIMESTAMP_NOT_REAL,
    LATENCY_ABOVE_BOUND,
    CALLS_BEFORE_EXCEEDS,
    CALLS_BEFORE_DECREASES,
    MANDATED_MULTISET,
    PAIRING_OUT_OF_RANGE,
    PAIRING_NOT_APPROVAL,
    MATCHED_EXCEEDS_ASKED,
    UNPROMPTED_EXCEEDS_ASKED,
    ADDRESSED_EXCEEDS_BLOCKERS,
    DUPLICATE_TASK_RESULT,
    DUPLICATE_STEP_RESULT,
    SCORE_STEP_MISMATCH,
    RUN_ENDS_BEFORE_START,
    DUPLICATE_SUITE_TASK,
    DUPLICATE_SUITE_STEP,
    DUPLICATE_GATE_ID,
    TIMESTAMP_WITHOUT_OFFSET,
    UNKNOWN_MAJOR_VERSION,
)
