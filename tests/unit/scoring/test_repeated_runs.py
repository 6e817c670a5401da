"""A run met twice is refused, never counted twice: repetition cannot move a rate."""

from __future__ import annotations

from evalscore.scoring import SourcedRun, Thresholds, score
from evalscore.scoring.repeated_runs import RUN_ID_DIGEST_BYTES, RepeatedRuns, run_id_digest

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
    assert report.counts.runs == 2
    assert report.decision.outcome == "not-gated"


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


def test_run_ids_are_remembered_by_a_fixed_size_digest_not_whole() -> None:
    repeated = RepeatedRuns()
    long_ids = [f"{index}-" + "x" * 100_000 for index in range(50)]
    assert [repeated.refusal_of(run_id, f"log.jsonl:{n}", 1) for n, run_id in enumerate(long_ids)] == [None] * 50
    kept = repeated._latest
    assert len(kept) == 50
    assert {len(key) for key in kept} == {RUN_ID_DIGEST_BYTES}
    again = repeated.refusal_of(long_ids[7], "log.jsonl:99", 1)
    assert again is not None
    assert "was already read from log.jsonl:7" in again.refusals[0].reason


def test_ids_that_differ_only_in_a_lone_surrogate_are_different_runs_and_each_repeat_is_refused() -> None:
    repeated = RepeatedRuns()
    assert repeated.refusal_of("r\ud800", "a:1", 1) is None
    assert repeated.refusal_of("r\ud801", "a:2", 1) is None
    assert repeated.refusal_of("r", "a:3", 1) is None
    assert repeated.refusal_of("r\ud800", "a:4", 1) is not None
    assert repeated.refusal_of("r\ud801", "a:5", 1) is not None


def test_the_digest_tells_every_id_apart_over_many_ids() -> None:
    ids = [f"run-{index}" for index in range(20_000)]
    assert len({run_id_digest(run_id) for run_id in ids}) == 20_000
    assert run_id_digest("a") == run_id_digest("a")
