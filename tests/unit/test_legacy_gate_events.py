"""An artifact written before the oversight fields existed, with gate events, parses without
anything being fabricated: the new fields stay null (or empty), never filled from a clock."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from evalscore.contract.builder import build_schema
from evalscore.models import GateEvent, Run
from evalscore.running.pipeline import check_paths

ROOT = Path(__file__).resolve().parents[2]
LEGACY = ROOT / "fixtures" / "valid" / "run" / "pre-oversight-gate-events.json"
OVERSIGHT_FIELDS = ("opened_at", "resolved_at", "decision_latency_ms", "overseers")
LEGACY_GATE_EVENTS = 3


def _raw() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(LEGACY.read_text())
    return document


def _gate_events(run: Run) -> list[GateEvent]:
    return [event for task in run.task_results for step in task.step_results for event in step.gate_events]


def test_the_legacy_artifact_really_predates_the_oversight_fields() -> None:
    raw_events = [e for t in _raw()["task_results"] for s in t["step_results"] for e in s.get("gate_events", [])]
    assert len(raw_events) == LEGACY_GATE_EVENTS
    assert all(field not in event for event in raw_events for field in OVERSIGHT_FIELDS)


def test_a_pre_oversight_run_with_gate_events_parses_and_every_gate_event_is_walked() -> None:
    run = Run.model_validate(_raw())
    walked = 0
    for event in _gate_events(run):
        walked += 1
        assert event.opened_at is None
        assert event.resolved_at is None
        assert event.decision_latency_ms is None
        assert event.overseers == []
    assert walked == LEGACY_GATE_EVENTS


def test_parsing_a_legacy_gate_event_fabricates_no_oversight_record() -> None:
    run = Run.model_validate(_raw())
    walked = 0
    for event in _gate_events(run):
        walked += 1
        assert not set(OVERSIGHT_FIELDS) & event.model_fields_set
    assert walked == LEGACY_GATE_EVENTS


def test_a_legacy_gate_event_without_ordering_or_budget_keeps_them_null() -> None:
    events = _gate_events(Run.model_validate(_raw()))
    assert len(events) == LEGACY_GATE_EVENTS
    assert events[2].task_calls_before is None
    assert events[2].uses is None
    assert events[1].uses is None
    assert [e.task_calls_before for e in events[:2]] == [1, 2]


def test_the_parsed_legacy_run_dumps_to_a_document_the_schema_accepts_with_null_oversight() -> None:
    dumped = json.loads(Run.model_validate(_raw()).model_dump_json())
    assert jsonschema.Draft202012Validator(build_schema("run")).is_valid(dumped)
    events = [e for t in dumped["task_results"] for s in t["step_results"] for e in s["gate_events"]]
    assert len(events) == LEGACY_GATE_EVENTS
    assert [(e["opened_at"], e["resolved_at"], e["decision_latency_ms"], e["overseers"]) for e in events] == [
        (None, None, None, [])
    ] * LEGACY_GATE_EVENTS


def test_the_legacy_run_validates_with_no_finding_at_all() -> None:
    checked = list(check_paths([str(LEGACY)], keep_models=True))
    assert len(checked) == 1
    assert checked[0].kind == "run"
    assert checked[0].findings == ()
    model = checked[0].model
    assert isinstance(model, Run)
    assert len(_gate_events(model)) == LEGACY_GATE_EVENTS
