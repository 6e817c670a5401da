"""The bound rule against brute force: a check is decided exactly when every way the refused steps could
turn out gives it the same outcome.

Each refused unit (a gated call, a question, a blocker, a step) could be derivable and pass or fail, and
the refused steps could hold anywhere from none to ``refused_at_most`` of them: every ``(c, x)`` with
``0 <= x <= c <= at_most`` is a way they could turn out (``x`` of ``c`` units passing). The reference
tries them all; the rule looks at two extremes only. With no bound, the reference tries a range of
``c`` wide enough to reach every outcome the limits here allow.
"""

from __future__ import annotations

from fractions import Fraction

from _budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from evalscore.scoring.decision import bounded_regression_check, bounded_threshold_check, regression_check
from evalscore.scoring.intervals import rate_proportion
from evalscore.scoring.refused_bounds import RefusedPart
from evalscore.scoring.report import Counts, RateCount, RecallCount, ToolMatchCount
from evalscore.scoring.thresholds import Thresholds

RATES = ("mandated_compliance_rate", "tool_match_accuracy")
LIMITS = st.sampled_from([Fraction(value, 20) for value in range(21)])
SETTINGS = settings(max_examples=examples(50))


def threshold_outcome(rate: str, numerator: Fraction, denominator: Fraction, limit: Fraction, basis: str) -> str:
    """A floor decided on ``numerator / denominator`` with nothing refused, as ``threshold_check`` decides it
    (a rate is a double, and so is the limit the command line gives): the reference's verdict."""
    if denominator == 0:
        return "refused"
    if basis == "point":
        return "pass" if float(numerator / denominator) >= float(limit) else "fail"
    proportion = rate_proportion(rate, numerator, denominator, 0.95)
    assert proportion is not None
    if proportion.interval.low >= float(limit):
        return "pass"
    return "fail" if proportion.interval.high < float(limit) else "refused"


def ways(at_most: int) -> list[tuple[int, int]]:
    """Every ``(units, passing)`` the refused steps could hold; half-points too (a partial tool match)."""
    return [(units, passing) for units in range(at_most + 1) for passing in range(units + 1)]


def reference(rate: str, numerator: int, denominator: int, at_most: int, limit: Fraction, basis: str) -> str:
    outcomes = {
        threshold_outcome(rate, Fraction(numerator + passing), Fraction(denominator + units), limit, basis)
        for units, passing in ways(at_most)
    }
    return outcomes.pop() if len(outcomes) == 1 else "refused"


def count(numerator: int, denominator: int, at_most: int | None) -> RateCount:
    return RateCount(numerator=numerator, denominator=denominator, refused_at_most=at_most)


@SETTINGS
@given(
    rate=st.sampled_from(RATES),
    denominator=st.integers(0, 25),
    share=st.floats(0, 1),
    at_most=st.integers(1, 6),
    limit=LIMITS,
    basis=st.sampled_from(("point", "interval")),
)
def test_a_threshold_is_decided_exactly_when_no_way_the_refused_steps_turn_out_could_flip_it(
    rate: str, denominator: int, share: float, at_most: int, limit: Fraction, basis: str
) -> None:
    numerator = round(share * denominator)
    thresholds = Thresholds(threshold_basis=basis, min_mandated_compliance=float(limit))  # type: ignore[arg-type]
    part = RefusedPart(Fraction(at_most), 1)
    check = bounded_threshold_check("t", rate, count(numerator, denominator, at_most), float(limit), part, thresholds)
    assert check.outcome == reference(rate, numerator, denominator, at_most, limit, basis)


@SETTINGS
@given(
    rate=st.sampled_from(RATES),
    denominator=st.integers(1, 25),
    share=st.floats(0, 1),
    limit=LIMITS,
    basis=st.sampled_from(("point", "interval")),
)
def test_with_no_bound_a_threshold_is_decided_only_when_no_number_of_refused_units_could_flip_it(
    rate: str, denominator: int, share: float, limit: Fraction, basis: str
) -> None:
    """Past a few thousand units the extremes are within a hair of 0 and 1: a reference over that many decides
    every limit of a twentieth as an unbounded one would."""
    numerator = round(share * denominator)
    thresholds = Thresholds(threshold_basis=basis)  # type: ignore[arg-type]
    check = bounded_threshold_check(
        "t", rate, count(numerator, denominator, None), float(limit), RefusedPart(None, 1), thresholds
    )
    extremes = [(0, 0), (4000, 0), (4000, 4000)]
    outcomes = {
        threshold_outcome(rate, Fraction(numerator + passing), Fraction(denominator + units), limit, basis)
        for units, passing in extremes
    }
    expected = outcomes.pop() if len(outcomes) == 1 else "refused"
    assert check.outcome == expected


def counts_with(rate: str, numerator: int, denominator: int, at_most: int, runs: int = 1) -> Counts:
    zero = RateCount(numerator=0, denominator=0)
    chosen = count(numerator, denominator, at_most)
    tool = ToolMatchCount(
        numerator=numerator if rate == "tool_match_accuracy" else 0,
        denominator=denominator if rate == "tool_match_accuracy" else 0,
        refused_at_most=at_most if rate == "tool_match_accuracy" else 0,
        true=0,
        partial=0,
        false=0,
    )
    return Counts(
        runs=runs,
        total_steps=denominator,
        reviewed_steps=0,
        unscored_steps=0,
        refused_steps=1,
        scored_steps=denominator,
        mandated_compliance_rate=chosen if rate == "mandated_compliance_rate" else zero,
        discretionary_ask_precision=zero,
        discretionary_blocker_recall=RecallCount(numerator=0, denominator=0, basis=None),
        tool_match_accuracy=tool,
        distraction_detection_rate=zero,
        golden_truth_pass_rate=zero,
        dimension_means={},
        prefilled_ratio=zero,
    )


@SETTINGS
@given(
    rate=st.sampled_from(RATES),
    before_trials=st.integers(1, 40),
    before_share=st.floats(0, 1),
    denominator=st.integers(1, 40),
    share=st.floats(0, 1),
    at_most=st.integers(1, 6),
    max_drop=st.sampled_from((0.0, 0.05, 0.1, 0.2, 0.3)),
)
def test_a_baseline_check_is_decided_exactly_when_no_way_the_refused_steps_turn_out_could_flip_it(
    rate: str, before_trials: int, before_share: float, denominator: int, share: float, at_most: int, max_drop: float
) -> None:
    numerator = round(share * denominator)
    before = rate_proportion(rate, round(before_share * before_trials), before_trials, 0.95)
    assert before is not None
    thresholds = Thresholds(max_drop=max_drop)
    counts = counts_with(rate, numerator, denominator, at_most)
    check = bounded_regression_check(rate, before, counts, thresholds, "min", RefusedPart(Fraction(at_most), 1))
    outcomes = set()
    for units, passing in ways(at_most):
        now = rate_proportion(rate, numerator + passing, denominator + units, 0.95)
        checked = regression_check(rate, before, now, max_drop, "min")
        assert checked is not None
        outcomes.add(checked.outcome)
    assert check.outcome == (outcomes.pop() if len(outcomes) == 1 else "refused")
