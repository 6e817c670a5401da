"""Check a long JSONL file on every core, in order, with bounded memory.

The parent reads and hashes the file and hands chunks of raw lines to forked
workers; workers send back verdicts (findings), never models, because
pickling models costs more than building them. At most ``2 x workers``
chunks are in flight, so memory does not grow with the file. A worker that
dies (killed for memory, say) breaks the pool with an error instead of
leaving its chunk waiting forever.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Final

from evalscore.contract.builder import ArtifactKind
from evalscore.inputs.documents import Document, parse_json
from evalscore.validation.checker import CheckedArtifact, check_guarded

CHUNK_LINES: Final = 500
PARALLEL_MIN_BYTES: Final = 16 * 1024 * 1024

Chunk = list[Document | tuple[int, bytes]]


def worker_count() -> int:
    affinity = getattr(os, "sched_getaffinity", None)
    cores = len(affinity(0)) if affinity else (os.cpu_count() or 1)
    return max(1, min(cores, 8))


def can_parallelize() -> bool:
    return worker_count() > 1 and "fork" in multiprocessing.get_all_start_methods()


def _check_chunk(source: str, forced_kind: ArtifactKind | None, chunk: Chunk) -> list[CheckedArtifact]:
    gc.disable()
    try:
        return [
            check_guarded(
                item if isinstance(item, Document) else parse_json(item[1], source, item[0]), forced_kind, False
            )
            for item in chunk
        ]
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
    source: str, items: Iterable[Document | tuple[int, bytes]], forced_kind: ArtifactKind | None
) -> Iterator[CheckedArtifact]:
    """Verdicts of raw JSONL lines (or already-made syntax documents), in input order.

    When a worker dies, the chunks it and the others still owed are checked here, in this
    process, and so is the rest of the file: the answer is the same, only slower.
    """
    workers = worker_count()
    chunks = _chunks(items)
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        owed: deque[tuple[Future[list[CheckedArtifact]] | None, Chunk]] = deque()
        """Chunks not yet yielded, in order, each with its future (None while being submitted)."""
        try:
            for chunk in chunks:
                owed.append((None, chunk))
                owed[-1] = (pool.submit(_check_chunk, source, forced_kind, chunk), chunk)
                if len(owed) >= 2 * workers:
                    yield from _result(owed[0][0])
                    owed.popleft()
            while owed:
                yield from _result(owed[0][0])
                owed.popleft()
        except BrokenProcessPool:
            pool.shutdown(wait=False, cancel_futures=True)
            for _, chunk in owed:
                yield from _check_chunk(source, forced_kind, chunk)
            for chunk in chunks:
                yield from _check_chunk(source, forced_kind, chunk)


def _result(future: Future[list[CheckedArtifact]] | None) -> list[CheckedArtifact]:
    assert future is not None  # every chunk owed has been submitted before it is waited for
    return future.result()
