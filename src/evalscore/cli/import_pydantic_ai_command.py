"""``evalscore import pydantic-ai``: persisted Pydantic AI histories to Run JSONL, one Run per file."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Final

import click

from evalscore.cli.common import traceback_option
from evalscore.cli.importing import ImportJob, import_max_bytes_option, output_option, run_import, suite_option
from evalscore.importers.pydantic_ai import DEFAULT_MAX_HISTORY_BYTES
from evalscore.importers.pydantic_ai.importer import PydanticAIImporter

PROG: Final = "evalscore import pydantic-ai"


@dataclass(frozen=True, slots=True)
class ImportPydanticAIOptions:
    """The parsed command line of ``evalscore import pydantic-ai``."""

    histories: tuple[str, ...]
    output: str
    approval_tools: tuple[str, ...]
    suite: str | None
    max_document_bytes: int = DEFAULT_MAX_HISTORY_BYTES


def run_import_pydantic_ai(options: ImportPydanticAIOptions) -> int:
    """Import every history file; write OUT only when all of them import. Returns the exit code."""
    importer = PydanticAIImporter(frozenset(options.approval_tools), options.max_document_bytes)
    return run_import(ImportJob(PROG, options.histories, options.output, options.suite, importer))


def _check_tools(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    for value in values:
        if not value.strip():
            raise click.BadParameter("a tool name cannot be empty")
    return values


@click.command("pydantic-ai")
@click.argument("histories", nargs=-1, required=True, type=click.Path())
@output_option(
    "The JSONL file to write, one Run per history file, or - for standard output; written only when every "
    "file imports. A symbolic link is written through; a device, FIFO, socket, directory or an input is refused."
)
@click.option(
    "--approval-tool",
    "approval_tools",
    multiple=True,
    callback=_check_tools,
    metavar="NAME",
    help="A tool declared requires_approval=True whose approvals the application gives only by resuming with "
    "deferred_tool_results (no HandleDeferredToolCalls handler); repeatable. A history records neither: a call "
    "of a named tool the run paused for becomes a gate, and no other call does.",
)
@suite_option(
    "The suite the histories answer (YAML or JSON): the run takes its id and version, and each step's "
    "auto score is re-derived against it under v3."
)
@import_max_bytes_option(
    DEFAULT_MAX_HISTORY_BYTES,
    "Largest history read into memory (a JSON file, or one line of a JSONL file); a larger one is refused. "
    "Mapping holds about 25 times a history's size at worst.",
)
@traceback_option
def pydantic_ai_command(
    histories: tuple[str, ...], output: str, approval_tools: tuple[str, ...], suite: str | None, max_document_bytes: int
) -> None:
    """Convert persisted Pydantic AI message histories to Runs, one JSON line per file.

    A file holds one history (a JSON array of messages, as ModelMessagesTypeAdapter
    writes it) or one per line (JSONL); each history is a task of one step. Calls
    of the tools named by --approval-tool that the run paused for become gates:
    approved when a resumed run holds the call's successful return, denied when it
    records a denial, unresolved when the call has no answer. A named call answered
    inside its own run, or decided where the history does not say how, refuses the
    history. Who decided and when are not in a history and stay null/empty; the
    args of an approved call are kept as requested in adapter.config (an override
    is not recorded), not as what ran.

    Exit 0 when every file imports, 2 on a usage error, when a file cannot be read
    or when OUT may not be written, 3 when a history cannot be mapped to a valid Run
    without inventing data, 70 on an internal error, 143 when ended by SIGTERM.
    """
    options = ImportPydanticAIOptions(histories, output, approval_tools, suite, max_document_bytes)
    sys.exit(run_import_pydantic_ai(options))
