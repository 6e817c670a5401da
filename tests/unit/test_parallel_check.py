"""A long JSONL file checked on every core gives the answer of one core, even when a worker dies."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest

from evalscore.validation import parallel, pipeline
from evalscore.validation.checker import CheckedArtifact
from evalscore.validation.pipeline import check_paths

ROOT = Path(__file__).resolve().parents[2]
LINES = (ROOT / "examples" / "partner-log.jsonl").read_bytes().splitlines()


def verdicts(path: Path, *, in_parallel: bool) -> list[tuple[int | None, tuple[str, ...]]]:
    return [(a.line, tuple(f.code for f in a.findings)) for a in check_paths([str(path)], parallel=in_parallel)]


@pytest.fixture
def log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    if not parallel.can_parallelize():
        pytest.skip("one core, or no fork: the parallel path is never taken")
    monkeypatch.setattr(pipeline, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "CHUNK_LINES", 3)
    body = [LINES[index % 2] for index in range(40)]
    body[7] = body[7].replace(b'"resolution":"approved"', b'"resolution":"denied","resolution":"approved"', 1)
    body[20] = b'{"task_results": 1}'
    path = tmp_path / "runs.jsonl"
    path.write_bytes(b"\n".join(body) + b"\n")
    return path


def test_the_parallel_verdicts_are_the_sequential_ones_in_order(log: Path) -> None:
    expected = verdicts(log, in_parallel=False)
    assert len(expected) == 40
    assert expected[7][1] == ("ES011",)
    assert verdicts(log, in_parallel=True) == expected


PARENT = os.getpid()
REAL_CHECK_CHUNK = parallel._check_chunk


def dies_in_a_worker_on_the_third_chunk(source: str, kind: Any, chunk: parallel.Chunk) -> list[CheckedArtifact]:
    first = chunk[0]
    if os.getpid() != PARENT and isinstance(first, tuple) and first[0] == 7:
        os.kill(os.getpid(), signal.SIGKILL)  # as the kernel's OOM killer would
    return REAL_CHECK_CHUNK(source, kind, chunk)


def test_a_worker_that_dies_leaves_no_chunk_waiting_and_changes_no_verdict(
    log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = verdicts(log, in_parallel=False)
    monkeypatch.setattr(parallel, "_check_chunk", dies_in_a_worker_on_the_third_chunk)
    assert verdicts(log, in_parallel=True) == expected
