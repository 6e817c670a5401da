"""The decision's checks and reasons: the exact words and values a user reads in the report."""

from __future__ import annotations

import math

from evalscore.scoring import SourcedRun, Thresholds, score
from evalscore.scoring.decision import (
    REGRESSION_RATES,
    Scope,
    baseline_checks,
    decide,
    incomparable,
    interval_sides,
    interval_threshold_check,
    not_gated_reason,
    pass_reason,
    regression_check,
    threshold_check,
)
from evalscore.scoring.intervals import Interval, Proportion, proportion
from evalscore.scoring.report import Check, DecisionThresholds, ScoreReport

from .builders import REFUND, approval, gate, run, step_def, step_result, suite, task_def

GATED = suite(task_def("t1", [step_def(1, expected=[REFUND])], gates=[gate()]))
REGRESSION_NAMES = [name for name, _ in REGRESSION_RATES]
NOTHING_WRONG = "no recorded score disagrees with the evidence"
HOW_TO_GATE = (
    "so no criterion was checked (PASS needs one); --min-mandated-compliance 1 fails on any mandated-gate violation"
)
NOT_COMPARABLE = "figures under different rules or suites are not comparable"


def honored(**kwargs) -> ScoreReport:  # type: ignore[no-untyped-def]
    steps = [step_result(1, [REFUND], events=[approval()])]
    return score([SourcedRun("a.json", run({"t1": steps}))], [GATED], **kwargs)


def scope_of(report: ScoreReport) -> Scope:
    return Scope(source=report.source, scoring_model=report.scoring_model, suites=tuple(report.suites))


def test_without_any_check_nothing_was_gated_and_the_reason_says_how_to_gate() -> None:
    decision = honored().decision
    assert decision.checks == []
    assert (decision.outcome, decision.exit_code) == ("not-gated", 0)
    assert decision.reasons == [f"nothing was gated: no threshold or baseline was given, {HOW_TO_GATE}"]


ALL_NULL = (
    "nothing was gated: the baseline has no rate to compare with (all are null) and no threshold was given, "
    + HOW_TO_GATE
)


def test_an_all_null_baseline_gates_nothing_and_says_the_baseline_had_nothing_to_compare() -> None:
    current = honored()
    nothing_measured = current.model_copy(
        update={
            "rates": current.rates.model_copy(update=dict.fromkeys(REGRESSION_NAMES)),
            "counts": current.counts.model_copy(
                update={
                    name: getattr(current.counts, name).model_copy(update={"numerator": 0, "denominator": 0})
                    for name in REGRESSION_NAMES
                }
            ),
        }
    )
    decision = decide(
        current.rates,
        Thresholds(),
        scope=scope_of(current),
        refusal_reasons=[],
        disagreements=0,
        baseline=nothing_measured,
        counts=current.counts,
    )
    assert decision.checks == []
    assert decision.outcome == "not-gated"
    assert decision.reasons == [ALL_NULL]


def test_a_pass_with_checks_against_a_baseline_says_how_many_passed() -> None:
    current = honored()
    decision = decide(
        current.rates,
        Thresholds(max_drop=0.8),
        scope=scope_of(current),
        refusal_reasons=[],
        disagreements=0,
        baseline=current,
        counts=current.counts,
    )
    assert len(decision.checks) == 3
    assert decision.reasons == [f"all 3 check(s) passed; {NOTHING_WRONG}"]


def test_a_not_gated_reason_asked_without_saying_whether_a_baseline_was_read_assumes_none() -> None:
    assert not_gated_reason() == f"nothing was gated: no threshold or baseline was given, {HOW_TO_GATE}"


def test_a_pass_reason_counts_the_checks() -> None:
    check = threshold_check("min_tool_match", "tool_match_accuracy", 1.0, 0.5, "min")
    assert pass_reason([check, check]) == f"all 2 check(s) passed; {NOTHING_WRONG}"


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


def test_a_floor_on_a_null_rate_is_refused_saying_at_least() -> None:
    check = threshold_check("min_tool_match", "tool_match_accuracy", None, 0.5, "min")
    assert check.reason == (
        "min_tool_match requires tool_match_accuracy at least 0.5, but tool_match_accuracy is null (nothing was "
        "measured); the threshold cannot be checked and does not pass silently"
    )


