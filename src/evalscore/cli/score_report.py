"""``evalscore score``'s report: the decision built from the summed partials, written where asked,
and recorded in the ledger.

Apart from the command because this is where the report's models, and pydantic, are needed: a
``score`` that scores checked dicts on forked workers imports this only once they have started
(``score_command._prepare_report``), so the workers do not wait for it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from evalscore.cli.html_page import write_html
from evalscore.cli.report_output import ReportDestination, render_and_deliver
from evalscore.collector import collector_paused
from evalscore.exit_codes import EXIT_USAGE
from evalscore.inputs.documents import InputRecord
from evalscore.ledger.append import LedgerRefusedError, append_decision, check_ledger
from evalscore.printable import printable, printable_path
from evalscore.reporters.registry import SCORE_REPORTERS
from evalscore.scoring.baseline import read_score_report
from evalscore.scoring.partials import PartialSum
from evalscore.scoring.report import InputRef, ScoreReport
from evalscore.scoring.report_builder import build_report

if TYPE_CHECKING:
    from evalscore.cli.score_options import ScoreOptions


def input_refs(records: list[tuple[InputRecord, set[str]]]) -> list[InputRef]:
    """Each input read, with its digest and the kinds of artifact found in it."""
    return [
        InputRef(path=record.path, sha256=record.sha256 or "", kind=",".join(sorted(kinds)) or "none")
        for record, kinds in records
    ]


def report_scores(
    options: ScoreOptions,
    total: PartialSum,
    rederived: bool,
    records: list[tuple[InputRecord, set[str]]],
    destination: ReportDestination,
) -> int:
    """Build the report of ``total`` (the runs' partials summed), write it, record the decision; the exit code."""
    baseline, baseline_record = read_score_report(options.baseline, options.max_document_bytes)
    with collector_paused():  # the report holds a row per target tool and per suite: acyclic, maybe large
        report = build_report(
            total.total(),
            rederived=rederived,
            scoring_model=options.scoring_model,
            thresholds=options.thresholds,
            baseline=baseline,
            signal_params=options.signal_params,
            inputs=[*input_refs(records), *([baseline_record] if baseline_record else [])],
            listed=options.listed,
        )
        if options.html is not None and not write_html(report, options.html, destination.inputs, "score"):
            return EXIT_USAGE
        read = [record.path for record, _ in records]
        look = (options.output_format, options.color, options.verbosity)
        if not render_and_deliver(destination, SCORE_REPORTERS, report, look, read):
            return EXIT_USAGE
        if options.ledger is not None and not _recorded(report, Path(options.ledger), read):
            return EXIT_USAGE
        return report.exit_code


def _recorded(report: ScoreReport, ledger: Path, read: list[str]) -> bool:
    """Append the decision to the ledger (after the report is written); False, with one line, when it is refused."""
    try:
        check_ledger(ledger, read)
        append_decision(ledger, report)
    except LedgerRefusedError as error:
        sys.stderr.write(f"evalscore score: the decision was not recorded: {printable(str(error))}\n")
        return False
    except OSError as error:
        sys.stderr.write(
            f"evalscore score: cannot append to {printable_path(str(ledger))}: {error.strerror or error}\n"
        )
        return False
    return True
