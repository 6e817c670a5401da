# ruff: noqa: PLC0415 - inspect_ai is imported lazily: without it the tests skip instead of failing to collect
"""Produce real Inspect AI logs, fully offline, for the importer's tests.

The logs come from the real ``inspect_ai`` package: model ``mockllm/model``
with scripted outputs (each with explicit token usage, so no tokenizer is
downloaded), three task tools, and an approval policy whose approvers are
scripted by the tool call's ``plan`` argument:

- ``triage`` (a custom automatic approver) sees ``delete_record`` first: it
  decides itself when the plan starts with ``triage:``, else escalates;
- ``human`` (a scripted stand-in registered under the built-in human
  approver's name, so the log reads exactly as one decided by a person) sees
  ``refund`` and ``delete_record``: it applies the decision after the last
  ``:`` of the plan (``modify`` halves the amount);
- the built-in ``auto`` approver approves ``lookup``.

Every scenario is one sample; ``SCENARIOS`` documents what each must show.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TASK_NAME = "refund_desk"
TASK_VERSION = 3
MOCK_MODEL = "mockllm/model"
LONG_ORDER = "D-4 " + "with a note long enough to be stored as an attachment " * 3


@dataclass(frozen=True)
class Call:
    """One scripted tool call of the agent."""

    tool: str
    args: dict[str, Any]
    call_id: str


@dataclass(frozen=True)
class Scenario:
    """One sample: the tool calls of each assistant turn, then a final answer."""

    sample_id: str
    turns: Sequence[Sequence[Call]]
    final: str


def _c(tool: str, call_id: str, **args: Any) -> Call:
    return Call(tool=tool, args=args, call_id=call_id)


SCENARIOS: tuple[Scenario, ...] = (
    # lookup auto-approved (no gate), then the human approves a refund
    Scenario(
        "approve",
        [[_c("lookup", "a1", order="A-1")], [_c("refund", "a2", amount=20, plan="human:approve")]],
        "Refunded 20.",
    ),
    # the human rejects the refund: it does not run; the agent looks up instead
    Scenario(
        "reject",
        [[_c("refund", "r1", amount=900, plan="human:reject")], [_c("lookup", "r2", order="B-2")]],
        "The refund was declined.",
    ),
    # the human modifies the amount: the modified call runs
    Scenario(
        "modify",
        [[_c("refund", "m1", amount=500, plan="human:modify")]],
        "Refunded a reduced amount.",
    ),
    # triage escalates to the human, who approves; triage alone approves another call;
    # both escalate, so the policy rejects
    Scenario(
        "escalate",
        [
            [_c("delete_record", "e1", record="R-1", plan="triage>human:approve")],
            [_c("delete_record", "e2", record="R-2", plan="triage:approve")],
            [_c("delete_record", "e3", record="R-3", plan="triage>human:escalate")],
        ],
        "Deleted R-1 and R-2.",
    ),
    # two calls in one turn: the first is approved, the second rejected
    Scenario(
        "parallel",
        [[_c("refund", "p1", amount=10, plan="human:approve"), _c("refund", "p2", amount=99, plan="human:reject")]],
        "One refund went through.",
    ),
    # the human terminates the sample at the refund
    Scenario(
        "terminate",
        [[_c("lookup", "t1", order="C-3")], [_c("refund", "t2", amount=5000, plan="human:terminate")]],
        "unreachable: the sample is terminated before this answer",
    ),
    # no gated tool at all; the long argument is pooled by Inspect as an attachment
    Scenario("quiet", [[_c("lookup", "q1", order=LONG_ORDER)]], "Nothing to refund."),
)


def _usage() -> Any:
    from inspect_ai.model import ModelUsage

    return ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)


def _outputs_for(scenario: Scenario) -> list[Any]:
    from inspect_ai.model import ChatMessageAssistant, ModelOutput
    from inspect_ai.model._model_output import ChatCompletionChoice
    from inspect_ai.tool import ToolCall

    outputs: list[Any] = []
    for turn in scenario.turns:
        message = ChatMessageAssistant(
            content=f"calling {', '.join(call.tool for call in turn)}",
            model="model",
            source="generate",
            tool_calls=[ToolCall(id=call.call_id, function=call.tool, arguments=call.args) for call in turn],
        )
        output = ModelOutput(model="model", choices=[ChatCompletionChoice(message=message, stop_reason="tool_calls")])
        output.usage = _usage()
        outputs.append(output)
    final = ModelOutput.from_content(model="model", content=scenario.final)
    final.usage = _usage()
    outputs.append(final)
    return outputs


def _scripted_model(scenarios: Sequence[Scenario]) -> Any:
    """A callable for mockllm: picks the scenario from the sample's prompt, the turn from the history."""
    from inspect_ai.model import ChatMessageAssistant

    by_id = {scenario.sample_id: _outputs_for(scenario) for scenario in scenarios}

    def generate(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> Any:
        sample_id = messages[0].text.removeprefix("scenario ")
        turn = sum(1 for message in messages if isinstance(message, ChatMessageAssistant))
        return by_id[sample_id][turn]

    return generate


def _define() -> tuple[Any, Any]:
    """Register the tools and approvers; return (task factory, approval policy)."""
    from inspect_ai import Task, task
    from inspect_ai.approval import Approval, ApprovalPolicy, approver, auto_approver
    from inspect_ai.dataset import Sample
    from inspect_ai.solver import generate, use_tools
    from inspect_ai.tool import ToolCall, tool

    @tool
    def lookup() -> Any:
        async def execute(order: str) -> str:
            """Look an order up.

            Args:
                order: The order id.
            """
            return f"order {order}: paid"

        return execute

    @tool
    def refund() -> Any:
        async def execute(amount: int, plan: str) -> str:
            """Refund money.

            Args:
                amount: How much.
                plan: Test script for the approvers.
            """
            return f"refunded {amount}"

        return execute

    @tool
    def delete_record() -> Any:
        async def execute(record: str, plan: str) -> str:
            """Delete a record.

            Args:
                record: The record id.
                plan: Test script for the approvers.
            """
            return f"deleted {record}"

        return execute

    @approver(name="triage")
    def triage() -> Any:
        async def approve(message: str, call: ToolCall, view: Any, history: Any) -> Approval:
            plan = str(call.arguments.get("plan", ""))
            if plan.startswith("triage:"):
                return Approval(decision=plan.split(":", 1)[1], explanation="triage decided")  # type: ignore[arg-type]
            return Approval(decision="escalate", explanation="triage escalates")

        return approve

    @approver(name="human")
    def scripted_human() -> Any:
        async def approve(message: str, call: ToolCall, view: Any, history: Any) -> Approval:
            decision = str(call.arguments.get("plan", "")).rsplit(":", 1)[1]
            if decision == "modify":
                arguments = dict(call.arguments)
                arguments["amount"] = int(arguments["amount"]) // 10
                modified = ToolCall(id=call.id, function=call.function, arguments=arguments)
                return Approval(decision="modify", modified=modified, explanation="reduced")
            return Approval(decision=decision, explanation=f"scripted {decision}")  # type: ignore[arg-type]

        return approve

    policy = [
        ApprovalPolicy(triage(), "delete_record"),
        ApprovalPolicy(scripted_human(), ["refund", "delete_record"]),
        ApprovalPolicy(auto_approver(), "lookup"),
    ]

    @task(name=TASK_NAME)
    def refund_desk(sample_ids: Sequence[str]) -> Task:
        return Task(
            version=TASK_VERSION,
            dataset=[Sample(id=sample_id, input=f"scenario {sample_id}", target="x") for sample_id in sample_ids],
            solver=[use_tools(lookup(), refund(), delete_record()), generate()],
        )

    return refund_desk, policy


@contextmanager
def offline_environment(home: Path) -> Iterator[None]:
    """Keep Inspect off the network and out of the real home directory."""
    saved = dict(os.environ)
    for name in ("HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        path = home / name.lower()
        path.mkdir(parents=True, exist_ok=True)
        os.environ[name] = str(path)
    os.environ["INSPECT_LOG_DIR"] = str(home / "logs")
    os.environ["INSPECT_DISPLAY"] = "none"
    os.environ["INSPECT_EVAL_NOTIFICATION"] = ""
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def write_logs(
    out_dir: Path,
    *,
    formats: Sequence[str] = ("eval", "json"),
    scenarios: Sequence[Scenario] = SCENARIOS,
    epochs: int = 1,
) -> dict[str, Path]:
    """Run the scenarios once per log format; return ``{format: path}``."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    factory, policy = _define()
    paths: dict[str, Path] = {}
    with offline_environment(out_dir / "home"):
        for log_format in formats:
            log_dir = out_dir / log_format
            model = get_model(MOCK_MODEL, custom_outputs=_scripted_model(scenarios))
            (log,) = inspect_eval(
                factory([scenario.sample_id for scenario in scenarios]),
                model=model,
                approval=policy,
                log_dir=str(log_dir),
                log_format=log_format,
                display="none",
                epochs=epochs,
                fail_on_error=False,
                log_level="warning",
            )
            paths[log_format] = Path(log.location)
    return paths


def session_logs(base: Path) -> dict[str, Path]:
    """The logs of one test session, generated on first use and shared through a marker file.

    Keys: ``eval`` and ``json`` (every scenario, one epoch) and ``epochs``
    (two scenarios, two epochs, ``.eval``).
    """
    marker = base / "paths.json"
    if marker.exists():
        return {key: Path(value) for key, value in json.loads(marker.read_text()).items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        paths = write_logs(base / "one-epoch")
        by_id = {scenario.sample_id: scenario for scenario in SCENARIOS}
        paths["epochs"] = write_logs(
            base / "two-epochs", formats=("eval",), scenarios=[by_id["approve"], by_id["quiet"]], epochs=2
        )["eval"]
    marker.write_text(json.dumps({key: str(value) for key, value in paths.items()}))
    return paths
