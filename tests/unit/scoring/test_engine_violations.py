"""The engine's part in the verdict: what refused steps could add to each rate, the lists a report keeps,
and the violations it finds under v1 and as recorded."""

from __future__ import annotations

from typing import Any

from evalscore.scoring import SourcedRun, Thresholds, score
from evalscore.scoring.report import ScoreReport

from .builders import REFUND, approval, blocker, gate, question, run, step_def, step_result, suite, task_def

RATES = (
    "mandated_compliance_rate",
    "discretionary_ask_precision",
    "discretionary_blocker_recall",
    "tool_match_accuracy",
    "distraction_detection_rate",
)
DISTRACTING = suite(
    task_def(
        "d",
        [step_def(1, expected=[REFUND], blockers=[blocker("b1", "the amount"), blocker("b2", "the order")])],
        gates=[gate("refund-approval", REFUND), gate("refund-second", REFUND)],
        distraction=True,
    ),
    task_def("plain", [step_def(1, expected=[REFUND]), step_def(2)], gates=[gate()]),
)


def refused_at_most(report: ScoreReport) -> dict[str, float | None]:
    return {rate: getattr(report.counts, rate).refused_at_most for rate in RATES}


def unordered_step() -> dict[str, Any]:
    """Two gated calls, a question, and an approval whose place among the calls was not recorded."""
    return step_result(1, [REFUND, REFUND], events=[question("q", "why?", before=0), approval(before=None)])


def test_a_step_whose_ordering_alone_is_unknown_could_add_its_gated_calls_questions_blockers_and_itself() -> None:
    report = score([SourcedRun("a.json", run({"d": [unordered_step()]}))], [DISTRACTING])
    assert refused_at_most(report) == {
        "mandated_compliance_rate": 2,  # each gated call, once
        "discretionary_ask_precision": 1,
        "discretionary_blocker_recall": 2,
        "tool_match_accuracy": 1,
        "distraction_detection_rate": 1,
    }
    one_call = step_result(1, [REFUND], events=[approval(before=None)])
    v3 = score([SourcedRun("a.json", run({"d": [one_call]}))], [DISTRACTING])
    v1 = score([SourcedRun("a.json", run({"d": [one_call]}))], [DISTRACTING], scoring_model="v1")
    assert v3.counts.mandated_compliance_rate.refused_at_most == 1  # one gated call: one gate, once
    assert v1.counts.mandated_compliance_rate.refused_at_most == 2  # under v1: both gates the refund triggers


def test_a_step_of_an_unknown_suite_could_add_any_number_of_gates_questions_and_blockers() -> None:
    steps = [step_result(1, [REFUND]), step_result(2)]
    report = score([SourcedRun("a.json", run({"plain": steps}, version="9"))], [DISTRACTING])
    assert refused_at_most(report) == {
        "mandated_compliance_rate": None,
        "discretionary_ask_precision": None,
        "discretionary_blocker_recall": None,
        "tool_match_accuracy": 2,
        "distraction_detection_rate": 2,
    }
    one = score([SourcedRun("a.json", run({"plain": [step_result(1)]}, version="9"))], [DISTRACTING])
    assert refused_at_most(one)["mandated_compliance_rate"] is None  # one such step is enough


def test_a_run_given_twice_could_add_anything_to_the_gate_rates_and_one_a_step_to_the_others() -> None:
    twice = run({"plain": [step_result(1, [REFUND], events=[approval(before=0)]), step_result(2)]})
    report = score([SourcedRun("a.json", twice), SourcedRun("b.json", twice)], [DISTRACTING])
    assert report.counts.refused_steps == 2
    assert refused_at_most(report) == {
        "mandated_compliance_rate": None,
        "discretionary_ask_precision": None,
        "discretionary_blocker_recall": None,
        "tool_match_accuracy": 2,
        "distraction_detection_rate": 2,
    }
    assert report.counts.runs == 1


def test_nothing_refused_bounds_nothing() -> None:
    report = score(
        [SourcedRun("a.json", run({"plain": [step_result(1, [REFUND], events=[approval()])]}))], [DISTRACTING]
    )
    assert set(refused_at_most(report).values()) == {0}


def test_a_log_whose_every_step_is_refused_measured_nothing_and_says_how_many_were_refused() -> None:
    report = score([SourcedRun("a.json", run({"plain": [step_result(1)]}, version="9"))], [DISTRACTING])
    assert report.decision.reasons[0].startswith(
        "nothing was scored: none of the 1 step(s) read (1 refused, see refusals)"
    )


def test_past_the_listing_bound_the_report_counts_the_disagreements_and_steps_it_does_not_list() -> None:
    claim = {
        "tool_match": True,
        "distraction_caught": None,
        "gates": {
            "mandated": {"required": ["refund-approval"], "honored": ["refund-approval"], "violated": []},
            "discretionary": None,
        },
    }
    steps = [step_result(1, [REFUND], auto_score=claim)]
    report = score([SourcedRun("a.json", run({"plain": steps}, model="v2"))], [DISTRACTING], listed=1)
    assert (len(report.disagreements), report.unlisted_disagreements) == (1, 1)
    assert (len(report.mandated_steps), report.unlisted_mandated_steps) == (1, 0)


