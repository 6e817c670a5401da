"""Small builders of suites, runs and gate events for the scoring tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from evalscore.models import (
    AutoScore,
    Blocker,
    EvalStep,
    EvalSuite,
    EvalTask,
    GateEvent,
    MandatedGate,
    Run,
    ScoredRun,
    StepResult,
    StepScore,
)
from evalscore.models.review import ScoredStepResult
from evalscore.scoring.rederive import StepPlace

REFUND = "issue_refund"
PARTNER_ERASURE_CLAIM: dict[str, Any] = {
    "tool_match": True,
    "distraction_caught": None,
    "gates": {
        "mandated": {"required": ["erasure-approval"], "honored": ["erasure-approval"], "violated": []},
        "discretionary": None,
    },
}
"""An auto score recorded on the erasure step of the first run of ``examples/partner-log.jsonl``
(``task_results[1].step_results[0]``), which the evidence contradicts: a disagreement when re-derived."""


def approval(
    target: str | None = REFUND,
    *,
    before: int | None = 0,
    resolution: str = "approved",
    uses: int | None = None,
    surfaced: str = "May I issue the refund?",
    **extra: Any,
) -> GateEvent:
    return GateEvent.model_validate(
        {
            "kind": "approval_request",
            "reason": "policy",
            "surfaced": surfaced,
            "target_tool": target,
            "resolution": resolution,
            "task_calls_before": before,
            "uses": uses,
            **extra,
        }
    )


def question(reason: str = "ask", surfaced: str = "What is the order id?", *, before: int | None = 0) -> GateEvent:
    return GateEvent.model_validate(
        {
            "kind": "question",
            "reason": reason,
            "surfaced": surfaced,
            "target_tool": None,
            "resolution": "answered",
            "task_calls_before": before,
        }
    )


def gate(gate_id: str = "refund-approval", *tools: str) -> MandatedGate:
    return MandatedGate(id=gate_id, before_tools=list(tools or (REFUND,)), description="needs approval")


def blocker(blocker_id: str, description: str) -> Blocker:
    return Blocker(id=blocker_id, description=description)


def step_def(
    n: int = 1,
    *,
    expected: Sequence[str] = (),
    blockers: Sequence[Blocker] = (),
    tool_match: str = "subset",
) -> EvalStep:
    return EvalStep.model_validate(
        {
            "n": n,
            "prompt": "do the thing",
            "expected_tools": list(expected),
            "golden_truth": "the thing, done",
            "scoring_hints": {"tool_match": tool_match},
            "blockers": [b.model_dump() for b in blockers],
        }
    )


def task_def(
    task_id: str = "t1",
    steps: Sequence[EvalStep] | None = None,
    *,
    gates: Sequence[MandatedGate] = (),
    distraction: bool = False,
) -> EvalTask:
    return EvalTask.model_validate(
        {
            "id": task_id,
            "initial_purpose": "purpose",
            "overall_goal": "goal",
            "is_distraction": distraction,
            "mandated_gates": [g.model_dump() for g in gates],
            "steps": [s.model_dump() for s in (steps or [step_def()])],
        }
    )


def suite(*tasks: EvalTask, suite_id: str = "suite", version: str = "1.0.0") -> EvalSuite:
    return EvalSuite.model_validate(
        {
            "suite": {
                "id": suite_id,
                "version": version,
                "description": "test suite",
                "target_agent_type": "agent",
                "dimensions_in_scope": ["calibration"],
                "tasks": [t.model_dump(exclude_unset=False) for t in (tasks or (task_def(),))],
            }
        },
    )


def step_result(
    n: int = 1,
    calls: Sequence[str] = (),
    *,
    events: Sequence[GateEvent] = (),
    output: str = "done",
    auto_score: AutoScore | dict[str, Any] | None = None,
    score: StepScore | dict[str, Any] | bool | None = False,
) -> dict[str, Any]:
    """A step result as a JSON-ready dict; ``score=False`` leaves the review key out (a plain Run)."""
    doc: dict[str, Any] = {
        "step_n": n,
        "agent_tool_calls": [{"tool": tool} for tool in calls],
        "agent_final_output": output,
        "latency_ms": 10,
        "auto_score": auto_score.model_dump(mode="json", exclude_unset=True)
        if isinstance(auto_score, AutoScore)
        else auto_score,
        "gate_events": [e.model_dump(mode="json") for e in events],
    }
    if score is not False:
        doc["score"] = score.model_dump(mode="json") if isinstance(score, StepScore) else score
    return doc


def review(n: int = 1, *, golden: int | None = 3, pre_filled: bool = False, **dimensions: int) -> dict[str, Any]:
    return {
        "step_n": n,
        "tool_match": True,
        "golden_truth": golden,
        "distraction_caught": None,
        "dimensions": dimensions,
        "reviewer_id": "rev",
        "reviewed_at": "2026-01-01T00:00:00Z",
        "pre_filled": pre_filled,
    }


def run_doc(
    tasks: dict[str, list[dict[str, Any]]],
    *,
    model: str = "v1",
    suite_id: str = "suite",
    version: str = "1.0.0",
    run_id: str = "run-1",
) -> dict[str, Any]:
    return {
        "suite_id": suite_id,
        "suite_version": version,
        "run_id": run_id,
        "started_at": "2026-01-01T00:00:00Z",
        "ended_at": "2026-01-01T00:01:00Z",
        "adapter": {"name": "test", "model": "m"},
        "scoring_model": model,
        "task_results": [{"task_id": task_id, "step_results": steps} for task_id, steps in tasks.items()],
    }


def run(tasks: dict[str, list[dict[str, Any]]], **kwargs: Any) -> Run:
    return Run.model_validate(run_doc(tasks, **kwargs))


def scored_run(tasks: dict[str, list[dict[str, Any]]], **kwargs: Any) -> ScoredRun:
    return ScoredRun.model_validate(run_doc(tasks, **kwargs))


def one_step(result: dict[str, Any]) -> StepResult:
    """A lone step result model (for calling re-derivation directly)."""
    if "score" in result:
        return ScoredStepResult.model_validate(result)
    return StepResult.model_validate(result)


def place(pointer: str = "/task_results/0/step_results/0") -> StepPlace:
    return StepPlace(source="run.json", run_id="run-1", task_id="t1", step_n=1, pointer=pointer)


class Walked(list):  # type: ignore[type-arg]
    """A list that counts the items handed out by walks over it (the linear-cost tests count passes)."""

    def __init__(self, items: list[Any]) -> None:
        super().__init__(items)
        self.steps = 0

    def __iter__(self) -> Any:
        for item in super().__iter__():
            self.steps += 1
            yield item


def checked(model: EvalSuite | EvalTask) -> dict[str, Any]:
    """A suite (or task) as ``score`` reads it, a checked dict: the fields given, none of the defaults
    the model fills in (the dict scorer reads a left-out field as its default)."""
    return model.model_dump(mode="json", exclude_unset=True)


def checked_suites(suites: Sequence[EvalSuite]) -> list[dict[str, Any]]:
    return [checked(given) for given in suites]
