"""A worker sends a range's consecutive valid runs as one summed score (``ScoredRuns``), and the
parent can still have them one by one, judged again in its own process, when it cannot use the sum."""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from evalscore.findings import Finding
from evalscore.inputs.documents import Document, parse_json
from evalscore.inputs.yaml_loader import load_yaml
from evalscore.models.suite import EvalSuite
from evalscore.running import parallel
from evalscore.scoring import corpus
from evalscore.scoring.checked_runs import CheckedRun, RunScorer
from evalscore.scoring.partials import Partial, sum_partials
from evalscore.scoring.repeated_runs import RepeatedRuns, run_id_digest
from evalscore.scoring.scored_runs import ScoredRuns, fold_runs
from evalscore.scoring.signals import SignalParams
from evalscore.validation.checker import CheckedArtifact

from .builders import PARTNER_ERASURE_CLAIM, checked_suites

ROOT = Path(__file__).resolve().parents[3]
RUN_A, RUN_B = (json.loads(line) for line in (ROOT / "examples" / "partner-log.jsonl").read_text().splitlines())
SUITE = EvalSuite.model_validate(load_yaml((ROOT / "examples" / "partner-suite.yaml").read_bytes()))


def scorer(suites: list[EvalSuite] | None = None) -> RunScorer:
    return RunScorer(checked_suites([SUITE] if suites is None else suites), None, SignalParams(), 3)


def documents(runs: list[Any], source: str = "log.jsonl", first_line: int = 1) -> list[Document]:
    return [parse_json(json.dumps(run).encode(), source, line) for line, run in enumerate(runs, first_line)]


def one_by_one(runs: list[Any], score: RunScorer | None = None) -> list[CheckedRun]:
    return [(score or scorer())(document) for document in documents(runs)]


def steps(run: dict[str, Any]) -> int:
    return sum(len(task["step_results"]) for task in run["task_results"])


def with_id(run: dict[str, Any], run_id: str, **fields: Any) -> dict[str, Any]:
    return {**run, "run_id": run_id, **fields}


def partials(checked_runs: list[CheckedRun]) -> list[Partial]:
    found = [item.run.outcome for item in checked_runs if item.run is not None]
    assert all(isinstance(part, Partial) for part in found)
    return found  # type: ignore[return-value]  # asserted above


CLAIM = PARTNER_ERASURE_CLAIM
RUNS = [with_id(RUN_A, "a"), with_id(RUN_B, "b"), {"task_results": 1}, with_id(RUN_A, "c"), with_id(RUN_B, "d")]


def test_each_stretch_of_valid_runs_is_one_sum_equal_to_their_partials_summed() -> None:
    sent = fold_runs(scorer(), documents(RUNS))
    assert [type(item).__name__ for item in sent] == ["ScoredRuns", "CheckedRun", "ScoredRuns"]
    first, invalid, second = sent
    assert isinstance(first, ScoredRuns)
    assert isinstance(second, ScoredRuns)
    assert isinstance(invalid, CheckedRun)
    assert (first.first, first.count, second.first, second.count) == (0, 2, 3, 2)
    assert (first.exact, second.exact) == (True, True)
    assert invalid == one_by_one(RUNS)[2]
    alone = one_by_one(RUNS)
    assert len(partials(alone)) == 4
    assert first.partial == sum_partials(partials(alone[:2]))
    assert second.partial == sum_partials(partials(alone[3:]))
    assert first.partial.aggregate.total_steps == steps(RUN_A) + steps(RUN_B) > 2
    assert first.runs == (
        (run_id_digest("a"), "log.jsonl:1", steps(RUN_A)),
        (run_id_digest("b"), "log.jsonl:2", steps(RUN_B)),
    )
    assert (first.source, first.kinds) == ("log.jsonl", frozenset({"run"}))


