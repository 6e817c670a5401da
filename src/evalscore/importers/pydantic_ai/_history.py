"""One persisted Pydantic AI message history, read into the facts the mapping uses.

A history is what ``ModelMessagesTypeAdapter.dump_json(result.all_messages())`` writes: a JSON array
of messages, each ``{"kind": "request" | "response", "parts": [...], "timestamp": ..., ...}``. The
parts read here are the model's tool calls (``tool-call``, ``builtin-tool-call``), their returns
(``tool-return``, ``builtin-tool-return``, and the ``retry-prompt`` of older versions) and the
model's text. Every other part kind is passed over: Pydantic AI adds kinds between versions, and
none of them records a call, a return or a decision. What a part must hold to be read honestly
(a call id, a tool name, a known outcome) is checked, and a history that breaks it is refused with
the JSON Pointer of the part.
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


@dataclass(frozen=True, slots=True)
class ToolReturnRecord:
    """What the history holds in answer to a call: its content and outcome (None when not recorded)."""

    tool: str
    content: Any
    outcome: Outcome | None
    pointer: str


@dataclass(slots=True)
class History:
    """The facts of one history that the mapping reads, in the order the history gives them."""

    calls: list[ToolCallRecord] = field(default_factory=list)
    returns: dict[str, ToolReturnRecord] = field(default_factory=dict)
    timestamps: list[tuple[datetime, str]] = field(default_factory=list)
    conversation_ids: list[str] = field(default_factory=list)
    run_ids: list[str] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    final_text: str = ""
    messages: int = 0


def read_history(value: object) -> History:
    """The facts of ``value``, a persisted history; raises ``HistoryShapeError`` naming the offending part."""
    if not isinstance(value, list):
        raise HistoryShapeError("", f"a history is a JSON array of messages, not {_kind(value)}")
    history = History()
    seen_calls: set[str] = set()
    for index, message in enumerate(value):
        _read_message(message, (index,), history, seen_calls)
    history.messages = len(value)
    for call_id, returned in history.returns.items():
        if call_id not in seen_calls:
            raise HistoryShapeError(returned.pointer, f"returns for tool call {call_id!r}, which no response made")
    return history


def _read_message(message: object, path: tuple[str | int, ...], history: History, seen_calls: set[str]) -> None:
    if not isinstance(message, Mapping):
        raise HistoryShapeError(pointer_of(path), f"a message is a JSON object, not {_kind(message)}")
    kind = message.get("kind")
    if kind not in ("request", "response"):
        raise HistoryShapeError(pointer_of((*path, "kind")), f"a message's kind is request or response, not {kind!r}")
    parts = message.get("parts")
    if not isinstance(parts, list):
        raise HistoryShapeError(pointer_of((*path, "parts")), f"a message's parts are an array, not {_kind(parts)}")
    _note(history.run_ids, _optional_text(message, "run_id", path))
    _note(history.conversation_ids, _optional_text(message, "conversation_id", path))
    _timestamp(message, path, history)
    if kind == "response":
        _note(history.models, _optional_text(message, "model_name", path))
        texts: list[str] = []
        for index, part in enumerate(parts):
            _read_response_part(part, (*path, "parts", index), history, seen_calls, texts)
        history.final_text = "".join(texts)
    else:
        for index, part in enumerate(parts):
            _read_request_part(part, (*path, "parts", index), history)


def _read_response_part(
    part: object,
    path: tuple[str | int, ...],
    history: History,
    seen_calls: set[str],
    texts: list[str],
) -> None:
    part_kind = _part_kind(part, path)
    assert isinstance(part, Mapping)
    if part_kind == "text":
        content = part.get("content")
        if not isinstance(content, str):
            raise HistoryShapeError(
                pointer_of((*path, "content")), f"a text part's content is text, not {_kind(content)}"
            )
        texts.append(content)
    elif part_kind in CALL_KINDS:
        call_id = _required_text(part, "tool_call_id", path)
        if call_id in seen_calls:
            raise HistoryShapeError(pointer_of((*path, "tool_call_id")), f"tool call id {call_id!r} is used twice")
        seen_calls.add(call_id)
        history.calls.append(ToolCallRecord(call_id, _required_text(part, "tool_name", path), part.get("args")))
    elif part_kind in RETURN_KINDS:  # a provider's built-in tool answers in the response itself
        _read_return(part, path, history, part_kind)


def _read_request_part(part: object, path: tuple[str | int, ...], history: History) -> None:
    part_kind = _part_kind(part, path)
    assert isinstance(part, Mapping)
    if part_kind in RETURN_KINDS or (part_kind == LEGACY_RETRY and part.get("tool_name") is not None):
        _read_return(part, path, history, part_kind)
    _part_timestamp(part, path, history)


def _read_return(part: Mapping[str, Any], path: tuple[str | int, ...], history: History, part_kind: str) -> None:
    call_id = _required_text(part, "tool_call_id", path)
    tool = _required_text(part, "tool_name", path)
    outcome = _outcome("retried" if part_kind == LEGACY_RETRY else part.get("outcome"), path)
    if call_id in history.returns:
        raise HistoryShapeError(pointer_of(path), f"a second return for tool call {call_id!r}")
    history.returns[call_id] = ToolReturnRecord(tool, part.get("content"), outcome, pointer_of(path))


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


def _part_timestamp(part: Mapping[str, Any], path: tuple[str | int, ...], history: History) -> None:
    _timestamp(part, path, history)


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


def _note(seen: list[str], value: str | None) -> None:
    if value is not None and value not in seen:
        seen.append(value)


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
