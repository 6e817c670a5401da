"""scripts/bench.py runs at a tiny size and prints the one table CONTRIBUTING describes, every row in it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from module_files import load_module

ROOT = Path(__file__).resolve().parents[2]
HEADER = ["command", "data", "shape", "time", "s", "MB/s", "against", "ratio", "target", "peak", "RSS", "MB", "-j1/all"]
ROWS = 1 + 3 + 1 + 2 + 1 + 14 + 2 + 3 + 2
"""start-up; one run, JSONL, large JSONL; small files; score against the floor and against validate;
import; seven N-and-4N cases for validate and score; the invalid twin's time and RSS; three flat-RSS rows;
validate and score with --dask local:2 against -j 1."""


@pytest.fixture(scope="module")
def seed_log(inspect_logs: dict[str, Path]) -> Path:
    """The session's real Inspect log (tests/conftest.py), shared with the importer tests."""
    return inspect_logs["eval"]


def _bench(data: Path, seed: Path, *extra: str) -> list[str]:
    tiny = ["--repeat", "1", "--single-mb", "0.2", "--jsonl-mb", "0.2", "--large-mb", "0.3", "--files", "5"]
    inputs = ["--inspect-samples", "12", "--inspect-seed", str(seed), "--twin-calls", "100", "--data-dir", str(data)]
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench.py"), *tiny, *inputs, *extra],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def _table(lines: list[str]) -> list[str]:
    rules = [index for index, line in enumerate(lines) if set(line) == {"-"}]
    assert len(rules) == 2, lines
    return lines[rules[0] + 1 : rules[1]]


def test_the_benchmark_prints_one_table_with_every_command_and_shape(tmp_path: Path, seed_log: Path) -> None:
    lines = _bench(tmp_path, seed_log, "--large", "--scaling", "0.01", "--dask", "--dask-mb", "0.2")
    assert lines[0].startswith("evalscore bench, ")
    assert lines[0].endswith("evalscore's modules compiled to bytecode first")
    assert lines[1].split() == HEADER
    rows = _table(lines)
    assert len(rows) == ROWS
    assert all(row.startswith(("validate ", "score --suite ", "import inspect ")) for row in rows)
    assert sum(bool(re.search(r" (<=|>=)\d+(\.\d+)? +(pass|FAIL) ", row)) for row in rows) == 23
    assert sum(" t(N) " in row for row in rows) == 14
    dask = [row for row in rows if ", --dask local:2 " in row]
    assert len(dask) == 2
    assert all(re.search(r" -j 1 +\d+\.\d+ +(pass|FAIL)? *", row) for row in dask), dask
    assert re.fullmatch(r"targets met: \d+ of 23( \(FAIL marks the others\))?", lines[len(rows) + 4])


def _bench_module() -> ModuleType:
    return load_module("bench", ROOT / "scripts" / "bench.py")


def test_rows_not_measured_stay_in_the_table_marked_with_the_option_that_measures_them(tmp_path: Path) -> None:
    bench = _bench_module()
    skipped = bench.scaling_rows(tmp_path, 1, 0.0)
    assert len(skipped) == 14
    rows = _table(bench.render(skipped).splitlines())
    assert all(row.endswith("--scaling 0") for row in rows)
    assert list(tmp_path.iterdir()) == []


def test_the_dask_rows_are_marked_with_their_option_until_it_is_given(tmp_path: Path) -> None:
    bench = _bench_module()
    shapes = bench.Shapes(*([tmp_path] * 8), (tmp_path, tmp_path), None)
    rows = _table(bench.render(bench.dask_rows(shapes, 1000, 1)).splitlines())
    assert len(rows) == 2
    assert all(row.endswith("--dask") and "JSONL 1000 MB, --dask local:2" in row for row in rows)


def test_the_one_core_column_times_minus_j_1_against_the_default_only_where_jobs_exist() -> None:
    bench = _bench_module()
    command = bench.evalscore("validate", "runs.jsonl")
    both = bench.with_one_core({"validate": command}, True)
    assert both["validate -j1"].argv == (*command.argv, "-j", "1")
    figures = {"validate": bench.Figure(1.0, 50.0), "validate -j1": bench.Figure(1.8, 50.0)}
    assert bench.speedup(figures, "validate") == "1.80x"
    assert bench.with_one_core({"validate": command}, False) == {"validate": command}
    assert bench.speedup({"validate": bench.Figure(1.0, 50.0)}, "validate") == "n/a"


def test_the_bench_finds_the_jobs_option_on_validate_and_score_and_not_on_import() -> None:
    supports_jobs = _bench_module().supports_jobs
    assert supports_jobs("validate") is True
    assert supports_jobs("score") is True
    assert supports_jobs("import", "inspect") is False
    assert supports_jobs("no-such-command") is False


def test_a_scaling_case_that_fails_names_itself_and_shows_what_its_process_wrote(tmp_path: Path) -> None:
    scaling = load_module("bench_scaling", ROOT / "scripts" / "bench_scaling.py")
    missing = tmp_path / "not-made"
    with pytest.raises(scaling.CaseFailedError) as failed:
        scaling.measure(missing, 1, 0.001)
    message = str(failed.value)
    assert message.startswith(f"scaling case {scaling.CASES[0].build.__name__} exited 1:\n")
    assert "FileNotFoundError" in message
    assert str(missing) in message
