"""Each input of ``score`` checked, and its run scored, where it is read: on every core for long JSONL.

A forked worker checks a line, scores the run, and sends back only the verdict and the run's
``Partial`` (or the internal error met scoring it). A run re-derived against suites is scored from
its checked dict (``scoring.from_dicts``, which says which runs it takes); the others from their
model (``engine.score_run``), built by the check.
What needs the whole input is applied by the caller, in input order: a run id met before is
refused (``RepeatedRuns``, from the ``run_id`` and step count sent back), and once an input is
invalid no later run counts. A worker may have scored those runs already; their partials are
dropped, so the report is the one a single process gives.

A worker sends a range's consecutive valid runs as one ``ScoredRuns`` (``RunScorer.fold``): their
partials summed, with each run's id digest, source and step count. Sending and adding up a partial
per run cost the parent more than scoring it cost a worker. When a run in it was met before, the
caller has the runs judged again one by one (``ScoredRuns.unfolded``) and refuses that one.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final

from evalscore.findings import Finding
from evalscore.inputs.documents import Document
from evalscore.models.run import RunOf, ScoringModel
from evalscore.pickled_as_fields import pickled_as_fields
from evalscore.scoring.engine import DEFAULT_MODEL, Partial, PartialSum, SourcedRun, run_id_digest, score_run
from evalscore.scoring.from_dicts import CompiledIndex, compile_index, run_step_count, score_run_dict, scores_from_dict
from evalscore.scoring.join import SuiteIndex, step_count
from evalscore.scoring.signals import SignalParams
from evalscore.validation.checker import CheckedArtifact, check_guarded
from evalscore.validation.internal_error import internal_error_finding
from evalscore.validation.parallel import Folded

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


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class ScoredRuns(Folded):
    """Consecutive valid runs of one file, scored and summed by the worker that read them."""

    first: int
    """Where the first of them is among the judgements of its task (``parallel.Folded``)."""
    count: int
    source: str
    """The file they were read from."""
    kinds: frozenset[str]
    runs: tuple[tuple[bytes, str, int], ...]
    """Each run's id digest (``engine.run_id_digest``), its source (``path:line``) and its step count, in order."""
    partial: Partial
    """Their partials summed in order."""

    def unfolded(self) -> list[CheckedRun]:
        """The runs judged again in this process, one by one.

        Read again, the file gives the same runs unless it changed since the worker read it; then
        its task's verdicts are invalid ones saying so, and those are given instead.
        """
        judged: list[CheckedRun] = self.again()
        runs = judged[self.first : self.first + self.count]
        if len(runs) == self.count and all(item.run is not None for item in runs):
            return runs
        return [item for item in judged if not item.checked.valid] or runs


def run_source(checked: CheckedArtifact) -> str:
    return f"{checked.source}:{checked.line}" if checked.line is not None else checked.source


class RunScorer:
    """Check one document and score it when it is a valid run: what each worker does with each line.

    ``stop()`` spares the runs read after an invalid input, in this process (a worker forked
    before that scores them anyway; the caller drops what it sends).
    """

    def __init__(
        self,
        index: SuiteIndex | None,
        scoring_model: ScoringModel | None,
        signal_params: SignalParams,
        findings_wanted: int | None,
    ) -> None:
        self._index = index
        self._compiled = None if index is None else compile_index(index)
        self._scoring_model = scoring_model
        self._dict_model = scoring_model or DEFAULT_MODEL
        self._signal_params = signal_params
        self._findings_wanted = findings_wanted
        self.scoring = True

    def stop(self) -> None:
        self.scoring = False

    def fold(self, judged: list[CheckedRun | ScoredRuns]) -> list[CheckedRun | ScoredRuns]:
        """A task's judgements, each stretch of valid, scored runs of one file summed into one ``ScoredRuns``."""
        folded: list[CheckedRun | ScoredRuns] = []
        stretch: list[tuple[CheckedRun, RunOutcome, Partial]] = []
        first = 0
        for index, item in enumerate(judged):
            run = item.run if isinstance(item, CheckedRun) else None
            if run is not None and isinstance(run.outcome, Partial):
                assert isinstance(item, CheckedRun)  # only a CheckedRun has a run
                if stretch and stretch[0][0].checked.source != item.checked.source:
                    folded.append(_scored_runs(first, stretch))
                    stretch = []
                if not stretch:
                    first = index
                stretch.append((item, run, run.outcome))
                continue
            if stretch:
                folded.append(_scored_runs(first, stretch))
                stretch = []
            folded.append(item)
        if stretch:
            folded.append(_scored_runs(first, stretch))
        return folded

    def __call__(self, document: Document) -> CheckedRun:
        if not self.scoring:
            return CheckedRun(check_guarded(document, None, False, self._findings_wanted))
        compiled = self._compiled
        if compiled is not None and scores_from_dict(document.value, self._dict_model):
            return self._from_dict(document, compiled)
        checked = check_guarded(document, None, True, self._findings_wanted)
        run = checked.model
        checked = dataclasses.replace(checked, model=None)
        if not (checked.valid and checked.kind in RUN_KINDS and isinstance(run, RunOf)):
            return CheckedRun(checked)
        source = run_source(checked)
        outcome: Partial | Finding
        try:
            outcome = score_run(
                SourcedRun(source, run),
                index=self._index,
                scoring_model=self._scoring_model,
                signal_params=self._signal_params,
            )
        except Exception as error:  # a bug on one run: name it, keep checking the others
            outcome = internal_error_finding(error, source, None)
        return CheckedRun(checked, RunOutcome(source, run.run_id, step_count(run), outcome))

    def _from_dict(self, document: Document, compiled: CompiledIndex) -> CheckedRun:
        checked = check_guarded(document, None, False, self._findings_wanted)
        if not (checked.valid and checked.kind in RUN_KINDS):
            return CheckedRun(checked)
        value: Any = document.value
        source = run_source(checked)
        outcome: Partial | Finding
        try:
            outcome = score_run_dict(value, source, compiled, self._dict_model, self._signal_params)
        except Exception as error:  # a bug on one run: name it, keep checking the others
            outcome = internal_error_finding(error, source, None)
        return CheckedRun(checked, RunOutcome(source, value["run_id"], run_step_count(value), outcome))


def _scored_runs(first: int, stretch: list[tuple[CheckedRun, RunOutcome, Partial]]) -> ScoredRuns:
    total = PartialSum()
    for _, _, partial in stretch:
        total.add(partial)
    return ScoredRuns(
        first,
        len(stretch),
        stretch[0][0].checked.source,
        frozenset(item.checked.kind or "unknown" for item, _, _ in stretch),
        tuple((run_id_digest(run.run_id), run.source, run.steps) for _, run, _ in stretch),
        total.total(),
    )
