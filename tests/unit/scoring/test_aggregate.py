"""The mergeable aggregate and its rates: null on a zero denominator, exact merges."""

from __future__ import annotations

from fractions import Fraction
from functools import reduce

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalscore.models import AutoScore, DiscretionaryScore, StepScore
from evalscore.scoring.aggregate import (
    Aggregate,
    AggregateSum,
    aggregate,
    auto_counts,
    compute_rates,
    empty,
    from_auto,
    from_step,
    merge,
    recall_basis,
)

from .builders import review

TOOL_MATCHES = [True, False, "partial"]


def auto(tool_match: object = True, caught: bool | None = None, mandated=None, discretionary=None) -> AutoScore:  # type: ignore[no-untyped-def]
    return AutoScore.model_validate(
        {
            "tool_match": tool_match,
            "distraction_caught": caught,
            "gates": {"mandated": mandated, "discretionary": discretionary},
        }
    )


def test_every_rate_is_null_when_nothing_was_measured() -> None:
    rates = compute_rates(empty())
    values = [
        rates.tool_match_accuracy.value,
        rates.distraction_detection_rate.value,
        rates.golden_truth_pass_rate.value,
        rates.mandated_compliance_rate.value,
        rates.discretionary_ask_precision.value,
        rates.discretionary_blocker_recall.value,
        rates.prefilled_ratio.value,
        *(ratio.value for _, ratio in rates.dimension_means),
    ]
    assert len(values) == 12
    assert values == [None] * 12
    assert rates.recall_basis is None


def test_a_step_without_gates_leaves_the_gate_rates_null_not_zero() -> None:
    rates = compute_rates(from_step(auto(), refused=False, review=None, model="v3"))
    assert rates.tool_match_accuracy.value == 1.0
    assert rates.mandated_compliance_rate.value is None
    assert rates.discretionary_ask_precision.value is None
    assert rates.distraction_detection_rate.value is None


def test_partial_tool_match_counts_half() -> None:
    total = aggregate(from_step(auto(tm), refused=False, review=None, model="v3") for tm in TOOL_MATCHES)
    rates = compute_rates(total)
    assert rates.tool_match_accuracy.value == 0.5
    assert (total.tool_match_true, total.tool_match_partial, total.tool_match_false) == (1, 1, 1)


def test_unscored_and_refused_steps_are_counted_and_excluded_from_auto_rates() -> None:
    parts = [
        from_step(auto(False), refused=False, review=None, model="v3"),
        from_step(None, refused=False, review=None, model="v3"),
        from_step(None, refused=True, review=None, model="v3"),
    ]
    total = aggregate(parts)
    assert (total.total_steps, total.scored_steps, total.unscored_steps, total.refused_steps) == (3, 1, 1, 1)
    assert compute_rates(total).tool_match_accuracy.value == 0.0


def test_mandated_compliance_is_honored_over_required() -> None:
    mandated = {"required": ["g", "g", "h"], "honored": ["g"], "violated": ["g", "h"]}
    rates = compute_rates(from_step(auto(mandated=mandated), refused=False, review=None, model="v3"))
    assert (rates.mandated_compliance_rate.numerator, rates.mandated_compliance_rate.denominator) == (1, 3)


def test_recall_counts_distinct_blockers_addressed_under_v3() -> None:
    disc = {"blockers": 2, "asked": 3, "matched": 3, "unprompted": 0, "addressed": 1}
    rates = compute_rates(from_step(auto(discretionary=disc), refused=False, review=None, model="v3"))
    assert rates.discretionary_blocker_recall.value == 0.5
    assert rates.recall_basis == "addressed"
    assert rates.discretionary_ask_precision.value == 1.0


def test_recall_replays_matched_over_blockers_for_older_scores_and_says_so() -> None:
    disc = {"blockers": 1, "asked": 2, "matched": 2, "unprompted": 0}
    rates = compute_rates(from_step(auto(discretionary=disc), refused=False, review=None, model="v2"))
    assert rates.discretionary_blocker_recall.value == 2.0
    assert rates.recall_basis == "matched"


def test_recall_of_mixed_bases_is_null_and_labelled_mixed() -> None:
    old = from_step(
        auto(discretionary={"blockers": 1, "asked": 1, "matched": 1, "unprompted": 0}),
        refused=False,
        review=None,
        model="v1",
    )
    new = from_step(
        auto(discretionary={"blockers": 1, "asked": 1, "matched": 1, "unprompted": 0, "addressed": 1}),
        refused=False,
        review=None,
        model="v3",
    )
    rates = compute_rates(merge(old, new))
    assert rates.recall_basis == "mixed"
    assert rates.discretionary_blocker_recall.value is None


