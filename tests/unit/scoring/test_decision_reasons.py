"""The decision's checks and reasons: the exact words and values a user reads in the report."""

from __future__ import annotations

from fractions import Fraction

from evalscore.scoring import SourcedRun, Thresholds, score
from evalscore.scoring.decision import (
    Scope,
    decide,
    incomparable,
    pass_reason,
    regression_check,
    threshold_check,
    worsening,
)
from evalscore.scoring.report import Check, DecisionThresholds, ScoreReport

from .builders import REFUND, approval, gate, run, step_def, step_result, suite, task_def

GATED = suite(task_def("t1", [step_def(1, expected=[REFUND])], gates=[gate()]))
NOTHING_WRONG = "nothing was refused and no recorded score disagrees with the evidence"
NOT_COMPARABLE = "figures under different rules or suites are not comparable"


def honored(**kwargs) -> ScoreReport:  # type: ignore[no-untyped-def]
    steps = [step_result(1, [REFUND], events=[approval()])]
    return score([SourcedRun("a.json", run({"t1": steps}))], [GATED], **kwargs)


def scope_of(report: ScoreReport) -> Scope:
    return Scope(source=report.source, scoring_model=report.scoring_model, suites=tuple(report.suites))


def test_a_pass_without_any_check_says_no_threshold_or_baseline_was_given() -> None:
    decision = honored().decision
    assert decision.checks == []
    assert decision.reasons == [f"no threshold or baseline was given; {NOTHING_WRONG}"]


ALL_NULL = f"the baseline has no rate to compare with (all are null) and no threshold was given; {NOTHING_WRONG}"


def test_a_pass_against_an_all_null_baseline_says_the_baseline_had_nothing_to_compare() -> None:
    current = honored()
    nulls: dict[str, object] = dict.fromkeys(type(current.rates).model_fields)
    nulls["dimension_means"] = {}
    empty_baseline = current.model_copy(update={"rates": type(current.rates).model_validate(nulls)})
    decision = decide(
        current.rates,
        Thresholds(),
        scope=scope_of(current),
        refusal_reasons=[],
        disagreements=0,
        baseline=empty_baseline,
    )
    assert decision.checks == []
    assert decision.reasons == [ALL_NULL]


def test_a_pass_with_checks_against_a_baseline_says_how_many_passed() -> None:
    current = honored()
    decision = decide(
        current.rates, Thresholds(), scope=scope_of(current), refusal_reasons=[], disagreements=0, baseline=current
    )
    assert len(decision.checks) == 3
    assert decision.reasons == [f"all 3 check(s) passed; {NOTHING_WRONG}"]


def test_a_pass_reason_asked_without_saying_whether_a_baseline_was_read_assumes_none() -> None:
    assert pass_reason([]) == f"no threshold or baseline was given; {NOTHING_WRONG}"


def test_a_pass_with_checks_says_how_many_passed() -> None:
    decision = honored(thresholds=Thresholds(min_mandated_compliance=0.75, min_tool_match=1.0)).decision
    assert decision.outcome == "pass"
    assert decision.reasons == [f"all 2 check(s) passed; {NOTHING_WRONG}"]


def test_a_passing_floor_is_a_pass_check_with_the_observed_value_and_the_bound_in_words() -> None:
    check = threshold_check("min_mandated_compliance", "mandated_compliance_rate", 0.8, 0.75, "min")
    assert check == Check(
        name="min_mandated_compliance",
        rate="mandated_compliance_rate",
        observed=0.8,
        limit=0.75,
        outcome="pass",
        reason="mandated_compliance_rate is 0.8, at least 0.75 (min_mandated_compliance)",
    )


def test_a_broken_ceiling_is_a_fail_check_saying_not_at_most() -> None:
    check = threshold_check("max_prefilled_ratio", "prefilled_ratio", 0.6, 0.5, "max")
    assert (check.outcome, check.observed, check.reason) == (
        "fail",
        0.6,
        "prefilled_ratio is 0.6, not at most 0.5 (max_prefilled_ratio)",
    )


