"""An earlier score report read back (``--baseline``, ``evalscore report``): read as any input is,
and believed only when it is one this evalscore could have written."""

from __future__ import annotations

import dataclasses
import re
from typing import Final

from pydantic import ValidationError

from evalscore.inputs.documents import Document, read_file_documents
from evalscore.inputs.expansion import expand_paths
from evalscore.scoring.report import InputRef, ScoreReport, parse_report, rate_count_mismatches
from evalscore.validation.contract_layer import report_findings
from evalscore.version import __version__


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
