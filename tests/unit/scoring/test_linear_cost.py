"""Scoring costs time linear in its input: structural tests, counting work instead of timing it.

Each counts what the quadratic version did once per element already summed: the per-tool tally
re-sorted on every gate event, partials copied whole on every run or step. The counts must grow
with n, not n squared; the answers must be the ones the pairwise merges give.
"""

from __future__ import annotations

from functools import reduce
from typing import Any

import pytest

from evalscore.models import EvalSuite
from evalscore.models.run import MandatedGateScore
from evalscore.scoring import SourcedRun, engine, gate_matching, score, signals
from evalscore.scoring.compare import Disagreement
from evalscore.scoring.join import JoinedStep, index_suites, join_run
from evalscore.scoring.partials import ModelRuns, Partial, PartialSum, merge_partials, sum_partials
from evalscore.scoring.signals import SignalParams, SignalSum, event_signals, merge_signals

from .builders import REFUND, approval, gate, question, run, step_def, step_result, suite, task_def


def counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str, measure: Any = None) -> list[int]:
    """Replace ``module.name`` by a wrapper that records ``measure(args)`` (1 by default) per call."""
    calls: list[int] = []
    real = getattr(module, name)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls.append(1 if measure is None else measure(*args))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, wrapper)
    return calls


def many_tools(count: int) -> SourcedRun:
    events = [approval(f"tool_{index}", resolution="approved" if index % 3 else "denied") for index in range(count)]
    return SourcedRun("a.json", run({"t1": [step_result(1, events=events)]}))


