"""Oversight signals: counted from what the log observed, never graded, never guessed."""

from __future__ import annotations

from functools import reduce

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalscore.scoring.signals import (
    LATENCY_EDGES_MS,
    SignalParams,
    distinct_overseers,
    empty_signals,
    event_signals,
    latency_bin,
    latency_ms,
    merge_signals,
    signals_of,
    timestamp_latency,
)

from .builders import approval, question

PARAMS = SignalParams()


def test_alice_and_alice_with_a_capital_and_a_space_are_one_person() -> None:
    assert distinct_overseers(["alice", "Alice "]) == 1
    signals = signals_of([approval(overseers=["alice", "Alice "])], PARAMS)
    assert (signals.four_eyes, signals.without_overseer) == (0, 0)


def test_two_distinct_overseers_make_four_eyes() -> None:
    assert signals_of([approval(overseers=["alice", "bob"])], PARAMS).four_eyes == 1


def test_ids_are_nfkc_normalized_before_counting() -> None:
    assert distinct_overseers(["\uff42\uff4f\uff42", "bob", "BOB"]) == 1


def test_an_id_that_normalizes_to_empty_is_no_person() -> None:
    # the contract already rejects such ids on a gate event; the counter holds the rule on its own
    assert distinct_overseers(["\u2002\u00a0", " "]) == 0
    assert distinct_overseers(["alice", "\u2002\u00a0"]) == 1


def test_a_resolved_gate_without_overseers_is_counted_without_overseer() -> None:
    signals = signals_of([approval(), question()], PARAMS)
    assert (signals.resolved_gates, signals.without_overseer) == (2, 2)


def test_an_unresolved_gate_counts_only_as_unresolved() -> None:
    signals = signals_of([approval(resolution="unresolved")], PARAMS)
    assert (signals.unresolved, signals.resolved_gates, signals.without_overseer, signals.latency_unavailable) == (
        1,
        0,
        0,
        0,
    )


def test_latency_is_the_recorded_duration_first() -> None:
    event = approval(
        decision_latency_ms=5000, opened_at="2026-01-01T00:00:00Z", resolved_at="2026-01-01T00:00:05.5+00:00"
    )
    assert latency_ms(event) == 5000


def test_latency_falls_back_to_the_timestamp_difference_across_offsets() -> None:
    event = approval(opened_at="2026-01-01T00:00:00Z", resolved_at="2026-01-01T01:00:02+01:00")
    assert latency_ms(event) == 2000


@pytest.mark.parametrize(
    "times",
    [{}, {"opened_at": "2026-01-01T00:00:00Z"}, {"resolved_at": "2026-01-01T00:00:00Z"}],
)
def test_latency_is_unknown_without_a_duration_or_both_timestamps(times: dict[str, str]) -> None:
    event = approval(**times)
    assert latency_ms(event) is None
    signals = signals_of([event], PARAMS)
    assert (signals.latency_unavailable, signals.fast_approvals) == (1, 0)


def test_a_duration_kept_without_timestamps_is_a_known_latency() -> None:
    assert signals_of([approval(decision_latency_ms=0)], PARAMS).latency_unavailable == 0


def floor_for(surfaced: str) -> float:
    return 1000 + 8 * len(surfaced)


def test_fast_approval_boundary_is_strictly_below_floor_plus_reading_time() -> None:
    surfaced = "Refund 40 € to Zoë?"  # code points, not bytes
    assert len(surfaced) == 19
    limit = floor_for(surfaced)
    assert limit == 1152
    at_limit = approval(surfaced=surfaced, decision_latency_ms=limit)
    just_below = approval(surfaced=surfaced, decision_latency_ms=limit - 0.5)
    assert signals_of([at_limit], PARAMS).fast_approvals == 0
    assert signals_of([just_below], PARAMS).fast_approvals == 1


def test_fast_approval_parameters_are_configurable() -> None:
    event = approval(surfaced="abc", decision_latency_ms=100)
    assert signals_of([event], SignalParams(floor_ms=50, ms_per_char=20)).fast_approvals == 1
    assert signals_of([event], SignalParams(floor_ms=50, ms_per_char=10)).fast_approvals == 0


def test_a_fast_denial_is_not_a_fast_approval() -> None:
    assert signals_of([approval(resolution="denied", decision_latency_ms=1)], PARAMS).fast_approvals == 0


