"""What `evalscore score` says about its inputs, end to end: the kind of each input, an input of the
wrong kind, the one line on stderr when nothing is scored, a bug on one run, and a terminal."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result

from evalscore.cli import common, score_command
from evalscore.cli.main import main
from evalscore.cli.progress import Progress
from evalscore.scoring import checked_runs, engine, suite_models

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "partner-log.jsonl"
SUITE = ROOT / "examples" / "partner-suite.yaml"
LOG_LINES = LOG.read_text().splitlines()
RUN = (ROOT / "fixtures" / "valid" / "run" / "minimal.json").read_text()
SCORED_RUN = (ROOT / "fixtures" / "valid" / "scored-run" / "minimal.json").read_text()
INVALID_RUN = ROOT / "fixtures" / "invalid" / "run" / "ES101--latency-disagrees-with-timestamps.json"


def invoke(*args: str | Path) -> Result:
    result = CliRunner().invoke(main, [str(arg) for arg in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def one_line(value: str) -> str:
    return json.dumps(json.loads(value)) + "\n"


def test_each_input_is_listed_with_every_kind_it_holds(tmp_path: Path) -> None:
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(one_line(RUN) + one_line(SCORED_RUN))
    result = invoke("score", mixed, "--format", "json")
    assert result.exit_code == 0, result.output
    (entry,) = json.loads(result.stdout)["inputs"]
    assert (entry["path"], entry["kind"]) == (str(mixed), "run,scored-run")


def test_an_artifact_of_another_kind_among_the_runs_is_invalid_where_it_is(tmp_path: Path) -> None:
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(LOG_LINES[0] + "\n" + json.dumps(yaml.safe_load(SUITE.read_text())) + "\n")
    result = invoke("score", mixed, "--suite", SUITE, "--format", "json")
    assert result.exit_code == 3
    assert result.stderr == "evalscore score: an input is invalid; nothing was scored\n"
    (artifact,) = json.loads(result.stdout)["artifacts"]
    assert (artifact["source"], artifact["line"], artifact["kind"], artifact["valid"]) == (
        str(mixed),
        2,
        "eval-suite",
        False,
    )
    assert artifact["findings"] == [
        {
            "source": str(mixed),
            "line": 2,
            "column": None,
            "layer": "contract",
            "code": "ES010",
            "severity": "error",
            "pointer": "",
            "message": "expected run or scored-run here, found eval-suite",
        }
    ]


def test_a_file_given_as_the_suite_is_checked_against_the_suite_contract_whatever_it_holds() -> None:
    result = invoke("score", LOG, "--suite", ROOT / "fixtures" / "valid" / "run" / "minimal.json", "--format", "json")
    assert result.exit_code == 3
    (artifact,) = json.loads(result.stdout)["artifacts"]
    assert artifact["kind"] == "eval-suite"
    assert [finding["code"] for finding in artifact["findings"]] == ["schema.additionalProperties", "schema.required"]


def test_an_unreadable_run_path_is_one_line_on_stderr(tmp_path: Path) -> None:
    result = invoke("score", tmp_path / "missing.jsonl", "--suite", SUITE)
    assert result.exit_code == 2
    assert result.stderr == "evalscore score: an input path cannot be read; nothing was scored\n"


def test_a_suite_with_no_run_beside_it_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "runs").mkdir()
    result = invoke("score", tmp_path / "runs", "--suite", SUITE)
    assert result.exit_code == 2
    assert result.stderr == "evalscore score: no run found under the given paths; nothing was scored\n"
    assert result.stdout == ""


def _crash_on_first_run(monkeypatch: pytest.MonkeyPatch) -> None:
    real = checked_runs.RunScorer.score_dict  # runs re-derived against a suite are scored from their dict

    def score_dict(scorer: Any, scoring: Any, run: Any, source: str) -> None:
        if run["run_id"] == json.loads(LOG_LINES[0])["run_id"]:
            raise ZeroDivisionError("a bug planted by the test")
        real(scorer, scoring, run, source)

    monkeypatch.setattr(checked_runs.RunScorer, "score_dict", score_dict)


def test_a_bug_on_one_run_is_named_at_its_line_and_the_inputs_after_it_are_still_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _crash_on_first_run(monkeypatch)
    result = invoke("score", LOG, INVALID_RUN, "--suite", SUITE, "--format", "json")
    assert result.exit_code == 70
    assert result.stderr == "evalscore score: evalscore met an internal error (a bug) on an input; nothing was scored\n"
    artifacts = json.loads(result.stdout)["artifacts"]
    assert [(artifact["source"], artifact["findings"][0]["code"]) for artifact in artifacts] == [
        (f"{LOG}:1", "ES099"),
        (str(INVALID_RUN), "ES101"),
    ]
    assert "ZeroDivisionError: a bug planted by the test" in artifacts[0]["findings"][0]["message"]


def test_no_run_is_scored_once_an_input_is_invalid(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = engine.score_run
    scored: list[str] = []

    def score_run(sourced: Any, **options: Any) -> Any:
        scored.append(sourced.source)
        return real(sourced, **options)

    monkeypatch.setattr(engine, "score_run", score_run)
    later = tmp_path / "later.json"
    later.write_text(RUN)
    result = invoke("score", LOG, INVALID_RUN, later, "--format", "json")
    assert result.exit_code == 3
    assert result.stderr == "evalscore score: an input is invalid; nothing was scored\n"
    assert scored == [f"{LOG}:1", f"{LOG}:2"]  # neither the invalid run nor the valid one after it
    assert [artifact["source"] for artifact in json.loads(result.stdout)["artifacts"]] == [str(INVALID_RUN)]


def test_on_a_terminal_the_report_is_coloured_and_the_runs_are_counted_on_stderr(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(common, "stream_is_terminal", lambda stream: True)
    monkeypatch.setattr(score_command, "Progress", functools.partial(Progress, every=1))
    result = invoke("score", LOG, "--suite", SUITE)
    assert result.exit_code == 0
    assert "\x1b[" in result.stdout
    assert "2 runs checked" in result.stderr
    assert result.stderr.endswith("\x1b[2K")  # the line is erased once the report is ready
    plain = invoke("score", LOG, "--suite", SUITE, "--format", "json")
    assert "\x1b" not in plain.stdout
    assert json.loads(plain.stdout)["decision"]["exit_code"] == 0


def test_the_invalid_input_report_points_at_validate_to_show_every_finding(tmp_path: Path) -> None:
    run = json.loads(Path(LOG).read_text().splitlines()[0])
    step = run["task_results"][0]["step_results"][0]
    step["agent_tool_calls"] = [{"tool": 1, "args": {}, "result": None}] * 300  # 300 wrongly typed tool names
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(run))
    result = invoke("score", bad)
    assert result.exit_code == 3
    assert "more finding(s); use evalscore validate --max-errors 0 to find and show all" in result.stdout
    assert "use --max-errors 0" not in result.stdout  # score has no --max-errors
    checked = invoke("validate", bad, "--max-errors", "0")
    assert checked.exit_code == 1
    assert checked.stdout.count("schema.type") == 300


def test_a_directory_holding_its_suite_is_scored_with_the_suite_read_once_as_a_suite(tmp_path: Path) -> None:
    (tmp_path / "nested").mkdir()
    log, suite = tmp_path / "log.jsonl", tmp_path / "nested" / "suite.yaml"
    log.write_text(LOG.read_text())
    suite.write_text(SUITE.read_text())
    result = invoke("score", tmp_path, "--suite", suite, "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert [(entry["path"], entry["kind"]) for entry in report["inputs"]] == [  # listed in path order
        (str(log), "run"),
        (str(suite), "eval-suite"),
    ]
    assert report["counts"]["scored_steps"] == 8


def test_the_suite_named_as_a_run_too_under_another_name_is_not_read_as_a_run(tmp_path: Path) -> None:
    link = tmp_path / "same-suite.yaml"
    link.symlink_to(SUITE)
    result = invoke("score", LOG, SUITE, "--suite", link, "--format", "json")
    assert result.exit_code == 0, result.output
    inputs = json.loads(result.stdout)["inputs"]
    assert len(inputs) == 2
    assert {entry["path"]: entry["kind"] for entry in inputs} == {str(link): "eval-suite", str(LOG): "run"}


def test_a_copy_of_the_suite_among_the_runs_is_another_file_and_still_refused_there(tmp_path: Path) -> None:
    copy = tmp_path / "copy.yaml"
    copy.write_text(SUITE.read_text())
    result = invoke("score", LOG, copy, "--suite", SUITE)
    assert result.exit_code == 3
    assert "expected run or scored-run here, found eval-suite" in result.stdout


def test_a_suite_its_model_would_reject_though_both_layers_accept_it_is_reported_as_a_bug(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``score`` judges a suite as ``validate`` does and builds its model only when one is needed: here,
    two different documents under one key. A model rejecting what both checking layers accept is a
    drift between them (the drift gate exists to prevent it): an internal error, not invalid input."""

    def drifted(suite: Any) -> Any:
        raise ValueError("a drift planted by the test")

    monkeypatch.setattr(suite_models, "suite_model", drifted)
    other = yaml.safe_load(SUITE.read_text())
    other["suite"]["description"] = "the same key, another suite"
    (tmp_path / "other.json").write_text(json.dumps(other))
    result = invoke("score", LOG, "--suite", SUITE, "--suite", tmp_path / "other.json")
    assert result.exit_code == 70
    assert "ValueError: a drift planted by the test" in result.stderr
    assert "this is a bug" in result.stderr
    alone = invoke("score", LOG, "--suite", SUITE)  # one document a key: no model is built
    assert alone.exit_code in (0, 1)
