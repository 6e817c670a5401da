"""`evalscore score` end to end, through click's runner: figures, exit codes, report shape."""

from __future__ import annotations

import copy
import gzip
import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from _baselines import earlier_report
from click.testing import CliRunner, Result

from evalscore.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "partner-log.jsonl"
SUITE = ROOT / "examples" / "partner-suite.yaml"
GOLDENS = ROOT / "goldens"
INVALID_RUN = ROOT / "fixtures" / "invalid" / "run" / "ES101--latency-disagrees-with-timestamps.json"
REPORT_SCHEMA = json.loads((ROOT / "schemas" / "v1" / "score-report.schema.json").read_text())
OUTCOME_LINE = re.compile(
    r"^(PASS|FAIL|NO DECISION|NOT GATED) \((?:refused, |nothing was checked, )?exit (\d+)\)$", re.MULTILINE
)
EXIT_OF_OUTCOME = {"PASS": 0, "FAIL": 1, "NO DECISION": 4, "NOT GATED": 0}
OUTCOME_OF_WORD = {"PASS": "pass", "FAIL": "fail", "NO DECISION": "refused", "NOT GATED": "not-gated"}
RUN_A, RUN_B = (json.loads(line) for line in LOG.read_text().splitlines())
ERASURE_STEP = "/task_results/1/step_results/0"


def invoke(*args: str | Path, stdin: bytes | None = None) -> Result:
    result = CliRunner().invoke(main, [str(arg) for arg in args], input=stdin)
    assert "Traceback" not in result.output
    assert "internal error" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def score(*args: str | Path, stdin: bytes | None = None) -> Result:
    return invoke("score", *args, stdin=stdin)


def score_json(*args: str | Path, stdin: bytes | None = None) -> tuple[int, dict[str, Any]]:
    result = score("--format", "json", *args, stdin=stdin)
    report: dict[str, Any] = json.loads(result.stdout)
    assert report["decision"]["exit_code"] == result.exit_code
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(report)
    return result.exit_code, report


def example(*args: str | Path) -> tuple[int, dict[str, Any]]:
    """The README's first command on the bundled example, with extra options."""
    return score_json(LOG, "--suite", SUITE, *args)


def only_rate(name: str, numerator: float, denominator: float) -> dict[str, Any]:
    """The example's report as a baseline that measured ``name`` alone, as ``numerator / denominator``."""
    return earlier_report(example()[1], only=True, **{name: (numerator, denominator)})


def write_json(path: Path, document: Any) -> Path:
    path.write_text(json.dumps(document))
    return path


def outcome_word(text: str) -> tuple[str, int]:
    found = OUTCOME_LINE.findall(text)
    assert len(found) == 1, text
    word, code = found[0]
    return word, int(code)


# --- the bundled example: figures computed by hand from the log -----------------------------


def test_the_bundled_example_exits_0_with_the_hand_computed_rates() -> None:
    code, report = example()
    assert code == 0
    assert (report["source"], report["scoring_model"]) == ("rederived", "v3")
    assert report["suites"] == [{"id": "refund-desk", "version": "2.1.0"}]
    rates = report["rates"]
    assert rates["mandated_compliance_rate"] == 0.6  # untargeted approval (B) and denied erasure (A) violate
    assert rates["discretionary_ask_precision"] == 1.0
    assert rates["discretionary_blocker_recall"] == 0.5
    assert rates["tool_match_accuracy"] == 0.875
    assert rates["distraction_detection_rate"] == 0.5
    assert rates["golden_truth_pass_rate"] is None
    assert rates["prefilled_ratio"] == 0.0
    assert set(rates["dimension_means"].values()) == {None}


def without_interval(count: dict[str, Any]) -> dict[str, Any]:
    """A rate's counts without the interval (``test_score_intervals`` checks it against statsmodels)."""
    assert count["interval"] is None or set(count["interval"]) == {"low", "high", "confidence", "method"}
    return {key: value for key, value in count.items() if key not in ("interval", "refused_at_most")}


