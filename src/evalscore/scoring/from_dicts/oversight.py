"""Oversight signals counted over checked gate-event dicts, one run at a time (``scoring.signals``).

One ``Signals`` per run, built once from plain counters instead of one per event summed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evalscore.scoring.from_dicts import defaults
from evalscore.scoring.signals import (
    LATENCY_EDGES_MS,
    SignalParams,
    Signals,
    distinct_overseers,
    latency_bin,
    normalize_overseer,
    timestamp_latency,
    tool_order,
)


def latency_of(event: Mapping[str, Any]) -> float | None:
    """``signals.latency_ms``: the recorded latency, else the difference of both timestamps, else unknown."""
    recorded = event.get("decision_latency_ms")
    if recorded is not None:
        return recorded  # type: ignore[no-any-return]
    opened = event.get("opened_at")
    resolved = event.get("resolved_at")
    if opened is None or resolved is None:
        return None
    return timestamp_latency(opened, resolved)


def persons_among(overseers: Sequence[str]) -> int:
    """``signals.distinct_overseers``, without making a set for the one overseer most events name."""
    if len(overseers) == 1:
        return 1 if normalize_overseer(overseers[0]) else 0
    return distinct_overseers(overseers)


class SignalCounter:
    """The signals of a run's gate events, added one event at a time."""

    __slots__ = (
        "approval_latency_unknown",
        "approvals",
        "bins",
        "by_tool",
        "decided_requests",
        "denials",
        "denied_requests",
        "fast_approvals",
        "fast_approvals_by_bound",
        "four_eyes",
        "latency_unavailable",
        "params",
        "resolved_gates",
        "unresolved",
        "unresolved_by_tool",
        "without_overseer",
    )

    def __init__(self, params: SignalParams) -> None:
        self.params = params
        self.resolved_gates = 0
        self.approvals = 0
        self.denials = 0
        self.unresolved = 0
        self.without_overseer = 0
        self.four_eyes = 0
        self.latency_unavailable = 0
        self.fast_approvals = 0
        self.fast_approvals_by_bound = 0
        self.decided_requests = 0
        self.denied_requests = 0
        self.approval_latency_unknown = 0
        self.by_tool: dict[str | None, list[int]] = {}
        self.unresolved_by_tool: dict[str | None, int] = {}
        self.bins: list[int] = []

    def add(self, event: Mapping[str, Any]) -> None:
        resolution = event["resolution"]
        is_request = event["kind"] == "approval_request"
        if resolution == "unresolved":
            self.unresolved += 1
            if is_request:
                tool = event["target_tool"]
                self.unresolved_by_tool[tool] = self.unresolved_by_tool.get(tool, 0) + 1
            return
        self.resolved_gates += 1
        persons = persons_among(event.get("overseers", defaults.OVERSEERS))
        self.without_overseer += persons == 0
        self.four_eyes += persons >= 2
        approved = resolution == "approved"
        denied = resolution == "denied"
        self.approvals += approved
        self.denials += denied
        latency = latency_of(event)
        if is_request and (approved or denied):
            self.add_decision(event["target_tool"], approved)
        if latency is not None:
            if is_request and approved:
                self.add_known_latency(latency, event["surfaced"])
            return
        by_bound = is_request and approved and self.fast_by_bound(event)
        self.fast_approvals += by_bound
        self.fast_approvals_by_bound += by_bound
        self.latency_unavailable += not by_bound
        self.approval_latency_unknown += is_request and approved

    def add_decision(self, tool: str | None, approved: bool) -> None:
        self.decided_requests += 1
        self.denied_requests += not approved
        tally = self.by_tool.get(tool)
        if tally is None:
            tally = self.by_tool[tool] = [0, 0]
        tally[0 if approved else 1] += 1

    def reading_floor(self, surfaced: str) -> float:
        return self.params.floor_ms + self.params.ms_per_char * len(surfaced)

    def add_known_latency(self, latency: float, surfaced: str) -> None:
        """An approved approval request whose latency is known: binned, and fast below the reading floor."""
        self.fast_approvals += latency < self.reading_floor(surfaced)
        if not self.bins:
            self.bins = [0] * len(LATENCY_EDGES_MS)
        self.bins[latency_bin(latency)] += 1

    def fast_by_bound(self, event: Mapping[str, Any]) -> bool:
        """An observed upper bound on the unknown latency below the reading floor (``signals.is_fast_by_bound``)."""
        bound = event.get("decision_latency_upper_bound_ms")
        return bound is not None and bound < self.reading_floor(event["surfaced"])

    def total(self) -> Signals:
        return Signals(
            resolved_gates=self.resolved_gates,
            approvals=self.approvals,
            denials=self.denials,
            unresolved=self.unresolved,
            without_overseer=self.without_overseer,
            four_eyes=self.four_eyes,
            latency_unavailable=self.latency_unavailable,
            fast_approvals=self.fast_approvals,
            fast_approvals_by_bound=self.fast_approvals_by_bound,
            decided_requests=self.decided_requests,
            denied_requests=self.denied_requests,
            approval_latency_unknown=self.approval_latency_unknown,
            by_target_tool=tuple(
                (tool, self.by_tool[tool][0], self.by_tool[tool][1]) for tool in sorted(self.by_tool, key=tool_order)
            ),
            unresolved_by_target_tool=tuple(
                (tool, self.unresolved_by_tool[tool]) for tool in sorted(self.unresolved_by_tool, key=tool_order)
            ),
            approval_latency_bins=tuple(self.bins),
        )
