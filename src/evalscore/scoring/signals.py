"""Oversight signals over gate events (SPEC section 4): reported, never graded.

Counts only, so a ``Signals`` value merges exactly like the aggregate. There is
no combined score and no threshold on any signal; signals never change an
exit code. Unknown latency is counted in ``latency_unavailable`` and nowhere else.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Final

from evalscore.instants import milliseconds_between, parse_instant
from evalscore.models.run import GateEvent
from evalscore.visible_text import visible_key

ToolTally = tuple[tuple[str | None, int, int], ...]
"""``(target_tool, approved approval requests, denied approval requests)``, sorted by tool, null first."""


@dataclass(frozen=True, slots=True)
class SignalParams:
    """Fast-approval parameters: a decision faster than ``floor_ms + ms_per_char x len(surfaced)``."""

    floor_ms: float = 1000.0
    ms_per_char: float = 8.0


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
    decided_requests: int = 0
    """Approval requests that were approved or denied (the population of ``never_denied``)."""
    denied_requests: int = 0
    by_target_tool: ToolTally = ()

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
    values: dict[str, object] = {}
    for field in fields(Signals):
        name = field.name
        if name == "by_target_tool":
            values[name] = merge_tallies(left.by_target_tool, right.by_target_tool)
        else:
            values[name] = getattr(left, name) + getattr(right, name)
    return Signals(**values)  # type: ignore[arg-type]


_COUNTS: Final = tuple(field.name for field in fields(Signals) if field.name != "by_target_tool")
_count_values: Final = attrgetter(*_COUNTS)


class SignalSum:
    """Signals added up in place: adding costs the size of what is added, never of the sum so far
    (``merge_signals`` rebuilds and sorts the whole per-tool tally on every call)."""

    __slots__ = ("_counts", "_tools")

    def __init__(self) -> None:
        self._counts = dict.fromkeys(_COUNTS, 0)
        self._tools: dict[str | None, list[int]] = {}

    def add(self, signals: Signals) -> None:
        counts = self._counts
        for name, value in zip(_COUNTS, _count_values(signals), strict=True):
            if value:
                counts[name] += value
        for tool, approved, denied in signals.by_target_tool:
            totals = self._tools.setdefault(tool, [0, 0])
            totals[0] += approved
            totals[1] += denied

    def total(self) -> Signals:
        tally = tuple((tool, *self._tools[tool]) for tool in sorted(self._tools, key=_tool_order))
        return Signals(**self._counts, by_target_tool=tally)  # type: ignore[arg-type]


def _tool_order(tool: str | None) -> tuple[bool, str]:
    return (tool is not None, tool or "")


def merge_tallies(left: ToolTally, right: ToolTally) -> ToolTally:
    totals: dict[str | None, tuple[int, int]] = {}
    for tool, approved, denied in (*left, *right):
        before_approved, before_denied = totals.get(tool, (0, 0))
        totals[tool] = (before_approved + approved, before_denied + denied)
    return tuple((tool, *totals[tool]) for tool in sorted(totals, key=_tool_order))


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
    """An approved approval request with known latency strictly below the reading floor."""
    if not is_approved_request(event):
        return False
    latency = latency_ms(event)
    return latency is not None and latency < reading_floor_ms(event.surfaced, params)


def event_signals(event: GateEvent, params: SignalParams) -> Signals:
    """The signals of one gate event."""
    if not is_resolved(event):
        return Signals(unresolved=1)
    persons = distinct_overseers(event.overseers)
    approved = is_approved_request(event)
    denied = is_denied_request(event)
    decided = approved or denied
    return Signals(
        resolved_gates=1,
        approvals=int(event.resolution == "approved"),
        denials=int(event.resolution == "denied"),
        without_overseer=int(persons == 0),
        four_eyes=int(persons >= 2),
        latency_unavailable=int(latency_ms(event) is None),
        fast_approvals=int(is_fast_approval(event, params)),
        decided_requests=int(decided),
        denied_requests=int(denied),
        by_target_tool=((event.target_tool, int(approved), int(denied)),) if decided else (),
    )


def signals_of(events: Iterable[GateEvent], params: SignalParams) -> Signals:
    total = SignalSum()
    for event in events:
        total.add(event_signals(event, params))
    return total.total()
