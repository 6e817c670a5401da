"""Walk an artifact and yield every coherence finding, with JSON Pointers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from evalscore.coherence import registry as r
from evalscore.coherence.artifact_rules import (
    check_offset_timestamp,
    check_run_timing,
    check_schema_major,
    check_unique,
)
from evalscore.coherence.gate_rules import check_gate_event
from evalscore.coherence.step_rules import check_step
from evalscore.findings import Finding, JsonPath
from evalscore.models.review import ScoredStepResult, StepScore
from evalscore.models.run import RunOf, StepResult
from evalscore.models.suite import EvalSuite


def coherence_findings(artifact: Any, path: JsonPath = ()) -> Iterator[Finding]:
    """Every coherence finding of a parsed artifact, in document order."""
    if isinstance(artifact, RunOf):
        yield from run_findings(artifact, path)
    elif isinstance(artifact, EvalSuite):
        yield from suite_findings(artifact, path)
    elif isinstance(artifact, StepScore):
        yield from step_score_findings(artifact, path)


def run_findings(run: RunOf[Any], path: JsonPath) -> Iterator[Finding]:
    yield from check_schema_major(run.schema_version, path)
    yield from check_run_timing(run.started_at, run.ended_at, path)
    tasks_path = (*path, "task_results")
    yield from check_unique(
        ((task.task_id, (*tasks_path, i, "task_id")) for i, task in enumerate(run.task_results)),
        r.DUPLICATE_TASK_RESULT,
        "task_id",
    )
    for task_index, task in enumerate(run.task_results):
        steps_path = (*tasks_path, task_index, "step_results")
        yield from check_unique(
            ((step.step_n, (*steps_path, i, "step_n")) for i, step in enumerate(task.step_results)),
            r.DUPLICATE_STEP_RESULT,
            "step_n",
        )
        for step_index, step in enumerate(task.step_results):
            yield from step_result_findings(step, (*steps_path, step_index))


def step_result_findings(step: StepResult, path: JsonPath) -> Iterator[Finding]:
    for index, event in enumerate(step.gate_events):
        yield from check_gate_event(event, (*path, "gate_events", index))
    yield from check_step(step, path)
    if isinstance(step, ScoredStepResult) and step.score is not None:
        score_path = (*path, "score")
        if step.score.step_n != step.step_n:
            yield r.SCORE_STEP_MISMATCH.finding(
                (*score_path, "step_n"),
                f"score.step_n is {step.score.step_n} but the step result is step {step.step_n}",
            )
        yield from step_score_findings(step.score, score_path)


def step_score_findings(score: StepScore, path: JsonPath) -> Iterator[Finding]:
    yield from check_offset_timestamp(score.reviewed_at, (*path, "reviewed_at"))


def suite_findings(suite: EvalSuite, path: JsonPath) -> Iterator[Finding]:
    yield from check_schema_major(suite.schema_version, path)
    tasks_path = (*path, "suite", "tasks")
    yield from check_unique(
        ((task.id, (*tasks_path, i, "id")) for i, task in enumerate(suite.suite.tasks)),
        r.DUPLICATE_SUITE_TASK,
        "task id",
    )
    for task_index, task in enumerate(suite.suite.tasks):
        task_path = (*tasks_path, task_index)
        yield from check_unique(
            ((step.n, (*task_path, "steps", i, "n")) for i, step in enumerate(task.steps)),
            r.DUPLICATE_SUITE_STEP,
            "step n",
        )
        yield from check_unique(
            ((gate.id, (*task_path, "mandated_gates", i, "id")) for i, gate in enumerate(task.mandated_gates)),
            r.DUPLICATE_GATE_ID,
            "mandated gate id",
        )
