"""Whole-process measurements for ``scripts/bench.py``: wall time and peak RSS of one child each.

A command is started by ``bench_child.py`` (a small process of its own, so that the command's
``ru_maxrss`` does not inherit the bench's high-water mark across ``exec``), which reaps it with
``os.wait4``: the resource usage is that command's own (``ru_maxrss``, KiB on Linux: the largest
resident set of the command and of the children it reaped itself, such as forked workers; not their
sum). ``resource.getrusage`` over ``RUSAGE_CHILDREN`` would give the largest of every child so far.

The commands of one group run alternately, ``repeat`` rounds of one run each, so that noise on the
shared machine falls on all of them alike; the figures are medians over the rounds.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parent.parent
FLOORS = Path(__file__).resolve().parent / "bench_floors.py"
CHILD = Path(__file__).resolve().parent / "bench_child.py"


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
    """Run the command to its end through ``bench_child.py``, which times it and reaps it with ``wait4``."""
    with tempfile.TemporaryFile() as errors:
        done = subprocess.run(
            [sys.executable, str(CHILD), *command.argv],
            stdout=subprocess.PIPE,
            stderr=errors,
            env=child_env(),
            check=True,
        )
        report = json.loads(done.stdout)
        if report["code"] not in command.ok_codes:
            errors.seek(0)
            tail = errors.read()[-2000:].decode(errors="replace")
            raise SystemExit(f"bench: {' '.join(command.argv)} exited {report['code']}\n{tail}")
    return Sample(report["seconds"], report["maxrss_kib"] / 1024)


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

    command: click.Command | None = main
    for name in names:
        if not isinstance(command, click.Group):
            return False
        command = command.get_command(click.Context(command), name)  # the group loads its commands lazily
    return command is not None and any("--jobs" in parameter.opts for parameter in command.params)


def usable_cores() -> int:
    return len(os.sched_getaffinity(0))
