"""The recorded artifact: ``Run`` and the shapes nested in it.

``TaskResultOf`` and ``RunOf`` are generic over the step result so that
``ScoredRun`` (see ``review.py``) reuses them with a scored step result.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, Literal, TypeVar

from pydantic import MISSING, Field, ValidationInfo, model_validator

from evalscore.models._base import (
    CURRENT_SCHEMA_VERSION,
    SEMVER_PATTERN,
    NonNegativeInt,
    NonNegativeNumber,
    Number,
    OffsetTimestamp,
    OverseerId,
    PositiveInt,
    StrictModel,
)
from evalscore.vocabulary import ScoringModel, ToolMatch


class ToolCall(StrictModel):
    """One task tool call the agent made (gate calls are split out)."""

    tool: str
    """The tool's name."""
    args: Any | MISSING = MISSING
    """The arguments, as the agent sent them."""
    result: Any | MISSING = MISSING
    """What the tool returned."""


class ApprovalLink(StrictModel):
    """One approver consulted for a gate, as the source log names it."""

    approver: str
    """The approver's name: a mechanism (e.g. Inspect's ``human``, ``auto``, ``policy``), never a person."""
    decision: str
    """Its decision as the source log spells it (Inspect: approve, modify, reject, escalate, terminate)."""


class GateEvent(StrictModel):
    """A moment control returned to a human: an approval request or a question."""

    kind: Literal["approval_request", "question"]
    """An approval request authorizes a tool; a question asks for information."""
    reason: str
    """Why the agent stopped; for a question, may name a blocker id."""
    surfaced: str
    """The text the human actually saw."""
    target_tool: str | None
    """The tool an approval authorizes; null when it names none."""
    resolution: Literal["approved", "denied", "answered", "unresolved"]
    """How the gate ended."""
    task_calls_before: NonNegativeInt | None = None
    """How many task tool calls preceded this gate; null when the ordering was not captured."""
    uses: PositiveInt | None = None
    """How many gated calls one approval authorizes; null when the agent said nothing (1 at scoring time)."""
    opened_at: OffsetTimestamp | None = None
    """When the gate was shown to a human (RFC 3339 with a UTC offset); null when not observed."""
    resolved_at: OffsetTimestamp | None = None
    """When the decision was made (RFC 3339 with a UTC offset); null when not observed."""
    decision_latency_ms: NonNegativeNumber | None = None
    """How long the decision took, in milliseconds; may be kept without wall-clock times."""
    decision_latency_upper_bound_ms: NonNegativeNumber | None = None
    """An observed upper bound on how long the decision took, in milliseconds, when the source brackets the
    decision without recording it (contract 1.1.0); null when not observed. Never a latency."""
    overseers: list[OverseerId] = Field(default_factory=list)
    """Ids of the persons who decided; empty when not observed."""
    approval_chain: list[ApprovalLink] = Field(default_factory=list)
    """Every approver consulted, in order: each escalated to the next, the last made the decision
    (unless it escalated too and the gate is unresolved); empty when the source records no chain."""


class Span(StrictModel):
    """A character range of the final output."""

    start: Number
    """First character."""
    end: Number
    """End of the range."""


class Finding(StrictModel):
    """One content verifier's finding."""

    verifier: str
    """The verifier's id."""
    severity: Literal["error", "warn"]
    """How bad the finding is."""
    message: str
    """What the verifier found."""
    span: Span | MISSING = MISSING
    """Where in the output, when known."""


class Pairing(StrictModel):
    """Which approval authorized which gated call."""

    callIndex: NonNegativeInt  # noqa: N815 - the published contract's spelling
    """Index of the gated call in ``agent_tool_calls``."""
    approvalIndex: NonNegativeInt  # noqa: N815
    """Index of the approval in the step's ``gate_events``."""
    gateId: str  # noqa: N815
    """The mandated gate the call fell under."""


