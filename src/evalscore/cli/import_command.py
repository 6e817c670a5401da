"""``evalscore import inspect``: Inspect AI logs to Run JSONL, written atomically; exit 0/2/3 (143 on SIGTERM)."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Final

import click
import orjson

from evalscore.cli.common import MAX_DOCUMENT_BYTES_CEILING, traceback_option
from evalscore.cli.output_file import (
    EXIT_TERMINATED,
    STDOUT,
    AtomicOutput,
    OutputRefusedError,
    Terminated,
    check_output,
    sigterm_raises,
)
from evalscore.cli.progress import Progress
from evalscore.findings import Finding
from evalscore.importers.inspect import (
    AUTOMATIC_APPROVERS,
    DEFAULT_HUMAN_APPROVERS,
    InspectImportError,
    UnreadableLogError,
    import_inspect_log,
)
from evalscore.inputs.documents import DEFAULT_MAX_DOCUMENT_BYTES, TOO_LARGE, UNREADABLE
from evalscore.models import EvalSuite, Run
from evalscore.printable import printable, printable_path
from evalscore.validation.internal_error import EXIT_INTERNAL_ERROR, tracebacks_requested
from evalscore.validation.pipeline import check_paths

EXIT_OK: Final = 0
EXIT_UNREADABLE: Final = 2
EXIT_UNMAPPABLE: Final = 3
PROG: Final = "evalscore import inspect"
MAX_SUITE_BYTES: Final = 16 * 1024 * 1024
"""A suite is authored by hand; more than this is not one (and is not read into memory to find out)."""


@dataclass(frozen=True, slots=True)
class ImportInspectOptions:
    """The parsed command line of ``evalscore import inspect``."""

    logs: tuple[str, ...]
    output: str
    human_approvers: tuple[str, ...]
    suite: str | None
    max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES


@dataclass(frozen=True, slots=True)
class _Tally:
    runs: int = 0
    gates: int = 0
    automatic: int = 0
    superseded: int = 0


def run_import_inspect(options: ImportInspectOptions) -> int:
    """Import every log; write OUT only when all of them import. Returns the exit code.

    SIGTERM while importing ends the import with exit 143, the temporary file removed.
    """
    with sigterm_raises():
        try:
            return _import_all(options)
        except Terminated:
            _error(f"terminated (SIGTERM); {printable_path(options.output)} was not written")
            return EXIT_TERMINATED


def _import_all(options: ImportInspectOptions) -> int:
    humans = frozenset(options.human_approvers or DEFAULT_HUMAN_APPROVERS)
    inputs = (*options.logs, *([options.suite] if options.suite is not None else []))
    try:
        suite = load_suite(options.suite) if options.suite is not None else None
        target = check_output(options.output, inputs)
    except InspectImportError as error:
        _failed(error)
        return EXIT_UNREADABLE
    except OutputRefusedError as error:
        _refused(error)
        return EXIT_UNREADABLE
    try:
        sink = AtomicOutput(target, inputs)
    except OSError as error:
        _cannot_write(options.output, error)
        return EXIT_UNREADABLE
    with sink:
        tally, failures = _import_into(sink, options.logs, humans, suite, options.max_document_bytes)
        if failures:
            sink.discard()
            _error(
                f"{len(failures)} of {len(options.logs)} log(s) failed; {_output_name(options.output)} was not written"
            )
            return exit_code_for(failures)
        try:
            sink.commit()
        except OutputRefusedError as error:
            _refused(error)
            return EXIT_UNREADABLE
        except OSError as error:
            _cannot_write(options.output, error)
            return EXIT_UNREADABLE
    _report(_output_name(options.output), tally)
    return EXIT_OK


def _import_into(
    sink: AtomicOutput, logs: Iterable[str], humans: frozenset[str], suite: EvalSuite | None, max_member_bytes: int
) -> tuple[_Tally, list[InspectImportError]]:
    """Each log's Run as one line of ``sink``; every failure is reported as it happens and returned."""
    with Progress("samples", verb="read") as progress:
        return _import_each(sink, logs, humans, suite, max_member_bytes, progress)


