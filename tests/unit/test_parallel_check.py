"""A long JSONL file checked on every core gives the answer of one core, even when a worker dies.

A regular file is cut into ranges of whole lines that the workers read themselves; a gzipped
one is decompressed here and sent as chunks of lines. Both must give, verdict for verdict and
line for line, what one process reading the file from start to end gives.
"""

from __future__ import annotations

import functools
import gzip
import itertools
import os
import pickle
import signal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from evalscore.findings import Finding
from evalscore.inputs import jsonl_ranges
from evalscore.inputs.documents import Document
from evalscore.inputs.jsonl_ranges import LineRange
from evalscore.running import parallel, pipeline
from evalscore.running.pipeline import check_paths
from evalscore.validation.checker import CheckedArtifact, check_guarded

ROOT = Path(__file__).resolve().parents[2]
LINES = (ROOT / "examples" / "partner-log.jsonl").read_bytes().splitlines()
LIMIT = max(len(line) for line in LINES) + 10

Verdicts = list[tuple[int | None, tuple[str, ...]]]


def verdicts(path: Path, *, in_parallel: bool) -> Verdicts:
    checked = check_paths([str(path)], jobs=2 if in_parallel else 1, max_document_bytes=LIMIT)
    return [(a.line, tuple(f.code for f in a.findings)) for a in checked]


@pytest.fixture
def small_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    if not parallel.can_parallelize(2):
        pytest.skip("no fork: the parallel path is never taken")
    monkeypatch.setattr(pipeline, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "CHUNK_LINES", 3)
    monkeypatch.setattr(pipeline, "RANGE_BYTES", 3 * len(LINES[0]))


def body() -> list[bytes]:
    lines = [LINES[index % 2] for index in range(40)]
    lines[7] = lines[7].replace(b'"resolution":"approved"', b'"resolution":"denied","resolution":"approved"', 1)
    lines[20] = b'{"task_results": 1}'
    return lines


@pytest.fixture
def log(tmp_path: Path, small_tasks: None) -> Path:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(b"\n".join(body()) + b"\n")
    return path


def test_the_parallel_verdicts_are_the_sequential_ones_in_order(log: Path) -> None:
    expected = verdicts(log, in_parallel=False)
    assert range_count(log) >= 10
    assert len(expected) == 40
    assert expected[7] == (8, ("ES011",))
    assert expected[20][0] == 21
    assert expected[20][1] != ()
    assert verdicts(log, in_parallel=True) == expected


EDGES: dict[str, bytes] = {
    "a byte order mark opens the file": b"\xef\xbb\xbf" + b"\n".join(body()) + b"\n",
    "a byte order mark on a later line is not skipped": (
        b"\n".join(body()[:5]) + b"\n\xef\xbb\xbf" + b"\n".join(body()[5:])
    ),
    "blank and whitespace lines": b"\n\n".join(body()) + b"\n \t\r\n\n",
    "CRLF line ends": b"\r\n".join(body()) + b"\r\n",
    "no line end at the end": b"\n".join(body()),
    "a vertical tab is not JSON whitespace": b"\n".join(body()[:9]) + b"\n\x0b\n" + b"\n".join(body()[9:]),
    "lines longer than the limit": b"\n".join([*body()[:12], b"[" + b" " * LIMIT + b"]", *body()[12:]]) + b"\n",
    "a last line longer than the limit": b"\n".join(body()) + b"\n" + b"x" * (LIMIT * 3),
    "only blank lines": b"\n" * 200,
    "not a line at all": b" " * 100,
}


@pytest.mark.parametrize("name", sorted(EDGES))
def test_cut_into_ranges_the_verdicts_and_line_numbers_are_those_of_one_reading(
    name: str, tmp_path: Path, small_tasks: None
) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(EDGES[name])
    expected = verdicts(path, in_parallel=False)
    assert expected != []
    assert verdicts(path, in_parallel=True) == expected
    if len(EDGES[name]) > 3 * pipeline.RANGE_BYTES:
        assert range_count(path) >= 3


