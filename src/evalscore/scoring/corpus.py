"""What ``score`` reads, and the policy it reads by: the suites, then every run checked and scored
one at a time (on every core for a long JSONL), so a long log is never held whole.

After an invalid input the rest are still checked, to list every problem, but not scored; a run
met before (its id, in any input) is refused, not counted twice; a bug met on a run is named and
nothing of that run is scored. ``read_corpus`` is the one call: the command hands it what to read
and where to judge it, and gets back the summed partials or the invalid inputs' verdicts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Final, Protocol

from evalscore.collector import collector_paused
from evalscore.finding_codes import WRONG_KIND
from evalscore.findings import Finding
from evalscore.inputs.documents import InputRecord
from evalscore.inputs.paths import FileKey, file_key
from evalscore.running.pipeline import checked_documents, closed_after, judge_paths
from evalscore.scoring.checked_runs import RUN_KINDS, CheckedRun, RunScorer
from evalscore.scoring.partials import Partial, PartialSum
from evalscore.scoring.repeated_runs import RepeatedRuns
from evalscore.scoring.scored_runs import ScoredRuns, fold_runs
from evalscore.scoring.signals import SignalParams
from evalscore.validation.checker import CheckedArtifact
from evalscore.validation.summary import ValidationSummary
from evalscore.vocabulary import ScoringModel

if TYPE_CHECKING:
    from distributed import Client

FINDINGS_SHOWN: Final = 3
"""Findings the report over invalid input shows per artifact (and so looks for, about)."""


@dataclass(frozen=True, slots=True)
class CorpusRequest:
    """What to read and how to score it."""

    runs: tuple[str, ...]
    suites: tuple[str, ...]
    scoring_model: ScoringModel | None
    signal_params: SignalParams
    max_document_bytes: int
    listed: int
    """How many violations, refusals, disagreements and gated steps the partials keep, each."""
    workers: int
    """Processes checking and scoring a long JSONL file."""


class Ticking(Protocol):
    """A progress counter: ``tick`` per item judged."""

    def tick(self, items: int = 1) -> None: ...


@dataclass(frozen=True, slots=True)
class CorpusRead:
    """What reading the corpus gave: the runs' partials summed (when every input was valid), the
    inputs read with the kinds found in each, and the verdicts of the invalid ones."""

    total: PartialSum
    rederived: bool
    """True when the runs were re-derived against suites (suites were given and every input was valid)."""
    inputs: InputsRead

    @property
    def invalid(self) -> ValidationSummary:
        return self.inputs.invalid

    @property
    def found_runs(self) -> bool:
        return any(kinds & RUN_KINDS for _, kinds in self.inputs.records)


def read_corpus(
    request: CorpusRequest,
    *,
    cluster: AbstractContextManager[Client | None],
    progress: AbstractContextManager[Ticking],
    on_started: Callable[[], object],
) -> CorpusRead:
    """Read the suites, then check and score every run under ``request.runs``; ``cluster`` and
    ``progress`` are entered while the runs are judged, ``on_started`` is called once forked workers
    have their first tasks. Raises ``ClusterError`` (a cluster that cannot be reached) and
    ``RunIdsLostError`` (no room on disk for the run ids of a long log)."""
    inputs = InputsRead()
    with collector_paused():  # the suites' checked dicts, kept: acyclic, as large as the suites
        suites = load_suites(request, inputs)
    rederived = bool(request.suites) and not inputs.invalid.verdicts
    total = _score_runs(
        request, inputs, suites if rederived else None, cluster=cluster, progress=progress, on_started=on_started
    )
    return CorpusRead(total, rederived, inputs)


def _score_runs(
    request: CorpusRequest,
    inputs: InputsRead,
    suites: list[Any] | None,
    *,
    cluster: AbstractContextManager[Client | None],
    progress: AbstractContextManager[Ticking],
    on_started: Callable[[], object],
) -> PartialSum:
    """Every run checked and scored one at a time (on every core for a long JSONL), so a long log
    is never held whole."""
    with collector_paused():  # the suites compiled: acyclic, as large as the suites
        scorer = RunScorer(suites, request.scoring_model, request.signal_params, FINDINGS_SHOWN, request.listed)
    repeated = RepeatedRuns()
    scoring = CorpusScoring(inputs, scorer, repeated)
    if inputs.invalid.verdicts:
        scorer.stop()
    try:
        with cluster as client, progress as counter:
            judged: Iterator[CheckedRun | ScoredRuns] = judge_paths(
                list(request.runs),
                scorer,
                workers=request.workers,
                max_document_bytes=request.max_document_bytes,
                on_input=inputs.record,
                skip=suite_files(request.suites),
                cluster=client,
                fold=partial(fold_runs, scorer),
                on_started=on_started,
            )
            with closed_after(judged):
                for item in judged:
                    counter.tick(item.count if isinstance(item, ScoredRuns) else 1)
                    scoring.add(item)
    finally:
        repeated.close()  # deletes its database on disk, if it spilled to one
    return scoring.total


@dataclass(slots=True)
class InputsRead:
    """What reading the inputs found: records for the report, verdicts of the invalid ones."""

    records: list[tuple[InputRecord, set[str]]] = field(default_factory=list)
    invalid: ValidationSummary = field(
        default_factory=lambda: ValidationSummary(
            strict=False, max_findings=FINDINGS_SHOWN, show_all="evalscore validate --max-errors 0"
        )
    )
    kinds_by_source: dict[str, set[str]] = field(default_factory=dict)

    def note(self, checked: CheckedArtifact, expected: frozenset[str]) -> bool:
        """Record an artifact; True when it is valid and of an expected kind."""
        self.kinds_by_source.setdefault(checked.source, set()).add(checked.kind or "unknown")
        if not checked.valid:
            self.invalid.add(checked)
            return False
        if checked.kind not in expected:
            wrong = CheckedArtifact(
                checked.source, checked.line, checked.kind, (*checked.findings, wrong_kind(checked, expected))
            )
            self.invalid.add(wrong)
            return False
        return True

    def note_runs(self, source: str, kinds: frozenset[str]) -> None:
        """Record valid runs of ``kinds`` read from ``source``."""
        self.kinds_by_source.setdefault(source, set()).update(kinds)

    def record(self, record: InputRecord) -> None:
        self.records.append((record, self.kinds_by_source.get(record.path, set())))


def wrong_kind(checked: CheckedArtifact, expected: frozenset[str]) -> Finding:
    return Finding(
        layer="contract",
        code=WRONG_KIND,
        severity="error",
        pointer="",
        message=f"expected {' or '.join(sorted(expected))} here, found {checked.kind}",
        source=checked.source,
        line=checked.line,
    )


def load_suites(request: CorpusRequest, inputs: InputsRead) -> list[Any]:
    """The valid suites' checked dicts, in order: read as ``validate`` reads them, without their models
    (a suite's model is built only if a run is scored from its model, ``checked_runs.RunScorer``)."""
    suites: list[Any] = []
    for checked, suite in checked_documents(
        list(request.suites), "eval-suite", max_document_bytes=request.max_document_bytes, on_input=inputs.record
    ):
        if inputs.note(checked, frozenset({"eval-suite"})):
            suites.append(suite)
    return suites


class CorpusScoring:
    """The runs' partials added up in input order; a run met again is refused, and once an input is
    invalid (or a bug met on a run) the rest are still checked, to list every problem, but not scored."""

    def __init__(self, inputs: InputsRead, scorer: RunScorer, repeated: RepeatedRuns) -> None:
        self._inputs = inputs
        self._scorer = scorer
        self._repeated = repeated
        self.total = PartialSum(listed=scorer.listed)

    def add(self, judged: CheckedRun | ScoredRuns) -> None:
        if isinstance(judged, ScoredRuns):
            self._add_scored(judged)
            return
        inputs = self._inputs
        if inputs.note(judged.checked, RUN_KINDS) and not inputs.invalid.verdicts:
            self._score(judged)
        if inputs.invalid.verdicts:
            self._scorer.stop()

    def _add_scored(self, scored: ScoredRuns) -> None:
        self._inputs.note_runs(scored.source, scored.kinds)
        if self._inputs.invalid.verdicts:
            return
        if not scored.exact:
            self._add_one_by_one(scored.unfolded(), 0)
            return
        for index, (key, source, _) in enumerate(scored.runs):
            if self._repeated.first_source(key, source) is not None:
                self._add_one_by_one(scored.unfolded(), index)
                return
        self.total.add(scored.partial)

    def _add_one_by_one(self, checked_runs: list[CheckedRun], remembered: int) -> None:
        """The runs of a ``ScoredRuns`` whose sum cannot be used (it holds a repeated run, or is not
        exact), one by one; the first ``remembered`` are known to the repeat check already."""
        for index, checked_run in enumerate(checked_runs):
            run = checked_run.run
            if index < remembered and run is not None and isinstance(run.outcome, Partial):
                self.total.add(run.outcome)
            else:
                self.add(checked_run)

    def _score(self, checked_run: CheckedRun) -> None:
        run = checked_run.run
        if run is None:  # not a run (refused by note), or read once scoring had stopped
            return
        part = self._repeated.refusal_of(run.run_id, run.source, run.steps)
        if part is None:
            if isinstance(run.outcome, Finding):  # a bug on this run: named, nothing scored
                self._inputs.invalid.add(CheckedArtifact(run.source, None, None, (run.outcome,)))
                return
            part = run.outcome
        self.total.add(part)


def suite_files(suites: tuple[str, ...]) -> frozenset[FileKey]:
    """The files given to ``--suite``: never also read as runs (a directory of runs often holds its suite)."""
    return frozenset(key for key in map(file_key, suites) if key is not None)
