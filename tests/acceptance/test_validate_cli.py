"""`evalscore validate` and `evalscore schema` end to end, through click's runner."""

from __future__ import annotations

import concurrent.futures
import functools
import gzip
import hashlib
import json
import multiprocessing
import re
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner, Result

from evalscore.cli import common, validate_command
from evalscore.cli.main import main
from evalscore.cli.progress import Progress
from evalscore.running import parallel, pipeline
from evalscore.validation import summary

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "fixtures" / "valid"
INVALID = ROOT / "fixtures" / "invalid"
MINIMAL_RUN = VALID / "run" / "minimal.json"
VALID_LINE = b"".join(MINIMAL_RUN.read_bytes().split())


def invoke(*args: str, stdin: bytes | None = None) -> Result:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def as_json(*args: str, stdin: bytes | None = None) -> tuple[int, dict[str, Any]]:
    result = invoke("validate", "--format", "json", *args, stdin=stdin)
    report: dict[str, Any] = json.loads(result.stdout)
    assert report["exit_code"] == result.exit_code
    return result.exit_code, report


def _run_with(tmp_path: Path, name: str, **changes: Any) -> Path:
    document = json.loads(MINIMAL_RUN.read_text())
    document.update(changes)
    path = tmp_path / name
    path.write_text(json.dumps(document))
    return path


def test_valid_files_and_folders_exit_0() -> None:
    result = invoke("validate", str(MINIMAL_RUN), str(VALID / "eval-suite"), str(VALID / "run" / "several-runs.jsonl"))
    assert result.exit_code == 0
    assert "VALID" in result.output


def test_the_whole_valid_fixture_folder_exits_0_with_every_artifact_counted() -> None:
    code, report = as_json(str(VALID))
    assert code == 0
    assert report["summary"]["invalid"] == 0
    assert report["summary"]["artifacts"] > len(report["inputs"]) >= 15


def test_an_invalid_file_exits_1_and_names_the_rule() -> None:
    result = invoke("validate", str(INVALID / "run" / "ES134--started-after-ended.json"))
    assert result.exit_code == 1
    assert "ES134" in result.output
    assert "/ended_at" in result.output


def test_one_invalid_file_among_valid_ones_exits_1() -> None:
    result = invoke("validate", str(MINIMAL_RUN), str(INVALID / "eval-suite" / "ES141--duplicate-task-id.json"))
    assert result.exit_code == 1


