"""Assemble the Run of one mapped thread.

The task id is the thread id; the run id is ``langgraph:<thread id>@<latest checkpoint id>``, so the
same snapshot of a thread imported twice is the same run (which ``evalscore score`` refuses to count
twice) and a thread that moved on is a new one. ``suite_id`` and ``suite_version`` are the suite's
when ``--suite`` names one, else empty: a store does not say which suite a thread answers.
"""

from __future__ import annotations

from typing import Any, Final

from evalscore.importers.langgraph._thread import MappedThread
from evalscore.models import EvalSuite

SOURCE_NAME: Final = "langgraph"


def run_document(store_kind: str, mapped: MappedThread, suite: EvalSuite | None) -> dict[str, Any]:
    """The Run as a JSON object, not yet validated."""
    return {
        "suite_id": suite.suite.id if suite is not None else "",
        "suite_version": suite.suite.version if suite is not None else "",
        "run_id": f"{SOURCE_NAME}:{mapped.thread_id}@{mapped.provenance['latest_checkpoint_id']}",
        "started_at": mapped.started_at,
        "ended_at": mapped.ended_at,
        "adapter": {
            "name": SOURCE_NAME,
            "model": " + ".join(mapped.models),
            "config": {"source": SOURCE_NAME, "store": store_kind, **mapped.provenance},
        },
        "task_results": [{"task_id": mapped.thread_id, "step_results": [{"step_n": 1, **mapped.step}]}],
    }