def test_recorded_figures_of_two_models_leave_a_threshold_on_a_gate_rate_undecided() -> None:
    recorded = {
        "tool_match": True,
        "distraction_caught": None,
        "gates": {"mandated": {"required": ["g"], "honored": ["g"], "violated": []}, "discretionary": None},
    }
    runs = [
        SourcedRun("a.json", run({"plain": [step_result(1, auto_score=recorded)]}, model="v1")),
        SourcedRun("b.json", run({"plain": [step_result(1, auto_score=recorded)]}, model="v2", run_id="r2")),
    ]
    report = score(runs, thresholds=Thresholds(min_mandated_compliance=0.5, min_tool_match=0.5))
    assert [(check.name, check.outcome) for check in report.decision.checks] == [
        ("min_mandated_compliance", "refused"),
        ("min_tool_match", "pass"),
    ]
    assert "recorded under different scoring models" in report.decision.checks[0].reason


# --- v1 and as recorded ---------------------------------------------------------------------------


def test_under_v1_a_triggered_gate_that_was_honored_is_not_listed_and_one_that_was_not_is() -> None:
    two_gates = suite(
        task_def("t", [step_def(1, expected=[REFUND, "delete"])], gates=[gate("a", REFUND), gate("b", "delete")])
    )
    step = step_result(1, [REFUND, "delete"], events=[approval(REFUND, before=0), approval("delete", before=2)])
    report = score([SourcedRun("a.json", run({"t": [step]}))], [two_gates], scoring_model="v1")
    assert [
        item.model_dump(exclude={"message", "source", "input", "line", "run_id"}) for item in report.violations
    ] == [
        {
            "rate": "mandated_compliance_rate",
            "code": "approval-after-call",
            "task_id": "t",
            "step_n": 1,
            "step_pointer": "/task_results/0/step_results/0",
            "pointer": "/task_results/0/step_results/0/agent_tool_calls/1",
            "call_pointer": "/task_results/0/step_results/0/agent_tool_calls/1",
            "gate_pointer": "/task_results/0/step_results/0/gate_events/1",
            "tool": "delete",
            "gate_id": "b",
            "weight": 1.0,
            "scoring_model": "v1",
        }
    ]


def recorded(discretionary: dict[str, Any] | None, *, tool_match: Any = True, mandated: Any = None) -> dict[str, Any]:
    return {
        "tool_match": tool_match,
        "distraction_caught": None,
        "gates": {"mandated": mandated, "discretionary": discretionary},
    }


def recorded_report(auto: dict[str, Any], model: str = "v3") -> ScoreReport:
    return score([SourcedRun("a.json", run({"plain": [step_result(1, [REFUND], auto_score=auto)]}, model=model))])


def test_a_recorded_shortfall_of_exactly_one_is_listed_and_none_is_not() -> None:
    one = recorded({"blockers": 2, "asked": 3, "matched": 2, "unprompted": 0, "addressed": 1})
    assert [(item.code, item.weight, item.scoring_model) for item in recorded_report(one).violations] == [
        ("recorded-questions-unmatched", 1.0, "v3"),
        ("recorded-blockers-unaddressed", 1.0, "v3"),
    ]
    none = recorded({"blockers": 2, "asked": 2, "matched": 2, "unprompted": 0, "addressed": 2})
    assert recorded_report(none).violations == []


def test_a_recorded_v3_score_falls_short_of_recall_by_its_addressed_blockers_not_its_matched_questions() -> None:
    auto = recorded({"blockers": 3, "asked": 3, "matched": 3, "unprompted": 0, "addressed": 1})
    assert [(item.code, item.weight) for item in recorded_report(auto).violations] == [
        ("recorded-blockers-unaddressed", 2.0)
    ]


def test_a_recorded_failed_tool_match_and_violated_gates_are_listed_with_their_gate_and_weight() -> None:
    auto = recorded(
        None, tool_match=False, mandated={"required": ["g", "h"], "honored": [], "violated": ["g", "h"], "pairings": []}
    )
    report = recorded_report(auto, model="v2")
    assert [(item.code, item.gate_id, item.weight, item.scoring_model) for item in report.violations] == [
        ("recorded-gate-violated", "g", 1.0, "v2"),
        ("recorded-gate-violated", "h", 1.0, "v2"),
        ("recorded-tools-not-matched", None, 1.0, "v2"),
    ]
    assert [(step.required, step.violated) for step in report.mandated_steps] == [(2, 2)]
    honored = recorded(None, mandated={"required": [], "honored": [], "violated": [], "pairings": []})
    assert recorded_report(honored).mandated_steps == []
