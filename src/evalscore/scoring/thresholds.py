"""What the user asks the decision to enforce (``--min-*``, ``--max-*``, ``--confidence``, ...).

Apart from the decision itself, which builds the report's models: ``score`` reads its options before
it starts its workers, and that must not load pydantic.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal

from evalscore.scoring.intervals import DEFAULT_CONFIDENCE

if TYPE_CHECKING:
    from evalscore.scoring.report import DecisionThresholds

ThresholdBasis = Literal["point", "interval"]
DEFAULT_MAX_DROP: Final = 0.05
"""``--max-drop``: a worsening of five points of a rate is tolerated, a larger one established beyond the
noise fails. With 0, an unchanged rate could never pass (the interval of no change straddles 0); with
0.05, unchanged figures pass once the rate rests on about 770 trials per side at worst (a rate near
0.5; about 280 near 0.9), which a thousand runs of a few steps give (docs/statistics.md)."""


@dataclass(frozen=True, slots=True)
class Thresholds:
    """What the user asked the decision to enforce; None means not set."""

    min_mandated_compliance: float | None = None
    min_ask_precision: float | None = None
    min_blocker_recall: float | None = None
    min_tool_match: float | None = None
    min_distraction_catch: float | None = None
    min_golden_truth_pass: float | None = None
    max_prefilled_ratio: float | None = None
    max_drop: float = DEFAULT_MAX_DROP
    allow_empty: bool = False
    """Accept a decision over runs in which nothing was scored (else it is refused)."""
    confidence: float = DEFAULT_CONFIDENCE
    """The confidence of every interval."""
    threshold_basis: ThresholdBasis = "point"
    """``point``: a threshold is decided on the rate; ``interval``: on the whole of its interval."""

    def as_report(self) -> DecisionThresholds:
        from evalscore.scoring.report import DecisionThresholds  # noqa: PLC0415 - the report's models load with the report

        return DecisionThresholds(
            min_mandated_compliance=self.min_mandated_compliance,
            min_ask_precision=self.min_ask_precision,
            min_blocker_recall=self.min_blocker_recall,
            min_tool_match=self.min_tool_match,
            min_distraction_catch=self.min_distraction_catch,
            min_golden_truth_pass=self.min_golden_truth_pass,
            max_prefilled_ratio=self.max_prefilled_ratio,
            max_drop=self.max_drop,
            allow_empty=self.allow_empty,
            confidence=self.confidence,
            threshold_basis=self.threshold_basis,
        )
