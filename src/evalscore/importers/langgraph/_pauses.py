"""The pauses of one lineage: what each interrupt asked a reviewer, and what the resume writes answered.

HumanInTheLoopMiddleware stores one of two shapes on the channel ``__interrupt__`` of the paused
checkpoint, written by the task that paused:

- **batched** (the default): one ``HITLRequest`` per model turn, whose ``action_requests`` list the
  turn's gated calls in order, without their ids. They are matched to the turn's tool calls by
  position among the calls, each checked by name and args; a call a ``when`` predicate let through is
  not listed. Where an unlisted call has the name and args of a listed one, which of them was
  reviewed cannot be told, and the thread is refused.
- **per_call**: one ``ToolApprovalRequest`` per gated call, naming its ``tool_call_id``.
- **agent_inbox**: the older Agent Inbox convention (``HumanInterrupt``, still shipped in
  langgraph-prebuilt): a list of ``{action_request: {action, args}, config, description}`` without
  call ids, matched to the turn's calls as the batched shape is.

The answer is the interrupting task's own ``__resume__`` write: the values its ``interrupt()`` calls
consumed, in order (batched: ``{"decisions": [...]}``, one per listed call; per_call: one decision;
agent_inbox: a list of ``HumanResponse``, one per request: accept, edit, response or ignore).
Any other interrupt value, a decision type not listed in ``DECISIONS``, or an answer that does not
fit its request refuses the thread: nothing is guessed.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from evalscore.importers.langgraph._decode import Named
from evalscore.importers.langgraph._messages import CallRequest, Message, plain
from evalscore.importers.langgraph._store import ThreadValueError, WriteRow

DECISIONS: Final = frozenset({"approve", "edit", "reject", "respond"})
INBOX_RESPONSES: Final = {"accept": "approve", "edit": "edit", "response": "respond", "ignore": "ignore"}
"""An Agent Inbox answer and the decision it is: ``ignore`` leaves the call undecided (it did not run)."""
BATCHED: Final = "batched"
PER_CALL: Final = "per_call"
AGENT_INBOX: Final = "agent_inbox"


@dataclass(frozen=True, slots=True)
class Decision:
    kind: str
    """approve, edit, reject, respond, or ignore (an Agent Inbox answer that decides nothing)."""
    executed_tool: str | None = None
    """An edit's tool and args: what ran in place of the request."""
    executed_args: Any = None
    message: str | None = None


@dataclass(frozen=True, slots=True)
class Review:
    """One gated call of one pause and its decision (None: no answer is recorded)."""

    call: CallRequest
    position: int
    """The call's place among its turn's tool calls."""
    shape: str
    surfaced: str | None
    """The description the reviewer was shown, when the request holds one."""
    task_id: str
    decision: Decision | None


def reviews_of(checkpoint_id: str, writes: Sequence[WriteRow], turn: Message | None) -> list[Review]:
    """The reviews recorded at one checkpoint (none when nothing interrupted there), in the order of their calls."""
    interrupts = [write for write in writes if write.channel == "__interrupt__"]
    if not interrupts:
        return []
    resumes: dict[str, Any] = {write.task_id: write.value for write in writes if write.channel == "__resume__"}
    failed = {write.task_id for write in writes if write.channel == "__error__"}
    reviews: list[Review] = []
    where = f"checkpoint {checkpoint_id}"
    turn_index = _turn_index(turn)
    for write in interrupts:
        values = _interrupt_values(write, where)
        answers = resumes.get(write.task_id)
        if answers is not None and write.task_id in failed:
            raise ThreadValueError(
                f"{where}: task {write.task_id} failed after it was resumed (an __error__ write): whether its "
                "answer was applied is not recorded"
            )
        if answers is not None and not (isinstance(answers, list) and len(answers) == len(values)):
            raise ThreadValueError(
                f"{where}: task {write.task_id} consumed resume values that do not pair one to one with its "
                f"{len(values)} interrupt(s)"
            )
        for number, value in enumerate(values):
            answer = None if answers is None else answers[number]
            reviews.extend(_reviews_of_interrupt(value, answer, write.task_id, turn, turn_index, where))
    return sorted(reviews, key=lambda review: review.position)


