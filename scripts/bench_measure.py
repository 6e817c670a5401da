"""Whole-process measurements for ``scripts/bench.py``: wall time and peak RSS of one child each.

A child is started with ``subprocess.Popen`` and reaped with ``os.wait4``, whose resource usage is
that child's own (``ru_maxrss``, KiB on Linux: the largest resident set of the child and of the
children it reaped itself, such as forked workers; not their sum). ``resource.getrusage`` over
``RUSAGE_CHILDREN`` would give the largest of every child so far, not this one's.

The commands of one group run alternately, ``repeat`` rounds of one run each, so that noise on the
shared machine falls on all of them alike; the figures are medians over the rounds.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent
FLOORS = Path(__file__).resolve().parent / "bench_floors.py"


@dataclass(frozen=True, slots=True)
class Command:
    """One child process to time: its argv and the exit codes that mean it did the work."""

    argv: tuple[str, ...]
    ok_codes: frozenset[int] = frozenset({0})


@dataclass(frozen=True, slots=True)
class Sample:
    seconds: float
    rss_mb: float


@dataclass(frozen=True, slots=True)
class Figure:
    """Medians over the rounds of one command."""

    seconds: float
    rss_mb: float


def child_env() -> dict[str, str]:
    """This checkout's ``src`` first on the path: the bench measures the tree it lives in."""
    paths = [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def evalscore(*args: str, ok_codes: frozenset[int] = frozenset({0})) -> Command:
    return Command((sys.executable, "-m", "evalscore", *args), ok_codes)


def floor(kind: str, path: Path) -> Command:
    return Command((sys.executable, str(FLOORS), kind, str(path)))


def run_once(command: Command) -> Sample:
    """Run the child to its end; wall time from start to reaping, peak RSS from ``wait4``."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        child = subprocess.Popen(command.argv, stdout=subprocess.DEVNULL, stderr=errors, env=child_env())
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode not in command.ok_codes:
            errors.seek(0)
            tail = errors.read()[-2000:].decode(errors="replace")
            raise SystemExit(f"bench: {' '.join(command.argv)} exited {child.returncode}\n{tail}")
    return Sample(seconds, usage.ru_maxrss / 1024)


def interleaved(commands: Mapping[str, Command], repeat: int) -> dict[str, Figure]:
    """Each command once per round, in the same order, ``repeat`` rounds; medians by name."""
    samples: dict[str, list[Sample]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, command in commands.items():
            samples[name].append(run_once(command))
    return {name: median(runs) for name, runs in samples.items()}


def median(samples: Sequence[Sample]) -> Figure:
    return Figure(
        statistics.median(sample.seconds for sample in samples),
        statistics.median(sample.rss_mb for sample in samples),
    )


@cache
def supports_jobs(*names: str) -> bool:
    """Whether ``evalscore NAMES...`` takes ``--jobs`` (the ``-j`` option of the jobs branch).

    Read from the click commands of this checkout (``src`` is first on this process's path too), not
    from ``--help`` in a child: a start-up each would cost more than the tiny CI bench's rows.
    """
    from evalscore.cli.main import main  # noqa: PLC0415 - only the bench's parent reads the commands

    command: click.Command = main
    for name in names:
        if not isinstance(command, click.Group) or name not in command.commands:
            return False
        command = command.commands[name]
    return any("--jobs" in parameter.opts for parameter in command.params)


def usable_cores() -> int:
    return len(os.sched_getaffinity(0))