def range_count(path: Path) -> int:
    (file,) = pipeline.expand_paths([str(path)])
    ranges, _ = jsonl_ranges.line_ranges(file, pipeline.RANGE_BYTES)
    return sum(1 for piece in ranges if isinstance(piece, LineRange))


def test_an_all_blank_file_is_refused_once_as_holding_no_line(tmp_path: Path, small_tasks: None) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(EDGES["only blank lines"])
    assert verdicts(path, in_parallel=True) == [(None, ("ES008",))]


def test_a_gzipped_log_is_checked_in_chunks_with_the_same_verdicts(tmp_path: Path, small_tasks: None) -> None:
    path = tmp_path / "runs.jsonl.gz"
    path.write_bytes(gzip.compress(b"\n".join(body()) + b"\n"))
    expected = verdicts(path, in_parallel=False)
    assert len(expected) == 40
    assert verdicts(path, in_parallel=True) == expected


def test_the_ranges_cover_the_file_at_line_boundaries_with_their_first_line_numbers(
    tmp_path: Path, small_tasks: None
) -> None:
    data = EDGES["blank and whitespace lines"]
    path = tmp_path / "runs.jsonl"
    path.write_bytes(data)
    (file,) = pipeline.expand_paths([str(path)])
    ranges, record = jsonl_ranges.line_ranges(file, 1000)
    cut = list(ranges)
    assert all(isinstance(piece, LineRange) for piece in cut)
    pieces = [piece for piece in cut if isinstance(piece, LineRange)]
    assert len(pieces) > 3
    assert pieces[0].start == 0
    assert pieces[-1].end == len(data)
    for before, after in itertools.pairwise(pieces):
        assert before.end == after.start
        assert data[before.end - 1 : before.end] == b"\n"
        assert after.first_line == 1 + data[: after.start].count(b"\n")
    assert record().complete
    assert record().hashed_bytes == len(data)


def test_a_file_changed_after_it_was_cut_is_reported_not_judged(tmp_path: Path, small_tasks: None) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(b"\n".join(body()) + b"\n")
    (file,) = pipeline.expand_paths([str(path)])
    ranges, _ = jsonl_ranges.line_ranges(file, 1000)
    first = next(ranges)
    assert isinstance(first, LineRange)
    path.write_bytes(b"\n".join(body()[::-1]) + b"\n")
    with pytest.raises(jsonl_ranges.FileChangedError):
        list(jsonl_ranges.range_documents(first, LIMIT))
    (checked,) = parallel.judge_range(JUDGE, LIMIT, first)
    assert [finding.code for finding in checked.findings] == ["ES001"]
    assert "changed while it was being read" in checked.findings[0].message


def test_a_file_that_grows_while_it_is_cut_ends_with_a_finding(tmp_path: Path, small_tasks: None) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(b"\n".join(body()) + b"\n")
    (file,) = pipeline.expand_paths([str(path)])
    ranges, record = jsonl_ranges.line_ranges(file, 1000)
    first = next(ranges)
    with path.open("ab") as more:
        more.write(LINES[0] + b"\n")
    rest = list(ranges)
    last = rest[-1]
    assert isinstance(first, LineRange)
    assert isinstance(last, Document)
    assert last.syntax is not None
    assert last.syntax.code == "ES001"
    assert not record().complete


REAL_JUDGE_CHUNK = parallel._judge_chunk
REAL_JUDGE_RANGE = parallel.judge_range
JUDGE = functools.partial(check_guarded, forced_kind=None, keep_model=False)
DEATHS: dict[str, Any] = {}
"""Where a dying worker leaves word that it died (the marker file), at which task, and the process
that is not a worker (the test's own, taken when the test runs: a module-level ``os.getpid()`` is the
process that imported the module, and under mutmut, which forks each mutant's session from that
process, the session itself would die as a worker)."""


