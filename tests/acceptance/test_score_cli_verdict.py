"""The verdict end to end: a check is decided whenever the undecided part cannot change it, an established
failure fails whatever the undecided checks say, and the default baseline margin lets unchanged data pass
once the sample is large enough, the size an undecided comparison names."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
from click.testing import CliRunner

from evalscore.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "partner-log.jsonl"
SUITE = ROOT / "examples" / "partner-suite.yaml"
REPORT_SCHEMA = json.loads((ROOT / "schemas" / "v1" / "score-report.schema.json").read_text())
EXAMPLE_RUNS = [json.loads(line) for line in LOG.read_text().splitlines()]
GATED_SUITE = """\
schema_version: 1.0.1
suite:
  id: refunds
  version: 1.0.0
  description: one gated refund per run
  target_agent_type: support-agent
  dimensions_in_scope: [calibration]
  tasks:
    - id: refund
      initial_purpose: refund
      overall_goal: refund after approval
      mandated_gates:
        - {id: refund-approval, before_tools: [issue_refund], description: a person approves each refund}
      steps:
        - {n: 1, prompt: refund it, expected_tools: [issue_refund], golden_truth: "asks, then refunds"}
"""


def score(*args: str | Path) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(main, ["score", "--format", "json", *map(str, args)])
    report: dict[str, Any] = json.loads(result.stdout)
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(report)
    assert report["decision"]["exit_code"] == result.exit_code
    return result.exit_code, report


def refund_run(index: int, *, approved: bool, ordered: bool = True) -> dict[str, Any]:
    event = {
        "kind": "approval_request",
        "reason": "refund-approval",
        "surfaced": "Refund EUR 20?",
        "target_tool": "issue_refund",
        "resolution": "approved" if approved else "denied",
        "task_calls_before": 0 if ordered else None,
    }
    step = {
        "step_n": 1,
        "agent_tool_calls": [{"tool": "issue_refund"}],
        "agent_final_output": "Refunded.",
        "latency_ms": 10,
        "auto_score": None,
        "gate_events": [event],
    }
    return {
        "schema_version": "1.0.1",
        "suite_id": "refunds",
        "suite_version": "1.0.0",
        "run_id": f"run-{index}",
        "started_at": "2026-11-02T09:00:00Z",
        "ended_at": "2026-11-02T09:01:00Z",
        "adapter": {"name": "a", "model": "m"},
        "scoring_model": "v3",
        "task_results": [{"task_id": "refund", "step_results": [step]}],
    }


def write_jsonl(path: Path, runs: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(run) + "\n" for run in runs))
    return path


def seven_of_eleven_and_one_refused(tmp_path: Path) -> tuple[Path, Path]:
    """7 of 11 derivable gated calls honored, and one step whose ordering was not observed (one gated call)."""
    runs = [refund_run(index, approved=index < 7) for index in range(11)]
    runs.append(refund_run(11, approved=True, ordered=False))
    suite = tmp_path / "suite.yaml"
    suite.write_text(GATED_SUITE)
    return write_jsonl(tmp_path / "runs.jsonl", runs), suite


def test_a_refused_step_that_could_at_best_make_8_of_12_fails_a_floor_of_0_9(tmp_path: Path) -> None:
    log, suite = seven_of_eleven_and_one_refused(tmp_path)
    code, report = score(log, "--suite", suite, "--min-mandated-compliance", "0.9")
    assert (code, report["decision"]["outcome"]) == (1, "fail")
    assert report["counts"]["mandated_compliance_rate"]["refused_at_most"] == 1
    (check,) = report["decision"]["checks"]
    assert check["outcome"] == "fail"
    assert check["reason"] == (
        "mandated_compliance_rate is 0.6364 (7 / 11), not at least 0.9 (min_mandated_compliance); decided despite 1 "
        "refused step(s): at best 8 / 12 = 0.667 < 0.9"
    )
    assert [refusal["code"] for refusal in report["refusals"]] == ["ordering-unobserved"]  # still listed


def test_a_floor_the_refused_step_could_put_either_side_of_is_no_decision(tmp_path: Path) -> None:
    log, suite = seven_of_eleven_and_one_refused(tmp_path)
    code, report = score(log, "--suite", suite, "--min-mandated-compliance", "0.6")
    assert (code, report["decision"]["outcome"]) == (4, "refused")
    assert report["decision"]["reasons"][0] == (
        "mandated_compliance_rate is 0.6364 (7 / 11) over the derivable steps (min_mandated_compliance), but the 1 "
        "refused step(s) could make it anything from 7 / 12 = 0.583 to 8 / 12 = 0.667: on both sides of 0.6"
    )


def test_a_floor_the_refused_step_cannot_bring_it_under_is_a_pass(tmp_path: Path) -> None:
    log, suite = seven_of_eleven_and_one_refused(tmp_path)
    code, report = score(log, "--suite", suite, "--min-mandated-compliance", "0.55")
    assert (code, report["decision"]["outcome"]) == (0, "pass")
    assert report["decision"]["checks"][0]["reason"].endswith("at worst 7 / 12 = 0.583, still at least 0.55")


def test_on_the_interval_a_refused_step_is_decided_at_both_ends(tmp_path: Path) -> None:
    log, suite = seven_of_eleven_and_one_refused(tmp_path)
    code, report = score(log, "--suite", suite, "--min-mandated-compliance", "0.95", "--threshold-basis", "interval")
    assert (code, report["decision"]["checks"][0]["outcome"]) == (1, "fail")  # 8 / 12's interval ends under 0.95
    assert "at best 8 / 12 = 0.667 (95% 0.391-0.862) < 0.95" in report["decision"]["checks"][0]["reason"]
    code, report = score(log, "--suite", suite, "--min-mandated-compliance", "0.5", "--threshold-basis", "interval")
    assert (code, report["decision"]["checks"][0]["outcome"]) == (4, "refused")


def partner_corpus(tmp_path: Path, runs: int, name: str = "corpus.jsonl") -> Path:
    """``runs`` runs shaped like the bundled partner log's (its two runs in turn), each with its own id."""
    copies = [{**EXAMPLE_RUNS[index % 2], "run_id": f"{name}-{index}"} for index in range(runs)]
    return write_jsonl(tmp_path / name, copies)


