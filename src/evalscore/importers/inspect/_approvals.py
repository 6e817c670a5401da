"""Inspect approval events grouped into chains, one chain per tool call decision.

Inspect consults the approvers whose policy matches a tool call, in policy
order, and records one approval event per approver consulted, joined to the
call by its id. ``escalate`` passes the call to the next approver; any other
decision ends the chain. When every approver escalates, Inspect itself
records a ``policy`` rejection. A chain whose last event is an escalation was
cut short (the sample ended while it waited): it has no decision.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from evalscore.importers.inspect._errors import SampleMappingError
from evalscore.importers.inspect._events import Positioned

Resolution = Literal["approved", "denied", "unresolved"]

ESCALATE: Final = "escalate"
RESOLUTIONS: Final[Mapping[str, Resolution]] = {
    "approve": "approved",
    "modify": "approved",
    "reject": "denied",
    "terminate": "denied",
}
"""What a final decision means for the gate; ``escalate`` is never final."""
KNOWN_DECISIONS: Final = frozenset({*RESOLUTIONS, ESCALATE})
AUTOMATIC_APPROVERS: Final = frozenset({"auto", "policy"})
"""Inspect's built-in automatic approvers: never counted as a human, whatever the option says."""
DEFAULT_HUMAN_APPROVERS: Final = frozenset({"human"})
"""Inspect's built-in interactive approver."""


@dataclass(frozen=True, slots=True)
class Link:
    """One approval event: one approver's decision on one call."""

    approver: str
    decision: str
    timestamp: object
    position: int
    message: str
    view: Mapping[str, Any] | None


@dataclass(slots=True)
class Chain:
    """The approvers consulted for one tool call, in order."""

    call_id: str
    tool: str
    links: list[Link] = field(default_factory=list)

    @property
    def final(self) -> Link | None:
        """The deciding link; None when the chain ended in an escalation."""
        last = self.links[-1]
        return None if last.decision == ESCALATE else last

    @property
    def resolution(self) -> Resolution:
        final = self.final
        return "unresolved" if final is None else RESOLUTIONS[final.decision]

    @property
    def position(self) -> int:
        """Where the chain ended in the event stream (its decision, if any)."""
        return self.links[-1].position

    @property
    def lets_call_run(self) -> bool:
        return self.resolution == "approved"

    def consulted_any(self, approvers: frozenset[str]) -> bool:
        return any(link.approver in approvers for link in self.links)

    def as_json(self) -> list[dict[str, str]]:
        return [{"approver": link.approver, "decision": link.decision} for link in self.links]


def counted_as_human(requested: Iterable[str]) -> frozenset[str]:
    """The approver names that count as control returning to a person, minus Inspect's automatic ones."""
    return frozenset(requested) - AUTOMATIC_APPROVERS


def approval_chains(items: Sequence[Positioned]) -> list[Chain]:
    """Group approval events into chains, in the order the chains ended."""
    open_chains: dict[str, Chain] = {}
    chains: list[Chain] = []
    for item in items:
        if item.event.get("event") != "approval":
            continue
        link, call_id, tool = _link(item)
        chain = open_chains.get(call_id)
        if chain is None:
            chain = Chain(call_id=call_id, tool=tool)
            open_chains[call_id] = chain
            chains.append(chain)
        chain.links.append(link)
        if link.decision != ESCALATE:
            del open_chains[call_id]
    return sorted(chains, key=lambda chain: chain.position)


def _link(item: Positioned) -> tuple[Link, str, str]:
    event = item.event
    call = event.get("call")
    if not isinstance(call, Mapping):
        raise SampleMappingError(f"approval event at position {item.position} has no tool call")
    call_id, tool = call.get("id"), call.get("function")
    approver, decision = event.get("approver"), event.get("decision")
    if not isinstance(call_id, str) or not isinstance(tool, str):
        raise SampleMappingError(f"approval event at position {item.position} names no call id and function")
    if not isinstance(approver, str):
        raise SampleMappingError(f"approval event for call {call_id!r} names no approver")
    if decision not in KNOWN_DECISIONS:
        raise SampleMappingError(f"approval event for call {call_id!r} has an unknown decision {decision!r}")
    message = event.get("message")
    view = event.get("view")
    link = Link(
        approver=approver,
        decision=str(decision),
        timestamp=event.get("timestamp"),
        position=item.position,
        message=message if isinstance(message, str) else "",
        view=view if isinstance(view, Mapping) else None,
    )
    return link, call_id, tool
