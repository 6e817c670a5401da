"""Walk an artifact (as JSON data) and yield every coherence finding, with JSON Pointers.

The walk assumes the document conforms to the published schema of its kind:
callers check the contract first.
"""

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
from evalscore.findings import Finding, JsonPath, show_number

DEFAULT_SCHEMA_VERSION = "1"


def coherence_findings(kind: str, document: dict[str, Any], path: JsonPath = ()) -> Iterator[Finding]:
    """Every coherence finding of a schema-valid document of ``kind``, in document order."""
    if kind in ("run", "scored-run"):
        yield from run_findings(document, path)
    elif kind == "eval-suite":
        yield from suite_findings(document, path)
    elif kind == "step-score":
        yield from step_score_findings(document, path)


def run_findings(run: dict[str, Any], path: JsonPath) -> Iterator[Finding]:
    yield from check_schema_major(run.get("schema_version", DEFAULT_SCHEMA_VERSION), path)
    yield from check_run_timing(run["started_at"], run["ended_at"], path)
    tasks_path = (*path, "task_results")
    tasks = run["task_results"]
    yield from check_unique(
        ((task["task_id"], (*tasks_path, i, "task_id")) for i, task in enumerate(tasks)),
        r.DUPLICATE_TASK_RESULT,
        "task_id",
    )
    for task_index, task in enumerate(tasks):
        steps_path = (*tasks_path, task_index, "step_results")
        steps = task["step_results"]
        yield from check_unique(
            ((step["step_n"], (*steps_path, i, "step_n")) for i, step in enumerate(steps)),
            r.DUPLICATE_STEP_RESULT,
            "step_n",
        )
        for step_index, step in enumerate(steps):
            yield from step_result_findings(step, (*steps_path, step_index))


def step_result_findings(step: dict[str, Any], path: JsonPath) -> Iterator[Finding]:
    for index, event in enumerate(step.get("gate_events", ())):
        yield from check_gate_event(event, (*path, "gate_events", index))
    yield from check_step(step, path)
    score = step.get("score")
    if score is not None:
        score_path = (*path, "score")
        if score["step_n"] != step["step_n"]:
            yield r.SCORE_STEP_MISMATCH.finding(
                (*score_path, "step_n"),
                f"score.step_n is {show_number(score['step_n'])} "
                f"but the step result is step {show_number(step['step_n'])}",
            )
        yield from step_score_findings(score, score_path)


def step_score_findings(score: dict[str, Any], path: JsonPath) -> Iterator[Finding]:
    yield from check_offset_timestamp(score["reviewed_at"], (*path, "reviewed_at"))


def suite_findings(suite: dict[str, Any], path: JsonPath) -> Iterator[Finding]:
    yield from check_schema_major(suite.get("schema_version", DEFAULT_SCHEMA_VERSION), path)
    tasks_path = (*path, "suite", "tasks")
    tasks = suite["suite"]["tasks"]
    yield from check_unique(
        ((task["id"], (*tasks_path, i, "id")) for i, task in enumerate(tasks)),
        r.DUPLICATE_SUITE_TASK,
        "task id",
    )
    for task_index, task in enumerate(tasks):
        task_path = (*tasks_path, task_index)
        yield from check_unique(
            ((step["n"], (*task_path, "steps", i, "n")) for i, step in enumerate(task["steps"])),
            r.DUPLICATE_SUITE_STEP,
            "step n",
        )
        yield from check_unique(
            (
                (gate["id"], (*task_path, "mandated_gates", i, "id"))
                for i, gate in enumerate(task.get("mandated_gates", ()))
            ),
            r.DUPLICATE_GATE_ID,
            "mandated gate id",
        )
