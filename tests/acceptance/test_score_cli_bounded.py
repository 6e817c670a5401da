"""`evalscore score` on a JSONL with more findings than it lists, end to end: the JSON report and
the text list the first ones and count the rest, and the decision counts every one. The bound is
lowered (it is 10,000) so that a short log exceeds it. Baselines with or without the counts read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner, Result

from evalscore.cli.main import main
from evalscore.scoring import partials

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "partner-log.jsonl"
SUITE = ROOT / "examples" / "partner-suite.yaml"
REPORT_SCHEMA = json.loads((ROOT / "schemas" / "v1" / "score-report.schema.json").read_text())
RUN_A = json.loads(LOG.read_text().splitlines()[0])
RUNS = 30
LISTED = 5


def recorded_v3_log(tmp_path: Path) -> Path:
    """30 runs recorded under v3; scored as v2 without a suite, each is refused (its steps with it)."""
    lines = [json.dumps({**RUN_A, "run_id": f"run-{index}"}) for index in range(RUNS)]
    path = tmp_path / "runs.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def score(*args: str | Path) -> Result:
    result = CliRunner().invoke(main, ["score", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def score_json(*args: str | Path) -> tuple[int, dict[str, Any]]:
    result = score("--format", "json", *args)
    report: dict[str, Any] = json.loads(result.stdout)
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(report)
    assert report["decision"]["exit_code"] == result.exit_code
    return result.exit_code, report


def test_a_jsonl_with_more_refusals_than_listed_counts_the_rest_in_json_and_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(partials, "LISTED_PER_KIND", LISTED)
    log = recorded_v3_log(tmp_path)
    code, report = score_json(log, "--scoring-model", "v2")
    assert code == 4
    assert [refusal["source"] for refusal in report["refusals"]] == [f"{log}:{n}" for n in range(1, LISTED + 1)]
    assert report["unlisted_refusals"] == RUNS - LISTED
    assert report["unlisted_disagreements"] == 0
    steps = report["counts"]["refused_steps"]
    assert report["decision"]["reasons"][-1].startswith(
        f"{RUNS} refusal(s) (scoring-model-unavailable: {RUNS}) covering {steps} step(s)"
    )
    text = score(log, "--scoring-model", "v2").output
    assert f"Refused: not derivable honestly ({RUNS}):" in text
    assert f"... and {RUNS - LISTED} more refusal(s) (-v and --format json list more); the decision counts them" in text


def test_a_baseline_written_before_the_unlisted_counts_is_still_read(tmp_path: Path) -> None:
    _, current = score_json(LOG, "--suite", SUITE)
    assert (current["unlisted_refusals"], current["unlisted_disagreements"]) == (0, 0)
    earlier = {key: value for key, value in current.items() if not key.startswith("unlisted_")}
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps(earlier))
    # A tolerance of 1 is wider than any interval of a change: every compared rate passes.
    code, report = score_json(LOG, "--suite", SUITE, "--baseline", baseline, "--max-drop", "1")
    assert code == 0
    assert len(report["decision"]["checks"]) == 6
    assert {check["outcome"] for check in report["decision"]["checks"]} == {"pass"}


def test_a_baseline_with_findings_not_listed_is_read_like_any_other(tmp_path: Path) -> None:
    _, current = score_json(LOG, "--suite", SUITE)
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps({**current, "unlisted_disagreements": 12, "unlisted_refusals": 3}))
    code, report = score_json(LOG, "--suite", SUITE, "--baseline", baseline, "--max-drop", "1")
    assert code == 0
    assert len(report["decision"]["checks"]) == 6
    assert {check["outcome"] for check in report["decision"]["checks"]} == {"pass"}
