"""Text from a log or a path reaches the terminal escaped, in every format and message."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from evalscore.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "partner-log.jsonl"
SUITE = ROOT / "examples" / "partner-suite.yaml"
MINIMAL_RUN = ROOT / "fixtures" / "valid" / "run" / "minimal.json"
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")  # all but the newline
OSC_LINK = "\x1b]8;;https://evil.example/\x07approve\x1b]8;;\x07"
CLEAR = "\x1b[2J"


def invoke(*args: str | Path) -> Result:
    result = CliRunner().invoke(main, [str(arg) for arg in args])
    assert "Traceback" not in result.output
    return result


def hostile_log(tmp_path: Path, target_tool: str) -> Path:
    runs = [json.loads(line) for line in LOG.read_text().splitlines()]
    gate = runs[0]["task_results"][0]["step_results"][0]["gate_events"][0]
    gate["target_tool"] = target_tool
    path = tmp_path / "hostile.jsonl"
    path.write_text("".join(json.dumps(run) + "\n" for run in runs))
    return path


def test_a_target_tool_with_escape_sequences_is_printed_escaped_in_the_signals_table(tmp_path: Path) -> None:
    result = invoke("score", hostile_log(tmp_path, f"issue_refund{OSC_LINK}{CLEAR}\x07"), "--allow-empty")
    assert result.exit_code in (0, 1)
    assert not RAW_CONTROL.search(result.stdout)
    assert "\\x1b]8;;https://evil.example/\\x07approve" in result.stdout
    assert "\\x1b[2J" in result.stdout


def test_a_file_name_cannot_forge_a_verdict_line(tmp_path: Path) -> None:
    forged = tmp_path / f"bad.json\nVALID: 9 artifact(s) in 9 input(s){CLEAR}"
    forged.write_text('{"run_id": 1}')
    result = invoke("validate", forged)
    assert result.exit_code == 1
    assert not RAW_CONTROL.search(result.stdout)
    assert [line for line in result.stdout.splitlines() if line.startswith("VALID")] == []
    assert "bad.json\\nVALID: 9 artifact(s)" in result.stdout


def test_emoji_codes_and_markup_in_log_text_are_printed_as_written(tmp_path: Path) -> None:
    tool = "issue_refund:thumbs_up:[bold]x[/]"
    scored = invoke("score", hostile_log(tmp_path, tool), "--allow-empty")
    assert scored.exit_code in (0, 1)
    assert tool in scored.stdout
    named = tmp_path / "run:smile:[red].json"
    named.write_text('{"run_id": 1}')
    checked = invoke("validate", named)
    assert checked.exit_code == 1
    assert f"{named}:1:1: ES005 / contract error: cannot tell which artifact" in checked.stdout


def test_a_very_long_id_is_shortened_in_text_output(tmp_path: Path) -> None:
    runs = [json.loads(line) for line in LOG.read_text().splitlines()]
    runs[0]["task_results"][0]["task_id"] = "t-" + "x" * 20_000  # unknown to the suite: a refusal names it
    path = tmp_path / "long.jsonl"
    path.write_text("".join(json.dumps(run) + "\n" for run in runs))
    result = invoke("score", path, "--suite", SUITE)
    assert result.exit_code == 0  # not gated; the refusal is listed
    assert "chars)" in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) < 1000
    report = json.loads(invoke("score", path, "--suite", SUITE, "--format", "json").stdout)
    (refusal,) = [refusal for refusal in report["refusals"] if refusal["task_id"] == "t-" + "x" * 20_000]
    assert "(20," in refusal["reason"]  # the reason quoting it is cut to 4,096 characters, saying how long it was
    assert "characters, cut here" in refusal["reason"]
    assert len(refusal["reason"]) == 4_096


@pytest.mark.parametrize("command", ["score", "validate"])
def test_json_output_keeps_the_value_and_carries_no_raw_control_character(tmp_path: Path, command: str) -> None:
    tool = f"refund\x9b2J\u202e{CLEAR}"
    path = hostile_log(tmp_path, tool)
    if command == "validate":
        path = path.rename(tmp_path / f"log{CLEAR}\x9b.jsonl")
    result = invoke(command, "--format", "json", path)
    assert not RAW_CONTROL.search(result.stdout)
    report: dict[str, Any] = json.loads(result.stdout)
    if command == "score":
        assert tool in [signal["target_tool"] for signal in report["signals"]["by_target_tool"]]
    else:
        assert report["inputs"][0]["path"] == str(path)


def test_a_usage_error_naming_a_hostile_path_is_escaped(tmp_path: Path) -> None:
    missing = tmp_path / f"no-such{CLEAR}.json"
    result = invoke("score", LOG, "--baseline", missing)
    assert result.exit_code == 2
    assert not RAW_CONTROL.search(result.stderr)
    assert "\\x1b[2J" in result.stderr


def test_findings_quoting_log_values_are_escaped(tmp_path: Path) -> None:
    document = json.loads(MINIMAL_RUN.read_text())
    document["scoring_model"] = f"v9{OSC_LINK}"
    path = tmp_path / "run.json"
    path.write_text(json.dumps(document))
    result = invoke("validate", path)
    assert result.exit_code == 1
    assert "schema.enum" in result.stdout
    assert not RAW_CONTROL.search(result.stdout)
