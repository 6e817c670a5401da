"""``evalscore score``'s report: the decision built from the summed partials, written where asked,
and recorded in the ledger; and an earlier report read back (``--baseline``, ``evalscore report``).

Apart from the command because this is where the report's models, and pydantic, are needed: a
``score`` that scores checked dicts on forked workers imports this only once they have started
(``score_command._prepare_report``), so the workers do not wait for it.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Final

from pydantic import ValidationError

from evalscore.cli.common import report_style
from evalscore.cli.html_page import write_html
from evalscore.cli.report_output import ReportDestination, deliver
from evalscore.collector import collector_paused
from evalscore.inputs.documents import Document, InputRecord, read_file_documents
from evalscore.inputs.paths import expand_paths
from evalscore.ledger.append import LedgerRefusedError, append_decision, check_ledger
from evalscore.printable import printable, printable_path
from evalscore.reporters.registry import SCORE_REPORTERS, ReportStyle
from evalscore.scoring.partials import PartialSum
from evalscore.scoring.report import InputRef, ScoreReport, parse_report, rate_count_mismatches
from evalscore.scoring.report_builder import build_report
from evalscore.validation.contract_layer import report_findings
from evalscore.version import __version__

if TYPE_CHECKING:
    from evalscore.cli.score_command import ScoreOptions

EXIT_USAGE: Final = 2


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
        to_file = destination.target is not None
        rendered = SCORE_REPORTERS[options.output_format](
            report, ReportStyle() if to_file else report_style(options.output_format, options.color, options.verbosity)
        )
        text = SCORE_REPORTERS["text"]
        read = [record.path for record, _ in records]
        on_screen = report_style("text", options.color, options.verbosity)
        if not deliver(destination, rendered, lambda: text(report, on_screen), read):
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


def read_score_report(
    path: str | None, limit: int, what: str = "baseline"
) -> tuple[ScoreReport | str | None, InputRef | None]:
    """An earlier report (or why it cannot be believed: for a baseline the decision is then refused),
    and its input record: the decision depends on it, so the report names its bytes.

    A report read back is input like any other: read within ``limit``, with the strict JSON
    reader, and checked against the published score-report schema before it is believed.
    ``what`` names it in the reasons (a ``baseline``, the ``score report`` of ``evalscore report``).
    """
    if path is None:
        return None, None
    (file,) = expand_paths([path])
    documents, record_of = read_file_documents(dataclasses.replace(file, format="json"), limit)
    document = next(item for item in documents if isinstance(item, Document))
    for _ in documents:  # the reader ends after its one document; consuming it completes the record
        pass
    record = record_of()
    ref = (
        InputRef(path=record.path, sha256=record.sha256, kind="baseline") if record.complete and record.sha256 else None
    )
    where = f"{what} {record.path}"
    if document.syntax is not None:
        return f"{where}: {document.syntax.message}", ref
    problem = next(report_findings(document.value), None)
    if problem is not None:
        return f"{where}: not an evalscore score report: {problem.message}", ref
    newer = _newer_version(document.value.get("evalscore_version"))
    if newer is not None:
        return f"{where}: written by evalscore {newer}, newer than this {__version__}; its rules may differ", ref
    try:
        report = parse_report(document.value)
    except ValidationError as error:
        return f"{where}: not an evalscore score report ({error.error_count()} problem(s))", ref
    mismatch = next(iter(rate_count_mismatches(report)), None)
    if mismatch is not None:
        return f"{where}: its rates disagree with its own counts ({mismatch}); it was not written by evalscore", ref
    return report, ref


_VERSION: Final = re.compile(r"([0-9]+)\.([0-9]+)\.([0-9]+)(-)?")


def _version_key(version: str) -> tuple[int, int, int, int]:
    """Sortable: a pre-release (``0.1.0-rc1``) comes before its release, build metadata counts for nothing."""
    found = _VERSION.match(version)
    if found is None:  # the published schema's pattern has been checked before
        return (0, 0, 0, 0)
    major, minor, patch, pre_release = found.groups()
    return int(major), int(minor), int(patch), 0 if pre_release else 1


def _newer_version(version: object) -> str | None:
    """The baseline's evalscore version when it is newer than this one (its figures may follow rules unknown here)."""
    if isinstance(version, str) and _version_key(version) > _version_key(__version__):
        return version
    return None
