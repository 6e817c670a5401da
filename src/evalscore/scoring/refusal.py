"""Refusals: a figure that cannot be derived honestly, with the reason and the exact place."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from evalscore.listing import kept_message
from evalscore.pickled_as_fields import pickled_as_fields

RefusalCode = Literal[
    "ordering-unobserved",
    "suite-unknown",
    "suite-ambiguous",
    "task-unknown",
    "step-unknown",
    "tool-unknown",
    "run-repeated",
    "count-unrepresentable",
    "scoring-model-unavailable",
    "scoring-models-mixed",
]

ORDERING_UNOBSERVED: Final = "ordering-unobserved"
SUITE_UNKNOWN: Final = "suite-unknown"
SUITE_AMBIGUOUS: Final = "suite-ambiguous"
TASK_UNKNOWN: Final = "task-unknown"
STEP_UNKNOWN: Final = "step-unknown"
TOOL_UNKNOWN: Final = "tool-unknown"
RUN_REPEATED: Final = "run-repeated"
COUNT_UNREPRESENTABLE: Final = "count-unrepresentable"
SCORING_MODEL_UNAVAILABLE: Final = "scoring-model-unavailable"
SCORING_MODELS_MIXED: Final = "scoring-models-mixed"


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class Refusal:
    """evalscore will not print a figure here, and says why.

    ``pointer`` is an RFC 6901 JSON Pointer into the run named by ``source``
    (empty for the whole document); ``steps`` is how many steps the refusal
    removes from the auto-score rates.
    """

    code: RefusalCode
    reason: str
    pointer: str
    source: str = ""
    run_id: str | None = None
    task_id: str | None = None
    step_n: int | None = None
    steps: int = 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "reason", kept_message(self.reason))  # one quoting a whole value is cut


def refusal_text(refusal: Refusal) -> int:
    """Characters of text a listed refusal holds (``listing.LISTED_TEXT`` bounds their sum)."""
    return (
        len(refusal.reason)
        + len(refusal.pointer)
        + len(refusal.source)
        + len(refusal.run_id or "")
        + len(refusal.task_id or "")
    )
