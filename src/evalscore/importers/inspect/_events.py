"""The parts of a sample's event stream the mapping reads: tool and approval events, in order.

Two details of Inspect's storage are undone here. Long strings in tool
events are pooled as ``attachment://<hash>`` references into the sample's
``attachments``; they are resolved. Logs from older Inspect versions nest
events inside a tool event's ``events``; those are spliced in just before the
tool event that holds them, which is where they happened.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

ATTACHMENT_PROTOCOL: Final = "attachment://"


@dataclass(frozen=True, slots=True)
class Positioned:
    """An event with its position in the flattened stream."""

    position: int
    event: Mapping[str, Any]


def flatten_events(events: object) -> Iterator[Mapping[str, Any]]:
    """Every event in stream order, nested tool sub-events spliced before their tool event."""
    if not isinstance(events, list):
        return
    for event in events:
        if not isinstance(event, Mapping):
            continue
        nested = event.get("events")
        if event.get("event") == "tool" and isinstance(nested, list):
            yield from flatten_events(nested)
        yield event


def tool_and_approval_events(events: object) -> list[Positioned]:
    """The tool and approval events, with their positions in the flattened stream."""
    return [
        Positioned(position, event)
        for position, event in enumerate(flatten_events(events))
        if event.get("event") in ("tool", "approval")
    ]


def resolve_attachments(value: Any, attachments: Mapping[str, Any]) -> Any:
    """``value`` with every ``attachment://`` reference the sample can resolve replaced by its content."""
    if isinstance(value, str):
        if value.startswith(ATTACHMENT_PROTOCOL):
            content = attachments.get(value[len(ATTACHMENT_PROTOCOL) :])
            if isinstance(content, str):
                return content
        return value
    if isinstance(value, list):
        return [resolve_attachments(item, attachments) for item in value]
    if isinstance(value, dict):
        return {key: resolve_attachments(item, attachments) for key, item in value.items()}
    return value