def test_never_denied_is_null_without_any_decided_approval_request() -> None:
    assert signals_of([question(), approval(resolution="unresolved")], PARAMS).never_denied is None
    assert signals_of([], PARAMS).never_denied is None


def test_never_denied_is_true_when_every_decided_request_was_approved() -> None:
    assert signals_of([approval(), approval()], PARAMS).never_denied is True


def test_one_denial_makes_never_denied_false_overall_and_for_its_tool_only() -> None:
    events = [approval("issue_refund"), approval("delete", resolution="denied"), approval(None)]
    signals = signals_of(events, PARAMS)
    assert signals.never_denied is False
    assert signals.by_target_tool == ((None, 1, 0), ("delete", 0, 1), ("issue_refund", 1, 0))
    assert (signals.approvals, signals.denials) == (2, 1)


event_strategy = st.builds(
    lambda resolution, overseers, latency, target: approval(
        target,
        resolution=resolution,
        overseers=overseers,
        decision_latency_ms=None if resolution == "unresolved" else latency,
    ),
    st.sampled_from(["approved", "denied", "unresolved"]),
    st.lists(st.sampled_from(["alice", "Alice ", "bob", "\uff42\uff4f\uff42"]), max_size=3),
    st.one_of(st.none(), st.floats(0, 3000)),
    st.sampled_from([None, "a", "b"]),
)


@given(st.lists(event_strategy, max_size=10), st.integers(0, 10))
def test_merged_partial_signals_equal_the_signals_of_the_whole(events, cut) -> None:  # type: ignore[no-untyped-def]
    whole = signals_of(events, PARAMS)
    parts = [signals_of(events[:cut], PARAMS), signals_of(events[cut:], PARAMS)]
    assert reduce(merge_signals, parts, empty_signals()) == whole
    assert merge_signals(parts[1], parts[0]) == whole
    assert whole.resolved_gates + whole.unresolved == len(events)


def test_one_event_gives_one_count_per_signal_it_meets() -> None:
    signals = event_signals(approval(overseers=["a", "b"], decision_latency_ms=10), PARAMS)
    assert (signals.resolved_gates, signals.approvals, signals.four_eyes, signals.fast_approvals) == (1, 1, 1, 1)


def test_a_resolved_question_adds_no_per_tool_tally() -> None:
    signals = signals_of([question(), approval(resolution="answered")], PARAMS)
    assert signals.resolved_gates == 2
    assert signals.by_target_tool == ()


def test_an_empty_target_tool_name_sorts_after_null_and_before_every_named_tool() -> None:
    events = [approval("B"), approval(""), approval(None, resolution="denied")]
    assert signals_of(events, PARAMS).by_target_tool == ((None, 0, 1), ("", 1, 0), ("B", 1, 0))


@pytest.mark.parametrize(
    ("opened_at", "resolved_at", "latency"),
    [
        ("2026-01-01T00:00:01Z", "2026-01-01T00:00:01Z", 0.0),
        ("2026-01-01T00:00:01Z", "2026-01-01T00:00:01.0005Z", 0.5),
        ("2026-01-01T00:00:01Z", "2026-01-01T00:00:00Z", None),
    ],
)
def test_timestamp_latency_is_known_from_zero_up_and_unknown_when_time_runs_backwards(
    opened_at: str, resolved_at: str, latency: float | None
) -> None:
    assert latency_ms(approval(opened_at=opened_at, resolved_at=resolved_at)) == latency


@pytest.mark.parametrize(
    ("opened_at", "resolved_at"),
    [("2026-01-01T00:00:00", "2026-01-01T00:00:01Z"), ("2026-01-01T00:00:00Z", "2026-01-01T00:00:01")],
)
def test_a_timestamp_without_an_offset_names_no_instant_so_the_latency_is_unknown(
    opened_at: str, resolved_at: str
) -> None:
    assert timestamp_latency(opened_at, resolved_at) is None


@pytest.mark.parametrize(
    ("latency", "index"),
    [(0, 0), (249.999, 0), (250, 1), (999.5, 2), (1000, 3), (86_399_999, 11), (86_400_000, 12), (10**30, 12)],
)
def test_a_latency_falls_in_the_bin_whose_lower_edge_it_reaches(latency: float, index: int) -> None:
    assert latency_bin(latency) == index
    assert LATENCY_EDGES_MS[index] <= latency