def test_the_bundled_example_reports_the_counts_behind_each_rate() -> None:
    _, report = example()
    counts = report["counts"]
    assert without_interval(counts["mandated_compliance_rate"]) == {"numerator": 3, "denominator": 5}
    assert without_interval(counts["discretionary_ask_precision"]) == {"numerator": 1, "denominator": 1}
    assert without_interval(counts["discretionary_blocker_recall"]) == {
        "numerator": 1,
        "denominator": 2,
        "basis": "addressed",
    }
    assert without_interval(counts["tool_match_accuracy"]) == {
        "numerator": 7,
        "denominator": 8,
        "true": 6,
        "partial": 2,
        "false": 0,
    }
    assert without_interval(counts["distraction_detection_rate"]) == {"numerator": 1, "denominator": 2}
    assert without_interval(counts["prefilled_ratio"]) == {"numerator": 0, "denominator": 8}
    assert (counts["total_steps"], counts["scored_steps"], counts["reviewed_steps"]) == (8, 8, 0)
    assert (counts["unscored_steps"], counts["refused_steps"]) == (0, 0)
    assert report["disagreements"] == []
    assert report["refusals"] == []


def test_the_bundled_example_reports_the_hand_computed_oversight_signals() -> None:
    _, report = example()
    signals = report["signals"]
    tallies = {"by_target_tool", "unresolved_by_target_tool", "approval_latencies", "thresholds"}
    assert {key: value for key, value in signals.items() if key not in tallies} == {
        "resolved_gates": 6,
        "approvals": 4,
        "denials": 1,
        "unresolved": 1,
        "without_overseer": 2,
        "four_eyes": 1,  # ["Ops-Lead-17 ", "ops-lead-17"] is one person; ["dpo-2", "ops-lead-17"] two
        "latency_unavailable": 2,
        "fast_approvals": 2,
        "fast_approvals_by_bound": 0,
        "never_denied": False,
    }
    # Approved approval requests: 38,500 ms (bin 30 s-1 min), 900 ms (500 ms-1 s), 400 ms from the
    # timestamps (250-500 ms), and one with neither a duration nor both timestamps: unknown, in no bin.
    assert signals["approval_latencies"] == {
        "edges_ms": [0, 250, 500, 1000, 2000, 5000, 10000, 30000, 60000, 300000, 900000, 3600000, 86400000],
        "counts": [0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
        "unknown": 1,
    }
    assert signals["unresolved_by_target_tool"] == [{"target_tool": "delete_records", "unresolved": 1}]
    by_tool = {entry["target_tool"]: entry for entry in signals["by_target_tool"]}
    assert len(signals["by_target_tool"]) == 3
    assert by_tool["issue_refund"] == {
        "target_tool": "issue_refund",
        "approvals": 3,
        "denials": 0,
        "never_denied": True,
    }
    assert by_tool["delete_records"] == {
        "target_tool": "delete_records",
        "approvals": 0,
        "denials": 1,
        "never_denied": False,
    }
    assert by_tool[None] == {"target_tool": None, "approvals": 1, "denials": 0, "never_denied": True}
    assert signals["thresholds"] == {"fast_approval_floor_ms": 1000, "fast_approval_ms_per_char": 8}


def test_fast_approval_parameters_are_configurable_and_echoed() -> None:
    _, report = example("--fast-approval-floor-ms", "0", "--fast-approval-ms-per-char", "0")
    assert report["signals"]["thresholds"] == {"fast_approval_floor_ms": 0, "fast_approval_ms_per_char": 0}
    assert report["signals"]["fast_approvals"] == 0  # nothing is faster than zero
    _, slow = example("--fast-approval-floor-ms", "1000000")
    assert slow["signals"]["fast_approvals"] == 3  # every approved request with a known latency
    assert slow["decision"]["exit_code"] == 0


def test_the_text_report_shows_the_signals_and_ends_with_the_decision() -> None:
    result = score(LOG, "--suite", SUITE)
    assert result.exit_code == 0
    text = result.stdout
    assert "Oversight signals (reported, never graded" in text
    assert re.search(r"resolved gates\s*│\s*6\s*│", text)
    assert re.search(r"approvals / denials / unresolved\s*│\s*4 / 1 / 1\s*│", text)
    assert re.search(r"mandated gate compliance\s*│\s*0\.600\s*│\s*3 / 5\s*│", text)
    assert "\x1b[" not in text  # colour only on a terminal
    lines = text.rstrip("\n").splitlines()
    decision_at = next(index for index, line in enumerate(lines) if OUTCOME_LINE.match(line))
    assert lines[decision_at] == "NOT GATED (nothing was checked, exit 0)"
    assert text.index("Oversight signals") < text.index("Violations (6, mandated gates first):") < text.index(
        "NOT GATED (nothing was checked, exit 0)"
    )
    _, report = example()
    after = " ".join(" ".join(lines[decision_at + 1 :]).split())
    assert after == " ".join(report["decision"]["reasons"])  # only the decision's reasons follow it
    assert after


# --- exit codes -----------------------------------------------------------------------------


def test_a_threshold_not_met_exits_1_and_says_fail() -> None:
    result = score(LOG, "--suite", SUITE, "--min-mandated-compliance", "0.9")
    assert result.exit_code == 1
    assert outcome_word(result.stdout) == ("FAIL", 1)
    assert "mandated_compliance_rate is 0.6, not at least 0.9" in result.stdout


def test_a_threshold_met_exactly_passes() -> None:
    code, report = example("--min-mandated-compliance", "0.6", "--min-tool-match", "0.875")
    assert code == 0
    assert [check["outcome"] for check in report["decision"]["checks"]] == ["pass", "pass"]


def test_a_prefilled_ratio_under_the_ceiling_passes() -> None:
    code, report = example("--max-prefilled-ratio", "0")
    assert code == 0
    assert report["decision"]["checks"][0]["name"] == "max_prefilled_ratio"


def test_a_lower_baseline_on_a_handful_of_gates_is_inside_the_noise_and_no_decision(tmp_path: Path) -> None:
    subset = write_json(tmp_path / "run-a.json", RUN_A)  # run A alone: 2 of 3 mandated gates honored
    _, baseline = score_json(subset, "--suite", SUITE)
    assert baseline["rates"]["mandated_compliance_rate"] == pytest.approx(2 / 3)
    baseline_path = write_json(tmp_path / "baseline.json", baseline)
    code, report = example("--baseline", baseline_path, "--max-drop", "0")
    assert (code, report["decision"]["outcome"]) == (4, "refused")
    check = next(c for c in report["decision"]["checks"] if c["rate"] == "mandated_compliance_rate")
    assert check["outcome"] == "refused"
    assert "too few trials to decide the allowed 0;" in check["reason"]


def test_an_established_fall_is_a_regression_that_exits_1(tmp_path: Path) -> None:
    code, report = example(*_baseline_regression(tmp_path))
    assert code == 1
    assert [(check["rate"], check["outcome"]) for check in report["decision"]["checks"]] == [
        ("mandated_compliance_rate", "fail")
    ]
    assert any(
        "regression beyond the allowed 0.05 is established" in reason for reason in report["decision"]["reasons"]
    )


def test_an_unchanged_baseline_passes_with_a_tolerance_wider_than_the_noise(tmp_path: Path) -> None:
    """The widest interval of the example's changes is ask precision's, 1/1 against 1/1: up to 0.793."""
    _, current = example()
    code, report = example("--baseline", write_json(tmp_path / "baseline.json", current), "--max-drop", "0.8")
    assert code == 0
    assert len(report["decision"]["checks"]) == 6  # every non-null rate compared
    assert {check["outcome"] for check in report["decision"]["checks"]} == {"pass"}


def test_a_baseline_under_another_scoring_model_is_refused_with_exit_4(tmp_path: Path) -> None:
    _, v3 = example()
    code, report = example("--scoring-model", "v2", "--baseline", write_json(tmp_path / "v3.json", v3))
    assert code == 4
    assert report["decision"]["outcome"] == "refused"
    assert any("scored under v3" in reason and "under v2" in reason for reason in report["decision"]["reasons"])
    assert report["decision"]["checks"] == []  # nothing compared across models


def test_a_baseline_over_other_suites_is_refused_with_exit_4(tmp_path: Path) -> None:
    golden = GOLDENS / "denied-approval"
    _, other = score_json(golden / "run.json", "--suite", golden / "suite.yaml", "--scoring-model", "v3")
    assert other["scoring_model"] == "v3"
    code, report = example("--baseline", write_json(tmp_path / "other.json", other))
    assert code == 4
    assert any("covers suites" in reason for reason in report["decision"]["reasons"])


def test_a_recorded_baseline_is_not_compared_with_rederived_figures(tmp_path: Path) -> None:
    _, recorded = score_json(LOG)
    assert recorded["source"] == "recorded"
    code, report = example("--baseline", write_json(tmp_path / "recorded.json", recorded))
    assert code == 4
    assert any("recorded" in reason for reason in report["decision"]["reasons"])


def test_a_baseline_that_is_not_a_report_is_refused_with_exit_4(tmp_path: Path) -> None:
    code, report = example("--baseline", write_json(tmp_path / "run.json", RUN_A))
    assert code == 4
    assert any("not an evalscore score report" in reason for reason in report["decision"]["reasons"])


def test_a_baseline_path_that_does_not_exist_is_a_usage_error(tmp_path: Path) -> None:
    """SPEC 5 and the command's docstring: 2 is a usage error or an unreadable path."""
    missing = tmp_path / "no-such-baseline.json"
    result = score(LOG, "--suite", SUITE, "--baseline", missing)
    assert result.exit_code == 2
    assert str(missing) in result.output


def test_the_baseline_is_listed_among_the_inputs_with_its_hash(tmp_path: Path) -> None:
    _, current = example()
    baseline = write_json(tmp_path / "baseline.json", current)
    _, report = example("--baseline", baseline)
    by_path = {entry["path"]: entry for entry in report["inputs"]}
    assert str(baseline) in by_path
    assert by_path[str(baseline)]["sha256"] == hashlib.sha256(baseline.read_bytes()).hexdigest()


def test_a_gated_step_with_unobserved_ordering_is_refused_naming_the_event() -> None:
    golden = GOLDENS / "unobserved-ordering"
    pointer = "/task_results/0/step_results/0/gate_events/0/task_calls_before"
    code, report = score_json(golden / "run.json", "--suite", golden / "suite.yaml")
    assert code == 0
    assert [(refusal["code"], refusal["pointer"]) for refusal in report["refusals"]] == [
        ("ordering-unobserved", pointer)
    ]
    assert report["counts"]["refused_steps"] == 1
    assert without_interval(report["counts"]["mandated_compliance_rate"]) == {"numerator": 1, "denominator": 1}
    assert report["counts"]["mandated_compliance_rate"]["refused_at_most"] == 1
    text = score(golden / "run.json", "--suite", golden / "suite.yaml").stdout
    assert pointer in text.replace("\n", "")
    assert outcome_word(text) == ("NOT GATED", 0)  # no check the refused step could change
    gated = score(golden / "run.json", "--suite", golden / "suite.yaml", "--min-mandated-compliance", "1").stdout
    assert outcome_word(gated) == ("NO DECISION", 4)  # 1 / 1 derivable; with the refused gate 1 / 2 or 2 / 2


def test_a_threshold_on_a_null_rate_is_refused_with_exit_4() -> None:
    code, report = score_json(LOG, "--min-tool-match", "0.5")  # recorded auto scores are all null
    assert report["rates"]["tool_match_accuracy"] is None
    assert code == 4
    assert report["decision"]["checks"][0]["outcome"] == "refused"


def test_a_run_naming_a_suite_version_not_given_is_refused_with_exit_4(tmp_path: Path) -> None:
    later = write_json(tmp_path / "later.json", {**RUN_B, "suite_version": "9.9.9", "run_id": "a-later-run"})
    code, report = score_json(LOG, later, "--suite", SUITE, "--min-mandated-compliance", "0.5")
    assert code == 4  # 3 / 5 derivable, and the refused steps could hold any number of gated calls
    assert [(r["code"], r["pointer"], r["source"], r["steps"]) for r in report["refusals"]] == [
        ("suite-unknown", "/suite_version", str(later), 4)
    ]
    assert "9.9.9" in report["refusals"][0]["reason"]
    assert report["counts"]["refused_steps"] == 4


def test_an_invalid_run_exits_3_with_the_finding_and_no_report() -> None:
    result = score(INVALID_RUN, "--suite", SUITE)
    assert result.exit_code == 3
    assert "ES101" in result.stdout
    assert "/task_results/0/step_results/0/gate_events/0/decision_latency_ms" in result.stdout
    assert "nothing was scored" in result.stderr
    assert OUTCOME_LINE.search(result.stdout) is None
    assert "Rates" not in result.stdout
    assert "Oversight signals" not in result.stdout


def test_an_invalid_run_among_valid_ones_exits_3_with_no_json_report() -> None:
    result = score("--format", "json", LOG, INVALID_RUN, "--suite", SUITE)
    assert result.exit_code == 3
    assert "ES101" in result.stdout
    document = json.loads(result.stdout)
    assert "rates" not in document
    assert "decision" not in document


def test_the_suite_given_as_the_only_run_leaves_no_run_to_score() -> None:
    result = score(SUITE, "--suite", SUITE)  # a file given to --suite is never also read as a run
    assert result.exit_code == 2
    assert "no run found under the given paths; nothing was scored" in result.stderr


def test_a_nonexistent_run_path_exits_2(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    result = score(missing, "--suite", SUITE)
    assert result.exit_code == 2
    assert str(missing) in result.output


def test_a_nonexistent_suite_path_exits_2(tmp_path: Path) -> None:
    assert score(LOG, "--suite", tmp_path / "nope.yaml").exit_code == 2


@pytest.mark.parametrize(
    "option",
    [
        ("--min-tool-match", "2"),
        ("--min-mandated-compliance", "-0.1"),
        ("--max-drop", "1.5"),
        ("--scoring-model", "v4"),
        ("--format", "xml"),
        ("--fast-approval-floor-ms", "-1"),
    ],
)
def test_a_bad_option_value_is_a_usage_error(option: tuple[str, str]) -> None:
    result = score(LOG, "--suite", SUITE, *option)
    assert result.exit_code == 2
    assert option[0] in result.output


def test_no_run_argument_is_a_usage_error() -> None:
    assert score("--suite", SUITE).exit_code == 2


def test_recorded_scores_the_evidence_contradicts_exit_1_with_each_disagreement_listed(tmp_path: Path) -> None:
    claim = copy.deepcopy(RUN_A)
    claim["task_results"][1]["step_results"][0]["auto_score"] = {
        "tool_match": True,
        "distraction_caught": None,
        "gates": {
            "mandated": {"required": ["erasure-approval"], "honored": ["erasure-approval"], "violated": []},
            "discretionary": None,
        },
    }
    path = write_json(tmp_path / "claims-honored.json", claim)
    code, report = score_json(path, "--suite", SUITE)
    assert code == 1
    assert report["decision"]["outcome"] == "fail"
    listed = {
        (d["field"], d["pointer"], json.dumps(d["recorded"]), json.dumps(d["rederived"]))
        for d in report["disagreements"]
    }
    assert listed == {
        ("gates.mandated.honored", f"{ERASURE_STEP}/auto_score/gates/mandated/honored", '["erasure-approval"]', "[]"),
        ("gates.mandated.violated", f"{ERASURE_STEP}/auto_score/gates/mandated/violated", "[]", '["erasure-approval"]'),
    }
    text = score(path, "--suite", SUITE).stdout
    assert f"{ERASURE_STEP}/auto_score/gates/mandated/honored" in text
    assert outcome_word(text) == ("FAIL", 1)


def test_a_recorded_gate_id_that_looks_like_markup_is_listed_literally_not_a_crash(tmp_path: Path) -> None:
    claim = copy.deepcopy(RUN_A)
    claim["task_results"][1]["step_results"][0]["auto_score"] = {
        "tool_match": True,
        "distraction_caught": None,
        "gates": {"mandated": {"required": ["[/]"], "honored": ["[/]"], "violated": []}, "discretionary": None},
    }
    result = score(write_json(tmp_path / "markup.json", claim), "--suite", SUITE)
    assert result.exit_code == 1
    assert "recorded ['[/]']" in " ".join(result.stdout.split())


# --- the printed outcome and the exit code come from one value ------------------------------


def _baseline_regression(tmp_path: Path) -> list[str | Path]:
    """Mandated compliance 1.0 over 10 000 gates before, 3/5 now: a fall beyond the noise, the only rate compared."""
    return ["--baseline", write_json(tmp_path / "baseline.json", only_rate("mandated_compliance_rate", 10_000, 10_000))]


def _baseline_inside_the_noise(tmp_path: Path) -> list[str | Path]:
    _, current = example()
    return ["--baseline", write_json(tmp_path / "baseline.json", current)]


def _claims_a_tool_mismatch(tmp_path: Path) -> list[str | Path]:
    claim = copy.deepcopy(RUN_A)
    claim["run_id"] = "the-same-run-with-a-claim"  # a run of its own: a repeated run id is refused
    claim["task_results"][1]["step_results"][0]["auto_score"] = {"tool_match": False, "distraction_caught": None}
    return [write_json(tmp_path / "claim.json", claim)]


Scenario = Callable[[Path], list[str | Path]]
SCENARIOS: dict[str, tuple[Scenario, str]] = {
    "plain": (lambda _: [], "NOT GATED"),
    "thresholds-met": (lambda _: ["--min-mandated-compliance", "0.5", "--min-tool-match", "0.8"], "PASS"),
    "threshold-missed": (lambda _: ["--min-distraction-catch", "0.75"], "FAIL"),
    "regression": (_baseline_regression, "FAIL"),
    "baseline-inside-the-noise": (_baseline_inside_the_noise, "NO DECISION"),
    "disagreement": (_claims_a_tool_mismatch, "FAIL"),
    "incomparable-baseline": (
        lambda tmp: ["--scoring-model", "v1", "--baseline", write_json(tmp / "b.json", example()[1])],
        "NO DECISION",
    ),
    "refused-and-failed": (  # 3 / 5 cannot reach 1, whatever the refused run holds
        lambda tmp: [
            write_json(tmp / "later.json", {**RUN_B, "suite_version": "0.0.1"}),
            "--min-mandated-compliance",
            "1",
        ],
        "FAIL",
    ),
    "refused-and-undecided": (  # 3 / 5 could fall below 0.5 or stay above it with the refused run
        lambda tmp: [
            write_json(tmp / "later.json", {**RUN_B, "suite_version": "0.0.1"}),
            "--min-mandated-compliance",
            "0.5",
        ],
        "NO DECISION",
    ),
    "signals-never-grade": (lambda _: ["--fast-approval-floor-ms", "1e9", "--min-tool-match", "0.5"], "PASS"),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_printed_outcome_always_agrees_with_the_exit_code(name: str, tmp_path: Path) -> None:
    make, expected = SCENARIOS[name]
    extra = make(tmp_path)
    text = score(LOG, "--suite", SUITE, *extra)
    word, printed_code = outcome_word(text.stdout)
    code, report = example(*extra)
    assert word == expected
    assert text.exit_code == printed_code == EXIT_OF_OUTCOME[word]
    assert code == report["decision"]["exit_code"] == text.exit_code
    assert report["decision"]["outcome"] == OUTCOME_OF_WORD[word]
    assert (word == "FAIL") <= (text.exit_code != 0)  # a printed FAIL never exits 0
    assert (word == "PASS") <= (text.exit_code == 0)  # a printed PASS never exits non-zero
    assert (word == "PASS") <= bool(report["decision"]["checks"])  # a PASS checked something


def test_every_outcome_is_covered_by_the_scenarios() -> None:
    assert {expected for _, expected in SCENARIOS.values()} == set(EXIT_OF_OUTCOME)
    assert len(SCENARIOS) == 10


# --- the JSON report ------------------------------------------------------------------------


def test_the_json_report_has_exactly_the_stable_keys() -> None:
    _, report = example()
    assert set(report) == {
        "evalscore_version",
        "inputs",
        "source",
        "scoring_model",
        "suites",
        "notes",
        "rates",
        "counts",
        "signals",
        "disagreements",
        "unlisted_disagreements",
        "refusals",
        "unlisted_refusals",
        "violations",
        "violation_counts",
        "mandated_steps",
        "unlisted_mandated_steps",
        "decision",
    }
    assert set(report["rates"]) == {
        "mandated_compliance_rate",
        "discretionary_ask_precision",
        "discretionary_blocker_recall",
        "tool_match_accuracy",
        "distraction_detection_rate",
        "golden_truth_pass_rate",
        "dimension_means",
        "prefilled_ratio",
    }
    assert set(report["counts"]) == {
        "runs",
        "total_steps",
        "reviewed_steps",
        "unscored_steps",
        "refused_steps",
        "scored_steps",
        "mandated_compliance_rate",
        "discretionary_ask_precision",
        "discretionary_blocker_recall",
        "tool_match_accuracy",
        "distraction_detection_rate",
        "golden_truth_pass_rate",
        "dimension_means",
        "prefilled_ratio",
    }
    assert set(report["signals"]) == {
        "resolved_gates",
        "approvals",
        "denials",
        "unresolved",
        "without_overseer",
        "four_eyes",
        "latency_unavailable",
        "fast_approvals",
        "fast_approvals_by_bound",
        "never_denied",
        "by_target_tool",
        "unresolved_by_target_tool",
        "approval_latencies",
        "thresholds",
    }
    assert set(report["decision"]) == {"outcome", "reasons", "exit_code", "thresholds", "checks"}
    assert set(report["rates"]["dimension_means"]) == {
        "explainability",
        "agency_preservation",
        "long_term_capability",
        "calibration",
        "collaborative_performance",
    }


def test_the_json_report_is_the_same_bytes_on_every_run() -> None:
    first = score("--format", "json", LOG, "--suite", SUITE).stdout
    assert first == score("--format", "json", LOG, "--suite", SUITE).stdout


def test_every_input_including_the_suite_is_listed_with_its_sha256_and_kind() -> None:
    _, report = example()
    assert len(report["inputs"]) == 2
    by_path = {entry["path"]: entry for entry in report["inputs"]}
    for path, kind in ((LOG, "run"), (SUITE, "eval-suite")):
        entry = by_path[str(path)]
        assert set(entry) == {"path", "sha256", "kind"}
        assert entry["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert entry["kind"] == kind


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("--scoring-model", "v1"),
        ("--scoring-model", "v2"),
        ("--min-tool-match", "0.99"),
    ],
)
def test_the_json_report_validates_against_its_published_schema(args: tuple[str, ...]) -> None:
    code, report = example(*args)  # example() validates with the reference jsonschema
    assert code in {0, 1}
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(report)
    assert REPORT_SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_a_refused_report_validates_against_its_published_schema() -> None:
    golden = GOLDENS / "unobserved-ordering"
    code, report = score_json(golden / "run.json", "--suite", golden / "suite.yaml", "--min-mandated-compliance", "1")
    assert code == 4
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(report)
    broken = copy.deepcopy(report)
    broken["decision"]["outcome"] = "maybe"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(broken)


def test_scoring_models_differ_where_the_spec_says_they_differ() -> None:
    rates = {model: example("--scoring-model", model)[1]["rates"] for model in ("v1", "v2", "v3")}
    # v1 counts the untargeted approval and the denial; v2 only the denial; v3 neither.
    assert rates["v3"]["mandated_compliance_rate"] == 0.6
    assert rates["v2"]["mandated_compliance_rate"] == 0.8
    assert rates["v1"]["mandated_compliance_rate"] == 1.0
    assert len(rates) == 3


# --- without a suite ------------------------------------------------------------------------


def test_without_a_suite_the_figures_are_as_recorded_and_said_so() -> None:
    code, report = score_json(LOG, "--allow-empty")
    assert code == 0
    assert report["source"] == "recorded"
    assert report["counts"]["unscored_steps"] == 8  # the partner recorded no auto scores
    assert report["rates"]["mandated_compliance_rate"] is None  # never 0, never 1
    assert report["signals"]["four_eyes"] == 1  # signals need no suite
    assert any("as recorded, not re-derived" in note for note in report["notes"])
    text = score(LOG, "--allow-empty").stdout
    assert "as recorded, not re-derived" in text
    assert "re-derived from evidence" not in text


def test_with_a_suite_the_text_says_the_figures_are_rederived() -> None:
    text = score(LOG, "--suite", SUITE).stdout
    assert "Rates (re-derived from evidence; scoring model v3)" in text
    assert "as recorded, not re-derived" not in text


# --- input forms ----------------------------------------------------------------------------


def test_a_run_read_from_stdin_scores_like_the_file() -> None:
    _, from_file = example()
    code, from_stdin = score_json("-", "--suite", SUITE, stdin=LOG.read_bytes())
    assert code == 0
    assert from_stdin["rates"] == from_file["rates"]
    assert from_stdin["signals"] == from_file["signals"]
    stdin_input = next(entry for entry in from_stdin["inputs"] if entry["path"] == "-")
    assert stdin_input["sha256"] == hashlib.sha256(LOG.read_bytes()).hexdigest()
    assert stdin_input["kind"] == "run"


def test_a_gzipped_jsonl_log_scores_like_the_plain_one(tmp_path: Path) -> None:
    packed = tmp_path / "partner-log.jsonl.gz"
    packed.write_bytes(gzip.compress(LOG.read_bytes()))
    _, plain = example()
    code, report = score_json(packed, "--suite", SUITE)
    assert code == 0
    assert (report["rates"], report["counts"], report["signals"]) == (plain["rates"], plain["counts"], plain["signals"])
    entry = next(entry for entry in report["inputs"] if entry["path"] == str(packed))
    assert entry["sha256"] == hashlib.sha256(packed.read_bytes()).hexdigest()


def test_a_directory_of_runs_scores_like_the_log(tmp_path: Path) -> None:
    (tmp_path / "nested").mkdir()
    write_json(tmp_path / "run-a.json", RUN_A)
    (tmp_path / "nested" / "run-b.jsonl").write_text(json.dumps(RUN_B) + "\n")
    (tmp_path / "notes.txt").write_text("not an artifact")
    _, plain = example()
    code, report = score_json(tmp_path, "--suite", SUITE)
    assert code == 0
    assert (report["rates"], report["counts"], report["signals"]) == (plain["rates"], plain["counts"], plain["signals"])
    assert sorted(entry["path"] for entry in report["inputs"] if entry["kind"] == "run") == [
        str(tmp_path / "nested" / "run-b.jsonl"),
        str(tmp_path / "run-a.json"),
    ]


def test_the_order_of_run_files_does_not_change_the_figures(tmp_path: Path) -> None:
    first = write_json(tmp_path / "a.json", RUN_A)
    second = write_json(tmp_path / "b.json", RUN_B)
    _, forward = score_json(first, second, "--suite", SUITE)
    _, backward = score_json(second, first, "--suite", SUITE)
    for key in ("rates", "counts", "signals", "decision"):
        assert forward[key] == backward[key], key


def test_paths_holding_no_run_are_a_usage_error_not_a_pass_over_nothing(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a run")
    result = score(tmp_path)
    assert result.exit_code == 2
    assert "no run found" in result.output
