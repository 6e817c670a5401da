"""The decision: thresholds, baseline regressions, disagreements and refusals -> one outcome and exit code.

Exit codes: 0 pass, 1 fail, 4 refused; refusal wins over fail. A threshold
on a rate that is null (its denominator is 0) cannot be checked: it never
passes silently, it is refused with the reason. Oversight signals take no
part in the decision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from evalscore.scoring.intervals import (
    Interval,
    Proportion,
    change_verdict,
    newcombe,
    rate_proportion,
    trials_needed,
)
from evalscore.scoring.report import (
    Check,
    Counts,
    Decision,
    ExitCode,
    Outcome,
    RateCount,
    RateInterval,
    Rates,
    ScoreReport,
    SuiteRef,
)
from evalscore.scoring.thresholds import Thresholds

EXIT_PASS: Final = 0
EXIT_FAIL: Final = 1
EXIT_REFUSED: Final = 4

Direction = Literal["min", "max"]

THRESHOLD_RATES: Final[tuple[tuple[str, str, Direction], ...]] = (
    ("min_mandated_compliance", "mandated_compliance_rate", "min"),
    ("min_ask_precision", "discretionary_ask_precision", "min"),
    ("min_blocker_recall", "discretionary_blocker_recall", "min"),
    ("min_tool_match", "tool_match_accuracy", "min"),
    ("min_distraction_catch", "distraction_detection_rate", "min"),
    ("min_golden_truth_pass", "golden_truth_pass_rate", "min"),
    ("max_prefilled_ratio", "prefilled_ratio", "max"),
)
"""Each threshold option, the rate it bounds, and whether it is a floor or a ceiling."""

REGRESSION_RATES: Final[tuple[tuple[str, Direction], ...]] = (
    ("mandated_compliance_rate", "min"),
    ("discretionary_ask_precision", "min"),
    ("discretionary_blocker_recall", "min"),
    ("tool_match_accuracy", "min"),
    ("distraction_detection_rate", "min"),
    ("golden_truth_pass_rate", "min"),
    ("prefilled_ratio", "max"),
)
"""Rates compared with a baseline; ``max`` ones (lower is better) regress when they rise.
Dimension means are grades on a 0-3 scale, not rates, and are not compared."""


@dataclass(frozen=True, slots=True)
class Scope:
    """What the current figures are: comparable with a baseline only when all of it matches."""

    source: Literal["rederived", "recorded"]
    scoring_model: str | None
    suites: tuple[SuiteRef, ...]


def rate_value(rates: Rates, name: str) -> float | None:
    value: float | None = getattr(rates, name)
    return value


def breaks_limit(observed: float, limit: float, direction: Direction) -> bool:
    """A floor is broken below it, a ceiling above it; the limit itself passes."""
    if direction == "min":
        return observed < limit
    return observed > limit


def threshold_check(name: str, rate: str, observed: float | None, limit: float, direction: Direction) -> Check:
    bound = "at least" if direction == "min" else "at most"
    if observed is None:
        return _null_threshold(name, rate, limit, direction)
    broken = breaks_limit(observed, limit, direction)
    return Check(
        name=name,
        rate=rate,
        observed=observed,
        limit=limit,
        outcome="fail" if broken else "pass",
        reason=f"{rate} is {observed:.4g}, {'not ' if broken else ''}{bound} {limit:g} ({name})",
    )


def _null_threshold(name: str, rate: str, limit: float, direction: Direction) -> Check:
    bound = "at least" if direction == "min" else "at most"
    return Check(
        name=name,
        rate=rate,
        observed=None,
        limit=limit,
        outcome="refused",
        reason=f"{name} requires {rate} {bound} {limit:g}, but {rate} is null (nothing was measured); "
        "the threshold cannot be checked and does not pass silently",
    )


def interval_threshold_check(
    name: str, rate: str, observed: float | None, interval: Interval | None, limit: float, direction: Direction
) -> Check:
    """A threshold decided on the whole interval: passed when all of it clears the limit, failed when
    all of it misses, refused when it straddles the limit (the data cannot say on which side the rate is)."""
    if observed is None:
        return _null_threshold(name, rate, limit, direction)
    if interval is None:
        return Check(
            name=name,
            rate=rate,
            observed=observed,
            limit=limit,
            outcome="refused",
            reason=f"{name} is to be decided on the interval of {rate}, but it has none (no counts, or counts above 1 "
            "that are not a proportion)",
        )
    clears, misses = interval_sides(interval, limit, direction)
    shown = f"{rate} is {observed:.4g} ({percent(interval)} {interval.low:.3f}-{interval.high:.3f})"
    bound = "at least" if direction == "min" else "at most"
    if clears:
        outcome: Outcome = "pass"
        reason = f"{shown}: all of it {bound} {limit:g} ({name})"
    elif misses:
        outcome, reason = "fail", f"{shown}: none of it {bound} {limit:g} ({name})"
    else:
        outcome = "refused"
        reason = f"{shown} straddles {limit:g} ({name}): these figures cannot tell on which side of it the rate is"
    return Check(
        name=name, rate=rate, observed=observed, limit=limit, outcome=outcome, reason=reason, interval=_entry(interval)
    )


def interval_sides(interval: Interval, limit: float, direction: Direction) -> tuple[bool, bool]:
    """Whether all of ``interval`` keeps the limit (a floor at or above it, a ceiling at or below it),
    and whether all of it breaks it."""
    if direction == "min":
        return interval.low >= limit, interval.high < limit
    return interval.high <= limit, interval.low > limit


def percent(interval: Interval) -> str:
    return f"{interval.confidence * 100:g}%"


def _entry(interval: Interval) -> RateInterval:
    return RateInterval(low=interval.low, high=interval.high, confidence=interval.confidence, method=interval.method)


def threshold_checks(rates: Rates, thresholds: Thresholds, counts: Counts | None = None) -> list[Check]:
    checks: list[Check] = []
    for name, rate, direction in THRESHOLD_RATES:
        limit: float | None = getattr(thresholds, name)
        if limit is None:
            continue
        observed = rate_value(rates, rate)
        if thresholds.threshold_basis == "interval":
            interval = _interval_of(counts, rate, thresholds.confidence)
            checks.append(interval_threshold_check(name, rate, observed, interval, limit, direction))
        else:
            checks.append(threshold_check(name, rate, observed, limit, direction))
    return checks


def _interval_of(counts: Counts | None, rate: str, confidence: float) -> Interval | None:
    side = None if counts is None else _side(counts, rate, confidence)
    return None if side is None else side.interval


def _side(counts: Counts, rate: str, confidence: float) -> Proportion | None:
    """A rate of a report's counts as a proportion with its interval; None without data."""
    count: RateCount | None = getattr(counts, rate)
    if count is None:
        return None
    return rate_proportion(rate, count.numerator, count.denominator, confidence)


