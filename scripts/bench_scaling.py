"""Cost against input size: each command on inputs of size N and 4N along one dimension.

Imported by ``scripts/bench.py``. Each case builds a run (or a JSONL of runs) that grows along one
dimension only (tasks, tool calls, gate events, distinct target tools, questions under as many
blockers, gates under v1 over as many calls and events, runs), times ``validate`` and ``score`` on N
and 4N in a fresh process per case (this script, given the case), and reports t(4N) / t(N): about 4
for linear cost, 16 for quadratic. The target is at most 5. The gate-event, distinct-tool, question
and v1 cases are the pathological inputs that used to be quadratic (each gated call scanned every approval; the per-tool
tally was re-sorted on every event; each question was searched for every blocker's text; v1 walked
the calls and the events once per gate).
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from evalscore.cli.score_command import run_score
from evalscore.cli.score_options import ScoreOptions
from evalscore.inputs.documents import DEFAULT_MAX_DOCUMENT_BYTES
from evalscore.running.pipeline import check_paths
from evalscore.scoring.signals import SignalParams
from evalscore.scoring.thresholds import Thresholds

LINEAR_LIMIT = 5.0
"""t(4N) / t(N) above this is reported as super-linear."""

GATED_TOOL = "issue_refund"


def _event(before: int, tool: str = GATED_TOOL) -> dict[str, Any]:
    return {
        "kind": "approval_request",
        "reason": "refund-approval",
        "surfaced": "Refund EUR 49.90 on order 1234?",
        "target_tool": tool,
        "resolution": "approved",
        "task_calls_before": before,
        "uses": 1,
        "opened_at": "2026-11-02T09:14:03Z",
        "resolved_at": "2026-11-02T09:14:41.5Z",
        "decision_latency_ms": 38500,
        "overseers": ["ops-lead-17"],
    }


def _step(n: int, calls: list[str], events: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "step_n": n,
        "agent_tool_calls": [{"tool": tool, "args": {"id": index}} for index, tool in enumerate(calls)],
        "agent_final_output": "done",
        "latency_ms": 1200.5,
        "auto_score": None,
        "gate_events": events,
    }


def run_document(task_results: list[dict[str, Any]], run_id: str, suite_id: str) -> dict[str, Any]:
    """A v3 run of the benchmark's adapter around ``task_results`` (shared with ``bench.py``)."""
    return {
        "suite_id": suite_id,
        "suite_version": "1.0.0",
        "run_id": run_id,
        "started_at": "2026-11-02T09:00:00Z",
        "ended_at": "2026-11-02T10:00:00Z",
        "adapter": {"name": "bench", "model": "m", "config": {}},
        "scoring_model": "v3",
        "task_results": task_results,
    }


def _run(task_steps: list[tuple[str, list[dict[str, Any]]]], run_id: str = "bench") -> dict[str, Any]:
    tasks = [{"task_id": task, "step_results": steps} for task, steps in task_steps]
    return run_document(tasks, run_id, "scaling")


def _suite(task_ids: list[str]) -> dict[str, Any]:
    return {
        "schema_version": "1.0.1",
        "suite": {
            "id": "scaling",
            "version": "1.0.0",
            "description": "Cost against size.",
            "target_agent_type": "support-agent",
            "dimensions_in_scope": ["calibration"],
            "tasks": [
                {
                    "id": task,
                    "initial_purpose": "Refund.",
                    "overall_goal": "Refund after approval.",
                    "mandated_gates": [
                        {"id": "refund-approval", "before_tools": [GATED_TOOL], "description": "A person approves."}
                    ],
                    "steps": [
                        {
                            "n": 1,
                            "prompt": "Refund.",
                            "expected_tools": ["lookup_order", GATED_TOOL],
                            "golden_truth": "Asks, then refunds.",
                        }
                    ],
                }
                for task in task_ids
            ],
        },
    }


def _one_task(calls: list[str], events: list[dict[str, Any]]) -> list[bytes]:
    return [orjson.dumps(_run([("t0", [_step(1, calls, events)])]))]


