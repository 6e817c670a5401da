"""Check every artifact under some paths: in order, streaming, on every core for long JSONL."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import IO, TYPE_CHECKING, Any, TypeVar

from evalscore.artifact_kinds import ArtifactKind
from evalscore.inputs.documents import (
    DEFAULT_MAX_DOCUMENT_BYTES,
    Document,
    InputRecord,
    RawLine,
    read_file_documents,
)
from evalscore.inputs.expansion import expand_paths
from evalscore.inputs.jsonl_ranges import line_ranges
from evalscore.inputs.paths import STDIN, FileKey
from evalscore.running.guarded_reading import guarded_reading
from evalscore.running.parallel import (
    PARALLEL_MIN_BYTES,
    RANGE_BYTES,
    Fold,
    Judge,
    Judged,
    can_parallelize,
    judge_lines_in_parallel,
    judge_ranges_in_parallel,
    worker_count,
)
from evalscore.validation.checker import CheckedArtifact, check_guarded
from evalscore.validation.clean_stretches import CleanStretch, clean_stretches

if TYPE_CHECKING:
    from distributed import Client

Item = TypeVar("Item")


def check_paths(
    paths: list[str],
    forced_kind: ArtifactKind | None = None,
    *,
    keep_models: bool = False,
    max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES,
    on_input: Callable[[InputRecord], None] | None = None,
    stdin: IO[bytes] | None = None,
    jobs: int | None = None,
    findings_wanted: int | None = None,
    cluster: Client | None = None,
    digests: bool = True,
) -> Iterator[CheckedArtifact]:
    """Check every artifact under ``paths``, one at a time, in order.

    A long JSONL file is checked by ``jobs`` processes (default: every usable core; ``1``: in
    this process, no worker is started; less than 1 is a ``ValueError``). Models are built only
    in this process, so with ``keep_models`` every file is checked here. With ``findings_wanted``
    (what a report will show), a document's findings are looked for only a little beyond that
    many (``CheckedArtifact.more_findings`` says when the search stopped): an invalid document
    then costs about what its valid twin costs. With ``cluster`` (a Dask client), the documents
    are checked on its workers instead (``evalscore.running``), but with ``keep_models``.
    Without ``digests`` (a report that shows none), no input is hashed: each record's ``sha256`` is None.
    """
    workers = 1 if keep_models else worker_count(jobs)
    judge = partial(check_guarded, forced_kind=forced_kind, keep_model=keep_models, wanted=findings_wanted)
    return judge_paths(
        paths,
        judge,
        workers=workers,
        max_document_bytes=max_document_bytes,
        on_input=on_input,
        stdin=stdin,
        cluster=None if keep_models else cluster,
        digests=digests,
    )


def checked_documents(
    paths: list[str],
    kind: ArtifactKind,
    *,
    max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES,
    on_input: Callable[[InputRecord], None] | None = None,
) -> Iterator[tuple[CheckedArtifact, Any]]:
    """Every document under ``paths``, checked as ``kind`` in this process without its model, with its
    parsed value (which only a valid verdict makes fit to read): what ``score`` reads its suites with."""
    return judge_paths(
        paths,
        partial(_checked_with_value, kind),
        workers=1,
        max_document_bytes=max_document_bytes,
        on_input=on_input,
    )


def _checked_with_value(kind: ArtifactKind, document: Document) -> tuple[CheckedArtifact, Any]:
    return check_guarded(document, kind, False), document.value


def check_paths_in_stretches(
    paths: list[str],
    forced_kind: ArtifactKind | None = None,
    *,
    max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES,
    on_input: Callable[[InputRecord], None] | None = None,
    stdin: IO[bytes] | None = None,
    jobs: int | None = None,
    findings_wanted: int | None = None,
    cluster: Client | None = None,
    digests: bool = True,
) -> Iterator[CheckedArtifact | CleanStretch]:
    """``check_paths`` without models, where a forked worker sends each run of clean verdicts of a
    long JSONL file as one ``CleanStretch`` (``CleanStretch.unfolded`` gives them one by one)."""
    judge = partial(check_guarded, forced_kind=forced_kind, keep_model=False, wanted=findings_wanted)
    return judge_paths(
        paths,
        judge,
        workers=worker_count(jobs),
        max_document_bytes=max_document_bytes,
        on_input=on_input,
        stdin=stdin,
        cluster=cluster,
        digests=digests,
        fold=partial(clean_stretches, judge),
    )


def judge_paths(
    paths: list[str],
    judge: Judge[Judged],
    *,
    workers: int,
    max_document_bytes: int = DEFAULT_MAX_DOCUMENT_BYTES,
    on_input: Callable[[InputRecord], None] | None = None,
    stdin: IO[bytes] | None = None,
    skip: frozenset[FileKey] = frozenset(),
    cluster: Client | None = None,
    digests: bool = True,
    fold: Fold[Judged] | None = None,
    on_started: Callable[[], object] | None = None,
) -> Iterator[Judged]:
    """What ``judge`` gives for every document under ``paths`` (but the files in ``skip``), one at a
    time, in order.

    A long JSONL file is judged by ``workers`` forked processes (each given ``judge`` when it is
    forked); everything else, and everything when ``workers`` is 1, in this process. With
    ``fold``, a forked worker sends what it makes of each task's documents instead (``parallel.Folded``);
    a Dask cluster's workers do not fold. ``on_started`` is called when forked workers have been
    handed their first tasks, before any is waited for (once per file judged on them; never without them).
    With ``cluster``, every file is judged on the Dask cluster's workers, standard input here.
    """
    if cluster is not None:
        from evalscore.running.judging import judge_on_cluster  # noqa: PLC0415 - only with --dask

        return judge_on_cluster(
            cluster,
            paths,
            judge,
            max_document_bytes=max_document_bytes,
            on_input=on_input,
            stdin=stdin,
            skip=skip,
            digests=digests,
        )
    return _judge_here(paths, judge, workers, max_document_bytes, on_input, stdin, skip, digests, fold, on_started)


def _judge_here(
    paths: list[str],
    judge: Judge[Judged],
    workers: int,
    max_document_bytes: int,
    on_input: Callable[[InputRecord], None] | None,
    stdin: IO[bytes] | None,
    skip: frozenset[FileKey],
    digests: bool,
    fold: Fold[Judged] | None,
    on_started: Callable[[], object] | None,
) -> Iterator[Judged]:
    for file in expand_paths(paths, skip):
        in_parallel = (
            file.format == "jsonl"
            and file.path != STDIN
            and file.problem is None
            and not file.is_url
            and _size(file.path) >= PARALLEL_MIN_BYTES
            and can_parallelize(workers)
        )
        if in_parallel and not file.gzipped:
            ranges, record = line_ranges(file, RANGE_BYTES, digest=digests)
            guarded_ranges = guarded_reading(ranges, file.source)
            yield from judge_ranges_in_parallel(
                file.source, guarded_ranges, judge, max_document_bytes, workers, fold, on_started
            )
        else:
            items, record = read_file_documents(
                file, max_document_bytes, stdin if file.path == STDIN else None, raw_jsonl=in_parallel, digest=digests
            )
            guarded = guarded_reading(items, file.source)
            if in_parallel:
                yield from judge_lines_in_parallel(file.source, guarded, judge, workers, fold, on_started)
            else:
                yield from _judge_sequentially(guarded, judge)
        if on_input is not None:
            on_input(record())


@contextmanager
def closed_after(items: Iterator[Item]) -> Iterator[Iterator[Item]]:
    """``items``, closed when the block is left, however it is left.

    Behind the judged documents of a long JSONL file stands a pool of forked workers, shut down
    when the generator ends or is closed. A caller that stops early (an error in its loop, an
    interrupt) would otherwise leave it open for as long as anything (a traceback) holds the
    generator, and the workers waiting on their queue."""
    try:
        yield items
    finally:
        close = getattr(items, "close", None)
        if close is not None:
            close()


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _judge_sequentially(items: Iterator[Document | RawLine], judge: Judge[Judged]) -> Iterator[Judged]:
    """The cyclic garbage collector is paused while each document is read, parsed and
    judged: the object graphs are acyclic, and collection during their construction
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
            judged = judge(item)
            item = None
        finally:
            if gc_was_enabled:
                gc.enable()
        yield judged
