"""What the refused steps could do to a check: it is decided when it comes out the same at both
extremes, and refused only when they could flip it.

A rate is ``n / d`` over the derivable steps. The refused steps could add up to ``at_most`` to its
denominator, were they derivable (``report.RateCount.refused_at_most``: their gated calls, questions,
blockers, distraction steps or steps; None when nothing bounds it), each unit passing or failing.
Every rate they could make lies between the two extremes: all of them failing, ``n / (d + at_most)``,
and all of them passing, ``(n + at_most) / (d + at_most)``; with no bound, anything between 0 and 1
(never 1 itself unless every derivable unit passed). So a floor is passed whatever the refused steps
hold when the lower extreme clears it, failed when the upper one does not. An extreme is compared with
the limit as a double, as a rate with nothing refused is: 9 / 10 meets a limit of 0.9. On a whole interval the
same holds of the interval's ends: a failure more lowers both, a pass more raises both (Wilson's).
Only floors meet refused steps: the review rates (golden truth, pre-filled) are counted over every step.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from evalscore.scoring.intervals import Interval, rate_proportion

Verdict = Literal["pass", "fail", "undecided"]


@dataclass(frozen=True, slots=True)
class RefusedPart:
    """What the refused steps could add to one rate."""

    at_most: Fraction | None
    """The most they could add to its denominator; None: no bound."""
    steps: int
    """How many steps were refused."""


Counts = tuple[Fraction, Fraction]
"""A rate's numerator and denominator."""


def extremes(numerator: Fraction, denominator: Fraction, at_most: Fraction) -> tuple[Counts, Counts]:
    """The counts with every refused unit failing, and with every one passing."""
    total = denominator + at_most
    return (numerator, total), (numerator + at_most, total)


def unbounded_floor(numerator: Fraction, denominator: Fraction, limit: float) -> Verdict:
    """A floor against refused steps that could add any number of units: the rate could be anything from
    0 to 1, reaching 1 only if every derivable unit passed (``denominator`` > 0)."""
    if limit <= 0:
        return "pass"
    if limit > 1 or (limit == 1 and numerator < denominator):
        return "fail"
    return "undecided"


def point_floor(numerator: Fraction, denominator: Fraction, part: RefusedPart, limit: float) -> Verdict:
    """A floor on the rate itself (``denominator`` > 0), whatever the refused steps hold."""
    if part.at_most is None:
        return unbounded_floor(numerator, denominator, limit)
    (low_n, low_d), (high_n, high_d) = extremes(numerator, denominator, part.at_most)
    if float(low_n / low_d) >= limit:
        return "pass"
    if float(high_n / high_d) < limit:
        return "fail"
    return "undecided"


def extreme_intervals(
    rate: str, numerator: Fraction, denominator: Fraction, at_most: Fraction, confidence: float
) -> tuple[Interval, Interval]:
    """The rate's interval at either extreme."""
    (low_n, low_d), (high_n, high_d) = extremes(numerator, denominator, at_most)
    worst = rate_proportion(rate, low_n, low_d, confidence)
    best = rate_proportion(rate, high_n, high_d, confidence)
    assert worst is not None
    assert best is not None
    return worst.interval, best.interval


def interval_floor(
    rate: str, numerator: Fraction, denominator: Fraction, part: RefusedPart, limit: float, confidence: float
) -> Verdict:
    """A floor on the rate's whole interval (``denominator`` > 0), whatever the refused steps hold: passed
    when all of the lower extreme's interval clears it, failed when none of the upper extreme's does."""
    if part.at_most is None:  # the intervals' ends run from 0 to 1 as the rate does
        return unbounded_floor(numerator, denominator, limit)
    worst, best = extreme_intervals(rate, numerator, denominator, part.at_most, confidence)
    if worst.low >= limit:
        return "pass"
    if best.high < limit:
        return "fail"
    return "undecided"
