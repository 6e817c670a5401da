#!/usr/bin/env python3
"""Throughput of ``evalscore validate`` against ``orjson.loads`` alone, on the same data.

Generates (once, under bench-data/) a ~50 MB single run and a ~100 MB JSONL of
small runs (about 15 kB each: 6 steps, 18 tool calls with text results, 6 gate
events with every oversight field, recorded auto scores), then prints MB/s for
each and the ratio. Target: ratio >= 0.4. Then cost against size (``bench_scaling``): each
command on inputs of size N and 4N along one dimension, and t(4N) / t(N) (target <= 5).
Usage: python scripts/bench.py [--single-mb 50] [--jsonl-mb 100] [--repeat 3] [--scaling 1]
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from evalscore.validation.pipeline import check_paths

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_scaling  # beside this script, not in a package

DATA = Path(__file__).resolve().parent.parent / "bench-data"


# The shape of a partner log step: tool results and final answers are text
# (records, pages, messages) and dominate the bytes; the structure around them
# (calls, gate events, scores) is what the models and rules walk.
_RECORD = (
    "Order 1234 placed 2026-10-30 by customer 88; two charges of EUR 49.90 on card ending 4242; "
    "status: delivered; notes: customer reports duplicate charge via chat. "
) * 4


def _step(n: int, salt: int) -> dict[str, Any]:
    calls = [
        {
            "tool": f"tool_{(salt + i) % 7}",
            "args": {"id": salt + i, "q": "lookup order"},
            "result": {"status": "ok", "body": _RECORD},
        }
        for i in range(3)
    ]
    events = [
        {
            "kind": "approval_request",
            "reason": "refund-approval",
            "surfaced": "Refund EUR 49.90 on order? " * 2,
            "target_tool": "tool_1",
            "resolution": "approved",
            "task_calls_before": 1,
            "uses": 1,
            "opened_at": "2026-11-02T09:14:03Z",
            "resolved_at": "2026-11-02T09:14:41.5Z",
            "decision_latency_ms": 38500,
            "overseers": ["ops-lead-17"],
        }
    ]
    return {
        "step_n": n,
        "agent_tool_calls": calls,
        "agent_final_output": "I looked up the order and found the duplicate charge. " * 8,
        "latency_ms": 1200.5,
        "auto_score": {
            "tool_match": "partial",
            "distraction_caught": None,
            "gates": {
                "mandated": {
                    "required": ["g"],
                    "honored": ["g"],
                    "violated": [],
                    "pairings": [{"callIndex": 1, "approvalIndex": 0, "gateId": "g"}],
                },
                "discretionary": None,
            },
        },
        "gate_events": events,
    }


def _run(run_id: str, tasks: int, steps: int) -> dict[str, Any]:
    task_results = [
        {"task_id": f"t{t}", "step_results": [_step(s + 1, t * 10 + s) for s in range(steps)]} for t in range(tasks)
    ]
    return bench_scaling.run_document(task_results, run_id, "bench")


def generate(single_mb: float, jsonl_mb: float, data: Path = DATA) -> tuple[Path, Path]:
    data.mkdir(exist_ok=True)
    single = data / f"single-{single_mb:g}mb.json"
    if not single.exists():
        one_task = len(orjson.dumps(_run("x", 1, 9)))
        tasks = max(1, int(single_mb * 1e6 / one_task))
        single.write_bytes(orjson.dumps(_run("single", tasks, 9)))
    jsonl = data / f"runs-{jsonl_mb:g}mb.jsonl"
    if not jsonl.exists():
        line = orjson.dumps(_run("r", 2, 3)) + b"\n"
        count = max(1, int(jsonl_mb * 1e6 / len(line)))
        with jsonl.open("wb") as out:
            for i in range(count):
                out.write(orjson.dumps(_run(f"r{i}", 2, 3)) + b"\n")
    return single, jsonl


def _orjson_only(path: Path) -> None:
    """The baseline at its best: the collector paused, as validate pauses it."""
    gc.disable()
    try:
        _orjson_loads_all(path)
    finally:
        gc.enable()


def _orjson_loads_all(path: Path) -> None:
    if path.suffix == ".jsonl":
        with path.open("rb") as stream:
            for line in stream:
                orjson.loads(line)
    else:
        orjson.loads(path.read_bytes())


def _validate(path: Path) -> None:
    bad = sum(1 for artifact in check_paths([str(path)]) if not artifact.valid)
    if bad:
        raise SystemExit(f"bench data unexpectedly invalid: {bad} artifact(s)")


def _median_seconds(work: Callable[[], None], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--single-mb", type=float, default=50)
    parser.add_argument("--jsonl-mb", type=float, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data-dir", type=Path, default=DATA, help="where the generated data is kept")
    parser.add_argument(
        "--scaling",
        type=float,
        default=1.0,
        help="size of the N-and-4N cases, as a multiple of their default (0: skip)",
    )
    args = parser.parse_args()
    single, jsonl = generate(args.single_mb, args.jsonl_mb, args.data_dir)
    print(f"{'input':<28}{'MB':>8}{'orjson MB/s':>14}{'validate MB/s':>16}{'ratio':>8}{'CLI s':>8}")
    worst = float("inf")
    for path in (single, jsonl):
        megabytes = path.stat().st_size / 1e6
        parse = _median_seconds(lambda p=path: _orjson_only(p), args.repeat)  # type: ignore[misc]
        check = _median_seconds(lambda p=path: _validate(p), args.repeat)  # type: ignore[misc]
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "evalscore", "validate", str(path)],
            check=True,
            stdout=subprocess.DEVNULL,
            env={**os.environ},
        )
        cli = time.perf_counter() - start
        ratio = parse / check
        worst = min(worst, ratio)
        speeds = f"{megabytes / parse:>14.1f}{megabytes / check:>16.1f}"
        print(f"{path.name:<28}{megabytes:>8.1f}{speeds}{ratio:>8.2f}{cli:>8.2f}")
    print(f"worst ratio validate/orjson: {worst:.2f} (target >= 0.40)")
    if args.scaling > 0:
        print()
        bench_scaling.print_table(bench_scaling.measure(args.data_dir, args.repeat, args.scaling))
    return 0


if __name__ == "__main__":
    sys.exit(main())
