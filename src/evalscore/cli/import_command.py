"""``evalscore import``: the command group, and ``import inspect`` (Inspect AI logs to Run JSONL).

How every import runs (atomic output, progress, failures, exit codes) is ``evalscore.cli.importing``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Final

import click

from evalscore.cli.common import traceback_option
from evalscore.cli.import_langgraph_command import langgraph_command
from evalscore.cli.import_pydantic_ai_command import pydantic_ai_command
from evalscore.cli.importing import ImportJob, import_max_bytes_option, output_option, run_import, suite_option
from evalscore.importers.inspect import AUTOMATIC_APPROVERS, DEFAULT_HUMAN_APPROVERS
from evalscore.importers.inspect.importer import InspectImporter
from evalscore.inputs.documents import DEFAULT_MAX_DOCUMENT_BYTES

PROG: Final = "evalscore import inspect"


@dataclass(frozen=True, slots=True)
class ImportInspectOptions:
    """The parsed command line of ``evalscore import inspect``."""

    logs: tuple[str, ...]
    output: str
    human_approvers: tuple[str, ...]
    suite: str | None
    max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES


def run_import_inspect(options: ImportInspectOptions) -> int:
    """Import every log; write OUT only when all of them import. Returns the exit code."""
    humans = frozenset(options.human_approvers or DEFAULT_HUMAN_APPROVERS)
    importer = InspectImporter(humans, options.max_document_bytes)
    return run_import(ImportJob(PROG, options.logs, options.output, options.suite, importer))


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
@output_option(
    "The JSONL file to write, one Run per log, or - for standard output; written only when every log "
    "imports. A symbolic link is written through to the file it names; a device, FIFO, socket, directory "
    "or one of the inputs is refused."
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
@suite_option("The suite the logs answer (YAML or JSON): each step's auto score is re-derived against it under v3.")
@import_max_bytes_option(
    DEFAULT_MAX_DOCUMENT_BYTES,
    "Largest member of a .eval log (its header or one sample) decompressed into memory; a member "
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


import_group.add_command(pydantic_ai_command)
import_group.add_command(langgraph_command)