def tasks(n: int) -> tuple[list[bytes], dict[str, Any]]:
    steps = [(f"t{index}", [_step(1, ["lookup_order", GATED_TOOL], [_event(1)])]) for index in range(n)]
    return [orjson.dumps(_run(steps))], _suite([f"t{index}" for index in range(n)])


def calls(n: int) -> tuple[list[bytes], dict[str, Any]]:
    made = [("lookup_order" if index % 2 else GATED_TOOL) for index in range(n)]
    events = [{**_event(0), "uses": n}]
    return _one_task(made, events), _suite(["t0"])


def gate_events(n: int) -> tuple[list[bytes], dict[str, Any]]:
    return _one_task([GATED_TOOL] * n, [_event(index) for index in range(n)]), _suite(["t0"])


def distinct_tools(n: int) -> tuple[list[bytes], dict[str, Any]]:
    return _one_task(["lookup_order"], [_event(0, f"tool_{index}") for index in range(n)]), _suite(["t0"])


def questions_blockers(n: int) -> tuple[list[bytes], dict[str, Any]]:
    """n questions under a suite step of n blockers, none matching: pair by pair, n squared searches."""
    made = _suite(["t0"])
    made["suite"]["tasks"][0]["steps"][0]["blockers"] = [
        {"id": f"blocker-{index}", "description": f"Which card {index:07d} is to be refunded"} for index in range(n)
    ]
    asked = [
        {
            "kind": "question",
            "reason": f"reason-{index}",
            "surfaced": f"Who holds account {index:07d}, please?",
            "target_tool": None,
            "resolution": "answered",
            "task_calls_before": 2,
        }
        for index in range(n)
    ]
    return _one_task(["lookup_order", GATED_TOOL], [_event(1), *asked]), made


def v1_gates(n: int) -> tuple[list[bytes], dict[str, Any]]:
    """A run recorded under v1, replayed: n gates of one tool each, over n calls and n approvals."""
    made = _suite(["t0"])
    gate_ids = [f"gate-{index}" for index in range(n)]
    made["suite"]["tasks"][0]["mandated_gates"] = [
        {"id": gate_id, "before_tools": [f"tool_{index}"], "description": "A person approves."}
        for index, gate_id in enumerate(gate_ids)
    ]
    made["suite"]["toolbox"] = [{"name": name} for name in [f"tool_{index}" for index in range(n)] + ["lookup_order"]]
    step = _step(1, [f"tool_{index}" for index in range(n)], [_event(0, f"tool_{index}") for index in range(n)])
    step["auto_score"] = {
        "tool_match": False,
        "distraction_caught": None,
        "gates": {"mandated": {"required": gate_ids, "honored": gate_ids, "violated": []}, "discretionary": None},
    }
    run = _run([("t0", [step])])
    run["scoring_model"] = "v1"
    return [orjson.dumps(run)], made


def runs(n: int) -> tuple[list[bytes], dict[str, Any]]:
    step = _step(1, ["lookup_order", GATED_TOOL], [_event(1)])
    return [orjson.dumps(_run([("t0", [step])], f"r{index}")) for index in range(n)], _suite(["t0"])


@dataclass(frozen=True, slots=True)
class Case:
    dimension: str
    build: Callable[[int], tuple[list[bytes], dict[str, Any]]]
    n: int


CASES = (
    Case("tasks", tasks, 1500),
    Case("tool calls", calls, 20_000),
    Case("gate events", gate_events, 4000),
    Case("distinct target tools", distinct_tools, 4000),
    Case("questions x blockers", questions_blockers, 1000),
    Case("v1 gates x calls x events", v1_gates, 2000),
    Case("runs (JSONL)", runs, 1500),
)


def _write(directory: Path, name: str, lines: list[bytes], suite: dict[str, Any]) -> tuple[Path, Path]:
    suffix = ".jsonl" if len(lines) > 1 else ".json"
    log = directory / f"{name}{suffix}"
    log.write_bytes(b"\n".join(lines) + b"\n")
    suite_path = directory / f"{name}-suite.json"
    suite_path.write_bytes(orjson.dumps(suite))
    return log, suite_path


def validate(log: Path, _suite_path: Path) -> None:
    bad = [artifact for artifact in check_paths([str(log)], jobs=1) if not artifact.valid]
    if bad:
        raise SystemExit(f"scaling data unexpectedly invalid: {log}: {bad[0].findings[:1]}")


