"""Inputs written to break evalscore: each ends in a documented exit code with a located finding,
never a traceback, a hang or a value that reads as good news.

All run in this process through click's runner, fast enough for the mutation gate to run them for
every mutant of the readers and options; the cases that need a process of their own (an endless
device, a FIFO, a memory cap) or real Inspect logs are in test_hostile_input_processes.py."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from evalscore import __version__
from evalscore.cli.main import main
from evalscore.inputs.strict_json import MAX_DEPTH
from evalscore.scoring import checked_runs
from evalscore.validation import checker

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "partner-log.jsonl"
SUITE = ROOT / "examples" / "partner-suite.yaml"
MINIMAL_RUN = ROOT / "fixtures" / "valid" / "run" / "minimal.json"
RUN_LINES = LOG.read_bytes().splitlines()


def invoke(*args: str | Path, stdin: bytes | None = None) -> Result:
    result = CliRunner().invoke(main, [str(arg) for arg in args], input=stdin)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def validate_json(*args: str | Path, stdin: bytes | None = None) -> tuple[int, dict[str, Any]]:
    result = invoke("validate", "--format", "json", *args, stdin=stdin)
    report: dict[str, Any] = json.loads(result.stdout)
    assert report["exit_code"] == result.exit_code
    return result.exit_code, report


def findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [finding for artifact in report["artifacts"] for finding in artifact["findings"]]


def nested(depth: int) -> Any:
    value: Any = "deepest"
    for _ in range(depth):
        value = [value]
    return value


# --- depth ------------------------------------------------------------------------------------


def test_a_value_at_the_depth_limit_under_a_type_error_is_a_finding_not_a_crash(tmp_path: Path) -> None:
    document = json.loads(MINIMAL_RUN.read_text())
    document["run_id"] = nested(MAX_DEPTH - 1)  # the run_id itself sits inside the top-level object
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(document))
    code, report = validate_json(path)
    assert code == 1
    assert [(f["code"], f["pointer"]) for f in findings(report)] == [("schema.type", "/run_id")]


def test_a_value_nested_a_thousand_deep_is_a_located_depth_finding(tmp_path: Path) -> None:
    path = tmp_path / "deeper.json"
    path.write_text('{"run_id": ' + "[" * 1000 + '"x"' + "]" * 1000 + "}")
    code, report = validate_json(path)
    assert code == 1
    (finding,) = findings(report)
    assert (finding["layer"], finding["code"], finding["line"]) == ("syntax", "ES012", 1)
    assert "200" in finding["message"]


def test_deep_free_form_arguments_within_the_limit_score_and_beyond_it_are_invalid(tmp_path: Path) -> None:
    run = json.loads(RUN_LINES[0])
    run["task_results"][0]["step_results"][0]["agent_tool_calls"][0]["args"] = {"q": nested(150)}
    path = tmp_path / "deep-args.jsonl"
    path.write_text(json.dumps(run) + "\n")
    assert invoke("score", path, "--suite", SUITE).exit_code in (0, 1)
    run["task_results"][0]["step_results"][0]["agent_tool_calls"][0]["args"] = {"q": nested(300)}
    path.write_text(json.dumps(run) + "\n")
    result = invoke("score", path, "--suite", SUITE)
    assert result.exit_code == 3
    assert "ES012" in result.stdout


# --- non-UTF-8 names, internal errors ---------------------------------------------------------


def test_a_file_name_that_is_not_utf8_is_reported_in_json_with_its_bytes_escaped(tmp_path: Path) -> None:
    name = os.fsdecode(b"run-\xff.json")
    path = tmp_path / name
    path.write_bytes(MINIMAL_RUN.read_bytes())
    code, report = validate_json(path)
    assert code == 0
    (record,) = report["inputs"]
    assert record["path"].endswith("run-\\xff.json")
    assert report["artifacts"][0]["source"] == record["path"]


def _crash_on(marker: str) -> Any:
    real = checker.check_document

    def check_document(document: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(document, dict) and document.get("run_id") == marker:
            raise KeyError("a bug planted by the test")
        return real(document, *args, **kwargs)

    return check_document


def test_an_internal_error_on_one_input_exits_70_and_the_other_inputs_are_still_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("evalscore.validation.checker.check_document", _crash_on("boom"))
    document = json.loads(MINIMAL_RUN.read_text())
    (tmp_path / "a-boom.json").write_text(json.dumps({**document, "run_id": "boom"}))
    (tmp_path / "b-fine.json").write_text(json.dumps(document))
    (tmp_path / "c-invalid.json").write_text(json.dumps({**document, "run_id": 7}))
    code, report = validate_json(tmp_path)
    assert code == 70
    assert [(a["source"].rsplit("/", 1)[1], a["valid"]) for a in report["artifacts"]] == [
        ("a-boom.json", False),
        ("b-fine.json", True),
        ("c-invalid.json", False),
    ]
    assert findings(report)[0]["code"] == "ES099"
    assert "KeyError" in findings(report)[0]["message"]
    assert report["summary"]["internal_errors"] == 1
    text = invoke("validate", tmp_path)
    assert text.exit_code == 70
    assert "INTERNAL ERROR" in text.stdout


def test_traceback_shows_where_an_internal_error_happened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("evalscore.validation.checker.check_document", _crash_on("boom"))
    monkeypatch.setenv("EVALSCORE_TRACEBACK", "")  # --traceback sets it; monkeypatch unsets it afterwards
    document = json.loads(MINIMAL_RUN.read_text())
    path = tmp_path / "boom.json"
    path.write_text(json.dumps({**document, "run_id": "boom"}))
    quiet = CliRunner().invoke(main, ["validate", str(path)])
    assert "Traceback" not in quiet.output
    loud = CliRunner().invoke(main, ["validate", "--traceback", str(path)])
    assert loud.exit_code == 70
    assert "Traceback" in loud.stderr
    assert "a bug planted by the test" in loud.stderr


def test_an_internal_error_while_scoring_one_run_exits_70_and_scores_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = checked_runs.RunScorer.score_dict  # runs re-derived against a suite are scored from their dict

    def score_dict(scorer: Any, scoring: Any, run: Any, source: str) -> None:
        if run["run_id"] == "partner-2026-11-02-a":
            raise ZeroDivisionError("a bug planted by the test")
        real(scorer, scoring, run, source)

    monkeypatch.setattr(checked_runs.RunScorer, "score_dict", score_dict)
    result = invoke("score", LOG, "--suite", SUITE, "--format", "json")
    assert result.exit_code == 70
    assert "ES099" in result.stdout
    assert "internal error" in result.stderr


# --- hangs ------------------------------------------------------------------------------------


def test_endless_blank_lines_on_stdin_are_read_only_up_to_the_limit() -> None:
    code, report = validate_json("--max-document-bytes", "1000", "-", stdin=b"\n" * 100_000 + MINIMAL_RUN.read_bytes())
    assert code == 1
    assert report["inputs"][0]["complete"] is False
    assert [f["code"] for f in findings(report)] == ["ES006"]
    code, report = validate_json("-", stdin=b"\n" * 1000 + b"".join(MINIMAL_RUN.read_bytes().split()) + b"\n")
    assert code == 0


def test_a_baseline_is_bounded_like_any_input(tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps({"evalscore_version": __version__, "padding": "x" * 5000}))
    result = invoke(
        "score", LOG, "--suite", SUITE, "--baseline", baseline, "--max-document-bytes", "4000", "--format", "json"
    )
    assert result.exit_code == 4
    report = json.loads(result.stdout)
    assert any("larger than 4,000 bytes" in reason for reason in report["decision"]["reasons"])
    assert str(baseline) not in [entry["path"] for entry in report["inputs"]]  # its bytes were not all read


# --- options are inputs too -------------------------------------------------------------------


@pytest.mark.parametrize(
    "option",
    [
        ("--min-mandated-compliance", "nan"),
        ("--min-tool-match", "inf"),
        ("--max-prefilled-ratio", "-inf"),
        ("--max-drop", "nan"),
        ("--fast-approval-floor-ms", "inf"),
        ("--fast-approval-ms-per-char", "nan"),
    ],
)
def test_nan_and_infinities_are_usage_errors(option: tuple[str, str]) -> None:
    result = invoke("score", LOG, "--suite", SUITE, *option)
    assert result.exit_code == 2
    assert "is not a finite number" in result.stderr


def test_max_drop_nan_with_a_baseline_is_a_usage_error_not_a_crash(tmp_path: Path) -> None:
    current = json.loads(invoke("score", LOG, "--suite", SUITE, "--format", "json").stdout)
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps(current))
    result = invoke("score", LOG, "--suite", SUITE, "--baseline", baseline, "--max-drop", "nan")
    assert result.exit_code == 2


def _baseline(tmp_path: Path, change: Any) -> Path:
    current = json.loads(invoke("score", LOG, "--suite", SUITE, "--format", "json").stdout)
    change(current)
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(current))
    return path


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda report: report["rates"].update(mandated_compliance_rate=-5), "/rates/mandated_compliance_rate"),
        (lambda report: report["rates"].update(tool_match_accuracy=1.5), "/rates/tool_match_accuracy"),
        (lambda report: report["counts"].update(total_steps=-1), "/counts/total_steps"),
        (lambda report: report.update(evalscore_version="banana"), "/evalscore_version"),
        (lambda report: report.update(evalscore_version="99.0.0"), "newer than this"),
        (lambda report: report.update(extra_key=1), "extra_key"),
        (lambda report: report.update(evalscore_version=__version__ + "\n"), "/evalscore_version"),
        (lambda report: report["rates"].update(mandated_compliance_rate=0.5), "disagree with its own counts"),
        (lambda report: report["rates"].update(golden_truth_pass_rate=0.5), "golden_truth_pass_rate is 0.5"),
    ],
)
def test_a_baseline_out_of_range_or_from_another_tool_version_is_refused(
    tmp_path: Path, change: Any, said: str
) -> None:
    result = invoke("score", LOG, "--suite", SUITE, "--baseline", _baseline(tmp_path, change), "--format", "json")
    assert result.exit_code == 4
    reasons = json.loads(result.stdout)["decision"]["reasons"]
    assert any(said in reason for reason in reasons), reasons


@pytest.mark.parametrize("version", ["0.0.9", "0.1.0-rc1", "0.1.0+local.2", __version__])
def test_a_baseline_from_this_or_an_older_evalscore_is_compared(tmp_path: Path, version: str) -> None:
    path = _baseline(tmp_path, lambda report: report.update(evalscore_version=version))
    # A tolerance of 1 is wider than any interval of a change: every rate is compared and passes.
    result = invoke("score", LOG, "--suite", SUITE, "--baseline", path, "--max-drop", "1", "--format", "json")
    assert result.exit_code == 0, result.stdout
    assert len(json.loads(result.stdout)["decision"]["checks"]) == 6  # every rate the example measures


def test_a_baseline_with_no_rate_to_compare_gates_nothing_and_says_so(tmp_path: Path) -> None:
    def all_null(report: dict[str, Any]) -> None:
        for name in list(report["rates"]):
            if name != "dimension_means":
                report["rates"][name] = None
                report["counts"][name].update(numerator=0, denominator=0)

    result = invoke("score", LOG, "--suite", SUITE, "--baseline", _baseline(tmp_path, all_null), "--format", "json")
    assert result.exit_code == 0
    decision = json.loads(result.stdout)["decision"]
    assert decision["outcome"] == "not-gated"  # nothing was checked: never a PASS
    (reason,) = decision["reasons"]
    assert reason.startswith("nothing was gated: the baseline has no rate to compare with")


def test_a_baseline_with_a_repeated_key_is_refused(tmp_path: Path) -> None:
    path = _baseline(tmp_path, lambda report: None)
    text = path.read_text()
    path.write_text(text.replace('"rates": {', '"rates": {"prefilled_ratio": 0.0, ', 1))
    result = invoke("score", LOG, "--suite", SUITE, "--baseline", path, "--format", "json")
    assert result.exit_code == 4
    assert any("ES011" in r or "repeats the key" in r for r in json.loads(result.stdout)["decision"]["reasons"])


# --- stdin is one document unless it is JSONL -------------------------------------------------


def test_a_yaml_suite_on_stdin_is_one_document() -> None:
    code, report = validate_json("-", stdin=SUITE.read_bytes())
    assert code == 0
    assert [(a["kind"], a["line"]) for a in report["artifacts"]] == [("eval-suite", None)]


def test_truncated_pretty_json_on_stdin_is_one_finding_with_its_line_and_column() -> None:
    pretty = json.dumps(json.loads(RUN_LINES[0]), indent=2).encode()
    cut = pretty[: len(pretty) // 2]
    code, report = validate_json("-", stdin=cut)
    assert code == 1
    (finding,) = findings(report)
    assert finding["code"] == "ES002"
    assert finding["line"] == cut.count(b"\n") + 1
    assert f"line {finding['line']} column" in finding["message"]


def test_a_file_of_unknown_suffix_is_sniffed_like_stdin(tmp_path: Path) -> None:
    (tmp_path / "suite.txt").write_bytes(SUITE.read_bytes())
    (tmp_path / "runs.log").write_bytes(b"\n".join(RUN_LINES) + b"\n")
    code, report = validate_json(tmp_path / "suite.txt", tmp_path / "runs.log")
    assert code == 0
    assert [(a["kind"], a["line"]) for a in report["artifacts"]] == [("eval-suite", None), ("run", 1), ("run", 2)]


# --- small inconsistencies --------------------------------------------------------------------


def test_a_truncated_jsonl_line_names_the_column_where_it_ends(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(RUN_LINES[0] + b"\n" + RUN_LINES[1][:100] + b"\n")
    _, report = validate_json(path)
    (finding,) = findings(report)
    assert finding["line"] == 2
    assert "(column 100)" in finding["message"]


def test_a_byte_order_mark_opens_a_file_but_not_a_later_line(tmp_path: Path) -> None:
    bom = b"\xef\xbb\xbf"
    path = tmp_path / "runs.jsonl"
    path.write_bytes(bom + RUN_LINES[0] + b"\n" + bom + RUN_LINES[1] + b"\n")
    _, report = validate_json(path)
    assert [(a["line"], a["valid"]) for a in report["artifacts"]] == [(1, True), (2, False)]
    assert [f["code"] for f in findings(report)] == ["ES002"]


def test_a_symlink_loop_named_directly_says_what_it_is(tmp_path: Path) -> None:
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop)
    code, report = validate_json(loop)
    assert code == 2
    (finding,) = findings(report)
    assert finding["code"] == "ES001"
    assert "symbolic links" in finding["message"]


# --- suites in YAML ---------------------------------------------------------------------------

DEEP_YAML = b"suite:\n  nested: " + b"[" * 1000 + b"]" * 1000 + b"\n"


def test_yaml_nested_a_thousand_deep_is_a_finding_for_validate_and_score(tmp_path: Path) -> None:
    suite = tmp_path / "deep.yaml"
    suite.write_bytes(DEEP_YAML)
    code, report = validate_json(suite)
    assert code == 1
    assert [f["code"] for f in findings(report)] == ["ES012"]
    result = invoke("score", LOG, "--suite", suite)
    assert result.exit_code == 3
    assert "ES012" in result.stdout


@pytest.mark.parametrize("tagged", ["!!binary aGVsbG8=", "!!set {a, b}", "!!timestamp 2026-01-01", "!!python/none ''"])
def test_a_yaml_tag_outside_json_is_a_located_finding(tmp_path: Path, tagged: str) -> None:
    suite = tmp_path / "tagged.yaml"
    suite.write_bytes(
        SUITE.read_bytes().replace(b"description: Read an order and its charges.", b"description: " + tagged.encode())
    )
    code, report = validate_json(suite)
    assert code == 1
    (finding,) = findings(report)
    assert finding["code"] == "ES003"
    assert finding["line"] is not None


def test_a_yaml_suite_repeating_mandated_gates_cannot_turn_a_fail_into_a_pass(tmp_path: Path) -> None:
    original = SUITE.read_bytes()
    goal = b"      overall_goal: Refund only what is owed, and only after a human approves.\n"
    assert goal in original
    hidden = tmp_path / "suite.yaml"
    hidden.write_bytes(original.replace(goal, goal + b"      mandated_gates: []\n", 1))
    assert invoke("score", LOG, "--suite", SUITE, "--min-mandated-compliance", "0.7").exit_code == 1  # 3/5 < 0.7
    result = invoke("score", LOG, "--suite", hidden, "--min-mandated-compliance", "0.7", "--format", "json")
    assert result.exit_code == 3
    (finding,) = findings(json.loads(result.stdout))
    assert (finding["code"], finding["pointer"]) == ("ES011", "/suite/tasks/0")


# --- the verdict cannot be bought --------------------------------------------------------------


@pytest.mark.parametrize("spelling", ["Delete_Records", "delete_records\u200b"])
def test_misspelling_a_gated_tool_is_refused_not_scored_past_its_gate(tmp_path: Path, spelling: str) -> None:
    runs = [json.loads(line) for line in RUN_LINES]
    call = runs[0]["task_results"][1]["step_results"][0]["agent_tool_calls"][1]
    assert call["tool"] == "delete_records"
    call["tool"] = spelling
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(run) + "\n" for run in runs))
    assert invoke("score", LOG, "--suite", SUITE, "--min-mandated-compliance", "0.7").exit_code == 1
    result = invoke("score", path, "--suite", SUITE, "--min-mandated-compliance", "0.7", "--format", "json")
    assert result.exit_code == 4
    (refusal,) = json.loads(result.stdout)["refusals"]
    assert (refusal["code"], refusal["pointer"]) == (
        "tool-unknown",
        "/task_results/1/step_results/0/agent_tool_calls/1/tool",
    )


def test_repeating_a_run_cannot_turn_a_fail_into_a_pass(tmp_path: Path) -> None:
    repeated = tmp_path / "repeated.jsonl"
    repeated.write_bytes(b"\n".join([RUN_LINES[0]] * 20 + [RUN_LINES[1]]) + b"\n")
    assert invoke("score", LOG, "--suite", SUITE, "--min-mandated-compliance", "0.65").exit_code == 1
    result = invoke("score", repeated, "--suite", SUITE, "--min-mandated-compliance", "0.65", "--format", "json")
    assert result.exit_code == 4
    report = json.loads(result.stdout)
    assert [refusal["code"] for refusal in report["refusals"]] == ["run-repeated"] * 19
    assert report["rates"]["mandated_compliance_rate"] == 0.6  # the repeats weigh nothing
    twice = invoke("score", LOG, LOG, "--suite", SUITE, "--min-mandated-compliance", "0.65")  # the same log twice
    assert twice.exit_code == 4


def test_the_last_leap_second_of_year_9999_is_no_internal_error(tmp_path: Path) -> None:
    run = json.loads(RUN_LINES[0])
    gate = run["task_results"][0]["step_results"][0]["gate_events"][0]
    gate.update(opened_at="9999-12-31T23:59:59Z", resolved_at="9999-12-31T23:59:60Z", decision_latency_ms=500)
    run["started_at"], run["ended_at"] = "9999-12-31T23:59:60Z", "9999-12-31T23:59:60Z"
    path = tmp_path / "y9999.jsonl"
    path.write_text(json.dumps(run) + "\n")
    code, _ = validate_json(path)
    assert code == 0
    assert invoke("score", path, "--suite", SUITE).exit_code in (0, 1)
    gate["resolved_at"] = "9999-12-31T12:00:60Z"  # not 23:59 UTC: no leap second there
    path.write_text(json.dumps(run) + "\n")
    code, report = validate_json(path)
    assert code == 1
    assert [f["code"] for f in findings(report)] == ["ES104"]


def test_stdin_named_twice_is_a_usage_error() -> None:
    assert invoke("validate", "-", "-", stdin=MINIMAL_RUN.read_bytes()).exit_code == 2
    result = invoke("score", "-", "--suite", "-", stdin=LOG.read_bytes())
    assert result.exit_code == 2
    assert "stdin" in result.stderr


def test_a_limit_beyond_what_any_read_can_take_is_a_usage_error() -> None:
    assert invoke("validate", "--max-document-bytes", str(2**63), MINIMAL_RUN).exit_code == 2
    assert invoke("validate", "--max-document-bytes", str(2**40), MINIMAL_RUN).exit_code == 0


def test_a_corrupt_gzip_keeps_the_digest_of_what_was_read(tmp_path: Path) -> None:
    path = tmp_path / "cut.json.gz"
    path.write_bytes(gzip.compress(MINIMAL_RUN.read_bytes())[:40])
    _, report = validate_json(path)
    (record,) = report["inputs"]
    assert (record["complete"], record["hashed_bytes"]) == (False, 40)
    assert record["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_recorded_count_beyond_a_double_is_refused_not_an_internal_error(tmp_path: Path) -> None:
    run = json.loads(RUN_LINES[0])
    step = run["task_results"][0]["step_results"][0]
    step["auto_score"] = {
        "tool_match": True,
        "distraction_caught": None,
        "gates": {"mandated": None, "discretionary": {"blockers": 10**400, "asked": 0, "matched": 0, "unprompted": 0}},
    }
    path = tmp_path / "huge-count.json"
    path.write_text(json.dumps(run))
    result = invoke("score", path, "--format", "json")
    assert result.exit_code == 4
    assert [refusal["code"] for refusal in json.loads(result.stdout)["refusals"]] == ["count-unrepresentable"]
