"""Walk an artifact and yield every coherence finding, with JSON Pointers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from evalscore.coherence import registry as r
from evalscore.coherence.artifact_rules import check_offset_timestamp, check_run_timing, check_schema_major, check_unique
from evalscore.coherence.gate_rules import check_gate_event
from evalscore.coherence.step_rules import check_step
from evalscore.findings import Finding, join_pointer
from evalscore.models.review import ScoredStepResult, StepScore
from evalscore.models.run import RunOf, StepResult
from evalscore.models.suite import EvalSuite


def coherence_findings(artifact: Any, pointer: str = "") -> Iterator[Finding]:
    """Every coherence finding of a parsed artifact, in document order."""
    if isinstance(artifact, RunOf):
        yield from run_findings(artifact, pointer)
    elif isinstance(artifact, EvalSuite):
        yield from suite_findings(artifact, pointer)
    elif isinstance(artifact, StepScore):
        yield from step_score_findings(artifact, pointer)


def run_findings(run: RunOf[Any], pointer: str) -> Iterator[Finding]:
    yield from check_schema_major(run.schema_version, pointer)
    yield from check_run_timing(run.started_at, run.ended_at, pointer)
    tasks_pointer = join_pointer(pointer, "task_results")
    yield from check_unique(
        ((task.task_id, join_pointer(tasks_pointer, i, "task_id")) for i, task in enumerate(run.task_results)),
        r.DUPLICATE_TASK_RESULT,
        "task_id",
    )
    for task_index, task in enumerate(run.task_results):
        steps_pointer = join_pointer(tasks_pointer, task_index, "step_results")
        yield from check_unique(
            ((step.step_n, join_pointer(steps_pointer, i, "step_n")) for i, step in enumerate(task.step_results)),
            r.DUPLICATE_STEP_RESULT,
            "step_n",
        )
        for step_index, step in enumerate(task.step_results):
            yield from step_result_findings(step, join_pointer(steps_pointer, step_index))


def step_result_findings(step: StepResult, pointer: str) -> Iterator[Finding]:
    for index, event in enumerate(step.gate_events):
        yield from check_gate_event(event, join_pointer(pointer, "gate_events", index))
    yield from check_step(step, pointer)
    if isinstance(step, ScoredStepResult) and step.score is not None:
        score_pointer = join_pointer(pointer, "score")
        if step.score.step_n != step.step_n:
            yield r.SCORE_STEP_MISMATCH.finding(
                join_pointer(score_pointer, "step_n"),
                f"score.step_n is {step.score.step_n} but the step result is step {step.step_n}",
            )
        yield from step_score_findings(step.score, score_pointer)


def step_score_findings(score: StepScore, pointer: str) -> Iterator[Finding]:
    yield from check_offset_timestamp(score.reviewed_at, join_pointer(pointer, "reviewed_at"))


def suite_findings(suite: EvalSuite, pointer: str) -> Iterator[Finding]:
    yield from check_schema_major(suite.schema_version, pointer)
    tasks_pointer = join_pointer(pointer, "suite", "tasks")
    yield from check_unique(
        ((task.id, join_pointer(tasks_pointer, i, "id")) for i, task in enumerate(suite.suite.tasks)),
        r.DUPLICATE_SUITE_TASK,
        "task id",
    )
    for task_index, task in enumerate(suite.suite.tasks):
        task_pointer = join_pointer(tasks_pointer, task_index)
        yield from check_unique(
            ((step.n, join_pointer(task_pointer, "steps", i, "n")) for i, step in enumerate(task.steps)),
            r.DUPLICATE_SUITE_STEP,
            "step n",
        )
        yield from check_unique(
            ((gate.id, join_pointer(task_pointer, "mandated_gates", i, "id")) for i, gate in enumerate(task.mandated_gates)),
            r.DUPLICATE_GATE_ID,
            "mandated gate id",
        )
