"""The HTML page of a score report, written whole or not at all (``evalscore report``, ``score --html``)."""

from __future__ import annotations

import sys

from evalscore.cli.output_file import AtomicOutput, OutputRefusedError, check_output
from evalscore.printable import printable_path
from evalscore.reporters._plots import PlottingUnavailableError
from evalscore.scoring.report import ScoreReport


def write_html(report: ScoreReport, output: str, inputs: tuple[str, ...], command: str) -> bool:
    """Render ``report`` and write it to ``output``; False, with one line on stderr, when it could not be."""
    from evalscore.reporters.score_html import render_score_html  # noqa: PLC0415 - only this page needs it

    try:
        target = check_output(output, inputs)
        page = render_score_html(report)
        with AtomicOutput(target, inputs) as sink:
            sink.write(page.encode())
            sink.commit()
    except PlottingUnavailableError as error:
        sys.stderr.write(f"evalscore {command}: {error}\n")
        return False
    except OutputRefusedError as error:
        sys.stderr.write(f"evalscore {command}: cannot write {printable_path(error.target)}: {error.reason}\n")
        return False
    except OSError as error:
        sys.stderr.write(f"evalscore {command}: cannot write {printable_path(output)}: {error.strerror or error}\n")
        return False
    return True
