"""The dict scorer against the reference: a run scored by ``RunScorer`` (which takes the dict path
when ``from_dicts.route`` says so) and by ``engine.score_run`` from the run's model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from unittest import mock

from evalscore.inputs.documents import Document
from evalscore.models import EvalSuite
from evalscore.models.run import RunOf
from evalscore.scoring import checked_runs
from evalscore.scoring.checked_runs import RunOutcome, RunScorer
from evalscore.scoring.engine import score_run
from evalscore.scoring.join import SuiteIndex, index_suites
from evalscore.scoring.partials import Partial
from evalscore.scoring.signals import SignalParams
from evalscore.scoring.sourced_run import SourcedRun
from evalscore.validation.checker import check_guarded
from evalscore.vocabulary import ScoringModel

from .builders import checked_suites


def reference(
    doc: Any, source: str, index: SuiteIndex | None, model: ScoringModel | None, params: SignalParams
) -> Partial | None:
    """The model path's partial, or None when the document is not a valid run."""
    checked = check_guarded(Document(source, None, doc), None, True)
    if not (checked.valid and isinstance(checked.model, RunOf)):
        return None
    return score_run(SourcedRun(source, checked.model), index=index, scoring_model=model, signal_params=params)


def scored(
    doc: Any, source: str, suites: Sequence[EvalSuite], model: ScoringModel | None, params: SignalParams
) -> tuple[RunOutcome | None, bool]:
    """What ``RunScorer`` sends back for the document, and whether it went the dict's way."""
    scorer = RunScorer(checked_suites(suites) if suites else None, model, params, 3)
    real = checked_runs.RunScorer.score_dict
    with mock.patch.object(checked_runs.RunScorer, "score_dict", side_effect=real, autospec=True) as spy:
        outcome = scorer(Document(source, None, doc)).run
    return outcome, spy.call_count == 1


def agrees(
    doc: Any,
    suites: Sequence[EvalSuite],
    model: ScoringModel | None = None,
    params: SignalParams | None = None,
    source: str = "run.json",
) -> bool | None:
    """Assert that both paths give the same partial (``==`` and ``repr``) and the same id and step count;
    True when the dict path gave it, False when the models did, None for a document that is not a valid run."""
    params = params or SignalParams()
    index = index_suites(suites) if suites else None
    expected = reference(doc, source, index, model, params)
    outcome, from_dict = scored(doc, source, suites, model, params)
    if expected is None:
        assert outcome is None
        return None
    assert outcome is not None
    assert outcome.outcome == expected, (outcome.outcome, expected)
    assert repr(outcome.outcome) == repr(expected)
    assert (outcome.run_id, outcome.steps) == (doc["run_id"], sum(len(t["step_results"]) for t in doc["task_results"]))
    return from_dict
