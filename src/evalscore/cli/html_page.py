"""A rendered score report written whole or not at all: the HTML page (``evalscore report``, ``score --html``)
or another format of ``evalscore report``."""

from __future__ import annotations

import sys

from evalscore.output_file import AtomicOutput, OutputRefusedError, check_output
from evalscore.printable import printable_path
from evalscore.reporters._plots import PlottingUnavailableError
from evalscore.scoring.report import ScoreReport


def write_html(report: ScoreReport, output: str, inputs: tuple[str, ...], command: str) -> bool:
    """Render ``report`` as its HTML page and write it to ``output``; False, with one line on stderr, when it
    could not be (matplotlib missing, or the target refused or not writable)."""
    from evalscore.reporters.score_html import render_score_html  # noqa: PLC0415 - only this page needs it

    try:
        page = render_score_html(report)
    except PlottingUnavailableError as error:
        sys.stderr.write(f"evalscore {command}: {error}\n")
        return False
    return write_text(page, output, inputs, command)


def write_text(text: str, output: str, inputs: tuple[str, ...], command: str) -> bool:
    """Write ``text`` to ``output`` (``-``: stdout), whole or not at all; False, with one line on stderr, when
    the target is refused or cannot be written."""
    try:
        target = check_output(output, inputs)
        with AtomicOutput(target, inputs) as sink:
            sink.write(text.encode())
            sink.commit()
    except OutputRefusedError as error:
        sys.stderr.write(f"evalscore {command}: cannot write {printable_path(error.target)}: {error.reason}\n")
        return False
    except OSError as error:
        sys.stderr.write(f"evalscore {command}: cannot write {printable_path(output)}: {error.strerror or error}\n")
        return False
    return True