def _interrupt_values(write: WriteRow, where: str) -> list[Any]:
    if not isinstance(write.value, list) or not write.value:
        raise ThreadValueError(f"{where}: the interrupt write of task {write.task_id} is not a list of interrupts")
    values = []
    for item in write.value:
        interrupt = isinstance(item, Named) and item.is_("langgraph.types", "Interrupt")
        if not (interrupt and isinstance(item.arguments, dict)):
            raise ThreadValueError(f"{where}: task {write.task_id} wrote an interrupt that is not langgraph's")
        values.append(item.arguments.get("value"))
    return values


@dataclass(frozen=True, slots=True)
class _TurnIndex:
    """The paused turn's calls looked up instead of searched for: a review costs the same whatever the turn's size."""

    by_id: dict[str, int]
    """Where each call id first sits among the turn's calls."""
    by_key: dict[Hashable, list[int]]
    """The positions of the calls of each ``match_key``, in order."""


def _turn_index(turn: Message | None) -> _TurnIndex:
    by_id: dict[str, int] = {}
    by_key: dict[Hashable, list[int]] = {}
    for position, call in enumerate(turn.calls if turn is not None else ()):
        by_id.setdefault(call.call_id, position)
        by_key.setdefault(match_key(call.tool, call.args), []).append(position)
    return _TurnIndex(by_id, by_key)


def _reviews_of_interrupt(
    value: Any, answer: Any, task_id: str, turn: Message | None, turn_index: _TurnIndex, where: str
) -> list[Review]:
    if isinstance(value, dict) and value.get("type") == "tool_approval":
        return [_per_call_review(value, answer, task_id, turn, turn_index, where)]
    if isinstance(value, dict) and isinstance(value.get("action_requests"), list):
        return _batched_reviews(value, answer, task_id, turn, turn_index, where)
    if isinstance(value, list) and value and all(isinstance(item, dict) and "action_request" in item for item in value):
        return _inbox_reviews(value, answer, task_id, turn, turn_index, where)
    raise ThreadValueError(
        f"{where}: an interrupt that is not a HumanInTheLoopMiddleware review request; which call it gated, "
        "if any, is not recorded"
    )


def _batched_reviews(
    value: dict[str, Any], answer: Any, task_id: str, turn: Message | None, turn_index: _TurnIndex, where: str
) -> list[Review]:
    calls = _turn_calls(turn, where)
    requests = value["action_requests"]
    listed = [_action(request, f"{where}: action request {index}") for index, request in enumerate(requests)]
    positions = _match_listed(listed, calls, turn_index, where)
    decisions = None
    if answer is not None:
        given = answer.get("decisions") if isinstance(answer, dict) else None
        if not isinstance(given, list) or len(given) != len(listed):
            raise ThreadValueError(
                f"{where}: the resume answers {_count(given)} decision(s) to a request for {len(listed)}"
            )
        decisions = [_decision(item, f"{where}: decision {index}") for index, item in enumerate(given)]
        _refuse_disallowed(listed, decisions, value.get("review_configs"), where)
    return _listed_reviews(calls, positions, listed, decisions, BATCHED, task_id)


def _turn_calls(turn: Message | None, where: str) -> tuple[CallRequest, ...]:
    """The calls of the model turn a listed review request (batched, Agent Inbox) is about."""
    if turn is None:
        raise ThreadValueError(f"{where}: a review request, but the paused state's last message is no model turn")
    return turn.calls


def _listed_reviews(
    calls: Sequence[CallRequest],
    positions: list[int],
    listed: list[tuple[str, Any, str | None]],
    decisions: Sequence[Decision] | None,
    shape: str,
    task_id: str,
) -> list[Review]:
    """One review per listed request, at the call it was matched to, with its decision (None: no answer)."""
    return [
        Review(
            calls[position], position, shape, listed[index][2], task_id, None if decisions is None else decisions[index]
        )
        for index, position in enumerate(positions)
    ]


