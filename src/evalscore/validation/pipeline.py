"""Check every artifact under some paths: in order, streaming, on every core for long JSONL."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator
from typing import IO, TypeVar

from evalscore.artifact_kinds import ArtifactKind
from evalscore.inputs.documents import (
    DEFAULT_MAX_DOCUMENT_BYTES,
    Document,
    InputRecord,
    RawLine,
    read_file_documents,
)
from evalscore.inputs.jsonl_ranges import line_ranges
from evalscore.inputs.paths import STDIN, expand_paths
from evalscore.validation.checker import CheckedArtifact, check_guarded
from evalscore.validation.internal_error import internal_error_finding
from evalscore.validation.parallel import (
    PARALLEL_MIN_BYTES,
    RANGE_BYTES,
    can_parallelize,
    check_lines_in_parallel,
    check_ranges_in_parallel,
)

Item = TypeVar("Item")


def check_paths(
    paths: list[str],
    forced_kind: ArtifactKind | None = None,
    *,
    keep_models: bool = False,
    max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES,
    on_input: Callable[[InputRecord], None] | None = None,
    stdin: IO[bytes] | None = None,
    parallel: bool = True,
    findings_wanted: int | None = None,
) -> Iterator[CheckedArtifact]:
    """Check every artifact under ``paths``, one at a time, in order.

    A long JSONL file is checked on every core when models need not be kept. With
    ``findings_wanted`` (what a report will show), a document's findings are looked for only a
    little beyond that many (``CheckedArtifact.more_findings`` says when the search stopped):
    an invalid document then costs about what its valid twin costs.
    """
    for file in expand_paths(paths):
        in_parallel = (
            parallel
            and not keep_models
            and file.format == "jsonl"
            and file.path != STDIN
            and file.problem is None
            and _size(file.path) >= PARALLEL_MIN_BYTES
            and can_parallelize()
        )
        if in_parallel and not file.gzipped:
            ranges, record = line_ranges(file, RANGE_BYTES)
            guarded_ranges = _guarded_reading(ranges, file.source)
            yield from check_ranges_in_parallel(
                file.source, guarded_ranges, forced_kind, max_document_bytes, findings_wanted
            )
        else:
            items, record = read_file_documents(
                file, max_document_bytes, stdin if file.path == STDIN else None, raw_jsonl=in_parallel
            )
            guarded = _guarded_reading(items, file.source)
            if in_parallel:
                yield from check_lines_in_parallel(file.source, guarded, forced_kind, findings_wanted)
            else:
                yield from _check_sequentially(guarded, forced_kind, keep_models, findings_wanted)
        if on_input is not None:
            on_input(record())


def _guarded_reading(items: Iterator[Item], source: str) -> Iterator[Item | Document]:
    """The documents of one input; a bug met while reading it ends that input with ``ES099``, not the run."""
    try:
        yield from items
    except Exception as error:
        yield Document(source, None, None, internal_error_finding(error, source, None))


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _check_sequentially(
    items: Iterator[Document | RawLine], forced_kind: ArtifactKind | None, keep_models: bool, wanted: int | None
) -> Iterator[CheckedArtifact]:
    """The cyclic garbage collector is paused while each document is read, parsed and
    checked: the object graphs are acyclic, and collection during their construction
    costs more than the work itself. It runs again while the caller holds the result; the
    parsed document is released before that, since all its objects are still in the youngest
    generation and a collection would walk every one of them for nothing."""
    while True:
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            item = next(items, None)
            if item is None:
                return
            assert isinstance(item, Document)  # raw lines are only asked for in parallel
            checked = check_guarded(item, forced_kind, keep_models, wanted)
            item = None
        finally:
            if gc_was_enabled:
                gc.enable()
        yield checked
