"""``validate`` walks a run for coherence findings only when the quick test cannot rule them out.

The walk names findings and costs most of a coherent run's check; the quick test
(``coherence.walk_quick``) stands in for it on coherent runs. Counting the walks keeps that true.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from evalscore.findings import Finding
from evalscore.validation import checker

RUN: dict[str, Any] = {
    "suite_id": "s",
    "suite_version": "1",
    "run_id": "r",
    "started_at": "2026-03-01T09:00:00Z",
    "ended_at": "2026-03-01T10:00:00Z",
    "adapter": {"name": "a", "model": "m"},
    "task_results": [
        {
            "task_id": "t",
            "step_results": [
                {
                    "step_n": 1,
                    "agent_tool_calls": [],
                    "agent_final_output": "Done.",
                    "latency_ms": 1,
                    "auto_score": None,
                    "gate_events": [
                        {
                            "kind": "approval_request",
                            "reason": "r",
                            "surfaced": "Refund?",
                            "target_tool": "refund",
                            "resolution": "approved",
                            "task_calls_before": 0,
                        }
                    ],
                }
            ],
        }
    ],
}


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    walked: list[str] = []
    walk = checker.coherence_findings

    def counted(kind: str, document: dict[str, Any]) -> Iterator[Finding]:
        walked.append(kind)
        return walk(kind, document)

    monkeypatch.setattr(checker, "coherence_findings", counted)
    return walked


def test_a_coherent_run_is_not_walked(walks: list[str]) -> None:
    kind, findings, _ = checker.check_document(RUN)
    assert (kind, findings, walks) == ("run", [], [])


def test_a_run_with_a_finding_is_walked_and_the_walk_names_it(walks: list[str]) -> None:
    document: Any = {**RUN, "started_at": "2026-03-01T11:00:00Z"}
    kind, findings, _ = checker.check_document(document)
    assert (kind, walks) == ("run", ["run"])
    assert [(finding.code, finding.pointer) for finding in findings] == [("ES134", "/ended_at")]


def test_other_kinds_are_always_walked(walks: list[str]) -> None:
    review = {
        "step_n": 1,
        "tool_match": True,
        "golden_truth": 2,
        "distraction_caught": None,
        "reviewer_id": "rev",
        "reviewed_at": "2026-03-01T09:00:00Z",
    }
    kind, findings, _ = checker.check_document(review)
    assert (kind, findings, walks) == ("step-score", [], ["step-score"])