NULL_ON_THE_INTERVAL = [
    ("min", "min_tool_match requires tool_match_accuracy at least 0.5, but tool_match_accuracy is null"),
    ("max", "min_tool_match requires tool_match_accuracy at most 0.5, but tool_match_accuracy is null"),
]


def test_a_threshold_on_the_interval_of_a_null_rate_is_refused_saying_which_bound() -> None:
    for direction, start in NULL_ON_THE_INTERVAL:
        check = interval_threshold_check("min_tool_match", "tool_match_accuracy", None, None, 0.5, direction)  # type: ignore[arg-type]
        assert (check.outcome, check.observed, check.interval) == ("refused", None, None)
        assert check.reason.startswith(start + " (nothing was measured)")
    assert len(NULL_ON_THE_INTERVAL) == 2


def test_a_threshold_on_the_interval_without_counts_to_build_one_is_refused_not_called_null() -> None:
    check = interval_threshold_check("min_tool_match", "tool_match_accuracy", 0.75, None, 0.5, "min")
    assert (check.outcome, check.observed, check.interval) == ("refused", 0.75, None)
    assert check.reason == (
        "min_tool_match is to be decided on the interval of tool_match_accuracy, but it has none (no counts, or "
        "counts above 1 that are not a proportion)"
    )
    decision = decide(
        honored().rates,
        Thresholds(min_mandated_compliance=0.5, threshold_basis="interval"),
        scope=scope_of(honored()),
        refusal_reasons=[],
        disagreements=0,
    )
    assert decision.outcome == "refused"
    assert decision.reasons == [
        "min_mandated_compliance is to be decided on the interval of mandated_compliance_rate, but it has none (no "
        "counts, or counts above 1 that are not a proportion)"
    ]


ON_THE_INTERVAL = [  # (direction, low, high, outcome, reason)
    ("min", 0.6, 0.9, "pass", "tool_match_accuracy is 0.75 (95% 0.600-0.900): all of it at least 0.5 (t)"),
    ("min", 0.1, 0.4, "fail", "tool_match_accuracy is 0.75 (95% 0.100-0.400): none of it at least 0.5 (t)"),
    ("max", 0.1, 0.4, "pass", "tool_match_accuracy is 0.75 (95% 0.100-0.400): all of it at most 0.5 (t)"),
    ("max", 0.6, 0.9, "fail", "tool_match_accuracy is 0.75 (95% 0.600-0.900): none of it at most 0.5 (t)"),
]


def test_a_threshold_on_the_interval_says_all_or_none_of_it_and_which_bound() -> None:
    for direction, low, high, outcome, reason in ON_THE_INTERVAL:
        interval = Interval(low, high, 0.95, "wilson")
        check = interval_threshold_check("t", "tool_match_accuracy", 0.75, interval, 0.5, direction)  # type: ignore[arg-type]
        assert (check.outcome, check.reason, check.observed, check.limit) == (outcome, reason, 0.75, 0.5)
        assert check.interval is not None
        assert (check.interval.low, check.interval.high) == (low, high)
    assert len(ON_THE_INTERVAL) == 4


SIDES = [  # (direction, low, high, (all of it keeps the limit, all of it breaks it)); the limit is 0.5
    ("min", 0.5, 0.9, (True, False)),  # a floor's lower end at the floor keeps it
    ("min", 0.1, 0.5, (False, False)),  # an upper end at the floor does not break it
    ("max", 0.1, 0.5, (True, False)),  # a ceiling's upper end at the ceiling keeps it
    ("max", 0.5, 0.9, (False, False)),  # a lower end at the ceiling does not break it
]


def test_an_interval_ending_at_the_limit_keeps_it_and_never_breaks_it() -> None:
    for direction, low, high, sides in SIDES:
        assert interval_sides(Interval(low, high, 0.95, "wilson"), 0.5, direction) == sides  # type: ignore[arg-type]
    assert len(SIDES) == 4


def test_a_baseline_compared_with_figures_that_carry_no_counts_is_refused() -> None:
    current = honored()
    decision = decide(
        current.rates, Thresholds(), scope=scope_of(current), refusal_reasons=[], disagreements=0, baseline=current
    )
    assert decision.outcome == "refused"
    assert decision.reasons == ["baseline refused: the current figures carry no counts to compare"]


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


