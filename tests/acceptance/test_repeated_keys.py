"""A repeated key is a parser differential: invalid input with its own code, wherever it hides."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from evalscore.cli.main import main
from evalscore.inputs.yaml_loader import load_yaml

ROOT = Path(__file__).resolve().parents[2]
LOG_LINES = (ROOT / "examples" / "partner-log.jsonl").read_bytes().splitlines()
SUITE = ROOT / "examples" / "partner-suite.yaml"
FIRST_GATE = "/task_results/0/step_results/0/gate_events/0"

# Each edit makes line 1 of the bundled log say two things at once; another reader would see the other one.
EDITS: dict[str, tuple[bytes, bytes, str, str]] = {
    "a denial followed by an approval": (
        b'"resolution":"approved"',
        b'"resolution":"denied","resolution":"approved"',
        FIRST_GATE,
        "resolution",
    ),
    "a second task_results hiding the first": (
        b',"task_results":[',
        b',"task_results":[],"task_results":[',
        "",
        "task_results",
    ),
    "a second, empty overseers list": (
        b'"overseers":["ops-lead-17"]',
        b'"overseers":["ops-lead-17"],"overseers":[]',
        FIRST_GATE,
        "overseers",
    ),
}


def invoke(*args: str, stdin: bytes | None = None) -> Result:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def edited_line(name: str) -> bytes:
    old, new, _, _ = EDITS[name]
    assert old in LOG_LINES[0]
    return LOG_LINES[0].replace(old, new, 1)  # the first occurrence: the first gate event, the top level


def findings_of(result: Result) -> list[dict[str, Any]]:
    report = json.loads(result.stdout)
    return [finding for artifact in report["artifacts"] for finding in artifact["findings"]]


@pytest.mark.parametrize("name", sorted(EDITS))
@pytest.mark.parametrize("container", ["jsonl", "json", "jsonl.gz", "stdin"])
def test_a_repeated_key_makes_validate_exit_1_naming_the_object_and_the_key(
    tmp_path: Path, name: str, container: str
) -> None:
    line = edited_line(name)
    _, _, pointer, key = EDITS[name]
    body = line + b"\n" + LOG_LINES[1] + b"\n" if container != "json" else line
    if container == "stdin":
        result = invoke("validate", "--format", "json", "-", stdin=body)
    else:
        path = tmp_path / f"log.{container}"
        path.write_bytes(gzip.compress(body) if container.endswith(".gz") else body)
        result = invoke("validate", "--format", "json", str(path))
    assert result.exit_code == 1
    (finding,) = findings_of(result)
    assert (finding["layer"], finding["code"], finding["pointer"]) == ("syntax", "ES011", pointer)
    assert repr(key) in finding["message"]
    assert finding["line"] == 1
    assert json.loads(result.stdout)["summary"]["valid"] == (0 if container == "json" else 1)


@pytest.mark.parametrize("name", sorted(EDITS))
def test_a_repeated_key_makes_score_exit_3_and_scores_nothing(tmp_path: Path, name: str) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(edited_line(name) + b"\n" + LOG_LINES[1] + b"\n")
    result = invoke("score", str(path), "--suite", str(SUITE), "--format", "json")
    assert result.exit_code == 3
    assert [finding["code"] for finding in findings_of(result)] == ["ES011"]


def test_a_suite_repeating_mandated_gates_is_invalid_for_score(tmp_path: Path) -> None:
    # A FAIL (one gated refund made without approval) must not turn into a PASS because a second
    # `mandated_gates: []` hides the gate from one reader.
    suite = load_yaml(SUITE.read_bytes())
    task = json.dumps(suite["suite"]["tasks"][0])
    repeated = task.replace('"mandated_gates": [', '"mandated_gates": [], "mandated_gates": [', 1)
    assert repeated != task
    text = json.dumps(suite).replace(task, repeated, 1)
    path = tmp_path / "suite.json"
    path.write_text(text)
    log = tmp_path / "log.jsonl"
    log.write_bytes(b"\n".join(LOG_LINES) + b"\n")
    result = invoke("score", str(log), "--suite", str(path), "--format", "json")
    assert result.exit_code == 3
    (finding,) = findings_of(result)
    assert (finding["code"], finding["pointer"]) == ("ES011", "/suite/tasks/0")
    assert "'mandated_gates'" in finding["message"]
