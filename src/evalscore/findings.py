"""Findings: what validation says about one loaded artifact."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from evalscore.listing import MESSAGE_KEPT, kept_message
from evalscore.pickled_as_fields import pickled_as_fields

Layer = Literal["syntax", "contract", "coherence"]
Severity = Literal["error", "warning"]


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class Finding:
    """One problem with one artifact, located by source, line and JSON Pointer."""

    layer: Layer
    code: str
    severity: Severity
    pointer: str
    message: str
    source: str = ""
    line: int | None = None
    column: int | None = None
    """Where in the line the value (or the syntax error) starts, from 1; None when not computed."""

    def __post_init__(self) -> None:
        if len(self.message) > MESSAGE_KEPT:  # it quotes a whole value from the log
            object.__setattr__(self, "message", kept_message(self.message))

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


def escape_pointer_token(token: str | int) -> str:
    """Escape one reference token per RFC 6901 (``~`` before ``/``)."""
    return str(token).replace("~", "~0").replace("/", "~1")


def join_pointer(base: str, *tokens: str | int) -> str:
    """Append reference tokens to a JSON Pointer."""
    return base + "".join("/" + escape_pointer_token(token) for token in tokens)


JsonPath = tuple[str | int, ...]
"""A location as reference tokens; turned into a JSON Pointer only when a finding needs it."""


def pointer_of(path: JsonPath) -> str:
    return join_pointer("", *path)


def show_number(value: float) -> str:
    """A JSON number for a message: an int exactly (however large), a float compactly."""
    return str(value) if isinstance(value, int) else f"{value:g}"
