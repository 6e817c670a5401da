"""Every run in the repository (fixtures, examples, goldens) scores the same from its dict as from its
model: under every suite it could be given, every model ``score`` re-derives under, and with its own
re-derived scores written in as recorded."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from evalscore.inputs.documents import Document, read_file_documents
from evalscore.inputs.expansion import expand_paths
from evalscore.models import EvalSuite
from evalscore.models.run import RunOf
from evalscore.scoring.join import JoinedStep, index_suites, join_run
from evalscore.scoring.rederive import Rederived, rederive_step
from evalscore.validation.checker import check_guarded

from .dict_agreement import agrees

ROOT = Path(__file__).resolve().parents[3]
DATA = [ROOT / "fixtures", ROOT / "examples", ROOT / "goldens"]
MODELS = (None, "v2", "v3", "v1")
RUN_FILES = 60
"""Files of the repository holding at least one run document (valid or not)."""
RUN_DOCUMENTS = 65
VALID_RUNS = 24
SUITE_DOCUMENTS = 14
DICT_PATH_VISITS = 162
"""(run, suites, model) cases, recorded and rewritten, the dict path scored: counted, so that a
router that sends everything to the models fails here."""


def documents() -> list[tuple[str, Any]]:
    found = []
    for file in expand_paths([str(path) for path in DATA]):
        items, _ = read_file_documents(file, 1 << 26)
        found.extend(
            (item.source if item.line is None else f"{item.source}:{item.line}", item.value)
            for item in items
            if isinstance(item, Document) and item.syntax is None
        )
    return found


DOCUMENTS = documents()
RUNS = [(source, value) for source, value in DOCUMENTS if isinstance(value, dict) and "task_results" in value]
SUITES = [
    suite
    for source, value in DOCUMENTS
    if isinstance(suite := check_guarded(Document(source, None, value), "eval-suite", True).model, EvalSuite)
]


def own_suites(source: str) -> list[EvalSuite]:
    """The suite kept beside a golden or an example, else every suite of the repository."""
    folder = Path(source.split(":", maxsplit=1)[0]).parent
    beside = [
        suite
        for suite_source, value in DOCUMENTS
        if Path(suite_source).parent == folder
        and isinstance(suite := check_guarded(Document(suite_source, None, value), "eval-suite", True).model, EvalSuite)
    ]
    return beside or SUITES


def rewritten(doc: dict[str, Any], suites: list[EvalSuite]) -> dict[str, Any]:
    """The run with each joined step's re-derived auto score (under its recorded model) written in as recorded."""
    checked = check_guarded(Document("run.json", None, doc), None, True)
    assert isinstance(checked.model, RunOf)
    copied = copy.deepcopy(doc)
    for item in join_run(checked.model, "run.json", index_suites(suites)):
        if isinstance(item, JoinedStep):
            outcome = rederive_step(item.task, item.step, item.result, item.recorded_model, item.place)
            if isinstance(outcome, Rederived):
                task_index, step_index = (int(token) for token in item.place.pointer.split("/")[2::2])
                copied["task_results"][task_index]["step_results"][step_index]["auto_score"] = (
                    outcome.auto_score.model_dump(mode="json")
                )
    return copied


def test_the_repository_holds_the_runs_and_suites_counted_here() -> None:
    assert len({source.split(":")[0] for source, _ in RUNS}) == RUN_FILES
    assert len(RUNS) == RUN_DOCUMENTS
    assert len(SUITES) == SUITE_DOCUMENTS
    valid = [doc for source, doc in RUNS if check_guarded(Document(source, None, doc), None, False).valid]
    assert len(valid) == VALID_RUNS


def test_every_run_of_the_repository_scores_the_same_from_its_dict_as_from_its_model() -> None:
    visits = {True: 0, False: 0, None: 0}
    for source, doc in RUNS:
        for suites in (own_suites(source), SUITES):
            for model in MODELS:
                visits[agrees(doc, suites, model, source=source)] += 1
            if check_guarded(Document(source, None, doc), None, False).valid:
                for model in MODELS:
                    visits[agrees(rewritten(doc, suites), suites, model, source=source)] += 1
    assert visits[True] == DICT_PATH_VISITS
    assert visits[False] > 0  # v1, and recorded scores under another model, went to the models


@pytest.mark.parametrize("model", ["v2", "v3"])
def test_the_partner_log_rewritten_and_perturbed_scores_alike(model: str) -> None:
    partner = [(source, doc) for source, doc in RUNS if "partner-log" in source]
    assert len(partner) == 2
    suites = own_suites(partner[0][0])
    for source, doc in partner:
        exact = rewritten({**doc, "scoring_model": model}, suites)
        assert agrees(exact, suites, model, source=source) is True
        changed = copy.deepcopy(exact)
        for task in changed["task_results"]:
            for step in task["step_results"]:
                score = step["auto_score"]
                if score is not None:
                    score["tool_match"] = score["tool_match"] is not True
                    score.pop("gates")
        assert agrees(changed, suites, model, source=source) is True
