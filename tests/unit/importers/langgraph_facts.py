"""Hand-made checkpoint-store facts for the LangGraph mapping's unit tests: threads built value by value, as
the store readers hand them over (``ThreadRows``, ``SavedState``), with no langgraph and no database."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from evalscore.importers.langgraph._decode import Named
from evalscore.importers.langgraph._store import CheckpointRow, SavedState, ThreadRows, WriteRow

T0 = "2026-03-01T09:00:00+00:00"


def ai(message_id: str, *calls: tuple[str, str, Any], content: Any = "", model: str | None = None) -> Named:
    metadata = {"model_name": model} if model is not None else {}
    tool_calls = [{"id": call_id, "name": name, "args": args, "type": "tool_call"} for call_id, name, args in calls]
    fields = {"content": content, "id": message_id, "tool_calls": tool_calls, "response_metadata": metadata}
    return Named("langchain_core.messages.ai", "AIMessage", fields)


def tool(message_id: str, call_id: str, content: Any, *, status: str = "success", marker: str | None = None) -> Named:
    extra: dict[str, Any] = {}
    if marker is not None:
        extra = {"lc_source": "hitl_interrupt_decision", "lc_data": {"decision": marker}}
    fields = {
        "content": content,
        "id": message_id,
        "tool_call_id": call_id,
        "status": status,
        "additional_kwargs": extra,
    }
    return Named("langchain_core.messages.tool", "ToolMessage", fields)


def human(message_id: str, content: str = "please") -> Named:
    return Named("langchain_core.messages.human", "HumanMessage", {"content": content, "id": message_id})


def interrupt(value: Any) -> Named:
    return Named("langgraph.types", "Interrupt", {"value": value, "id": "interrupt-1"})


def request(*actions: tuple[str, Any], descriptions: bool = True) -> dict[str, Any]:
    listed = [
        {"name": name, "args": args, **({"description": f"Review {name} {args}"} if descriptions else {})}
        for name, args in actions
    ]
    return {"action_requests": listed, "review_configs": []}


def per_call(call_id: str, name: str, args: Any) -> dict[str, Any]:
    return {"type": "tool_approval", "tool_call_id": call_id, "name": name, "args": args, "description": f"? {name}"}


@dataclass
class Checkpoint:
    checkpoint_id: str
    ms: float
    """Milliseconds after ``T0`` (its ts)."""
    messages: list[Any]
    parent: str | None = None
    source: str = "loop"
    writes: list[tuple[str, str, Any]] = field(default_factory=list)
    """(task id, channel, value), in order."""
    ts: Any = None
    """A ts to store instead of the one ``ms`` gives."""
    resumed: Any = None
    """``versions_seen["__interrupt__"]``: what langgraph writes when a run resumes the graph."""


def ts_at(ms: float) -> str:
    seconds, fraction = divmod(round(ms * 1000), 1_000_000)
    minutes, seconds = divmod(seconds, 60)
    return f"2026-03-01T09:{minutes:02d}:{seconds:02d}.{fraction:06d}+00:00"


class FakeStore:
    kind = "fake"

    def __init__(self, checkpoints: list[Checkpoint]) -> None:
        self.checkpoints = checkpoints
        self.reads = 0
        self.thread_id = "t"

    def saved_state(self, thread_id: str, checkpoint_id: str) -> SavedState:
        assert thread_id == self.thread_id, "the state of another thread was asked for"
        self.reads += 1
        found = next(c for c in self.checkpoints if c.checkpoint_id == checkpoint_id)
        return SavedState(found.ts if found.ts is not None else ts_at(found.ms), found.messages, found.resumed)

    def rows(self, thread_id: str = "t", subgraph: int = 0) -> ThreadRows:
        self.thread_id = thread_id
        ordered = sorted(self.checkpoints, key=lambda c: c.checkpoint_id)
        return ThreadRows(
            thread_id,
            [CheckpointRow(c.checkpoint_id, c.parent, {"source": c.source, "user_id": "u-1"}) for c in ordered],
            [
                WriteRow(c.checkpoint_id, task, f"path-{task}", index, channel, value)
                for c in ordered
                for index, (task, channel, value) in enumerate(c.writes)
            ],
            subgraph,
        )


def chain(*checkpoints: Checkpoint) -> list[Checkpoint]:
    """Checkpoints linked each to the one before (unless a parent is given)."""
    for before, after in pairwise(checkpoints):
        if after.parent is None:
            after.parent = before.checkpoint_id
    return list(checkpoints)


def paused_thread(answer: Any, results: list[Any], *, calls: tuple[tuple[str, str, Any], ...] | None = None,
                  value: Any = None, resumed: bool = True) -> FakeStore:  # fmt: skip
    """A batched review of one turn: c1 (prompt), c2 (the turn, paused), c3 (after the resume) and c4 (done)."""
    turn_calls = calls if calls is not None else (("call-1", "refund", {"order": "A1"}),)
    turn = ai("m-ai", *turn_calls)
    base = [human("m-h"), turn]
    pause_value = value if value is not None else request(*[(name, args) for _, name, args in turn_calls])
    writes: list[tuple[str, str, Any]] = [("task-h", "__interrupt__", [interrupt(pause_value)])]
    if answer is not None:
        writes.append(("task-h", "__resume__", [answer]))
    checkpoints = [Checkpoint("c1", 0, [human("m-h")]), Checkpoint("c2", 10, base, writes=writes)]
    if resumed:
        checkpoints += [
            Checkpoint("c3", 510, [*base, *results]),
            Checkpoint("c4", 600, [*base, *results, ai("m-end", content="done")]),
        ]
    return FakeStore(chain(*checkpoints))
