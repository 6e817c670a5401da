"""Assemble one Run from the mapped histories of a file.

Each history is a task of one step. Its task id is the history's ``conversation_id`` (an
application may set it: ``agent.run(..., conversation_id=...)``), or ``history-<n>`` (its place in
the file) when the history records none. The run id is derived from the file's content
(``pydantic-ai:`` and its SHA-256), so the same evidence imported twice is the same run, which
``evalscore score`` refuses to count twice. ``suite_id`` and ``suite_version`` are the suite's when
``--suite`` names one, else empty: a history does not say which suite it answers.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from evalscore.importers.pydantic_ai._history import HistoryShapeError, read_history
from evalscore.importers.pydantic_ai._reading import HistoryDocument
from evalscore.importers.pydantic_ai._step import MappedHistory, map_history
from evalscore.importers.shared.errors import UnmappableSourceError
from evalscore.models import EvalSuite

SOURCE_NAME: Final = "pydantic_ai"


@dataclass(frozen=True, slots=True)
class MappedTask:
    task_id: str
    line: int | None
    mapped: MappedHistory
    conversation_id: str | None
    run_ids: tuple[str, ...]
    models: tuple[str, ...]
    messages: int
    first: tuple[datetime, str]
    last: tuple[datetime, str]


def map_task(document: HistoryDocument, path: str, approval_tools: Collection[str], position: int) -> MappedTask:
    """One history mapped to its task; ``UnmappableSourceError`` names the line and the JSON Pointer."""
    try:
        history = read_history(document.value)
        mapped = map_history(history, approval_tools)
    except HistoryShapeError as error:
        raise UnmappableSourceError(path, f"{_line(document)}{error}") from error
    if len(history.conversation_ids) > 1:
        joined = f"the history joins {len(history.conversation_ids)} conversation ids"
        raise UnmappableSourceError(path, f"{_line(document)}/: {joined}")
    conversation = next(iter(history.conversation_ids), None)
    return MappedTask(
        task_id=conversation if conversation is not None else f"history-{position}",
        line=document.line,
        mapped=mapped,
        conversation_id=conversation,
        run_ids=tuple(history.run_ids),
        models=tuple(history.models),
        messages=len(history.messages),
        first=min(history.timestamps),
        last=max(history.timestamps),
    )


def _line(document: HistoryDocument) -> str:
    return "" if document.line is None else f"line {document.line}, "


def run_document(
    path: str, tasks: Sequence[MappedTask], approval_tools: Collection[str], digest: str, suite: EvalSuite | None
) -> dict[str, Any]:
    """The Run as a JSON object, not yet validated."""
    _refuse_repeated_task_ids(path, tasks)
    models: dict[str, None] = {}  # an ordered set
    for task in tasks:
        models.update(dict.fromkeys(task.models))
    return {
        "suite_id": suite.suite.id if suite is not None else "",
        "suite_version": suite.suite.version if suite is not None else "",
        "run_id": f"pydantic-ai:{digest}",
        "started_at": min(task.first for task in tasks)[1],
        "ended_at": max(task.last for task in tasks)[1],
        "adapter": {"name": SOURCE_NAME, "model": " + ".join(models), "config": provenance(tasks, approval_tools)},
        "task_results": [
            {"task_id": task.task_id, "step_results": [{"step_n": 1, **task.mapped.step}]} for task in tasks
        ],
    }


def provenance(tasks: Sequence[MappedTask], approval_tools: Collection[str]) -> dict[str, Any]:
    """What the Run's own fields cannot hold but a reviewer needs: where each task came from, what did not run."""
    return {
        "source": SOURCE_NAME,
        "approval_tools": sorted(approval_tools),
        "histories": [
            {
                "task_id": task.task_id,
                "line": task.line,
                "conversation_id": task.conversation_id,
                "run_ids": list(task.run_ids),
                "models": list(task.models),
                "messages": task.messages,
            }
            for task in tasks
        ],
        "calls_not_task_calls": [
            {"task_id": task.task_id, **entry} for task in tasks for entry in task.mapped.other_calls
        ],
        "calls_not_run": [{"task_id": task.task_id, **entry} for task in tasks for entry in task.mapped.calls_not_run],
        "approved_calls_requested_args": [
            {"task_id": task.task_id, **entry} for task in tasks for entry in task.mapped.requested_args
        ],
        "denials_of_tools_not_named": sum(task.mapped.denials_not_gated for task in tasks),
    }


def _refuse_repeated_task_ids(path: str, tasks: Sequence[MappedTask]) -> None:
    first_line: dict[str, int | None] = {}
    for task in tasks:
        if task.task_id in first_line:
            raise UnmappableSourceError(
                path,
                f"conversation {task.task_id!r} appears twice (lines {first_line[task.task_id]} and {task.line}); "
                "a file holds each conversation once (import its latest history)",
            )
        first_line[task.task_id] = task.line
