"""Join refusals carry the exact code, reason and place a user reads to fix their inputs."""

from __future__ import annotations

from evalscore.scoring.join import index_suites, join_run
from evalscore.scoring.refusal import Refusal

from .builders import run, step_def, step_result, suite, task_def

SOURCE = "runs/a.json"


def refusals_of(run_model, *suites) -> list[Refusal]:  # type: ignore[no-untyped-def]
    items = list(join_run(run_model, SOURCE, index_suites(list(suites))))
    found = [item for item in items if isinstance(item, Refusal)]
    return found


def test_an_ambiguous_suite_is_refused_with_the_reason_the_version_pointer_and_every_step_of_the_run() -> None:
    two_steps = run({"t1": [step_result(1), step_result(2)]}, run_id="run-7")
    found = refusals_of(two_steps, suite(task_def("t1")), suite(task_def("t2")))
    assert found == [
        Refusal(
            code="suite-ambiguous",
            reason="two different suites named 'suite' version '1.0.0' were given; evalscore will not choose one",
            pointer="/suite_version",
            source=SOURCE,
            run_id="run-7",
            steps=2,
        )
    ]


def test_a_suite_version_mismatch_names_the_versions_given_and_the_run() -> None:
    found = refusals_of(
        run({"t1": [step_result(1)]}, version="3.0.0", run_id="run-7"), suite(version="2.0.0"), suite(version="1.0.0")
    )
    assert found == [
        Refusal(
            code="suite-unknown",
            reason="the run was recorded against suite 'suite' version '3.0.0', but only version(s) "
            "['1.0.0', '2.0.0'] were given",
            pointer="/suite_version",
            source=SOURCE,
            run_id="run-7",
            steps=1,
        )
    ]


def test_an_unknown_suite_id_names_every_suite_given_in_order_and_the_run() -> None:
    found = refusals_of(
        run({"t1": [step_result(1), step_result(2)]}, suite_id="other", run_id="run-7"),
        suite(suite_id="zeta"),
        suite(suite_id="alpha", version="2.0.0"),
    )
    assert found == [
        Refusal(
            code="suite-unknown",
            reason="the run was recorded against suite 'other', which is not among the suites given "
            "['alpha@2.0.0', 'zeta@1.0.0']",
            pointer="/suite_id",
            source=SOURCE,
            run_id="run-7",
            steps=2,
        )
    ]


def test_an_unknown_task_is_refused_with_the_suite_it_is_missing_from_and_its_step_count() -> None:
    found = refusals_of(
        run({"t1": [step_result(1)], "ghost": [step_result(1), step_result(2)]}, run_id="run-7"), suite()
    )
    assert found == [
        Refusal(
            code="task-unknown",
            reason="task 'ghost' is not in suite 'suite' version '1.0.0'",
            pointer="/task_results/1/task_id",
            source=SOURCE,
            run_id="run-7",
            task_id="ghost",
            steps=2,
        )
    ]


def test_an_unknown_step_is_refused_with_the_steps_the_task_does_have() -> None:
    task = task_def("t1", [step_def(1), step_def(2)])
    found = refusals_of(run({"t1": [step_result(1), step_result(7)]}, run_id="run-7"), suite(task))
    assert found == [
        Refusal(
            code="step-unknown",
            reason="step 7 is not a step of task 't1' (its steps are [1, 2])",
            pointer="/task_results/0/step_results/1/step_n",
            source=SOURCE,
            run_id="run-7",
            task_id="t1",
            step_n=7,
            steps=1,
        )
    ]
