"""`evalscore score --baseline B --max-drop D`, end to end: the three-way rule on the interval of the change.

The current figures are the bundled example's (mandated compliance 3/5 = 0.6, its Wilson interval
0.231-0.882); each baseline is that report with one rate's counts set by hand, so what the interval
of the change can decide is known. *worse* is the change in the bad direction (a fall of a floor
rate, a rise of a ceiling rate): all of its interval above D fails, all of it at or below D passes,
an interval across D is refused (NO DECISION, exit 4).
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from _baselines import earlier_report
from click.testing import CliRunner
from statsmodels.stats.proportion import confint_proportions_2indep

from evalscore.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "partner-log.jsonl"
SUITE = ROOT / "examples" / "partner-suite.yaml"
RATE = "mandated_compliance_rate"
NOW = (3, 5)


def score_json(*args: str | Path) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(main, ["score", str(LOG), "--suite", str(SUITE), "--format", "json", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    report: dict[str, Any] = json.loads(result.stdout)
    assert report["decision"]["exit_code"] == result.exit_code
    return result.exit_code, report


@cache
def _current() -> str:
    code, report = score_json()
    counts = report["counts"][RATE]
    assert (code, counts["numerator"], counts["denominator"]) == (0, *NOW)
    return json.dumps(report)


def baseline_with(tmp_path: Path, *, only: bool = False, **counts: tuple[float, float]) -> Path:
    """The current report with the given rates' counts (numerator, denominator) set to earlier ones;
    ``only``: every other rate made null (0/0), so that it is not compared."""
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(earlier_report(json.loads(_current()), only=only, **counts)))
    return path


def compliance_check(report: dict[str, Any]) -> dict[str, Any]:
    checks: list[dict[str, Any]] = [check for check in report["decision"]["checks"] if check["rate"] == RATE]
    assert len(checks) == 1
    return checks[0]


def newcombe_by_statsmodels(worse: tuple[float, float], better: tuple[float, float]) -> tuple[float, float]:
    low, high = confint_proportions_2indep(*worse, *better, compare="diff", method="newcomb", alpha=0.05)
    return float(low), float(high)


@pytest.mark.parametrize("max_drop", ["0", "0.1"])
def test_a_fall_beyond_the_noise_is_an_established_regression(tmp_path: Path, max_drop: str) -> None:
    """1.0 over 10 000 gates, now 3/5: the whole interval of the fall (0.118 to 0.769) is above D."""
    code, report = score_json(
        "--baseline", baseline_with(tmp_path, only=True, **{RATE: (10_000, 10_000)}), "--max-drop", max_drop
    )
    check = compliance_check(report)
    assert (check["limit"], check["observed"], check["outcome"]) == (1.0, 0.6, "fail"), check["reason"]
    assert check["interval"]["low"] > float(max_drop)
    assert check["reason"].endswith(f"a regression beyond the allowed {float(max_drop):g} is established")
    assert (code, report["decision"]["outcome"]) == (1, "fail")


def test_the_interval_of_the_change_is_newcombes_as_statsmodels_computes_it(tmp_path: Path) -> None:
    code, report = score_json("--baseline", baseline_with(tmp_path, **{RATE: (19, 20)}), "--max-drop", "0.05")
    interval = compliance_check(report)["interval"]
    low, high = newcombe_by_statsmodels((19, 20), NOW)  # a floor rate: worse is before - now
    assert (interval["low"], interval["high"]) == (pytest.approx(low, abs=1e-12), pytest.approx(high, abs=1e-12))
    assert (interval["confidence"], interval["method"]) == (0.95, "newcombe")
    assert code == 4


def test_a_fall_inside_the_noise_is_no_decision_naming_the_tolerance_and_the_trials_that_would_decide(
    tmp_path: Path,
) -> None:
    """6/6 before, 3/5 now: a fall of 0.4 that these sample sizes cannot tell from noise at D = 0.5."""
    code, report = score_json("--baseline", baseline_with(tmp_path, **{RATE: (6, 6)}), "--max-drop", "0.5")
    check = compliance_check(report)
    low, high = newcombe_by_statsmodels((6, 6), NOW)
    assert low <= 0.5 < high
    assert check["outcome"] == "refused"
    assert "too few trials to decide the allowed 0.5; " in check["reason"]
    assert f"(they support --max-drop {math.ceil(high * 1000) / 1000:.3f})" in check["reason"]
    # 39 runs per side of this log's 2.5 gated calls each: the about 97 trials per side that would decide it
    assert check["runs_needed"] == 39
    assert "about 39 runs per side would decide it" in check["reason"]
    assert (code, report["decision"]["outcome"]) == (4, "refused")
    noisy = [reason for reason in report["decision"]["reasons"] if reason.startswith("baseline: too few runs")]
    assert len(noisy) == 1  # every noisy check in one short line
    assert noisy[0].endswith("; about 39 runs per side would decide them")
    assert len(noisy[0]) < 250


def test_the_smallest_tolerance_a_refusal_names_is_one_that_passes(tmp_path: Path) -> None:
    baseline = baseline_with(tmp_path, **{RATE: (6, 6)})
    _, refused = score_json("--baseline", baseline, "--max-drop", "0.5")
    supported = math.ceil(compliance_check(refused)["interval"]["high"] * 1000) / 1000
    assert f"(they support --max-drop {supported:.3f})" in compliance_check(refused)["reason"]
    _, decided = score_json("--baseline", baseline, "--max-drop", str(supported))
    assert compliance_check(decided)["outcome"] == "pass"
    _, still_refused = score_json("--baseline", baseline, "--max-drop", str(supported - 0.001))
    assert compliance_check(still_refused)["outcome"] == "refused"


def test_a_fall_whose_whole_interval_is_within_the_tolerance_passes(tmp_path: Path) -> None:
    """0.6 over 10 000 before and now: the change's interval reaches 0.37, inside D = 0.4."""
    code, report = score_json(
        "--baseline", baseline_with(tmp_path, only=True, **{RATE: (6000, 10_000)}), "--max-drop", "0.4"
    )
    check = compliance_check(report)
    assert (code, check["outcome"]) == (0, "pass")
    assert check["interval"]["high"] <= 0.4
    assert check["reason"].endswith("within the allowed 0.4 even at the interval's end")


