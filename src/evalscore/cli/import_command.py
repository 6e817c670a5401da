"""``evalscore import inspect``: Inspect AI logs to Run JSONL, written atomically; exit 0/2/3."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Final

import click
import orjson
import yaml
from pydantic import ValidationError

from evalscore.importers.inspect import (
    AUTOMATIC_APPROVERS,
    DEFAULT_HUMAN_APPROVERS,
    InspectImportError,
    UnreadableLogError,
    import_inspect_log,
)
from evalscore.inputs.yaml_loader import load_yaml
from evalscore.models import EvalSuite, Run

EXIT_OK: Final = 0
EXIT_UNREADABLE: Final = 2
EXIT_UNMAPPABLE: Final = 3
PROG: Final = "evalscore import inspect"


@dataclass(frozen=True, slots=True)
class ImportInspectOptions:
    """The parsed command line of ``evalscore import inspect``."""

    logs: tuple[str, ...]
    output: str
    human_approvers: tuple[str, ...]
    suite: str | None


@dataclass(frozen=True, slots=True)
class _Tally:
    runs: int = 0
    gates: int = 0
    automatic: int = 0


def run_import_inspect(options: ImportInspectOptions) -> int:
    """Import every log; write OUT only when all of them import. Returns the exit code."""
    humans = frozenset(options.human_approvers or DEFAULT_HUMAN_APPROVERS)
    try:
        suite = load_suite(options.suite) if options.suite is not None else None
    except InspectImportError as error:
        _error(str(error))
        return EXIT_UNREADABLE
    try:
        sink = _AtomicJsonl(Path(options.output))
    except OSError as error:
        _error(f"{options.output}: cannot write: {error.strerror or error}")
        return EXIT_UNREADABLE
    failures: list[InspectImportError] = []
    tally = _Tally()
    with sink:
        for log in options.logs:
            try:
                run = import_inspect_log(log, human_approvers=humans, suite=suite)
            except InspectImportError as error:
                failures.append(error)
                _error(str(error))
                continue
            sink.write(orjson.dumps(run.model_dump(mode="json")) + b"\n")
            tally = _count(tally, run)
        if failures:
            sink.discard()
            _error(f"{len(failures)} of {len(options.logs)} log(s) failed; {options.output} was not written")
            return exit_code_for(failures)
        try:
            sink.commit()
        except OSError as error:
            _error(f"{options.output}: cannot write: {error.strerror or error}")
            return EXIT_UNREADABLE
    _report(options.output, tally)
    return EXIT_OK


def exit_code_for(failures: Iterable[InspectImportError]) -> int:
    """2 when any log could not be read at all, else 3 (read, but not mappable honestly)."""
    codes = {failure.exit_code for failure in failures}
    return EXIT_UNREADABLE if EXIT_UNREADABLE in codes else EXIT_UNMAPPABLE


def load_suite(path: str) -> EvalSuite:
    """The suite file (YAML or JSON) as an ``EvalSuite``; ``UnreadableLogError`` names the reason in one line."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise UnreadableLogError(path, f"cannot read the suite: {error.strerror or error}") from error
    try:
        value = load_yaml(data)
    except (yaml.YAMLError, ValueError) as error:  # ValueError: bad encoding, alias bomb
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise UnreadableLogError(path, f"the suite is not valid YAML or JSON: {reason}") from error
    try:
        return EvalSuite.model_validate(value)
    except ValidationError as error:
        first = error.errors()[0]
        where = "/".join(str(part) for part in first["loc"]) or "(root)"
        raise UnreadableLogError(path, f"not a valid suite: {where}: {first['msg']}") from error


def _count(tally: _Tally, run: Run) -> _Tally:
    automatic = run.adapter.config.get("automatic_approvals")
    return _Tally(
        runs=tally.runs + 1,
        gates=tally.gates + sum(len(step.gate_events) for task in run.task_results for step in task.step_results),
        automatic=tally.automatic + (len(automatic) if isinstance(automatic, list) else 0),
    )


def _report(output: str, tally: _Tally) -> None:
    sys.stderr.write(
        f"{PROG}: wrote {tally.runs} run(s) to {output}: {tally.gates} gate event(s) from approvers counted as "
        f"human, {tally.automatic} automatic approval chain(s) kept in adapter.config; opened_at, "
        "decision_latency_ms and overseers are not recorded by Inspect and are left null/empty\n"
    )


def _error(message: str) -> None:
    sys.stderr.write(f"{PROG}: {message}\n")


class _AtomicJsonl:
    """Lines go to a temporary file beside the target; ``commit`` renames it into place, else it is removed."""

    def __init__(self, target: Path) -> None:
        self._target = target
        directory = target.parent if str(target.parent) else Path()
        handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
        self._temp = Path(name)
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(handle, 0o666 & ~umask)  # as an ordinary new file would be, not mkstemp's 0600
        self._file: IO[bytes] = os.fdopen(handle, "wb")
        self._done = False

    def __enter__(self) -> _AtomicJsonl:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._done:
            self.discard()

    def write(self, line: bytes) -> None:
        self._file.write(line)

    def commit(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
        os.replace(self._temp, self._target)
        self._done = True

    def discard(self) -> None:
        self._file.close()
        with contextlib.suppress(FileNotFoundError):
            self._temp.unlink()
        self._done = True


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
@click.argument("logs", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False, writable=True),
    help="The JSONL file to write, one Run per log; written only when every log imports.",
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
    type=click.Path(dir_okay=False),
    default=None,
    help="The suite the logs answer (YAML or JSON); checked here, scores are re-derived by `evalscore score`.",
)
def inspect_command(logs: tuple[str, ...], output: str, human_approvers: tuple[str, ...], suite: str | None) -> None:
    """Convert Inspect AI logs (.eval or .json) to Runs, one JSON line per log.

    Each approval chain that consulted a human approver becomes a gate event:
    its decision time is kept, while the time it opened, its latency and the
    deciding persons are not in an Inspect log and stay null/empty. Chains
    decided by automatic approvers alone are not gates; they are listed in
    adapter.config.automatic_approvals. Steps carry auto_score null.

    Exit 0 when every log imports, 2 on a usage error or when a log cannot be
    read, 3 when a log cannot be mapped to a valid Run without inventing data.
    """
    sys.exit(run_import_inspect(ImportInspectOptions(logs, output, human_approvers, suite)))
