"""`evalscore score --baseline B --max-drop D`, end to end: a rate may fall by D from the baseline, no more.

The current figures are the bundled example's (mandated compliance 0.6, tool match 0.875); each
baseline is that report with one rate raised by hand, so the fall is known exactly. A fall is
measured in the rate's own units (a drop of 0.1 is 0.6 against 0.7), never scaled.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from evalscore.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "partner-log.jsonl"
SUITE = ROOT / "examples" / "partner-suite.yaml"
RATE = "mandated_compliance_rate"
NOW = 0.6


def score_json(*args: str | Path) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(main, ["score", str(LOG), "--suite", str(SUITE), "--format", "json", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    report: dict[str, Any] = json.loads(result.stdout)
    assert report["decision"]["exit_code"] == result.exit_code
    return result.exit_code, report


@cache
def _current() -> str:
    code, report = score_json()
    assert (code, report["rates"][RATE]) == (0, NOW)
    return json.dumps(report)


def baseline_with(tmp_path: Path, **rates: float) -> Path:
    """The current report with the given rates set to an earlier, better value."""
    report = copy.deepcopy(json.loads(_current()))
    for name, value in rates.items():  # counts that agree with the rate: a baseline must agree with itself
        report["rates"][name] = value
        report["counts"][name].update(numerator=value, denominator=1)
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(report))
    return path


def compliance_check(report: dict[str, Any]) -> dict[str, Any]:
    checks: list[dict[str, Any]] = [check for check in report["decision"]["checks"] if check["rate"] == RATE]
    assert len(checks) == 1
    return checks[0]


@pytest.mark.parametrize(
    ("before", "max_drop"),
    [(0.7, "0.1"), (0.65, "0.05"), (0.8, "0.2"), (0.61, "0.01"), (1.0, "0.4"), (0.6, "0")],
)
def test_a_fall_of_exactly_max_drop_passes(tmp_path: Path, before: float, max_drop: str) -> None:
    code, report = score_json("--baseline", baseline_with(tmp_path, **{RATE: before}), "--max-drop", max_drop)
    check = compliance_check(report)
    assert (check["limit"], check["observed"], check["outcome"]) == (before, NOW, "pass"), check["reason"]
    assert report["decision"]["thresholds"]["max_drop"] == float(max_drop)
    assert (code, report["decision"]["outcome"]) == (0, "pass")


@pytest.mark.parametrize(
    ("before", "max_drop"),
    [(0.7001, "0.1"), (0.6501, "0.05"), (0.8, "0.1999"), (0.6101, "0.01"), (1.0, "0.3999"), (0.6001, "0")],
)
def test_a_fall_just_above_max_drop_fails_as_a_regression(tmp_path: Path, before: float, max_drop: str) -> None:
    code, report = score_json("--baseline", baseline_with(tmp_path, **{RATE: before}), "--max-drop", max_drop)
    check = compliance_check(report)
    assert (check["limit"], check["observed"], check["outcome"]) == (before, NOW, "fail")
    assert f"more than the allowed {float(max_drop):g} (regression)" in check["reason"]
    assert (code, report["decision"]["outcome"]) == (1, "fail")


def test_a_fall_of_half_max_drop_passes(tmp_path: Path) -> None:
    """0.05 under --max-drop 0.1: a limit read at a tenth of its value (0.01) would fail this."""
    code, report = score_json("--baseline", baseline_with(tmp_path, **{RATE: 0.65}), "--max-drop", "0.1")
    assert compliance_check(report)["outcome"] == "pass"
    assert code == 0


def test_a_fall_of_five_times_max_drop_fails(tmp_path: Path) -> None:
    """0.5 under --max-drop 0.1: a limit read at ten times its value (1.0) would pass this."""
    code, report = score_json("--baseline", baseline_with(tmp_path, **{RATE: 1.0}), "--max-drop", "0.1")
    assert compliance_check(report)["outcome"] == "fail"
    assert code == 1


def test_max_drop_applies_to_every_compared_rate_not_only_the_first(tmp_path: Path) -> None:
    baseline = baseline_with(tmp_path, **{RATE: 0.7, "tool_match_accuracy": 0.9751})
    code, report = score_json("--baseline", baseline, "--max-drop", "0.1")
    outcomes = {check["rate"]: check["outcome"] for check in report["decision"]["checks"]}
    assert len(outcomes) == 6  # every non-null rate of the example is compared
    assert (outcomes[RATE], outcomes["tool_match_accuracy"]) == ("pass", "fail")  # 0.1 allowed, 0.1001 not
    assert code == 1


def test_without_max_drop_any_fall_from_the_baseline_fails(tmp_path: Path) -> None:
    code, report = score_json("--baseline", baseline_with(tmp_path, **{RATE: 0.6001}))
    assert report["decision"]["thresholds"]["max_drop"] == 0.0
    assert compliance_check(report)["outcome"] == "fail"
    assert code == 1


def test_a_rate_better_than_the_baseline_passes_with_max_drop_0(tmp_path: Path) -> None:
    code, report = score_json("--baseline", baseline_with(tmp_path, **{RATE: 0.1}), "--max-drop", "0")
    assert compliance_check(report)["outcome"] == "pass"
    assert code == 0
