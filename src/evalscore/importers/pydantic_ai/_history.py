"""One persisted Pydantic AI message history, read into the facts the mapping uses.

A history is what ``ModelMessagesTypeAdapter.dump_json(result.all_messages())`` writes: a JSON array
of messages, each ``{"kind": "request" | "response", "parts": [...], "timestamp": ..., "run_id": ...,
"state": ...}``. The parts read here are the model's tool calls (``tool-call``, ``builtin-tool-call``),
their returns (``tool-return``, ``builtin-tool-return``, and the ``retry-prompt`` of older versions),
the model's text, and the user prompts that open a run. Every other part kind is passed over:
Pydantic AI adds kinds between versions, and none of them records a call, a return or a decision.
What a part must hold to be read honestly (a call id, a tool name, a known outcome, a return after
its call) is checked, and a history that breaks it is refused with the JSON Pointer of the part.
Everything kept is linear in the history's size.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Literal

from evalscore.findings import pointer_of
from evalscore.instants import parse_instant

Outcome = Literal["success", "failed", "denied", "interrupted", "retried"]
OUTCOMES: Final[tuple[Outcome, ...]] = ("success", "failed", "denied", "interrupted", "retried")
CALL_KINDS: Final = frozenset({"tool-call", "builtin-tool-call"})
RETURN_KINDS: Final = frozenset({"tool-return", "builtin-tool-return"})
LEGACY_RETRY: Final = "retry-prompt"
SYNTHESIZED: Final = "pydantic_ai_synthesized_tool_return"
"""The metadata key pydantic-ai sets on a return it made up for a call it abandoned (``repair_messages``)."""


class HistoryShapeError(ValueError):
    """The history breaks what the mapping relies on; ``pointer`` says where, inside the history."""

    def __init__(self, pointer: str, reason: str) -> None:
        super().__init__(f"{pointer or '/'}: {reason}")
        self.pointer = pointer
        self.reason = reason


@dataclass(frozen=True, slots=True)
class ToolCallRecord:
    """A call the model asked for (``History.calls`` keeps them in the model's order)."""

    call_id: str
    tool: str
    args: Any
    tool_kind: str | None
    message: int
    """The index of the response that made the call."""
    run_id: str | None
    complete: bool
    """False when the response's ``state`` says it was interrupted: its calls were never handled."""


@dataclass(frozen=True, slots=True)
class ToolReturnRecord:
    """What the history holds in answer to a call: its content and outcome (None when not recorded)."""

    tool: str
    content: Any
    outcome: Outcome | None
    synthesized: bool
    position: tuple[int, int]
    """(message index, part index): where the answer sits, which is the order calls ran in."""
    run_id: str | None
    pointer: str


@dataclass(frozen=True, slots=True)
class MessageRecord:
    run_id: str | None
    is_response: bool
    opens_with_prompt: bool
    """A request holding a user prompt: the application started a run with a new prompt."""
    answers: int
    """How many returns it holds that the framework did not make up."""


@dataclass(slots=True)
class History:
    """The facts of one history that the mapping reads, in the order the history gives them."""

    calls: list[ToolCallRecord] = field(default_factory=list)
    returns: dict[str, ToolReturnRecord] = field(default_factory=dict)
    messages: list[MessageRecord] = field(default_factory=list)
    timestamps: list[tuple[datetime, str]] = field(default_factory=list)
    conversation_ids: dict[str, None] = field(default_factory=dict)
    """Ordered sets (a dict's keys keep their order; a lookup is O(1))."""
    run_ids: dict[str, None] = field(default_factory=dict)
    models: dict[str, None] = field(default_factory=dict)
    call_ids: set[str] = field(default_factory=set)
    interrupted_runs: set[str] = field(default_factory=set)
    """Runs one of whose messages says it was interrupted (a cancelled stream, a crash): they did not pause."""
    synthesized: int = 0
    """How many returns the framework made up for calls it abandoned."""
    final_text: str = ""
    """The text parts of the last response, joined."""
    last_response: int | None = None
    """The index of the last response."""


def read_history(value: object) -> History:
    """The facts of ``value``, a persisted history; raises ``HistoryShapeError`` naming the offending part."""
    if not isinstance(value, list):
        raise HistoryShapeError("", f"a history is a JSON array of messages, not {_kind(value)}")
    history = History()
    for index, message in enumerate(value):
        _read_message(message, index, history)
    return history


def _read_message(message: object, index: int, history: History) -> None:
    path: tuple[str | int, ...] = (index,)
    if not isinstance(message, Mapping):
        raise HistoryShapeError(pointer_of(path), f"a message is a JSON object, not {_kind(message)}")
    kind = message.get("kind")
    if kind not in ("request", "response"):
        raise HistoryShapeError(pointer_of((*path, "kind")), f"a message's kind is request or response, not {kind!r}")
    parts = message.get("parts")
    if not isinstance(parts, list):
        raise HistoryShapeError(pointer_of((*path, "parts")), f"a message's parts are an array, not {_kind(parts)}")
    run_id = _optional_text(message, "run_id", path)
    state = _optional_text(message, "state", path)
    _note(history.run_ids, run_id)
    _note(history.conversation_ids, _optional_text(message, "conversation_id", path))
    _timestamp(message, path, history)
    complete = state in (None, "complete")
    if not complete and run_id is not None:
        history.interrupted_runs.add(run_id)
    context = _Context(index, run_id, complete=complete)
    prompt = False
    answers_before = len(history.returns) - history.synthesized
    if kind == "response":
        _note(history.models, _optional_text(message, "model_name", path))
        texts: list[str] = []
        history.last_response = index
        for part_index, part in enumerate(parts):
            context.part = part_index
            _read_response_part(part, (*path, "parts", part_index), context, history, texts)
        history.final_text = "".join(texts)
    else:
        for part_index, part in enumerate(parts):
            context.part = part_index
            prompt = _read_request_part(part, (*path, "parts", part_index), context, history) or prompt
    answers = len(history.returns) - history.synthesized - answers_before
    history.messages.append(MessageRecord(run_id, kind == "response", prompt, answers))


@dataclass(slots=True)
class _Context:
    """Where a part sits: its message, that message's run, whether the response was complete, its index."""

    message: int
    run_id: str | None
    complete: bool
    part: int = 0


def _read_response_part(
    part: object, path: tuple[str | int, ...], context: _Context, history: History, texts: list[str]
) -> None:
    part_kind = _part_kind(part, path)
    assert isinstance(part, Mapping)
    if part_kind == "text":
        content = part.get("content")
        if not isinstance(content, str):
            reason = f"a text part's content is text, not {_kind(content)}"
            raise HistoryShapeError(pointer_of((*path, "content")), reason)
        texts.append(content)
    elif part_kind in CALL_KINDS:
        call_id = _required_text(part, "tool_call_id", path)
        if call_id in history.call_ids:
            raise HistoryShapeError(pointer_of((*path, "tool_call_id")), f"tool call id {call_id!r} is used twice")
        tool = _required_text(part, "tool_name", path)
        tool_kind = _optional_text(part, "tool_kind", path)
        history.calls.append(
            ToolCallRecord(
                call_id, tool, part.get("args"), tool_kind, context.message, context.run_id, context.complete
            )
        )
        history.call_ids.add(call_id)
    elif part_kind in RETURN_KINDS:  # a provider's built-in tool answers in the response itself
        _read_return(part, path, context, history, legacy=False)
    _timestamp(part, path, history)


def _read_request_part(part: object, path: tuple[str | int, ...], context: _Context, history: History) -> bool:
    """Reads one part of a request; True when it is a user prompt."""
    part_kind = _part_kind(part, path)
    assert isinstance(part, Mapping)
    legacy = part_kind == LEGACY_RETRY and part.get("tool_name") is not None
    if part_kind in RETURN_KINDS or legacy:
        _read_return(part, path, context, history, legacy=legacy)
    _timestamp(part, path, history)
    return part_kind == "user-prompt"


def _read_return(
    part: Mapping[str, Any], path: tuple[str | int, ...], context: _Context, history: History, *, legacy: bool
) -> None:
    call_id = _required_text(part, "tool_call_id", path)
    tool = _required_text(part, "tool_name", path)
    outcome = _outcome("retried" if legacy else part.get("outcome"), path)
    if call_id in history.returns:
        raise HistoryShapeError(pointer_of(path), f"a second return for tool call {call_id!r}")
    if call_id not in history.call_ids:
        raise HistoryShapeError(pointer_of(path), f"returns for tool call {call_id!r}, which no earlier response made")
    metadata = part.get("metadata")
    synthesized = isinstance(metadata, Mapping) and metadata.get(SYNTHESIZED) is True
    history.synthesized += synthesized
    history.returns[call_id] = ToolReturnRecord(
        tool,
        part.get("content"),
        outcome,
        synthesized,
        (context.message, context.part),
        context.run_id,
        pointer_of(path),
    )


def _outcome(value: object, path: tuple[str | int, ...]) -> Outcome | None:
    if value is None:
        return None  # older versions record none
    for outcome in OUTCOMES:
        if value == outcome:
            return outcome
    known = ", ".join(OUTCOMES)
    raise HistoryShapeError(pointer_of((*path, "outcome")), f"unknown tool outcome {value!r} (known: {known})")


def _part_kind(part: object, path: tuple[str | int, ...]) -> str:
    if not isinstance(part, Mapping):
        raise HistoryShapeError(pointer_of(path), f"a message part is a JSON object, not {_kind(part)}")
    part_kind = part.get("part_kind")
    if not isinstance(part_kind, str):
        raise HistoryShapeError(pointer_of((*path, "part_kind")), f"a part's part_kind is text, not {_kind(part_kind)}")
    return part_kind


def _timestamp(holder: Mapping[str, Any], path: tuple[str | int, ...], history: History) -> None:
    value = holder.get("timestamp")
    if value is None:
        return
    where = pointer_of((*path, "timestamp"))
    if not isinstance(value, str):
        raise HistoryShapeError(where, f"a timestamp is text, not {_kind(value)}")
    try:
        instant = parse_instant(value)
    except ValueError:
        instant = None
    if instant is None:
        raise HistoryShapeError(where, f"the timestamp {value!r} is not RFC 3339 with a UTC offset")
    history.timestamps.append((instant, value))


def _required_text(part: Mapping[str, Any], key: str, path: tuple[str | int, ...]) -> str:
    value = part.get(key)
    if not isinstance(value, str) or not value:
        found = "an empty text" if value == "" else _kind(value)
        raise HistoryShapeError(pointer_of((*path, key)), f"{key} is a non-empty text, not {found}")
    return value


def _optional_text(holder: Mapping[str, Any], key: str, path: tuple[str | int, ...]) -> str | None:
    value = holder.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise HistoryShapeError(pointer_of((*path, key)), f"{key} is text or null, not {_kind(value)}")
    return value


def _note(seen: dict[str, None], value: str | None) -> None:
    if value is not None:
        seen.setdefault(value)


def _kind(value: object) -> str:
    """What a JSON value is, in the words of a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a text"
    return "an array" if isinstance(value, list) else "an object"
