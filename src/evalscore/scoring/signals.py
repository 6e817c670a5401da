"""Oversight signals over gate events (SPEC section 4): reported, never graded.

Counts only, so a ``Signals`` value merges exactly like the aggregate. There is
no combined score and no threshold on any signal; signals never change an
exit code. Unknown latency is counted in ``latency_unavailable`` and nowhere else, except where an
observed upper bound on it (``decision_latency_upper_bound_ms``) is below the reading floor: that
approval is proven fast, and counted in ``fast_approvals`` (and ``fast_approvals_by_bound``) instead.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import TYPE_CHECKING, Final

from evalscore.instants import milliseconds_between, parse_instant
from evalscore.pickled_as_fields import pickled_as_fields
from evalscore.visible_text import visible_key

if TYPE_CHECKING:
    from evalscore.models.run import GateEvent

ToolTally = tuple[tuple[str | None, int, int], ...]
"""``(target_tool, approved approval requests, denied approval requests)``, sorted by tool, null first."""
UnresolvedTally = tuple[tuple[str | None, int], ...]
"""``(target_tool, unresolved approval requests)``, sorted by tool, null first."""

LATENCY_EDGES_MS: Final = (
    0,
    250,
    500,
    1_000,
    2_000,
    5_000,
    10_000,
    30_000,
    60_000,
    300_000,
    900_000,
    3_600_000,
    86_400_000,
)
"""Lower edges of the bins of observed approval latencies (ms): bin i holds ``edges[i] <= latency < edges[i + 1]``,
the last bin everything from a day on. Fixed, so that histograms of parts add up to the whole's."""


@dataclass(frozen=True, slots=True)
class SignalParams:
    """Fast-approval parameters: a decision faster than ``floor_ms + ms_per_char x len(surfaced)``."""

    floor_ms: float = 1000.0
    ms_per_char: float = 8.0


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class Signals:
    """Counts over gate events; combine with ``merge_signals``."""

    resolved_gates: int = 0
    approvals: int = 0
    denials: int = 0
    unresolved: int = 0
    without_overseer: int = 0
    four_eyes: int = 0
    latency_unavailable: int = 0
    fast_approvals: int = 0
    fast_approvals_by_bound: int = 0
    """Of ``fast_approvals``, those proven by an observed upper bound on an unknown latency."""
    decided_requests: int = 0
    """Approval requests that were approved or denied (the population of ``never_denied``)."""
    denied_requests: int = 0
    approval_latency_unknown: int = 0
    """Approved approval requests whose latency is unknown (beside ``approval_latency_bins``, never in it)."""
    by_target_tool: ToolTally = ()
    unresolved_by_target_tool: UnresolvedTally = ()
    approval_latency_bins: tuple[int, ...] = ()
    """Approved approval requests with a known latency, per bin of ``LATENCY_EDGES_MS``; empty when there are none."""

    @property
    def never_denied(self) -> bool | None:
        return never_denied(self.decided_requests, self.denied_requests)


def never_denied(decided: int, denied: int) -> bool | None:
    """None when no approval request was approved or denied; else True iff none was denied."""
    if decided == 0:
        return None
    return denied == 0


def empty_signals() -> Signals:
    return Signals()


def merge_signals(left: Signals, right: Signals) -> Signals:
    total = SignalSum()
    total.add(left)
    total.add(right)
    return total.total()


_TALLIES: Final = frozenset({"by_target_tool", "unresolved_by_target_tool", "approval_latency_bins"})
_COUNTS: Final = tuple(field.name for field in fields(Signals) if field.name not in _TALLIES)
_count_values: Final = attrgetter(*_COUNTS)


class SignalSum:
    """Signals added up in place: adding costs the size of what is added, never of the sum so far
    (``merge_signals`` rebuilds and sorts the whole per-tool tally on every call)."""

    __slots__ = ("_bins", "_counts", "_tools", "_unresolved")

    def __init__(self) -> None:
        self._counts = dict.fromkeys(_COUNTS, 0)
        self._tools: dict[str | None, list[int]] = {}
        self._unresolved: dict[str | None, int] = {}
        self._bins: list[int] = []

    def add(self, signals: Signals) -> None:
        counts = self._counts
        for name, value in zip(_COUNTS, _count_values(signals), strict=True):
            if value:
                counts[name] += value
        for tool, approved, denied in signals.by_target_tool:
            totals = self._tools.setdefault(tool, [0, 0])
            totals[0] += approved
            totals[1] += denied
        for tool, unresolved in signals.unresolved_by_target_tool:
            self._unresolved[tool] = self._unresolved.get(tool, 0) + unresolved
        if signals.approval_latency_bins:
            if not self._bins:
                self._bins = [0] * len(LATENCY_EDGES_MS)
            for index, count in enumerate(signals.approval_latency_bins):
                self._bins[index] += count

    def total(self) -> Signals:
        tally: ToolTally = tuple(
            (tool, self._tools[tool][0], self._tools[tool][1]) for tool in sorted(self._tools, key=tool_order)
        )
        unresolved = tuple((tool, self._unresolved[tool]) for tool in sorted(self._unresolved, key=tool_order))
        return Signals(
            **self._counts,
            by_target_tool=tally,
            unresolved_by_target_tool=unresolved,
            approval_latency_bins=tuple(self._bins),
        )


