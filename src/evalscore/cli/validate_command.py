"""``evalscore validate``: both layers, one pass, exit 0/1/2."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import click

from evalscore.artifact_kinds import ArtifactKind
from evalscore.cli.cluster_option import cluster_for, dask_option
from evalscore.cli.common import (
    KIND_CHOICE,
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
from evalscore.cli.report_output import output_option, render_and_deliver, report_destination
from evalscore.exit_codes import EXIT_USAGE
from evalscore.printable import printable
from evalscore.reporters.registry import VALIDATION_FORMATS_WITH_DIGESTS, VALIDATION_REPORTERS
from evalscore.running.cluster import ClusterError, ClusterSpec
from evalscore.running.pipeline import check_paths_in_stretches, closed_after
from evalscore.validation.clean_stretches import CleanStretch
from evalscore.validation.summary import ValidationSummary


@dataclass(frozen=True, slots=True)
class ValidateOptions:
    paths: tuple[str, ...]
    kind: ArtifactKind | None
    output_format: str
    strict: bool
    max_errors: int
    max_document_bytes: int
    jobs: int | None = None
    """Processes checking a long JSONL file; None: every usable core."""
    output: str | None = None
    """``--output``: the file the report in ``output_format`` is written to (the text report then goes to stdout)."""
    color: ColorChoice = "auto"
    verbosity: int = 0
    """-1 ``-q``, 0, 1 ``-v``."""
    dask: ClusterSpec | None = None
    """``--dask``: the cluster the artifacts are checked on; None: this machine, as ``jobs`` says."""


def run_validate(options: ValidateOptions) -> int:
    destination = report_destination(options.output, options.paths)
    summary = ValidationSummary(strict=options.strict, max_findings=options.max_errors)
    try:
        with cluster_for(options.dask) as cluster:
            checked = check_paths_in_stretches(
                list(options.paths),
                options.kind,
                max_document_bytes=options.max_document_bytes,
                on_input=summary.inputs.append,
                findings_wanted=options.max_errors or None,
                jobs=options.jobs,
                cluster=cluster,
                digests=options.output_format in VALIDATION_FORMATS_WITH_DIGESTS,
            )
            with closed_after(checked), Progress("artifacts") as progress:  # both however the loop ends
                for artifact in checked:
                    if isinstance(artifact, CleanStretch):
                        progress.tick(artifact.count)
                        summary.add_clean(artifact)
                    else:
                        progress.tick()
                        summary.add(artifact)
    except ClusterError as error:
        sys.stderr.write(f"evalscore validate: {printable(str(error))}\n")
        return EXIT_USAGE
    read = [record.path for record in summary.inputs]
    look = (options.output_format, options.color, options.verbosity)
    if not render_and_deliver(destination, VALIDATION_REPORTERS, summary, look, read):
        return EXIT_USAGE
    return summary.exit_code


@click.command("validate")
@click.argument("paths", nargs=-1, required=True)
@click.option("--kind", type=KIND_CHOICE, default=None, help="Force the artifact kind instead of detecting it.")
@click.option(
    "--format", "output_format", type=click.Choice(sorted(VALIDATION_REPORTERS)), default="text", show_default=True
)
@click.option("--strict", is_flag=True, help="Treat warnings as failures.")
@click.option(
    "--max-errors",
    type=click.IntRange(min=0),
    default=3,
    show_default=True,
    help="Findings shown per artifact, most useful first; 0 shows all.",
)
@output_option
@color_option
@verbosity_options
@max_document_bytes_option
@jobs_option
@dask_option
@traceback_option
def validate_command(
    paths: tuple[str, ...],
    kind: ArtifactKind | None,
    output_format: str,
    strict: bool,
    max_errors: int,
    output: str | None,
    color: ColorChoice,
    quiet: bool,
    verbose: bool,
    max_document_bytes: int,
    jobs: int | None,
    dask: ClusterSpec | None,
) -> None:
    """Check artifacts against the published contract and the coherence rules.

    PATHS are files, directories (searched for .json, .jsonl, .yaml, .yml,
    optionally .gz) or - for stdin. Exit 0 when every artifact is valid,
    1 when any is invalid, 2 on a usage error, an unreadable path or a Dask
    cluster that cannot be reached (--dask), 70 on an
    internal error (a bug; the other inputs are still checked).
    """
    read_stdin_once(paths)
    verbosity = verbosity_of(quiet, verbose)
    options = ValidateOptions(
        paths, kind, output_format, strict, max_errors, max_document_bytes, jobs, output, color, verbosity, dask
    )
    sys.exit(run_validate(options))
