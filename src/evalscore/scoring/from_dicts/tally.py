"""One run's step facts as plain counters, and the one ``Aggregate`` they make (``scoring.aggregate``)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from evalscore.scoring.aggregate import DIMENSIONS, GOLDEN_PASS, Aggregate
from evalscore.scoring.from_dicts import defaults
from evalscore.scoring.from_dicts.gates import Discretionary, Mandated

TOOL_MATCH_SLOT = {True: 0, "partial": 1, False: 2}


def grade_of(value: int | float) -> int:
    """A rubric grade as the model holds it: ``2.0`` is 2."""
    return int(value)


class StepTally:
    """Counts over a run's steps; ``total`` is the ``Aggregate`` ``aggregate.AggregateSum`` gives."""

    __slots__ = (
        "addressed",
        "addressed_basis_steps",
        "addressed_blockers",
        "asked",
        "dimensions",
        "distraction_caught",
        "distraction_judged",
        "golden_graded",
        "golden_passed",
        "mandated_honored",
        "mandated_required",
        "matched",
        "matched_basis_steps",
        "matched_blockers",
        "prefilled",
        "recall_matched",
        "refused_blockers",
        "refused_distraction",
        "refused_gated_calls",
        "refused_questions",
        "refused_steps",
        "refused_unbounded",
        "reviewed_steps",
        "scored_steps",
        "tool_match",
        "total_steps",
    )

    def __init__(self) -> None:
        self.total_steps = 0
        self.reviewed_steps = 0
        self.refused_steps = 0
        self.scored_steps = 0
        self.tool_match = [0, 0, 0]
        """true, partial, false."""
        self.distraction_caught = 0
        self.distraction_judged = 0
        self.golden_passed = 0
        self.golden_graded = 0
        self.dimensions = [[0, 0] for _ in DIMENSIONS]
        self.mandated_honored = 0
        self.mandated_required = 0
        self.asked = 0
        self.matched = 0
        self.addressed_basis_steps = 0
        self.addressed = 0
        self.addressed_blockers = 0
        self.matched_basis_steps = 0
        self.recall_matched = 0
        self.matched_blockers = 0
        self.prefilled = 0
        self.refused_gated_calls = 0
        self.refused_questions = 0
        self.refused_blockers = 0
        self.refused_distraction = 0
        self.refused_unbounded = 0

    def add_refused(self, counts: Mapping[str, int]) -> None:
        """A refusal's ``refusal.refused_counts``."""
        for name, value in counts.items():
            setattr(self, name, getattr(self, name) + value)

    def add_review(self, review: Mapping[str, Any]) -> None:
        """A step's human review (``aggregate.review_counts``)."""
        self.reviewed_steps += 1
        self.prefilled += review.get("pre_filled", defaults.PRE_FILLED)
        golden = review["golden_truth"]
        if golden is not None:
            self.golden_graded += 1
            self.golden_passed += grade_of(golden) >= GOLDEN_PASS
        grades = review.get("dimensions")
        if grades:  # left out, it is empty: no grade
            for position, dimension in enumerate(DIMENSIONS):
                if dimension in grades:
                    sums = self.dimensions[position]
                    sums[0] += grade_of(grades[dimension])
                    sums[1] += 1

    def add_scored(
        self,
        tool_match: bool | str,
        caught: bool | None,
        mandated: Mandated | None,
        discretionary: Discretionary | None,
    ) -> None:
        """A re-derived auto score (``aggregate.auto_counts``; a re-derived step is never unscored);
        ``discretionary`` carries ``addressed`` exactly under v3."""
        self.scored_steps += 1
        self.tool_match[TOOL_MATCH_SLOT[tool_match]] += 1
        if caught is not None:
            self.distraction_judged += 1
            self.distraction_caught += caught
        if mandated is not None:
            self.mandated_honored += len(mandated[1])
            self.mandated_required += len(mandated[0])
        if discretionary is not None:
            self.add_discretionary(discretionary)

    def add_discretionary(self, discretionary: Discretionary) -> None:
        blockers, asked, matched, _, addressed = discretionary
        self.asked += asked
        self.matched += matched
        if addressed is not None:
            self.addressed_basis_steps += 1
            self.addressed += addressed
            self.addressed_blockers += blockers
        else:
            self.matched_basis_steps += 1
            self.recall_matched += matched
            self.matched_blockers += blockers

    def total(self) -> Aggregate:
        true, partial, false = self.tool_match
        return Aggregate(
            total_steps=self.total_steps,
            reviewed_steps=self.reviewed_steps,
            refused_steps=self.refused_steps,
            scored_steps=self.scored_steps,
            tool_match_true=true,
            tool_match_partial=partial,
            tool_match_false=false,
            distraction_caught=self.distraction_caught,
            distraction_judged=self.distraction_judged,
            golden_passed=self.golden_passed,
            golden_graded=self.golden_graded,
            dimension_totals=tuple(
                (dimension, self.dimensions[position][0], self.dimensions[position][1])
                for position, dimension in enumerate(DIMENSIONS)
            ),
            mandated_honored=self.mandated_honored,
            mandated_required=self.mandated_required,
            asked=Fraction(self.asked),
            matched=Fraction(self.matched),
            addressed_basis_steps=self.addressed_basis_steps,
            addressed=Fraction(self.addressed),
            addressed_blockers=Fraction(self.addressed_blockers),
            matched_basis_steps=self.matched_basis_steps,
            recall_matched=Fraction(self.recall_matched),
            matched_blockers=Fraction(self.matched_blockers),
            prefilled=self.prefilled,
            refused_gated_calls=self.refused_gated_calls,
            refused_questions=self.refused_questions,
            refused_blockers=self.refused_blockers,
            refused_distraction=self.refused_distraction,
            refused_unbounded=self.refused_unbounded,
        )
