"""The intervals of the rates and of their changes, against an independent implementation (statsmodels)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from evalscore.scoring.intervals import (
    DIMENSION_METHOD,
    MAX_TRIALS,
    RATE_METHODS,
    Proportion,
    bounded_mean,
    dimension_proportion,
    newcombe,
    proportion,
    rate_proportion,
    trials_needed,
    wilson,
    z_score,
)

CONFIDENCES = st.sampled_from([0.8, 0.9, 0.95, 0.99])


@st.composite
def counts(draw: st.DrawFn) -> tuple[int, int]:
    trials = draw(st.integers(1, 500) | st.sampled_from([1, 2, 3]))
    successes = draw(st.sampled_from([0, trials]) | st.integers(0, trials))
    return successes, trials


@given(counts(), CONFIDENCES)
def test_wilson_is_statsmodels_wilson_including_none_all_and_one_trial(
    count: tuple[int, int], confidence: float
) -> None:
    successes, trials = count
    interval = wilson(successes, trials, confidence)
    assert interval is not None
    low, high = proportion_confint(successes, trials, alpha=1 - confidence, method="wilson")
    assert math.isclose(interval.low, low, abs_tol=1e-12)
    assert math.isclose(interval.high, high, abs_tol=1e-12)
    assert 0.0 <= interval.low <= successes / trials <= interval.high <= 1.0
    assert (interval.confidence, interval.method) == (confidence, "wilson")


@given(counts(), counts(), CONFIDENCES)
def test_newcombe_is_statsmodels_newcomb_for_the_difference_of_two_proportions(
    first: tuple[int, int], second: tuple[int, int], confidence: float
) -> None:
    one, two = proportion(*first, confidence), proportion(*second, confidence)
    assert one is not None
    assert two is not None
    interval = newcombe(one, two)
    low, high = confint_proportions_2indep(
        first[0], first[1], second[0], second[1], method="newcomb", compare="diff", alpha=1 - confidence
    )
    assert math.isclose(interval.low, float(low), abs_tol=1e-9)
    assert math.isclose(interval.high, float(high), abs_tol=1e-9)
    assert interval.low <= one.estimate - two.estimate <= interval.high
    assert interval.method == "newcombe"


def test_the_issues_example_four_of_six() -> None:
    interval = wilson(4, 6, 0.95)
    assert interval is not None
    assert (round(interval.low, 3), round(interval.high, 3)) == (0.300, 0.903)


def test_no_trial_has_no_interval() -> None:
    assert wilson(0, 0, 0.95) is None
    assert bounded_mean(0, 0, 3.0, 0.95) is None
    assert proportion(0, 0, 0.95) is None


def test_the_z_score_of_95_percent() -> None:
    assert math.isclose(z_score(0.95), 1.959963984540054)


def test_a_bounded_mean_is_wilson_on_the_unit_scale_then_scaled() -> None:
    unit = wilson(5 / 3, 4, 0.95)  # grades summing to 5 over 4 steps, on 0-3
    scaled = bounded_mean(5, 4, 3.0, 0.95)
    assert unit is not None
    assert scaled is not None
    assert math.isclose(scaled.low, unit.low * 3)
    assert math.isclose(scaled.high, unit.high * 3)
    assert scaled.method == "wilson-bounded-mean"


def test_each_rate_has_its_method_and_a_dimension_mean_its_0_to_3_scale() -> None:
    assert RATE_METHODS["tool_match_accuracy"] == "wilson-bounded-mean"
    assert {method for name, method in RATE_METHODS.items() if name != "tool_match_accuracy"} == {"wilson"}
    assert len(RATE_METHODS) == 7
    assert DIMENSION_METHOD == ("wilson-bounded-mean", 3.0)
    calibration = dimension_proportion(5, 4, 0.95)
    assert calibration is not None
    assert calibration.interval.high > 1.0  # on the grades' own scale
    tool = rate_proportion("tool_match_accuracy", 3.5, 4, 0.95)
    assert tool is not None
    assert tool.interval.method == "wilson-bounded-mean"


def side(successes: float, trials: float) -> Proportion:
    made = proportion(successes, trials, 0.95)
    assert made is not None
    return made


@pytest.mark.parametrize(
    ("before", "now", "tolerance"),
    [((6, 6), (5, 6), 0.5), ((6, 10), (6, 10), 0.1), ((60, 100), (55, 100), 0.1), ((9, 10), (30, 40), 0.2)],
)
def test_the_trials_needed_bring_the_interval_of_the_change_to_the_tolerance(
    before: tuple[int, int], now: tuple[int, int], tolerance: float
) -> None:
    worse, better = side(*before), side(*now)
    assert newcombe(worse, better).high > tolerance, "the example must be undecided at its present size"
    needed = trials_needed(worse, better, tolerance)
    assert needed is not None
    assert needed > max(worse.trials, better.trials)

    def high_end(trials: int) -> float:
        return newcombe(side(worse.estimate * trials, trials), side(better.estimate * trials, trials)).high

    assert high_end(needed) <= tolerance < high_end(needed - 1)  # the fewest that decide


def test_the_issues_worked_example_needs_97_trials_per_side() -> None:
    assert trials_needed(side(6, 6), side(3, 5), 0.5) == 97


def test_no_number_of_trials_decides_a_tolerance_the_estimate_sits_on() -> None:
    assert trials_needed(side(9, 10), side(8, 10), 0.1) is None  # 0.9 - 0.8 rounds to 0.09999999999999998


def test_a_worsening_past_the_tolerance_gets_the_trials_that_would_establish_it() -> None:
    worse, better = side(9, 10), side(8, 10)
    needed = trials_needed(worse, better, 0.05)
    assert needed is not None

    def low_end(trials: int) -> float:
        return newcombe(side(0.9 * trials, trials), side(0.8 * trials, trials)).low

    assert low_end(needed) > 0.05 >= low_end(needed - 1)


def test_one_trial_per_side_is_the_least_ever_advised() -> None:
    assert trials_needed(side(10, 10), side(10, 10), 0.99) == 1


def test_the_search_for_trials_gives_up_past_its_cap() -> None:
    assert MAX_TRIALS == 2**40
    assert trials_needed(side(1, 2), side(1, 2), 1e-9) is None  # would need about 10**17 per side
    assert trials_needed(side(1, 2), side(1, 2), 1.08e-6) is None  # would need about 1.5 x 2**40
    found = trials_needed(side(1, 2), side(1, 2), 1.5e-6)  # about 0.78 x 2**40: found
    assert found is not None
    assert 2**39 < found < MAX_TRIALS


def test_a_side_above_its_scale_has_no_interval() -> None:
    assert proportion(3, 2, 0.95) is None
    assert proportion(2, 2, 0.95) is not None
    assert proportion(7, 3, 0.95, "wilson-bounded-mean", 3.0) is not None  # a 0-3 mean of 2.33
    assert proportion(10, 3, 0.95, "wilson-bounded-mean", 3.0) is None


def test_more_successes_than_trials_is_read_as_all() -> None:
    assert wilson(7, 6, 0.95) == wilson(6, 6, 0.95)


def test_a_bounded_mean_without_a_top_given_is_on_the_unit_scale() -> None:
    mean = proportion(3, 4, 0.95, "wilson-bounded-mean")
    unit = wilson(3, 4, 0.95)
    assert mean is not None
    assert unit is not None
    assert (mean.interval.low, mean.interval.high, mean.interval.method) == (unit.low, unit.high, "wilson-bounded-mean")
    plain = proportion(3, 4, 0.95)
    assert plain is not None
    assert plain.interval == unit
