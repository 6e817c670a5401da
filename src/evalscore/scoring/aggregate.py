"""The mergeable aggregate of step facts, and the rates computed from it (SPEC section 4).

``Aggregate`` holds only counts and exact sums (integers and ``Fraction``), so
``merge`` is associative and commutative *exactly*: partial aggregates of the
parts of a corpus combine into the aggregate of the whole, across processes
or machines. Rates are computed last; each keeps its numerator and
denominator, and is None when its denominator is 0 (never 0, never 1).

Steps with no auto score (recorded null, or refused) count in
``unscored_steps``/``refused_steps`` and are excluded from every auto-score
rate. Review rates (golden truth, dimensions, pre-filled) come from the human
review and count every reviewed step.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from operator import attrgetter
from typing import TYPE_CHECKING, Final, Literal, get_args

from evalscore.pickled_as_fields import pickled_as_fields
from evalscore.vocabulary import Dimension, ScoringModel

if TYPE_CHECKING:
    from evalscore.models.review import StepScore
    from evalscore.models.run import AutoScore, DiscretionaryScore, MandatedGateScore

DIMENSIONS: Final[tuple[Dimension, ...]] = get_args(Dimension)
GOLDEN_PASS: Final = 2
"""A golden-truth grade passes at 2 or more."""

RecallBasis = Literal["addressed", "matched"]
"""``addressed``: distinct blockers addressed (v3). ``matched``: matched questions (v1/v2 arithmetic)."""
ReportedBasis = Literal["addressed", "matched", "mixed"]

DimensionTotals = tuple[tuple[Dimension, int, int], ...]
"""``(dimension, sum of grades, number of grades)`` per dimension, in ``DIMENSIONS`` order."""

_ZERO: Final = Fraction(0)


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class Aggregate:
    """Counts and exact sums over steps; combine with ``merge``."""

    total_steps: int = 0
    reviewed_steps: int = 0
    unscored_steps: int = 0
    refused_steps: int = 0
    scored_steps: int = 0
    tool_match_true: int = 0
    tool_match_partial: int = 0
    tool_match_false: int = 0
    distraction_caught: int = 0
    distraction_judged: int = 0
    golden_passed: int = 0
    golden_graded: int = 0
    dimension_totals: DimensionTotals = tuple((dimension, 0, 0) for dimension in DIMENSIONS)
    mandated_honored: int = 0
    mandated_required: int = 0
    asked: Fraction = _ZERO
    matched: Fraction = _ZERO
    addressed_basis_steps: int = 0
    addressed: Fraction = _ZERO
    addressed_blockers: Fraction = _ZERO
    matched_basis_steps: int = 0
    recall_matched: Fraction = _ZERO
    matched_blockers: Fraction = _ZERO
    prefilled: int = 0
    refused_gated_calls: int = 0
    """The most the refused steps whose ordering alone was not observed could add to Σrequired."""
    refused_questions: int = 0
    """The most they could add to Σasked."""
    refused_blockers: int = 0
    """The most they could add to Σblockers."""
    refused_distraction: int = 0
    """The most every refused step could add to the distraction steps judged."""
    refused_unbounded: int = 0
    """Refused steps that could add any number of gated calls, questions and blockers (their suite,
    task, step or tools are not known, or their run was given twice)."""


def empty() -> Aggregate:
    """The identity of ``merge``."""
    return Aggregate()


_SUMMED: Final = tuple(field.name for field in fields(Aggregate) if field.name != "dimension_totals")
"""The fields ``merge`` adds up as numbers (``dimension_totals`` is added per dimension)."""
_FRACTIONS: Final = frozenset(field.name for field in fields(Aggregate) if field.type == "Fraction")
"""The fields that hold exact sums of JSON numbers (``Fraction``), not counts."""
_summed_values: Final = attrgetter(*_SUMMED)


def merge(left: Aggregate, right: Aggregate) -> Aggregate:
    """Field-wise sum: associative and commutative, with ``empty()`` as identity."""
    total = AggregateSum()
    total.add(left)
    total.add(right)
    return total.total()


class AggregateSum:
    """Aggregates and one step's counts added up in place: adding costs the fields a part holds,
    never all of them, and no ``Aggregate`` is built until ``total``. Sums stay exact: a count is an
    int, a sum of JSON numbers an int until a fraction joins it, then a ``Fraction``."""

    __slots__ = ("_dimensions", "_sums")

    def __init__(self) -> None:
        self._sums: dict[str, int | Fraction] = dict.fromkeys(_SUMMED, 0)
        self._dimensions = [[0, 0] for _ in DIMENSIONS]

    def add(self, part: Aggregate) -> None:
        sums = self._sums
        for name, value in zip(_SUMMED, _summed_values(part), strict=True):
            if value:
                sums[name] += value
        self._add_dimensions(part.dimension_totals)

    def add_counts(self, counts: Mapping[str, object]) -> None:
        """One step's facts (``auto_counts``, ``review_counts``): only the fields it has."""
        sums = self._sums
        for name, value in counts.items():
            if name == "dimension_totals":
                self._add_dimensions(value)  # type: ignore[arg-type]  # review_counts puts a DimensionTotals here
            else:
                sums[name] += value  # type: ignore[operator]  # every other count is an int or a Fraction

    def _add_dimensions(self, totals: DimensionTotals) -> None:
        for sums, (_, grade_sum, count) in zip(self._dimensions, totals, strict=True):
            sums[0] += grade_sum
            sums[1] += count

    def total(self) -> Aggregate:
        values: dict[str, object] = {
            name: Fraction(value) if name in _FRACTIONS else value for name, value in self._sums.items()
        }
        values["dimension_totals"] = tuple(
            (dimension, grade_sum, count)
            for dimension, (grade_sum, count) in zip(DIMENSIONS, self._dimensions, strict=True)
        )
        return Aggregate(**values)  # type: ignore[arg-type]


