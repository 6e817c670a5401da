"""Real LangGraph runs, offline: ``create_agent`` with ``HumanInTheLoopMiddleware``, a scripted chat model,
real pauses and resumes, saved by langgraph's own ``SqliteSaver``. Loaded by the ``langgraph_store`` fixture.

Each thread's script is the model's turns and the answer given at each pause. Every thread's calls are of
``refund`` (gated), ``lookup`` (free) and ``ask_customer`` (gated, answered by ``respond``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AnyMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.types import Command, interrupt


class ScriptedModel(GenericFakeChatModel):
    """The model's turns, in order; tools are bound by ``create_agent`` and ignored here."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedModel:
        return self


@tool
def refund(order: str, amount: int) -> str:
    """Refund an order."""
    return f"refunded {order} {amount}"


@tool
def lookup(order: str) -> str:
    """Look up an order."""
    return f"order {order}: ok"


@tool
def ask_customer(question: str) -> str:
    """Ask the customer a question."""
    return "the tool itself never answers"


def calls(*specs: tuple[str, str, dict[str, Any]]) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": n, "args": a, "id": i, "type": "tool_call"} for i, n, a in specs])


@dataclass(frozen=True)
class Thread:
    thread_id: str
    turns: Sequence[AIMessage]
    answers: Sequence[Any]
    """Per resume: batched, a list of decisions; per_call, a map from the call id to its decision (the order in
    which langgraph lists pending interrupts is not the calls' order); agent_inbox, a list of human responses."""
    mode: str = "batched"


def inbox_agent(turns: Sequence[AIMessage], saver: Any) -> Any:
    """A graph in the Agent Inbox convention: a review node asks about every call of the model's turn with one
    ``interrupt([HumanInterrupt, ...])`` and acts on each ``HumanResponse``, writing an ordinary tool message for
    every answer (accept and edit run the tool; response and ignore do not)."""
    model = ScriptedModel(messages=iter(turns))
    tools = {"refund": refund, "lookup": lookup, "ask_customer": ask_customer}

    def call_model(state: MessagesState) -> dict[str, list[AnyMessage]]:
        return {"messages": [model.invoke(state["messages"])]}

    def review(state: MessagesState) -> dict[str, list[AnyMessage]]:
        turn = state["messages"][-1]
        assert isinstance(turn, AIMessage)
        allowed = {"allow_accept": True, "allow_edit": True, "allow_respond": True, "allow_ignore": True}
        requests = [
            {"action_request": {"action": c["name"], "args": c["args"]}, "config": allowed, "description": c["name"]}
            for c in turn.tool_calls
        ]
        answers = interrupt(requests)
        results: list[AnyMessage] = []
        for call, answer in zip(turn.tool_calls, answers, strict=True):
            if answer["type"] == "accept":
                content = tools[call["name"]].invoke(call["args"])
            elif answer["type"] == "edit":
                content = tools[answer["args"]["action"]].invoke(answer["args"]["args"])
            elif answer["type"] == "response":
                content = answer["args"]
            else:
                content = "The reviewer ignored this call."
            results.append(ToolMessage(content=content, tool_call_id=call["id"], name=call["name"]))
        return {"messages": results}

    def route(state: MessagesState) -> str:
        last = state["messages"][-1]
        return "review" if isinstance(last, AIMessage) and last.tool_calls else END

    graph = StateGraph(MessagesState)
    graph.add_node("model", call_model)
    graph.add_node("review", review)
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", route, ["review", END])
    graph.add_edge("review", "model")
    return graph.compile(checkpointer=saver)


def run_thread(saver: Any, thread: Thread) -> None:
    if thread.mode == "static":  # interrupt_before the tools node: a pause with no request and no decision
        paused = create_agent(
            ScriptedModel(messages=iter(thread.turns)), tools=[refund], checkpointer=saver, interrupt_before=["tools"]
        )
        config: Any = {"configurable": {"thread_id": thread.thread_id}}
        paused.invoke({"messages": [{"role": "user", "content": "please help"}]}, config)
        for _ in thread.answers:
            paused.invoke(None, config)
        return
    if thread.mode == "agent_inbox":
        inbox = inbox_agent(thread.turns, saver)
        config = {"configurable": {"thread_id": thread.thread_id}}
        inbox.invoke({"messages": [{"role": "user", "content": "please help"}]}, config)
        for answer in thread.answers:
            inbox.invoke(Command(resume=answer), config)
        return
    agent = create_agent(
        ScriptedModel(messages=iter(thread.turns)),
        tools=[refund, lookup, ask_customer],
        middleware=[
            HumanInTheLoopMiddleware(
                interrupt_on={"refund": True, "ask_customer": True},
                interrupt_mode=thread.mode,  # type: ignore[arg-type]
            )
        ],
        checkpointer=saver,
    )
    config = {"configurable": {"thread_id": thread.thread_id}, "metadata": {"user_id": "operator-7"}}
    state = agent.invoke({"messages": [{"role": "user", "content": "please help"}]}, config)
    for answer in thread.answers:
        pending = state.get("__interrupt__") or []
        assert pending, f"{thread.thread_id}: no pause left to answer"
        if thread.mode == "batched":
            resume: Any = {"decisions": answer}
        else:
            by_call = {item.value["tool_call_id"]: item.id for item in pending}
            resume = {by_call[call_id]: decision for call_id, decision in answer.items() if call_id in by_call}
            assert len(resume) == len(answer), f"{thread.thread_id}: {sorted(answer)} are not all pending"
        state = agent.invoke(Command(resume=resume), config)


