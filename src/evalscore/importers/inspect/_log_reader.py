"""The shape every Inspect log reader has: the eval header, then the samples one by one."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal, Protocol

LogFormat = Literal["eval", "json"]


class InspectLogReader(Protocol):
    """An open Inspect log. ``header`` is the log without its samples; ``samples`` streams them."""

    log_format: LogFormat
    superseded_members: Mapping[str, int]
    """Member names a later entry of the same name supersedes, with how many entries were skipped (``.eval`` only)."""

    def header(self) -> dict[str, Any]:
        """``version``, ``status``, ``eval``, ``plan``, ``results``, ``stats``... as the log has them."""
        ...

    def samples(self) -> Iterator[dict[str, Any]]:
        """Each sample as a JSON object, in the order the log stores them."""
        ...

    def close(self) -> None:
        """Release the file."""
        ...
