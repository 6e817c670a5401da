"""URL inputs on a Dask cluster (issue 10): the workers open the URLs themselves, and an input a worker
cannot open is a finding on that input, the others still judged.

``memory://`` stands for object storage: a cluster of threads shares this process's in-memory file
system, as workers share a bucket; worker processes do not see it, as workers without the bucket's
credentials would not."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import fsspec
import pytest
from click.testing import CliRunner, Result
from distributed import Client, LocalCluster

from evalscore.cli.main import main

ROOT: Final = Path(__file__).resolve().parents[2]
LOG: Final = ROOT / "examples" / "partner-log.jsonl"
RUN: Final = ROOT / "fixtures" / "valid" / "run" / "full-v3.json"
MEMORY: Final = fsspec.filesystem("memory")
FILES: Final = ("a/runs.jsonl", "b.json", "c.jsonl")


@pytest.fixture
def bucket(tmp_path: Path) -> Iterator[str]:
    root = f"/{tmp_path.name}"
    MEMORY.pipe(f"{root}/a/runs.jsonl", LOG.read_bytes() + b'{"run_id": 1}\n')
    MEMORY.pipe(f"{root}/b.json", RUN.read_bytes())
    MEMORY.pipe(f"{root}/c.jsonl", LOG.read_bytes())
    yield f"memory://{tmp_path.name}"
    MEMORY.rm(root, recursive=True)


def invoke(*args: object) -> Result:
    return CliRunner().invoke(main, [str(arg) for arg in args], catch_exceptions=False)


def _task_counts(dask_scheduler: Any) -> dict[str, int]:
    """How many tasks of each prefix were done (reached memory: ``state_counts`` counts every entry)."""
    return {name: prefix.state_counts["memory"] for name, prefix in dask_scheduler.task_prefixes.items()}


def test_the_workers_read_the_urls_and_the_report_is_the_single_process_one(bucket: str) -> None:
    here = invoke("validate", "--format", "json", "-j", "1", bucket)
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None, silence_logs=logging.CRITICAL
        ) as local,
        Client(local) as client,
    ):
        there = invoke("validate", "--format", "json", "--dask", local.scheduler_address, bucket)
        tasks: dict[str, int] = client.run_on_scheduler(_task_counts)
    assert (there.exit_code, there.stdout) == (here.exit_code, here.stdout)
    assert here.exit_code == 1  # the invalid line
    assert [record["path"] for record in json.loads(here.stdout)["inputs"]] == [
        f"{bucket}/{name}" for name in ("b.json", "c.jsonl", "a/runs.jsonl")
    ]
    assert tasks.get("judge_file") == len(FILES)  # each URL read by a worker, whole: never cut here
    assert "judge_range" not in tasks


def test_a_url_a_worker_cannot_open_is_a_finding_and_the_rest_is_judged(bucket: str) -> None:
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.CRITICAL
        ) as local,
        Client(local),
    ):
        result = invoke("validate", "--format", "json", "--dask", local.scheduler_address, bucket, RUN)
    report = json.loads(result.stdout)
    assert result.exit_code == 2  # unreadable input
    unread = [artifact for artifact in report["artifacts"] if artifact["source"].startswith(bucket)]
    assert [artifact["findings"][0]["code"] for artifact in unread] == ["ES001"] * len(FILES)
    assert {artifact["findings"][0]["message"] for artifact in unread} == {"no such file or directory"}
    assert report["artifacts"][-1]["source"] == str(RUN)
    assert report["artifacts"][-1]["valid"] is True