def make_store(path: Path, threads: Sequence[Thread]) -> Path:
    with SqliteSaver.from_conn_string(str(path)) as saver:
        for thread in threads:
            run_thread(saver, thread)
    return path


DONE = AIMessage(content="All done.")
REFUND_A = ("c-a", "refund", {"order": "A1", "amount": 5})
REFUND_B = ("c-b", "refund", {"order": "B2", "amount": 7})
LOOKUP = ("c-l", "lookup", {"order": "A1"})
ASK = ("c-q", "ask_customer", {"question": "Which card?"})

THREADS: tuple[Thread, ...] = (
    Thread("approve", [calls(REFUND_A), DONE], [[{"type": "approve"}]]),
    Thread("reject", [calls(REFUND_A), DONE], [[{"type": "reject", "message": "too much"}]]),
    Thread(
        "edit",
        [calls(REFUND_A), DONE],
        [[{"type": "edit", "edited_action": {"name": "refund", "args": {"order": "A1", "amount": 2}}}]],
    ),
    Thread("respond", [calls(ASK), DONE], [[{"type": "respond", "message": "The Visa card."}]]),
    Thread("pending", [calls(REFUND_A), DONE], []),
    Thread(
        "batch", [calls(REFUND_A, LOOKUP, REFUND_B), DONE], [[{"type": "approve"}, {"type": "reject", "message": "no"}]]
    ),
    Thread(
        "two-rounds",
        [calls(LOOKUP), calls(REFUND_A), calls(("c-b", "refund", {"order": "B2", "amount": 7})), DONE],
        [[{"type": "approve"}], [{"type": "approve"}]],
    ),
    Thread(
        "per-call",
        [calls(REFUND_A, LOOKUP, REFUND_B), DONE],
        [{"c-a": {"type": "approve"}}, {"c-b": {"type": "reject", "message": "no"}}],
        mode="per_call",
    ),
    Thread(
        "agent-inbox",
        [calls(REFUND_A, REFUND_B, ASK, LOOKUP), DONE],
        [
            [
                {"type": "accept", "args": None},
                {"type": "edit", "args": {"action": "refund", "args": {"order": "B2", "amount": 1}}},
                {"type": "response", "args": "The Visa card."},
                {"type": "ignore", "args": None},
            ]
        ],
        mode="agent_inbox",
    ),
    Thread("static-breakpoint", [calls(REFUND_A), DONE], [None], mode="static"),
)


def copy_to_postgres(sqlite_path: Path, url: str) -> None:
    """Every checkpoint and write of a SqliteSaver file put into a PostgresSaver store through langgraph's own
    API (``put``, ``put_writes``), so that one set of runs is kept by both savers, byte for byte the same facts."""
    with SqliteSaver.from_conn_string(str(sqlite_path)) as source, PostgresSaver.from_conn_string(url) as target:
        target.setup()
        for item in reversed(list(source.list(None))):
            configurable = item.config["configurable"]
            parent = item.parent_config["configurable"]["checkpoint_id"] if item.parent_config else None
            put_config: Any = {
                "configurable": {
                    "thread_id": configurable["thread_id"],
                    "checkpoint_ns": configurable["checkpoint_ns"],
                    **({"checkpoint_id": parent} if parent else {}),
                }
            }
            stored = target.put(put_config, item.checkpoint, item.metadata, item.checkpoint["channel_versions"])
            rows = source.conn.execute(
                "SELECT task_id, task_path, channel, type, value FROM writes WHERE thread_id = ? AND checkpoint_ns = ? "
                "AND checkpoint_id = ? ORDER BY task_id, idx",
                (configurable["thread_id"], configurable["checkpoint_ns"], configurable["checkpoint_id"]),
            ).fetchall()
            tasks: dict[tuple[str, str], list[tuple[str, Any]]] = {}
            for task_id, task_path, channel, kind, value in rows:
                tasks.setdefault((task_id, task_path), []).append((channel, source.serde.loads_typed((kind, value))))
            for (task_id, task_path), writes in tasks.items():
                target.put_writes(stored, writes, task_id, task_path)