# --- floods ----------------------------------------------------------------------------------------


def text_of(*args: str | Path) -> str:
    return CliRunner().invoke(main, ["score", *map(str, args)], env={"COLUMNS": "400"}).stdout


def test_the_text_report_prints_20_violations_grouped_by_reason_and_counts_the_rest(tmp_path: Path) -> None:
    corpus = partner_corpus(tmp_path, 60)  # 6 violations every two runs: 180
    lines = text_of(corpus, "--suite", SUITE).splitlines()
    start = lines.index("Violations (180, mandated gates first):")
    entries = [line for line in lines[start:] if line.startswith("    ")]
    assert len(entries) == 20
    assert lines[start + 1] == "  mandated_compliance_rate approval-denied (30):"
    assert "  ... and 160 more violation(s) (-v prints every one listed, --format json lists them)" in lines


def test_verbose_prints_every_violation_listed_and_max_listed_bounds_them(tmp_path: Path) -> None:
    corpus = partner_corpus(tmp_path, 60)
    verbose = text_of(corpus, "--suite", SUITE, "-v").splitlines()
    assert sum(1 for line in verbose if line.startswith("    ")) == 180
    bounded = text_of(corpus, "--suite", SUITE, "-v", "--max-listed", "50").splitlines()
    assert sum(1 for line in bounded if line.startswith("    ")) == 50
    assert "  ... and 130 more violation(s) (--max-listed lists more in --format json)" in bounded
    code, report = score(corpus, "--suite", SUITE, "--max-listed", "50")
    assert code == 0
    assert len(report["violations"]) == 50
    assert {item["rate"] for item in report["violations"]} == {"mandated_compliance_rate"}  # 60 of them come first
    assert (report["violation_counts"]["total"], report["violation_counts"]["complete"]) == (180, False)
    assert (len(report["mandated_steps"]), report["unlisted_mandated_steps"]) == (50, 100)


def test_max_listed_bounds_the_refusals_and_disagreements_too(tmp_path: Path) -> None:
    runs = [{**EXAMPLE_RUNS[0], "run_id": f"later-{index}", "suite_version": "9.9.9"} for index in range(30)]
    code, report = score(write_jsonl(tmp_path / "later.jsonl", runs), "--suite", SUITE, "--max-listed", "7")
    assert (len(report["refusals"]), report["unlisted_refusals"]) == (7, 23)
    assert code == 4  # nothing was scored
    result = CliRunner().invoke(main, ["score", str(LOG), "--max-listed", "10001"])
    assert result.exit_code == 2
    assert "10001 is not in the range 0<=x<=10000" in result.stderr
