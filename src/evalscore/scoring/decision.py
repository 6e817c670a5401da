"""The decision: thresholds, baseline regressions, disagreements and refusals -> one outcome and exit code.

Exit codes: 0 pass or not gated, 1 fail, 4 refused. An established failure (a check failed whatever
the undecided part holds, or recorded scores that disagree with the evidence) is a failure; otherwise
a check the figures cannot decide (a null rate, an interval or refused steps that could flip it, an
unreadable baseline) refuses the decision; otherwise it passes when some criterion was checked, and
says nothing was gated when none was given. Refused steps block only the checks they could change
(``refused_bounds``). Oversight signals take no part in the decision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Literal

from evalscore.exit_codes import EXIT_FAILED, EXIT_OK, EXIT_REFUSED
from evalscore.scoring.intervals import (
    Interval,
    Proportion,
    change_verdict,
    newcombe,
    rate_proportion,
    trials_needed,
)
from evalscore.scoring.refused_bounds import RefusedPart, extreme_intervals, extremes, interval_floor, point_floor
from evalscore.scoring.report import (
    Check,
    CheckOutcome,
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
    mixed_models: bool = False
    """The recorded figures come from several scoring models: their gate rates mix different rules."""


GATE_RULE_RATES: Final = frozenset(
    {"mandated_compliance_rate", "discretionary_ask_precision", "discretionary_blocker_recall"}
)
"""The rates the scoring models count differently."""
REFUSED_UNITS: Final = {
    "mandated_compliance_rate": "gated calls",
    "discretionary_ask_precision": "questions",
    "discretionary_blocker_recall": "blockers",
    "tool_match_accuracy": "steps",
    "distraction_detection_rate": "distraction steps",
}
"""What a refused step could add to each rate it touches."""


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
        outcome: CheckOutcome = "pass"
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


def threshold_checks(
    rates: Rates, thresholds: Thresholds, counts: Counts | None = None, *, mixed_models: bool = False
) -> list[Check]:
    checks: list[Check] = []
    for name, rate, direction in THRESHOLD_RATES:
        limit: float | None = getattr(thresholds, name)
        if limit is None:
            continue
        observed = rate_value(rates, rate)
        part = None if counts is None else refused_part(counts, rate)
        if mixed_models and rate in GATE_RULE_RATES:
            checks.append(_mixed_models(name, rate, observed, limit))
        elif part is not None and counts is not None and not_a_proportion(counts, rate):
            checks.append(_unbounded_recall(name, observed, limit, part))
        elif part is not None and counts is not None:
            count: RateCount = getattr(counts, rate)
            checks.append(bounded_threshold_check(name, rate, count, limit, part, thresholds))
        elif thresholds.threshold_basis == "interval":
            interval = _interval_of(counts, rate, thresholds.confidence)
            checks.append(interval_threshold_check(name, rate, observed, interval, limit, direction))
        else:
            checks.append(threshold_check(name, rate, observed, limit, direction))
    return checks


def refused_part(counts: Counts, rate: str) -> RefusedPart | None:
    """What the refused steps could add to ``rate``; None when they could add nothing."""
    count: RateCount = getattr(counts, rate)
    if count.refused_at_most == 0:
        return None
    at_most = None if count.refused_at_most is None else Fraction(count.refused_at_most)
    return RefusedPart(at_most, counts.refused_steps)


def not_a_proportion(counts: Counts, rate: str) -> bool:
    """Blocker recall on the older ``matched`` basis counts questions over blockers: no proportion, so the
    extremes of ``refused_bounds`` do not bound it."""
    return rate == "discretionary_blocker_recall" and counts.discretionary_blocker_recall.basis == "matched"


def _unbounded_recall(name: str, observed: float | None, limit: float, part: RefusedPart) -> Check:
    rate = "discretionary_blocker_recall"
    reason = (
        f"{name}: {rate} on the matched basis counts matched questions over blockers, which the {part.steps} refused "
        "step(s) could move anywhere (it is no proportion); it cannot be checked"
    )
    return Check(name=name, rate=rate, observed=observed, limit=limit, outcome="refused", reason=reason)


def _mixed_models(name: str, rate: str, observed: float | None, limit: float) -> Check:
    return Check(
        name=name,
        rate=rate,
        observed=observed,
        limit=limit,
        outcome="refused",
        reason=f"{name}: the recorded {rate} adds up scores recorded under different scoring models, whose gate "
        "rules differ; it cannot be checked",
    )


def _fraction_text(counts: tuple[Fraction, Fraction]) -> str:
    numerator, denominator = counts
    return f"{float(numerator):g} / {float(denominator):g} = {float(numerator / denominator):.3f}"


def bounded_threshold_check(
    name: str, rate: str, count: RateCount, limit: float, part: RefusedPart, thresholds: Thresholds
) -> Check:
    """A floor over the derivable steps, decided only if the refused ones could not flip it (``refused_bounds``)."""
    numerator, denominator = Fraction(count.numerator), Fraction(count.denominator)
    steps = f"{part.steps} refused step(s)"
    if denominator == 0:
        reason = f"{name}: {rate} has no data in the derivable steps, and the {steps} could give it any value or none"
        return Check(name=name, rate=rate, observed=None, limit=limit, outcome="refused", reason=reason)
    observed = float(numerator / denominator)
    shown = f"{rate} is {observed:.4g} ({float(numerator):g} / {float(denominator):g})"
    interval = thresholds.threshold_basis == "interval"
    if interval:
        verdict = interval_floor(rate, numerator, denominator, part, limit, thresholds.confidence)
    else:
        verdict = point_floor(numerator, denominator, part, limit)
    reach = _reach(rate, numerator, denominator, part, thresholds.confidence if interval else None)
    if verdict == "pass":
        outcome: CheckOutcome = "pass"
        reason = f"{shown}, at least {limit:g} ({name}); decided despite {steps}: at worst {reach[0]}, still at least "
        reason += f"{limit:g}"
    elif verdict == "fail":
        outcome = "fail"
        reason = f"{shown}, not at least {limit:g} ({name}); decided despite {steps}: at best {reach[1]} < {limit:g}"
    else:
        outcome = "refused"
        reason = f"{shown} over the derivable steps ({name}), but the {steps} could make it anything from {reach[0]} "
        reason += f"to {reach[1]}: on both sides of {limit:g}"
    return Check(name=name, rate=rate, observed=observed, limit=limit, outcome=outcome, reason=reason)


def _reach(
    rate: str, numerator: Fraction, denominator: Fraction, part: RefusedPart, confidence: float | None
) -> tuple[str, str]:
    """The two extremes in words (with their intervals when ``confidence`` is given)."""
    if part.at_most is None:
        units = REFUSED_UNITS[rate]
        return f"0 (they could hold any number of {units})", f"1 (they could hold any number of {units})"
    worst, best = extremes(numerator, denominator, part.at_most)
    if confidence is None:
        return _fraction_text(worst), _fraction_text(best)
    low, high = extreme_intervals(rate, numerator, denominator, part.at_most, confidence)
    return (
        f"{_fraction_text(worst)} ({percent(low)} {low.low:.3f}-{low.high:.3f})",
        f"{_fraction_text(best)} ({percent(high)} {high.low:.3f}-{high.high:.3f})",
    )


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
    rate: str,
    before: Proportion | None,
    now: Proportion | None,
    max_drop: float,
    direction: Direction,
    trials_per_run: float | None = None,
) -> Check | None:
    """The change of ``rate`` against the baseline, decided on the interval of the change in the bad
    direction ("worse", Newcombe): all of it above ``max_drop`` fails (a regression is established),
    all of it at or below passes, an interval that straddles ``max_drop`` is refused (the data cannot
    decide), saying what tolerance they could decide and roughly how many trials (runs, given
    ``trials_per_run`` of the current figures) per side the asked one needs."""
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
        outcome: CheckOutcome = "fail"
        reason = f"{moved} ({span}): a regression beyond the allowed {max_drop:g} is established"
    elif verdict == "pass":
        outcome, reason = "pass", f"{moved} ({span}): within the allowed {max_drop:g} even at the interval's end"
    else:
        outcome = "refused"
        needed = runs_needed(worse_side, better_side, max_drop, trials_per_run)
        reason = f"{moved} ({span}): too few trials to decide the allowed {max_drop:g}; "
        reason += undecided_advice(change, max_drop, worse_side, better_side, needed)
    return Check(
        name=name,
        rate=rate,
        observed=now.estimate,
        limit=before.estimate,
        outcome=outcome,
        reason=reason,
        interval=_entry(change),
        runs_needed=needed if outcome == "refused" else None,
    )


def movement(rate: str, before: float, now: float) -> str:
    if now == before:
        return f"{rate} stayed at {now:.4g}"
    return f"{rate} {'fell' if now < before else 'rose'} from {before:.4g} to {now:.4g}"


def undecided_advice(
    change: Interval, max_drop: float, worse: Proportion, better: Proportion, runs: int | None = None
) -> str:
    """What would decide a refused comparison: the runs per side (else the trials) the asked tolerance
    needs, and the tolerance these figures support."""
    supported = f"they support --max-drop {supported_tolerance(change):.3f}"
    if runs is not None:
        return f"about {runs:,} runs per side would decide it ({supported})"
    needed = trials_needed(worse, better, max_drop)
    if needed is None:
        return f"no practical sample would decide it: the estimated worsening is the tolerance itself ({supported})"
    return f"about {needed:,} trials per side would decide it ({supported})"


def runs_needed(worse: Proportion, better: Proportion, max_drop: float, trials_per_run: float | None) -> int | None:
    """``trials_needed`` in runs of ``trials_per_run`` trials; None when the runs are not known or no
    practical number decides it."""
    if trials_per_run is None or trials_per_run <= 0:
        return None
    needed = trials_needed(worse, better, max_drop)
    if needed is None:
        return None
    return max(math.ceil(needed / trials_per_run), 1)


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
        part = refused_part(counts, rate) if rate in REFUSED_UNITS else None
        if part is not None and before is not None and not_a_proportion(counts, rate):
            checks.append(_unbounded_recall(f"baseline:{rate}", None, before.estimate, part))
            continue
        if part is not None and before is not None:
            checks.append(bounded_regression_check(rate, before, counts, thresholds, direction, part))
            continue
        now = _side(counts, rate, thresholds.confidence)
        check = regression_check(rate, before, now, thresholds.max_drop, direction, _trials_per_run(counts, rate))
        if check is not None:
            checks.append(check)
    return checks


def _trials_per_run(counts: Counts, rate: str) -> float | None:
    count: RateCount = getattr(counts, rate)
    if not counts.runs:
        return None
    return count.denominator / counts.runs


def bounded_regression_check(
    rate: str, before: Proportion, counts: Counts, thresholds: Thresholds, direction: Direction, part: RefusedPart
) -> Check:
    """A baseline check whose current figures exclude refused steps: decided when it comes out the same
    with every refused unit failing and with every one passing."""
    count: RateCount = getattr(counts, rate)
    numerator, denominator = Fraction(count.numerator), Fraction(count.denominator)
    name = f"baseline:{rate}"
    steps = f"{part.steps} refused step(s)"
    observed = float(numerator / denominator) if denominator else None
    if part.at_most is None or denominator == 0:
        units = REFUSED_UNITS[rate]
        why = f"could hold any number of {units}" if part.at_most is None else "could give it any value or none"
        reason = f"the baseline's {rate} was {before.estimate:.4g}; the change cannot be bounded: the {steps} {why}"
        return Check(name=name, rate=rate, observed=observed, limit=before.estimate, outcome="refused", reason=reason)
    worst, best = (
        regression_check(
            rate, before, rate_proportion(rate, *side, thresholds.confidence), thresholds.max_drop, direction
        )
        for side in extremes(numerator, denominator, part.at_most)
    )
    assert worst is not None
    assert best is not None
    if worst.outcome == best.outcome:
        reason = f"decided despite {steps}, the same with all of them failing and all passing: {worst.reason}"
        outcome: CheckOutcome = worst.outcome
    else:
        reason = (
            f"the {steps} could decide it either way: with all of them failing, {worst.reason}; with all passing, "
            f"{best.reason}"
        )
        outcome = "refused"
    return Check(
        name=name, rate=rate, observed=observed, limit=before.estimate, outcome=outcome, reason=reason,
        interval=worst.interval,
    )  # fmt: skip


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
    """The refusal of a decision over runs in which no step carries any score (empty when one does)."""
    if scored.auto_scored > 0 or scored.reviewed > 0:
        return []
    refused = f" ({scored.refused} refused, see refusals)" if scored.refused else ""
    return [
        f"nothing was scored: none of the {scored.steps} step(s) read{refused} has an auto score (re-derived or "
        "recorded) or a human review, so no rate was measured; a gate that measured nothing does not pass "
        "(--allow-empty accepts it)"
    ]


# --- the decision --------------------------------------------------------------------------


def exit_code_of(outcome: Outcome) -> ExitCode:
    if outcome == "refused":
        return EXIT_REFUSED
    if outcome == "fail":
        return EXIT_FAILED
    return EXIT_OK


def outcome_of(failed: bool, undecided: bool, checked: bool) -> Outcome:
    """An established failure is a failure whatever the undecided checks would say; an undecided check
    refuses the rest; a pass needs a criterion checked."""
    if failed:
        return "fail"
    if undecided:
        return "refused"
    if checked:
        return "pass"
    return "not-gated"


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

    ``refusal_reasons`` summarise the report's refusals (said, whatever the outcome; the checks they
    could change are undecided through ``counts``' ``refused_at_most``); ``baseline`` is an earlier
    report, or a string saying why the baseline given could not be read; ``scored`` says how many steps
    carry a score (None: not known, as for a decision over rates alone).
    """
    checks = threshold_checks(rates, thresholds, counts, mixed_models=scope.mixed_models)
    undecided: list[str] = []
    if scored is not None and not thresholds.allow_empty:
        undecided.extend(nothing_scored(scored))
    if isinstance(baseline, str):
        undecided.append(f"baseline refused: {baseline}")
    elif baseline is not None:
        problems = incomparable(scope, baseline)
        undecided.extend(problems)
        if not problems:
            if counts is None:
                undecided.append("baseline refused: the current figures carry no counts to compare")
            else:
                checks.extend(baseline_checks(counts, baseline, thresholds))
    undecided.extend(undecided_reasons(checks, thresholds.max_drop))
    failed = [check.reason for check in checks if check.outcome == "fail"]
    if disagreements:
        failed.append(f"{disagreements} recorded auto-score field(s) disagree with the evidence (see disagreements)")
    outcome = outcome_of(bool(failed), bool(undecided), bool(checks))
    if outcome == "fail":
        reasons = [*failed, *(f"also undecided: {reason}" for reason in undecided)]
    elif outcome == "refused":
        reasons = undecided
    elif outcome == "pass":
        reasons = [pass_reason(checks)]
    else:
        reasons = [not_gated_reason(compared=isinstance(baseline, ScoreReport))]
    return Decision(
        outcome=outcome,
        reasons=[*reasons, *refusal_reasons],
        exit_code=exit_code_of(outcome),
        thresholds=thresholds.as_report(),
        checks=checks,
    )


def undecided_reasons(checks: Sequence[Check], max_drop: float) -> list[str]:
    """A line per undecided check, but one line for all the baseline checks too noisy to decide."""
    noisy = [(check.rate, check.runs_needed) for check in checks if check.outcome == "refused" and check.runs_needed]
    reasons = [check.reason for check in checks if check.outcome == "refused" and not check.runs_needed]
    if noisy:
        names = ", ".join(rate for rate, _ in noisy)
        runs = max(runs for _, runs in noisy)
        reasons.append(
            f"baseline: too few runs to decide --max-drop {max_drop:g} for {names}; about {runs:,} runs per side "
            "would decide them"
        )
    return reasons


def pass_reason(checks: Sequence[Check]) -> str:
    """Why the outcome is pass."""
    return f"all {len(checks)} check(s) passed; no recorded score disagrees with the evidence"


def not_gated_reason(*, compared: bool = False) -> str:
    """Why nothing was gated, and how to gate."""
    given = (
        "the baseline has no rate to compare with (all are null) and no threshold was given"
        if compared
        else "no threshold or baseline was given"
    )
    return (
        f"nothing was gated: {given}, so no criterion was checked (PASS needs one); "
        "--min-mandated-compliance 1 fails on any mandated-gate violation"
    )