# --- baseline ------------------------------------------------------------------------------


def incomparable(scope: Scope, baseline: ScoreReport) -> list[str]:
    """Why the baseline cannot be compared with the current figures (empty when it can)."""
    reasons: list[str] = []
    if baseline.source != scope.source:
        reasons.append(f"the baseline's figures are {baseline.source}, the current ones {scope.source}")
    if scope.scoring_model is None or baseline.scoring_model != scope.scoring_model:
        reasons.append(
            f"the baseline was scored under {baseline.scoring_model}, the current figures under {scope.scoring_model}"
        )
    if suite_set(baseline.suites) != suite_set(scope.suites):
        reasons.append(
            f"the baseline covers suites {sorted(suite_set(baseline.suites))}, "
            f"the current figures {sorted(suite_set(scope.suites))}"
        )
    return [
        f"baseline refused: {reason}; figures under different rules or suites are not comparable" for reason in reasons
    ]


def suite_set(suites: Sequence[SuiteRef]) -> set[str]:
    return {f"{suite.id}@{suite.version}" for suite in suites}


def regression_check(
    rate: str, before: Proportion | None, now: Proportion | None, max_drop: float, direction: Direction
) -> Check | None:
    """The change of ``rate`` against the baseline, decided on the interval of the change in the bad
    direction ("worse", Newcombe): all of it above ``max_drop`` fails (a regression is established),
    all of it at or below passes, an interval that straddles ``max_drop`` is refused (the data cannot
    decide), saying what tolerance they could decide and roughly how many trials the asked one needs."""
    if before is None:
        return None
    name = f"baseline:{rate}"
    if now is None:
        return Check(
            name=name,
            rate=rate,
            observed=None,
            limit=before.estimate,
            outcome="refused",
            reason=(
                f"the baseline's {rate} was {before.estimate:.4g} but it is null now; a regression cannot be checked"
            ),
        )
    worse_side, better_side = (before, now) if direction == "min" else (now, before)
    change = newcombe(worse_side, better_side)
    point = worse_side.estimate - better_side.estimate
    moved = movement(rate, before.estimate, now.estimate)
    span = f"worsening {point:+.3f}, {percent(change)} {change.low:+.3f} to {change.high:+.3f}"
    verdict = change_verdict(change, max_drop)
    if verdict == "fail":
        outcome: Outcome = "fail"
        reason = f"{moved} ({span}): a regression beyond the allowed {max_drop:g} is established"
    elif verdict == "pass":
        outcome, reason = "pass", f"{moved} ({span}): within the allowed {max_drop:g} even at the interval's end"
    else:
        outcome = "refused"
        reason = f"{moved} ({span}): the interval straddles the allowed {max_drop:g}, so these figures cannot decide; "
        reason += undecided_advice(change, max_drop, worse_side, better_side)
    return Check(
        name=name,
        rate=rate,
        observed=now.estimate,
        limit=before.estimate,
        outcome=outcome,
        reason=reason,
        interval=_entry(change),
    )


