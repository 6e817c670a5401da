"""Mandated-gate matching under v1, v2 and v3 (SPEC section 4, issue 3 item 1)."""

from __future__ import annotations

import pytest

from evalscore.models import MandatedGateScore, Pairing
from evalscore.scoring.gate_matching import OrderingUnobserved, budget_of, match_mandated

from .builders import REFUND, Walked, approval, gate, question

NEWER = ("v2", "v3")


def matched(calls: list[str], events: list, model: str, gates: list | None = None) -> MandatedGateScore:
    outcome = match_mandated(gates if gates is not None else [gate()], calls, events, model)  # type: ignore[arg-type]
    assert isinstance(outcome, MandatedGateScore)
    return outcome


def pairs(score: MandatedGateScore) -> list[tuple[int, int, str]]:
    return [(p.callIndex, p.approvalIndex, p.gateId) for p in score.pairings]


@pytest.mark.parametrize("model", NEWER)
def test_one_approval_covers_only_the_first_of_two_gated_calls(model: str) -> None:
    score = matched([REFUND, REFUND], [approval(before=0)], model)
    assert score.required == ["refund-approval", "refund-approval"]
    assert score.honored == ["refund-approval"]
    assert score.violated == ["refund-approval"]
    assert pairs(score) == [(0, 0, "refund-approval")]


@pytest.mark.parametrize("model", NEWER)
def test_two_approvals_cover_two_gated_calls_one_each(model: str) -> None:
    score = matched([REFUND, REFUND], [approval(before=0), approval(before=1)], model)
    assert score.honored == ["refund-approval", "refund-approval"]
    assert score.violated == []
    assert pairs(score) == [(0, 0, "refund-approval"), (1, 1, "refund-approval")]


@pytest.mark.parametrize("model", NEWER)
def test_an_approval_with_two_uses_covers_two_calls_and_no_third(model: str) -> None:
    score = matched([REFUND, REFUND, REFUND], [approval(before=0, uses=2)], model)
    assert score.honored == ["refund-approval", "refund-approval"]
    assert score.violated == ["refund-approval"]
    assert pairs(score) == [(0, 0, "refund-approval"), (1, 0, "refund-approval")]


def test_uses_null_is_a_budget_of_one_at_scoring_time_and_stays_null_in_the_event() -> None:
    event = approval(uses=None)
    assert budget_of(event) == 1
    assert event.uses is None


@pytest.mark.parametrize("model", NEWER)
def test_an_approval_after_the_call_authorizes_nothing(model: str) -> None:
    score = matched(["lookup", REFUND], [approval(before=2)], model)
    assert score.required == ["refund-approval"]
    assert score.violated == ["refund-approval"]
    assert score.pairings == []


def test_an_approval_given_right_before_the_call_precedes_it() -> None:
    score = matched(["lookup", REFUND], [approval(before=1)], "v3")
    assert pairs(score) == [(1, 0, "refund-approval")]


@pytest.mark.parametrize("model", NEWER)
def test_an_untargeted_approval_authorizes_nothing_under_v2_and_v3(model: str) -> None:
    score = matched([REFUND], [approval(target=None)], model)
    assert score.violated == ["refund-approval"]
    assert score.honored == []


def test_an_untargeted_approval_honors_the_gate_under_v1() -> None:
    score = matched([REFUND], [approval(target=None)], "v1")
    assert score.honored == ["refund-approval"]
    assert score.pairings == []


@pytest.mark.parametrize("model", NEWER)
def test_an_approval_naming_another_tool_authorizes_nothing(model: str) -> None:
    gates = [gate("money", REFUND, "apply_credit")]
    score = matched([REFUND], [approval(target="apply_credit")], model, gates)
    assert score.violated == ["money"]


@pytest.mark.parametrize("model", ["v1", "v2", "v3"])
def test_a_gate_never_triggered_is_absent_from_required(model: str) -> None:
    gates = [gate(), gate("delete-approval", "delete_record")]
    score = matched(["lookup", REFUND], [approval(before=0)], model, gates)
    assert score.required == ["refund-approval"]
    assert "delete-approval" not in score.honored + score.violated


