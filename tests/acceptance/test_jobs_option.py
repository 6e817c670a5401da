"""`-j/--jobs`: how many processes share a long JSONL file, and the answer never depends on it.

The reports of `validate` and `score` with `-j 2` are compared byte for byte with `-j 1` on a
JSONL cut into many ranges (the size above which a file is shared, and the size of a range, are
lowered here), holding invalid lines, repeated runs, claims the evidence contradicts and a bug
planted on one run. Each comparison also counts the tasks handed to the workers, so that two
equal reports cannot come from two single-process readings.
"""

from __future__ import annotations

import concurrent.futures
import copy
import gzip
import json
import multiprocessing
import os
import sqlite3
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalscore.cli.main import main
from evalscore.running import parallel, pipeline
from evalscore.running.cluster import ClusterError
from evalscore.scoring import checked_runs, corpus, repeated_runs, scored_runs
from evalscore.scoring.repeated_runs import RepeatedRuns
from evalscore.validation import summary
from evalscore.validation.clean_stretches import CleanStretch
from module_files import load_module

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "partner-log.jsonl"
SUITE = ROOT / "examples" / "partner-suite.yaml"
RUN_A, RUN_B = (json.loads(line) for line in LOG.read_text().splitlines())
CLAIM = load_module("scoring.builders", ROOT / "tests" / "unit" / "scoring" / "builders.py").PARTNER_ERASURE_CLAIM
"""A recorded auto score the evidence of RUN_A's erasure step contradicts: disagreements, in input order."""
LINES = 48
CLAIMED = [index for index in range(LINES) if index % 4 == 0 and index % 7 != 6]
"""The lines whose claims are compared with the evidence: those of a repeated run are refused instead."""


def _line(document: Any) -> bytes:
    return json.dumps(document, separators=(",", ":")).encode() + b"\n"


def valid_lines() -> list[bytes]:
    """Distinct runs, some claiming what the evidence contradicts; every seventh repeats the id of the line before."""
    lines = []
    for index in range(LINES):
        run = copy.deepcopy(RUN_A if index % 2 == 0 else RUN_B)
        run["run_id"] = f"run-{index - 1 if index % 7 == 6 else index}"
        if index % 4 == 0:
            run["task_results"][1]["step_results"][0]["auto_score"] = CLAIM
        lines.append(_line(run))
    return lines


