"""scripts/bench.py runs and prints the throughput lines and the N-and-4N table that CONTRIBUTING describes."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_benchmark_prints_throughput_and_the_ratio_on_tiny_data(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "bench.py"),
            "--single-mb",
            "0.3",
            "--jsonl-mb",
            "0.3",
            "--repeat",
            "1",
            "--data-dir",
            str(tmp_path),
            "--scaling",
            "0.02",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["input", "MB", "orjson", "MB/s", "validate", "MB/s", "ratio", "CLI", "s"]
    assert len([line for line in lines if line.startswith(("single-", "runs-"))]) == 2
    assert any(line.startswith("worst ratio validate/orjson: ") for line in lines)
    scaling = [line for line in lines if line.startswith(("validate ", "score --suite "))]
    assert len(scaling) == 10
    assert all(re.search(r"\d+\.\d{3}\s+\d+\.\d{3}\s+(\d+\.\d{2}|inf)( {2}super-linear)?$", line) for line in scaling)
    assert lines[-1].startswith("worst t(4N)/t(N): ")
