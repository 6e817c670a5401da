"""The decision over refused steps, check by check: what each path of the bound rule decides and says."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from evalscore.scoring.decision import (
    Scope,
    baseline_checks,
    bounded_regression_check,
    bounded_threshold_check,
    decide,
    not_a_proportion,
    regression_check,
    runs_needed,
    threshold_checks,
    undecided_reasons,
)
from evalscore.scoring.intervals import rate_proportion
from evalscore.scoring.refused_bounds import (
    RefusedPart,
    extreme_intervals,
    interval_floor,
    point_floor,
    unbounded_floor,
)
from evalscore.scoring.report import Check, Counts, RateCount, Rates, RecallCount, ToolMatchCount
from evalscore.scoring.thresholds import Thresholds

MANDATED = "mandated_compliance_rate"
RECALL = "discretionary_blocker_recall"
ZERO = RateCount(numerator=0, denominator=0)


def rate_count(numerator: float, denominator: float, at_most: float | None = 0) -> RateCount:
    return RateCount(numerator=numerator, denominator=denominator, refused_at_most=at_most)


def counts_of(runs: int | None = 4, refused: int = 1, basis: str | None = "addressed", **rates: RateCount) -> Counts:
    recall = rates.pop(RECALL, ZERO)
    tool = rates.pop("tool_match_accuracy", ZERO)
    fields: dict[str, Any] = {
        "mandated_compliance_rate": ZERO,
        "discretionary_ask_precision": ZERO,
        "distraction_detection_rate": ZERO,
        "golden_truth_pass_rate": ZERO,
        "prefilled_ratio": ZERO,
        **rates,
    }
    return Counts(
        runs=runs,
        total_steps=10,
        reviewed_steps=0,
        unscored_steps=0,
        refused_steps=refused,
        scored_steps=9,
        discretionary_blocker_recall=RecallCount(**recall.model_dump(), basis=basis),
        tool_match_accuracy=ToolMatchCount(**tool.model_dump(), true=0, partial=0, false=0),
        dimension_means={},
        **fields,
    )


def rates_of(counts: Counts) -> Rates:
    def value(name: str) -> float | None:
        count: RateCount = getattr(counts, name)
        return None if count.denominator == 0 else count.numerator / count.denominator

    names = (
        MANDATED,
        "discretionary_ask_precision",
        RECALL,
        "tool_match_accuracy",
        "distraction_detection_rate",
        "golden_truth_pass_rate",
        "prefilled_ratio",
    )
    return Rates(**{name: value(name) for name in names}, dimension_means={})


# --- thresholds -------------------------------------------------------------------------------------


def test_a_threshold_with_refused_units_is_bounded_and_one_without_is_the_ordinary_check() -> None:
    counts = counts_of(mandated_compliance_rate=rate_count(7, 11, 1), tool_match_accuracy=rate_count(9, 9))
    thresholds = Thresholds(min_mandated_compliance=0.9, min_tool_match=0.5)
    bounded, ordinary = threshold_checks(rates_of(counts), thresholds, counts)
    assert bounded == Check(
        name="min_mandated_compliance",
        rate=MANDATED,
        observed=7 / 11,
        limit=0.9,
        outcome="fail",
        reason="mandated_compliance_rate is 0.6364 (7 / 11), not at least 0.9 (min_mandated_compliance); decided "
        "despite 1 refused step(s): at best 8 / 12 = 0.667 < 0.9",
    )
    assert ordinary == Check(
        name="min_tool_match",
        rate="tool_match_accuracy",
        observed=1.0,
        limit=0.5,
        outcome="pass",
        reason="tool_match_accuracy is 1, at least 0.5 (min_tool_match)",
    )
    assert threshold_checks(rates_of(counts), thresholds)[0].reason.endswith(
        "not at least 0.9 (min_mandated_compliance)"
    )


def test_figures_of_several_scoring_models_leave_a_gate_rate_unchecked_and_the_others_checked() -> None:
    counts = counts_of(mandated_compliance_rate=rate_count(9, 10), tool_match_accuracy=rate_count(9, 9))
    thresholds = Thresholds(min_mandated_compliance=0.5, min_tool_match=0.5)
    mixed, tool = threshold_checks(rates_of(counts), thresholds, counts, mixed_models=True)
    assert mixed == Check(
        name="min_mandated_compliance",
        rate=MANDATED,
        observed=0.9,
        limit=0.5,
        outcome="refused",
        reason="min_mandated_compliance: the recorded mandated_compliance_rate adds up scores recorded under different "
        "scoring models, whose gate rules differ; it cannot be checked",
    )
    assert tool.outcome == "pass"
    assert [check.outcome for check in threshold_checks(rates_of(counts), thresholds, counts)] == ["pass", "pass"]
    scope = Scope(source="recorded", scoring_model=None, suites=(), mixed_models=True)
    decided = decide(rates_of(counts), thresholds, scope=scope, refusal_reasons=[], disagreements=0, counts=counts)
    assert decided.outcome == "refused"


def test_recall_on_the_matched_basis_with_refused_steps_is_never_bounded_as_a_proportion() -> None:
    recall = rate_count(3, 2, 1)  # two questions about one blocker: above 1
    counts = counts_of(basis="matched", refused=2, **{RECALL: recall})
    (check,) = threshold_checks(rates_of(counts), Thresholds(min_blocker_recall=0.5), counts)
    assert check == Check(
        name="min_blocker_recall",
        rate=RECALL,
        observed=1.5,
        limit=0.5,
        outcome="refused",
        reason="min_blocker_recall: discretionary_blocker_recall on the matched basis counts matched questions over "
        "blockers, which the 2 refused step(s) could move anywhere (it is no proportion); it cannot be checked",
    )
    addressed = counts_of(**{RECALL: rate_count(2, 2, 1)})
    (bounded,) = threshold_checks(rates_of(addressed), Thresholds(min_blocker_recall=0.5), addressed)
    assert bounded.outcome == "pass"  # at worst 2 / 3


@pytest.mark.parametrize(
    ("rate", "basis", "expected"),
    [(RECALL, "matched", True), (RECALL, "addressed", False), (RECALL, None, False), (MANDATED, "matched", False)],
)
def test_only_recall_on_the_matched_basis_is_no_proportion(rate: str, basis: str | None, expected: bool) -> None:
    assert not_a_proportion(counts_of(basis=basis), rate) is expected


def test_a_rate_with_no_derivable_data_but_refused_units_stays_undecided() -> None:
    part = RefusedPart(Fraction(2), 3)
    check = bounded_threshold_check("min_mandated_compliance", MANDATED, rate_count(0, 0, 2), 0.0, part, Thresholds())
    assert check == Check(
        name="min_mandated_compliance",
        rate=MANDATED,
        observed=None,
        limit=0.0,
        outcome="refused",
        reason="min_mandated_compliance: mandated_compliance_rate has no data in the derivable steps, and the 3 "
        "refused step(s) could give it any value or none",
    )


def test_with_no_bound_the_reach_runs_from_0_to_1_and_names_what_the_refused_steps_could_hold() -> None:
    part = RefusedPart(None, 2)
    check = bounded_threshold_check(
        "min_ask_precision", "discretionary_ask_precision", rate_count(3, 4, None), 0.5, part, Thresholds()
    )
    assert check == Check(
        name="min_ask_precision",
        rate="discretionary_ask_precision",
        observed=0.75,
        limit=0.5,
        outcome="refused",
        reason="discretionary_ask_precision is 0.75 (3 / 4) over the derivable steps (min_ask_precision), but the 2 "
        "refused step(s) could make it anything from 0 (they could hold any number of questions) to 1 (they could "
        "hold any number of questions): on both sides of 0.5",
    )


def test_on_the_interval_the_reach_names_each_extreme_s_interval() -> None:
    check = bounded_threshold_check(
        "min_mandated_compliance", MANDATED, rate_count(7, 11, 1), 0.5, RefusedPart(Fraction(1), 1),
        Thresholds(threshold_basis="interval"),
    )  # fmt: skip
    assert check.outcome == "refused"
    assert check.observed == 7 / 11
    assert check.reason.endswith(
        "anything from 7 / 12 = 0.583 (95% 0.320-0.807) to 8 / 12 = 0.667 (95% 0.391-0.862): on both sides of 0.5"
    )


# --- the extremes themselves ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("numerator", "denominator", "limit", "verdict"),
    [
        (3, 4, 0.0, "pass"),
        (3, 4, -0.5, "pass"),
        (3, 4, 0.5, "undecided"),
        (3, 4, 1.0, "fail"),  # the derivable units already miss: it never reaches 1
        (4, 4, 1.0, "undecided"),  # every derivable unit passed: it stays 1 if the refused ones all pass
        (4, 4, 1.5, "fail"),
    ],
)
def test_with_no_bound_a_floor_is_decided_only_at_its_ends(
    numerator: int, denominator: int, limit: float, verdict: str
) -> None:
    assert unbounded_floor(Fraction(numerator), Fraction(denominator), limit) == verdict
    assert point_floor(Fraction(numerator), Fraction(denominator), RefusedPart(None, 1), limit) == verdict
    assert (
        interval_floor(MANDATED, Fraction(numerator), Fraction(denominator), RefusedPart(None, 1), limit, 0.95)
        == verdict
    )


def test_an_extreme_exactly_at_the_limit_keeps_it() -> None:
    part = RefusedPart(Fraction(1), 1)
    assert point_floor(Fraction(7), Fraction(11), part, 7 / 12) == "pass"  # at worst 7 / 12: the limit itself
    assert point_floor(Fraction(7), Fraction(11), part, 8 / 12) == "undecided"  # at best 8 / 12: the limit itself
    worst, best = extreme_intervals(MANDATED, Fraction(7), Fraction(11), Fraction(1), 0.95)
    assert interval_floor(MANDATED, Fraction(7), Fraction(11), part, worst.low, 0.95) == "pass"
    assert interval_floor(MANDATED, Fraction(7), Fraction(11), part, best.high, 0.95) == "undecided"
    assert interval_floor(MANDATED, Fraction(7), Fraction(11), part, 0.5, 0.95) == "undecided"


# --- the baseline -----------------------------------------------------------------------------------


def side(successes: int, trials: int) -> Any:
    return rate_proportion(MANDATED, successes, trials, 0.95)


def test_a_baseline_check_decided_at_both_extremes_says_so_and_keeps_the_all_failing_interval() -> None:
    counts = counts_of(mandated_compliance_rate=rate_count(900, 1000, 5))
    check = bounded_regression_check(
        MANDATED, side(900, 1000), counts, Thresholds(), "min", RefusedPart(Fraction(5), 1)
    )
    worst = regression_check(MANDATED, side(900, 1000), side(900, 1005), 0.05, "min")
    assert worst is not None
    assert check == Check(
        name=f"baseline:{MANDATED}",
        rate=MANDATED,
        observed=0.9,
        limit=0.9,
        outcome="pass",
        reason=f"decided despite 1 refused step(s), the same with all of them failing and all passing: {worst.reason}",
        interval=worst.interval,
    )


def test_a_baseline_check_the_refused_steps_could_decide_either_way_is_refused_with_both_sides() -> None:
    counts = counts_of(mandated_compliance_rate=rate_count(90, 100, 60), refused=4)
    check = bounded_regression_check(MANDATED, side(90, 100), counts, Thresholds(), "min", RefusedPart(Fraction(60), 4))
    worst = regression_check(MANDATED, side(90, 100), side(90, 160), 0.05, "min")
    best = regression_check(MANDATED, side(90, 100), side(150, 160), 0.05, "min")
    assert worst is not None
    assert best is not None
    assert (worst.outcome, best.outcome) == ("fail", "pass")
    assert check.outcome == "refused"
    assert check.reason == (
        f"the 4 refused step(s) could decide it either way: with all of them failing, {worst.reason}; with all "
        f"passing, {best.reason}"
    )


@pytest.mark.parametrize(
    ("count", "part", "observed", "why"),
    [
        (rate_count(9, 10, None), RefusedPart(None, 2), 0.9, "could hold any number of gated calls"),
        (rate_count(0, 0, 3), RefusedPart(Fraction(3), 2), None, "could give it any value or none"),
    ],
)
def test_a_baseline_check_with_no_bound_or_no_derivable_data_is_refused(
    count: RateCount, part: RefusedPart, observed: float | None, why: str
) -> None:
    counts = counts_of(mandated_compliance_rate=count)
    check = bounded_regression_check(MANDATED, side(8, 10), counts, Thresholds(), "min", part)
    assert check == Check(
        name=f"baseline:{MANDATED}",
        rate=MANDATED,
        observed=observed,
        limit=0.8,
        outcome="refused",
        reason=f"the baseline's {MANDATED} was 0.8; the change cannot be bounded: the 2 refused step(s) {why}",
    )


def test_every_rate_of_the_baseline_is_compared_bounded_or_not(tmp_path: Any) -> None:
    current = counts_of(
        mandated_compliance_rate=rate_count(900, 1000, 5),
        tool_match_accuracy=rate_count(1000, 1000, 5),
        golden_truth_pass_rate=rate_count(10, 10, 3),  # a review rate: refused steps never touch it
    )
    before = counts_of(
        mandated_compliance_rate=rate_count(900, 1000),
        tool_match_accuracy=rate_count(1000, 1000),
        golden_truth_pass_rate=rate_count(10, 10),
    )
    baseline: Any = type("Baseline", (), {"counts": before})()
    checks = baseline_checks(current, baseline, Thresholds())
    assert [(check.rate, check.reason.startswith("decided despite")) for check in checks] == [
        (MANDATED, True),
        ("tool_match_accuracy", True),
        ("golden_truth_pass_rate", False),
    ]


def test_a_baseline_recall_on_the_matched_basis_with_refused_steps_is_refused_and_one_not_measured_is_skipped() -> None:
    current = counts_of(
        basis="matched", refused=2, tool_match_accuracy=rate_count(5, 5), **{RECALL: rate_count(1, 2, 1)}
    )
    before = counts_of(basis="matched", tool_match_accuracy=rate_count(5, 5), **{RECALL: rate_count(1, 2)})
    baseline: Any = type("Baseline", (), {"counts": before})()
    check, tool = baseline_checks(current, baseline, Thresholds())
    assert tool.rate == "tool_match_accuracy"  # the rates after it are still compared
    assert check == Check(
        name=f"baseline:{RECALL}",
        rate=RECALL,
        observed=None,
        limit=0.5,
        outcome="refused",
        reason=f"baseline:{RECALL}: {RECALL} on the matched basis counts matched questions over blockers, which the 2 "
        "refused step(s) could move anywhere (it is no proportion); it cannot be checked",
    )
    unmeasured: Any = type("Baseline", (), {"counts": counts_of(basis="matched")})()
    assert baseline_checks(current, unmeasured, Thresholds()) == []


def test_a_bounded_baseline_check_knows_which_way_is_worse() -> None:
    current = counts_of(mandated_compliance_rate=rate_count(800, 1000, 5))
    baseline: Any = type("Baseline", (), {"counts": counts_of(mandated_compliance_rate=rate_count(1000, 1000))})()
    (check,) = baseline_checks(current, baseline, Thresholds())
    assert (check.outcome, check.observed) == ("fail", 0.8)  # a fall of 0.2 whatever the 5 refused units hold


@pytest.mark.parametrize(
    ("trials_per_run", "expected"),
    [(None, None), (0.0, None), (-1.0, None), (1.0, 9), (2.0, 5), (100.0, 1)],
)
def test_the_runs_needed_are_the_trials_needed_in_runs_rounded_up_and_at_least_one(
    trials_per_run: float | None, expected: int | None
) -> None:
    assert runs_needed(side(6, 6), side(5, 6), 0.5, trials_per_run) == expected  # 9 trials per side


def test_an_undecided_baseline_check_keeps_the_rate_now_and_the_baseline_s() -> None:
    check = regression_check(MANDATED, side(6, 6), side(5, 6), 0.5, "min", trials_per_run=2.0)
    assert check is not None
    assert (check.outcome, check.observed, check.limit, check.runs_needed) == ("refused", 5 / 6, 1.0, 5)


def test_no_practical_number_of_runs_decides_an_estimate_at_the_tolerance_itself() -> None:
    assert runs_needed(side(4, 6), side(4, 6), 0.0, 2.0) is None


def test_the_noisy_baseline_checks_share_one_line_naming_the_most_runs_and_the_others_keep_theirs() -> None:
    def refused(rate: str, runs: int | None) -> Check:
        return Check(
            name=rate, rate=rate, observed=0.5, limit=0.5, outcome="refused", reason=f"{rate} why", runs_needed=runs
        )

    checks = [
        refused("a", 40),
        refused("b", None),
        refused("c", 770),
        refused("d", 3).model_copy(update={"outcome": "pass"}),
    ]
    assert undecided_reasons(checks, 0.05) == [
        "b why",
        "baseline: too few runs to decide --max-drop 0.05 for a, c; about 770 runs per side would decide them",
    ]
