"""``evalscore import langgraph``: a LangGraph checkpoint store to Run JSONL, one Run per thread."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Final

import click

from evalscore.cli.common import traceback_option
from evalscore.cli.importing import ImportJob, import_max_bytes_option, output_option, run_import, suite_option
from evalscore.exit_codes import EXIT_USAGE
from evalscore.importers.langgraph_defaults import DEFAULT_MAX_VALUE_BYTES

PROG: Final = "evalscore import langgraph"
EXTRA_MODULES: Final = frozenset({"msgpack", "psycopg"})


@dataclass(frozen=True, slots=True)
class ImportLangGraphOptions:
    """The parsed command line of ``evalscore import langgraph``."""

    source: str
    output: str
    threads: tuple[str, ...]
    suite: str | None
    max_document_bytes: int = DEFAULT_MAX_VALUE_BYTES


def run_import_langgraph(options: ImportLangGraphOptions) -> int:
    """Import every thread (or those named); write OUT only when all of them import. Returns the exit code."""
    try:
        # here, not at the top: without the extra, every other command still runs, and this one says what to install
        from evalscore.importers.langgraph.importer import LangGraphImporter  # noqa: PLC0415
    except ModuleNotFoundError as error:
        if error.name not in EXTRA_MODULES:
            raise
        sys.stderr.write(
            f"{PROG}: reading a LangGraph store needs the extra 'langgraph': pip install 'evalscore[langgraph]'\n"
        )
        return EXIT_USAGE

    importer = LangGraphImporter(options.threads, options.max_document_bytes)
    return run_import(ImportJob(PROG, (options.source,), options.output, options.suite, importer))


def _check_threads(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    for value in values:
        if not value:
            raise click.BadParameter("a thread id cannot be empty")
    return values


@click.command("langgraph")
@click.argument("source", type=click.Path())
@output_option(
    "The JSONL file to write, one Run per thread, or - for standard output; written only when every thread "
    "imports. A symbolic link is written through; a device, FIFO, socket, directory or the store is refused."
)
@click.option(
    "--thread",
    "threads",
    multiple=True,
    callback=_check_threads,
    metavar="ID",
    help="Import only this thread; repeatable. Without it, every thread, in id order.",
)
@suite_option(
    "The suite the threads answer (YAML or JSON): each run takes its id and version, and each step's auto score "
    "is re-derived against it under v3."
)
@import_max_bytes_option(
    DEFAULT_MAX_VALUE_BYTES,
    "Largest stored value (a checkpoint, a write, a checkpoint's metadata) read into memory; a larger one "
    "refuses its thread.",
)
@traceback_option
def langgraph_command(
    source: str, output: str, threads: tuple[str, ...], suite: str | None, max_document_bytes: int
) -> None:
    """Convert the threads of a LangGraph checkpoint store to Runs.

    SOURCE is a SqliteSaver file or a PostgresSaver database's postgresql:// URL
    (libpq's forms, ?host=/socket/dir included).

    The store is opened read-only and never changed; nothing a stored value names
    is imported or run. Each thread's lineage (from its latest checkpoint back) is
    one Run of one step. A gate exists only where a review request was recorded
    (HumanInTheLoopMiddleware, batched or per_call, or an Agent Inbox HumanInterrupt):
    approve/accept and edit are approved (an edit's args are what ran), reject is
    denied, respond/response is answered (the tool did not run), ignore or no answer
    is unresolved. A decision type, an interrupt or a marker the importer
    cannot square with the resume writes refuses the thread. Who decided and when
    are not recorded: the only time a gate carries is an upper bound on its decision
    latency (the next checkpoint's ts minus the paused one's).

    Exit 0 when every thread imports, 2 on a usage error, when the store cannot be
    read or when OUT may not be written, 3 when a thread cannot be mapped to a valid
    Run without inventing data, 70 on an internal error, 143 when ended by SIGTERM.
    """
    options = ImportLangGraphOptions(source, output, threads, suite, max_document_bytes)
    sys.exit(run_import_langgraph(options))