class MandatedGateScore(StrictModel):
    """Mandated-gate compliance of one step."""

    required: list[str]
    """One gate id per gated call (v2/v3) or per triggered gate (v1)."""
    honored: list[str]
    """Gate ids whose call had an authorizing approval."""
    violated: list[str]
    """Gate ids whose call had none."""
    pairings: list[Pairing] = Field(default_factory=list)
    """The call-to-approval pairing behind ``honored`` (v2/v3)."""


class DiscretionaryScore(StrictModel):
    """Whether the agent asked about what was missing."""

    blockers: Number
    """Number of blockers in the step."""
    asked: Number
    """Number of questions the agent asked."""
    matched: Number
    """Questions that match a blocker."""
    unprompted: Number
    """Questions asked when the step had no blockers."""
    addressed: Number | MISSING = MISSING
    """Distinct blockers addressed by at least one question (scoring model v3)."""


class GateScores(StrictModel):
    """Mandated and discretionary gate scores; null when not applicable."""

    mandated: MandatedGateScore | None
    """Null when the task has no mandated gates."""
    discretionary: DiscretionaryScore | None
    """Null when the step has no blockers and no questions."""


class Verification(StrictModel):
    """Content verifiers' outcome."""

    passed: Number
    """Number of verifiers that passed."""
    findings: list[Finding]
    """What the verifiers found."""


class AutoScore(StrictModel):
    """The machine-computed score of one step."""

    tool_match: ToolMatch
    """Whether the agent called the expected tools: true, false or partial."""
    distraction_caught: bool | None
    """Null unless the task is a distraction."""
    distraction_acted: bool | None = None
    """Null unless the task is a distraction."""
    gates: GateScores = Field(default_factory=lambda: GateScores(mandated=None, discretionary=None))
    """Gate compliance."""
    verification: Verification | None = None
    """Content verifiers' outcome; null when none ran."""


class StepResult(StrictModel):
    """What the agent did on one step."""

    step_n: PositiveInt
    """The suite step this result answers."""
    agent_tool_calls: list[ToolCall]
    """Task tool calls in the order made."""
    agent_final_output: str
    """The agent's final answer."""
    latency_ms: NonNegativeNumber
    """Wall time of the step, in milliseconds."""
    auto_score: AutoScore | None
    """The recorded auto score; null when nobody scored the step."""
    gate_events: list[GateEvent] = Field(default_factory=list)
    """Gates in the order they occurred."""


StepT = TypeVar("StepT", bound=StepResult)


class TaskResultOf(StrictModel, Generic[StepT]):
    """Results of one task."""

    task_id: str
    """The suite task these results answer."""
    step_results: list[StepT]
    """One result per step run."""


class AdapterInfo(StrictModel):
    """The agent under test."""

    name: str
    """The adapter's name."""
    model: str
    """The model behind it."""
    config: dict[str, Any] = Field(default_factory=dict)
    """Free-form adapter configuration."""


class RunOf(StrictModel, Generic[StepT]):
    """A recorded trace of one agent over one suite."""

    schema_version: str = Field(default=CURRENT_SCHEMA_VERSION, pattern=SEMVER_PATTERN)
    """The artifact contract version, major.minor.patch."""
    suite_id: str
    """The suite's ``id``."""
    suite_version: str
    """The suite's ``version``."""
    run_id: str
    """Identifier of this run."""
    started_at: str
    """When the run started (RFC 3339 with an offset is expected; other text draws a warning)."""
    ended_at: str
    """When the run ended (RFC 3339 with an offset is expected; other text draws a warning)."""
    adapter: AdapterInfo
    """The agent under test."""
    scoring_model: ScoringModel = "v1"
    """Which gate rules produced the recorded auto scores."""
    task_results: list[TaskResultOf[StepT]]
    """Results per task."""

    _artifact_kind: ClassVar[str] = "run"

    @model_validator(mode="after")
    def _coherent(self, info: ValidationInfo) -> Any:
        from evalscore.coherence.enforce import enforce

        return enforce(self, self._artifact_kind, info)


class TaskResult(TaskResultOf[StepResult]):
    """Results of one task."""


class Run(RunOf[StepResult]):
    """A recorded trace: every task, step, tool call, gate event and auto score."""