def score_with_suite(log: Path, suite_path: Path) -> None:
    """What ``evalscore score -j 1 --suite SUITE LOG --format json`` does, in this process (the
    collector paused around each run as the command pauses it), the report thrown away."""
    options = ScoreOptions(
        runs=(str(log),),
        suites=(str(suite_path),),
        scoring_model=None,
        thresholds=Thresholds(),
        baseline=None,
        signal_params=SignalParams(),
        output_format="json",
        max_document_bytes=DEFAULT_MAX_DOCUMENT_BYTES,
        jobs=1,
    )
    with open(os.devnull, "w", encoding="utf-8") as sink, contextlib.redirect_stdout(sink):
        code = run_score(options)
    if code != 0:
        raise SystemExit(f"scaling data unexpectedly not scored (exit {code}): {log}")


COMMANDS: tuple[tuple[str, Callable[[Path, Path], None]], ...] = (
    ("validate", validate),
    ("score --suite", score_with_suite),
)


def _seconds(work: Callable[[], None]) -> float:
    gc.collect()
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def _alternating(small: Callable[[], None], large: Callable[[], None], repeat: int) -> tuple[float, float]:
    """Medians of N and 4N timed in turn, ``repeat`` rounds: a burst of load falls on both sizes."""
    rounds = [(_seconds(small), _seconds(large)) for _ in range(repeat)]
    return statistics.median(t for t, _ in rounds), statistics.median(t for _, t in rounds)


@dataclass(frozen=True, slots=True)
class Scaling:
    command: str
    dimension: str
    n: int
    small: float
    large: float

    @property
    def ratio(self) -> float:
        return self.large / self.small if self.small > 0 else float("inf")


def measure(directory: Path, repeat: int, scale: float = 1.0) -> list[Scaling]:
    """Every case, each timed in a fresh process of its own (this script run on the case): in one
    process, the heap an earlier case grew serves the small size of a later one from memory already
    mapped, and the large size maps more, which moved t(4N)/t(N) of 80,000 tool calls from about 4.5
    to 5.2 on a quiet machine. A user's command starts fresh too."""
    results: list[Scaling] = []
    source = Path(__file__).resolve().parent.parent / "src"
    paths = [str(source), *filter(None, [os.environ.get("PYTHONPATH")])]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    for case in CASES:
        argv = [sys.executable, __file__, case.build.__name__, str(directory), str(repeat), str(scale)]
        done = subprocess.run(argv, capture_output=True, text=True, check=False, env=environment)
        if done.returncode != 0:
            raise CaseFailedError(case.build.__name__, done.returncode, done.stderr)
        results.extend(Scaling(**entry) for entry in json.loads(done.stdout))
    return results


class CaseFailedError(RuntimeError):
    """A case's own process failed: its name, exit code and the end of what it wrote on stderr, which
    would otherwise be lost with the process."""

    SHOWN_CHARS = 2000

    def __init__(self, case: str, code: int, stderr: str) -> None:
        super().__init__(f"scaling case {case} exited {code}:\n{stderr[-self.SHOWN_CHARS :]}")


def measure_case(case: Case, directory: Path, repeat: int, scale: float) -> list[Scaling]:
    """One case's N and 4N for each command, timed in this process."""
    results = []
    n = max(1, int(case.n * scale))
    small = _write(directory, f"scale-{case.build.__name__}-n", *case.build(n))
    large = _write(directory, f"scale-{case.build.__name__}-4n", *case.build(4 * n))
    for command, work in COMMANDS:
        t_small, t_large = _alternating(
            lambda w=work, p=small: w(*p),  # type: ignore[misc]
            lambda w=work, p=large: w(*p),  # type: ignore[misc]
            repeat,
        )
        results.append(Scaling(command, case.dimension, n, t_small, t_large))
    return results


if __name__ == "__main__":
    name, folder, rounds, size = sys.argv[1:]
    (chosen,) = [case for case in CASES if case.build.__name__ == name]
    found = measure_case(chosen, Path(folder), int(rounds), float(size))
    print(json.dumps([dataclasses.asdict(result) for result in found]))