@pytest.mark.parametrize("count", [500, 2000])
def test_a_run_with_n_distinct_target_tools_orders_its_tally_in_n_log_n_not_n_squared(
    count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    orderings = counting(monkeypatch, signals, "tool_order")
    report = score([many_tools(count)])
    assert len(report.signals.by_target_tool) == count
    assert 0 < len(orderings) <= 4 * count


def tool_signals(count: int) -> list[signals.Signals]:
    params = SignalParams()
    return [
        event_signals(event, params)
        for index in range(count)
        for event in (
            approval(f"tool_{index % 7}", resolution="denied" if index % 4 == 0 else "approved"),
            approval(None),
            question(),
            approval(f"tool_{index % 5}", resolution="unresolved"),
        )
    ]


def test_signals_summed_in_place_are_the_pairwise_merges() -> None:
    parts = tool_signals(60)
    assert len(parts) == 240
    total = SignalSum()
    for part in parts:
        total.add(part)
    expected = reduce(merge_signals, parts, signals.Signals())
    assert total.total() == expected
    assert expected.unresolved == 60
    assert len(expected.by_target_tool) == 8


def refused_runs(count: int) -> list[SourcedRun]:
    """Runs recorded under v1, scored as v3 without a suite: each is a refusal and a recorded model."""
    return [
        SourcedRun(f"runs.jsonl:{index}", run({"t1": [step_result(1)]}, run_id=f"r{index}", model="v1"))
        for index in range(count)
    ]


def copied(_total: PartialSum, part: Partial) -> int:
    """What adding ``part`` to a sum copies: the items ``part`` lists (the quadratic version added the
    whole sum so far, again, with every run or step)."""
    return len(part.refusals) + len(part.disagreements) + sum(len(runs.sources) for runs in part.recorded_models)


@pytest.mark.parametrize("count", [100, 400])
def test_scoring_n_runs_copies_what_was_summed_a_bounded_number_of_times(
    count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    copies = counting(monkeypatch, PartialSum, "add", copied)
    report = score(refused_runs(count), scoring_model="v3")
    assert len(report.refusals) == count
    assert len(copies) >= count
    assert sum(copies) <= 2 * count


TASKS = 100
GATED = suite(
    *(task_def(f"t{t}", [step_def(n, expected=[REFUND]) for n in range(1, 5)], gates=[gate()]) for t in range(TASKS))
)


def test_re_deriving_a_run_of_n_steps_sums_its_parts_in_linear_time(monkeypatch: pytest.MonkeyPatch) -> None:
    unordered = [approval(before=None)]
    tasks = {f"t{t}": [step_result(n, [REFUND], events=unordered) for n in range(1, 5)] for t in range(TASKS)}
    copies = counting(monkeypatch, PartialSum, "add", copied)
    report = score([SourcedRun("a.json", run(tasks))], [GATED])
    assert len(report.refusals) == 4 * TASKS
    assert sum(copies) <= 2 * 4 * TASKS


def test_partials_summed_in_place_are_the_pairwise_merges() -> None:
    params = SignalParams()
    parts = [
        engine.score_run(sourced, index=None, scoring_model="v3", signal_params=params)
        for sourced in [*refused_runs(5), many_tools(4), *refused_runs(3)]
    ]
    assert len(parts) == 9
    expected = reduce(merge_partials, parts, Partial())
    assert sum_partials(parts) == expected
    assert len(expected.refusals) == 9
    (v1,) = (runs for runs in expected.recorded_models if runs.model == "v1")
    assert (v1.runs, v1.sources[:2]) == (9, ("runs.jsonl:0", "runs.jsonl:1"))


@pytest.mark.parametrize("count", [500, 2000])
def test_matching_n_gated_calls_to_n_approvals_looks_at_each_approval_a_bounded_number_of_times(
    count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Approval i precedes call i; the approvals run out in order, so the old matcher looked at
    # every spent approval again for each later call: n squared over 2 looks.
    events = [approval(before=index) for index in range(count)]
    calls = [REFUND] * count
    looks = counting(monkeypatch, gate_matching, "can_authorize")
    outcome = gate_matching.match_v2([gate()], calls, events, "v3")
    assert isinstance(outcome, MandatedGateScore)
    assert len(outcome.honored) == count
    assert [pairing.approvalIndex for pairing in outcome.pairings[:3]] == [0, 1, 2]
    assert 0 < len(looks) <= 3 * count


@pytest.mark.parametrize("count", [500, 2000])
def test_matching_n_calls_under_n_gates_walks_each_gate_s_tools_once_not_once_per_call(
    count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every call is to the last gate's tool: the old matcher tried each gate for each call.
    gates = [gate(f"g{index}", f"tool_{index}") for index in range(count)]
    for each in gates:
        object.__setattr__(each, "before_tools", LookedAtList(each.before_tools))
    LookedAtList.looks = 0
    events = [approval(f"tool_{count - 1}", before=0, uses=count)]
    outcome = gate_matching.match_v2(gates, [f"tool_{count - 1}"] * count, events, "v3")
    assert isinstance(outcome, MandatedGateScore)
    assert outcome.honored == [f"g{count - 1}"] * count
    assert LookedAtList.looks == count


class LookedAtList(list):  # type: ignore[type-arg]
    """A list that counts the times it is walked or searched."""

    looks = 0

    def __iter__(self) -> Any:
        LookedAtList.looks += 1
        return super().__iter__()

    def __contains__(self, item: object) -> bool:
        LookedAtList.looks += 1
        return super().__contains__(item)


def test_a_tool_two_gates_cover_is_governed_by_the_first_declared() -> None:
    first, second = gate("first", REFUND, "delete"), gate("second", "delete", "lookup")
    assert gate_matching.gates_by_tool([first, second]) == {REFUND: first, "delete": first, "lookup": second}


class CountedList(list):  # type: ignore[type-arg]
    """A list that counts the walks over it."""

    walks = 0

    def __iter__(self) -> Any:
        CountedList.walks += 1
        return super().__iter__()


def test_joining_a_run_of_n_tasks_walks_the_suite_once_not_once_per_task_or_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    count = 300
    tasks = [task_def(f"t{t}", [step_def(1, expected=["lookup"])], gates=[gate()]) for t in range(count)]
    document = suite(*tasks).model_dump()
    document["suite"]["toolbox"] = [{"name": f"tool_{index}"} for index in range(count)] + [{"name": "lookup"}]
    the_suite = EvalSuite.model_validate(document)
    index = index_suites([the_suite])
    monkeypatch.setattr(CountedList, "walks", 0)
    body = the_suite.suite
    # The models are frozen; the test swaps in counting lists behind pydantic's back, after indexing.
    object.__setattr__(body, "tasks", CountedList(body.tasks))
    object.__setattr__(body, "toolbox", CountedList(body.toolbox))
    a_run = run({f"t{t}": [step_result(1, ["lookup", "lookup"])] for t in range(count)})
    joined = list(join_run(a_run, "a.json", index))
    assert len(joined) == count
    assert all(isinstance(item, JoinedStep) for item in joined)
    assert CountedList.walks == 0


def disagreement(step_n: int) -> Disagreement:
    return Disagreement("tool_match", True, False, "/x", "a.json", "r", "t1", step_n, "v2")


def test_merging_two_partials_keeps_both_sides_in_order() -> None:
    left = Partial(
        disagreements=(disagreement(1),),
        recorded_models=(ModelRuns("v1", 1, ("a.json",)),),
        suites=frozenset({("s", "1.0.0")}),
    )
    right = Partial(
        disagreements=(disagreement(2), disagreement(3)),
        recorded_models=(ModelRuns("v2", 1, ("b.json",)),),
        suites=frozenset({("s", "2.0.0"), ("s", "1.0.0")}),
    )
    merged = merge_partials(left, right)
    assert [item.step_n for item in merged.disagreements] == [1, 2, 3]
    assert merged.recorded_models == (ModelRuns("v1", 1, ("a.json",)), ModelRuns("v2", 1, ("b.json",)))
    assert merged.suites == frozenset({("s", "1.0.0"), ("s", "2.0.0")})
    assert sum_partials([left, right]) == merged
