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


RefusedBounds = tuple[int, int, int, int]
"""The most a refused step could add to the denominators of mandated compliance (its gated calls, or
under v1 the gates its calls trigger), ask precision (its questions), blocker recall (its blockers)
and distraction detection (1 in a distraction task): known when only the ordering was not observed.
Each refused step adds at most 1 to tool match's, whatever the refusal."""


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class Refusal:
    """evalscore will not print a figure here, and says why.

    ``pointer`` is an RFC 6901 JSON Pointer into the run named by ``source``
    (empty for the whole document); ``steps`` is how many steps the refusal
    removes from the auto-score rates; ``bounds`` is what those steps could
    add to the rates' denominators were they derivable (``RefusedBounds``),
    None when the refusal leaves them unknown.
    """

    code: RefusalCode
    reason: str
    pointer: str
    source: str = ""
    run_id: str | None = None
    task_id: str | None = None
    step_n: int | None = None
    steps: int = 1
    bounds: RefusedBounds | None = None

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


def refused_counts(refusal: Refusal) -> dict[str, int]:
    """What a refusal adds to the aggregate: its steps, and what they could add to each rate's
    denominator (``aggregate.Aggregate.refused_*``)."""
    if refusal.bounds is None:
        return {
            "refused_steps": refusal.steps,
            "refused_unbounded": refusal.steps,
            "refused_distraction": refusal.steps,
        }
    gated, questions, blockers, distraction = refusal.bounds
    return {
        "refused_steps": refusal.steps,
        "refused_gated_calls": gated,
        "refused_questions": questions,
        "refused_blockers": blockers,
        "refused_distraction": distraction,
    }