def test_an_unchanged_rate_with_max_drop_0_is_no_decision_not_a_silent_pass(tmp_path: Path) -> None:
    """With no tolerance, only an improvement beyond the noise can be shown not to be a regression."""
    code, report = score_json("--baseline", baseline_with(tmp_path, **{RATE: NOW}), "--max-drop", "0")
    assert report["decision"]["thresholds"]["max_drop"] == 0.0
    check = compliance_check(report)
    assert check["outcome"] == "refused"
    assert check["reason"].startswith(f"{RATE} stayed at 0.6 (worsening +0.000")
    assert code == 4


def test_a_rate_better_than_the_baseline_beyond_the_noise_passes_with_max_drop_0(tmp_path: Path) -> None:
    code, report = score_json(
        "--baseline", baseline_with(tmp_path, only=True, **{RATE: (10, 10_000)}), "--max-drop", "0"
    )
    check = compliance_check(report)
    assert check["outcome"] == "pass"
    assert check["interval"]["high"] <= 0
    assert code == 0


def test_a_ceiling_rate_is_worse_when_it_rises(tmp_path: Path) -> None:
    """Pre-filled reviews 0/8 now against 8 000/8 000 before: a fall of a ceiling rate, an improvement."""
    code, report = score_json(
        "--baseline", baseline_with(tmp_path, prefilled_ratio=(8000, 8000)), "--max-drop", "0", "--format", "json"
    )
    (check,) = [check for check in report["decision"]["checks"] if check["rate"] == "prefilled_ratio"]
    low, high = newcombe_by_statsmodels((0, 8), (8000, 8000))  # a ceiling rate: worse is now - before
    assert (check["interval"]["low"], check["interval"]["high"]) == (
        pytest.approx(low, abs=1e-12),
        pytest.approx(high, abs=1e-12),
    )
    assert check["outcome"] == "pass"
    assert check["reason"].startswith("prefilled_ratio fell from 1 to 0")
    assert code == 4  # the other rates, unchanged, cannot be shown within a tolerance of 0


def test_every_compared_rate_is_decided_and_one_undecided_rate_makes_no_decision(tmp_path: Path) -> None:
    """Against itself with D = 0.5: compliance's change reaches 0.46 (pass); ask precision, 1/1 on both
    sides, reaches 0.79 (refused)."""
    code, report = score_json("--baseline", baseline_with(tmp_path), "--max-drop", "0.5")
    outcomes = {check["rate"]: check["outcome"] for check in report["decision"]["checks"]}
    assert len(outcomes) == 6  # every non-null rate of the example is compared
    assert (outcomes[RATE], outcomes["discretionary_ask_precision"]) == ("pass", "refused")
    assert (code, report["decision"]["outcome"]) == (4, "refused")


def test_a_baseline_without_intervals_has_them_recomputed_from_its_counts(tmp_path: Path) -> None:
    """A report written before intervals existed is still a baseline: its counts are what is compared."""
    path = baseline_with(tmp_path, **{RATE: (19, 20)})
    _, with_intervals = score_json("--baseline", path, "--max-drop", "0.05")
    report = json.loads(path.read_text())
    for count in [*report["counts"].values(), *report["counts"]["dimension_means"].values()]:
        if isinstance(count, dict):
            count.pop("interval", None)
    path.write_text(json.dumps(report))
    assert '"interval"' not in path.read_text()
    _, without = score_json("--baseline", path, "--max-drop", "0.05")
    assert without["decision"]["checks"] == with_intervals["decision"]["checks"]


@pytest.mark.parametrize("missing", ["counts", f"counts/{RATE}", f"counts/{RATE}/denominator"])
def test_a_baseline_lacking_the_counts_is_refused_as_incomparable_never_compared_on_points(
    tmp_path: Path, missing: str
) -> None:
    path = baseline_with(tmp_path)
    report = json.loads(path.read_text())
    *parents, last = missing.split("/")
    holder = report
    for key in parents:
        holder = holder[key]
    del holder[last]
    path.write_text(json.dumps(report))
    code, result = score_json("--baseline", path, "--max-drop", "1")
    assert (code, result["decision"]["outcome"]) == (4, "refused")
    assert result["decision"]["checks"] == []
    (reason,) = result["decision"]["reasons"]
    assert reason.startswith("baseline refused:")


def test_the_text_report_says_no_decision_for_a_refused_comparison(tmp_path: Path) -> None:
    baseline = baseline_with(tmp_path, **{RATE: (6, 6)})
    result = CliRunner().invoke(
        main, ["score", str(LOG), "--suite", str(SUITE), "--baseline", str(baseline), "--max-drop", "0.5"]
    )
    assert result.exit_code == 4
    assert "NO DECISION (refused, exit 4)" in result.stdout
    assert "too few trials to decide the allowed 0.5" in result.stdout
