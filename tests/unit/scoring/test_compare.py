"""Recorded auto scores against the re-derivation under the run's recorded scoring model."""

from __future__ import annotations

import pytest

from evalscore.models import AutoScore
from evalscore.scoring.compare import compare_step

from .builders import place


def auto(**fields: object) -> AutoScore:
    return AutoScore.model_validate({"tool_match": True, "distraction_caught": None, **fields})


MANDATED_HONORED = {"required": ["g"], "honored": ["g"], "violated": [], "pairings": []}
MANDATED_VIOLATED = {"required": ["g"], "honored": [], "violated": ["g"], "pairings": []}


def test_a_record_claiming_honored_where_the_evidence_says_violated_is_listed() -> None:
    recorded = auto(gates={"mandated": MANDATED_HONORED, "discretionary": None})
    rederived = auto(gates={"mandated": MANDATED_VIOLATED, "discretionary": None})
    found = compare_step(recorded, rederived, "v2", place())
    assert [(d.field, d.recorded, d.rederived) for d in found] == [
        ("gates.mandated.honored", ["g"], []),
        ("gates.mandated.violated", [], ["g"]),
    ]
    assert found[0].pointer == "/task_results/0/step_results/0/auto_score/gates/mandated/honored"
    assert found[0].scoring_model == "v2"
    assert found[0].source == "run.json"


def test_a_recorded_null_auto_score_is_unscored_not_a_disagreement() -> None:
    assert compare_step(None, auto(tool_match=False), "v3", place()) == []


def test_agreeing_scores_give_no_disagreement() -> None:
    assert compare_step(auto(), auto(), "v1", place()) == []


def test_a_recorded_null_distraction_acted_is_not_a_claim_older_producers_never_wrote_it() -> None:
    assert compare_step(auto(), auto(distraction_acted=True), "v1", place()) == []


def test_a_recorded_distraction_acted_is_compared() -> None:
    found = compare_step(auto(distraction_acted=False), auto(distraction_acted=True), "v1", place())
    assert [(d.field, d.recorded, d.rederived) for d in found] == [("distraction_acted", False, True)]


def test_left_out_gates_read_as_their_default_and_are_compared_like_explicit_nulls() -> None:
    rederived = auto(gates={"mandated": MANDATED_VIOLATED, "discretionary": None})
    left_out = compare_step(auto(), rederived, "v1", place())
    spelled = compare_step(auto(gates={"mandated": None, "discretionary": None}), rederived, "v1", place())
    assert [(d.field, d.recorded) for d in left_out] == [("gates.mandated", None)]
    assert [(d.field, d.recorded) for d in spelled] == [("gates.mandated", None)]


def test_a_recorded_null_mandated_score_against_a_derived_one_is_a_disagreement() -> None:
    recorded = auto(gates={"mandated": None, "discretionary": None})
    rederived = auto(gates={"mandated": MANDATED_VIOLATED, "discretionary": None})
    found = compare_step(recorded, rederived, "v3", place())
    assert len(found) == 1
    assert (found[0].field, found[0].recorded) == ("gates.mandated", None)


def test_tool_match_and_distraction_disagreements_are_listed_with_both_values() -> None:
    found = compare_step(
        auto(distraction_caught=True), auto(tool_match="partial", distraction_caught=False), "v1", place()
    )
    assert [(d.field, d.recorded, d.rederived) for d in found] == [
        ("tool_match", True, "partial"),
        ("distraction_caught", True, False),
    ]


def test_pairings_are_compared_as_a_set_when_recorded() -> None:
    one = {**MANDATED_HONORED, "pairings": [{"callIndex": 0, "approvalIndex": 0, "gateId": "g"}]}
    other = {**MANDATED_HONORED, "pairings": [{"callIndex": 0, "approvalIndex": 1, "gateId": "g"}]}
    found = compare_step(
        auto(gates={"mandated": one, "discretionary": None}),
        auto(gates={"mandated": other, "discretionary": None}),
        "v2",
        place(),
    )
    assert [d.field for d in found] == ["gates.mandated.pairings"]


def test_recorded_pairings_left_out_read_as_none_and_disagree_with_derived_ones() -> None:
    recorded_mandated = {"required": ["g"], "honored": ["g"], "violated": []}
    rederived_mandated = {**MANDATED_HONORED, "pairings": [{"callIndex": 0, "approvalIndex": 0, "gateId": "g"}]}
    found = compare_step(
        auto(gates={"mandated": recorded_mandated, "discretionary": None}),
        auto(gates={"mandated": rederived_mandated, "discretionary": None}),
        "v2",
        place(),
    )
    assert [(d.field, d.recorded) for d in found] == [("gates.mandated.pairings", [])]


def test_discretionary_counts_are_compared_field_by_field() -> None:
    recorded = auto(
        gates={
            "mandated": None,
            "discretionary": {"blockers": 1, "asked": 2, "matched": 2, "unprompted": 0, "addressed": 2},
        }
    )
    rederived = auto(
        gates={
            "mandated": None,
            "discretionary": {"blockers": 1, "asked": 2, "matched": 1, "unprompted": 0, "addressed": 1},
        }
    )
    found = compare_step(recorded, rederived, "v3", place())
    assert [(d.field, d.recorded, d.rederived) for d in found] == [
        ("gates.discretionary.matched", 2.0, 1.0),
        ("gates.discretionary.addressed", 2.0, 1.0),
    ]


DISCRETIONARY = {"blockers": 1, "asked": 1, "matched": 1, "unprompted": 0, "addressed": 1}
BASE = "/task_results/0/step_results/0/auto_score"