def exact(value: float, low: float | None = None, high: float | None = None) -> Proportion:
    """A side whose interval is given outright, so the change's interval is known without rounding."""
    interval = Interval(value if low is None else low, value if high is None else high, 0.95, "wilson")
    return Proportion(value, interval, trials=4)


def side(successes: int, trials: int) -> Proportion:
    made = proportion(successes, trials, 0.95)
    assert made is not None
    return made


def test_a_fall_whose_whole_interval_is_past_the_tolerance_is_an_established_regression() -> None:
    check = regression_check("mandated_compliance_rate", side(90, 100), side(50, 100), 0.0, "min")
    assert check is not None
    assert (check.name, check.rate, check.observed, check.limit, check.outcome) == (
        "baseline:mandated_compliance_rate",
        "mandated_compliance_rate",
        0.5,
        0.9,
        "fail",
    )
    assert check.interval is not None
    assert check.interval.method == "newcombe"
    assert check.interval.low > 0
    assert check.reason.startswith("mandated_compliance_rate fell from 0.9 to 0.5 (worsening +0.400, 95% +")
    assert check.reason.endswith("a regression beyond the allowed 0 is established")


def test_a_rise_of_a_floor_rate_is_a_pass_when_its_whole_interval_is_an_improvement() -> None:
    check = regression_check("mandated_compliance_rate", side(50, 100), side(90, 100), 0.0, "min")
    assert check is not None
    assert check.outcome == "pass"
    assert check.interval is not None
    assert check.interval.high < 0
    assert check.reason.endswith("within the allowed 0 even at the interval's end")


def test_a_fall_inside_the_noise_is_refused_with_the_tolerance_it_supports_and_the_trials_needed() -> None:
    check = regression_check("mandated_compliance_rate", side(6, 6), side(4, 6), 0.0, "min")
    assert check is not None
    assert check.outcome == "refused"
    assert check.interval is not None
    assert check.interval.low <= 0 < check.interval.high
    assert "(worsening +0.333, 95% -0.123 to +0.700): too few trials to decide the allowed 0; " in check.reason
    # to establish the fall
    supported = math.ceil(check.interval.high * 1000) / 1000
    assert check.reason.endswith(
        f"; about 11 trials per side would decide it (they support --max-drop {supported:.3f})"
    )
    assert check.runs_needed is None  # not asked in runs


def test_a_refusal_with_a_reachable_tolerance_says_roughly_how_many_trials_per_side_decide_it() -> None:
    check = regression_check("mandated_compliance_rate", side(6, 6), side(5, 6), 0.5, "min")
    assert check is not None
    assert check.outcome == "refused"
    assert check.reason.endswith("about 9 trials per side would decide it (they support --max-drop 0.564)")


def test_a_refusal_given_the_trials_per_run_says_how_many_runs_per_side_decide_it() -> None:
    check = regression_check("mandated_compliance_rate", side(6, 6), side(5, 6), 0.5, "min", trials_per_run=2.0)
    assert check is not None
    assert (check.outcome, check.runs_needed) == ("refused", 5)  # 9 trials, 2 a run
    assert check.reason.endswith("about 5 runs per side would decide it (they support --max-drop 0.564)")


def test_a_rising_ceiling_rate_is_a_regression_that_says_it_rose() -> None:
    check = regression_check("prefilled_ratio", side(10, 100), side(60, 100), 0.1, "max")
    assert check is not None
    assert (check.outcome, check.observed) == ("fail", 0.6)
    assert check.reason.startswith("prefilled_ratio rose from 0.1 to 0.6 (worsening +0.500")


def test_a_falling_ceiling_rate_is_an_improvement_not_a_regression() -> None:
    check = regression_check("prefilled_ratio", side(60, 100), side(10, 100), 0.0, "max")
    assert check is not None
    assert (check.outcome, check.observed) == ("pass", 0.1)


def test_an_interval_ending_exactly_at_the_tolerance_passes() -> None:
    check = regression_check("mandated_compliance_rate", exact(0.75), exact(0.5), 0.25, "min")
    assert check is not None
    assert check.interval is not None
    assert (check.interval.low, check.interval.high) == (0.25, 0.25)
    assert check.outcome == "pass"


def test_an_interval_starting_exactly_at_the_tolerance_is_not_an_established_regression() -> None:
    check = regression_check("mandated_compliance_rate", exact(0.75, high=0.8), exact(0.5, low=0.45), 0.25, "min")
    assert check is not None
    assert check.interval is not None
    assert check.interval.low == 0.25 < check.interval.high
    assert check.outcome == "refused"


