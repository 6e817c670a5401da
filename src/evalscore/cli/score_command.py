"""``evalscore score``: compliance re-derived from evidence, signals reported, the CI gate.

Exit codes: 0 pass, 1 fail, 2 usage error or unreadable path, 3 an input is invalid,
4 refused. The code is taken from the report's decision value.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Final

import click

from evalscore.cli.cluster_option import cluster_for, dask_option
from evalscore.cli.common import (
    CONFIDENCE,
    NON_NEGATIVE,
    RATE,
    ColorChoice,
    color_option,
    jobs_option,
    max_document_bytes_option,
    read_stdin_once,
    report_style,
    traceback_option,
    verbosity_of,
    verbosity_options,
)
from evalscore.cli.progress import Progress
from evalscore.cli.report_output import ReportDestination, deliver, output_option, report_destination
from evalscore.collector import collector_paused, imported_once
from evalscore.distributed.cluster import ClusterError, ClusterSpec
from evalscore.findings import Finding
from evalscore.inputs.documents import InputRecord
from evalscore.inputs.paths import FileKey, file_key
from evalscore.printable import printable
from evalscore.reporters.registry import SCORE_REPORTERS, VALIDATION_REPORTERS, ReportStyle
from evalscore.scoring.checked_runs import RUN_KINDS, CheckedRun, RunScorer
from evalscore.scoring.intervals import DEFAULT_CONFIDENCE
from evalscore.scoring.partials import DEFAULT_LISTED, MAX_LISTED, Partial, PartialSum
from evalscore.scoring.repeated_runs import RepeatedRuns, RunIdsLostError
from evalscore.scoring.scored_runs import ScoredRuns, fold_runs
from evalscore.scoring.signals import SignalParams
from evalscore.scoring.thresholds import DEFAULT_MAX_DROP, ThresholdBasis, Thresholds
from evalscore.validation.checker import WRONG_KIND, CheckedArtifact
from evalscore.validation.internal_error import EXIT_INTERNAL_ERROR
from evalscore.validation.parallel import worker_count
from evalscore.validation.pipeline import checked_documents, closed_after, judge_paths
from evalscore.validation.summary import ValidationSummary
from evalscore.vocabulary import ScoringModel

EXIT_USAGE: Final = 2
EXIT_INVALID_INPUT: Final = 3
FINDINGS_SHOWN: Final = 3
"""Findings the report over invalid input shows per artifact (and so looks for, about)."""


@dataclass(frozen=True, slots=True)
class ScoreOptions:
    runs: tuple[str, ...]
    suites: tuple[str, ...]
    scoring_model: ScoringModel | None
    thresholds: Thresholds
    baseline: str | None
    signal_params: SignalParams
    output_format: str
    max_document_bytes: int
    jobs: int | None = None
    """Processes checking and scoring a long JSONL file; None: every usable core."""
    output: str | None = None
    """``--output``: the file the report in ``output_format`` is written to (the text report then goes to stdout)."""
    html: str | None = None
    """``--html``: the file the HTML page of the report is written to as well."""
    ledger: str | None = None
    """``--ledger``: the decision ledger a record of the decision is appended to."""
    dask: ClusterSpec | None = None
    """``--dask``: the cluster the runs are checked and scored on; None: this machine."""
    color: ColorChoice = "auto"
    verbosity: int = 0
    """-1 ``-q``, 0, 1 ``-v``."""
    listed: int = DEFAULT_LISTED
    """``--max-listed``: how many violations, refusals, disagreements and gated steps the report lists, each."""


@dataclass(slots=True)
class _Inputs:
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
                checked.source, checked.line, checked.kind, (*checked.findings, _wrong_kind(checked, expected))
            )
            self.invalid.add(wrong)
            return False
        return True

    def note_runs(self, source: str, kinds: frozenset[str]) -> None:
        """Record valid runs of ``kinds`` read from ``source``."""
        self.kinds_by_source.setdefault(source, set()).update(kinds)

    def record(self, record: InputRecord) -> None:
        self.records.append((record, self.kinds_by_source.get(record.path, set())))


def _wrong_kind(checked: CheckedArtifact, expected: frozenset[str]) -> Finding:
    return Finding(
        layer="contract",
        code=WRONG_KIND,
        severity="error",
        pointer="",
        message=f"expected {' or '.join(sorted(expected))} here, found {checked.kind}",
        source=checked.source,
        line=checked.line,
    )


def _load_suites(options: ScoreOptions, inputs: _Inputs) -> list[Any]:
    """The valid suites' checked dicts, in order: read as ``validate`` reads them, without their models
    (a suite's model is built only if a run is scored from its model, ``checked_runs.RunScorer``)."""
    suites: list[Any] = []
    for checked, suite in checked_documents(
        list(options.suites), "eval-suite", max_document_bytes=options.max_document_bytes, on_input=inputs.record
    ):
        if inputs.note(checked, frozenset({"eval-suite"})):
            suites.append(suite)
    return suites


class _Scoring:
    """The runs' partials added up in input order; a run met again is refused, and once an input is
    invalid (or a bug met on a run) the rest are still checked, to list every problem, but not scored."""

    def __init__(self, inputs: _Inputs, scorer: RunScorer, repeated: RepeatedRuns) -> None:
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


def _check_ledger(ledger: Path, named: tuple[str, ...]) -> None:
    """``--ledger`` refused before anything is read (a ledger that is one of the inputs, say): a usage error."""
    from evalscore.ledger.append import LedgerRefusedError, check_ledger  # noqa: PLC0415 - only with --ledger

    try:
        check_ledger(ledger, named)
    except LedgerRefusedError as error:
        raise click.UsageError(f"--ledger {printable(str(error))}") from None


def _prepare_report(options: ScoreOptions) -> None:
    """Import what the report needs (its models, pydantic: about a tenth of a second; rich, for a text
    report) while forked workers judge the first runs; imported before they start, it would hold them
    up. Each is imported as a command's own module is (``collector.imported_once``)."""
    imported_once("evalscore.cli.score_report")
    if options.output_format == "text" or options.output is not None:  # a text report is drawn
        imported_once("evalscore.reporters.score_text")


def _score_runs(options: ScoreOptions, inputs: _Inputs, suites: list[Any] | None) -> PartialSum:
    """Every run checked and scored one at a time (on every core for a long JSONL), so a long log
    is never held whole."""
    with collector_paused():  # the suites compiled: acyclic, as large as the suites
        scorer = RunScorer(suites, options.scoring_model, options.signal_params, FINDINGS_SHOWN, options.listed)
    repeated = RepeatedRuns()
    scoring = _Scoring(inputs, scorer, repeated)
    if inputs.invalid.verdicts:
        scorer.stop()
    try:
        with cluster_for(options.dask) as cluster, Progress("runs") as progress:
            judged: Iterator[CheckedRun | ScoredRuns] = judge_paths(
                list(options.runs),
                scorer,
                workers=worker_count(options.jobs),
                max_document_bytes=options.max_document_bytes,
                on_input=inputs.record,
                skip=suite_files(options.suites),
                cluster=cluster,
                fold=partial(fold_runs, scorer),
                on_started=partial(_prepare_report, options),
            )
            with closed_after(judged):
                for item in judged:
                    progress.tick(item.count if isinstance(item, ScoredRuns) else 1)
                    scoring.add(item)
    finally:
        repeated.close()  # deletes its database on disk, if it spilled to one
    return scoring.total


def run_score(options: ScoreOptions) -> int:
    named = (*options.runs, *options.suites, *([options.baseline] if options.baseline else []))
    destination = report_destination(options.output, named)
    if options.ledger is not None:
        _check_ledger(Path(options.ledger), named)
    inputs = _Inputs()
    with collector_paused():  # the suites' checked dicts, kept: acyclic, as large as the suites
        suites = _load_suites(options, inputs)
    rederived = bool(options.suites) and not inputs.invalid.verdicts
    try:
        total = _score_runs(options, inputs, suites if rederived else None)
    except (ClusterError, RunIdsLostError) as error:
        sys.stderr.write(f"evalscore score: {printable(str(error))}\n")
        return EXIT_USAGE
    if inputs.invalid.verdicts:
        return _report_invalid(inputs, options, destination)
    if not any(kinds & RUN_KINDS for _, kinds in inputs.records):
        sys.stderr.write("evalscore score: no run found under the given paths; nothing was scored\n")
        return EXIT_USAGE
    _prepare_report(options)  # done already when the runs were scored on forked workers
    from evalscore.cli.score_report import report_scores  # noqa: PLC0415

    return report_scores(options, total, rederived, inputs.records, destination)


def _report_invalid(inputs: _Inputs, options: ScoreOptions, destination: ReportDestination) -> int:
    """No score is printed over invalid input: the validation findings are, and the exit code says so."""
    summary = inputs.invalid
    summary.inputs.extend(record for record, _ in inputs.records)
    to_file = destination.target is not None
    rendered = VALIDATION_REPORTERS[options.output_format](
        summary, ReportStyle() if to_file else report_style(options.output_format, options.color, options.verbosity)
    )
    text = VALIDATION_REPORTERS["text"]
    read = [record.path for record in summary.inputs]
    on_screen = report_style("text", options.color, options.verbosity)
    if not deliver(destination, rendered, lambda: text(summary, on_screen), read):
        return EXIT_USAGE
    if summary.internal_errors:
        problem, code = "evalscore met an internal error (a bug) on an input", EXIT_INTERNAL_ERROR
    elif summary.unreadable:
        problem, code = "an input path cannot be read", EXIT_USAGE
    else:
        problem, code = "an input is invalid", EXIT_INVALID_INPUT
    sys.stderr.write(f"evalscore score: {problem}; nothing was scored\n")
    return code


@click.command("score")
@click.argument("runs", nargs=-1, required=True)
@click.option(
    "--suite", "suites", multiple=True, help="Suite(s) the runs were recorded against: re-derive from evidence."
)
@click.option(
    "--scoring-model",
    type=click.Choice(["v1", "v2", "v3"]),
    default=None,
    help="Gate rules to re-derive under (default v3 with --suite; without it, each run's recorded model).",
)
@click.option("--min-mandated-compliance", type=RATE, default=None, help="Fail below this mandated-gate compliance.")
@click.option("--min-ask-precision", type=RATE, default=None, help="Fail below this discretionary ask precision.")
@click.option("--min-blocker-recall", type=RATE, default=None, help="Fail below this discretionary blocker recall.")
@click.option("--min-tool-match", type=RATE, default=None, help="Fail below this tool match accuracy.")
@click.option("--min-distraction-catch", type=RATE, default=None, help="Fail below this distraction detection rate.")
@click.option(
    "--min-golden-truth-pass", type=RATE, default=None, help="Fail below this golden-truth pass rate (reviews)."
)
@click.option("--max-prefilled-ratio", type=RATE, default=None, help="Fail above this share of LLM-drafted reviews.")
@click.option(
    "--baseline",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="An earlier JSON score report to compare with.",
)
@click.option(
    "--max-drop",
    type=RATE,
    default=DEFAULT_MAX_DROP,
    show_default=True,
    help="Largest fall of a rate from the baseline allowed (established beyond the noise to fail).",
)
@click.option(
    "--max-listed",
    type=click.IntRange(0, MAX_LISTED),
    default=DEFAULT_LISTED,
    show_default=True,
    help="Violations, refusals and disagreements the report lists, each (the rest are counted).",
)
@click.option(
    "--confidence",
    type=CONFIDENCE,
    default=DEFAULT_CONFIDENCE,
    show_default=True,
    help="Confidence of every rate's interval and of a baseline check's interval of the change.",
)
@click.option(
    "--threshold-basis",
    type=click.Choice(["point", "interval"]),
    default="point",
    show_default=True,
    help="Decide thresholds on the rate (point) or on its whole interval (refused when it straddles one).",
)
@click.option(
    "--allow-empty",
    is_flag=True,
    help="Let the decision pass when no step carries a score (refused otherwise: a gate that measured nothing).",
)
@click.option(
    "--fast-approval-floor-ms",
    type=NON_NEGATIVE,
    default=SignalParams().floor_ms,
    show_default=True,
    help="Fast-approval signal: fixed part of the reading time.",
)
@click.option(
    "--fast-approval-ms-per-char",
    type=NON_NEGATIVE,
    default=SignalParams().ms_per_char,
    show_default=True,
    help="Fast-approval signal: reading time per character of surfaced text.",
)
@click.option(
    "--format", "output_format", type=click.Choice(sorted(SCORE_REPORTERS)), default="text", show_default=True
)
@output_option
@color_option
@verbosity_options
@click.option(
    "--ledger",
    "ledger",
    default=None,
    metavar="FILE",
    help="Append a hash-chained record of the decision to FILE (JSON Lines; evalscore ledger verify).",
)
@click.option(
    "--html",
    "html",
    default=None,
    metavar="FILE",
    help="Also write the report as one self-contained HTML page (needs the html extra: matplotlib).",
)
@max_document_bytes_option
@jobs_option
@dask_option
@traceback_option
def score_command(
    runs: tuple[str, ...],
    suites: tuple[str, ...],
    scoring_model: ScoringModel | None,
    min_mandated_compliance: float | None,
    min_ask_precision: float | None,
    min_blocker_recall: float | None,
    min_tool_match: float | None,
    min_distraction_catch: float | None,
    min_golden_truth_pass: float | None,
    max_prefilled_ratio: float | None,
    baseline: str | None,
    max_drop: float,
    max_listed: int,
    confidence: float,
    threshold_basis: ThresholdBasis,
    allow_empty: bool,
    fast_approval_floor_ms: float,
    fast_approval_ms_per_char: float,
    output_format: str,
    output: str | None,
    color: ColorChoice,
    quiet: bool,
    verbose: bool,
    ledger: str | None,
    html: str | None,
    max_document_bytes: int,
    jobs: int | None,
    dask: ClusterSpec | None,
) -> None:
    """Score recorded runs: rates re-derived from evidence (with --suite) or as recorded,
    plus oversight signals that are reported and never graded.

    Exit 0 pass, 1 fail (threshold, regression, or recorded scores that disagree with
    the evidence), 2 usage error (or a --dask cluster that cannot be reached, or no room on
    disk for the run ids of a long log), 3 an input is invalid, 4 refused (not derivable
    honestly, or nothing was scored), 70 an internal error (a bug; the other inputs are still
    checked).
    """
    read_stdin_once(runs, suites)
    options = ScoreOptions(
        runs=runs,
        suites=suites,
        scoring_model=scoring_model,
        thresholds=Thresholds(
            min_mandated_compliance=min_mandated_compliance,
            min_ask_precision=min_ask_precision,
            min_blocker_recall=min_blocker_recall,
            min_tool_match=min_tool_match,
            min_distraction_catch=min_distraction_catch,
            min_golden_truth_pass=min_golden_truth_pass,
            max_prefilled_ratio=max_prefilled_ratio,
            max_drop=max_drop,
            allow_empty=allow_empty,
            confidence=confidence,
            threshold_basis=threshold_basis,
        ),
        baseline=baseline,
        signal_params=SignalParams(floor_ms=fast_approval_floor_ms, ms_per_char=fast_approval_ms_per_char),
        output_format=output_format,
        max_document_bytes=max_document_bytes,
        jobs=jobs,
        output=output,
        html=html,
        ledger=ledger,
        color=color,
        verbosity=verbosity_of(quiet, verbose),
        dask=dask,
        listed=max_listed,
    )
    sys.exit(run_score(options))