def test_a_kept_ceiling_is_a_pass_check_saying_at_most() -> None:
    check = threshold_check("max_prefilled_ratio", "prefilled_ratio", 0.5, 0.5, "max")
    assert (check.outcome, check.reason) == ("pass", "prefilled_ratio is 0.5, at most 0.5 (max_prefilled_ratio)")


def test_a_threshold_on_a_null_rate_is_refused_with_the_reason_in_words() -> None:
    check = threshold_check("max_prefilled_ratio", "prefilled_ratio", None, 0.5, "max")
    assert (check.outcome, check.observed) == ("refused", None)
    assert check.reason == (
        "max_prefilled_ratio requires prefilled_ratio at most 0.5, but prefilled_ratio is null (nothing was "
        "measured); the threshold cannot be checked and does not pass silently"
    )


def test_the_decision_echoes_every_threshold_it_applied() -> None:
    thresholds = Thresholds(
        min_mandated_compliance=0.1,
        min_tool_match=0.2,
        min_distraction_catch=0.3,
        max_prefilled_ratio=0.9,
        max_drop=0.05,
    )
    assert thresholds.as_report() == DecisionThresholds(
        min_mandated_compliance=0.1,
        min_tool_match=0.2,
        min_distraction_catch=0.3,
        max_prefilled_ratio=0.9,
        max_drop=0.05,
    )
    report = honored()
    decision = decide(report.rates, thresholds, scope=scope_of(report), refusal_reasons=[], disagreements=0)
    assert decision.thresholds == thresholds.as_report()


def test_a_falling_rate_is_a_regression_that_says_it_fell_and_by_how_much_was_allowed() -> None:
    check = regression_check("mandated_compliance_rate", 1.0, 0.5, 0.25, "min")
    assert check == Check(
        name="baseline:mandated_compliance_rate",
        rate="mandated_compliance_rate",
        observed=0.5,
        limit=1.0,
        outcome="fail",
        reason="mandated_compliance_rate fell from 1 to 0.5, more than the allowed 0.25 (regression)",
    )


def test_a_rising_ceiling_rate_is_a_regression_that_says_it_rose() -> None:
    check = regression_check("prefilled_ratio", 0.2, 0.5, 0.1, "max")
    assert check is not None
    assert (check.outcome, check.observed, check.reason) == (
        "fail",
        0.5,
        "prefilled_ratio rose from 0.2 to 0.5, more than the allowed 0.1 (regression)",
    )


def test_a_falling_ceiling_rate_is_an_improvement_not_a_regression() -> None:
    check = regression_check("prefilled_ratio", 0.5, 0.2, 0.0, "max")
    assert check is not None
    assert (check.outcome, check.observed, check.reason) == (
        "pass",
        0.2,
        "prefilled_ratio is 0.2 against the baseline's 0.5 (allowed worsening 0)",
    )


def test_a_ceiling_rate_rising_by_exactly_max_drop_is_no_regression() -> None:
    check = regression_check("prefilled_ratio", 0.2, 0.3, 0.1, "max")
    assert check is not None
    assert check.outcome == "pass"


def test_worsening_of_a_ceiling_rate_is_how_much_it_rose_in_exact_decimals() -> None:
    assert worsening(0.2, 0.3, "max") == Fraction(1, 10)
    assert worsening(0.3, 0.2, "max") == Fraction(-1, 10)
    assert worsening(0.3, 0.2, "min") == Fraction(1, 10)


def test_a_baseline_of_recorded_figures_is_not_compared_with_rederived_ones() -> None:
    current = honored()
    baseline = current.model_copy(update={"source": "recorded"})
    assert incomparable(scope_of(current), baseline) == [
        f"baseline refused: the baseline's figures are recorded, the current ones rederived; {NOT_COMPARABLE}"
    ]


def test_a_baseline_of_other_suites_is_refused_naming_both_suite_lists() -> None:
    other = suite(task_def("t1", [step_def(1)]), suite_id="other")
    baseline = score([SourcedRun("b.json", run({"t1": [step_result(1)]}, suite_id="other"))], [other])
    report = honored(baseline=baseline)
    assert report.decision.outcome == "refused"
    assert report.decision.reasons == [
        "baseline refused: the baseline covers suites ['other@1.0.0'], the current figures ['suite@1.0.0']; "
        f"{NOT_COMPARABLE}"
    ]
