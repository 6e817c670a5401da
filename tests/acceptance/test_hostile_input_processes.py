"""The hostile inputs that need a process of their own (an endless device, a FIFO, a memory cap) or
real Inspect logs: each ends in a documented exit code, never a hang or a traceback.

They take a second or more each (a Python process started, or Inspect logs written), so they are
kept apart from tests/acceptance/test_hostile_input.py, whose in-process tests the mutation gate
runs for every mutant of the readers (CONTRIBUTING.md, "Mutation testing"); a child process would
not run the mutated code anyway.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from evalscore.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
MINIMAL_RUN = ROOT / "fixtures" / "valid" / "run" / "minimal.json"
HANG_SECONDS = 60
DEEP_YAML = b"suite:\n  nested: " + b"[" * 1000 + b"]" * 1000 + b"\n"


def invoke(*args: str | Path, stdin: bytes | None = None) -> Result:
    result = CliRunner().invoke(main, [str(arg) for arg in args], input=stdin)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [finding for artifact in report["artifacts"] for finding in artifact["findings"]]


def evalscore(*args: str | Path, stdin: Any = subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    """The installed command in a process of its own, as a CI job runs it; a hang fails the test."""
    return subprocess.run(
        [sys.executable, "-m", "evalscore", *map(str, args)],
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
        check=False,
    )


# --- memory -------------------------------------------------------------------------------------


def test_running_out_of_memory_on_one_input_is_a_finding_and_the_next_input_is_checked(tmp_path: Path) -> None:
    big = tmp_path / "a-big.json"
    with big.open("wb") as handle:
        handle.truncate(400 * 1024 * 1024)  # sparse: no disk used, but reading it needs 400 MB
    small = tmp_path / "b-small.json"
    small.write_bytes(MINIMAL_RUN.read_bytes())
    child = textwrap.dedent(
        """
        import resource, sys
        from evalscore.cli.main import main
        size = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
        cap = size + 200 * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        sys.argv = ["evalscore", "validate", "--format", "json", sys.argv[1], sys.argv[2]]
        main()
        """
    )
    completed = subprocess.run(
        [sys.executable, "-c", child, str(big), str(small)],
        capture_output=True,
        text=True,
        timeout=HANG_SECONDS,
        check=False,
    )
    assert "Traceback" not in completed.stderr
    assert completed.returncode == 1, completed.stderr
    report = json.loads(completed.stdout)
    assert [a["valid"] for a in report["artifacts"]] == [False, True]
    (finding,) = report["artifacts"][0]["findings"]
    assert finding["code"] == "ES006"
    assert "memory" in finding["message"]


# --- hangs ------------------------------------------------------------------------------------


def test_an_endless_device_is_read_only_up_to_the_limit_and_its_hash_says_so() -> None:
    completed = evalscore("validate", "--format", "json", "--max-document-bytes", "1000", "/dev/zero")
    assert completed.returncode == 1
    report = json.loads(completed.stdout)
    (record,) = report["inputs"]
    assert record["complete"] is False
    assert 1000 < record["hashed_bytes"] <= 2 * 1024 * 1024
    assert [f["code"] for f in findings(report)] == ["ES006"]


def test_endless_stdin_is_read_only_up_to_the_limit() -> None:
    with open("/dev/zero", "rb") as endless:
        completed = evalscore("validate", "--format", "json", "--max-document-bytes", "1000", "-", stdin=endless)
    assert completed.returncode == 1
    report = json.loads(completed.stdout)
    assert report["inputs"][0]["complete"] is False
    assert [f["code"] for f in findings(report)] == ["ES006"]


def test_a_fifo_met_while_walking_a_directory_is_skipped_with_a_finding(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "a-pipe.json")
    (tmp_path / "b-run.json").write_bytes(MINIMAL_RUN.read_bytes())
    completed = evalscore("validate", "--format", "json", tmp_path)
    assert completed.returncode == 2
    report = json.loads(completed.stdout)
    assert [a["valid"] for a in report["artifacts"]] == [False, True]
    (finding,) = report["artifacts"][0]["findings"]
    assert finding["code"] == "ES001"
    assert "a FIFO, not a regular file" in finding["message"]


# --- suites in YAML ---------------------------------------------------------------------------


def test_yaml_nested_a_thousand_deep_makes_import_refuse_its_suite(
    tmp_path: Path, inspect_logs: dict[str, Path]
) -> None:
    suite = tmp_path / "deep.yaml"
    suite.write_bytes(DEEP_YAML)
    log = next(iter(inspect_logs.values()))
    result = invoke("import", "inspect", log, "--suite", suite, "-o", tmp_path / "out.jsonl")
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out.jsonl").exists()
