"""Judge every input on a Dask cluster, the results handed back in input order.

Each file is one task, and a JSONL file (not gzipped) is cut into ranges of whole lines, each a
task (``inputs.jsonl_ranges``: this process reads the file once, to hash it and find the line
breaks; the worker reads its range itself, so the bytes are never sent). What judges a document
(the validator, or the scorer with its suites) is sent to every worker once. A task sends back
compact results (verdicts, a run's partial score) and, for a whole file, the file's record; the
caller merges them exactly as it merges the results of its own process. Standard input is read and
judged here. At most two tasks per worker thread are in flight, so memory does not grow with the
corpus.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

from evalscore.inputs.documents import Document, InputRecord, no_line, read_file_documents
from evalscore.inputs.expansion import expand_paths
from evalscore.inputs.jsonl_ranges import LineRange, line_ranges
from evalscore.inputs.paths import STDIN, FileKey, SourceFile
from evalscore.running.cluster import ClusterError, worker_slots
from evalscore.running.guarded_reading import guarded_reading
from evalscore.running.parallel import Judge, Judged, judge_range

if TYPE_CHECKING:
    from distributed import Client, Future

RANGE_BYTES: int = 1 * 1024 * 1024
"""About how many bytes of a JSONL file one task judges (the tests cut smaller). The fork pool's
ranges grew to 8 MiB (``parallel.RANGE_BYTES``); on a cluster, whose figures in docs/distributed.md
were measured with 1 MiB ranges, larger ranges were not measured."""


def judge_file(
    judge: Judge[Judged], limit: int, file: SourceFile, digest: bool = True
) -> tuple[list[Judged], InputRecord]:
    """On a worker: every document of one file judged, and the file's record."""
    items, record = read_file_documents(file, limit, digest=digest)
    judged = [judge(document) for document in _documents_only(guarded_reading(items, file.source))]
    return judged, record()


@dataclass(slots=True)
class _Here:
    """Judged in this process when its turn comes (standard input, a document saying why a file
    could not be cut)."""

    documents: Iterator[Document]
    record: Callable[[], InputRecord] | None


@dataclass(slots=True)
class _FileEnd:
    """The end of a JSONL file cut into ranges: its record, and its name for a file of no line."""

    source: str
    record: InputRecord


@dataclass(slots=True)
class _Sent:
    future: Future[Any]
    whole_file: bool


_Step = _Here | _FileEnd | _Sent


def judge_on_cluster(
    client: Client,
    paths: list[str],
    judge: Judge[Judged],
    *,
    max_document_bytes: int,
    on_input: Callable[[InputRecord], None] | None = None,
    stdin: IO[bytes] | None = None,
    skip: frozenset[FileKey] = frozenset(),
    range_bytes: int | None = None,
    digests: bool = True,
) -> Iterator[Judged]:
    """What ``judge`` gives for every document under ``paths`` (but the files in ``skip``), in order,
    the documents judged on the cluster's workers; as ``running.pipeline.judge_paths``. A JSONL file
    is cut into ranges of about ``range_bytes`` (default ``RANGE_BYTES``, read when called)."""
    (sent_judge,) = client.scatter([judge], broadcast=True, hash=False)
    in_flight = 2 * worker_slots(client)
    owed: deque[_Step] = deque()
    sent = 0
    judged_in_file = 0
    cut = RANGE_BYTES if range_bytes is None else range_bytes
    for step in _steps(client, sent_judge, paths, skip, max_document_bytes, cut, stdin, digests):
        owed.append(step)
        sent += isinstance(step, _Sent)
        while sent >= in_flight or (owed and not isinstance(owed[0], _Sent)):
            done = owed.popleft()
            sent -= isinstance(done, _Sent)
            for item, ends_file in _finish(done, judge, on_input, judged_in_file):
                judged_in_file = 0 if ends_file else judged_in_file + 1
                if item is not None:
                    yield item
    while owed:
        for item, ends_file in _finish(owed.popleft(), judge, on_input, judged_in_file):
            judged_in_file = 0 if ends_file else judged_in_file + 1
            if item is not None:
                yield item


def _finish(
    step: _Step, judge: Judge[Judged], on_input: Callable[[InputRecord], None] | None, judged_in_file: int
) -> Iterator[tuple[Judged | None, bool]]:
    """The results of one step, each with whether it ends a file (its record is then reported)."""
    if isinstance(step, _Here):
        for document in step.documents:
            yield judge(document), False
        if step.record is not None:
            _report(on_input, step.record())
            yield None, True
    elif isinstance(step, _FileEnd):
        if judged_in_file == 0:  # a file of no line is refused for that, as when read in one piece
            yield judge(no_line(step.source)), False
        _report(on_input, step.record)
        yield None, True
    else:
        result = _result(step.future)
        if step.whole_file:
            judged, record = result
            for item in judged:
                yield item, False
            _report(on_input, record)
            yield None, True
        else:
            for item in result:
                yield item, False


def _report(on_input: Callable[[InputRecord], None] | None, record: InputRecord) -> None:
    if on_input is not None:
        on_input(record)


def _result(future: Future[Any]) -> Any:
    try:
        return future.result()
    except (Exception, asyncio.CancelledError) as error:  # the tasks catch their own: this is the cluster's
        reason = " ".join(str(error).split())  # Dask's reasons run over several lines; an error is said in one
        raise ClusterError(f"the Dask cluster failed a task ({type(error).__name__}: {reason})") from error


def _steps(
    client: Client,
    sent_judge: Future[Any],
    paths: list[str],
    skip: frozenset[FileKey],
    limit: int,
    range_bytes: int,
    stdin: IO[bytes] | None,
    digests: bool,
) -> Iterator[_Step]:
    for file in expand_paths(paths, skip):
        if file.path == STDIN or file.problem is not None:
            items, record = read_file_documents(file, limit, stdin if file.path == STDIN else None, digest=digests)
            yield _Here(_documents_only(items), record)
        elif file.format == "jsonl" and not file.gzipped and not file.is_url:
            ranges, record = line_ranges(file, range_bytes, digest=digests)
            for piece in guarded_reading(ranges, file.source):
                if isinstance(piece, LineRange):
                    yield _Sent(client.submit(judge_range, sent_judge, limit, piece, pure=False), whole_file=False)
                else:
                    yield _Here(iter([piece]), None)
            yield _FileEnd(file.source, record())
        else:
            yield _Sent(client.submit(judge_file, sent_judge, limit, file, digests, pure=False), whole_file=True)


def _documents_only(items: Iterator[Any]) -> Iterator[Document]:
    for item in items:
        assert isinstance(item, Document)  # raw lines are asked for only by the fork pool
        yield item