def test_runs_scored_from_their_model_are_summed_too_and_in_order_with_the_others() -> None:
    replayed = copy.deepcopy(with_id(RUN_A, "v2", scoring_model="v2"))  # its recorded score needs the v2 replay
    replayed["task_results"][1]["step_results"][0]["auto_score"] = CLAIM
    runs = [with_id(RUN_A, "a"), replayed, with_id(RUN_A, "c")]
    score = scorer()
    assert [score.takes_dict(document) for document in documents(runs)] == [True, False, True]
    (sent,) = fold_runs(score, documents(runs))
    assert isinstance(sent, ScoredRuns)
    assert sent.count == 3
    assert sent.partial == sum_partials(partials(one_by_one(runs)))
    without_suite = RunScorer(None, None, SignalParams(), 3)
    (recorded,) = fold_runs(without_suite, documents(runs))
    assert isinstance(recorded, ScoredRuns)
    assert recorded.partial == sum_partials(partials(one_by_one(runs, without_suite)))


def test_a_bug_on_a_run_ends_its_stretch_as_not_to_be_used_and_is_sent_as_that_run_s_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = RunScorer.score_dict

    def score_dict(scorer: RunScorer, scoring: Any, run: Any, source: str) -> None:
        real(scorer, scoring, run, source)  # the run is in the sum when the bug strikes
        if run["run_id"] == "d":
            raise ZeroDivisionError("a bug planted by the test")

    monkeypatch.setattr(RunScorer, "score_dict", score_dict)
    sent = fold_runs(scorer(), documents([*RUNS, with_id(RUN_A, "e")]))
    assert [type(item).__name__ for item in sent] == [
        "ScoredRuns",
        "CheckedRun",
        "ScoredRuns",
        "CheckedRun",
        "ScoredRuns",
    ]
    kept, broken, after = sent[2], sent[3], sent[4]
    assert isinstance(kept, ScoredRuns)
    assert isinstance(after, ScoredRuns)
    assert isinstance(broken, CheckedRun)
    assert (kept.count, kept.exact, after.count, after.exact) == (1, False, 1, True)
    assert broken.run is not None
    assert isinstance(broken.run.outcome, Finding)
    assert "ZeroDivisionError: a bug planted by the test" in broken.run.outcome.message
    assert (broken.run.source, broken.run.run_id) == ("log.jsonl:5", "d")


def test_a_bug_on_the_first_run_of_a_stretch_sends_no_empty_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    real = RunScorer.score_dict

    def score_dict(scorer: RunScorer, scoring: Any, run: Any, source: str) -> None:
        real(scorer, scoring, run, source)
        if run["run_id"] == "c":
            raise ZeroDivisionError("a bug planted by the test")

    monkeypatch.setattr(RunScorer, "score_dict", score_dict)
    sent = fold_runs(scorer(), documents(RUNS))
    assert [type(item).__name__ for item in sent] == ["ScoredRuns", "CheckedRun", "CheckedRun", "ScoredRuns"]
    assert [(item.first, item.count, item.exact) for item in sent if isinstance(item, ScoredRuns)] == [
        (0, 2, True),
        (4, 1, True),
    ]


def test_runs_of_two_files_are_never_summed_together() -> None:
    both = documents([with_id(RUN_A, "a")], "one.jsonl") + documents([with_id(RUN_B, "b")], "two.jsonl", 2)
    sent = fold_runs(scorer(), both)
    assert [(item.source, item.first, item.count) for item in sent if isinstance(item, ScoredRuns)] == [
        ("one.jsonl", 0, 1),
        ("two.jsonl", 1, 1),
    ]
    assert len(sent) == 2


def test_a_stopped_scorer_sums_nothing() -> None:
    score = scorer()
    score.stop()
    sent = fold_runs(score, documents(RUNS))
    assert [type(item).__name__ for item in sent] == ["CheckedRun"] * 5
    assert all(item.run is None for item in sent if isinstance(item, CheckedRun))


def test_a_fold_crosses_between_processes_without_the_parent_s_binding() -> None:
    (scored,) = fold_runs(scorer(), documents(RUNS[:2]))
    scored.bind(lambda: [])
    back = pickle.loads(pickle.dumps(scored))
    assert back == scored
    with pytest.raises(AttributeError):
        back.again()