def _refuse_disallowed(
    listed: list[tuple[str, Any, str | None]], decisions: list[Decision], configs: Any, where: str
) -> None:
    """A decision its tool's review config does not allow: HumanInTheLoopMiddleware raises on it, and nothing
    is applied (the resume write stays, answering nothing)."""
    allowed: dict[str, Any] = {}
    for config in configs if isinstance(configs, list) else ():
        if isinstance(config, dict) and isinstance(config.get("action_name"), str):
            allowed.setdefault(config["action_name"], config.get("allowed_decisions"))
    for index, decision in enumerate(decisions):  # one per listed call (checked by the caller)
        name = listed[index][0]
        permitted = allowed.get(name)
        if isinstance(permitted, list) and decision.kind not in permitted:
            raise ThreadValueError(
                f"{where}: the {decision.kind} decision on {name!r} is not one its review config allows "
                f"({', '.join(map(str, permitted))}): the middleware refuses it, so it was not applied"
            )


def _match_listed(
    listed: list[tuple[str, Any, str | None]], calls: Sequence[CallRequest], turn_index: _TurnIndex, where: str
) -> list[int]:
    """Where each listed request sits among the turn's calls: the first call after the one before it with its
    name and args (``match_key``); refuses an ambiguity: a call the request does not list with a listed name and args.
    Calls are found by their ``match_key``, never by walking the turn."""
    positions: list[int] = []
    start = 0
    keys = []
    for name, args, _ in listed:
        key = match_key(name, args)
        matching = turn_index.by_key.get(key, [])
        at = bisect.bisect_left(matching, start)
        if at == len(matching):
            raise ThreadValueError(f"{where}: the review request lists {name!r} with args the model turn does not hold")
        positions.append(matching[at])
        start = matching[at] + 1
        keys.append(key)
    reviewed = set(positions)
    unlisted = []
    for key in set(keys):  # a call with a listed key that the request did not list: the first of each key
        first = next((position for position in turn_index.by_key[key] if position not in reviewed), None)
        if first is not None:
            unlisted.append(first)
    if unlisted:
        raise ThreadValueError(
            f"{where}: tool call {calls[min(unlisted)].call_id} has the name and args of a reviewed call but was not "
            "listed; which of the identical calls was reviewed is not recorded"
        )
    return positions


def _inbox_reviews(
    requests: list[Any], answer: Any, task_id: str, turn: Message | None, turn_index: _TurnIndex, where: str
) -> list[Review]:
    calls = _turn_calls(turn, where)
    listed = [_inbox_action(request, f"{where}: human interrupt {index}") for index, request in enumerate(requests)]
    positions = _match_listed(listed, calls, turn_index, where)
    decisions = None
    if answer is not None:
        if not isinstance(answer, list) or len(answer) != len(listed):
            raise ThreadValueError(
                f"{where}: the resume answers {_count(answer)} human response(s) to {len(listed)} request(s)"
            )
        decisions = [_inbox_decision(item, f"{where}: human response {index}") for index, item in enumerate(answer)]
    return _listed_reviews(calls, positions, listed, decisions, AGENT_INBOX, task_id)


def _inbox_action(request: dict[str, Any], where: str) -> tuple[str, Any, str | None]:
    action = request.get("action_request")
    if not (isinstance(action, dict) and isinstance(action.get("action"), str)):
        raise ThreadValueError(f"{where} names no action")
    return action["action"], action.get("args"), _description(request)


def _inbox_decision(item: Any, where: str) -> Decision:
    kind = item.get("type") if isinstance(item, dict) else None
    if not isinstance(kind, str) or kind not in INBOX_RESPONSES:
        raise ThreadValueError(f"{where}: response type {kind!r} is not one of {', '.join(sorted(INBOX_RESPONSES))}")
    assert isinstance(item, dict)
    args = item.get("args")
    if kind == "edit":
        if not (isinstance(args, dict) and isinstance(args.get("action"), str) and isinstance(args.get("args"), dict)):
            raise ThreadValueError(f"{where}: an edit without an edited action (an action and args)")
        plain(args["args"], f"{where}: the edited args")
        return Decision("edit", executed_tool=args["action"], executed_args=args["args"])
    if kind == "response":
        if not isinstance(args, str):
            raise ThreadValueError(f"{where}: a response without its text")
        return Decision("respond", message=args)
    return Decision(INBOX_RESPONSES[kind])


