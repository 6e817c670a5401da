"""Options and helpers shared by the commands."""

from __future__ import annotations

import math
import os
import shutil
import sys
from typing import IO, Any, Final, Literal

import click

from evalscore.artifact_kinds import ARTIFACT_KINDS
from evalscore.inputs.documents import DEFAULT_MAX_DOCUMENT_BYTES
from evalscore.inputs.paths import STDIN
from evalscore.reporters.registry import ReportStyle
from evalscore.running.parallel import PARALLEL_MIN_BYTES
from evalscore.validation.internal_error import request_tracebacks

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
CONFIDENCE: Final = FiniteFloatRange(0.0, 0.999999, min_open=True)  # six nines: beyond, the heading would read 100%
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


class ByteCount(click.IntRange):
    """A number of bytes, from 1 to ``MAX_DOCUMENT_BYTES_CEILING``; help shows the range in MiB and TiB."""

    name = "bytes"

    def __init__(self) -> None:
        super().__init__(min=1, max=MAX_DOCUMENT_BYTES_CEILING)

    def _describe_range(self) -> str:
        return "1 byte to 1 TiB"


max_document_bytes_option = click.option(
    "--max-document-bytes",
    type=ByteCount(),
    default=DEFAULT_MAX_DOCUMENT_BYTES,
    show_default=f"{DEFAULT_MAX_DOCUMENT_BYTES // 2**20} MiB",
    metavar="BYTES",
    help="Largest JSON/YAML document or JSONL line read into memory, in bytes.",
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


ColorChoice = Literal["auto", "always", "never"]
DEFAULT_WIDTH: Final = 100
"""The width of a text report written anywhere but a terminal, when ``COLUMNS`` says none."""


def colour_wanted(choice: ColorChoice, stream: IO[str]) -> bool:
    """``--color always`` or ``never`` as said; ``auto``: not when ``NO_COLOR`` is set (https://no-color.org),
    yes when ``FORCE_COLOR`` is, else only on a terminal. An empty variable counts as unset."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return stream_is_terminal(stream)


def report_width(stream: IO[str]) -> int:
    """``COLUMNS`` when it holds a width, else the terminal's, else ``DEFAULT_WIDTH``."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and 20 <= int(columns) <= 10_000:
        return int(columns)
    if stream_is_terminal(stream):
        return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
    return DEFAULT_WIDTH


def report_style(output_format: str, color: ColorChoice = "auto", verbosity: int = 0) -> ReportStyle:
    """How the report on standard output looks: colour and width matter to the text format only."""
    if output_format != "text":
        return ReportStyle(verbosity=verbosity)
    return ReportStyle(color=colour_wanted(color, sys.stdout), width=report_width(sys.stdout), verbosity=verbosity)


color_option = click.option(
    "--color",
    "color",
    type=click.Choice(["auto", "always", "never"]),
    default="auto",
    show_default=True,
    help="Colour the text report: auto colours on a terminal, unless NO_COLOR is set (FORCE_COLOR forces it).",
)


def verbosity_options(command: Any) -> Any:
    """``-q/--quiet`` (only the outcome) and ``-v/--verbose`` (a line for everything checked)."""
    quiet = click.option("-q", "--quiet", is_flag=True, help="Print only the outcome line(s).")
    verbose = click.option("-v", "--verbose", is_flag=True, help="Also print a line for everything checked.")
    return quiet(verbose(command))


def verbosity_of(quiet: bool, verbose: bool) -> int:
    """-1 for ``-q``, 1 for ``-v``, 0 for neither; both at once is a usage error."""
    if quiet and verbose:
        raise click.UsageError("-q/--quiet and -v/--verbose cannot be given together")
    return -1 if quiet else int(verbose)


def write_out(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()