def test_a_nonexistent_path_exits_2_with_one_clear_line(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    result = invoke("validate", str(missing), str(MINIMAL_RUN))
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert lines == [
        f"{missing}: ES001 / syntax error: no such file or directory",
        "UNREADABLE INPUT: 2 artifact(s) in 2 input(s): 1 valid, 1 invalid, 0 warning(s)",
    ]


def test_no_arguments_is_a_usage_error() -> None:
    assert invoke("validate").exit_code == 2


def test_an_unknown_option_is_a_usage_error() -> None:
    assert invoke("validate", "--no-such-option", str(MINIMAL_RUN)).exit_code == 2
    assert invoke("validate", "--format", "xml", str(MINIMAL_RUN)).exit_code == 2
    assert invoke("validate", "--max-errors", "-1", str(MINIMAL_RUN)).exit_code == 2


def test_the_json_report_has_stable_keys_and_the_inputs_sha256() -> None:
    path = INVALID / "run" / "ES101--latency-disagrees-with-timestamps.json"
    code, report = as_json(str(path))
    assert code == 1
    assert list(report) == [
        "evalscore_version",
        "command",
        "strict",
        "inputs",
        "artifacts",
        "unlisted_artifacts",
        "summary",
        "exit_code",
    ]
    assert report["command"] == "validate"
    assert report["strict"] is False
    data = path.read_bytes()
    assert report["inputs"] == [
        {"path": str(path), "sha256": hashlib.sha256(data).hexdigest(), "complete": True, "hashed_bytes": len(data)}
    ]
    (artifact,) = report["artifacts"]
    assert list(artifact) == [
        "source",
        "line",
        "kind",
        "valid",
        "errors",
        "warnings",
        "findings",
        "omitted_findings",
        "findings_complete",
    ]
    assert (artifact["kind"], artifact["valid"], artifact["errors"]) == ("run", False, 1)
    (finding,) = artifact["findings"]
    assert list(finding) == ["source", "line", "column", "layer", "code", "severity", "pointer", "message"]
    assert finding["layer"] == "coherence"
    assert finding["code"] == "ES101"
    assert finding["severity"] == "error"
    assert finding["pointer"] == "/task_results/0/step_results/0/gate_events/0/decision_latency_ms"
    assert finding["pointer"] in finding["message"]


def test_the_sha256_of_a_gzip_input_is_of_the_bytes_on_disk() -> None:
    path = VALID / "run" / "minimal-compressed.json.gz"
    _, report = as_json(str(path))
    assert report["inputs"][0]["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_jsonl_finding_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    bad = VALID_LINE.replace(b'"step_n":1', b'"step_n":"1"')
    path.write_bytes(VALID_LINE + b"\n" + VALID_LINE + b"\n" + bad + b"\n")
    code, report = as_json(str(path))
    assert code == 1
    assert [(a["line"], a["valid"]) for a in report["artifacts"]] == [(1, True), (2, True), (3, False)]
    finding = report["artifacts"][2]["findings"][0]
    assert (finding["line"], finding["code"]) == (3, "schema.type")
    text = invoke("validate", str(path)).output
    assert f"{path}:3" in text


def test_strict_turns_a_warning_into_exit_1(tmp_path: Path) -> None:
    path = _run_with(tmp_path, "yesterday.json", started_at="yesterday")
    relaxed = invoke("validate", str(path))
    assert relaxed.exit_code == 0
    assert "ES201" in relaxed.output
    strict = invoke("validate", "--strict", str(path))
    assert strict.exit_code == 1
    assert "ES201" in strict.output
    code, report = as_json("--strict", str(path))
    assert (code, report["strict"], report["artifacts"][0]["valid"]) == (1, True, False)


def test_max_errors_1_shows_one_finding_and_says_how_many_more(tmp_path: Path) -> None:
    document = json.loads(MINIMAL_RUN.read_text())
    document.update(run_id=1, suite_id=2, suite_version=3, extra=True)
    path = tmp_path / "many.json"
    path.write_text(json.dumps(document))
    code, report = as_json("--max-errors", "1", str(path))
    assert code == 1
    (artifact,) = report["artifacts"]
    assert len(artifact["findings"]) == 1
    assert artifact["errors"] == 4
    assert artifact["omitted_findings"] == 3
    text = invoke("validate", "--max-errors", "1", str(path)).output
    assert "3 more" in text
    _, everything = as_json("--max-errors", "0", str(path))
    assert len(everything["artifacts"][0]["findings"]) == 4
    assert everything["artifacts"][0]["omitted_findings"] == 0
    assert artifact["findings_complete"] is everything["artifacts"][0]["findings_complete"] is True


def test_thousands_of_findings_are_not_all_looked_for_and_the_report_says_at_least(tmp_path: Path) -> None:
    document = json.loads(MINIMAL_RUN.read_text())
    step = document["task_results"][0]["step_results"][0]
    step["agent_tool_calls"] = [{"tool": 5, "args": {}} for _ in range(3000)]
    step["gate_events"] = []
    step["auto_score"] = None
    path = tmp_path / "wrong-calls.json"
    path.write_text(json.dumps(document))
    code, report = as_json(str(path))
    (artifact,) = report["artifacts"]
    assert (code, artifact["valid"], artifact["findings_complete"]) == (1, False, False)
    assert (artifact["errors"], len(artifact["findings"]), artifact["omitted_findings"]) == (101, 3, 98)
    text = invoke("validate", str(path)).output
    assert "... and at least 98 more finding(s); use --max-errors 0 to find and show all" in text
    assert "at least 101 error(s), 0 warning(s)" in invoke("validate", "-v", str(path)).output
    code, everything = as_json("--max-errors", "0", str(path))
    (artifact,) = everything["artifacts"]
    assert (code, artifact["errors"], artifact["findings_complete"]) == (1, 3000, True)


def test_kind_forces_the_artifact_kind(tmp_path: Path) -> None:
    path = tmp_path / "score.json"
    path.write_text(json.dumps({"step_n": 1, "tool_match": True, "golden_truth": None, "distraction_caught": None}))
    code, report = as_json(str(path))
    assert (code, report["artifacts"][0]["findings"][0]["code"]) == (1, "ES005")
    code, report = as_json("--kind", "step-score", str(path))
    assert code == 1
    assert report["artifacts"][0]["kind"] == "step-score"
    assert {f["code"] for f in report["artifacts"][0]["findings"]} == {"schema.required"}
    code, report = as_json("--kind", "eval-suite", str(MINIMAL_RUN))
    assert (code, report["artifacts"][0]["kind"]) == (1, "eval-suite")


def test_stdin_holds_one_json_document() -> None:
    code, report = as_json("-", stdin=MINIMAL_RUN.read_bytes())
    assert code == 0
    assert [(a["source"], a["kind"], a["valid"]) for a in report["artifacts"]] == [("-", "run", True)]


def test_stdin_holds_jsonl_and_findings_name_the_line() -> None:
    bad = VALID_LINE.replace(b'"latency_ms":12', b'"latency_ms":-1')
    code, report = as_json("-", stdin=VALID_LINE + b"\n" + bad + b"\n" + VALID_LINE + b"\n")
    assert code == 1
    assert [(a["line"], a["valid"]) for a in report["artifacts"]] == [(1, True), (2, False), (3, True)]
    assert report["artifacts"][1]["findings"][0]["code"] == "schema.minimum"


def test_empty_stdin_holds_no_artifact() -> None:
    code, report = as_json("-", stdin=b"")
    assert code == 1
    assert report["artifacts"][0]["findings"][0]["code"] == "ES008"


@pytest.mark.parametrize("kind", ["eval-suite", "run", "scored-run", "step-score"])
def test_schema_prints_the_committed_file_exactly(kind: str) -> None:
    result = invoke("schema", kind)
    assert result.exit_code == 0
    assert result.stdout == (ROOT / "schemas" / "v1" / f"{kind}.schema.json").read_text()


def test_schema_of_an_unknown_kind_is_a_usage_error() -> None:
    assert invoke("schema", "report").exit_code == 2


def test_a_bad_enum_inside_any_of_leads_with_the_enum_not_the_any_of(tmp_path: Path) -> None:
    score = {
        "step_n": 1,
        "tool_match": True,
        "golden_truth": 7,
        "distraction_caught": None,
        "reviewer_id": "r",
        "reviewed_at": "2026-03-02T10:00:00Z",
    }
    path = tmp_path / "score.json"
    path.write_text(json.dumps(score))
    _, report = as_json(str(path))
    finding = report["artifacts"][0]["findings"][0]
    assert (finding["code"], finding["pointer"]) == ("schema.enum", "/golden_truth")
    assert "is not one of [0, 1, 2, 3]" in finding["message"]
    assert "any of the given schemas" not in finding["message"]


def test_a_bad_value_in_a_nullable_integer_names_the_bound_not_the_any_of(tmp_path: Path) -> None:
    path = tmp_path / "uses.json"
    document = json.loads((VALID / "run" / "latency-without-timestamps.json").read_text())
    document["task_results"][0]["step_results"][0]["gate_events"][0]["uses"] = 0
    path.write_text(json.dumps(document))
    code, report = as_json(str(path))
    assert code == 1
    finding = report["artifacts"][0]["findings"][0]
    assert finding["code"] == "schema.exclusiveMinimum"
    assert finding["pointer"] == "/task_results/0/step_results/0/gate_events/0/uses"


def test_a_text_report_labels_each_finding_with_layer_code_and_pointer() -> None:
    result = invoke("validate", str(INVALID / "run" / "schema.pattern--naive-opened-at.json"))
    assert result.exit_code == 1
    (line,) = [line for line in result.output.splitlines() if "schema.pattern" in line]
    path = INVALID / "run" / "schema.pattern--naive-opened-at.json"
    pointer = "/task_results/0/step_results/0/gate_events/0/opened_at"
    assert re.fullmatch(
        rf"{re.escape(str(path))}:\d+:\d+: schema\.pattern {re.escape(pointer)} contract error: .+", line
    )


def test_bad_input_of_every_kind_never_prints_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_bytes(b"{\n")
    (tmp_path / "b.json").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "c.yaml").write_bytes(b"suite: [\n")
    (tmp_path / "d.json.gz").write_bytes(b"not gzip")
    (tmp_path / "e.json").write_bytes(b'{"x": 1e999}')
    (tmp_path / "f.json").write_bytes(b"[]")
    (tmp_path / "g.jsonl").write_bytes(b'1\nnull\n"s"\n')
    code, report = as_json(str(tmp_path))
    assert code in {1, 2}
    assert report["summary"]["artifacts"] == 9
    assert all(not a["valid"] for a in report["artifacts"])


def test_a_directory_with_no_artifact_is_a_usage_error_not_a_pass(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not an artifact")
    result = invoke("validate", str(tmp_path))
    assert result.exit_code == 2
    assert "NO ARTIFACT FOUND" in result.output


def test_the_json_report_validates_against_its_published_schema() -> None:
    schema = json.loads((ROOT / "schemas" / "v1" / "validation-report.schema.json").read_text())
    checked = 0
    for args in ([str(VALID)], [str(INVALID / "run")], ["nonexistent.json"]):
        result = invoke("validate", "--format", "json", *args)
        report = json.loads(result.stdout)
        jsonschema.Draft202012Validator(schema).validate(report)
        assert report["exit_code"] == result.exit_code
        checked += 1
    assert checked == 3


def test_schema_prints_the_validation_report_schema() -> None:
    result = invoke("schema", "validation-report")
    assert result.exit_code == 0
    assert result.stdout == (ROOT / "schemas" / "v1" / "validation-report.schema.json").read_text()


def test_on_a_terminal_the_text_report_is_coloured_and_the_artifacts_are_counted_on_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(common, "stream_is_terminal", lambda stream: True)
    monkeypatch.setattr(validate_command, "Progress", functools.partial(Progress, every=1))
    path = tmp_path / "runs.jsonl"
    path.write_bytes(VALID_LINE + b"\n" + VALID_LINE + b"\n")
    result = invoke("validate", str(path))
    assert result.exit_code == 0
    assert "\x1b[" in result.stdout
    assert "2 artifacts checked" in result.stderr
    assert result.stderr.endswith("\x1b[2K")  # the line is erased once the report is ready
    assert "\x1b" not in invoke("validate", "--format", "json", str(path)).stdout


@pytest.mark.parametrize("args", [("validate", "-", "-"), ("score", "-", "--suite", "-")])
def test_stdin_named_twice_is_a_usage_error_before_anything_is_read(args: tuple[str, ...]) -> None:
    result = invoke(*args, stdin=b"{}")
    assert result.exit_code == 2
    assert "'-' (stdin) is named more than once; stdin can be read only once" in result.stderr
    assert result.stdout == ""


def test_a_long_jsonl_of_invalid_lines_lists_ten_thousand_and_counts_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "empty-objects.jsonl.gz"
    path.write_bytes(gzip.compress(b"{}\n" * 25_000))
    code, report = as_json(str(path))
    assert code == 1
    assert (len(report["artifacts"]), report["unlisted_artifacts"]) == (10_000, 15_000)
    assert (report["summary"]["artifacts"], report["summary"]["invalid"]) == (25_000, 25_000)
    assert report["artifacts"][-1]["line"] == 10_000
    text = invoke("validate", str(path)).output
    not_listed = "... and 15000 more artifact(s) with findings, not listed (past the first 10,000, or 16,777,216 char"
    assert not_listed in text
    assert "INVALID: 25000 artifact(s) in 1 input(s): 0 valid, 25000 invalid" in text


def test_jobs_sets_how_many_processes_share_a_long_jsonl_and_one_starts_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pools: list[int] = []

    class CountingPool(ProcessPoolExecutor):
        def __init__(self, max_workers: int, **options: Any) -> None:
            pools.append(max_workers)
            super().__init__(max_workers, **options)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", CountingPool)  # imported when a pool is made
    monkeypatch.setattr(pipeline, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "usable_cores", lambda: 5)
    log = tmp_path / "runs.jsonl"
    log.write_bytes((ROOT / "examples" / "partner-log.jsonl").read_bytes())
    assert invoke("validate", str(log), "-j", "1").exit_code == 0
    assert pools == []
    assert invoke("validate", str(log), "--jobs", "3").exit_code == 0
    assert invoke("validate", str(log)).exit_code == 0
    assert pools == [3, 5]


def test_a_bug_in_validate_s_loop_leaves_no_worker_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool is shut down when the loop over its results is left by an error, not when whatever
    holds the traceback lets go of it: a worker left waiting on its queue outlives the command."""

    def failing(*_: Any) -> None:
        raise RuntimeError("planted in the parent's loop")

    monkeypatch.setattr(pipeline, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(pipeline, "RANGE_BYTES", 700)
    monkeypatch.setattr(summary.ValidationSummary, "add_clean", failing)
    log = tmp_path / "runs.jsonl"
    log.write_bytes((ROOT / "examples" / "partner-log.jsonl").read_bytes() * 4)
    before = set(multiprocessing.active_children())
    assert invoke("validate", str(log), "-j", "2").exit_code == 70
    left = [child for child in multiprocessing.active_children() if child not in before]
    for child in left:  # a worker left behind is ended here, not left to outlive the test session
        child.terminate()
    assert left == []


def test_with_the_report_written_to_a_file_the_screen_summary_follows_verbose(tmp_path: Path) -> None:
    log = str(ROOT / "examples" / "partner-log.jsonl")
    report = str(tmp_path / "report.json")
    plain = invoke("validate", log, "-o", report, "--format", "json").stdout.splitlines()
    verbose = invoke("validate", log, "-o", report, "--format", "json", "-v").stdout.splitlines()
    assert len(plain) == 1
    assert plain[0].startswith("VALID: 2 artifact(s)")
    assert len(verbose) == 3
    assert verbose[0].startswith("ok ")
    assert verbose[0].endswith("partner-log.jsonl:1 (run): 0 error(s), 0 warning(s)")
    assert verbose[-1] == plain[0]
