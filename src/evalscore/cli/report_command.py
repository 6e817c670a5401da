"""``evalscore report SCORE.json -o report.html``: the HTML page of a score report.

The JSON report is read back as a baseline is (within ``--max-document-bytes``, strict JSON,
checked against its published schema and against its own counts) before anything is drawn from
it; the page is written whole or not at all (``output_file``). Exit 0 when the page is
written, 2 when the report cannot be read or believed, the page cannot be written, or matplotlib
(the ``html`` extra) is not installed. The score's own outcome is on the page, not in the exit code.
"""

from __future__ import annotations

import sys

import click

from evalscore.cli.common import max_document_bytes_option, traceback_option
from evalscore.cli.html_page import write_html, write_text
from evalscore.exit_codes import EXIT_OK, EXIT_USAGE
from evalscore.printable import printable
from evalscore.reporters.registry import SCORE_REPORTERS, ReportStyle
from evalscore.scoring.baseline import read_score_report
from evalscore.scoring.report import ScoreReport


@click.command("report")
@click.argument("score_report", metavar="SCORE.json")
@click.option(
    "-o", "--output", required=True, metavar="FILE", help="Where to write it (whole or not at all); - is stdout."
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["html", *sorted(SCORE_REPORTERS)]),
    default="html",
    show_default=True,
    help="html, or any format of evalscore score (a CI step renders one saved report several ways).",
)
@max_document_bytes_option
@traceback_option
def report_command(score_report: str, output: str, output_format: str, max_document_bytes: int) -> None:
    """Write the HTML page (or another format) of a score report (evalscore score --format json).

    One self-contained file: the decision and why, each rate with its counts and a bar,
    approval requests per target tool, the distribution of observed approval latencies
    against the fast-approval floor (unknown latencies counted beside, never drawn as
    zero), who decided, the refusals and disagreements with their JSON Pointers. The page
    loads nothing from anywhere. Exit 0 when it is written, 2 when the report cannot be
    read or believed or the page cannot be written.
    """
    report, _ = read_score_report(score_report, max_document_bytes, what="score report")
    if not isinstance(report, ScoreReport):
        sys.stderr.write(f"evalscore report: {printable(report or 'no report given')}\n")
        sys.exit(EXIT_USAGE)
    if output_format == "html":
        sys.exit(EXIT_OK if write_html(report, output, (score_report,), "report") else EXIT_USAGE)
    rendered = SCORE_REPORTERS[output_format](report, ReportStyle())
    sys.exit(EXIT_OK if write_text(rendered, output, (score_report,), "report") else EXIT_USAGE)
