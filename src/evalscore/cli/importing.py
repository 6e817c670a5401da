"""Running an importer from the command line, whatever it imports: every source to one Run line each,
written atomically (all or nothing), failures one escaped line each, exit 0/2/3/70 (143 on SIGTERM).

An importer supplies how to import one source and what to say about what it wrote; everything a
user meets the same way in every ``evalscore import`` command is here, written once.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import ClassVar, Final

import click
import orjson
from click.decorators import FC

from evalscore.cli.common import MAX_DOCUMENT_BYTES_CEILING
from evalscore.cli.progress import Progress
from evalscore.exit_codes import EXIT_INTERNAL_ERROR, EXIT_INVALID_INPUT, EXIT_OK, EXIT_TERMINATED, EXIT_USAGE
from evalscore.finding_codes import TOO_LARGE, UNREADABLE
from evalscore.findings import Finding
from evalscore.importers.shared.errors import ImportFailedError, UnreadableSourceError
from evalscore.importers.shared.importer import Importer, Tally
from evalscore.models import EvalSuite, Run
from evalscore.output_file import (
    STDOUT,
    AtomicOutput,
    OutputRefusedError,
    Terminated,
    check_output,
    sigterm_raises,
)
from evalscore.printable import MESSAGE_LIMIT, printable, printable_path, shortened
from evalscore.running.pipeline import check_paths
from evalscore.validation.internal_error import tracebacks_requested

MAX_SUITE_BYTES: Final = 16 * 1024 * 1024
"""A suite is authored by hand; more than this is not one (and is not read into memory to find out)."""


def output_option(help_text: str) -> Callable[[FC], FC]:
    """``-o/--output OUT``: the JSONL file an import writes, or ``-`` for standard output."""
    return click.option(
        "-o", "--output", required=True, type=click.Path(allow_dash=True, readable=False), metavar="OUT", help=help_text
    )


def suite_option(help_text: str) -> Callable[[FC], FC]:
    """``--suite SUITE``: the suite an import's steps are re-derived against (read as ``score --suite`` reads it)."""
    return click.option("--suite", type=click.Path(), default=None, help=help_text)


def import_max_bytes_option(default: int, help_text: str) -> Callable[[FC], FC]:
    """``--max-document-bytes N``: the largest piece of a source an importer holds in memory."""
    return click.option(
        "--max-document-bytes",
        type=click.IntRange(min=1, max=MAX_DOCUMENT_BYTES_CEILING),
        default=default,
        show_default=True,
        help=help_text,
    )


@dataclass(frozen=True, slots=True)
class ImportJob:
    """One ``evalscore import KIND`` command line, with the importer's own parts."""

    prog: str
    sources: tuple[str, ...]
    output: str
    suite: str | None
    importer: Importer


def run_import(job: ImportJob) -> int:
    """Import every source; write OUT only when all of them import. Returns the exit code.

    SIGTERM while importing ends the import with exit 143, the temporary file removed.
    """
    with sigterm_raises():
        try:
            return _import_all(job)
        except Terminated:
            _error(job, f"terminated (SIGTERM); {printable_path(job.output)} was not written")
            return EXIT_TERMINATED


def _import_all(job: ImportJob) -> int:
    inputs = (*job.sources, *([job.suite] if job.suite is not None else []))
    try:
        suite = load_suite(job.suite) if job.suite is not None else None
        target = check_output(job.output, inputs)
    except ImportFailedError as error:
        _failed(job, error)
        return EXIT_USAGE
    except OutputRefusedError as error:
        _refused(job, error)
        return EXIT_USAGE
    try:
        sink = AtomicOutput(target, inputs)
    except OSError as error:
        _cannot_write(job, error)
        return EXIT_USAGE
    with sink:
        tally = job.importer.tally()
        with Progress(job.importer.unit, verb="read") as progress:
            failures = _import_each(job, sink, suite, progress, tally)
        if failures:
            sink.discard()
            failed = f"{len(failures)} of {len(job.sources)} {job.importer.noun}(s) failed"
            _error(job, f"{failed}; {output_name(job.output)} was not written")
            return exit_code_for(failures)
        try:
            sink.commit()
        except OutputRefusedError as error:
            _refused(job, error)
            return EXIT_USAGE
        except OSError as error:
            _cannot_write(job, error)
            return EXIT_USAGE
    sys.stderr.write(f"{job.prog}: {tally.summary(output_name(job.output))}\n")
    return EXIT_OK


