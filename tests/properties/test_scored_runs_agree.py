"""A worker's sum of a stretch of runs (``scored_runs.fold_runs``) is the sum of the partials those
runs give one by one, on generated runs of every kind the scorer meets: scored from their dict or
from their model, valid or not, under any suites, model and signal parameters."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from _budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from evalscore.inputs.documents import Document
from evalscore.scoring.checked_runs import CheckedRun, RunScorer
from evalscore.scoring.partials import Partial, sum_partials
from evalscore.scoring.scored_runs import ScoredRuns, fold_runs
from evalscore.scoring.signals import SignalParams
from module_files import load_module

TESTS = Path(__file__).resolve().parents[1]
AGREES: ModuleType = load_module("test_dict_scorer_agrees", TESTS / "properties" / "test_dict_scorer_agrees.py")
TALLY: Counter[str] = Counter()


@settings(max_examples=examples(40))
@given(
    st.lists(AGREES.perturbed_run("run-1"), min_size=1, max_size=6),
    st.sampled_from([None, *AGREES.SUITE_CHOICES]),
    st.sampled_from(AGREES.MODELS),
    AGREES.PARAMS,
)
def test_each_sum_a_worker_sends_is_its_runs_partials_summed(
    runs: list[tuple[dict[str, Any], str | None]], suites: list[Any] | None, model: Any, params: SignalParams
) -> None:
    documents = []
    for line, (doc, _) in enumerate(runs, 1):
        doc["run_id"] = f"run-{line}"
        documents.append(Document("log.jsonl", line, doc))
    checked = None if suites is None else [suite.model_dump(mode="json", exclude_unset=True) for suite in suites]
    scorer = RunScorer(checked, model, params, 3)
    alone: list[CheckedRun] = [scorer(document) for document in documents]
    sent = fold_runs(scorer, documents)
    position = 0
    for item in sent:
        if isinstance(item, ScoredRuns):
            assert item.exact
            parts = [judged.run.outcome for judged in alone[position : position + item.count] if judged.run]
            assert all(isinstance(part, Partial) for part in parts)
            assert len(parts) == item.count
            assert (item.first, item.partial) == (position, sum_partials(parts))  # type: ignore[arg-type]
            assert repr(item.partial) == repr(sum_partials(parts))  # type: ignore[arg-type]
            position += item.count
            TALLY["summed"] += item.count
        else:
            assert item == alone[position]
            position += 1
    assert position == len(documents)
    TALLY["documents"] += len(documents)
    TALLY["dict"] += sum(scorer.takes_dict(document) for document in documents)


def test_most_generated_runs_are_summed_and_both_scorers_are_met() -> None:
    TALLY.clear()
    test_each_sum_a_worker_sends_is_its_runs_partials_summed()
    assert TALLY["documents"] >= 60  # 40 examples of one to six runs each
    assert TALLY["summed"] >= 0.5 * TALLY["documents"]
    assert 0 < TALLY["dict"] < TALLY["documents"]