def aggregate(parts: Iterable[Aggregate]) -> Aggregate:
    total = AggregateSum()
    for part in parts:
        total.add(part)
    return total.total()


# --- one step ------------------------------------------------------------------------------


def recall_basis(discretionary: DiscretionaryScore, model: ScoringModel) -> RecallBasis:
    """v3 scores carrying ``addressed`` count distinct blockers; older scores replay matched/blockers."""
    if model == "v3" and isinstance(discretionary.addressed, int | float):
        return "addressed"
    return "matched"


def tool_match_counts(auto: AutoScore) -> dict[str, int]:
    if auto.tool_match == "partial":
        return {"tool_match_partial": 1}
    if auto.tool_match is True:
        return {"tool_match_true": 1}
    return {"tool_match_false": 1}


def distraction_counts(auto: AutoScore) -> dict[str, int]:
    if auto.distraction_caught is None:
        return {}
    return {"distraction_judged": 1, "distraction_caught": int(auto.distraction_caught)}


def mandated_counts(mandated: MandatedGateScore | None) -> dict[str, int]:
    if mandated is None:
        return {}
    return {"mandated_honored": len(mandated.honored), "mandated_required": len(mandated.required)}


def _exact(number: float) -> int | Fraction:
    """A JSON number as an exact term of a sum: an int as it is (adding ints is cheap), a float as
    the ``Fraction`` it is exactly."""
    return number if isinstance(number, int) else Fraction(number)


def discretionary_counts(discretionary: DiscretionaryScore | None, model: ScoringModel) -> dict[str, object]:
    if discretionary is None:
        return {}
    counts: dict[str, object] = {"asked": _exact(discretionary.asked), "matched": _exact(discretionary.matched)}
    if recall_basis(discretionary, model) == "addressed":
        assert isinstance(discretionary.addressed, int | float)  # recall_basis checked it
        counts |= {
            "addressed_basis_steps": 1,
            "addressed": _exact(discretionary.addressed),
            "addressed_blockers": _exact(discretionary.blockers),
        }
    else:
        counts |= {
            "matched_basis_steps": 1,
            "recall_matched": _exact(discretionary.matched),
            "matched_blockers": _exact(discretionary.blockers),
        }
    return counts


def auto_counts(auto: AutoScore | None, model: ScoringModel, *, refused: bool = False) -> dict[str, object]:
    """Auto-score facts; a refused or unscored step contributes only its status count."""
    if refused:
        return {"refused_steps": 1}
    if auto is None:
        return {"unscored_steps": 1}
    counts: dict[str, object] = {"scored_steps": 1}
    counts |= tool_match_counts(auto)
    counts |= distraction_counts(auto)
    counts |= mandated_counts(auto.gates.mandated)
    counts |= discretionary_counts(auto.gates.discretionary, model)
    return counts


def golden_passes(grade: int) -> bool:
    return grade >= GOLDEN_PASS


