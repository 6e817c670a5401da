"""A run met twice is refused, never counted twice: repetition cannot move a rate."""

from __future__ import annotations

from evalscore.scoring import SourcedRun, Thresholds, score
from evalscore.scoring.engine import RepeatedRuns

from .builders import REFUND, approval, gate, run, step_def, step_result, suite, task_def

SUITE = suite(task_def("t1", [step_def(1, expected=[REFUND])], gates=[gate()]))
HONORED = run({"t1": [step_result(1, [REFUND], events=[approval(before=0)])]}, run_id="good")
VIOLATED = run({"t1": [step_result(1, [REFUND])]}, run_id="bad")


def test_a_run_repeated_twenty_times_is_counted_once_and_the_repeats_are_refused() -> None:
    runs = [SourcedRun("log.jsonl:1", VIOLATED)] + [SourcedRun(f"log.jsonl:{n}", HONORED) for n in range(2, 22)]
    report = score(runs, [SUITE], thresholds=Thresholds(min_mandated_compliance=0.4))
    assert report.counts.mandated_compliance_rate.denominator == 2
    assert report.rates.mandated_compliance_rate == 0.5
    assert len(report.refusals) == 19
    assert {refusal.code for refusal in report.refusals} == {"run-repeated"}
    first = report.refusals[0]
    assert (first.source, first.pointer, first.run_id, first.steps) == ("log.jsonl:3", "/run_id", "good", 1)
    assert "log.jsonl:2" in first.reason
    assert report.counts.refused_steps == 19
    assert report.decision.outcome == "refused"


def test_the_same_file_given_twice_is_refused_the_second_time() -> None:
    report = score([SourcedRun("a.json", HONORED), SourcedRun("a.json", HONORED)], [SUITE])
    assert [refusal.code for refusal in report.refusals] == ["run-repeated"]
    assert report.signals.approvals == 1


def test_distinct_runs_are_all_counted() -> None:
    report = score([SourcedRun("a.json", HONORED), SourcedRun("b.json", VIOLATED)], [SUITE])
    assert report.refusals == []
    assert report.counts.mandated_compliance_rate.denominator == 2
    assert report.decision.outcome == "pass"


def test_a_repeated_run_refuses_every_one_of_its_steps() -> None:
    two_steps = run({"t1": [step_result(1, [REFUND], events=[approval(before=0)]), step_result(2)]}, run_id="two")
    two_step_suite = suite(task_def("t1", [step_def(1, expected=[REFUND]), step_def(2)], gates=[gate()]))
    report = score([SourcedRun("a.json", two_steps), SourcedRun("b.json", two_steps)], [two_step_suite])
    (refusal,) = report.refusals
    assert (refusal.code, refusal.steps) == ("run-repeated", 2)
    assert report.counts.refused_steps == 2


def test_a_run_known_only_by_its_id_source_and_steps_is_refused_as_the_same_run() -> None:
    repeated = RepeatedRuns()
    assert repeated.refusal(SourcedRun("a.json", HONORED)) is None
    assert repeated.refusal_of("bad", "log.jsonl:1", 3) is None
    part = repeated.refusal_of("good", "log.jsonl:2", 7)
    assert part is not None
    (refusal,) = part.refusals
    assert (refusal.code, refusal.source, refusal.run_id, refusal.steps) == ("run-repeated", "log.jsonl:2", "good", 7)
    assert "'good' was already read from a.json" in refusal.reason
    assert part.aggregate.refused_steps == 7
    again = repeated.refusal(SourcedRun("b.json", VIOLATED))
    assert again is not None
    assert "log.jsonl:1" in again.refusals[0].reason
