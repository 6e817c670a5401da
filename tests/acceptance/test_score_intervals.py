"""Every rate's interval in the score report, its confidence, and thresholds decided on the interval (issue 14).

The bundled example's mandated compliance is 3/5; statsmodels, an implementation independent of
evalscore's, gives the Wilson interval every figure here is checked against.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import pytest
from click.testing import CliRunner, Result
from statsmodels.stats.proportion import proportion_confint

from evalscore.cli.main import main

ROOT: Final = Path(__file__).resolve().parents[2]
LOG: Final = ROOT / "examples" / "partner-log.jsonl"
SUITE: Final = ROOT / "examples" / "partner-suite.yaml"
WILSON_RATES: Final = (
    "mandated_compliance_rate",
    "discretionary_ask_precision",
    "discretionary_blocker_recall",
    "distraction_detection_rate",
    "prefilled_ratio",
)
"""The example's proportions with a denominator (golden truth has none; tool match is a mean)."""


def invoke(*args: str) -> Result:
    result = CliRunner().invoke(main, ["score", str(LOG), "--suite", str(SUITE), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def report_of(*args: str) -> tuple[int, dict[str, Any]]:
    result = invoke("--format", "json", *args)
    report: dict[str, Any] = json.loads(result.stdout)
    return result.exit_code, report


def wilson(count: dict[str, Any], confidence: float) -> tuple[float, float]:
    low, high = proportion_confint(count["numerator"], count["denominator"], alpha=1 - confidence, method="wilson")
    return float(low), float(high)


@pytest.mark.parametrize("confidence", ["0.8", "0.95", "0.99"])
def test_each_proportion_has_the_wilson_interval_at_the_confidence_asked(confidence: str) -> None:
    _, report = report_of("--confidence", confidence)
    checked = 0
    for rate in WILSON_RATES:
        count = report["counts"][rate]
        interval = count["interval"]
        low, high = wilson(count, float(confidence))
        assert (interval["low"], interval["high"]) == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))
        assert (interval["confidence"], interval["method"]) == (float(confidence), "wilson")
        checked += 1
    assert checked == 5
    assert report["decision"]["thresholds"]["confidence"] == float(confidence)


def test_tool_match_a_mean_of_per_step_points_has_the_bounded_mean_interval() -> None:
    _, report = report_of()
    count = report["counts"]["tool_match_accuracy"]
    assert (count["numerator"], count["denominator"]) == (7, 8)  # 6 matches and 2 halves over 8 steps
    low, high = wilson(count, 0.95)
    interval = count["interval"]
    assert interval["method"] == "wilson-bounded-mean"
    assert (interval["low"], interval["high"]) == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))


def test_a_rate_with_no_denominator_has_a_null_interval() -> None:
    _, report = report_of()
    assert report["counts"]["golden_truth_pass_rate"] == {
        "numerator": 0,
        "denominator": 0,
        "interval": None,
        "refused_at_most": 0,
    }
    means = report["counts"]["dimension_means"]
    assert len(means) == 5
    assert all(count["interval"] is None for count in means.values())


def test_a_higher_confidence_gives_a_wider_interval() -> None:
    _, narrow = report_of("--confidence", "0.8")
    _, wide = report_of("--confidence", "0.99")
    low = narrow["counts"]["mandated_compliance_rate"]["interval"]
    high = wide["counts"]["mandated_compliance_rate"]["interval"]
    assert high["low"] < low["low"] < low["high"] < high["high"]


@pytest.mark.parametrize(
    "confidence", ["0", "1", "1.5", "-0.1", "nan", "inf", "ninety", "0.9999999", "0.9999999999999999"]
)
def test_a_confidence_outside_0_to_1_is_a_usage_error(confidence: str) -> None:
    result = invoke("--confidence", confidence)
    assert result.exit_code == 2
    assert "--confidence" in result.stderr


def test_a_confidence_of_six_nines_is_the_highest_and_is_shown_as_such() -> None:
    result = invoke("--confidence", "0.999999")
    assert result.exit_code == 0, result.output
    assert "99.9999% interval" in result.stdout


def test_the_text_report_shows_each_rate_with_its_counts_and_interval() -> None:
    result = invoke("--color", "never")
    rows = [line for line in result.stdout.splitlines() if "mandated gate compliance" in line]
    assert len(rows) == 1
    cells = [cell.strip() for cell in rows[0].strip("│ ").split("│")]
    assert cells == ["mandated gate compliance", "0.600", "3 / 5", "0.231\N{EN DASH}0.882"]
    assert "95% interval" in result.stdout


# --- --threshold-basis interval: the whole interval decides -----------------------------------


@pytest.mark.parametrize(
    ("floor", "outcome", "code"),
    [
        ("0.2", "pass", 0),
        ("0.2307", "pass", 0),
        ("0.2308", "refused", 4),
        ("0.5", "refused", 4),
        ("0.8823", "refused", 4),
        ("0.8824", "fail", 1),
    ],
)
def test_a_floor_on_the_interval_passes_when_all_of_it_clears_fails_when_none_does_refuses_between(
    floor: str, outcome: str, code: int
) -> None:
    """Mandated compliance 3/5, interval 0.230724-0.882379: a floor at or under its low end passes, one
    above its high end fails, one in between is refused."""
    exit_code, report = report_of("--min-mandated-compliance", floor, "--threshold-basis", "interval")
    (check,) = report["decision"]["checks"]
    assert (check["outcome"], exit_code, report["decision"]["outcome"]) == (outcome, code, outcome)
    assert check["interval"]["low"] == pytest.approx(0.2307, abs=1e-4)
    assert report["decision"]["thresholds"]["threshold_basis"] == "interval"


def test_a_straddled_threshold_says_the_figures_cannot_tell_on_which_side_the_rate_is() -> None:
    _, report = report_of("--min-mandated-compliance", "0.5", "--threshold-basis", "interval")
    (check,) = report["decision"]["checks"]
    assert check["reason"] == (
        "mandated_compliance_rate is 0.6 (95% 0.231-0.882) straddles 0.5 (min_mandated_compliance): "
        "these figures cannot tell on which side of it the rate is"
    )


@pytest.mark.parametrize(("ceiling", "outcome"), [("0.33", "pass"), ("0.3", "refused")])
def test_a_ceiling_on_the_interval_passes_only_when_its_top_is_under_it(ceiling: str, outcome: str) -> None:
    """Pre-filled reviews 0/8, interval 0-0.324."""
    _, report = report_of("--max-prefilled-ratio", ceiling, "--threshold-basis", "interval")
    (check,) = report["decision"]["checks"]
    assert check["outcome"] == outcome


def test_on_the_point_the_same_floor_passes_and_the_check_carries_no_interval() -> None:
    code, report = report_of("--min-mandated-compliance", "0.5")
    (check,) = report["decision"]["checks"]
    assert (code, check["outcome"], check["interval"]) == (0, "pass", None)
    assert report["decision"]["thresholds"]["threshold_basis"] == "point"


def test_a_threshold_on_a_rate_with_no_interval_is_refused_on_either_basis() -> None:
    for basis in ("point", "interval"):
        code, report = report_of("--min-golden-truth-pass", "0.5", "--threshold-basis", basis)
        (check,) = report["decision"]["checks"]
        assert (code, check["outcome"]) == (4, "refused")
