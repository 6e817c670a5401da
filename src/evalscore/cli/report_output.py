"""Where a command's report goes: standard output, or (``--output FILE``) a file written whole.

With ``--output``, the report in ``--format`` is written to the file atomically (``output_file``:
beside it, then renamed; never over a device, a FIFO or an input) and the text report still goes to
standard output, so one run can print text for a person and write JUnit or SARIF for the CI system.
``--output -`` is standard output itself, which then gets the report in ``--format`` alone. The
target is checked before any input is read: a report that could not be written is known at once.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from evalscore.cli.common import ColorChoice, report_style, write_out
from evalscore.inputs.paths import STDIN, classify
from evalscore.output_file import AtomicOutput, OutputRefusedError, OutputTarget, check_output
from evalscore.printable import printable_path
from evalscore.reporters.registry import ReportStyle

output_option = click.option(
    "-o",
    "--output",
    "output",
    default=None,
    metavar="FILE",
    help=(
        "Write the report in --format to FILE, whole or not at all (the text report still goes to standard "
        "output); - is standard output."
    ),
)


@dataclass(frozen=True, slots=True)
class ReportDestination:
    """A checked ``--output`` (``target`` None: no ``--output``) and the inputs it must never replace."""

    target: OutputTarget | None
    inputs: tuple[str, ...]


def report_destination(output: str | None, inputs: Iterable[str]) -> ReportDestination:
    """The destination of ``--output``; a usage error (exit 2, one line) when writing there would destroy
    something: a device, a FIFO, a directory, an input named, or a file a named directory holds that the
    command will read."""
    paths = tuple(inputs)
    if output is None:
        return ReportDestination(None, paths)
    try:
        target = check_output(output, paths)
        _refuse_a_walked_input(target, paths)
    except OutputRefusedError as error:
        raise click.UsageError(f"cannot write the report to {printable_path(error.target)}: {error.reason}") from None
    return ReportDestination(target, paths)


def _refuse_a_walked_input(target: OutputTarget, inputs: tuple[str, ...]) -> None:
    """A file that exists under a named directory with a suffix the walk reads is an input of this run."""
    real = target.path
    if real is None or not real.is_file() or classify(real.name) is None:
        return
    for path in inputs:
        directory = Path(os.path.realpath(path))
        if path != STDIN and directory.is_dir() and directory in real.parents:
            raise OutputRefusedError(target.name, f"is an input: {path} is read and holds it")


def deliver(destination: ReportDestination, rendered: str, text_report: Callable[[], str], read: Iterable[str]) -> bool:
    """Write ``rendered`` where it goes (and ``text_report()`` to standard output beside a file).
    ``read`` names every file the command read: none of them is replaced. False, with one line on
    stderr, when the file could not be written (nothing of it is left)."""
    target = destination.target
    if target is None or target.path is None:
        write_out(rendered)
        return True
    try:
        with AtomicOutput(target, (*destination.inputs, *read)) as sink:
            sink.write(rendered.encode())
            sink.commit()
    except (OutputRefusedError, OSError) as error:
        reason = error.reason if isinstance(error, OutputRefusedError) else (error.strerror or str(error))
        sys.stderr.write(f"evalscore: cannot write the report to {printable_path(target.name)}: {reason}\n")
        return False
    write_out(text_report())
    return True


def render_and_deliver(
    destination: ReportDestination,
    reporters: Mapping[str, Callable[[Any, ReportStyle], str]],
    value: Any,
    look: tuple[str, ColorChoice, int],
    read: Iterable[str],
) -> bool:
    """``value`` rendered in its ``--format`` (plain when it goes to a file) and delivered; beside a file,
    the text report on standard output. ``look`` is ``(--format, --color, verbosity)``. As ``deliver``."""
    output_format, color, verbosity = look
    plain = destination.target is not None
    rendered = reporters[output_format](
        value, ReportStyle() if plain else report_style(output_format, color, verbosity)
    )
    on_screen = report_style("text", color, verbosity)
    return deliver(destination, rendered, lambda: reporters["text"](value, on_screen), read)