def review_counts(review: StepScore | None) -> dict[str, object]:
    if review is None:
        return {}
    counts: dict[str, object] = {"reviewed_steps": 1, "prefilled": int(review.pre_filled)}
    if review.golden_truth is not None:
        counts |= {"golden_graded": 1, "golden_passed": int(golden_passes(review.golden_truth))}
    counts["dimension_totals"] = step_dimensions(review.dimensions)
    return counts


def step_dimensions(grades: Mapping[Dimension, int]) -> DimensionTotals:
    return tuple((dimension, grades.get(dimension, 0), 1 if dimension in grades else 0) for dimension in DIMENSIONS)


def from_auto(auto: AutoScore | None, model: ScoringModel) -> Aggregate:
    """One step's auto-score facts (``auto`` computed under ``model``); None is an unscored step."""
    return _of_counts(auto_counts(auto, model))


def from_refused(steps: int) -> Aggregate:
    """Steps whose auto score is not derivable and could add anything to the gate rates: counted, and
    excluded from every auto-score rate."""
    return Aggregate(refused_steps=steps, refused_unbounded=steps, refused_distraction=steps)


def from_step(auto: AutoScore | None, *, refused: bool, review: StepScore | None, model: ScoringModel) -> Aggregate:
    """The aggregate of one step.

    ``auto`` is the step's auto score (re-derived or recorded, computed under
    ``model``); ``refused`` marks a step whose auto score is not derivable;
    ``review`` is the human review, if any.
    """
    return _of_counts({"total_steps": 1}, auto_counts(auto, model, refused=refused), review_counts(review))


def _of_counts(*counts: Mapping[str, object]) -> Aggregate:
    total = AggregateSum()
    for part in counts:
        total.add_counts(part)
    return total.total()


# --- rates ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ratio:
    """A rate with the counts behind it; ``value`` is None when ``denominator`` is 0."""

    numerator: Fraction
    denominator: Fraction

    @property
    def value(self) -> float | None:
        if self.denominator == 0:
            return None
        return float(self.numerator / self.denominator)


def ratio(numerator: int | Fraction, denominator: int | Fraction) -> Ratio:
    return Ratio(Fraction(numerator), Fraction(denominator))


@dataclass(frozen=True, slots=True)
class Rates:
    """Every rate of SPEC section 4, each with its numerator and denominator."""

    tool_match_accuracy: Ratio
    distraction_detection_rate: Ratio
    golden_truth_pass_rate: Ratio
    dimension_means: tuple[tuple[Dimension, Ratio], ...]
    mandated_compliance_rate: Ratio
    discretionary_ask_precision: Ratio
    discretionary_blocker_recall: Ratio
    recall_basis: ReportedBasis | None
    """Which arithmetic the recall figure has; ``mixed`` (then the rate is None) when scores of both kinds meet."""
    prefilled_ratio: Ratio


def blocker_recall(agg: Aggregate) -> tuple[Ratio, ReportedBasis | None]:
    """Σaddressed/Σblockers for v3 scores, Σmatched/Σblockers for older ones; never the two mixed."""
    has_addressed = agg.addressed_basis_steps > 0
    has_matched = agg.matched_basis_steps > 0
    if has_addressed and has_matched:
        return ratio(0, 0), "mixed"
    if has_addressed:
        return ratio(agg.addressed, agg.addressed_blockers), "addressed"
    if has_matched:
        return ratio(agg.recall_matched, agg.matched_blockers), "matched"
    return ratio(0, 0), None


def compute_rates(agg: Aggregate) -> Rates:
    recall, basis = blocker_recall(agg)
    tool_points = Fraction(agg.tool_match_true) + Fraction(agg.tool_match_partial, 2)
    return Rates(
        tool_match_accuracy=ratio(tool_points, agg.scored_steps),
        distraction_detection_rate=ratio(agg.distraction_caught, agg.distraction_judged),
        golden_truth_pass_rate=ratio(agg.golden_passed, agg.golden_graded),
        dimension_means=tuple((dimension, ratio(total, count)) for dimension, total, count in agg.dimension_totals),
        mandated_compliance_rate=ratio(agg.mandated_honored, agg.mandated_required),
        discretionary_ask_precision=ratio(agg.matched, agg.asked),
        discretionary_blocker_recall=recall,
        recall_basis=basis,
        prefilled_ratio=ratio(agg.prefilled, agg.total_steps),
    )
