"""Sampling noise: an interval for every rate, and for the change of a rate against a baseline.

A rate is a proportion over a handful of gates or steps, and a figure of 4/6 is compatible with
anything from about 0.30 to 0.90. Every rate therefore carries an interval at a stated confidence,
and a baseline comparison decides only what the interval of the change can decide (``decision``).
Only the standard library is used (``statistics.NormalDist``); ``docs/statistics.md`` says why each
method fits its rate and what the figures cannot know (steps within a run are not independent).

- ``wilson``: the Wilson score interval of successes over trials (mandated compliance, ask
  precision, blocker recall, distraction detection, golden-truth pass rate, pre-filled ratio). It
  stays inside [0, 1] and is informative at 0/n and n/n, where the simple normal interval collapses.
- ``wilson-bounded-mean``: a mean of per-step values bounded in [0, 1] (tool match: 1, 0.5 or 0 per
  step; a dimension mean, its 0-3 grades divided by 3): the Wilson interval of that mean over the
  number of steps. A variable in [0, 1] with mean m has a variance of at most m(1 - m), the
  variance the Wilson interval assumes, so the interval is not narrower than the data allow.
- ``newcombe``: Newcombe's hybrid score interval (his method 10) for the difference of two
  proportions, built from each side's Wilson interval; used for the change of every rate, with the
  bounded means as above.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Final, Literal

Method = Literal["wilson", "wilson-bounded-mean", "newcombe"]
DEFAULT_CONFIDENCE: Final = 0.95


@dataclass(frozen=True, slots=True)
class Interval:
    """``low`` to ``high`` at ``confidence`` by ``method``."""

    low: float
    high: float
    confidence: float
    method: Method


def z_score(confidence: float) -> float:
    """The two-sided standard normal quantile of ``confidence`` (1.959963... for 0.95). Taken from the
    lower tail: ``0.5 + confidence / 2`` rounds to 1 for a confidence within 1e-16 of 1."""
    return -NormalDist().inv_cdf((1 - confidence) / 2)


def wilson(
    successes: float | Fraction, trials: float | Fraction, confidence: float, method: Method = "wilson"
) -> Interval | None:
    """The Wilson score interval of ``successes / trials``; None when there are no trials."""
    n = float(trials)
    if n <= 0:
        return None
    p = min(max(float(successes) / n, 0.0), 1.0)
    z = z_score(confidence)
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    # At 0/n the lower end is 0 exactly, at n/n the upper end 1 (the two terms are equal): rounding
    # must not leave a rate of 0 outside its own interval.
    low = 0.0 if p == 0 else max(0.0, centre - half)
    high = 1.0 if p == 1 else min(1.0, centre + half)
    return Interval(low, high, confidence, method)


def bounded_mean(total: float | Fraction, count: float | Fraction, top: float, confidence: float) -> Interval | None:
    """The interval of a mean of values in [0, ``top``] (``total`` over ``count`` values), on that scale."""
    unit = wilson(float(total) / top, count, confidence, "wilson-bounded-mean")
    if unit is None:
        return None
    return Interval(unit.low * top, unit.high * top, confidence, unit.method)


@dataclass(frozen=True, slots=True)
class Proportion:
    """One side of a comparison: the estimate and its interval, on the rate's own scale."""

    estimate: float
    interval: Interval
    trials: float
    """How many trials (or values, for a mean) the estimate rests on."""


def proportion(
    successes: float | Fraction,
    trials: float | Fraction,
    confidence: float,
    method: Method = "wilson",
    top: float = 1.0,
) -> Proportion | None:
    """``successes / trials`` with its interval (a bounded mean on [0, ``top``] for ``wilson-bounded-mean``);
    None without trials, and None when the successes exceed the scale (a figure above it, as
    blocker recall on the older ``matched`` basis can be, is not a proportion: no interval holds it)."""
    if successes > trials * top:
        return None
    if method == "wilson-bounded-mean":
        interval = bounded_mean(successes, trials, top, confidence)
    else:
        interval = wilson(successes, trials, confidence, method)
    if interval is None:
        return None
    return Proportion(float(successes) / float(trials), interval, float(trials))


