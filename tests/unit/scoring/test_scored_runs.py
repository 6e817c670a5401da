"""A worker sends a range's consecutive valid runs as one summed score (``ScoredRuns``), and the
parent can still have them one by one, judged again in its own process, when it cannot use the sum."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from evalscore.findings import Finding
from evalscore.inputs.documents import parse_json
from evalscore.inputs.yaml_loader import load_yaml
from evalscore.models.suite import EvalSuite
from evalscore.scoring.checked_runs import CheckedRun, RunScorer, ScoredRuns
from evalscore.scoring.engine import Partial, run_id_digest, sum_partials
from evalscore.scoring.join import index_suites
from evalscore.scoring.signals import SignalParams
from evalscore.validation import parallel
from evalscore.validation.checker import CheckedArtifact

ROOT = Path(__file__).resolve().parents[3]
RUN_A, RUN_B = (json.loads(line) for line in (ROOT / "examples" / "partner-log.jsonl").read_text().splitlines())
SUITE = EvalSuite.model_validate(load_yaml((ROOT / "examples" / "partner-suite.yaml").read_bytes()))


def scorer() -> RunScorer:
    return RunScorer(index_suites([SUITE]), None, SignalParams(), 3)


def judged(documents: list[Any], source: str = "log.jsonl") -> list[CheckedRun]:
    score = scorer()
    return [
        score(parse_json(json.dumps(document).encode(), source, line)) for line, document in enumerate(documents, 1)
    ]


def steps(run: dict[str, Any]) -> int:
    return sum(len(task["step_results"]) for task in run["task_results"])


def with_id(run: dict[str, Any], run_id: str) -> dict[str, Any]:
    return {**run, "run_id": run_id}


def bug(checked_run: CheckedRun) -> CheckedRun:
    """The run with an internal error in place of its score (what a bug met while scoring it gives)."""
    assert checked_run.run is not None
    finding = Finding("internal", "ES099", "error", "", "a bug", checked_run.run.source)
    run = type(checked_run.run)(checked_run.run.source, checked_run.run.run_id, checked_run.run.steps, finding)
    return CheckedRun(checked_run.checked, run)


def test_each_stretch_of_scored_runs_is_one_sum_and_everything_else_is_sent_as_it_was() -> None:
    items = judged([with_id(RUN_A, "a"), with_id(RUN_B, "b"), {"task_results": 1}, with_id(RUN_A, "c")])
    items += [bug(judged([with_id(RUN_B, "d")])[0]), *judged([with_id(RUN_B, "e")])]
    folded = scorer().fold(list(items))
    assert [type(item).__name__ for item in folded] == [
        "ScoredRuns",
        "CheckedRun",
        "ScoredRuns",
        "CheckedRun",
        "ScoredRuns",
    ]
    first, invalid, second, failed, third = folded
    assert isinstance(first, ScoredRuns)
    assert isinstance(second, ScoredRuns)
    assert isinstance(third, ScoredRuns)
    assert (first.first, first.count, second.first, second.count, third.first, third.count) == (0, 2, 3, 1, 5, 1)
    assert invalid is items[2]
    assert failed is items[4]
    partials = [item.run.outcome for item in items[:2] if item.run is not None]
    assert len(partials) == 2
    assert all(isinstance(part, Partial) for part in partials)
    assert first.partial == sum_partials(partials)  # type: ignore[arg-type]  # asserted Partial above
    assert first.runs == (
        (run_id_digest("a"), "log.jsonl:1", steps(RUN_A)),
        (run_id_digest("b"), "log.jsonl:2", steps(RUN_B)),
    )
    assert steps(RUN_A) > 1
    assert (first.source, first.kinds) == ("log.jsonl", frozenset({"run"}))


def test_runs_of_two_files_are_never_summed_together() -> None:
    items = judged([with_id(RUN_A, "a")], "one.jsonl") + judged([with_id(RUN_B, "b")], "two.jsonl")
    folded = scorer().fold(list(items))
    assert [(item.source, item.first, item.count) for item in folded if isinstance(item, ScoredRuns)] == [
        ("one.jsonl", 0, 1),
        ("two.jsonl", 1, 1),
    ]
    assert len(folded) == 2


def test_a_fold_crosses_between_processes_without_the_parent_s_binding() -> None:
    (scored,) = scorer().fold(list(judged([with_id(RUN_A, "a"), with_id(RUN_B, "b")])))
    scored.bind(lambda: [])
    back = pickle.loads(pickle.dumps(scored))
    assert back == scored
    with pytest.raises(AttributeError):
        back.again()


def test_unfolded_gives_the_fold_s_runs_judged_again_one_by_one() -> None:
    items = judged([{"task_results": 1}, with_id(RUN_A, "a"), with_id(RUN_B, "b"), {"task_results": 2}])
    folded = scorer().fold(list(items))
    (scored,) = [item for item in folded if isinstance(item, ScoredRuns)]
    again = judged([{"task_results": 1}, with_id(RUN_A, "a"), with_id(RUN_B, "b"), {"task_results": 2}])
    scored.bind(lambda: again)
    assert scored.unfolded() == again[1:3]


def test_a_file_changed_before_it_is_read_again_gives_the_verdicts_saying_so() -> None:
    (scored,) = scorer().fold(list(judged([with_id(RUN_A, "a"), with_id(RUN_B, "b")])))
    changed = CheckedRun(CheckedArtifact("log.jsonl", None, None, (Finding("input", "ES004", "error", "", "changed"),)))
    scored.bind(lambda: [changed])
    assert scored.unfolded() == [changed]
    shorter = judged([with_id(RUN_A, "a")])
    scored.bind(lambda: shorter)
    assert scored.unfolded() == shorter  # no verdict says why: the runs read again are given as they are


def test_a_task_is_judged_again_at_most_once_whatever_its_folds_ask() -> None:
    calls: list[int] = []

    def judge_task(task: int) -> list[Any]:
        calls.append(task)
        return judged([with_id(RUN_A, f"a{task}"), {"task_results": 1}, with_id(RUN_B, f"b{task}")])

    if not parallel.can_parallelize(2):
        pytest.skip("no fork: the parallel path is never taken")
    sent = list(parallel._judged_in_order(judge_task, [1, 2], 2, scorer().fold))
    assert calls == []  # judged and folded by the workers
    folds = [item for item in sent if isinstance(item, ScoredRuns)]
    assert len(folds) == 4
    assert len(sent) == 6
    assert [fold.unfolded()[0].run.run_id for fold in folds] == ["a1", "b1", "a2", "b2"]  # type: ignore[union-attr]
    assert calls == [1, 2]
