"""An invalid document costs about what its valid twin costs: findings are looked for only a little
beyond what a report will show, and the verdict never depends on where the search stopped."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import orjson
import pytest

from evalscore.inputs.documents import Document
from evalscore.validation import checker, contract_layer
from evalscore.validation.checker import RANKED_AT_LEAST, check_guarded

ROOT = Path(__file__).resolve().parents[2]
RUN = orjson.loads((ROOT / "examples" / "partner-log.jsonl").read_bytes().splitlines()[0])


def with_calls(count: int, tool: Any) -> dict[str, Any]:
    run = copy.deepcopy(RUN)
    step = run["task_results"][0]["step_results"][0]
    step["agent_tool_calls"] = [{"tool": tool, "args": {}} for _ in range(count)]
    step["gate_events"] = []
    step["auto_score"] = None
    return run


def explanations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = contract_layer._deepest
    monkeypatch.setattr(contract_layer, "_deepest", lambda error: calls.append(1) or real(error))
    return calls


def test_thousands_of_wrong_values_cost_a_bounded_number_of_explanations(monkeypatch: pytest.MonkeyPatch) -> None:
    explained = explanations(monkeypatch)
    verdict = check_guarded(Document("run.json", None, with_calls(3000, 5)), None, False, 3)
    assert not verdict.valid
    assert verdict.more_findings
    assert len(verdict.findings) == RANKED_AT_LEAST + 1
    assert {finding.code for finding in verdict.findings} == {"schema.type"}
    assert 0 < len(explained) <= RANKED_AT_LEAST + 1


def test_without_a_bound_every_finding_is_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    explained = explanations(monkeypatch)
    verdict = check_guarded(Document("run.json", None, with_calls(300, 5)), None, False)
    assert len(verdict.findings) == 300
    assert not verdict.more_findings
    assert len(explained) == 300


def test_a_document_with_fewer_findings_than_the_bound_lists_them_all() -> None:
    verdict = check_guarded(Document("run.json", None, with_calls(40, 5)), None, False, 3)
    assert len(verdict.findings) == 40
    assert not verdict.more_findings


def test_asking_for_one_finding_ranks_as_asking_for_all_when_there_are_fewer_than_a_hundred() -> None:
    run = with_calls(3, "lookup_order")
    run["task_results"][0]["step_results"][0]["agent_tool_calls"][0] = {"tool": 5, "args": {}}
    run["run_id"] = 7
    bounded = check_guarded(Document("run.json", None, run), None, False, 1)
    unbounded = check_guarded(Document("run.json", None, run), None, False)
    assert bounded.findings == unbounded.findings
    assert len(bounded.findings) == 2


def scored_run_with_warnings_then_an_error(warnings: int) -> dict[str, Any]:
    run = copy.deepcopy(RUN)
    task = run["task_results"][0]
    template = task["step_results"][0]
    steps = []
    for n in range(1, warnings + 2):
        step = copy.deepcopy(template)
        step["step_n"] = n
        step["score"] = {
            "step_n": n if n <= warnings else n + 1,  # the last step's score names another step: an error
            "tool_match": True,
            "golden_truth": 3,
            "distraction_caught": None,
            "dimensions": {},
            "reviewer_id": "rev",
            "reviewed_at": "2026-11-02 09:00",  # no offset: a warning
            "pre_filled": False,
        }
        steps.append(step)
    task["step_results"] = steps
    run["task_results"] = [task]
    return run


def test_an_error_after_more_warnings_than_the_bound_still_makes_the_document_invalid() -> None:
    run = scored_run_with_warnings_then_an_error(RANKED_AT_LEAST + 50)
    complete = check_guarded(Document("run.json", None, run), "scored-run", False)
    assert not complete.valid
    assert sum(1 for finding in complete.findings if finding.is_error) == 1
    bounded = check_guarded(Document("run.json", None, run), "scored-run", False, 3)
    assert bounded.more_findings
    assert not bounded.valid
    assert [finding.code for finding in bounded.findings if finding.is_error] == ["ES133"]  # score-step-mismatch
    assert len(bounded.findings) == RANKED_AT_LEAST + 2


def test_the_bound_is_a_hundred_or_what_is_wanted_if_more() -> None:
    verdict = checker.check_guarded(Document("run.json", None, with_calls(600, 5)), None, False, 250)
    assert len(verdict.findings) == 251
    assert verdict.more_findings