def test_golden_truth_passes_at_two_over_reviewed_steps_with_a_grade() -> None:
    reviews = [StepScore.model_validate(review(golden=g)) for g in (1, 2, 3, None)]
    total = aggregate(from_step(None, refused=False, review=r, model="v3") for r in reviews)
    rates = compute_rates(total)
    assert (rates.golden_truth_pass_rate.numerator, rates.golden_truth_pass_rate.denominator) == (2, 3)
    assert total.reviewed_steps == 4


def test_dimension_means_are_over_the_steps_that_scored_each_dimension() -> None:
    reviews = [
        StepScore.model_validate(review(calibration=3)),
        StepScore.model_validate(review(calibration=0, explainability=2)),
    ]
    rates = compute_rates(aggregate(from_step(None, refused=False, review=r, model="v3") for r in reviews))
    means = dict(rates.dimension_means)
    assert means["calibration"].value == 1.5
    assert means["explainability"].value == 2.0
    assert means["agency_preservation"].value is None


def test_prefilled_ratio_is_over_all_steps() -> None:
    parts = [
        from_step(None, refused=False, review=StepScore.model_validate(review(pre_filled=True)), model="v3"),
        from_step(None, refused=False, review=StepScore.model_validate(review()), model="v3"),
        from_step(None, refused=True, review=None, model="v3"),
        from_step(None, refused=False, review=None, model="v3"),
    ]
    assert compute_rates(aggregate(parts)).prefilled_ratio.value == 0.25


step_strategy = st.builds(
    lambda tm, caught, req, hon, asked, matched, addressed, refused, unscored, golden, prefilled, model: from_step(
        None
        if unscored
        else auto(
            tm,
            caught,
            {"required": ["g"] * req, "honored": ["g"] * min(hon, req), "violated": ["g"] * (req - min(hon, req))},
            {"blockers": 2, "asked": asked, "matched": min(matched, asked), "unprompted": 0, "addressed": addressed},
        ),
        refused=refused,
        review=StepScore.model_validate(review(golden=golden, pre_filled=prefilled, calibration=golden or 0)),
        model=model,
    ),
    st.sampled_from(TOOL_MATCHES),
    st.sampled_from([True, False, None]),
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(0, 2),
    st.booleans(),
    st.booleans(),
    st.sampled_from([0, 1, 2, 3, None]),
    st.booleans(),
    st.sampled_from(["v1", "v2", "v3"]),
)


@given(st.lists(step_strategy, max_size=12), st.integers(0, 12))
def test_merging_partial_aggregates_gives_exactly_the_aggregate_of_the_whole(steps, cut) -> None:  # type: ignore[no-untyped-def]
    whole = reduce(merge, steps, empty())
    left = reduce(merge, steps[:cut], empty())
    right = reduce(merge, steps[cut:], empty())
    assert merge(left, right) == whole
    assert merge(right, left) == whole
    assert compute_rates(merge(left, right)) == compute_rates(whole)
    assert whole.total_steps == len(steps)


@given(st.lists(step_strategy, max_size=8))
def test_rates_stay_within_zero_and_one_or_are_null(steps) -> None:  # type: ignore[no-untyped-def]
    rates = compute_rates(aggregate(steps))
    for ratio in (
        rates.tool_match_accuracy,
        rates.distraction_detection_rate,
        rates.golden_truth_pass_rate,
        rates.mandated_compliance_rate,
        rates.discretionary_ask_precision,
        rates.prefilled_ratio,
    ):
        assert ratio.value is None or 0.0 <= ratio.value <= 1.0
    assert (rates.tool_match_accuracy.value is None) == (
        sum(1 for _ in steps) == aggregate(steps).refused_steps + aggregate(steps).unscored_steps
    )


def test_empty_is_the_identity_of_merge() -> None:
    one = from_step(auto(), refused=False, review=None, model="v3")
    assert merge(empty(), one) == one == merge(one, empty())


V3_DISC = {"blockers": 2, "asked": 4, "matched": 1, "unprompted": 0, "addressed": 1}
OLD_DISC = {"blockers": 2, "asked": 4, "matched": 1, "unprompted": 0}


