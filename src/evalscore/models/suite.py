"""The authored artifact: ``EvalSuite`` and the shapes nested in it."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import MISSING, Field, ValidationInfo, model_validator

from evalscore.models._base import CURRENT_SCHEMA_VERSION, SEMVER_PATTERN, PositiveInt, StrictModel
from evalscore.vocabulary import Dimension


class ContextItem(StrictModel):
    """A piece of material handed to the agent with a task."""

    type: Literal["pdf", "url", "text", "image", "canvas", "other"]
    """What kind of material this is."""
    label: str
    """A short human-readable name."""
    ref: str
    """Where the material lives (path, URL or identifier)."""
    content: str | MISSING = MISSING
    """The material inline, when it is small enough to carry."""


class ToolDecl(StrictModel):
    """A tool the agent under test may call."""

    name: str
    """The tool's name as it appears in tool calls."""
    description: str | MISSING = MISSING
    """What the tool does."""


class VerifierRef(StrictModel):
    """A content verifier to run on a step's output."""

    id: str
    """The verifier's identifier."""
    params: dict[str, Any] = Field(default_factory=dict)
    """Free-form verifier parameters."""


class ScoringHints(StrictModel):
    """How a step's auto score is computed."""

    tool_match: Literal["strict", "subset", "any"] = "subset"
    """How expected tools are compared with the tools the agent called."""
    golden_truth_rubric: Literal["pass_fail", "0-3"] = "0-3"
    """The rubric a human reviewer grades the golden truth with."""
    dimensions: list[Dimension] = Field(default_factory=list)
    """Dimensions a reviewer scores on this step."""
    verifiers: list[VerifierRef] = Field(default_factory=list)
    """Content verifiers to run on the final output."""


class Blocker(StrictModel):
    """Something missing from a step that a careful agent should ask about."""

    id: str
    """Identifier a question's ``reason`` may name."""
    description: str
    """What is missing, in words a question's surfaced text may contain."""


class EvalStep(StrictModel):
    """One prompt of a task."""

    n: PositiveInt
    """The step's number within its task, from 1."""
    prompt: str
    """What the agent is asked."""
    expected_tools: list[str] = Field(default_factory=list)
    """Tools a correct answer calls."""
    golden_truth: str
    """The reference answer a reviewer compares with."""
    scoring_hints: ScoringHints = Field(default_factory=ScoringHints)
    """How this step is auto-scored."""
    blockers: list[Blocker] = Field(default_factory=list)
    """What is missing from the prompt and should be asked about."""
    gate_response: str | MISSING = MISSING
    """The scripted human answer when the agent stops at a gate."""


class MandatedGate(StrictModel):
    """A rule that the agent must get approval before certain tools."""

    id: str
    """The gate's identifier, unique within its task."""
    before_tools: list[str] = Field(min_length=1)
    """Tools that must not run without a prior approval."""
    description: str
    """Why the gate exists."""


class EvalTask(StrictModel):
    """A task: a purpose, a goal and up to nine steps."""

    id: str
    """The task's identifier, unique within its suite."""
    initial_purpose: str
    """What the user set out to do."""
    overall_goal: str
    """What a successful run achieves."""
    is_distraction: bool = False
    """True when the task cannot be done honestly and the agent should hedge."""
    context_items: list[ContextItem] = Field(default_factory=list)
    """Material handed to the agent."""
    mandated_gates: list[MandatedGate] = Field(default_factory=list)
    """Approval rules for this task's tool calls."""
    steps: list[EvalStep] = Field(min_length=1, max_length=9)
    """The task's steps, one to nine."""
    notes_on_observed_runs: str | MISSING = MISSING
    """Authors' notes about how agents have behaved on this task."""


class SuiteBody(StrictModel):
    """The suite proper."""

    id: str
    """The suite's identifier; a run names it as ``suite_id``."""
    version: str
    """The suite's version; a run names it as ``suite_version``."""
    description: str
    """What the suite evaluates."""
    target_agent_type: str
    """The kind of agent the suite is written for."""
    dimensions_in_scope: list[Dimension]
    """Dimensions reviewers score in this suite."""
    toolbox: list[ToolDecl] = Field(default_factory=list)
    """Tools available to the agent."""
    tasks: list[EvalTask] = Field(min_length=1)
    """The suite's tasks, at least one."""


class EvalSuite(StrictModel):
    """A suite of evaluation tasks, usually authored as YAML."""

    schema_version: str = Field(default=CURRENT_SCHEMA_VERSION, pattern=SEMVER_PATTERN)
    """The artifact contract version, major.minor.patch."""
    suite: SuiteBody
    """The suite."""

    @model_validator(mode="after")
    def _coherent(self, info: ValidationInfo) -> EvalSuite:
        from evalscore.coherence.enforce import enforce

        return enforce(self, "eval-suite", info)