def listed(found):  # type: ignore[no-untyped-def]
    return [(d.field, d.recorded, d.rederived, d.pointer) for d in found]


def test_a_recorded_mandated_score_where_the_task_has_no_mandated_gates_is_listed_with_both_values() -> None:
    recorded = auto(gates={"mandated": MANDATED_HONORED, "discretionary": None})
    found = compare_step(recorded, auto(), "v2", place())
    assert listed(found) == [("gates.mandated", MANDATED_HONORED, None, f"{BASE}/gates/mandated")]


def test_a_derived_mandated_score_where_the_record_has_none_is_listed_with_the_derived_value() -> None:
    rederived = auto(gates={"mandated": MANDATED_VIOLATED, "discretionary": None})
    found = compare_step(auto(), rederived, "v2", place())
    assert listed(found) == [("gates.mandated", None, MANDATED_VIOLATED, f"{BASE}/gates/mandated")]


def test_a_recorded_discretionary_score_where_the_evidence_has_none_is_listed_with_both_values() -> None:
    recorded = auto(gates={"mandated": None, "discretionary": DISCRETIONARY})
    found = compare_step(recorded, auto(), "v3", place())
    assert listed(found) == [("gates.discretionary", DISCRETIONARY, None, f"{BASE}/gates/discretionary")]


def test_a_derived_discretionary_score_where_the_record_has_none_is_listed_with_the_derived_value() -> None:
    rederived = auto(gates={"mandated": None, "discretionary": DISCRETIONARY})
    found = compare_step(auto(), rederived, "v3", place())
    assert listed(found) == [("gates.discretionary", None, DISCRETIONARY, f"{BASE}/gates/discretionary")]


def test_differing_pairings_are_listed_with_both_pairing_lists() -> None:
    one = [{"callIndex": 0, "approvalIndex": 0, "gateId": "g"}]
    other = [{"callIndex": 0, "approvalIndex": 1, "gateId": "g"}]
    found = compare_step(
        auto(gates={"mandated": {**MANDATED_HONORED, "pairings": one}, "discretionary": None}),
        auto(gates={"mandated": {**MANDATED_HONORED, "pairings": other}, "discretionary": None}),
        "v2",
        place(),
    )
    assert listed(found) == [("gates.mandated.pairings", one, other, f"{BASE}/gates/mandated/pairings")]


def test_addressed_is_not_compared_when_the_record_does_not_carry_it() -> None:
    without = {key: value for key, value in DISCRETIONARY.items() if key != "addressed"}
    recorded = auto(gates={"mandated": None, "discretionary": without})
    rederived = auto(gates={"mandated": None, "discretionary": {**DISCRETIONARY, "addressed": 0}})
    assert compare_step(recorded, rederived, "v3", place()) == []


def test_addressed_is_not_compared_when_the_rederivation_does_not_carry_it() -> None:
    without = {key: value for key, value in DISCRETIONARY.items() if key != "addressed"}
    recorded = auto(gates={"mandated": None, "discretionary": DISCRETIONARY})
    rederived = auto(gates={"mandated": None, "discretionary": without})
    assert compare_step(recorded, rederived, "v2", place()) == []


@pytest.mark.parametrize("name", ["blockers", "asked", "matched", "unprompted", "addressed"])
def test_each_discretionary_count_that_differs_alone_is_listed_with_both_values_and_its_pointer(name: str) -> None:
    changed = {**DISCRETIONARY, name: DISCRETIONARY[name] + 1}
    recorded = auto(gates={"mandated": None, "discretionary": changed})
    rederived = auto(gates={"mandated": None, "discretionary": DISCRETIONARY})
    found = compare_step(recorded, rederived, "v3", place())
    field = f"gates.discretionary.{name}"
    assert listed(found) == [(field, changed[name], DISCRETIONARY[name], f"{BASE}/gates/discretionary/{name}")]


def test_a_record_claiming_no_unprompted_question_where_every_question_was_unprompted_is_listed() -> None:
    # No blockers and two questions: both were unprompted, whatever the record says.
    evidence = {"blockers": 0, "asked": 2, "matched": 0, "unprompted": 2}
    recorded = auto(gates={"mandated": None, "discretionary": {**evidence, "unprompted": 0}})
    rederived = auto(gates={"mandated": None, "discretionary": evidence})
    found = compare_step(recorded, rederived, "v2", place())
    assert [(d.field, d.recorded, d.rederived) for d in found] == [("gates.discretionary.unprompted", 0.0, 2.0)]


def test_gate_lists_in_another_order_are_the_same_multiset_and_agree() -> None:
    recorded = {"required": ["a", "b", "a"], "honored": ["b", "a"], "violated": ["a"], "pairings": []}
    rederived = {"required": ["a", "a", "b"], "honored": ["a", "b"], "violated": ["a"], "pairings": []}
    gates = {"discretionary": None}
    found = compare_step(
        auto(gates={**gates, "mandated": recorded}), auto(gates={**gates, "mandated": rederived}), "v2", place()
    )
    assert found == []


def test_gate_lists_of_other_counts_disagree_whatever_their_order() -> None:
    recorded = {"required": ["a", "b"], "honored": ["b", "a"], "violated": [], "pairings": []}
    rederived = {"required": ["b", "a"], "honored": ["a", "a"], "violated": [], "pairings": []}
    gates = {"discretionary": None}
    found = compare_step(
        auto(gates={**gates, "mandated": recorded}), auto(gates={**gates, "mandated": rederived}), "v2", place()
    )
    assert [(d.field, d.recorded, d.rederived) for d in found] == [("gates.mandated.honored", ["b", "a"], ["a", "a"])]
