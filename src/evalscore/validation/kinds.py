"""Tell which artifact a parsed document is from its shape."""

from __future__ import annotations

from typing import Any

from evalscore.artifact_kinds import ArtifactKind


def detect_kind(document: Any) -> ArtifactKind | None:
    """The artifact kind a document's shape announces, or None when it announces none.

    A run is a scored run when any of its step results carries ``score``;
    a run with no step results reads as a plain run.
    """
    if not isinstance(document, dict):
        return None
    if isinstance(document.get("suite"), dict):
        return "eval-suite"
    if "task_results" in document:
        return "scored-run" if _has_scored_step(document["task_results"]) else "run"
    if "reviewer_id" in document or "reviewed_at" in document:
        return "step-score"
    return None


def _has_scored_step(task_results: Any) -> bool:
    if not isinstance(task_results, list):
        return False
    for task in task_results:
        steps = task.get("step_results") if isinstance(task, dict) else None
        if isinstance(steps, list) and any(isinstance(step, dict) and "score" in step for step in steps):
            return True
    return False