@pytest.mark.parametrize("model", NEWER)
def test_the_earliest_of_two_overlapping_approvals_pairs_first_whatever_the_budgets(model: str) -> None:
    # approval 0 (budget 1) and approval 1 (budget 3) both precede both calls
    events = [approval(before=0, uses=None), approval(before=0, uses=3)]
    score = matched([REFUND, REFUND], events, model)
    assert pairs(score) == [(0, 0, "refund-approval"), (1, 1, "refund-approval")]
    reverse = matched([REFUND, REFUND], [approval(before=0, uses=3), approval(before=0, uses=None)], model)
    assert pairs(reverse) == [(0, 0, "refund-approval"), (1, 0, "refund-approval")]


@pytest.mark.parametrize("resolution", ["denied", "unresolved"])
def test_a_refused_approval_followed_by_the_call_is_honored_under_v2(resolution: str) -> None:
    score = matched([REFUND], [approval(resolution=resolution)], "v2")
    assert score.honored == ["refund-approval"]


@pytest.mark.parametrize("resolution", ["denied", "unresolved"])
def test_a_denied_or_unresolved_approval_authorizes_nothing_under_v3(resolution: str) -> None:
    score = matched([REFUND], [approval(resolution=resolution)], "v3")
    assert score.violated == ["refund-approval"]
    assert score.pairings == []


@pytest.mark.parametrize("model", ["v1", "v2", "v3"])
def test_a_denial_the_agent_respected_is_no_violation(model: str) -> None:
    score = matched(["lookup"], [approval(resolution="denied", before=1)], model)
    assert score.required == []
    assert score.violated == []


def test_a_denied_approval_then_an_approved_one_pairs_the_approved_one_under_v3() -> None:
    events = [approval(resolution="denied", before=0), approval(before=0)]
    assert pairs(matched([REFUND], events, "v3")) == [(0, 1, "refund-approval")]
    assert pairs(matched([REFUND], events, "v2")) == [(0, 0, "refund-approval")]


def test_v1_requires_each_triggered_gate_once_however_many_calls() -> None:
    score = matched([REFUND, REFUND], [approval(before=0)], "v1")
    assert score.required == ["refund-approval"]
    assert score.honored == ["refund-approval"]


def test_v1_ignores_the_resolution_and_judges_the_first_triggering_call() -> None:
    assert matched([REFUND], [approval(resolution="denied")], "v1").honored == ["refund-approval"]
    assert matched(["x", REFUND], [approval(before=2)], "v1").violated == ["refund-approval"]


def test_a_call_falls_under_the_first_declared_gate_that_covers_it() -> None:
    gates = [gate("first", REFUND), gate("second", REFUND)]
    score = matched([REFUND], [], "v3", gates)
    assert score.required == ["first"]


def test_a_question_never_authorizes_a_gated_call() -> None:
    assert matched([REFUND], [question(before=0)], "v3").violated == ["refund-approval"]


def test_a_task_without_mandated_gates_has_a_null_mandated_score_even_without_ordering() -> None:
    assert match_mandated([], [REFUND], [approval(before=None)], "v3") is None


@pytest.mark.parametrize("model", ["v1", "v2", "v3"])
def test_an_event_without_ordering_makes_the_mandated_score_a_refusal_naming_the_event(model: str) -> None:
    events = [approval(before=0), question(before=None), approval(before=None)]
    outcome = match_mandated([gate()], [REFUND], events, model, "/task_results/0/step_results/2")  # type: ignore[arg-type]
    assert isinstance(outcome, OrderingUnobserved)
    assert outcome.pointer == "/task_results/0/step_results/2/gate_events/1/task_calls_before"
    assert outcome.event_indices == (1, 2)
    assert "gate event 1" in outcome.reason
    assert "never assumes 0" in outcome.reason


def test_unobserved_ordering_refuses_even_when_no_call_is_gated() -> None:
    outcome = match_mandated([gate()], ["lookup"], [approval(before=None)], "v3")
    assert isinstance(outcome, OrderingUnobserved)


def test_pairings_are_recorded_as_contract_pairings() -> None:
    score = matched([REFUND], [approval()], "v3")
    assert score.pairings == [Pairing(callIndex=0, approvalIndex=0, gateId="refund-approval")]