def test_an_unmeasured_and_a_mixed_recall_both_report_zero_over_zero() -> None:
    nothing = compute_rates(empty()).discretionary_blocker_recall
    assert (nothing.numerator, nothing.denominator) == (0, 0)
    mixed = compute_rates(
        merge(
            from_step(auto(discretionary=OLD_DISC), refused=False, review=None, model="v2"),
            from_step(auto(discretionary=V3_DISC), refused=False, review=None, model="v3"),
        )
    )
    assert mixed.recall_basis == "mixed"
    assert (mixed.discretionary_blocker_recall.numerator, mixed.discretionary_blocker_recall.denominator) == (0, 0)


def test_distraction_detection_is_caught_over_judged_steps() -> None:
    total = aggregate(
        from_step(auto(caught=caught), refused=False, review=None, model="v3") for caught in (True, False, True, None)
    )
    rate = compute_rates(total).distraction_detection_rate
    assert total.scored_steps == 4
    assert (rate.numerator, rate.denominator) == (2, 3)


@pytest.mark.parametrize(("model", "disc"), [("v2", OLD_DISC), ("v3", V3_DISC)])
def test_ask_precision_is_matched_over_asked_whatever_the_recall_basis(model: str, disc: dict[str, int]) -> None:
    step = from_step(auto(discretionary=disc), refused=False, review=None, model=model)  # type: ignore[arg-type]
    precision = compute_rates(step).discretionary_ask_precision
    assert (precision.numerator, precision.denominator) == (1, 4)


def test_the_aggregate_counts_one_step_per_recall_basis() -> None:
    new = from_step(auto(discretionary=V3_DISC), refused=False, review=None, model="v3")
    old = from_step(auto(discretionary=OLD_DISC), refused=False, review=None, model="v1")
    assert (new.addressed_basis_steps, new.matched_basis_steps) == (1, 0)
    assert (old.addressed_basis_steps, old.matched_basis_steps) == (0, 1)


def test_the_recall_basis_is_addressed_only_for_v3_scores_that_carry_addressed() -> None:
    v3 = DiscretionaryScore.model_validate(V3_DISC)
    v3_without = DiscretionaryScore.model_validate(OLD_DISC)
    assert [recall_basis(v3, "v3"), recall_basis(v3, "v2"), recall_basis(v3_without, "v3")] == [
        "addressed",
        "matched",
        "matched",
    ]


def test_a_v2_score_carrying_addressed_still_replays_matched_over_blockers() -> None:
    rates = compute_rates(from_step(auto(discretionary=V3_DISC), refused=False, review=None, model="v2"))
    assert rates.recall_basis == "matched"
    assert (rates.discretionary_blocker_recall.numerator, rates.discretionary_blocker_recall.denominator) == (1, 2)


def test_one_steps_auto_score_is_aggregated_under_the_model_it_was_computed_with() -> None:
    assert compute_rates(from_auto(auto(discretionary=V3_DISC), "v3")).recall_basis == "addressed"
    assert compute_rates(from_auto(auto(discretionary=V3_DISC), "v1")).recall_basis == "matched"
    assert from_auto(None, "v3") == Aggregate(unscored_steps=1)


def test_aggregates_whose_dimension_totals_do_not_line_up_are_never_merged_by_truncation() -> None:
    short = Aggregate(dimension_totals=(("calibration", 3, 1),))
    with pytest.raises(ValueError, match="zip"):
        merge(short, empty())


def _asked(asked: float) -> AutoScore:
    return auto(discretionary={"blockers": 1, "asked": asked, "matched": 0, "unprompted": 0})


def test_recorded_fractional_counts_are_summed_exactly_not_in_floating_point() -> None:
    steps = [_asked(0.1), _asked(0.2), _asked(3)]
    in_place = AggregateSum()  # a run's steps, as the engine adds them
    for step in steps:
        in_place.add_counts(auto_counts(step, "v2"))
    merged = aggregate(from_auto(step, "v2") for step in steps)
    assert in_place.total().asked == merged.asked == Fraction(0.1) + Fraction(0.2) + 3
    assert merged.asked != Fraction(0.1 + 0.2 + 3)


def test_every_exact_sum_of_an_aggregate_is_a_fraction_even_when_its_terms_are_integers() -> None:
    total = aggregate([from_auto(auto(discretionary=V3_DISC), "v3"), from_auto(auto(discretionary=V3_DISC), "v1")])
    sums = ("asked", "matched", "addressed", "addressed_blockers", "recall_matched", "matched_blockers")
    assert [type(getattr(total, name)) for name in sums] == [Fraction] * 6
    assert (total.asked, total.addressed, total.recall_matched) == (
        2 * V3_DISC["asked"],
        V3_DISC["addressed"],
        V3_DISC["matched"],
    )
