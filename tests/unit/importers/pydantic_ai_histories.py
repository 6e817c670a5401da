"""Real Pydantic AI runs, offline: a scripted model drives an agent with an approval-requiring refund
tool and a free lookup tool; the application approves, denies, overrides and leaves a call pending,
and saves each history exactly as users save it (``ModelMessagesTypeAdapter.dump_json``)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from pydantic import BaseModel
from pydantic_ai import (
    Agent,
    ApprovalRequired,
    DeferredToolRequests,
    DeferredToolResults,
    RunContext,
    ToolApproved,
    ToolDenied,
)
from pydantic_ai.agent import AgentRunResult
from pydantic_ai.capabilities import HandleDeferredToolCalls
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelResponse,
    TextPart,
    ToolCallPart,
    repair_messages,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel

CONVERSATION: Final = "refund-ticket-7"
DENIAL: Final = "not eligible: the order was never delivered"
OVERRIDDEN_AMOUNT: Final = 15.0


@dataclass
class Ledger:
    """What the tools really did, to compare with what the history says."""

    refunds: list[tuple[str, float]] = field(default_factory=list)
    lookups: list[str] = field(default_factory=list)


def _script(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    """The model: a lookup and three refunds, then a fourth refund, then its answer (by turns so far)."""
    turns = sum(isinstance(message, ModelResponse) for message in messages)
    if turns == 0:
        return ModelResponse(
            parts=[
                TextPart("Looking up the order, then refunding."),
                ToolCallPart("lookup", {"order_id": "A1"}, tool_call_id="call-lookup-a1"),
                ToolCallPart("refund", {"order_id": "A1", "amount": 10.0}, tool_call_id="call-refund-a1"),
                ToolCallPart("refund", {"order_id": "A2", "amount": 20.0}, tool_call_id="call-refund-a2"),
                ToolCallPart("refund", '{"order_id": "A3", "amount": 30.0}', tool_call_id="call-refund-a3"),
            ]
        )
    if turns == 1:
        return ModelResponse(
            parts=[ToolCallPart("refund", {"order_id": "A4", "amount": 40.0}, tool_call_id="call-refund-a4")]
        )
    return ModelResponse(parts=[TextPart("Refunds A1 and A3 issued; A2 and A4 were not.")])


def refund_agent(ledger: Ledger) -> Agent[None, str | DeferredToolRequests]:
    agent: Agent[None, str | DeferredToolRequests] = Agent(
        FunctionModel(_script, model_name="scripted-refunds"),
        output_type=[str, DeferredToolRequests],  # type: ignore[arg-type]  # pydantic-ai's union output spec
        instructions="You are a refunds assistant.",
    )

    @agent.tool_plain
    def lookup(order_id: str) -> dict[str, object]:
        ledger.lookups.append(order_id)
        return {"order_id": order_id, "status": "delivered", "total": 99.5}

    @agent.tool(requires_approval=True)
    def refund(ctx: RunContext[None], order_id: str, amount: float) -> str:
        ledger.refunds.append((order_id, amount))
        return f"Refunded {amount:.2f} on {order_id}"

    return agent


@dataclass(frozen=True)
class SavedHistories:
    """The files an application saved, and what its tools really did."""

    paused: Path
    """After the first run: the lookup ran, three refunds await approval."""
    resumed: Path
    """After the application approved A1, denied A2, overrode A3's amount: the model asked for A4, pending."""
    finished: Path
    """After the application denied A4 too (with False) and the model answered."""
    ledger: Ledger


def _run(agent: Agent[None, Any], *args: Any, **kwargs: Any) -> AgentRunResult[Any]:
    """``agent.run`` on an event loop of its own, closed after: ``run_sync`` leaves the loop it creates
    open, and its sockets would be reported unclosed (an error under this suite's warning filter)."""
    return asyncio.run(agent.run(*args, **kwargs))


def save(messages: list[ModelMessage], path: Path) -> Path:
    path.write_bytes(ModelMessagesTypeAdapter.dump_json(messages))
    return path


