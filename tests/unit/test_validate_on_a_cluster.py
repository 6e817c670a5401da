"""``validate --dask``: the command hands its work to the cluster it was given, and a cluster that
fails is one line and exit 2. A stand-in client runs each task here, so these tests need no Dask and
run no worker process (mutmut can then run them: a worker would not run the mutated code)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import pytest
from click.testing import CliRunner

from evalscore.cli import validate_command
from evalscore.cli.main import main
from evalscore.reporters.registry import VALIDATION_FORMATS_WITH_DIGESTS, VALIDATION_REPORTERS
from evalscore.running.cluster import ClusterError, ClusterSpec

ROOT: Final = Path(__file__).resolve().parents[2]
LOG: Final = ROOT / "examples" / "partner-log.jsonl"
RUN: Final = ROOT / "fixtures" / "valid" / "run" / "minimal.json"


class Done:
    def __init__(self, value: Any) -> None:
        self._value = value

    def result(self) -> Any:
        return self._value


class StandInClient:
    """Does each task at once, here, and remembers the names of the functions it was given."""

    def __init__(self) -> None:
        self.tasks: list[str] = []

    def scatter(self, values: list[Any], broadcast: bool, hash: bool) -> list[Any]:
        return values

    def nthreads(self) -> dict[str, int]:
        return {"worker": 1}

    def submit(self, function: Callable[..., Any], *args: Any, pure: bool) -> Done:
        self.tasks.append(function.__name__)
        return Done(function(*args))


def using(monkeypatch: pytest.MonkeyPatch, client: StandInClient | None, failure: str | None = None) -> list[Any]:
    """``validate``'s cluster replaced: ``client`` for a ``--dask`` spec, None without; or ``failure``."""
    asked: list[Any] = []

    @contextmanager
    def cluster_for(spec: ClusterSpec | None) -> Iterator[StandInClient | None]:
        asked.append(spec)
        if failure is not None:
            raise ClusterError(failure)
        yield None if spec is None else client

    monkeypatch.setattr(validate_command, "cluster_for", cluster_for)
    return asked


def test_with_dask_the_files_are_judged_by_the_cluster_s_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    client = StandInClient()
    asked = using(monkeypatch, client)
    result = CliRunner().invoke(main, ["validate", "--format", "json", "--dask", "local:2", str(LOG), str(RUN)])
    assert result.exit_code == 0, result.output
    assert asked == [ClusterSpec(local_workers=2)]
    assert client.tasks == ["judge_range", "judge_file"]
    assert json.loads(result.stdout)["summary"]["valid"] == 3


@pytest.mark.parametrize("output_format", sorted(VALIDATION_REPORTERS))
def test_on_a_cluster_the_inputs_are_hashed_only_for_a_report_that_shows_the_digest(
    output_format: str, monkeypatch: pytest.MonkeyPatch, digests_made: list[int]
) -> None:
    client = StandInClient()
    using(monkeypatch, client)
    arguments = ["validate", "--format", output_format, "--dask", "local:2", str(LOG), str(RUN)]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    assert client.tasks == ["judge_range", "judge_file"]
    assert len(digests_made) == (2 if output_format in VALIDATION_FORMATS_WITH_DIGESTS else 0)


def test_without_dask_no_cluster_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    client = StandInClient()
    asked = using(monkeypatch, client)
    assert CliRunner().invoke(main, ["validate", str(RUN)]).exit_code == 0
    assert asked == [None]
    assert client.tasks == []


def test_a_cluster_that_fails_is_one_line_on_stderr_and_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    using(monkeypatch, StandInClient(), failure="the Dask scheduler at tcp://h:1 cannot be reached: refused")
    result = CliRunner().invoke(main, ["validate", "--dask", "tcp://h:1", str(RUN)])
    assert result.exit_code == 2
    assert result.stderr == "evalscore validate: the Dask scheduler at tcp://h:1 cannot be reached: refused\n"
    assert result.stdout == ""
