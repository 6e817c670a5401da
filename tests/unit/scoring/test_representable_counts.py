"""A recorded count no double holds exactly is refused, never rounded or turned into an overflow."""

from __future__ import annotations

import pytest

from evalscore.scoring import SourcedRun, score

from .builders import run, step_result


def recorded(**counts: float) -> SourcedRun:
    discretionary = {"blockers": 1, "asked": 1, "matched": 1, "unprompted": 0, **counts}
    auto = {"tool_match": True, "distraction_caught": None, "gates": {"mandated": None, "discretionary": discretionary}}
    return SourcedRun("a.json", run({"t1": [step_result(1), step_result(2, auto_score=auto)]}))


@pytest.mark.parametrize(
    ("counts", "name"),
    [
        ({"blockers": 10**400}, "blockers"),
        ({"blockers": 2**53 + 1, "addressed": 2**53 + 1}, "blockers"),
        ({"asked": 10**400}, "asked"),
        ({"asked": 2**53 + 1, "matched": 2**53 + 1, "unprompted": 0}, "asked"),
    ],
)
def test_a_count_beyond_2_to_the_53_refuses_the_run_naming_the_count(counts: dict[str, int], name: str) -> None:
    report = score([recorded(**counts)])
    (refusal,) = report.refusals
    assert (refusal.code, refusal.steps) == ("count-unrepresentable", 2)
    assert report.counts.refused_steps == 2
    assert (report.counts.total_steps, [suite.id for suite in report.suites]) == (2, ["suite"])  # still counted
    assert refusal.pointer == f"/task_results/0/step_results/1/auto_score/gates/discretionary/{name}"
    assert report.decision.outcome == "refused"


def test_a_count_of_2_to_the_53_is_added_up() -> None:
    report = score([recorded(blockers=2**53, asked=2**53, matched=2**53)])
    assert report.refusals == []
    assert report.counts.discretionary_blocker_recall.denominator == 2**53


def test_a_huge_float_count_is_refused_too() -> None:
    (refusal,) = score([recorded(blockers=1e300, asked=1e300)]).refusals
    assert refusal.pointer.endswith("/blockers")