def make_histories(directory: Path, conversation: str = CONVERSATION) -> SavedHistories:
    """The three histories of one conversation, saved under ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    ledger = Ledger()
    agent = refund_agent(ledger)
    first = _run(agent, "Refund orders A1, A2 and A3 for customer 7.", conversation_id=conversation)
    assert isinstance(first.output, DeferredToolRequests)
    paused = save(first.all_messages(), directory / "paused.json")
    decisions = DeferredToolResults(
        approvals={
            "call-refund-a1": True,
            "call-refund-a2": ToolDenied(DENIAL),
            "call-refund-a3": ToolApproved(override_args={"order_id": "A3", "amount": OVERRIDDEN_AMOUNT}),
        }
    )
    second = _run(agent, message_history=first.all_messages(), deferred_tool_results=decisions)
    assert isinstance(second.output, DeferredToolRequests)
    assert [call.tool_call_id for call in second.output.approvals] == ["call-refund-a4"]
    resumed = save(second.all_messages(), directory / "resumed.json")
    denied_too = DeferredToolResults(approvals={"call-refund-a4": False})
    third = _run(agent, message_history=second.all_messages(), deferred_tool_results=denied_too)
    assert isinstance(third.output, str)
    finished = save(third.all_messages(), directory / "finished.json")
    return SavedHistories(paused, resumed, finished, ledger)


def _one_refund_then_done(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    if not any(isinstance(message, ModelResponse) for message in messages):
        return ModelResponse(parts=[ToolCallPart("refund", {"order_id": "B1", "amount": 5.0}, tool_call_id="call-b1")])
    return ModelResponse(parts=[TextPart("done")])


def decided_inside_the_run(directory: Path) -> Path:
    """A ``HandleDeferredToolCalls`` handler approves every call within the run: a program, no pause."""
    agent: Agent[None, str] = Agent(
        FunctionModel(_one_refund_then_done, model_name="scripted"),
        capabilities=[HandleDeferredToolCalls(handler=lambda ctx, requests: requests.build_results(approve_all=True))],
    )

    @agent.tool(requires_approval=True)
    def refund(ctx: RunContext[None], order_id: str, amount: float) -> str:
        return f"Refunded {amount:.2f} on {order_id}"

    return save(_run(agent, "Refund B1.").all_messages(), directory / "decided-inside.json")


def approval_only_above_a_limit(directory: Path) -> Path:
    """The tool asks for approval only above 100: a 5.0 refund runs with no approval asked."""
    agent: Agent[None, str | DeferredToolRequests] = Agent(
        FunctionModel(_one_refund_then_done, model_name="scripted"),
        output_type=[str, DeferredToolRequests],  # type: ignore[arg-type]
    )

    @agent.tool
    def refund(ctx: RunContext[None], order_id: str, amount: float) -> str:
        if amount > 100 and not ctx.tool_call_approved:
            raise ApprovalRequired
        return f"Refunded {amount:.2f} on {order_id}"

    return save(_run(agent, "Refund B1.").all_messages(), directory / "conditional.json")


class Answer(BaseModel):
    text: str


def _answer_beside_a_refund(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    output = info.output_tools[0].name
    return ModelResponse(
        parts=[
            ToolCallPart(output, {"text": "Refunded."}, tool_call_id="call-output"),
            ToolCallPart("refund", {"order_id": "C1", "amount": 500.0}, tool_call_id="call-c1"),
        ]
    )


def final_result_beside_a_refund(directory: Path, ledger: Ledger) -> Path:
    """Structured output: the model gives its answer and asks for a refund in one response; the run ends
    on the answer (the default end strategy) and the refund is never executed nor put to approval."""
    agent: Agent[None, Answer | DeferredToolRequests] = Agent(
        FunctionModel(_answer_beside_a_refund, model_name="scripted"),
        output_type=[Answer, DeferredToolRequests],  # type: ignore[arg-type]
    )

    @agent.tool(requires_approval=True)
    def refund(ctx: RunContext[None], order_id: str, amount: float) -> str:
        ledger.refunds.append((order_id, amount))
        return "refunded"

    result = _run(agent, "Refund C1.")
    assert isinstance(result.output, Answer)
    return save(result.all_messages(), directory / "final-result.json")


def moved_on_with_a_new_prompt(directory: Path) -> Path:
    """Paused on a refund, the application abandons it (``repair_messages``) and asks something else."""
    agent: Agent[None, str | DeferredToolRequests] = Agent(
        FunctionModel(_one_refund_then_done, model_name="scripted"),
        output_type=[str, DeferredToolRequests],  # type: ignore[arg-type]
    )

    @agent.tool(requires_approval=True)
    def refund(ctx: RunContext[None], order_id: str, amount: float) -> str:
        return "refunded"

    paused = _run(agent, "Refund B1.")
    assert isinstance(paused.output, DeferredToolRequests)
    later = _run(agent, "Never mind; what are your hours?", message_history=repair_messages(paused.all_messages()))
    return save(later.all_messages(), directory / "moved-on.json")
