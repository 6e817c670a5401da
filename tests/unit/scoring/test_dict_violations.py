"""The dict scorer finds the violations, the steps holding a gate and the refused steps' bounds the models
find (``dict_agreement.agrees``), on runs built to reach each of its own paths."""

from __future__ import annotations

from typing import Any

from evalscore.inputs.documents import Document
from evalscore.scoring import partials
from evalscore.scoring.checked_runs import RunScorer
from evalscore.scoring.signals import SignalParams

from .builders import (
    REFUND,
    approval,
    blocker,
    checked_suites,
    gate,
    question,
    review,
    run_doc,
    step_def,
    step_result,
    suite,
    task_def,
)
from .dict_agreement import agrees

SUITE = suite(
    task_def(
        "t",
        [
            step_def(1, expected=[REFUND], blockers=[blocker("b-blank", " "), blocker("b-order", "the order")]),
            step_def(2),
        ],
        gates=[gate()],
    ),
)


def partial_of(doc: dict[str, Any], model: str = "v3") -> partials.Partial:
    """The dict path's partial for ``doc`` (asserting that the models give the same)."""
    assert agrees(doc, [SUITE], model) is True  # type: ignore[arg-type]
    scorer = RunScorer(checked_suites([SUITE]), model, SignalParams(), 3)  # type: ignore[arg-type]
    outcome = scorer(Document("run.json", None, doc)).run
    assert outcome is not None
    assert isinstance(outcome.outcome, partials.Partial)
    return outcome.outcome


def test_reviews_of_steps_in_a_run_of_an_unknown_suite_or_task_are_listed_where_they_are() -> None:
    reviewed = step_result(1, score=review(1, golden=0, pre_filled=True))
    unknown_suite = run_doc({"t": [step_result(1, score=None)], "x": [reviewed]}, model="v3", version="9")
    found = [(item.code, item.task_id, item.step_pointer) for item in partial_of(unknown_suite).violations]
    assert found == [
        ("golden-truth-below-pass", "x", "/task_results/1/step_results/0"),
        ("review-prefilled", "x", "/task_results/1/step_results/0"),
    ]
    second = step_result(2, score=review(2, golden=0, pre_filled=True))
    unknown_task = run_doc({"t": [step_result(2, score=None)], "x": [step_result(1, score=None), second]}, model="v3")
    found = [(item.code, item.task_id, item.step_pointer) for item in partial_of(unknown_task).violations]
    assert found == [
        ("golden-truth-below-pass", "x", "/task_results/1/step_results/1"),
        ("review-prefilled", "x", "/task_results/1/step_results/1"),
    ]


def test_a_review_left_to_its_defaults_is_no_llm_draft() -> None:
    left_out = review(1)
    del left_out["pre_filled"]
    doc = run_doc({"t": [step_result(1, [REFUND], events=[approval(before=0)], score=left_out)]}, model="v3")
    assert [item.code for item in partial_of(doc).violations] == ["blocker-not-addressed", "blocker-not-addressed"]


def test_a_refused_step_s_questions_are_what_it_could_add_to_ask_precision() -> None:
    events = [question("b-order", "which?", before=0), question("x", "?", before=0), approval(before=None)]
    doc = run_doc({"t": [step_result(1, [REFUND, REFUND], events=events)]}, model="v3")
    aggregate = partial_of(doc).aggregate
    assert (aggregate.refused_gated_calls, aggregate.refused_questions, aggregate.refused_blockers) == (2, 2, 2)
    assert (aggregate.refused_distraction, aggregate.refused_unbounded, aggregate.refused_steps) == (0, 0, 1)


def test_questions_and_blockers_are_matched_as_each_model_reads_a_blank_description() -> None:
    asked = [question("x", "is that ok?", before=0), question("y", "what is the order?", before=0)]
    doc = run_doc({"t": [step_result(1, [REFUND], events=[*asked, approval(before=0)])]}, model="v3")
    v3 = [(item.code, item.event_index, item.gate_id) for item in partial_of(doc, "v3").violations]
    assert v3 == [("question-unmatched", 0, None), ("blocker-not-addressed", None, "b-blank")]
    doc["scoring_model"] = "v2"
    assert partial_of(doc, "v2").violations == ()  # under v2 a blank description is in every question with a space
    spaceless = [question("x", "is that ok?", before=0), question("y", "ok?", before=0)]
    doc = run_doc({"t": [step_result(1, [REFUND], events=[*spaceless, approval(before=0)])]}, model="v2")
    v2 = [(item.code, item.event_index, item.gate_id) for item in partial_of(doc, "v2").violations]
    assert v2 == [("question-unmatched", 1, None), ("blocker-not-addressed", None, "b-order")]


def test_a_question_in_a_step_without_blockers_is_unprompted() -> None:
    doc = run_doc(
        {"t": [step_result(1, [REFUND], events=[approval(before=0)]), step_result(2, events=[question()])]}, model="v3"
    )
    found = [
        (item.code, item.step_n, item.event_index)
        for item in partial_of(doc).violations
        if item.rate.startswith("discretionary_ask")
    ]
    assert found == [("question-unprompted", 2, 0)]