def invalid_lines() -> list[bytes]:
    """The valid lines with, spread through them: a cut line, a wrong type, a suite, a repeated key."""
    lines = valid_lines()
    lines[5] = lines[5][: len(lines[5]) // 2] + b"\n"
    lines[17] = b'{"task_results": 1}\n'
    lines[30] = _line({"schema_version": "1.0.1", "suite": {"id": "x"}})
    lines[41] = lines[41].replace(b'"resolution":"approved"', b'"resolution":"denied","resolution":"approved"', 1)
    return lines


@pytest.fixture
def submitted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The workers each pool was made with, then one entry per task handed to a worker."""
    calls: list[int] = []
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", _counting_pool(calls))  # taken when a pool is made
    monkeypatch.setattr(pipeline, "PARALLEL_MIN_BYTES", 0)
    return calls


def _counting_pool(calls: list[int]) -> type[ProcessPoolExecutor]:
    class CountingPool(ProcessPoolExecutor):
        def __init__(self, max_workers: int, **options: Any) -> None:
            calls.append(-max_workers)
            super().__init__(max_workers, **options)

        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            calls.append(1)
            return super().submit(fn, *args, **kwargs)

    return CountingPool


def invoke(*args: str | Path) -> Result:
    result = CliRunner().invoke(main, [str(arg) for arg in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result


def tasks(calls: list[int]) -> int:
    return sum(1 for call in calls if call > 0)


def same_answer_with_one_and_two_jobs(calls: list[int], *args: str | Path) -> tuple[int, str]:
    """The exit code and stdout of ``-j 1`` (no pool made), asserted equal to those of ``-j 2`` (tasks handed out)."""
    single = invoke(*args, "-j", "1")
    assert calls == []
    shared = invoke(*args, "-j", "2")
    assert calls[0] == -2
    assert tasks(calls) >= 3
    assert (shared.exit_code, shared.stdout) == (single.exit_code, single.stdout)
    calls.clear()
    return single.exit_code, single.stdout


def write(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"".join(lines))
    return path


SPLITS = [700, 2 * len(_line(RUN_A)) + 1, 3 * len(_line(RUN_B)), 9973]
"""Range sizes: every line its own range, two lines and a bit, three lines, many lines."""


@pytest.mark.parametrize("range_bytes", SPLITS)
def test_the_score_report_with_a_suite_is_the_same_byte_for_byte_on_one_core_and_two(
    range_bytes: int, tmp_path: Path, submitted: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline, "RANGE_BYTES", range_bytes)
    log = write(tmp_path / "runs.jsonl", valid_lines())
    code, stdout = same_answer_with_one_and_two_jobs(submitted, "score", log, "--suite", SUITE, "--format", "json")
    report = json.loads(stdout)
    assert code == 1  # the claims the evidence contradicts fail it; the repeated runs are refused and listed
    assert [entry["source"] for entry in report["disagreements"]] == [f"{log}:{i + 1}" for i in CLAIMED for _ in "ab"]
    assert [entry["code"] for entry in report["refusals"]] == ["run-repeated"] * len(range(6, LINES, 7))
    assert [entry["source"] for entry in report["refusals"]] == [f"{log}:{line}" for line in range(7, LINES + 1, 7)]
    assert report["counts"]["total_steps"] > 0


@pytest.mark.parametrize("repeats", [False, True])
def test_the_workers_send_summed_runs_and_the_parent_reads_again_only_those_holding_a_repeat(
    repeats: bool, tmp_path: Path, submitted: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline, "RANGE_BYTES", SPLITS[3])
    received: list[list[int]] = []
    """The line of each run, for each sum the parent received."""
    unfolded: list[list[int]] = []
    real_add, real_unfolded = corpus.CorpusScoring.add, scored_runs.ScoredRuns.unfolded

    def lines_of(scored: scored_runs.ScoredRuns) -> list[int]:
        return [int(source.rsplit(":", 1)[1]) for _, source, _ in scored.runs]

    def add(scoring: Any, judged: Any) -> None:
        if isinstance(judged, scored_runs.ScoredRuns):
            received.append(lines_of(judged))
        real_add(scoring, judged)

    def count_unfolded(scored: scored_runs.ScoredRuns) -> Any:
        unfolded.append(lines_of(scored))
        return real_unfolded(scored)

    monkeypatch.setattr(corpus.CorpusScoring, "add", add)
    monkeypatch.setattr(scored_runs.ScoredRuns, "unfolded", count_unfolded)
    lines = valid_lines()
    if not repeats:
        lines = [line for index, line in enumerate(lines) if index % 7 != 6]
    log = write(tmp_path / "runs.jsonl", lines)
    same_answer_with_one_and_two_jobs(submitted, "score", log, "--suite", SUITE, "--format", "json")
    assert [line for lines_summed in received for line in lines_summed] == list(range(1, len(lines) + 1))
    assert len(received) < len(lines) / 3  # several runs in each sum the parent received
    repeated = [lines_summed for lines_summed in received if any(line % 7 == 0 for line in lines_summed)]
    assert unfolded == (repeated if repeats else [])
    assert len(repeated) >= 3


@pytest.mark.parametrize("range_bytes", SPLITS[::3])
def test_the_recorded_score_report_is_the_same_on_one_core_and_two(
    range_bytes: int, tmp_path: Path, submitted: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline, "RANGE_BYTES", range_bytes)
    log = write(tmp_path / "runs.jsonl", valid_lines())
    code, stdout = same_answer_with_one_and_two_jobs(submitted, "score", log, "--format", "json")
    assert json.loads(stdout)["source"] == "recorded"
    assert code == 0  # not gated: the repeated runs are refused and listed, and change no check


@pytest.mark.parametrize("range_bytes", SPLITS)
def test_invalid_lines_give_the_same_validation_and_score_reports_on_one_core_and_two(
    range_bytes: int, tmp_path: Path, submitted: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline, "RANGE_BYTES", range_bytes)
    log = write(tmp_path / "runs.jsonl", invalid_lines())
    code, stdout = same_answer_with_one_and_two_jobs(submitted, "validate", log, "--format", "json")
    assert code == 1
    assert [artifact["line"] for artifact in json.loads(stdout)["artifacts"] if not artifact["valid"]] == [
        6,
        18,
        31,
        42,
    ]
    code, stdout = same_answer_with_one_and_two_jobs(submitted, "score", log, "--suite", SUITE, "--format", "json")
    assert code == 3
    assert [artifact["line"] for artifact in json.loads(stdout)["artifacts"]] == [6, 18, 31, 42]


@pytest.mark.parametrize("range_bytes", SPLITS)
def test_validate_s_workers_send_clean_verdicts_as_stretches_and_the_report_is_the_same(
    range_bytes: int, tmp_path: Path, submitted: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline, "RANGE_BYTES", range_bytes)
    in_stretches: list[int] = []
    add_clean = summary.ValidationSummary.add_clean

    def counting(self: summary.ValidationSummary, stretch: CleanStretch) -> None:
        in_stretches.append(stretch.count)
        add_clean(self, stretch)

    monkeypatch.setattr(summary.ValidationSummary, "add_clean", counting)
    log = write(tmp_path / "runs.jsonl", invalid_lines())
    code, stdout = same_answer_with_one_and_two_jobs(submitted, "validate", log, "--format", "json")
    assert code == 1
    listed = json.loads(stdout)["artifacts"]
    assert len(listed) == LINES
    assert sum(in_stretches) == sum(1 for artifact in listed if artifact["valid"] and not artifact["findings"]) == 44


def _failing(*_: Any) -> None:
    raise RuntimeError("planted in the parent's loop")


def test_a_bug_in_score_s_loop_leaves_no_worker_behind(
    tmp_path: Path, submitted: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pool is shut down when the loop over its results is left by an error, not when whatever
    holds the traceback lets go of it: a worker left waiting on its queue outlives the command.
    (``validate``'s case is in test_validate_cli.py, which the mutation gate runs.)"""
    monkeypatch.setattr(pipeline, "RANGE_BYTES", 700)
    monkeypatch.setattr(corpus.CorpusScoring, "add", _failing)
    log = write(tmp_path / "runs.jsonl", valid_lines())
    before = set(multiprocessing.active_children())
    result = invoke("score", log, "-j", "2")
    assert result.exit_code == 70
    assert tasks(submitted) >= 1
    left = [child for child in multiprocessing.active_children() if child not in before]
    for child in left:  # a worker left behind is ended here, not left to outlive the test session
        child.terminate()
    assert left == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_no_room_on_disk_for_the_run_ids_is_exit_2_with_one_line_and_no_report(
    jobs: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A long log's run ids go to a temporary database on disk; there is no room for them.
    monkeypatch.setattr(corpus, "RepeatedRuns", partial(RepeatedRuns, memory_entries=5))
    monkeypatch.setattr(repeated_runs._OnDisk, "add", _disk_full)
    log = write(tmp_path / "runs.jsonl", valid_lines())
    report = tmp_path / "score.json"
    result = invoke("score", log, "--suite", SUITE, "-j", jobs, "--format", "json", "-o", report)
    assert result.exit_code == 2
    assert "evalscore score: the run ids read so far could not be kept in a temporary database" in result.output
    assert "SQLITE_TMPDIR" in result.output
    assert not report.exists()
    assert "internal error" not in result.output


def _disk_full(*_: Any) -> None:
    raise sqlite3.OperationalError("database or disk is full")


def test_a_bug_on_one_run_gives_the_same_report_on_one_core_and_two(
    tmp_path: Path, submitted: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline, "RANGE_BYTES", SPLITS[1])
    real = checked_runs.RunScorer.score_dict  # runs re-derived against a suite are scored from their dict

    def score_dict(scorer: Any, scoring: Any, run: Any, source: str) -> None:
        if run["run_id"] == "run-9":
            raise ZeroDivisionError("a bug planted by the test")
        real(scorer, scoring, run, source)

    monkeypatch.setattr(checked_runs.RunScorer, "score_dict", score_dict)  # forked workers inherit it
    log = write(tmp_path / "runs.jsonl", invalid_lines()[:17] + valid_lines()[17:])
    code, stdout = same_answer_with_one_and_two_jobs(submitted, "score", log, "--suite", SUITE, "--format", "json")
    assert code == 3
    artifacts = json.loads(stdout)["artifacts"]
    assert [artifact["source"] for artifact in artifacts] == [str(log)]  # the cut line 6: run-9 is never scored
    log = write(tmp_path / "runs.jsonl", valid_lines())
    code, stdout = same_answer_with_one_and_two_jobs(submitted, "score", log, "--suite", SUITE, "--format", "json")
    assert code == 70
    (artifact,) = json.loads(stdout)["artifacts"]
    assert artifact["source"] == f"{log}:10"
    assert "ZeroDivisionError: a bug planted by the test" in artifact["findings"][0]["message"]


def test_a_gzipped_log_shared_in_chunks_gives_the_same_score_report(
    tmp_path: Path, submitted: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "CHUNK_LINES", 5)
    log = tmp_path / "runs.jsonl.gz"
    log.write_bytes(gzip.compress(b"".join(valid_lines())))
    code, stdout = same_answer_with_one_and_two_jobs(submitted, "score", log, "--suite", SUITE, "--format", "json")
    assert code == 1  # the disagreements fail it
    assert len(json.loads(stdout)["disagreements"]) == 2 * len(CLAIMED)


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(range_bytes=st.integers(min_value=1000, max_value=40_000), invalid=st.booleans())
def test_wherever_the_file_is_cut_the_score_report_is_that_of_one_process(
    range_bytes: int, invalid: bool, tmp_path: Path, submitted: list[int]
) -> None:
    log = write(tmp_path / f"runs-{invalid}.jsonl", invalid_lines() if invalid else valid_lines())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pipeline, "RANGE_BYTES", range_bytes)
        ranges = -(-log.stat().st_size // range_bytes)
        single = invoke("score", log, "--suite", SUITE, "--format", "json", "-j", "1")
        shared = invoke("score", log, "--suite", SUITE, "--format", "json", "-j", "2")
    assert tasks(submitted) >= min(ranges, 3)
    submitted.clear()
    assert (shared.exit_code, shared.stdout) == (single.exit_code, single.stdout)


def test_without_jobs_a_pool_has_every_usable_core(
    tmp_path: Path, submitted: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parallel, "usable_cores", lambda: 3)
    log = write(tmp_path / "runs.jsonl", valid_lines())
    for command in (["validate"], ["score", "--suite", str(SUITE)]):
        assert invoke(*command, log).exit_code in (0, 1, 4)
        assert submitted[0] == -3
        submitted.clear()


def test_one_job_starts_no_process_and_makes_no_pool(
    tmp_path: Path, submitted: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_fork() -> int:
        raise AssertionError("a process was forked with -j 1")

    monkeypatch.setattr("os.fork", no_fork)
    log = write(tmp_path / "runs.jsonl", invalid_lines())
    assert invoke("validate", log, "-j", "1").exit_code == 1
    assert invoke("score", log, "--suite", SUITE, "--jobs", "1").exit_code == 3
    assert invoke("score", write(tmp_path / "ok.jsonl", valid_lines()), "-j", "1").exit_code == 0  # not gated
    assert submitted == []


@pytest.mark.parametrize("jobs", ["0", "-1", "two"])
@pytest.mark.parametrize("command", ["validate", "score"])
def test_fewer_than_one_job_is_a_usage_error(command: str, jobs: str) -> None:
    result = invoke(command, str(LOG), "--jobs", jobs)
    assert result.exit_code == 2
    assert "Invalid value for '-j' / '--jobs'" in result.output


def test_the_jobs_option_is_documented_in_each_commands_help() -> None:
    for command in ("validate", "score"):
        text = " ".join(invoke(command, "--help").stdout.split())
        assert "-j, --jobs INTEGER RANGE" in text
        assert "1 starts no other process" in text
        assert "[default: every usable core]" in text


def test_the_default_is_every_usable_core_and_jobs_below_one_are_refused() -> None:
    affinity = getattr(os, "sched_getaffinity", None)
    expected = len(affinity(0)) if affinity else (os.cpu_count() or 1)
    assert parallel.worker_count() == parallel.usable_cores() == expected
    assert parallel.worker_count(5) == 5
    with pytest.raises(ValueError, match="at least 1"):
        parallel.worker_count(0)
    with pytest.raises(ValueError, match="at least 1"):
        pipeline.check_paths([str(LOG)], jobs=0)


def spilling(closed: list[tuple[int, int]]) -> type[RepeatedRuns]:
    """``RepeatedRuns`` with 3 entries in memory at most, noting how many it holds in memory and on disk when closed."""

    class Spilling(RepeatedRuns):
        def __init__(self) -> None:
            super().__init__(memory_entries=3)

        def close(self) -> None:
            closed.append((self.in_memory(), self.on_disk()))
            super().close()

    return Spilling


def test_run_ids_spilled_to_disk_give_the_same_report_across_files_and_forked_pools(
    tmp_path: Path, submitted: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parent spills the run ids it has met to a database on disk while reading the first file;
    the pool forked for the second file starts with that connection open and must leave it alone."""
    monkeypatch.setattr(pipeline, "RANGE_BYTES", SPLITS[1])
    first = write(tmp_path / "a.jsonl", valid_lines())
    second = write(tmp_path / "b.jsonl", valid_lines())  # every run of a.jsonl again
    args = ("score", first, second, "--suite", SUITE, "--format", "json")
    unbounded = invoke(*args, "-j", "2")
    submitted.clear()
    closed: list[tuple[int, int]] = []
    monkeypatch.setattr(corpus, "RepeatedRuns", spilling(closed))
    for jobs in ("1", "2"):
        bounded = invoke(*args, "-j", jobs)
        assert (bounded.exit_code, bounded.stdout) == (unbounded.exit_code, unbounded.stdout)
    assert [call for call in submitted if call < 0] == [-2, -2]  # a pool per file, under -j 2 only
    distinct = LINES - len(range(6, LINES, 7))
    assert closed == [(distinct % 3, distinct - distinct % 3)] * 2
    refusals = json.loads(unbounded.stdout)["refusals"]
    assert len(refusals) == len(range(6, LINES, 7)) + LINES
    assert refusals[-1]["source"] == f"{second}:{LINES}"
    assert f"was already read from {first}:{LINES}" in refusals[-1]["reason"]


def test_the_run_ids_on_disk_are_deleted_when_reading_the_runs_fails(
    tmp_path: Path, submitted: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline, "RANGE_BYTES", SPLITS[0])  # a line per range: the first 10 items are 10 lines
    real = pipeline.judge_paths

    def failing(*args: Any, **kwargs: Any) -> Any:
        yield from list(real(*args, **kwargs))[:10]
        raise ClusterError("the scheduler went away")

    closed: list[tuple[int, int]] = []
    monkeypatch.setattr(corpus, "RepeatedRuns", spilling(closed))
    monkeypatch.setattr(corpus, "judge_paths", failing)
    result = invoke("score", write(tmp_path / "runs.jsonl", valid_lines()), "-j", "2")
    assert result.exit_code == 2
    assert "the scheduler went away" in result.stderr
    assert closed == [(0, 9)]  # the first 10 lines hold 9 distinct runs: three spills of 3
