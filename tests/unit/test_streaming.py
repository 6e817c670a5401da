"""A JSONL log is checked line by line: memory does not grow with the file's length."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

from evalscore.running.pipeline import check_paths

MINIMAL_RUN = Path(__file__).resolve().parents[2] / "fixtures" / "valid" / "run" / "minimal.json"


def _peak_bytes_while_checking(path: Path) -> tuple[int, int]:
    tracemalloc.start()
    try:
        count = sum(1 for artifact in check_paths([str(path)], jobs=1) if artifact.valid)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return count, peak


def test_checking_a_jsonl_log_holds_one_line_at_a_time_not_the_file(tmp_path: Path) -> None:
    line = b"".join(MINIMAL_RUN.read_bytes().split()) + b"\n"
    short, long = tmp_path / "short.jsonl", tmp_path / "long.jsonl"
    short.write_bytes(line * 200)
    long.write_bytes(line * 20_000)
    assert long.stat().st_size > 5_000_000
    short_count, short_peak = _peak_bytes_while_checking(short)
    long_count, long_peak = _peak_bytes_while_checking(long)
    assert (short_count, long_count) == (200, 20_000)
    # a hundred times the lines, yet the peak stays within a small constant of the short file's
    assert long_peak < short_peak + 2_000_000
    assert long_peak < long.stat().st_size / 2
