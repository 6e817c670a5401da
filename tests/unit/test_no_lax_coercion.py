"""No lax coercion: what JSON Schema rejects the models reject, and the other way round."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError

from evalscore.contract.builder import SCHEMA_FILES
from evalscore.models.by_kind import MODELS

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "valid"
SCHEMA_DIR = ROOT / "schemas" / "v1"

Edit = Callable[[dict[str, Any]], None]


def _base(kind: str) -> dict[str, Any]:
    name = {"run": "full-v3.json", "eval-suite": "minimal.json", "step-score": "full.json", "scored-run": "full.json"}[
        kind
    ]
    return json.loads((FIXTURES / kind / name).read_text())


def _verdicts(kind: str, edit: Edit) -> tuple[bool, bool]:
    document = copy.deepcopy(_base(kind))
    edit(document)
    schema = json.loads((SCHEMA_DIR / SCHEMA_FILES[kind]).read_text())  # type: ignore[index]
    schema_ok = jsonschema.Draft202012Validator(schema).is_valid(document)
    try:
        MODELS[kind].model_validate(document)  # type: ignore[index]
    except ValidationError:
        return schema_ok, False
    return schema_ok, True


def _step(doc: dict[str, Any]) -> dict[str, Any]:
    step: dict[str, Any] = doc["task_results"][0]["step_results"][0]
    return step


def _gate(doc: dict[str, Any], index: int = 1) -> dict[str, Any]:
    gate: dict[str, Any] = _step(doc)["gate_events"][index]
    return gate


def _set(getter: Callable[[dict[str, Any]], dict[str, Any]], key: str, value: Any) -> Edit:
    def edit(doc: dict[str, Any]) -> None:
        getter(doc)[key] = value

    return edit


def _root(doc: dict[str, Any]) -> dict[str, Any]:
    return doc


def _suite_task(doc: dict[str, Any]) -> dict[str, Any]:
    task: dict[str, Any] = doc["suite"]["tasks"][0]
    return task


def _call(doc: dict[str, Any]) -> dict[str, Any]:
    call: dict[str, Any] = _step(doc)["agent_tool_calls"][0]
    return call


def _auto(doc: dict[str, Any]) -> dict[str, Any]:
    auto: dict[str, Any] = _step(doc)["auto_score"]
    return auto


def _pairing(doc: dict[str, Any]) -> dict[str, Any]:
    pairing: dict[str, Any] = _step(doc)["auto_score"]["gates"]["mandated"]["pairings"][0]
    return pairing


REJECTED: list[tuple[str, str, Edit]] = [
    ("string '1' for step_n", "run", _set(_step, "step_n", "1")),
    ("string '1' for uses", "run", _set(_gate, "uses", "1")),
    ("string '0' for task_calls_before", "run", _set(_gate, "task_calls_before", "0")),
    ("string '1' for callIndex", "run", _set(_pairing, "callIndex", "1")),
    ("string '2' for golden_truth", "step-score", _set(_root, "golden_truth", "2")),
    ("string '12' for latency_ms", "run", _set(_step, "latency_ms", "12")),
    ("true for step_n", "run", _set(_step, "step_n", True)),
    ("true for uses", "run", _set(_gate, "uses", True)),
    ("false for task_calls_before", "run", _set(_gate, "task_calls_before", False)),
    ("true for golden_truth", "step-score", _set(_root, "golden_truth", True)),
    ("true for decision_latency_ms", "run", _set(_gate, "decision_latency_ms", True)),
    ("1 for a tool name", "run", _set(_call, "tool", 1)),
    ("1 for run_id", "run", _set(_root, "run_id", 1)),
    ("1 for reviewer_id", "step-score", _set(_root, "reviewer_id", 1)),
    ("1 for an overseer id", "run", _set(_gate, "overseers", [1])),
    ("a number for opened_at", "run", _set(_gate, "opened_at", 1772355660)),
    ("a float for resolved_at", "run", _set(_gate, "resolved_at", 1772355690.0)),
    ("a number for started_at", "run", _set(_root, "started_at", 1772355600)),
    ("a number for reviewed_at", "step-score", _set(_root, "reviewed_at", 0)),
    ("'yes' for pre_filled", "step-score", _set(_root, "pre_filled", "yes")),
    ("'true' for distraction_caught", "step-score", _set(_root, "distraction_caught", "true")),
    ("1 for pre_filled", "step-score", _set(_root, "pre_filled", 1)),
    ("'yes' for is_distraction", "eval-suite", _set(_suite_task, "is_distraction", "yes")),
    ("'yes' for tool_match", "run", _set(_auto, "tool_match", "yes")),
    ("'yes' for a reviewer's tool_match", "step-score", _set(_root, "tool_match", "yes")),
    ("1.5 for step_n", "run", _set(_step, "step_n", 1.5)),
    ("2.5 for golden_truth", "step-score", _set(_root, "golden_truth", 2.5)),
    ("trailing newline after opened_at", "run", _set(_gate, "opened_at", "2026-03-01T09:01:00Z\n")),
    ("trailing newline after schema_version", "run", _set(_root, "schema_version", "1.0.1\n")),
    ("trailing newline after a suite's schema_version", "eval-suite", _set(_root, "schema_version", "1.0.0\n")),
]

ACCEPTED: list[tuple[str, str, Edit]] = [
    ("1.0 for step_n", "run", _set(_step, "step_n", 1.0)),
    ("2.0 for uses", "run", _set(_gate, "uses", 2.0)),
    ("1.0 for task_calls_before", "run", _set(_gate, "task_calls_before", 1.0)),
    ("1.0 for callIndex", "run", _set(_pairing, "callIndex", 1.0)),
    ("3.0 for golden_truth", "step-score", _set(_root, "golden_truth", 3.0)),
    ("1.0 for a suite step's n", "eval-suite", lambda d: _suite_task(d)["steps"][0].update(n=1.0)),
    ("an int for latency_ms", "run", _set(_step, "latency_ms", 7)),
    ("an int for pre_fill_confidence", "step-score", _set(_root, "pre_fill_confidence", 1)),
]


def _ids(cases: list[tuple[str, str, Edit]]) -> list[str]:
    return [name for name, _, _ in cases]


def test_the_base_documents_are_valid_in_both_layers() -> None:
    for kind in MODELS:
        assert _verdicts(kind, lambda _doc: None) == (True, True), kind
    assert len(MODELS) == 4


@pytest.mark.parametrize(("name", "kind", "edit"), REJECTED, ids=_ids(REJECTED))
def test_a_lax_value_is_rejected_by_the_schema_and_by_the_models(name: str, kind: str, edit: Edit) -> None:
    assert _verdicts(kind, edit) == (False, False)


@pytest.mark.parametrize(("name", "kind", "edit"), ACCEPTED, ids=_ids(ACCEPTED))
def test_an_integral_number_is_an_integer_to_the_schema_and_to_the_models(name: str, kind: str, edit: Edit) -> None:
    assert _verdicts(kind, edit) == (True, True)


def test_an_integral_float_is_read_as_an_int() -> None:
    document = _base("run")
    _step(document)["step_n"] = 1.0
    _gate(document)["uses"] = 2.0
    run = MODELS["run"].model_validate(document)
    step = run.task_results[0].step_results[0]  # type: ignore[attr-defined]
    assert type(step.step_n) is int
    assert step.step_n == 1
    assert type(step.gate_events[1].uses) is int