def newcombe(first: Proportion, second: Proportion) -> Interval:
    """Newcombe's hybrid score interval of ``first - second`` (method 10), at the sides' confidence."""
    difference = first.estimate - second.estimate
    low = difference - math.hypot(first.estimate - first.interval.low, second.interval.high - second.estimate)
    high = difference + math.hypot(first.interval.high - first.estimate, second.estimate - second.interval.low)
    return Interval(low, high, first.interval.confidence, "newcombe")


ChangeVerdict = Literal["fail", "pass", "undecided"]


def change_verdict(change: Interval, tolerance: float) -> ChangeVerdict:
    """The three-way rule on the interval of a worsening: all of it above ``tolerance`` fails (a
    regression is established), all of it at or below passes, one that straddles it is undecided."""
    if change.low > tolerance:
        return "fail"
    if change.high <= tolerance:
        return "pass"
    return "undecided"


def trials_needed(worse: Proportion, better: Proportion, tolerance: float) -> int | None:
    """Roughly how many trials per side would decide ``worse - better`` against ``tolerance``, were
    the estimates to stay as they are: the fewest ``m`` with both sides' estimates over ``m`` trials
    whose Newcombe interval ``change_verdict`` decides (it passes when the estimate is below the
    tolerance, fails when above). None when no number up to ``MAX_TRIALS`` does: the estimate is the
    tolerance itself, or within about a millionth of it.
    """

    def decided(trials: int) -> bool:
        return change_verdict(newcombe(_grown(worse, trials), _grown(better, trials)), tolerance) != "undecided"

    enough = 1
    while not decided(enough):
        if enough >= MAX_TRIALS:
            return None
        enough *= 2
    short = enough // 2  # not enough (or 0); the fewest that decide lie above it, at most ``enough``
    while enough - short > 1:
        middle = (short + enough) // 2
        if decided(middle):
            enough = middle
        else:
            short = middle
    return enough


MAX_TRIALS: Final = 2**40
"""Where the search for the trials that would decide a comparison gives up (a margin of about 1e-6)."""


def _grown(side: Proportion, trials: int) -> Proportion:
    """``side``'s estimate over ``trials`` trials. Wilson's arithmetic serves both methods: a bounded
    mean on [0, 1] is the Wilson interval of its mean."""
    grown = proportion(side.estimate * trials, trials, side.interval.confidence)
    assert grown is not None  # trials >= 1 and the estimate is in [0, 1]
    return grown


RATE_METHODS: Final[dict[str, Method]] = {
    "mandated_compliance_rate": "wilson",
    "discretionary_ask_precision": "wilson",
    "discretionary_blocker_recall": "wilson",
    "tool_match_accuracy": "wilson-bounded-mean",
    "distraction_detection_rate": "wilson",
    "golden_truth_pass_rate": "wilson",
    "prefilled_ratio": "wilson",
}
"""How each rate's interval is made; every rate is on a [0, 1] scale."""
DIMENSION_METHOD: Final[tuple[Method, float]] = ("wilson-bounded-mean", 3.0)
"""A dimension mean is a mean of 0-3 grades."""


def rate_proportion(
    rate: str, numerator: float | Fraction, denominator: float | Fraction, confidence: float
) -> Proportion | None:
    """One of the report's rates (``RATE_METHODS``) as a proportion with its interval; None when its
    denominator is 0."""
    return proportion(numerator, denominator, confidence, RATE_METHODS[rate])


def dimension_proportion(total: float | Fraction, count: float | Fraction, confidence: float) -> Proportion | None:
    """A dimension mean (grades 0-3) with its interval; None without grades."""
    method, top = DIMENSION_METHOD
    return proportion(total, count, confidence, method, top)
