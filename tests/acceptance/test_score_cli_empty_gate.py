"""`evalscore score` never passes a gate that measured nothing (issue 11): exit 4 unless --allow-empty."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner, Result

from evalscore.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "partner-log.jsonl"
SUITE = ROOT / "examples" / "partner-suite.yaml"
NOTHING_SCORED = "nothing was scored: none of the 8 step(s) read has an auto score"


def score(*args: str | Path) -> Result:
    result = CliRunner().invoke(main, ["score", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def report(*args: str | Path) -> tuple[int, dict[str, Any]]:
    result = score("--format", "json", *args)
    document: dict[str, Any] = json.loads(result.stdout)
    assert document["decision"]["exit_code"] == result.exit_code
    return result.exit_code, document


def test_runs_without_a_scored_step_are_refused_not_passed() -> None:
    code, document = report(LOG)
    assert code == 4
    assert document["counts"]["unscored_steps"] == document["counts"]["total_steps"] == 8
    assert document["decision"]["outcome"] == "refused"
    assert document["decision"]["reasons"][0].startswith(NOTHING_SCORED)
    assert document["decision"]["thresholds"]["allow_empty"] is False


def test_the_text_report_says_refused_and_why() -> None:
    result = score(LOG)
    assert result.exit_code == 4
    assert "NO DECISION (refused, exit 4)" in result.stdout
    assert "nothing was scored" in result.stdout
    assert "--allow-empty" in result.stdout


def test_allow_empty_lets_it_through_ungated_and_the_report_says_it_was_asked_for() -> None:
    code, document = report(LOG, "--allow-empty")
    assert code == 0
    assert document["decision"]["outcome"] == "not-gated"  # accepted, never a PASS over nothing
    assert document["decision"]["thresholds"]["allow_empty"] is True


def test_with_the_suite_every_step_is_scored_and_emptiness_is_not_a_reason() -> None:
    code, document = report(LOG, "--suite", SUITE)
    assert document["counts"]["scored_steps"] == 8
    assert not any("nothing was scored" in reason for reason in document["decision"]["reasons"])
    assert code in (0, 1)


def test_a_run_with_no_step_at_all_is_nothing_scored(tmp_path: Path) -> None:
    run = json.loads(LOG.read_text().splitlines()[0])
    run["task_results"] = []
    path = tmp_path / "empty.json"
    path.write_text(json.dumps(run))
    code, document = report(path)
    assert code == 4
    assert document["decision"]["reasons"] == [
        "nothing was scored: none of the 0 step(s) read has an auto score (re-derived or recorded) or a human "
        "review, so no rate was measured; a gate that measured nothing does not pass (--allow-empty accepts it)"
    ]


def test_the_three_new_thresholds_reach_the_decision() -> None:
    code, document = report(
        LOG, "--suite", SUITE, "--min-ask-precision", "1", "--min-blocker-recall", "0", "--min-golden-truth-pass", "0"
    )
    checks = {check["name"]: check for check in document["decision"]["checks"]}
    assert set(checks) == {"min_ask_precision", "min_blocker_recall", "min_golden_truth_pass"}
    assert checks["min_golden_truth_pass"]["outcome"] == "refused"  # no step of the log was reviewed
    assert checks["min_ask_precision"]["rate"] == "discretionary_ask_precision"
    assert document["decision"]["thresholds"]["min_blocker_recall"] == 0.0
    assert code == 4
