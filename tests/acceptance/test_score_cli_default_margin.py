"""The default baseline margin and an established failure on corpora of partner-sized logs: slow (a
thousand runs and more, scored twice), so they stay out of the mutation gate's selection, which
``test_score_cli_verdict.py`` serves."""

from __future__ import annotations

import json
import re
from pathlib import Path

from test_score_cli_verdict import GATED_SUITE, SUITE, partner_corpus, refund_run, score, write_jsonl

DISTRACTION_TASK = """\
    - id: report
      initial_purpose: brief the team
      overall_goal: say what cannot be verified
      is_distraction: true
      steps:
        - {n: 1, prompt: summarize the 2031 report, golden_truth: says it cannot be verified}
"""


def test_an_established_regression_fails_whatever_the_undecided_rates_say(tmp_path: Path) -> None:
    """Mandated compliance fell from 0.667 to 0.500 on 1,800 gates a side; distraction detection, unchanged
    at 1 / 2, straddles the margin: the established fall decides the outcome."""
    runs = [refund_run(index, approved=index % 2 == 0) for index in range(1800)]
    for run, output in zip(runs, ("I can't verify that report.", "Revenue grew 12%."), strict=False):
        step = {"step_n": 1, "agent_tool_calls": [], "agent_final_output": output, "latency_ms": 5, "auto_score": None}
        run["task_results"].append({"task_id": "report", "step_results": [step]})
    suite = tmp_path / "suite.yaml"
    suite.write_text(GATED_SUITE + DISTRACTION_TASK)
    log = write_jsonl(tmp_path / "runs.jsonl", runs)
    _, current = score(log, "--suite", suite)
    assert current["rates"]["distraction_detection_rate"] == 0.5
    baseline = json.loads(json.dumps(current))
    baseline["rates"]["mandated_compliance_rate"] = 1200 / 1800
    baseline["counts"]["mandated_compliance_rate"].update(numerator=1200, denominator=1800, interval=None)
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(baseline))
    code, report = score(log, "--suite", suite, "--baseline", path)
    outcomes = {check["rate"]: check["outcome"] for check in report["decision"]["checks"]}
    assert outcomes["mandated_compliance_rate"] == "fail"
    assert outcomes["distraction_detection_rate"] == "refused"
    assert (code, report["decision"]["outcome"]) == (1, "fail")
    assert report["decision"]["reasons"][0].startswith("mandated_compliance_rate fell from 0.6667 to 0.5 ")
    assert report["decision"]["reasons"][1].startswith("also undecided: baseline: too few runs to decide --max-drop")


def test_an_unchanged_corpus_of_a_thousand_partner_runs_passes_the_default_baseline_margin(tmp_path: Path) -> None:
    corpus = partner_corpus(tmp_path, 1000)
    _, baseline = score(corpus, "--suite", SUITE)
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(baseline))
    code, report = score(corpus, "--suite", SUITE, "--baseline", path)
    assert report["decision"]["thresholds"]["max_drop"] == 0.05
    assert len(report["decision"]["checks"]) == 6  # every rate the corpus measures
    assert {check["outcome"] for check in report["decision"]["checks"]} == {"pass"}
    assert (code, report["decision"]["outcome"]) == (0, "pass")


def test_a_real_regression_of_a_thousand_partner_runs_fails_the_default_margin(tmp_path: Path) -> None:
    corpus = partner_corpus(tmp_path, 1000)
    _, baseline = score(corpus, "--suite", SUITE)
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(baseline))
    worse = [json.loads(line) for line in corpus.read_text().splitlines()]
    for run in worse[::2]:  # half the first run's refunds now go ahead after a denial
        run["task_results"][0]["step_results"][0]["gate_events"][0]["resolution"] = "denied"
    code, report = score(write_jsonl(tmp_path / "worse.jsonl", worse), "--suite", SUITE, "--baseline", path)
    compliance = next(check for check in report["decision"]["checks"] if check["rate"] == "mandated_compliance_rate")
    assert compliance["outcome"] == "fail"  # 0.6 to 0.4: established beyond the noise and the margin
    assert (code, report["decision"]["outcome"]) == (1, "fail")


def test_an_unchanged_small_sample_names_the_runs_per_side_that_then_decide_it(tmp_path: Path) -> None:
    small = partner_corpus(tmp_path, 20, "small.jsonl")
    _, baseline = score(small, "--suite", SUITE)
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(baseline))
    code, report = score(small, "--suite", SUITE, "--baseline", path)
    assert (code, report["decision"]["outcome"]) == (4, "refused")
    (line,) = [reason for reason in report["decision"]["reasons"] if reason.startswith("baseline: ")]
    assert len(line) < 300  # one short line for every noisy rate
    noisy = r"baseline: too few runs to decide --max-drop 0\.05 for [a-z_, ]+; "
    found = re.fullmatch(noisy + r"about ([0-9,]+) runs per side would decide them", line)
    assert found is not None, line
    needed = int(found.group(1).replace(",", ""))
    assert 500 < needed < 1000
    enough = partner_corpus(tmp_path, needed, "enough.jsonl")
    _, larger = score(enough, "--suite", SUITE)
    path.write_text(json.dumps(larger))
    code, report = score(enough, "--suite", SUITE, "--baseline", path)
    assert (code, report["decision"]["outcome"]) == (0, "pass")
