"""A worker's stretches of valid runs sent summed: one ``ScoredRuns`` for each, not a partial per run.

Sending and adding up a partial per run cost the parent (unpickling, summing) more than scoring the
run cost a worker, and the parent's share is not spread over the cores; building each run's
``Partial`` cost the worker as much again on small runs. A worker of a long JSONL file therefore
scores the consecutive valid runs of a task into one sum (``fold_runs``): runs scored from their
dict into one ``RunScoring``, the others' partials into a ``PartialSum``, in input order. With the
sum go each run's id digest, source and step count, for the caller's repeat check.

When the caller cannot use a sum (a run in it was met before, or a bug met on the next run left part
of that run in it), it has the runs judged again in its own process, one by one
(``ScoredRuns.unfolded``), so the report is the one a single process gives.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from evalscore.inputs.documents import Document
from evalscore.pickled_as_fields import pickled_as_fields
from evalscore.running.parallel import Folded
from evalscore.scoring.checked_runs import CheckedRun, RunScorer, is_valid_run, run_source
from evalscore.scoring.from_dicts import RunScoring, run_step_count
from evalscore.scoring.partials import Partial, PartialSum
from evalscore.scoring.repeated_runs import run_id_digest
from evalscore.validation.checker import CheckedArtifact


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class ScoredRuns(Folded):
    """Consecutive valid runs of one file, scored and summed by the worker that read them."""

    first: int
    """Where the first of them is among the documents of its task (``parallel.Folded``)."""
    count: int
    source: str
    """The file they were read from."""
    kinds: frozenset[str]
    runs: tuple[tuple[bytes, str, int], ...]
    """Each run's id digest (``repeated_runs.run_id_digest``), its source (``path:line``) and its step
    count, in order."""
    partial: Partial
    """Their partials summed in order."""
    exact: bool
    """False when a bug met on the run after them left part of that run in ``partial``: then it is not to be used."""

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


class _Stretch:
    """Valid runs of one file being summed, in order."""

    def __init__(self, first: int, source: str, listed: int | None = None) -> None:
        self.first = first
        self.source = source
        self.runs: list[tuple[bytes, str, int]] = []
        self.kinds: set[str] = set()
        self.summed = PartialSum(listed=listed)
        self.scoring: RunScoring | None = None
        """The runs scored from their dict since the last run that was not."""

    def add_run(self, run_id: str, source: str, steps: int, kind: str | None) -> None:
        self.runs.append((run_id_digest(run_id), source, steps))
        self.kinds.add(kind or "unknown")

    def add_partial(self, partial: Partial) -> None:
        self._flush()
        self.summed.add(partial)

    def dict_scoring(self, scorer: RunScorer) -> RunScoring:
        if self.scoring is None:
            self.scoring = scorer.dict_scoring()
        return self.scoring

    def _flush(self) -> None:
        if self.scoring is not None:
            self.summed.add(self.scoring.total())
            self.scoring = None

    def close(self, exact: bool = True) -> ScoredRuns:
        self._flush()
        partial = self.summed.total()
        return ScoredRuns(
            self.first, len(self.runs), self.source, frozenset(self.kinds), tuple(self.runs), partial, exact
        )


def fold_runs(scorer: RunScorer, documents: Iterable[Document]) -> list[CheckedRun | ScoredRuns]:
    """What ``scorer`` gives for each document, but each stretch of valid, scored runs of one file
    summed into one ``ScoredRuns``."""
    sent: list[CheckedRun | ScoredRuns] = []
    stretch: _Stretch | None = None
    for index, document in enumerate(documents):
        if scorer.scoring and scorer.takes_dict(document):
            checked = scorer.check_dict_run(document)
            if is_valid_run(checked):
                stretch = _open(stretch, sent, index, checked.source, scorer.listed)
                error = _score_dict(scorer, stretch, checked, document.value)
                if error is None:
                    continue
                if stretch.runs:  # the runs before it, in a sum that holds part of this one
                    sent.append(stretch.close(exact=False))
                sent.append(error)
                stretch = None
                continue
            judged = CheckedRun(checked)
        else:
            judged = scorer.from_model(document) if scorer.scoring else scorer(document)
            run = judged.run
            if run is not None and isinstance(run.outcome, Partial):
                stretch = _open(stretch, sent, index, judged.checked.source, scorer.listed)
                stretch.add_partial(run.outcome)
                stretch.add_run(run.run_id, run.source, run.steps, judged.checked.kind)
                continue
        if stretch is not None:
            sent.append(stretch.close())
            stretch = None
        sent.append(judged)
    if stretch is not None:
        sent.append(stretch.close())
    return sent


def _open(
    stretch: _Stretch | None, sent: list[CheckedRun | ScoredRuns], index: int, source: str, listed: int | None
) -> _Stretch:
    """The stretch a valid run of ``source`` at ``index`` joins: a new one after a run of another file."""
    if stretch is not None and stretch.source == source:
        return stretch
    if stretch is not None:
        sent.append(stretch.close())
    return _Stretch(index, source, listed)


def _score_dict(scorer: RunScorer, stretch: _Stretch, checked: CheckedArtifact, run: Any) -> CheckedRun | None:
    """Score a valid run into ``stretch``: None, or the run's verdict with the internal error met scoring it."""
    failed = scorer.score_checked_dict(stretch.dict_scoring(scorer), checked, run)
    if failed is not None:
        return CheckedRun(checked, failed)
    stretch.add_run(run["run_id"], run_source(checked), run_step_count(run), checked.kind)
    return None
