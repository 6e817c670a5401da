"""On a Dask cluster, validate and score give the single-process report byte for byte, wherever the
JSONL files are cut, in whatever order the files come, on however many workers (issue 10)."""

from __future__ import annotations

import gzip
import json
import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest
from _budget import examples
from click.testing import CliRunner, Result
from distributed import Client, LocalCluster
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalscore.cli.main import main
from evalscore.running import judging

ROOT: Final = Path(__file__).resolve().parents[2]
LOG: Final = ROOT / "examples" / "partner-log.jsonl"
SUITE: Final = ROOT / "examples" / "partner-suite.yaml"
RUN: Final = ROOT / "fixtures" / "valid" / "run" / "full-v3.json"
NAMES: Final = ("runs.jsonl", "more.jsonl.gz", "run.json", "empty.jsonl", "blank.jsonl", "bad.json")
RUN_NAMES: Final = ("valid-runs.jsonl", "more.jsonl.gz")


@pytest.fixture(scope="module", params=[1, 2, 3], ids=lambda workers: f"{workers}-workers")
def cluster(request: pytest.FixtureRequest) -> Iterator[Client]:
    """A real Dask LocalCluster of one, two and three worker processes in turn (the tasks in flight and
    the order they finish in differ with each)."""
    workers: int = request.param
    with (
        LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,
        ) as local,
        Client(local) as client,
    ):
        client.wait_for_workers(workers)
        assert len(client.nthreads()) == workers
        yield client


def invoke(*args: object) -> Result:
    return CliRunner().invoke(main, [str(arg) for arg in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Runs the suite scores (valid, invalid, repeated), gzipped and plain, a file of no line and one
    of blank lines only."""
    folder = tmp_path_factory.mktemp("corpus")
    lines = LOG.read_text().splitlines()
    runs = []
    for index in range(12):
        run = json.loads(lines[index % len(lines)])
        run["run_id"] = f"{run['run_id']}-{index % 10}"  # two of them met twice: refused where met again
        runs.append(json.dumps(run))
    (folder / "valid-runs.jsonl").write_text("\n".join(runs) + "\n")
    runs.insert(5, "")
    runs.insert(8, '{"run_id": 3}')  # an invalid line among valid ones
    (folder / "runs.jsonl").write_text("\n".join(runs) + "\n")
    (folder / "more.jsonl.gz").write_bytes(gzip.compress(LOG.read_bytes()))
    (folder / "run.json").write_bytes(RUN.read_bytes())
    (folder / "empty.jsonl").write_bytes(b"")
    (folder / "blank.jsonl").write_bytes(b"\n\n")
    (folder / "bad.json").write_bytes(b'{"schema_version": "1.0.1", "run_id": "x", "run_id": "y"}')
    assert sorted(path.name for path in folder.iterdir()) == sorted({*NAMES, *RUN_NAMES})
    return folder


@settings(
    max_examples=examples(8),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(order=st.permutations(NAMES), cut=st.integers(1, 6000))
def test_validate_on_the_cluster_gives_the_single_process_report(
    cluster: Client, corpus: Path, order: list[str], cut: int
) -> None:
    paths = [corpus / name for name in order]
    here = invoke("validate", "--format", "json", "-j", "1", *paths)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(judging, "RANGE_BYTES", cut)
        there = invoke("validate", "--format", "json", "--dask", cluster.scheduler.address, *paths)
    assert (there.exit_code, there.stdout) == (here.exit_code, here.stdout)
    assert here.exit_code == 1  # the corpus holds invalid documents: the reports carry findings
    assert len(json.loads(here.stdout)["artifacts"]) == 12 + 1 + 2 + 1 + 1 + 1 + 1


@settings(
    max_examples=examples(6),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(order=st.permutations(RUN_NAMES), cut=st.integers(1, 6000))
def test_score_on_the_cluster_gives_the_single_process_report(
    cluster: Client, corpus: Path, order: list[str], cut: int
) -> None:
    paths = [corpus / name for name in order]
    here = invoke("score", "--suite", SUITE, "--format", "json", "-j", "1", *paths)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(judging, "RANGE_BYTES", cut)
        there = invoke("score", "--suite", SUITE, "--format", "json", "--dask", cluster.scheduler.address, *paths)
    assert (there.exit_code, there.stdout) == (here.exit_code, here.stdout)
    assert here.exit_code in (0, 1, 4)  # scored (the decision's own exit code)
    report = json.loads(here.stdout)
    assert report["counts"]["total_steps"] > 0
    assert len(report["refusals"]) >= 2  # the two runs met twice


def test_a_local_cluster_started_by_the_command_gives_the_single_process_report() -> None:
    """``--dask local:2`` as a user runs it: the command starts two worker processes and closes them;
    nothing but the dashboard's address reaches stderr."""
    command = [sys.executable, "-m", "evalscore", "score", str(LOG), "--suite", str(SUITE), "--format", "json"]
    here = subprocess.run([*command, "-j", "1"], capture_output=True, check=False)
    there = subprocess.run([*command, "--dask", "local:2"], capture_output=True, check=False, timeout=120)
    assert (there.returncode, there.stdout) == (here.returncode, here.stdout)
    assert here.returncode == 0
    assert b"Traceback" not in there.stderr
    others = [line for line in there.stderr.splitlines() if not line.startswith(b"evalscore: Dask dashboard at http")]
    assert others == []  # nothing but the dashboard's address, when the cluster has a dashboard


EVAL_KIT: Final = ROOT / ".." / "shared" / "compat" / "eval-kit"
"""Artifacts written by the compatibility anchor, beside the repository where present (never copied in)."""


def _here_and_on_local_2(
    *arguments: str,
) -> tuple[subprocess.CompletedProcess[bytes], subprocess.CompletedProcess[bytes]]:
    command = [sys.executable, "-m", "evalscore", *arguments, "--format", "json"]
    here = subprocess.run([*command, "-j", "1"], capture_output=True, check=False)
    there = subprocess.run([*command, "--dask", "local:2"], capture_output=True, check=False, timeout=180)
    return here, there


def test_the_repository_s_own_data_gives_the_single_process_reports_through_local_2() -> None:
    """Every fixture (valid and invalid, of every kind), the examples and, where present, the eval-kit
    corpus: validated, and the runs among them scored, with ``--dask local:2`` as a user runs it."""
    corpora = [str(ROOT / "fixtures"), str(ROOT / "examples"), *([str(EVAL_KIT)] if EVAL_KIT.is_dir() else [])]
    here, there = _here_and_on_local_2("validate", *corpora)
    assert (there.returncode, there.stdout) == (here.returncode, here.stdout)
    assert here.returncode == 1  # the invalid fixtures
    assert len(json.loads(here.stdout)["artifacts"]) >= 70

    runs = [str(LOG), *([str(EVAL_KIT / "runs")] if EVAL_KIT.is_dir() else [])]
    here, there = _here_and_on_local_2("score", "--suite", str(SUITE), *runs)
    assert (there.returncode, there.stdout) == (here.returncode, here.stdout)
    assert json.loads(here.stdout)["counts"]["total_steps"] > 0
