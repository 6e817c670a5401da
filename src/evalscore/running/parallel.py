"""Judge a long JSONL file on several cores, in order, with bounded memory.

A regular file is cut into ranges of whole lines (``inputs.jsonl_ranges``); each
forked worker reads its range from the file itself, so the bytes never travel
between processes. A gzipped file cannot be read from the middle: the parent
decompresses it and hands chunks of raw lines to the workers. What judges a line is
handed to the workers when they are forked, never pickled: it may hold a suite index.
Workers send back compact results (verdicts, a run's partial score), never models,
because pickling models costs more than building them. At most ``2 x workers`` tasks are
in flight, so memory does not grow with the file. A worker that dies (killed for
memory, say) breaks the pool with an error instead of leaving its task waiting forever;
what it and the others still owed is then judged in this process.

A worker may also fold a task's documents into fewer values than one judgement each (``score``
sends each stretch of consecutive valid runs as one summed score, ``scoring.scored_runs``): a
``Folded`` value stands for several judgements, and the parent can still have them one by one by
judging that task again in this process, which it does only when it cannot use the fold.
"""

from __future__ import annotations

import gc
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import cache, partial
from typing import TYPE_CHECKING, Any, Final, TypeVar

from evalscore.inputs.documents import Document, no_line, parse_json
from evalscore.inputs.jsonl_ranges import FileChangedError, LineRange, changed, range_documents
from evalscore.validation.internal_error import internal_error_finding

if TYPE_CHECKING:
    from concurrent.futures import Future

# ruff: noqa: PLC0415 - multiprocessing and concurrent.futures are imported when a pool is first
# wanted (a file of 16 MB or more): a short validate never pays for them at start-up

CHUNK_LINES: Final = 500
RANGE_BYTES: Final = 8 * 1024 * 1024
"""About how many bytes of a JSONL file one worker's task judges. Each task costs the pool a round
trip (submitted, queued, its result sent back and waited for in order), which on 20 kB runs made
1 MiB ranges cost about a tenth more processor time than 4 MiB ones (800 MB: 0.89x the wall time
with 4 MiB, 0.98x again with 8; 80 MB: 0.94x with 4 MiB). A file of ``PARALLEL_MIN_BYTES`` is still
two ranges, one per core of a two-core machine."""
PARALLEL_MIN_BYTES: Final = 16 * 1024 * 1024

Chunk = list[Document | tuple[int, bytes]]
Task = TypeVar("Task")
Judged = TypeVar("Judged")
Judge = Callable[[Document], Judged]
"""What one document gives: a verdict (``validate``), a verdict and the run's score (``score``)."""
Fold = Callable[[Iterable[Document]], list[Judged]]
"""What a worker makes of one task's documents, in order, instead of judging each: fewer values, some ``Folded``."""


class Folded:
    """Base of a value that a worker sends for ``count`` consecutive judgements of one task, from
    its ``first``; ``unfolded`` gives those judgements one by one.

    The worker does not send them: the parent binds each fold to a way of judging its task again,
    in this process (``bind``), and that is done at most once per task, when first asked.
    """

    __slots__ = ("_again",)
    _again: Callable[[], list[Any]]

    def bind(self, again: Callable[[], list[Any]]) -> None:
        object.__setattr__(self, "_again", again)  # subclasses may be frozen dataclasses

    def again(self) -> list[Any]:
        """Every judgement of this fold's task, judged again here."""
        return self._again()


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity), not merely those the machine has."""
    affinity = getattr(os, "sched_getaffinity", None)
    return max(1, len(affinity(0)) if affinity else (os.cpu_count() or 1))


def worker_count(jobs: int | None = None) -> int:
    """How many processes judge a long JSONL file: ``jobs`` when given, else every usable core."""
    if jobs is None:
        return usable_cores()
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    return jobs


def can_parallelize(workers: int) -> bool:
    import multiprocessing

    return workers > 1 and "fork" in multiprocessing.get_all_start_methods()


def _each(judge: Judge[Judged], documents: Iterable[Document]) -> list[Judged]:
    return [judge(document) for document in documents]


def _judge_chunk(judge_all: Fold[Judged], source: str, chunk: Chunk) -> list[Judged]:
    gc.disable()
    try:
        return judge_all(item if isinstance(item, Document) else parse_json(item[1], source, item[0]) for item in chunk)
    finally:
        gc.enable()


def judge_range(judge: Judge[Judged], limit: int, item: LineRange | Document) -> list[Judged]:
    return _judge_range(partial(_each, judge), limit, item)


def _judge_range(judge_all: Fold[Judged], limit: int, item: LineRange | Document) -> list[Judged]:
    if isinstance(item, Document):
        return judge_all((item,))
    gc.disable()
    try:
        return judge_all(range_documents(item, limit))
    except FileChangedError:
        return judge_all((changed(item.source),))
    except Exception as error:  # a bug while reading: this input's verdict says so, the run goes on
        return judge_all((Document(item.source, None, None, internal_error_finding(error, item.source, None)),))
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


def judge_lines_in_parallel(
    source: str,
    items: Iterable[Document | tuple[int, bytes]],
    judge: Judge[Judged],
    workers: int,
    fold: Fold[Judged] | None = None,
    on_started: Callable[[], object] | None = None,
) -> Iterator[Judged]:
    """What ``judge`` gives for raw JSONL lines (or already-made syntax documents), in input order;
    with ``fold``, what it makes of each chunk's documents. ``on_started`` as for ``_in_order``."""
    one_by_one = partial(_judge_chunk, partial(_each, judge), source)
    sent = one_by_one if fold is None else partial(_judge_chunk, fold, source)
    yield from _judged_in_order(one_by_one, sent, _chunks(items), workers, on_started)


