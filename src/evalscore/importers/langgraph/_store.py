"""What a checkpoint store holds for one thread, whichever database it is kept in.

A store reader (``_sqlite``, ``_postgres``) lists the threads and, per thread, its checkpoints (ids,
parent links, metadata), the state a checkpoint saved (its ``ts`` and messages) and the writes
recorded against its checkpoints. Everything is read in the root graph's namespace (``''``);
checkpoints of subgraphs are only counted.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

ROOT_NAMESPACE = ""
READ_CHANNELS = frozenset({"__interrupt__", "__resume__", "messages"})
"""The write channels the mapping reads; others are never decoded."""


@dataclass(frozen=True, slots=True)
class CheckpointRow:
    checkpoint_id: str
    parent_id: str | None
    metadata: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SavedState:
    ts: Any
    """The checkpoint's ``ts`` as stored (a string when langgraph wrote it)."""
    messages: Any
    """The ``messages`` channel's value (a list when langgraph wrote it), None when the checkpoint has none."""
    resumed_at: Any = None
    """``versions_seen["__interrupt__"]``: the channel versions langgraph records each time a run resumes a
    paused graph (with ``invoke(None)`` or a ``Command``); it changes on the first checkpoint after a resume."""


def resume_marker(checkpoint: Any) -> dict[str, Any] | None:
    """``versions_seen["__interrupt__"]`` of a decoded checkpoint, None when it has none.

    langgraph writes a map of channel names to versions (text or numbers). Anything else refuses the
    thread: markers are compared checkpoint to checkpoint, and a value nested a thousand deep would
    make that comparison fail instead of answer."""
    seen = checkpoint.get("versions_seen") if isinstance(checkpoint, dict) else None
    marker = seen.get("__interrupt__") if isinstance(seen, dict) else None
    if marker is None:
        return None
    if not isinstance(marker, dict) or not all(
        isinstance(channel, str) and isinstance(version, str | int | float) for channel, version in marker.items()
    ):
        raise ThreadValueError('versions_seen["__interrupt__"] is not a map of channel names to versions')
    return marker


@dataclass(frozen=True, slots=True)
class WriteRow:
    checkpoint_id: str
    task_id: str
    task_path: str
    index: int
    channel: str
    value: Any
    """Decoded for the channels in ``READ_CHANNELS``; None for every other channel."""


@dataclass(frozen=True, slots=True)
class ThreadRows:
    thread_id: str
    checkpoints: list[CheckpointRow]
    """The root namespace's checkpoints, in id order."""
    writes: list[WriteRow]
    """The root namespace's writes, by checkpoint, task path, task id and index."""
    subgraph_checkpoints: int


class CheckpointStore(Protocol):
    """A store opened read-only; ``StoreReadError`` for what cannot be read, ``StoredValueError`` for a value."""

    kind: str

    def thread_ids(self) -> list[str]: ...

    def thread(self, thread_id: str) -> ThreadRows: ...

    def saved_state(self, thread_id: str, checkpoint_id: str) -> SavedState: ...

    def close(self) -> None: ...


class StoreReadError(Exception):
    """The store cannot be opened or read (not a checkpoint store, corrupt, refused): exit 2."""


class ThreadValueError(Exception):
    """A stored value of one thread that cannot be read as langgraph writes it: the thread is refused (exit 3)."""


def threads_in_order(store: CheckpointStore, wanted: tuple[str, ...]) -> Iterator[str]:
    """The threads to import: all, in id order, or those named (in the order named, each once)."""
    present = store.thread_ids()
    if not wanted:
        yield from present
        return
    known = set(present)
    for thread_id in dict.fromkeys(wanted):
        if thread_id not in known:
            raise StoreReadError(f"the store holds no thread {thread_id!r}")
        yield thread_id
