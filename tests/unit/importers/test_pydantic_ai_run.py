"""A history file as one Run: task ids, the run id, models, provenance, and the file-level refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import pytest

from evalscore.importers.pydantic_ai import import_pydantic_ai_history
from evalscore.importers.shared.errors import UnmappableSourceError, UnreadableSourceError

T0: Final = "2026-12-01T10:00:00Z"
T1: Final = "2026-12-01T10:00:02Z"


def history(conversation: str | None = None, model: str = "m1", run: str = "run-1") -> list[dict[str, Any]]:
    ids = {"conversation_id": conversation, "run_id": run}
    return [
        {"kind": "request", "parts": [{"part_kind": "user-prompt", "content": "x", "timestamp": T0}], **ids},
        {
            "kind": "response",
            "parts": [{"part_kind": "text", "content": "y"}],
            "timestamp": T1,
            "model_name": model,
            **ids,
        },
    ]


def write_jsonl(path: Path, *histories: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(item) + "\n" for item in histories))
    return str(path)


def test_each_history_is_a_task_named_by_its_conversation_or_its_place(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "h.jsonl", history(), history("ticket-9", "m2", "run-2"), history(None, "m1", "run-3")
    )
    run = import_pydantic_ai_history(path, approval_tools=["refund", "approve_payment"])
    assert [task.task_id for task in run.task_results] == ["history-1", "ticket-9", "history-3"]
    assert run.adapter.model == "m1 + m2"  # in order of first appearance, each once
    config = run.adapter.config
    assert config["approval_tools"] == ["approve_payment", "refund"]
    assert [
        (entry["line"], entry["conversation_id"], entry["run_ids"], entry["messages"]) for entry in config["histories"]
    ] == [
        (1, None, ["run-1"], 2),
        (2, "ticket-9", ["run-2"], 2),
        (3, None, ["run-3"], 2),
    ]
    assert (run.started_at, run.ended_at) == (T0, T1)
    assert run.run_id.startswith("pydantic-ai:")
    assert len(run.run_id) == len("pydantic-ai:") + 64


def test_a_history_that_names_two_conversations_is_refused_naming_its_line(tmp_path: Path) -> None:
    mixed = history("a")
    mixed[1]["conversation_id"] = "b"
    path = write_jsonl(tmp_path / "h.jsonl", history(), mixed)
    with pytest.raises(UnmappableSourceError) as refused:
        import_pydantic_ai_history(path)
    assert refused.value.reason == "line 2, /: the history joins 2 conversation ids"


def test_a_history_over_the_size_limit_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "h.jsonl", history())
    size = len(Path(path).read_bytes())
    assert import_pydantic_ai_history(path, max_document_bytes=size).task_results
    with pytest.raises(UnreadableSourceError, match="line 1: "):
        import_pydantic_ai_history(path, max_document_bytes=size - 2)


def test_the_callback_is_told_once_per_history(tmp_path: Path) -> None:
    ticks: list[None] = []
    import_pydantic_ai_history(
        write_jsonl(tmp_path / "h.jsonl", history(), history("c")), on_history=lambda: ticks.append(None)
    )
    assert len(ticks) == 2
