"""Options and helpers shared by the commands."""

from __future__ import annotations

import math
import shutil
import sys
from typing import IO, Any, Final

import click

from evalscore.artifact_kinds import ARTIFACT_KINDS
from evalscore.inputs.documents import DEFAULT_MAX_DOCUMENT_BYTES
from evalscore.inputs.paths import STDIN
from evalscore.reporters.registry import ReportStyle
from evalscore.validation.internal_error import request_tracebacks
from evalscore.validation.parallel import PARALLEL_MIN_BYTES

KIND_CHOICE: Final = click.Choice(list(ARTIFACT_KINDS))


class FiniteFloatRange(click.FloatRange):
    """A number in a range, and a number at all: ``nan`` passes every comparison a range makes,
    and ``inf`` is no threshold, so both are usage errors."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return super().convert(number, param, ctx)


RATE: Final = FiniteFloatRange(0.0, 1.0)
NON_NEGATIVE: Final = FiniteFloatRange(min=0.0)


def _request_tracebacks(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        request_tracebacks()


traceback_option = click.option(
    "--traceback",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_request_tracebacks,
    help="On an internal error (exit 70), also print the Python traceback, for a bug report.",
)

MAX_DOCUMENT_BYTES_CEILING: Final = 2**40
"""1 TiB: far beyond what fits in memory to parse, and small enough for every read call."""

max_document_bytes_option = click.option(
    "--max-document-bytes",
    type=click.IntRange(min=1, max=MAX_DOCUMENT_BYTES_CEILING),
    default=DEFAULT_MAX_DOCUMENT_BYTES,
    show_default=True,
    help="Largest JSON/YAML document or JSONL line read into memory (at most 2**40).",
)


jobs_option = click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=None,
    help=(
        f"Processes that share a long JSONL file ({PARALLEL_MIN_BYTES // 2**20} MiB or more; smaller inputs are "
        "read in this process): 1 starts no other process. [default: every usable core]"
    ),
)


def read_stdin_once(*path_groups: tuple[str, ...]) -> None:
    """A usage error when ``-`` is named more than once: stdin can be read only once, and a
    second reading would find it empty."""
    if sum(group.count(STDIN) for group in path_groups) > 1:
        raise click.UsageError("'-' (stdin) is named more than once; stdin can be read only once")


def stream_is_terminal(stream: IO[str]) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def report_style(output_format: str) -> ReportStyle:
    """Colour and the terminal's width on a terminal; plain text at a fixed width elsewhere."""
    if output_format == "text" and stream_is_terminal(sys.stdout):
        return ReportStyle(color=True, width=shutil.get_terminal_size((100, 24)).columns)
    return ReportStyle()


def write_out(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