def test_unfolded_gives_the_fold_s_runs_judged_again_one_by_one() -> None:
    runs = [{"task_results": 1}, with_id(RUN_A, "a"), with_id(RUN_B, "b"), {"task_results": 2}]
    (scored,) = [item for item in fold_runs(scorer(), documents(runs)) if isinstance(item, ScoredRuns)]
    again = one_by_one(runs)
    scored.bind(lambda: again)
    assert scored.unfolded() == again[1:3]
    assert len(again[1:3]) == 2


def test_a_file_changed_before_it_is_read_again_gives_the_verdicts_saying_so() -> None:
    (scored,) = fold_runs(scorer(), documents(RUNS[:2]))
    changed = CheckedRun(CheckedArtifact("log.jsonl", None, None, (Finding("input", "ES004", "error", "", "changed"),)))
    scored.bind(lambda: [changed])
    assert scored.unfolded() == [changed]
    shorter = one_by_one(RUNS[:1])
    scored.bind(lambda: shorter)
    assert scored.unfolded() == shorter  # no verdict says why: the runs read again are given as they are


def test_a_task_is_judged_again_at_most_once_whatever_its_folds_ask() -> None:
    if not parallel.can_parallelize(2):
        pytest.skip("no fork: the parallel path is never taken")
    calls: list[int] = []

    def task_runs(task: int) -> list[Any]:
        return [with_id(RUN_A, f"a{task}"), {"task_results": 1}, with_id(RUN_B, f"b{task}")]

    def again(task: int) -> list[Any]:
        calls.append(task)
        return one_by_one(task_runs(task))

    score = scorer()
    sent = list(parallel._judged_in_order(again, lambda task: fold_runs(score, documents(task_runs(task))), [1, 2], 2))
    assert calls == []  # judged and folded by the workers
    folds = [item for item in sent if isinstance(item, ScoredRuns)]
    assert len(folds) == 4
    assert len(sent) == 6
    assert [fold.unfolded()[0].run.run_id for fold in folds] == ["a1", "b1", "a2", "b2"]  # type: ignore[union-attr]
    assert calls == [1, 2]


def test_the_caller_adds_a_sum_not_to_be_used_as_its_runs_judged_again_one_by_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = RunScorer.score_dict

    def score_dict(scorer: RunScorer, scoring: Any, run: Any, source: str) -> None:
        real(scorer, scoring, run, source)
        if run["run_id"] == "b":
            raise ZeroDivisionError("a bug planted by the test")

    runs = [with_id(RUN_A, "a"), with_id(RUN_B, "b")]
    alone = one_by_one(runs[:1])
    with monkeypatch.context() as patch:
        patch.setattr(RunScorer, "score_dict", score_dict)
        tainted, _ = fold_runs(scorer(), documents(runs))
    assert isinstance(tainted, ScoredRuns)
    assert not tainted.exact
    assert tainted.partial != sum_partials(partials(alone))  # it holds part of run b
    tainted.bind(lambda: one_by_one(runs))
    scoring = corpus.CorpusScoring(corpus.InputsRead(), scorer(), RepeatedRuns())
    scoring.add(tainted)
    assert scoring.total.total() == sum_partials(partials(alone))


def test_the_caller_refuses_a_repeated_run_inside_a_sum_and_counts_the_others_once() -> None:
    runs = [with_id(RUN_A, "a"), with_id(RUN_B, "b"), with_id(RUN_A, "a"), with_id(RUN_B, "c")]
    (summed,) = fold_runs(scorer(), documents(runs))
    assert isinstance(summed, ScoredRuns)
    summed.bind(lambda: one_by_one(runs))
    scoring = corpus.CorpusScoring(corpus.InputsRead(), scorer(), RepeatedRuns())
    scoring.add(summed)
    total = scoring.total.total()
    assert [(refusal.code, refusal.source) for refusal in total.refusals] == [("run-repeated", "log.jsonl:3")]
    assert total.aggregate.refused_steps == steps(RUN_A)
    in_one_process = corpus.CorpusScoring(corpus.InputsRead(), scorer(), RepeatedRuns())
    for checked_run in one_by_one(runs):
        in_one_process.add(checked_run)
    assert total == in_one_process.total.total()
