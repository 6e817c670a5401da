"""A step that calls a tool the suite does not know is refused, never scored past its gate."""

from __future__ import annotations

from typing import Any

import pytest

from evalscore.models import EvalSuite
from evalscore.scoring.join import JoinedStep, index_suites, join_run, tool_key
from evalscore.scoring.refusal import Refusal

from .builders import REFUND, gate, run, step_result, suite, task_def


def with_toolbox(base: EvalSuite, *names: str) -> EvalSuite:
    document = base.model_dump()
    document["suite"]["toolbox"] = [{"name": name} for name in names]
    return EvalSuite.model_validate(document)


def joined(calls: list[str], the_suite: EvalSuite) -> list[Any]:
    items = list(join_run(run({"t1": [step_result(1, calls)]}), "runs/a.json", index_suites([the_suite])))
    assert len(items) == 1
    return items


GATED = suite(task_def("t1", gates=[gate()]))
RUN_ID = "run-1"


@pytest.mark.parametrize(
    "spelling",
    [
        "Issue_Refund",
        "ISSUE_REFUND",
        "issue_refund\u200b",
        "\ufeffissue_refund",
        "issue_\u00adrefund",
        "\uff49ssue_refund",
        "issue_refund\u3164",
    ],
)
def test_a_near_miss_of_a_gated_tool_is_refused_at_the_call(spelling: str) -> None:
    (refusal,) = joined(["lookup", spelling], GATED)
    assert isinstance(refusal, Refusal)
    assert (refusal.code, refusal.pointer, refusal.task_id, refusal.step_n) == (
        "tool-unknown",
        "/task_results/0/step_results/0/agent_tool_calls/1/tool",
        "t1",
        1,
    )
    assert (refusal.source, refusal.run_id) == ("runs/a.json", RUN_ID)
    assert refusal.reason == (
        f"the step calls {spelling!r}, which differs from the gated tool {REFUND!r} only by case, width or "
        "invisible characters: whether the gate governs it cannot be told"
    )


def test_the_gated_tool_itself_and_unrelated_tools_join_without_a_toolbox() -> None:
    (step,) = joined([REFUND, "lookup", "Lookup"], GATED)
    assert isinstance(step, JoinedStep)


def test_a_call_naming_one_of_two_gated_look_alikes_exactly_joins_and_a_third_spelling_is_refused() -> None:
    both = suite(task_def("t1", gates=[gate("lower", REFUND), gate("upper", "Issue_Refund")]))
    for exact in (REFUND, "Issue_Refund"):
        (step,) = joined([exact], both)
        assert isinstance(step, JoinedStep)
    (refusal,) = joined(["ISSUE_REFUND"], both)
    assert isinstance(refusal, Refusal)
    assert refusal.reason.startswith("the step calls 'ISSUE_REFUND', which differs from the gated tool 'Issue_Refund'")


def test_a_tool_outside_a_declared_toolbox_is_refused() -> None:
    declared = with_toolbox(GATED, REFUND, "lookup")
    (step,) = joined([REFUND, "lookup"], declared)
    assert isinstance(step, JoinedStep)
    (refusal,) = joined(["lookup", "search"], declared)
    assert isinstance(refusal, Refusal)
    assert (refusal.code, refusal.pointer) == ("tool-unknown", "/task_results/0/step_results/0/agent_tool_calls/1/tool")
    assert (refusal.source, refusal.run_id) == ("runs/a.json", RUN_ID)
    assert refusal.reason == "the step calls 'search', which is not in the toolbox of suite 'suite'"


def test_the_first_unknown_call_is_the_one_named() -> None:
    (refusal,) = joined(["Issue_Refund", "issue_refund\u200b"], GATED)
    assert isinstance(refusal, Refusal)
    assert refusal.pointer.endswith("/agent_tool_calls/0/tool")


def test_a_tool_key_folds_case_width_and_invisible_characters_only() -> None:
    assert tool_key("Issue_Refund\u200b") == tool_key("\uff49ssue_refund") == "issue_refund"
    assert tool_key("issue-refund") != tool_key("issue_refund")