def test_a_ceiling_rate_is_compared_with_its_sides_swapped() -> None:
    check = regression_check("prefilled_ratio", exact(0.5, low=0.4), exact(0.75, high=0.8), 0.25, "max")
    assert check is not None
    assert check.interval is not None
    assert check.interval.low == 0.25 < check.interval.high
    assert check.outcome == "refused"


def test_an_unchanged_rate_is_said_to_have_stayed_and_a_zero_tolerance_cannot_be_proved() -> None:
    check = regression_check("mandated_compliance_rate", side(4, 6), side(4, 6), 0.0, "min")
    assert check is not None
    assert check.outcome == "refused"
    assert check.reason.startswith("mandated_compliance_rate stayed at 0.6667 (worsening +0.000, 95% -0.")
    assert check.reason.endswith(
        "no practical sample would decide it: the estimated worsening is the tolerance itself (they support "
        "--max-drop 0.437)"
    )
    assert check.runs_needed is None


def test_a_rate_the_baseline_did_not_measure_is_not_compared() -> None:
    assert regression_check("mandated_compliance_rate", None, side(1, 2), 0.0, "min") is None


def test_a_rate_that_is_null_now_but_was_measured_is_refused() -> None:
    check = regression_check("mandated_compliance_rate", side(1, 2), None, 0.0, "min")
    assert check is not None
    assert (check.outcome, check.observed, check.limit) == ("refused", None, 0.5)
    assert check.reason == (
        "the baseline's mandated_compliance_rate was 0.5 but it is null now; a regression cannot be checked"
    )


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


def with_recall(report: ScoreReport, numerator: int, denominator: int) -> ScoreReport:
    recall = report.counts.discretionary_blocker_recall.model_copy(
        update={"numerator": numerator, "denominator": denominator}
    )
    return report.model_copy(
        update={"counts": report.counts.model_copy(update={"discretionary_blocker_recall": recall})}
    )


ABOVE_ONE = [  # (baseline recall, current recall, which side the reason names)
    ((3, 2), (1, 2), "the baseline's discretionary_blocker_recall is 3/2"),
    ((1, 2), (3, 2), "the current discretionary_blocker_recall is 3/2"),
    ((3, 2), (0, 0), "the baseline's discretionary_blocker_recall is 3/2"),  # null now: observed null
    ((1, 2), (2, 1), "the current discretionary_blocker_recall is 2/1"),
]


def test_a_recall_above_1_on_either_side_is_refused_not_compared() -> None:
    for before, now, named in ABOVE_ONE:
        baseline, current = with_recall(honored(), *before), with_recall(honored(), *now)
        (check,) = [c for c in baseline_checks(current.counts, baseline, Thresholds()) if "recall" in c.rate]
        observed = now[0] / now[1] if now[1] else None
        assert (check.outcome, check.limit, check.observed) == ("refused", before[0] / before[1], observed)
        assert check.reason == f"{named}, above 1: not a proportion, so its change has no interval and is not compared"
    assert len(ABOVE_ONE) == 4


def test_a_recall_the_baseline_did_not_measure_is_not_compared_even_when_it_is_above_1_now() -> None:
    baseline, current = with_recall(honored(), 0, 0), with_recall(honored(), 3, 2)
    assert [c for c in baseline_checks(current.counts, baseline, Thresholds()) if "recall" in c.rate] == []


def test_a_recall_above_1_leaves_the_other_rates_compared() -> None:
    baseline, current = with_recall(honored(), 3, 2), with_recall(honored(), 1, 2)
    checks = baseline_checks(current.counts, baseline, Thresholds())
    compared = [name for name, _ in REGRESSION_RATES if getattr(baseline.counts, name).denominator > 0]
    assert [check.rate for check in checks] == compared
    assert compared.index("discretionary_blocker_recall") < len(compared) - 1  # a rate after it is compared


def test_matches_recorded_without_blockers_now_are_a_null_rate_not_one_above_1() -> None:
    baseline, current = with_recall(honored(), 1, 2), with_recall(honored(), 1, 0)
    (check,) = [c for c in baseline_checks(current.counts, baseline, Thresholds()) if "recall" in c.rate]
    assert check.outcome == "refused"
    assert "is null now" in check.reason
