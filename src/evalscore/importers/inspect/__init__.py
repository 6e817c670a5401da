"""Import Inspect AI evaluation logs (``.eval`` and ``.json``) as evalscore Runs.

One log becomes one Run; each sample becomes one task result with one step.
Approval chains that consulted an approver counted as human become gate
events with the decision time observed and the opening time, latency and
overseers left unobserved. See docs/inspect-import.md for the whole mapping.
``inspect_ai`` itself is never imported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from evalscore.importers.inspect._approvals import AUTOMATIC_APPROVERS, DEFAULT_HUMAN_APPROVERS, counted_as_human
from evalscore.importers.inspect._errors import (
    InspectImportError,
    SampleMappingError,
    UnmappableLogError,
    UnreadableLogError,
)
from evalscore.importers.inspect._log_reader import InspectLogReader
from evalscore.importers.inspect._open import open_inspect_log
from evalscore.importers.inspect._run import run_document
from evalscore.importers.inspect._sample import MappedSample, map_sample
from evalscore.importers.shared.checked_run import checked_run
from evalscore.inputs.documents import DEFAULT_MAX_DOCUMENT_BYTES
from evalscore.models import EvalSuite, Run

__all__ = [
    "AUTOMATIC_APPROVERS",
    "DEFAULT_HUMAN_APPROVERS",
    "InspectImportError",
    "UnmappableLogError",
    "UnreadableLogError",
    "import_inspect_log",
    "import_inspect_logs",
]


def import_inspect_log(
    path: str | Path,
    *,
    human_approvers: Iterable[str] = DEFAULT_HUMAN_APPROVERS,
    suite: EvalSuite | None = None,
    max_member_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES,
    on_sample: Callable[[], None] | None = None,
) -> Run:
    """Read one Inspect log, sample by sample, and map it to a validated Run.

    ``human_approvers`` names the approvers whose involvement means control
    returned to a person; Inspect's automatic approvers (``auto``, ``policy``)
    never count. ``on_sample`` is called after each sample is mapped (to show progress). Raises
    ``UnreadableLogError`` or ``UnmappableLogError``.
    """
    source = str(path)
    humans = counted_as_human(human_approvers)
    reader = open_inspect_log(Path(path), max_member_bytes)
    try:
        mapped, mapping_error = _map_samples(reader, humans, on_sample)
        header = reader.header()  # after the samples: a .json log is known to be readable only once read to the end
        if not isinstance(header.get("eval"), dict):
            raise UnreadableLogError(source, "not an Inspect log: its header has no eval object")
        if mapping_error is None and not mapped:
            mapping_error = SampleMappingError("the log holds no samples (was it written without them?)")
        if mapping_error is not None:
            raise UnmappableLogError(source, str(mapping_error)) from mapping_error
        try:
            document = run_document(
                header,
                mapped,
                log_format=reader.log_format,
                human_approvers=humans,
                superseded_members=reader.superseded_members,
            )
        except SampleMappingError as error:
            raise UnmappableLogError(source, str(error)) from error
    finally:
        reader.close()
    return checked_run(document, source, suite)


def import_inspect_logs(
    paths: Iterable[str | Path],
    *,
    human_approvers: Iterable[str] = DEFAULT_HUMAN_APPROVERS,
    suite: EvalSuite | None = None,
) -> Iterator[Run]:
    """One Run per log, lazily, in the order given; the first failing log raises."""
    humans = frozenset(human_approvers)
    for path in paths:
        yield import_inspect_log(path, human_approvers=humans, suite=suite)


def _map_samples(
    reader: InspectLogReader, humans: frozenset[str], on_sample: Callable[[], None] | None
) -> tuple[list[MappedSample], SampleMappingError | None]:
    """Every sample mapped, or those before the first that cannot be and why: a log that is unreadable
    further on must still be reported as unreadable, so the caller reads the header before giving up."""
    mapped: list[MappedSample] = []
    for sample in reader.samples():
        try:
            mapped.append(map_sample(sample, humans))
        except SampleMappingError as error:
            return mapped, error
        if on_sample is not None:
            on_sample()
    return mapped, None
