"""The decision: thresholds, baselines, refusals and the exit code taken from one value."""

from __future__ import annotations

import pytest

from evalscore.scoring import SourcedRun, Thresholds, score
from evalscore.scoring.decision import Scope, breaks_limit, decide, exit_code_of
from evalscore.scoring.report import ScoreReport

from .builders import REFUND, approval, gate, run, step_def, step_result, suite, task_def

GATED = suite(task_def("t1", [step_def(1, expected=[REFUND]), step_def(2, expected=[REFUND])], gates=[gate()]))


def report_of(*steps, suites=(GATED,), model=None, **kwargs) -> ScoreReport:  # type: ignore[no-untyped-def]
    return score([SourcedRun("a.json", run({"t1": list(steps)}))], list(suites), scoring_model=model, **kwargs)


def good() -> ScoreReport:
    return report_of(step_result(1, [REFUND], events=[approval()]), step_result(2, [REFUND], events=[approval()]))


def half() -> ScoreReport:
    return report_of(step_result(1, [REFUND], events=[approval()]), step_result(2, [REFUND]))


def test_exit_codes_follow_the_outcome() -> None:
    assert [exit_code_of(o) for o in ("pass", "fail", "refused", "not-gated")] == [0, 1, 4, 0]


@pytest.mark.parametrize(("observed", "limit", "direction", "broken"), [
    (0.5, 0.5, "min", False), (0.49, 0.5, "min", True), (0.5, 0.5, "max", False), (0.51, 0.5, "max", True),
])  # fmt: skip
def test_a_limit_itself_passes(observed: float, limit: float, direction: str, broken: bool) -> None:
    assert breaks_limit(observed, limit, direction) is broken  # type: ignore[arg-type]


def test_a_rate_below_its_threshold_fails() -> None:
    report = report_of(
        step_result(1, [REFUND], events=[approval()]),
        step_result(2, [REFUND]),
        thresholds=Thresholds(min_mandated_compliance=0.75),
    )
    assert report.rates.mandated_compliance_rate == 0.5
    assert (report.decision.outcome, report.decision.exit_code) == ("fail", 1)
    assert "not at least 0.75" in report.decision.reasons[0]


def test_a_prefilled_ratio_above_its_ceiling_fails() -> None:
    report = good()
    decision = decide(
        report.rates.model_copy(update={"prefilled_ratio": 0.6}),
        Thresholds(max_prefilled_ratio=0.5),
        scope=scope_of(report),
        refusal_reasons=[],
        disagreements=0,
    )
    assert decision.outcome == "fail"


def scope_of(report: ScoreReport) -> Scope:
    return Scope(source=report.source, scoring_model=report.scoring_model, suites=tuple(report.suites))


def test_a_fall_on_two_gates_is_inside_the_noise_and_no_decision() -> None:
    report = report_of(step_result(1, [REFUND], events=[approval()]), step_result(2, [REFUND]), baseline=good())
    assert len(report.decision.checks) == 3
    check = next(check for check in report.decision.checks if check.rate == "mandated_compliance_rate")
    assert check.outcome == "refused"
    assert (report.decision.outcome, report.decision.exit_code) == ("refused", 4)
    assert "too few trials to decide the allowed 0.05" in check.reason


def test_a_tolerance_wider_than_the_interval_of_the_fall_passes() -> None:
    report = report_of(
        step_result(1, [REFUND], events=[approval()]),
        step_result(2, [REFUND]),
        baseline=good(),
        thresholds=Thresholds(max_drop=1.0),
    )
    assert report.decision.outcome == "pass"
    assert len(report.decision.checks) == 3


def test_an_unchanged_rate_on_two_gates_is_too_noisy_to_decide_even_the_default_margin() -> None:
    assert half().decision.outcome == "not-gated"
    report = report_of(step_result(1, [REFUND], events=[approval()]), step_result(2, [REFUND]), baseline=half())
    assert report.decision.outcome == "refused"
    check = next(check for check in report.decision.checks if check.rate == "mandated_compliance_rate")
    assert "stayed at 0.5" in check.reason
    assert report.decision.reasons[0].startswith("baseline: too few runs to decide --max-drop 0.05 for ")


def test_a_baseline_under_another_scoring_model_is_refused() -> None:
    baseline = report_of(step_result(1, [REFUND], events=[approval()]), model="v2")
    report = report_of(step_result(1, [REFUND], events=[approval()]), baseline=baseline)
    assert (report.decision.outcome, report.decision.exit_code) == ("refused", 4)
    assert "v2" in report.decision.reasons[0]


def test_a_baseline_of_another_suite_is_refused() -> None:
    other = suite(task_def("t1", [step_def(1)]), suite_id="other")
    baseline = score([SourcedRun("b.json", run({"t1": [step_result(1)]}, suite_id="other"))], [other])
    report = report_of(step_result(1, [REFUND], events=[approval()]), baseline=baseline)
    assert report.decision.outcome == "refused"
    assert "suites" in report.decision.reasons[0]


def test_a_baseline_that_could_not_be_read_is_refused_with_the_reason() -> None:
    report = report_of(step_result(1, [REFUND], events=[approval()]), baseline="not a score report: missing 'rates'")
    assert report.decision.outcome == "refused"
    assert "missing 'rates'" in report.decision.reasons[0]


def test_a_rate_that_became_null_cannot_be_checked_against_the_baseline() -> None:
    report = report_of(step_result(1), step_result(2), baseline=good())
    assert report.rates.mandated_compliance_rate is None
    outcomes = {check.rate: check.outcome for check in report.decision.checks}
    assert outcomes["mandated_compliance_rate"] == "refused"
    # the tool match fell from 2 / 2 to 0 / 2, established beyond the noise: a failure whatever the rest says
    assert outcomes["tool_match_accuracy"] == "fail"
    assert report.decision.outcome == "fail"
    assert any(
        reason.startswith("also undecided: the baseline's mandated_compliance_rate")
        for reason in report.decision.reasons
    )