def movement(rate: str, before: float, now: float) -> str:
    if now == before:
        return f"{rate} stayed at {now:.4g}"
    return f"{rate} {'fell' if now < before else 'rose'} from {before:.4g} to {now:.4g}"


def undecided_advice(change: Interval, max_drop: float, worse: Proportion, better: Proportion) -> str:
    """What would decide a refused comparison: the tolerance these figures support, and the trials the
    asked one needs."""
    supported = f"the smallest tolerance they support is {supported_tolerance(change):.3f} (--max-drop)"
    needed = trials_needed(worse, better, max_drop)
    if needed is None:
        return (
            f"{supported}; no practical number of trials would decide {max_drop:g}: the estimated worsening is "
            "that tolerance itself, or within a hair of it"
        )
    return f"{supported}; about {needed:,} trials per side would be needed to decide {max_drop:g}"


def supported_tolerance(change: Interval) -> float:
    """The upper end of the change's interval rounded up to three decimals (never below 0): shown, it is
    a --max-drop that passes, where rounding to nearest could show one a hair too small."""
    return max(math.ceil(change.high * 1000) / 1000, 0.0)


def baseline_checks(counts: Counts, baseline: ScoreReport, thresholds: Thresholds) -> list[Check]:
    checks: list[Check] = []
    for rate, direction in REGRESSION_RATES:
        above = _above_its_scale(baseline.counts, counts, rate)
        if above is not None:
            checks.append(above)
            continue
        before = _side(baseline.counts, rate, thresholds.confidence)
        now = _side(counts, rate, thresholds.confidence)
        check = regression_check(rate, before, now, thresholds.max_drop, direction)
        if check is not None:
            checks.append(check)
    return checks


def _above_its_scale(before: Counts, now: Counts, rate: str) -> Check | None:
    """A refused check when either side's counts put the rate above 1 (blocker recall on the older
    ``matched`` basis can be): that is no proportion, so the change has no interval to decide on."""
    was: RateCount = getattr(before, rate)
    is_now: RateCount = getattr(now, rate)
    if was.denominator == 0:  # the baseline did not measure it: nothing to compare
        return None
    for side, count in (("the baseline's", was), ("the current", is_now)):
        if count.denominator > 0 and count.numerator > count.denominator:
            return Check(
                name=f"baseline:{rate}",
                rate=rate,
                observed=is_now.numerator / is_now.denominator if is_now.denominator > 0 else None,
                limit=was.numerator / was.denominator,
                outcome="refused",
                reason=f"{side} {rate} is {count.numerator:g}/{count.denominator:g}, above 1: not a proportion, so "
                "its change has no interval and is not compared",
            )
    return None


