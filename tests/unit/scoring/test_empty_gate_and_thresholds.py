"""A gate that measured nothing never passes, and every reported rate can carry a threshold."""

from __future__ import annotations

import pytest

from evalscore.scoring import SourcedRun, score
from evalscore.scoring.decision import THRESHOLD_RATES, Scope, Scored, decide, nothing_scored
from evalscore.scoring.report import Rates
from evalscore.scoring.thresholds import Thresholds

from .builders import run, step_result

SCOPE = Scope(source="recorded", scoring_model="v1", suites=())
NULL_RATES = Rates(
    mandated_compliance_rate=None,
    discretionary_ask_precision=None,
    discretionary_blocker_recall=None,
    tool_match_accuracy=None,
    distraction_detection_rate=None,
    golden_truth_pass_rate=None,
    dimension_means={},
    prefilled_ratio=0.0,
)
NOTHING = Scored(steps=3, refused=0, auto_scored=0, reviewed=0)


def decided(
    scored: Scored | None, thresholds: Thresholds | None = None, rates: Rates = NULL_RATES
) -> tuple[str, list[str]]:
    decision = decide(
        rates, thresholds or Thresholds(), scope=SCOPE, refusal_reasons=[], disagreements=0, scored=scored
    )
    return decision.outcome, decision.reasons


def test_steps_with_no_score_of_any_kind_refuse_the_decision_and_say_why() -> None:
    outcome, reasons = decided(NOTHING)
    assert outcome == "refused"
    assert reasons == [
        "nothing was scored: none of the 3 step(s) read has an auto score (re-derived or recorded) or a human "
        "review, so no rate was measured; a gate that measured nothing does not pass (--allow-empty accepts it)"
    ]


def test_no_step_at_all_is_nothing_scored_too() -> None:
    assert decided(Scored(steps=0, refused=0, auto_scored=0, reviewed=0))[0] == "refused"


def test_allow_empty_lets_a_decision_over_nothing_go_ungated_and_never_pass() -> None:
    assert decided(NOTHING, Thresholds(allow_empty=True))[0] == "not-gated"
    assert decided(NOTHING, Thresholds(allow_empty=True, min_tool_match=0.5))[0] == "refused"  # a null rate


@pytest.mark.parametrize(
    "scored",
    [
        Scored(steps=3, refused=0, auto_scored=1, reviewed=0),
        Scored(steps=3, refused=0, auto_scored=0, reviewed=1),
    ],
    ids=["one-auto-score", "one-human-review"],
)
def test_one_scored_step_is_something_measured(scored: Scored) -> None:
    assert nothing_scored(scored) == []
    assert decided(scored)[0] == "not-gated"


def test_steps_that_are_all_refused_are_nothing_scored_and_the_reason_counts_the_refused() -> None:
    assert nothing_scored(Scored(steps=3, refused=1, auto_scored=0, reviewed=0)) == [
        "nothing was scored: none of the 3 step(s) read (1 refused, see refusals) has an auto score (re-derived or "
        "recorded) or a human review, so no rate was measured; a gate that measured nothing does not pass "
        "(--allow-empty accepts it)"
    ]


def test_a_decision_over_rates_alone_does_not_judge_emptiness() -> None:
    assert decided(None)[0] == "not-gated"


NEW_THRESHOLDS = [
    ("min_ask_precision", "discretionary_ask_precision"),
    ("min_blocker_recall", "discretionary_blocker_recall"),
    ("min_golden_truth_pass", "golden_truth_pass_rate"),
]


def test_every_reported_rate_but_the_dimension_grades_has_a_threshold() -> None:
    bounded = {rate for _, rate, _ in THRESHOLD_RATES}
    reported = set(Rates.model_fields) - {"dimension_means"}
    assert bounded == reported
    assert len(bounded) == 7


@pytest.mark.parametrize(("name", "rate"), NEW_THRESHOLDS)
@pytest.mark.parametrize(("observed", "outcome"), [(0.5, "pass"), (0.49, "fail"), (None, "refused")])
def test_the_new_thresholds_are_floors_on_their_rates(
    name: str, rate: str, observed: float | None, outcome: str
) -> None:
    rates = NULL_RATES.model_copy(update={rate: observed})
    thresholds = Thresholds(**{name: 0.5})  # type: ignore[arg-type]
    scored = Scored(steps=1, refused=0, auto_scored=1, reviewed=1)
    decision = decide(rates, thresholds, scope=SCOPE, refusal_reasons=[], disagreements=0, scored=scored)
    assert [(check.name, check.rate, check.outcome) for check in decision.checks] == [(name, rate, outcome)]
    assert decision.outcome == outcome
    assert decision.thresholds.model_dump()[name] == 0.5


def test_the_engine_refuses_runs_in_which_nothing_was_scored_counting_their_steps() -> None:
    unscored = [SourcedRun("a.json", run({"t1": [step_result(1), step_result(2)], "t2": [step_result(1)]}))]
    report = score(unscored)
    assert (report.decision.outcome, report.decision.exit_code) == ("refused", 4)
    assert report.decision.reasons[0].startswith("nothing was scored: none of the 3 step(s) read has an auto score")
    allowed = score(unscored, thresholds=Thresholds(allow_empty=True))
    assert (allowed.decision.outcome, allowed.decision.thresholds.allow_empty) == ("not-gated", True)