def tool_order(tool: str | None) -> tuple[bool, str]:
    """Where ``tool`` comes in a per-tool list: the untargeted (None) first, then by name."""
    return (tool is not None, tool or "")


# --- one event -----------------------------------------------------------------------------


def normalize_overseer(overseer: str) -> str:
    """NFKC, without invisible characters, trimmed, case-folded: ``"alice"``, ``"Alice "`` and
    ``"alice\u200b"`` are one person, and an id of zero-width spaces is nobody."""
    return visible_key(overseer)


def distinct_overseers(overseers: Sequence[str]) -> int:
    """Distinct persons among the ids; an id that normalizes to empty is no person."""
    return len({normalized for normalized in map(normalize_overseer, overseers) if normalized})


def is_resolved(event: GateEvent) -> bool:
    return event.resolution != "unresolved"


def latency_ms(event: GateEvent) -> float | None:
    """``decision_latency_ms``, else ``resolved_at - opened_at`` when both are present, else unknown."""
    if event.decision_latency_ms is not None:
        return event.decision_latency_ms
    if event.opened_at is None or event.resolved_at is None:
        return None
    return timestamp_latency(event.opened_at, event.resolved_at)


def timestamp_latency(opened_at: str, resolved_at: str) -> float | None:
    """The difference of two timestamps; unknown when either names no instant or time runs backwards."""
    try:
        opened = parse_instant(opened_at)
        resolved = parse_instant(resolved_at)
    except ValueError:
        return None
    if opened is None or resolved is None:
        return None
    difference = milliseconds_between(opened, resolved)
    return difference if difference >= 0 else None


def reading_floor_ms(surfaced: str, params: SignalParams) -> float:
    """``floor_ms + ms_per_char x code points in surfaced``."""
    return params.floor_ms + params.ms_per_char * len(surfaced)


def is_approved_request(event: GateEvent) -> bool:
    return event.kind == "approval_request" and event.resolution == "approved"


def is_denied_request(event: GateEvent) -> bool:
    return event.kind == "approval_request" and event.resolution == "denied"


def is_fast_approval(event: GateEvent, params: SignalParams) -> bool:
    """An approved approval request with known latency strictly below the reading floor, or proven so by an
    upper bound on its unknown latency (``is_fast_by_bound``)."""
    if not is_approved_request(event):
        return False
    latency = latency_ms(event)
    if latency is None:
        return is_fast_by_bound(event, params)
    return latency < reading_floor_ms(event.surfaced, params)


def is_fast_by_bound(event: GateEvent, params: SignalParams) -> bool:
    """An approved approval request whose latency is unknown but bounded strictly below the reading floor: the
    decision is proven fast without its latency being known. Any other bound proves nothing."""
    bound = event.decision_latency_upper_bound_ms
    return (
        bound is not None
        and is_approved_request(event)
        and latency_ms(event) is None
        and bound < reading_floor_ms(event.surfaced, params)
    )


def latency_bin(latency: float) -> int:
    """The index of the bin of ``LATENCY_EDGES_MS`` that holds a (non-negative) latency."""
    return bisect.bisect_right(LATENCY_EDGES_MS, latency) - 1


def latency_bins(latency: float) -> tuple[int, ...]:
    """One approval of a known latency, as a histogram."""
    bins = [0] * len(LATENCY_EDGES_MS)
    bins[latency_bin(latency)] = 1
    return tuple(bins)


def event_signals(event: GateEvent, params: SignalParams) -> Signals:
    """The signals of one gate event."""
    if not is_resolved(event):
        waiting = ((event.target_tool, 1),) if event.kind == "approval_request" else ()
        return Signals(unresolved=1, unresolved_by_target_tool=waiting)
    persons = distinct_overseers(event.overseers)
    approved = is_approved_request(event)
    denied = is_denied_request(event)
    decided = approved or denied
    latency = latency_ms(event) if approved else None
    by_bound = is_fast_by_bound(event, params)
    return Signals(
        resolved_gates=1,
        approvals=int(event.resolution == "approved"),
        denials=int(event.resolution == "denied"),
        without_overseer=int(persons == 0),
        four_eyes=int(persons >= 2),
        latency_unavailable=int(latency_ms(event) is None and not by_bound),
        fast_approvals=int(is_fast_approval(event, params)),
        fast_approvals_by_bound=int(by_bound),
        decided_requests=int(decided),
        denied_requests=int(denied),
        by_target_tool=((event.target_tool, int(approved), int(denied)),) if decided else (),
        approval_latency_unknown=int(approved and latency is None),
        approval_latency_bins=latency_bins(latency) if latency is not None else (),
    )


def signals_of(events: Iterable[GateEvent], params: SignalParams) -> Signals:
    total = SignalSum()
    for event in events:
        total.add(event_signals(event, params))
    return total.total()