def dies_in_a_worker_on_the_third_chunk(judge: Any, source: str, chunk: parallel.Chunk) -> list[CheckedArtifact]:
    first = chunk[0]
    if os.getpid() != DEATHS["parent"] and isinstance(first, tuple) and first[0] == DEATHS["line"]:
        Path(DEATHS["marker"]).touch()
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's OOM killer would
    return REAL_JUDGE_CHUNK(judge, source, chunk)


def dies_in_a_worker_on_the_third_range(judge: Any, limit: int, item: LineRange | Document) -> list[CheckedArtifact]:
    if os.getpid() != DEATHS["parent"] and isinstance(item, LineRange) and item.first_line == DEATHS["line"]:
        Path(DEATHS["marker"]).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return REAL_JUDGE_RANGE(judge, limit, item)


def test_a_worker_that_dies_leaves_no_range_waiting_and_changes_no_verdict(
    log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = verdicts(log, in_parallel=False)
    (file,) = pipeline.expand_paths([str(log)])
    ranges, _ = jsonl_ranges.line_ranges(file, pipeline.RANGE_BYTES)
    third = [piece for piece in ranges if isinstance(piece, LineRange)][2]
    monkeypatch.setitem(DEATHS, "line", third.first_line)
    monkeypatch.setitem(DEATHS, "marker", str(tmp_path / "died"))
    monkeypatch.setitem(DEATHS, "parent", os.getpid())
    monkeypatch.setattr(parallel, "judge_range", dies_in_a_worker_on_the_third_range)
    assert verdicts(log, in_parallel=True) == expected
    assert (tmp_path / "died").exists()


def test_a_worker_that_dies_leaves_no_chunk_waiting_and_changes_no_verdict(
    tmp_path: Path, small_tasks: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "runs.jsonl.gz"
    path.write_bytes(gzip.compress(b"\n".join(body()) + b"\n"))
    expected = verdicts(path, in_parallel=False)
    monkeypatch.setitem(DEATHS, "line", 7)
    monkeypatch.setitem(DEATHS, "marker", str(tmp_path / "died"))
    monkeypatch.setitem(DEATHS, "parent", os.getpid())
    monkeypatch.setattr(parallel, "_judge_chunk", dies_in_a_worker_on_the_third_chunk)
    assert verdicts(path, in_parallel=True) == expected
    assert (tmp_path / "died").exists()


def test_a_verdict_crosses_between_processes_with_every_field_as_it_was() -> None:
    finding = Finding("contract", "schema.type", "error", "/run_id", "not a string", "runs.jsonl", 3, 7)
    model: Any = SimpleNamespace(run_id="r-1")  # a stand-in: models are built where they are used, never sent
    sent = [
        CheckedArtifact("runs.jsonl", 3, "run", (finding,), None, True),
        CheckedArtifact("runs.jsonl", None, None, (), model, False),
    ]
    received = pickle.loads(pickle.dumps(sent, protocol=pickle.HIGHEST_PROTOCOL))
    assert received == sent
    assert [artifact.more_findings for artifact in received] == [True, False]
    assert [artifact.model for artifact in received] == [None, model]


def test_what_the_caller_does_once_the_workers_start_runs_before_any_verdict_is_waited_for(log: Path) -> None:
    """``score`` imports its report's code there, while the workers judge (issue 9)."""
    taken: list[CheckedArtifact] = []
    started_after: list[int] = []
    judge = functools.partial(check_guarded, forced_kind=None, keep_model=False)

    def judged(workers: int) -> None:
        for item in pipeline.judge_paths(
            [str(log), str(log)],
            judge,
            workers=workers,
            max_document_bytes=LIMIT,
            on_started=lambda: started_after.append(len(taken)),
        ):
            taken.append(item)

    judged(2)
    assert started_after == [0, 40]  # once per file judged on the workers, before its first verdict is taken
    assert len(taken) == 80
    taken.clear()
    started_after.clear()
    judged(1)  # no worker: nothing is started
    assert (started_after, len(taken)) == ([], 80)
