"""``evalscore score``: compliance re-derived from evidence, signals reported, the CI gate.

Exit codes: 0 pass, 1 fail, 2 usage error or unreadable path, 3 an input is invalid,
4 refused. The code is taken from the report's decision value.
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

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
    traceback_option,
    verbosity_of,
    verbosity_options,
)
from evalscore.cli.progress import Progress
from evalscore.cli.report_output import (
    ReportDestination,
    output_option,
    render_and_deliver,
    report_destination,
)
from evalscore.cli.score_options import ScoreOptions
from evalscore.collector import imported_once
from evalscore.exit_codes import EXIT_INTERNAL_ERROR, EXIT_INVALID_INPUT, EXIT_USAGE
from evalscore.printable import printable
from evalscore.reporters.registry import SCORE_REPORTERS, VALIDATION_REPORTERS
from evalscore.running.cluster import ClusterError, ClusterSpec
from evalscore.scoring.corpus import InputsRead, read_corpus
from evalscore.scoring.intervals import DEFAULT_CONFIDENCE
from evalscore.scoring.partials import DEFAULT_LISTED, MAX_LISTED
from evalscore.scoring.repeated_runs import RunIdsLostError
from evalscore.scoring.signals import SignalParams
from evalscore.scoring.thresholds import DEFAULT_MAX_DROP, ThresholdBasis, Thresholds
from evalscore.vocabulary import ScoringModel


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


def run_score(options: ScoreOptions) -> int:
    named = (*options.runs, *options.suites, *([options.baseline] if options.baseline else []))
    destination = report_destination(options.output, named)
    if options.ledger is not None:
        _check_ledger(Path(options.ledger), named)
    try:
        corpus = read_corpus(
            options.corpus_request(),
            cluster=cluster_for(options.dask),
            progress=Progress("runs"),
            on_started=partial(_prepare_report, options),
        )
    except (ClusterError, RunIdsLostError) as error:
        sys.stderr.write(f"evalscore score: {printable(str(error))}\n")
        return EXIT_USAGE
    if corpus.invalid.verdicts:
        return _report_invalid(corpus.inputs, options, destination)
    if not corpus.found_runs:
        sys.stderr.write("evalscore score: no run found under the given paths; nothing was scored\n")
        return EXIT_USAGE
    _prepare_report(options)  # done already when the runs were scored on forked workers
    from evalscore.cli.score_report import report_scores  # noqa: PLC0415

    return report_scores(options, corpus.total, corpus.rederived, corpus.inputs.records, destination)


def _report_invalid(inputs: InputsRead, options: ScoreOptions, destination: ReportDestination) -> int:
    """No score is printed over invalid input: the validation findings are, and the exit code says so."""
    summary = inputs.invalid
    summary.inputs.extend(record for record, _ in inputs.records)
    read = [record.path for record in summary.inputs]
    look = (options.output_format, options.color, options.verbosity)
    if not render_and_deliver(destination, VALIDATION_REPORTERS, summary, look, read):
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