def _import_each(
    sink: AtomicOutput,
    logs: Iterable[str],
    humans: frozenset[str],
    suite: EvalSuite | None,
    max_member_bytes: int,
    progress: Progress,
) -> tuple[_Tally, list[InspectImportError]]:
    failures: list[InspectImportError] = []
    tally = _Tally()
    for log in logs:
        try:
            run = import_inspect_log(
                log, human_approvers=humans, suite=suite, max_member_bytes=max_member_bytes, on_sample=progress.tick
            )
        except InspectImportError as error:
            failures.append(error)
            _failed(error)
            continue
        except MemoryError:
            failures.append(UnreadableLogError(log, "the log does not fit in the memory available"))
            _failed(failures[-1])
            continue
        except Exception as error:  # a bug on one log: name it, import nothing, still try the others
            failures.append(_internal_error(log, error))
            _failed(failures[-1])
            continue
        sink.write(orjson.dumps(run.model_dump(mode="json")) + b"\n")
        tally = _count(tally, run)
    return tally, failures


class _InternalImportError(InspectImportError):
    """evalscore met a bug of its own on this log: not a verdict on the log."""

    exit_code: ClassVar[int] = EXIT_INTERNAL_ERROR


def _internal_error(log: str, error: Exception) -> InspectImportError:
    if tracebacks_requested():
        traceback.print_exception(error, file=sys.stderr)
    summary = f"{type(error).__name__}: {error}".splitlines()[0][:300]
    return _InternalImportError(
        log, f"internal error ({summary}); this is a bug in evalscore, please report it (--traceback shows where)"
    )


def exit_code_for(failures: Iterable[InspectImportError]) -> int:
    """70 when evalscore met a bug on any log, else 2 when any log could not be read at all,
    else 3 (read, but not mappable honestly)."""
    codes = {failure.exit_code for failure in failures}
    if EXIT_INTERNAL_ERROR in codes:
        return EXIT_INTERNAL_ERROR
    return EXIT_UNREADABLE if EXIT_UNREADABLE in codes else EXIT_UNMAPPABLE


def load_suite(path: str) -> EvalSuite:
    """The suite file as an ``EvalSuite``, read exactly as ``evalscore score --suite`` reads it.

    That is ``check_paths``: JSON or YAML by suffix, sniffed otherwise, strict JSON, the contract and
    the coherence layers, within ``MAX_SUITE_BYTES``. A suite that one command takes and the other
    refuses would let an import be checked against rules ``score`` never sees. ``UnreadableLogError``
    gives the first error of an invalid suite in one line.
    """
    if os.path.isdir(path):  # score --suite walks a directory for suites; an import answers one suite
        raise UnreadableLogError(path, "cannot read the suite: it is a directory, not a suite file")
    checked = list(check_paths([path], "eval-suite", keep_models=True, max_document_bytes=MAX_SUITE_BYTES))
    for artifact in checked:
        errors = [finding for finding in artifact.findings if finding.is_error]
        if errors:
            raise UnreadableLogError(path, suite_refusal(errors))
    if len(checked) != 1 or not isinstance(checked[0].model, EvalSuite):
        raise UnreadableLogError(path, f"the file holds {len(checked)} suites; an import answers exactly one")
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


def _count(tally: _Tally, run: Run) -> _Tally:
    return _Tally(
        runs=tally.runs + 1,
        gates=tally.gates + sum(len(step.gate_events) for task in run.task_results for step in task.step_results),
        automatic=tally.automatic + _listed(run, "automatic_approvals"),
        superseded=tally.superseded + sum(entry["superseded_entries"] for entry in _entries(run, "superseded_members")),
    )


def _entries(run: Run, key: str) -> list[dict[str, Any]]:
    value = run.adapter.config.get(key)
    return [entry for entry in value if isinstance(entry, dict)] if isinstance(value, list) else []


def _listed(run: Run, key: str) -> int:
    value = run.adapter.config.get(key)
    return len(value) if isinstance(value, list) else 0