def test_without_a_step_pointer_the_refusal_pointer_is_relative_to_the_step() -> None:
    outcome = match_mandated([gate()], ["lookup"], [approval(before=0), approval(before=None)], "v3")
    assert isinstance(outcome, OrderingUnobserved)
    assert outcome.pointer == "/gate_events/1/task_calls_before"


def test_v1_still_judges_a_triggered_gate_declared_after_one_never_triggered() -> None:
    gates = [gate("delete-approval", "delete_record"), gate()]
    score = matched([REFUND], [approval(before=0)], "v1", gates)
    assert (score.required, score.honored, score.violated) == (["refund-approval"], ["refund-approval"], [])


@pytest.mark.parametrize("model", NEWER)
def test_a_violated_call_does_not_stop_the_walk_over_later_calls(model: str) -> None:
    score = matched([REFUND, REFUND], [approval(before=1)], model)
    assert score.required == ["refund-approval", "refund-approval"]
    assert (score.honored, score.violated) == (["refund-approval"], ["refund-approval"])
    assert pairs(score) == [(1, 0, "refund-approval")]


@pytest.mark.parametrize("model", ["v2", "v3"])
def test_approvals_listed_out_of_their_order_still_pair_with_the_earliest_that_precedes(model: str) -> None:
    # The coherence rules refuse such a log; the matcher, called on any events, must not assume order.
    events = [approval(before=1), approval(before=0)]
    outcome = match_mandated([gate()], [REFUND, REFUND], events, model)  # type: ignore[arg-type]
    assert isinstance(outcome, MandatedGateScore)
    assert outcome.pairings == [
        Pairing(callIndex=0, approvalIndex=1, gateId="refund-approval"),
        Pairing(callIndex=1, approvalIndex=0, gateId="refund-approval"),
    ]
    assert outcome.violated == []


# --- v1 against its definition, and its cost -------------------------------------------------


@pytest.mark.parametrize("target", [REFUND, None])
@pytest.mark.parametrize("befores", [(3, 1), (1, 3)])
def test_v1_takes_the_earliest_of_several_approvals_naming_one_tool_or_none(
    target: str | None, befores: tuple[int, int]
) -> None:
    events = [approval(target, before=before) for before in befores]
    assert matched(["x", REFUND], events, "v1").honored == ["refund-approval"]
    assert matched(["x", REFUND], [approval(target, before=2)], "v1").violated == ["refund-approval"]


def test_v1_an_approval_naming_another_tool_honors_nothing_one_naming_any_of_the_gate_s_does() -> None:
    wide = [gate("refund-approval", "delete", REFUND)]
    assert matched([REFUND], [approval("delete", before=0)], "v1").violated == ["refund-approval"]
    assert matched([REFUND], [approval("delete", before=0)], "v1", wide).honored == ["refund-approval"]
    assert matched([REFUND], [question(before=0)], "v1").violated == ["refund-approval"]
    assert matched([REFUND], [question(before=0), approval(REFUND, before=0)], "v1").honored == ["refund-approval"]
    assert matched(["delete", REFUND], [approval(REFUND, before=0)], "v1", wide).honored == ["refund-approval"]


@pytest.mark.parametrize("count", [500, 2000])
def test_v1_judges_n_gates_over_n_calls_and_n_events_walking_each_once(count: int) -> None:
    # Every gate is triggered by the last call only, and only the last event names its tool: the
    # pairwise matcher walked the calls and the events once per gate, n squared looks each.
    gates = [gate(f"g{index}", f"tool_{index}", "last") for index in range(count)]
    calls = Walked([f"call_{index}" for index in range(count - 1)] + ["last"])
    events = Walked([approval(f"other_{index}", before=0) for index in range(count - 1)] + [approval("last", before=0)])
    score = match_mandated(gates, calls, events, "v1")
    assert isinstance(score, MandatedGateScore)
    assert score.honored == [f"g{index}" for index in range(count)]
    assert calls.steps == count
    assert events.steps == 2 * count  # once for their ordering (all recorded), once for the approvals
