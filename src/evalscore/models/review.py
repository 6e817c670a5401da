"""The reviewed artifacts: ``StepScore`` and ``ScoredRun``."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import MISSING, Field, ValidationInfo, model_validator

from evalscore.models._base import JsonNumber, PositiveInt, RubricScore, StrictModel
from evalscore.models.run import RunOf, StepResult, TaskResultOf
from evalscore.vocabulary import Dimension, ToolMatch


class StepScore(StrictModel):
    """One human review of one step."""

    step_n: PositiveInt
    """The step reviewed."""
    tool_match: ToolMatch
    """The reviewer's tool-match verdict."""
    golden_truth: RubricScore | None
    """Grade against the golden truth, 0-3; null when not graded."""
    distraction_caught: bool | None
    """The reviewer's distraction verdict; null when not applicable."""
    dimensions: dict[Dimension, RubricScore] = Field(default_factory=dict)
    """Per-dimension grades, 0-3."""
    reviewer_notes: str = ""
    """Free-text notes."""
    reviewer_id: str
    """Who reviewed."""
    reviewed_at: str
    """When (RFC 3339 with an offset is expected; other text draws a warning)."""
    pre_filled: bool = False
    """True when an LLM drafted the score and no human has touched it."""
    pre_fill_confidence: Annotated[float, JsonNumber(ge=0, le=1)] | MISSING = MISSING
    """The drafting model's confidence, 0-1."""

    @model_validator(mode="after")
    def _coherent(self, info: ValidationInfo) -> Any:
        from evalscore.coherence.enforce import enforce

        return enforce(self, "step-score", info)


class ScoredStepResult(StepResult):
    """A step result with its human review attached."""

    score: StepScore | None
    """The human review; null when the step was not reviewed."""


class ScoredTaskResult(TaskResultOf[ScoredStepResult]):
    """Results of one task, reviewed."""


class ScoredRun(RunOf[ScoredStepResult]):
    """A run whose step results carry human reviews."""

    _artifact_kind: ClassVar[str] = "scored-run"
