"""Check a long JSONL file on every core, in order, with bounded memory.

A regular file is cut into ranges of whole lines (``inputs.jsonl_ranges``); each
forked worker reads its range from the file itself, so the bytes never travel
between processes. A gzipped file cannot be read from the middle: the parent
decompresses it and hands chunks of raw lines to the workers. Workers send back
verdicts (findings), never models, because pickling models costs more than
building them. At most ``2 x workers`` tasks are in flight, so memory does not
grow with the file. A worker that dies (killed for memory, say) breaks the pool
with an error instead of leaving its task waiting forever; what it and the others
still owed is then checked in this process.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Final, TypeVar

from evalscore.artifact_kinds import ArtifactKind
from evalscore.inputs.documents import Document, no_line, parse_json
from evalscore.inputs.jsonl_ranges import FileChangedError, LineRange, changed, range_documents
from evalscore.validation.checker import CheckedArtifact, check_guarded
from evalscore.validation.internal_error import internal_error_finding

CHUNK_LINES: Final = 500
RANGE_BYTES: Final = 4 * 1024 * 1024
PARALLEL_MIN_BYTES: Final = 16 * 1024 * 1024

Chunk = list[Document | tuple[int, bytes]]
Task = TypeVar("Task")


def worker_count() -> int:
    affinity = getattr(os, "sched_getaffinity", None)
    cores = len(affinity(0)) if affinity else (os.cpu_count() or 1)
    return max(1, min(cores, 8))


def can_parallelize() -> bool:
    return worker_count() > 1 and "fork" in multiprocessing.get_all_start_methods()


def _check_chunk(
    source: str, forced_kind: ArtifactKind | None, wanted: int | None, chunk: Chunk
) -> list[CheckedArtifact]:
    gc.disable()
    try:
        return [
            check_guarded(
                item if isinstance(item, Document) else parse_json(item[1], source, item[0]),
                forced_kind,
                False,
                wanted,
            )
            for item in chunk
        ]
    finally:
        gc.enable()


def _check_range(
    forced_kind: ArtifactKind | None, limit: int, wanted: int | None, item: LineRange | Document
) -> list[CheckedArtifact]:
    if isinstance(item, Document):
        return [check_guarded(item, forced_kind, False)]
    gc.disable()
    try:
        return [check_guarded(document, forced_kind, False, wanted) for document in range_documents(item, limit)]
    except FileChangedError:
        return [check_guarded(changed(item.source), forced_kind, False)]
    except Exception as error:  # a bug while reading: this input's verdict says so, the run goes on
        failed = Document(item.source, None, None, internal_error_finding(error, item.source, None))
        return [check_guarded(failed, forced_kind, False)]
    finally:
        gc.enable()


def _chunks(items: Iterable[Document | tuple[int, bytes]]) -> Iterator[Chunk]:
    chunk: Chunk = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= CHUNK_LINES:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def check_lines_in_parallel(
    source: str,
    items: Iterable[Document | tuple[int, bytes]],
    forced_kind: ArtifactKind | None,
    wanted: int | None = None,
) -> Iterator[CheckedArtifact]:
    """Verdicts of raw JSONL lines (or already-made syntax documents), in input order."""
    yield from _in_order(partial(_check_chunk, source, forced_kind, wanted), _chunks(items))


def check_ranges_in_parallel(
    source: str,
    ranges: Iterable[LineRange | Document],
    forced_kind: ArtifactKind | None,
    limit: int,
    wanted: int | None = None,
) -> Iterator[CheckedArtifact]:
    """Verdicts of the lines of every range (or of the documents saying why reading stopped), in order;
    a file that holds no line at all is refused for that, as when read in one piece."""
    artifacts = 0
    for checked in _in_order(partial(_check_range, forced_kind, limit, wanted), ranges):
        artifacts += 1
        yield checked
    if artifacts == 0:
        yield check_guarded(no_line(source), forced_kind, False)


def _in_order(work: Callable[[Task], list[CheckedArtifact]], tasks: Iterable[Task]) -> Iterator[CheckedArtifact]:
    """``work`` of each task on the workers, the verdicts in task order.

    When a worker dies, the tasks it and the others still owed are done here, in this
    process, and so is the rest: the answer is the same, only slower.
    """
    workers = worker_count()
    pending = iter(tasks)
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        owed: deque[tuple[Future[list[CheckedArtifact]] | None, Task]] = deque()
        """Tasks not yet yielded, in order, each with its future (None while being submitted)."""
        try:
            for task in pending:
                owed.append((None, task))
                owed[-1] = (pool.submit(work, task), task)
                if len(owed) >= 2 * workers:
                    yield from _result(owed[0][0])
                    owed.popleft()
            while owed:
                yield from _result(owed[0][0])
                owed.popleft()
        except BrokenProcessPool:
            pool.shutdown(wait=False, cancel_futures=True)
            for _, task in owed:
                yield from work(task)
            for task in pending:
                yield from work(task)


def _result(future: Future[list[CheckedArtifact]] | None) -> list[CheckedArtifact]:
    assert future is not None  # every task owed has been submitted before it is waited for
    return future.result()