def test_only_approved_approval_requests_are_binned_and_unknown_ones_are_counted_beside() -> None:
    events = [
        approval(decision_latency_ms=300),
        approval(decision_latency_ms=300),
        approval(),  # approved, latency unknown
        approval(resolution="denied", decision_latency_ms=300),
        question().model_copy(update={"decision_latency_ms": 300}),
        approval(resolution="unresolved"),
    ]
    signals = signals_of(events, PARAMS)
    assert signals.approval_latency_bins == (0, 2, *([0] * (len(LATENCY_EDGES_MS) - 2)))
    assert signals.approval_latency_unknown == 1
    assert sum(signals.approval_latency_bins) + signals.approval_latency_unknown == 3


def test_no_known_approval_latency_is_no_histogram_not_a_histogram_of_zeros() -> None:
    assert signals_of([approval(), question()], PARAMS).approval_latency_bins == ()


def test_unresolved_approval_requests_are_tallied_per_tool_and_unresolved_questions_are_not() -> None:
    events = [
        approval("delete", resolution="unresolved"),
        approval(None, resolution="unresolved"),
        approval("delete", resolution="unresolved"),
        question().model_copy(update={"resolution": "unresolved"}),
        approval("delete"),
    ]
    signals = signals_of(events, PARAMS)
    assert signals.unresolved_by_target_tool == ((None, 1), ("delete", 2))
    assert signals.by_target_tool == (("delete", 1, 0),)
    assert signals.unresolved == 4


# --- an observed upper bound on an unknown latency (contract 1.1.0) --------------------------------


def test_an_upper_bound_below_the_floor_proves_a_fast_approval_and_the_latency_is_not_unavailable() -> None:
    surfaced = "Refund 40 € to Zoë?"
    limit = floor_for(surfaced)
    signals = signals_of([approval(surfaced=surfaced, decision_latency_upper_bound_ms=limit - 0.5)], PARAMS)
    assert (signals.fast_approvals, signals.fast_approvals_by_bound, signals.latency_unavailable) == (1, 1, 0)
    # the histogram holds observed latencies only: a bounded one is not placed in a bin
    assert (signals.approval_latency_unknown, signals.approval_latency_bins) == (1, ())


def test_an_upper_bound_at_or_above_the_floor_proves_nothing_and_the_latency_stays_unknown() -> None:
    surfaced = "Refund 40 € to Zoë?"
    for bound in (floor_for(surfaced), floor_for(surfaced) + 1, 10**9):
        signals = signals_of([approval(surfaced=surfaced, decision_latency_upper_bound_ms=bound)], PARAMS)
        assert (signals.fast_approvals, signals.fast_approvals_by_bound, signals.latency_unavailable) == (0, 0, 1)


def test_a_bounded_denial_is_never_a_fast_approval_and_its_latency_stays_unknown() -> None:
    signals = signals_of([approval(resolution="denied", decision_latency_upper_bound_ms=1)], PARAMS)
    assert (signals.fast_approvals, signals.fast_approvals_by_bound, signals.latency_unavailable) == (0, 0, 1)


def test_a_known_latency_wins_over_the_bound() -> None:
    # the latency (1,200 ms) is not fast; the bound alone would have proven it fast: the latency decides
    event = approval(surfaced="", decision_latency_ms=1200, decision_latency_upper_bound_ms=1500)
    slow = signals_of([event], SignalParams(floor_ms=1100, ms_per_char=0))
    assert (slow.fast_approvals, slow.fast_approvals_by_bound, slow.latency_unavailable) == (0, 0, 0)
    event = approval(surfaced="", decision_latency_ms=10, decision_latency_upper_bound_ms=20)
    fast = signals_of([event], PARAMS)
    assert (fast.fast_approvals, fast.fast_approvals_by_bound, fast.approval_latency_bins[0]) == (1, 0, 1)


def test_the_bound_is_compared_with_the_floor_of_its_own_surfaced_text() -> None:
    long_text = "x" * 100  # floor 1,800 ms
    assert signals_of([approval(surfaced=long_text, decision_latency_upper_bound_ms=1799)], PARAMS).fast_approvals == 1
    assert signals_of([approval(surfaced="", decision_latency_upper_bound_ms=1799)], PARAMS).fast_approvals == 0