def _import_each(
    job: ImportJob, sink: AtomicOutput, suite: EvalSuite | None, progress: Progress, tally: Tally
) -> list[ImportFailedError]:
    """Each source's Run as one line of ``sink``, counted in ``tally``; every failure is reported as it
    happens and returned."""
    failures: list[ImportFailedError] = []
    for source in job.sources:
        try:
            imported = job.importer.import_source(source, suite, progress.tick)
            for run in [imported] if isinstance(imported, Run) else imported:
                sink.write(orjson.dumps(run.model_dump(mode="json")) + b"\n")
                tally.add(run)
        except ImportFailedError as error:
            failures.append(error)
        except MemoryError:
            failures.append(
                UnreadableSourceError(source, f"the {job.importer.noun} does not fit in the memory available")
            )
        except Exception as error:  # a bug on one source: name it, import nothing, still try the others
            failures.append(_internal_error(source, error))
        else:
            continue
        _failed(job, failures[-1])
    return failures


class _InternalImportError(ImportFailedError):
    """evalscore met a bug of its own on this source: not a verdict on it."""

    exit_code: ClassVar[int] = EXIT_INTERNAL_ERROR


def _internal_error(source: str, error: Exception) -> ImportFailedError:
    if tracebacks_requested():
        traceback.print_exception(error, file=sys.stderr)
    summary = f"{type(error).__name__}: {error}".splitlines()[0][:300]
    return _InternalImportError(
        source, f"internal error ({summary}); this is a bug in evalscore, please report it (--traceback shows where)"
    )


def exit_code_for(failures: Iterable[ImportFailedError]) -> int:
    """70 when evalscore met a bug on any source, else 2 when any source could not be read at all,
    else 3 (read, but not mappable honestly)."""
    codes = {failure.exit_code for failure in failures}
    if EXIT_INTERNAL_ERROR in codes:
        return EXIT_INTERNAL_ERROR
    return EXIT_USAGE if EXIT_USAGE in codes else EXIT_INVALID_INPUT


def load_suite(path: str) -> EvalSuite:
    """The suite file as an ``EvalSuite``, read exactly as ``evalscore score --suite`` reads it.

    That is ``check_paths``: JSON or YAML by suffix, sniffed otherwise, strict JSON, the contract and
    the coherence layers, within ``MAX_SUITE_BYTES``. A suite that one command takes and the other
    refuses would let an import be checked against rules ``score`` never sees. ``UnreadableSourceError``
    gives the first error of an invalid suite in one line.
    """
    if os.path.isdir(path):  # score --suite walks a directory for suites; an import answers one suite
        raise UnreadableSourceError(path, "cannot read the suite: it is a directory, not a suite file")
    checked = list(check_paths([path], "eval-suite", keep_models=True, max_document_bytes=MAX_SUITE_BYTES))
    for artifact in checked:
        errors = [finding for finding in artifact.findings if finding.is_error]
        if errors:
            raise UnreadableSourceError(path, suite_refusal(errors))
    if len(checked) != 1 or not isinstance(checked[0].model, EvalSuite):
        raise UnreadableSourceError(path, f"the file holds {len(checked)} suites; an import answers exactly one")
    return checked[0].model


def suite_refusal(errors: list[Finding]) -> str:
    """The first error of a suite as one line, worded as ``evalscore validate`` words it, with how many follow."""
    first = errors[0]
    if first.code == TOO_LARGE:
        return f"the suite is larger than {MAX_SUITE_BYTES:,} bytes; a suite is a small authored file"
    if first.code == UNREADABLE:
        return f"cannot read the suite: {first.message}"
    line = f" (line {first.line})" if first.line is not None and f"line {first.line}" not in first.message else ""
    more = f" ({len(errors) - 1} more error(s): evalscore validate shows them all)" if len(errors) > 1 else ""
    return f"not a valid suite: {first.layer} {first.code} {first.pointer or '/'}: {first.message}{line}{more}"


def output_name(output: str) -> str:
    """The output as a message shows it: escaped, and standard output by that name."""
    return "standard output" if output == STDOUT else printable_path(output)


def _failed(job: ImportJob, error: ImportFailedError) -> None:
    # a reason may quote a value of the source: a hostile one of megabytes must not become the message
    _error(job, f"{printable_path(error.source)}: {shortened(error.reason, MESSAGE_LIMIT)}")


def _refused(job: ImportJob, error: OutputRefusedError) -> None:
    _error(job, f"{printable_path(error.target)}: {shortened(error.reason, MESSAGE_LIMIT)}")


def _cannot_write(job: ImportJob, error: OSError) -> None:
    _error(job, f"{output_name(job.output)}: cannot write: {printable(str(error.strerror or error))}")


def _error(job: ImportJob, message: str) -> None:
    """One line on stderr; every part taken from a source or a path is escaped by the caller."""
    sys.stderr.write(f"{job.prog}: {message}\n")
