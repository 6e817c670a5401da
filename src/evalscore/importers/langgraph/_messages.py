"""LangChain messages as a checkpoint stores them (``Named`` records), read as plain facts.

Only LangChain's own message classes are read; any other object where a message should be refuses
the thread, naming its type. A value a message carries (content, a call's args) must be plain data:
an object inside it (a datetime in a tool's args, say) is not turned into text by guesswork.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from evalscore.importers.langgraph._decode import DeltaSnapshot, Named
from evalscore.importers.langgraph._store import ThreadValueError

MESSAGE_CLASSES: Final = {
    ("langchain_core.messages.human", "HumanMessage"): "human",
    ("langchain_core.messages.ai", "AIMessage"): "ai",
    ("langchain_core.messages.ai", "AIMessageChunk"): "ai",
    ("langchain_core.messages.tool", "ToolMessage"): "tool",
    ("langchain_core.messages.system", "SystemMessage"): "system",
    ("langchain_core.messages.chat", "ChatMessage"): "chat",
}
MAX_PLAIN_DEPTH: Final = 100
"""Deeper than this, a value carried into a Run could not be written within evalscore's own nesting limit."""
HITL_MARKER: Final = "hitl_interrupt_decision"
"""``additional_kwargs["lc_source"]`` of the message HumanInTheLoopMiddleware writes in place of a tool's result."""


@dataclass(frozen=True, slots=True)
class CallRequest:
    call_id: str
    tool: str
    args: Any


@dataclass(frozen=True, slots=True)
class Message:
    kind: str
    message_id: str | None
    content: Any
    calls: tuple[CallRequest, ...] = ()
    """An AI message's tool calls, in the order the model made them."""
    answers: str | None = None
    """A tool message's ``tool_call_id``."""
    status: str | None = None
    marker: str | None = None
    """The decision a HITL marker names (``lc_data.decision``), "" for a marker without one, None without a marker."""
    model: str | None = None


def read_messages(value: Any, where: str) -> list[Message]:
    """The ``messages`` channel's value as messages; raises ``ThreadValueError`` for anything else."""
    if isinstance(value, DeltaSnapshot):
        value = value.value
    if value is None:
        return []
    if not isinstance(value, list):
        raise ThreadValueError(f"{where}: the messages channel holds {_type_name(value)}, not a list of messages")
    return [_message(item, f"{where}, message {index}") for index, item in enumerate(value)]


def _message(item: Any, where: str) -> Message:
    if not isinstance(item, Named):
        raise ThreadValueError(f"{where} is {_type_name(item)}, not a LangChain message")
    kind = MESSAGE_CLASSES.get((item.module, item.name))
    if kind is None or not isinstance(item.arguments, dict):
        raise ThreadValueError(f"{where} is of type {item.qualified}, which this importer does not read")
    fields = item.arguments
    plain(fields.get("content"), f"{where}: content")
    extra = fields.get("additional_kwargs")
    marker = None
    if isinstance(extra, dict) and extra.get("lc_source") == HITL_MARKER:
        data = extra.get("lc_data")
        decision = data.get("decision") if isinstance(data, dict) else None
        marker = decision if isinstance(decision, str) else ""
    metadata = fields.get("response_metadata")
    model = metadata.get("model_name") if isinstance(metadata, dict) else None
    return Message(
        kind=kind,
        message_id=_optional_text(fields.get("id")),
        content=fields.get("content"),
        calls=_calls(fields.get("tool_calls"), where) if kind == "ai" else (),
        answers=_optional_text(fields.get("tool_call_id")) if kind == "tool" else None,
        status=_optional_text(fields.get("status")) if kind == "tool" else None,
        marker=marker,
        model=model if isinstance(model, str) and model else None,
    )


def _calls(value: Any, where: str) -> tuple[CallRequest, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise ThreadValueError(f"{where}: tool_calls is {_type_name(value)}, not a list")
    calls = []
    for index, call in enumerate(value):
        if not (isinstance(call, dict) and isinstance(call.get("id"), str) and isinstance(call.get("name"), str)):
            raise ThreadValueError(f"{where}: tool call {index} has no string id and name")
        plain(call.get("args"), f"{where}: tool call {call['id']} args")
        calls.append(CallRequest(call["id"], call["name"], call.get("args")))
    return tuple(calls)


def plain(value: Any, where: str) -> None:
    """Refuse a value that is not plain JSON data (null, booleans, numbers, text, arrays, maps with text keys) or
    that nests deeper than ``MAX_PLAIN_DEPTH``: an object (a ``Named``, msgpack's Timestamp), bytes."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_PLAIN_DEPTH:
            raise ThreadValueError(f"{where} nests deeper than {MAX_PLAIN_DEPTH} arrays and maps")
        if isinstance(item, dict):
            for key in item:
                if not isinstance(key, str):
                    raise ThreadValueError(f"{where} has a map key that is not a string ({_type_name(key)})")
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif not (item is None or isinstance(item, bool | int | float | str)):
            raise ThreadValueError(f"{where} holds {_type_name(item)}, which JSON cannot carry as it was stored")


def text_of(content: Any) -> str:
    """A message's text: its string content, or its text blocks joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [block["text"] for block in content if isinstance(block, dict) and isinstance(block.get("text"), str)]
        return "".join(texts)
    return ""


def _optional_text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _type_name(value: Any) -> str:
    if isinstance(value, Named):
        return f"an object of type {value.qualified}"
    return f"a {type(value).__name__}"
