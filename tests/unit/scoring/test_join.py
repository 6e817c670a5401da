"""Joining runs to suites: unknown suite, task or step is a refusal with the exact place."""

from __future__ import annotations

from evalscore.scoring.join import JoinedStep, index_suites, join_run
from evalscore.scoring.refusal import Refusal

from .builders import run, step_def, step_result, suite, task_def


def joined(run_model, *suites):  # type: ignore[no-untyped-def]
    return list(join_run(run_model, "runs/a.json", index_suites(list(suites))))


def test_a_run_joins_its_suite_by_id_and_version() -> None:
    items = joined(run({"t1": [step_result(1)]}), suite())
    assert len(items) == 1
    assert isinstance(items[0], JoinedStep)
    assert items[0].place.pointer == "/task_results/0/step_results/0"
    assert items[0].step.n == 1


def test_a_suite_version_mismatch_is_a_refusal_naming_the_version() -> None:
    items = joined(run({"t1": [step_result(1)]}, version="2.0.0"), suite())
    assert len(items) == 1
    refusal = items[0]
    assert isinstance(refusal, Refusal)
    assert (refusal.code, refusal.pointer, refusal.source, refusal.steps) == (
        "suite-unknown",
        "/suite_version",
        "runs/a.json",
        1,
    )
    assert "1.0.0" in refusal.reason


def test_an_unknown_suite_id_is_a_refusal_naming_the_id() -> None:
    items = joined(run({"t1": [step_result(1), step_result(2)]}, suite_id="other"), suite())
    assert len(items) == 1
    assert isinstance(items[0], Refusal)
    assert (items[0].pointer, items[0].steps) == ("/suite_id", 2)


def test_an_unknown_task_is_a_refusal_for_its_steps_only() -> None:
    items = joined(run({"t1": [step_result(1)], "ghost": [step_result(1), step_result(2)]}), suite())
    assert len(items) == 2
    refusal = items[1]
    assert isinstance(refusal, Refusal)
    assert (refusal.code, refusal.pointer, refusal.steps, refusal.task_id) == (
        "task-unknown",
        "/task_results/1/task_id",
        2,
        "ghost",
    )


def test_an_unknown_step_number_is_a_refusal_naming_the_step() -> None:
    items = joined(run({"t1": [step_result(1), step_result(7)]}), suite(task_def(steps=[step_def(1)])))
    assert len(items) == 2
    refusal = items[1]
    assert isinstance(refusal, Refusal)
    assert (refusal.code, refusal.pointer, refusal.step_n) == (
        "step-unknown",
        "/task_results/0/step_results/1/step_n",
        7,
    )


def test_two_different_suites_with_one_id_and_version_are_never_chosen_between() -> None:
    first = suite(task_def("t1"))
    second = suite(task_def("t2"))
    items = joined(run({"t1": [step_result(1)]}), first, second)
    assert len(items) == 1
    assert isinstance(items[0], Refusal)
    assert items[0].code == "suite-ambiguous"


def test_the_same_suite_given_twice_is_not_ambiguous() -> None:
    items = joined(run({"t1": [step_result(1)]}), suite(), suite())
    assert len(items) == 1
    assert isinstance(items[0], JoinedStep)
