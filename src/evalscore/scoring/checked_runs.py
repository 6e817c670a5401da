"""Each input of ``score`` checked, and its run scored, where it is read: on every core for long JSONL.

A forked worker checks a line, scores the run, and sends back only the verdict and the run's
``Partial`` (or the internal error met scoring it). A run re-derived against suites is scored from
its checked dict (``scoring.from_dicts``, which says which runs it takes); the others from their
model (``engine.score_run``), built by the check.
What needs the whole input is applied by the caller, in input order: a run id met before is
refused (``RepeatedRuns``, from the ``run_id`` and step count sent back), and once an input is
invalid no later run counts. A worker may have scored those runs already; their partials are
dropped, so the report is the one a single process gives.

A worker of a long JSONL file sends a range's consecutive valid runs summed instead
(``scoring.scored_runs``), with this judge's parts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from evalscore.findings import Finding
from evalscore.inputs.documents import Document
from evalscore.pickled_as_fields import pickled_as_fields
from evalscore.scoring.from_dicts import RunScoring, compile_suites, run_step_count, scores_from_dict
from evalscore.scoring.join import step_count
from evalscore.scoring.partials import Partial
from evalscore.scoring.signals import SignalParams
from evalscore.validation.checker import CheckedArtifact, check_guarded
from evalscore.validation.internal_error import internal_error_finding
from evalscore.vocabulary import DEFAULT_MODEL, ScoringModel

if TYPE_CHECKING:
    from evalscore.scoring.join import SuiteIndex

RUN_KINDS: Final = frozenset({"run", "scored-run"})


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class RunOutcome:
    """What scoring one valid run gave, and what the caller needs to refuse it if it is met again."""

    source: str
    """``path:line`` for JSONL, else the path."""
    run_id: str
    steps: int
    outcome: Partial | Finding
    """The run's partial, or the internal error (``ES099``) met while scoring it."""


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class CheckedRun:
    """The verdict on one input document (never with its model), and its score when it is a valid run."""

    checked: CheckedArtifact
    run: RunOutcome | None = None


def is_valid_run(checked: CheckedArtifact) -> bool:
    return checked.valid and checked.kind in RUN_KINDS


def run_source(checked: CheckedArtifact) -> str:
    return f"{checked.source}:{checked.line}" if checked.line is not None else checked.source


class RunScorer:
    """Check one document and score it when it is a valid run: what each worker does with each line.

    ``stop()`` spares the runs read after an invalid input, in this process (a worker forked
    before that scores them anyway; the caller drops what it sends).
    """

    def __init__(
        self,
        suites: Sequence[Mapping[str, Any]] | None,
        scoring_model: ScoringModel | None,
        signal_params: SignalParams,
        findings_wanted: int | None,
        listed: int | None = None,
    ) -> None:
        """``suites``: the checked suites' dicts, None to score the runs as recorded; ``listed``: how many
        of each kind of finding the report lists (a worker's sums keep no more)."""
        self._suites = suites
        self._index: SuiteIndex | None = None
        """The suites' models indexed, built when a run is first scored from its model."""
        self._compiled = None if suites is None else compile_suites(suites)
        self._scoring_model = scoring_model
        self._dict_model = scoring_model or DEFAULT_MODEL
        self._signal_params = signal_params
        self._findings_wanted = findings_wanted
        self.listed = listed
        self.scoring = True

    def stop(self) -> None:
        self.scoring = False

    def __call__(self, document: Document) -> CheckedRun:
        if not self.scoring:
            return CheckedRun(check_guarded(document, None, False, self._findings_wanted))
        if self.takes_dict(document):
            return self._from_dict(document)
        return self.from_model(document)

    def from_model(self, document: Document) -> CheckedRun:
        """The verdict on a document that ``takes_dict`` does not take, scored from its model when a valid run."""
        # the models (and pydantic) load with the first run scored from its model: a worker that
        # scores dicts only never needs them
        from evalscore.models.run import RunOf  # noqa: PLC0415
        from evalscore.scoring.engine import score_run  # noqa: PLC0415
        from evalscore.scoring.sourced_run import SourcedRun  # noqa: PLC0415

        checked = check_guarded(document, None, True, self._findings_wanted)
        run = checked.model
        checked = dataclasses.replace(checked, model=None)
        if not (is_valid_run(checked) and isinstance(run, RunOf)):
            return CheckedRun(checked)
        source = run_source(checked)
        outcome: Partial | Finding
        try:
            outcome = score_run(
                SourcedRun(source, run),
                index=self._suite_index(),
                scoring_model=self._scoring_model,
                signal_params=self._signal_params,
            )
        except Exception as error:  # a bug on one run: name it, keep checking the others
            outcome = internal_error_finding(error, source, None)
        return CheckedRun(checked, RunOutcome(source, run.run_id, step_count(run), outcome))

    def _suite_index(self) -> SuiteIndex | None:
        from evalscore.scoring.suite_models import suite_index  # noqa: PLC0415 - the models load when first needed

        if self._index is None and self._suites is not None:
            self._index = suite_index(self._suites)
        return self._index

    def takes_dict(self, document: Document) -> bool:
        """Whether ``document``, if a valid run, is scored from its dict (``check_dict_run``, ``score_dict``)."""
        return self._compiled is not None and scores_from_dict(document.value, self._dict_model)

    def check_dict_run(self, document: Document) -> CheckedArtifact:
        """The verdict on a document ``takes_dict`` takes, checked without its model."""
        return check_guarded(document, None, False, self._findings_wanted)

    def dict_scoring(self) -> RunScoring:
        """A pass that valid runs ``takes_dict`` takes can be scored into (``score_dict``)."""
        return RunScoring(self._dict_model, self._signal_params, self.listed)

    def score_dict(self, scoring: RunScoring, run: Any, source: str) -> None:
        assert self._compiled is not None  # takes_dict took it
        scoring.score(run, source, self._compiled)

    def score_checked_dict(self, scoring: RunScoring, checked: CheckedArtifact, run: Any) -> RunOutcome | None:
        """Score the valid run ``run`` (``checked`` its verdict) into ``scoring``: None, or the run's
        outcome with the internal error (``ES099``) met scoring it, which may have left part of it in ``scoring``."""
        source = run_source(checked)
        try:
            self.score_dict(scoring, run, source)
        except Exception as error:  # a bug on one run: name it, keep checking the others
            return RunOutcome(source, run["run_id"], run_step_count(run), internal_error_finding(error, source, None))
        return None

    def _from_dict(self, document: Document) -> CheckedRun:
        checked = self.check_dict_run(document)
        if not is_valid_run(checked):
            return CheckedRun(checked)
        value: Any = document.value
        scoring = self.dict_scoring()
        failed = self.score_checked_dict(scoring, checked, value)
        if failed is not None:
            return CheckedRun(checked, failed)
        source = run_source(checked)
        outcome: Partial | Finding
        try:
            outcome = scoring.total()
        except Exception as error:  # a bug on one run: name it, keep checking the others
            outcome = internal_error_finding(error, source, None)
        return CheckedRun(checked, RunOutcome(source, value["run_id"], run_step_count(value), outcome))
