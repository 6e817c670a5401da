"""The suites compiled once for the dict scorer: what joining and re-deriving a step look up in them.

Everything here depends on the suites alone (``join.know_suite`` and the re-derivation compute it
again per run or per step): per task its steps by number, the gate that governs each tool, the tools
a call may name without a second look, and per step its expected tools and blockers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final, Literal

from evalscore.models.suite import EvalStep, EvalTask
from evalscore.scoring.blocker_matching import BlockerMatcher, blocker_texts
from evalscore.scoring.gate_matching import gates_by_tool
from evalscore.scoring.join import KnownSuite, SuiteIndex, SuiteKey, unknown_tool_reason

REMEMBERED_TOOLS: Final = 1024
"""Tool names whose check a task remembers: logs call the same few tools over and over, but may name
any number of them."""


@dataclass(frozen=True, slots=True)
class CompiledStep:
    n: int
    expected: frozenset[str]
    mode: Literal["strict", "subset", "any"]
    blocker_ids: tuple[str, ...]
    """One per blocker, in declared order (an id given twice is two blockers)."""
    blockers_v2: BlockerMatcher
    """The blockers as v2 matches questions against them."""
    blockers_v3: BlockerMatcher
    """The blockers as v3 matches questions against them (a blank description only by id)."""


@dataclass(slots=True)
class CompiledTask:
    id: str
    steps: Mapping[int, CompiledStep]
    """By number, the first step of a number (as ``join.step_by_n`` finds it)."""
    numbers: tuple[int, ...]
    """Every step's number, in declared order (the step-unknown refusal lists them)."""
    is_distraction: bool
    has_gates: bool
    gate_of_tool: Mapping[str, str]
    """The id of the first declared gate that covers each tool (``gate_matching.gates_by_tool``)."""
    known: KnownSuite
    task: EvalTask
    checked_tools: dict[str, str | None] = field(default_factory=dict)
    """``join.unknown_tool_reason`` of the first ``REMEMBERED_TOOLS`` tool names met."""

    def unknown_tool(self, tool: str) -> str | None:
        """Why a call to ``tool`` cannot be scored against the suite, or None when the suite knows it."""
        checked = self.checked_tools
        if tool in checked:
            return checked[tool]
        reason = unknown_tool_reason(tool, self.known, self.task)
        if len(checked) < REMEMBERED_TOOLS:
            checked[tool] = reason
        return reason


@dataclass(frozen=True, slots=True)
class CompiledSuite:
    id: str
    version: str
    tasks: Mapping[str, CompiledTask]
    """By id, the first task of an id (as ``join.know_suite`` keeps it)."""


@dataclass(frozen=True, slots=True)
class CompiledIndex:
    suites: Mapping[SuiteKey, CompiledSuite]
    ambiguous: frozenset[SuiteKey]
    index: SuiteIndex
    """The index compiled (``join.suite_refusal`` names what it was given)."""


def compile_step(step: EvalStep) -> CompiledStep:
    ids = tuple(blocker.id for blocker in step.blockers)
    texts_v2, texts_v3 = blocker_texts([blocker.description for blocker in step.blockers])
    return CompiledStep(
        n=step.n,
        expected=frozenset(step.expected_tools),
        mode=step.scoring_hints.tool_match,
        blocker_ids=ids,
        blockers_v2=BlockerMatcher(ids, texts_v2),
        blockers_v3=BlockerMatcher(ids, texts_v3),
    )


def compile_task(task: EvalTask, known: KnownSuite) -> CompiledTask:
    steps: dict[int, CompiledStep] = {}
    for step in task.steps:
        steps.setdefault(step.n, compile_step(step))
    gates = gates_by_tool(task.mandated_gates)
    return CompiledTask(
        id=task.id,
        steps=steps,
        numbers=tuple(step.n for step in task.steps),
        is_distraction=task.is_distraction,
        has_gates=bool(task.mandated_gates),
        gate_of_tool={tool: gate.id for tool, gate in gates.items()},
        known=known,
        task=task,
    )


def compile_suite(known: KnownSuite) -> CompiledSuite:
    body = known.suite.suite
    return CompiledSuite(
        id=body.id,
        version=body.version,
        tasks={task_id: compile_task(task, known) for task_id, task in known.tasks.items()},
    )


def compile_index(index: SuiteIndex) -> CompiledIndex:
    """What the dict scorer needs of ``index``, computed once."""
    return CompiledIndex(
        suites={key: compile_suite(known) for key, known in index.suites.items()},
        ambiguous=index.ambiguous,
        index=index,
    )