def judge_ranges_in_parallel(
    source: str,
    ranges: Iterable[LineRange | Document],
    judge: Judge[Judged],
    limit: int,
    workers: int,
    fold: Fold[Judged] | None = None,
    on_started: Callable[[], object] | None = None,
) -> Iterator[Judged]:
    """What ``judge`` gives for the lines of every range (or the documents saying why reading stopped),
    in order, with ``fold`` what it makes of each range's documents; a file that holds no line at all
    is refused for that, as when read in one piece. ``on_started`` as for ``_in_order``."""
    one_by_one = partial(judge_range, judge, limit)
    sent = one_by_one if fold is None else partial(_judge_range, fold, limit)
    artifacts = 0
    for judged in _judged_in_order(one_by_one, sent, ranges, workers, on_started):
        artifacts += 1
        yield judged
    if artifacts == 0:
        yield judge(no_line(source))


def _judged_in_order(
    one_by_one: Callable[[Task], list[Judged]],
    sent: Callable[[Task], list[Judged]],
    tasks: Iterable[Task],
    workers: int,
    on_started: Callable[[], object] | None = None,
) -> Iterator[Judged]:
    """What a worker ``sent`` for each task, in task order; each fold is bound to judging its task
    again here, ``one_by_one``."""
    for task, judged in _in_order(sent, tasks, workers, on_started):
        again: Callable[[], list[Judged]] | None = None
        for item in judged:
            if isinstance(item, Folded):
                again = again or cache(partial(one_by_one, task))
                item.bind(again)
            yield item


_INSTALLED: dict[str, Callable[[Any], list[Any]]] = {}
"""In a worker, what it does with each task (``"work"``): set when it is forked, from the parent's memory."""


def _install(work: Callable[[Any], list[Any]]) -> None:
    _INSTALLED["work"] = work


def _do(task: Any) -> list[Any]:
    return _INSTALLED["work"](task)


def _in_order(
    work: Callable[[Task], list[Judged]],
    tasks: Iterable[Task],
    workers: int,
    on_started: Callable[[], object] | None = None,
) -> Iterator[tuple[Task, list[Judged]]]:
    """Each task with ``work`` of it, done on ``workers`` forked processes, in task order.

    ``on_started`` is called once, when the workers have been handed their first tasks and before any
    of them is waited for: what it does in this process runs while they work (``score`` imports its report's
    code there, which the workers do not need).

    ``work`` reaches the workers through fork, not pickling; only the tasks (ranges, chunks of
    lines) and the results are pickled. When a worker dies, the tasks it and the others still
    owed are done here, in this process, and so is the rest: the answer is the same, only slower.
    """
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    pending = iter(tasks)
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_install, initargs=(work,)) as pool:
        owed: deque[tuple[Future[list[Judged]] | None, Task]] = deque()
        """Tasks not yet yielded, in order, each with its future (None while being submitted)."""
        try:
            for task in pending:
                owed.append((None, task))
                owed[-1] = (pool.submit(_do, task), task)
                if len(owed) >= 2 * workers:
                    if on_started is not None:
                        on_started()
                        on_started = None
                    yield owed[0][1], _result(owed[0][0])
                    owed.popleft()
            if on_started is not None:
                on_started()
            while owed:
                yield owed[0][1], _result(owed[0][0])
                owed.popleft()
        except BrokenProcessPool:
            pool.shutdown(wait=False, cancel_futures=True)
            for _, task in owed:
                yield task, work(task)
            for task in pending:
                yield task, work(task)


def _result(future: Future[list[Judged]] | None) -> list[Judged]:
    assert future is not None  # every task owed has been submitted before it is waited for
    return future.result()