def _report(output: str, tally: _Tally) -> None:
    superseded = (
        f"; {tally.superseded} superseded sample member entr{'y' if tally.superseded == 1 else 'ies'} "
        "skipped (the last entry of a name is read, as Inspect reads it; listed in adapter.config.superseded_members)"
        if tally.superseded
        else ""
    )
    sys.stderr.write(
        f"{PROG}: wrote {tally.runs} run(s) to {output}: {tally.gates} gate event(s) from approvers counted as "
        f"human, {tally.automatic} automatic approval chain(s) kept in adapter.config; opened_at, "
        f"decision_latency_ms and overseers are not recorded by Inspect and are left null/empty{superseded}\n"
    )


def _output_name(output: str) -> str:
    """The output as a message shows it: escaped, and standard output by that name."""
    return "standard output" if output == STDOUT else printable_path(output)


def _failed(error: InspectImportError) -> None:
    _error(f"{printable_path(error.source)}: {printable(error.reason)}")


def _refused(error: OutputRefusedError) -> None:
    _error(f"{printable_path(error.target)}: {printable(error.reason)}")


def _cannot_write(output: str, error: OSError) -> None:
    _error(f"{_output_name(output)}: cannot write: {printable(str(error.strerror or error))}")


def _error(message: str) -> None:
    """One line on stderr; every part taken from a log or a path is escaped by the caller."""
    sys.stderr.write(f"{PROG}: {message}\n")


def _check_approvers(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    for value in values:
        if value in AUTOMATIC_APPROVERS:
            raise click.BadParameter(f"{value!r} is one of Inspect's automatic approvers; it never stands for a person")
        if not value.strip():
            raise click.BadParameter("an approver name cannot be empty")
    return values


@click.group("import")
def import_group() -> None:
    """Import other tools' logs as evalscore runs."""


@import_group.command("inspect")
@click.argument("logs", nargs=-1, required=True, type=click.Path())
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(allow_dash=True, readable=False),
    metavar="OUT",
    help="The JSONL file to write, one Run per log, or - for standard output; written only when every log "
    "imports. A symbolic link is written through to the file it names; a device, FIFO, socket, directory "
    "or one of the inputs is refused.",
)
@click.option(
    "--human-approver",
    "human_approvers",
    multiple=True,
    callback=_check_approvers,
    metavar="NAME",
    help="An Inspect approver whose involvement means control returned to a person (repeatable; "
    "default: human). 'auto' and 'policy' are never accepted.",
)
@click.option(
    "--suite",
    type=click.Path(),
    default=None,
    help="The suite the logs answer (YAML or JSON): each step's auto score is re-derived against it under v3.",
)
@click.option(
    "--max-document-bytes",
    type=click.IntRange(min=1, max=MAX_DOCUMENT_BYTES_CEILING),
    default=DEFAULT_MAX_DOCUMENT_BYTES,
    show_default=True,
    help="Largest member of a .eval log (its header or one sample) decompressed into memory; a member "
    "declaring more is refused before it is decompressed (at most 2**40).",
)
@traceback_option
def inspect_command(
    logs: tuple[str, ...], output: str, human_approvers: tuple[str, ...], suite: str | None, max_document_bytes: int
) -> None:
    """Convert Inspect AI logs (.eval or .json) to Runs, one JSON line per log.

    Each approval chain that consulted a human approver becomes a gate event:
    its decision time is kept, while the time it opened, its latency and the
    deciding persons are not in an Inspect log and stay null/empty. Chains
    decided by automatic approvers alone are not gates; they are listed in
    adapter.config.automatic_approvals. Without --suite steps carry auto_score
    null (a log holds no policy saying which calls needed a gate); with it each
    step's auto score is re-derived from the evidence under v3.

    OUT is written to a temporary file beside it and renamed into place, so it
    is never half-written; with -o - the lines go to standard output, and only
    once every log imported. A symbolic link at OUT is written through: the
    file it names is replaced and the link stays a link.

    Exit 0 when every log imports, 2 on a usage error, when a log cannot be
    read or when OUT may not be written, 3 when a log cannot be mapped to a
    valid Run without inventing data, 70 on an internal error (a bug; the
    other logs are still tried), 143 when ended by SIGTERM.
    """
    sys.exit(run_import_inspect(ImportInspectOptions(logs, output, human_approvers, suite, max_document_bytes)))