def _per_call_review(
    value: dict[str, Any], answer: Any, task_id: str, turn: Message | None, turn_index: _TurnIndex, where: str
) -> Review:
    call_id = value.get("tool_call_id")
    calls = turn.calls if turn is not None else ()
    position = turn_index.by_id.get(call_id) if isinstance(call_id, str) else None  # call ids are text
    if position is None:
        raise ThreadValueError(f"{where}: a review of tool call {call_id!r}, which the paused model turn does not hold")
    call = calls[position]
    if match_key(value.get("name"), value.get("args")) != match_key(call.tool, call.args):
        raise ThreadValueError(f"{where}: the review of tool call {call_id} names another tool or other args")
    decision = None if answer is None else _decision(answer, f"{where}: decision on tool call {call_id}")
    return Review(call, position, PER_CALL, _description(value), task_id, decision)


def _action(request: Any, where: str) -> tuple[str, Any, str | None]:
    if not (isinstance(request, dict) and isinstance(request.get("name"), str)):
        raise ThreadValueError(f"{where} names no tool")
    return request["name"], request.get("args"), _description(request)


def _description(request: dict[str, Any]) -> str | None:
    description = request.get("description")
    return description if isinstance(description, str) else None


def _decision(item: Any, where: str) -> Decision:
    kind = item.get("type") if isinstance(item, dict) else None
    if not isinstance(kind, str) or kind not in DECISIONS:
        raise ThreadValueError(f"{where}: decision type {kind!r} is not one of {', '.join(sorted(DECISIONS))}")
    assert isinstance(item, dict)
    message = item.get("message")
    if message is not None and not isinstance(message, str):
        raise ThreadValueError(f"{where}: the message is not text")
    if kind == "respond" and message is None:
        raise ThreadValueError(f"{where}: a respond decision without its message")
    if kind != "edit":
        return Decision(kind, message=message)
    action = item.get("edited_action")
    if not (isinstance(action, dict) and isinstance(action.get("name"), str) and isinstance(action.get("args"), dict)):
        raise ThreadValueError(f"{where}: an edit without an edited action (a tool name and args)")
    plain(action["args"], f"{where}: the edited args")
    return Decision("edit", executed_tool=action["name"], executed_args=action["args"])


def same_call(one: CallRequest, other: CallRequest) -> bool:
    """The same call id, tool and args (``match_key``)."""
    return one.call_id == other.call_id and match_key(one.tool, one.args) == match_key(other.tool, other.args)


def match_key(name: Any, args: Any) -> Hashable:
    """A key two (tool name, args) share exactly when they are the same call: the same tool, and the same args
    value for value and type for type (``1``, ``1.0`` and ``true`` differ, ``-0.0`` is ``0.0``, maps in any
    order of their keys). What equals nothing (a NaN, a name or a map key that is not text, a value JSON
    cannot carry) gets a key of its own. The args are written out with each value's type, in key order."""
    if type(name) is not str:
        return object()
    parts = [f"{len(name)}:{name}"]
    pending: list[Any] = [args]
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind is _Written:
            parts.append(item.text)
        elif kind is dict:
            if any(type(key) is not str for key in item):
                return object()
            parts.append(f"{{{len(item)};")
            entries: list[Any] = []
            for key in sorted(item):
                entries += (_Written(f"{len(key)}:{key}"), item[key])
            pending.extend(reversed(entries))
        elif kind is list:
            parts.append(f"[{len(item)};")
            pending.extend(reversed(item))
        elif kind is str:
            parts.append(f"s{len(item)}:{item}")
        elif kind is int:
            parts.append(f"i{item:x};")  # hexadecimal: no limit on the digits of a huge integer
        elif kind is float:
            if math.isnan(item):
                return object()
            parts.append(f"d{item + 0.0!r};")
        elif kind is bool or item is None:
            parts.append(repr(item))
        else:
            return object()
    return tuple(parts)


@dataclass(frozen=True, slots=True)
class _Written:
    """A map key already written out, waiting its turn in ``match_key``."""

    text: str


def _count(value: Any) -> int:
    return len(value) if isinstance(value, list) else 0
