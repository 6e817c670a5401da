"""A history file as one Run: task ids, the run id, models, provenance, and the file-level refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import pytest
import yaml

from evalscore.importers.pydantic_ai import import_pydantic_ai_history
from evalscore.importers.pydantic_ai._reading import HistoryDocument
from evalscore.importers.pydantic_ai._run import map_task, run_document
from evalscore.importers.shared.errors import UnmappableSourceError, UnreadableSourceError
from evalscore.models import EvalSuite

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
    assert refused.value.source == path
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


def with_refund(conversation: str) -> list[dict[str, Any]]:
    messages = history(conversation)
    messages[1]["parts"] = [
        {"part_kind": "tool-call", "tool_name": "refund", "tool_call_id": f"{conversation}-r", "args": {"n": 1}}
    ]
    denied = {
        "part_kind": "tool-return",
        "tool_name": "refund",
        "tool_call_id": f"{conversation}-r",
        "content": "no",
        "outcome": "denied",
    }
    skipped_output = {
        "part_kind": "tool-call",
        "tool_name": "final_result",
        "tool_call_id": f"{conversation}-o",
        "args": {},
    }
    messages[1]["parts"].append(skipped_output)
    output_answer = {
        "part_kind": "tool-return",
        "tool_name": "final_result",
        "tool_call_id": f"{conversation}-o",
        "content": "Final result processed.",
        "outcome": "success",
    }
    messages.append(
        {"kind": "request", "parts": [denied, output_answer], "run_id": "run-2", "conversation_id": conversation}
    )
    return messages


def test_the_provenance_names_every_history_and_every_call_that_did_not_run(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "h.jsonl", with_refund("a"), with_refund("b"))
    run = import_pydantic_ai_history(path, approval_tools=["refund"])
    assert run.adapter.config == {
        "source": "pydantic_ai",
        "approval_tools": ["refund"],
        "histories": [
            {
                "task_id": name,
                "line": line,
                "conversation_id": name,
                "run_ids": ["run-1", "run-2"],
                "models": ["m1"],
                "messages": 3,
            }
            for line, name in ((1, "a"), (2, "b"))
        ],
        "calls_not_task_calls": [
            {"task_id": name, "call_id": f"{name}-o", "tool": "final_result", "what": "output tool"} for name in "ab"
        ],
        "calls_not_run": [
            {"task_id": name, "call_id": f"{name}-r", "tool": "refund", "reason": "denied", "requested_args": {"n": 1}}
            for name in "ab"
        ],
        "approved_calls_requested_args": [],
        "denials_of_tools_not_named": 0,
    }
    assert [[gate.resolution for gate in task.step_results[0].gate_events] for task in run.task_results] == [
        ["denied"]
    ] * 2
    assert [task.step_results[0].step_n for task in run.task_results] == [1, 1]
    assert (run.suite_id, run.suite_version) == ("", "")


def test_one_conversation_twice_in_a_file_is_refused_naming_both_lines(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "h.jsonl", history("a"), history("b"), history("a", run="run-9"))
    with pytest.raises(UnmappableSourceError) as refused:
        import_pydantic_ai_history(path)
    assert refused.value.source == path
    assert refused.value.reason == (
        "conversation 'a' appears twice (lines 1 and 3); a file holds each conversation once "
        "(import its latest history)"
    )


def test_a_json_history_is_refused_without_a_line_and_with_the_file_named(tmp_path: Path) -> None:
    broken = history()
    broken[0]["kind"] = "system"
    path = tmp_path / "h.json"
    path.write_text(json.dumps(broken))
    with pytest.raises(UnmappableSourceError) as refused:
        import_pydantic_ai_history(str(path))
    assert refused.value.source == str(path)
    assert refused.value.reason == "/0/kind: a message's kind is request or response, not 'system'"


def test_with_a_suite_the_run_names_it(tmp_path: Path) -> None:
    suite = EvalSuite.model_validate(
        yaml.safe_load((Path(__file__).resolve().parents[3] / "examples" / "partner-suite.yaml").read_text())
    )
    task = map_task(HistoryDocument(None, history("t")), "h.json", (), position=1)
    document = run_document("h.json", [task], (), "0" * 64, suite)
    assert (document["suite_id"], document["suite_version"]) == ("refund-desk", "2.1.0")
    assert document["task_results"][0]["step_results"][0]["step_n"] == 1


def test_an_approved_call_s_requested_args_are_kept_under_its_task(tmp_path: Path) -> None:
    messages = with_refund("a")
    messages[2]["parts"][0]["outcome"] = "success"
    run = import_pydantic_ai_history(write_jsonl(tmp_path / "h.jsonl", messages), approval_tools=["refund"])
    assert run.adapter.config["approved_calls_requested_args"] == [
        {"task_id": "a", "call_id": "a-r", "tool": "refund", "requested_args": {"n": 1}}
    ]