# --- a gate that measured nothing ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scored:
    """How many steps the figures rest on."""

    steps: int
    """Every step read, refused and unscored ones included."""
    refused: int
    """Steps whose auto score is not derivable (each refusal gives its own reason)."""
    auto_scored: int
    """Steps with an auto score, re-derived or recorded."""
    reviewed: int
    """Steps with a human review."""


def nothing_scored(scored: Scored) -> list[str]:
    """The refusal of a decision over runs in which no step carries any score (empty when one does, and
    when steps were refused: their refusals say why they carry none)."""
    if scored.auto_scored > 0 or scored.reviewed > 0 or scored.refused > 0:
        return []
    return [
        f"nothing was scored: none of the {scored.steps} step(s) read has an auto score (re-derived or recorded) "
        "or a human review, so no rate was measured; a gate that measured nothing does not pass "
        "(--allow-empty accepts it)"
    ]


# --- the decision --------------------------------------------------------------------------


def exit_code_of(outcome: Outcome) -> ExitCode:
    if outcome == "refused":
        return EXIT_REFUSED
    if outcome == "fail":
        return EXIT_FAIL
    return EXIT_PASS


def outcome_of(refused: bool, failed: bool) -> Outcome:
    """Refusal wins over failure: a figure that could not be derived cannot be vouched for either way."""
    if refused:
        return "refused"
    if failed:
        return "fail"
    return "pass"


def decide(
    rates: Rates,
    thresholds: Thresholds,
    *,
    scope: Scope,
    refusal_reasons: Sequence[str],
    disagreements: int,
    baseline: ScoreReport | str | None = None,
    scored: Scored | None = None,
    counts: Counts | None = None,
) -> Decision:
    """The decision value the exit code is taken from.

    ``refusal_reasons`` summarise the report's refusals (any makes the outcome
    refused); ``baseline`` is an earlier report, or a string saying why the
    baseline given could not be read; ``scored`` says how many steps carry a
    score (None: not known, as for a decision over rates alone).
    """
    checks = threshold_checks(rates, thresholds, counts)
    refused_reasons = list(refusal_reasons)
    if scored is not None and not thresholds.allow_empty:
        refused_reasons.extend(nothing_scored(scored))
    if isinstance(baseline, str):
        refused_reasons.append(f"baseline refused: {baseline}")
    elif baseline is not None:
        problems = incomparable(scope, baseline)
        refused_reasons.extend(problems)
        if not problems:
            if counts is None:
                refused_reasons.append("baseline refused: the current figures carry no counts to compare")
            else:
                checks.extend(baseline_checks(counts, baseline, thresholds))
    refused_reasons.extend(check.reason for check in checks if check.outcome == "refused")
    failed_reasons = [check.reason for check in checks if check.outcome == "fail"]
    if disagreements:
        failed_reasons.append(
            f"{disagreements} recorded auto-score field(s) disagree with the evidence (see disagreements)"
        )
    outcome = outcome_of(bool(refused_reasons), bool(failed_reasons))
    reasons = [*refused_reasons, *failed_reasons]
    if not reasons:
        reasons = [pass_reason(checks, compared=isinstance(baseline, ScoreReport))]
    return Decision(
        outcome=outcome,
        reasons=reasons,
        exit_code=exit_code_of(outcome),
        thresholds=thresholds.as_report(),
        checks=checks,
    )


def pass_reason(checks: Sequence[Check], *, compared: bool = False) -> str:
    """Why the outcome is pass; ``compared``: a baseline was read (it may have had no rate to compare)."""
    if not checks and compared:
        return (
            "the baseline has no rate to compare with (all are null) and no threshold was given; nothing was "
            "refused and no recorded score disagrees with the evidence"
        )
    if not checks:
        return (
            "no threshold or baseline was given; nothing was refused and no recorded score disagrees with the evidence"
        )
    return f"all {len(checks)} check(s) passed; nothing was refused and no recorded score disagrees with the evidence"
