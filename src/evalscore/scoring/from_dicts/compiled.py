"""The suites compiled once for the dict scorer, from their checked dicts: what joining and
re-deriving a step look up in them.

Everything here depends on the suites alone (``join.know_suite`` and the re-derivation compute it
again per run or per step): per task its steps by number, the gate that governs each tool, the tools
a call may name without a second look, and per step its expected tools and blockers. The suites are
read as the check accepted them, a field left out meaning its default (``defaults``), so no model is
built: a suite key given twice is told ambiguous by comparing the two suites' models only when their
dicts differ (``same_suite``), since equal dicts make equal models.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from evalscore.scoring.blocker_matching import BlockerMatcher, blocker_texts
from evalscore.scoring.from_dicts import defaults
from evalscore.scoring.join import SuiteKey, gated_spellings, unknown_tool_reason

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
    suite_id: str
    declared_tools: frozenset[str]
    """The suite's toolbox (empty: none declared)."""
    gated: Mapping[str, tuple[str, ...]]
    """The task's gated tools by ``join.tool_key`` (``join.gated_spellings``)."""
    checked_tools: dict[str, str | None] = field(default_factory=dict)
    """``join.unknown_tool_reason`` of the first ``REMEMBERED_TOOLS`` tool names met."""

    def unknown_tool(self, tool: str) -> str | None:
        """Why a call to ``tool`` cannot be scored against the suite, or None when the suite knows it."""
        checked = self.checked_tools
        if tool in checked:
            return checked[tool]
        reason = unknown_tool_reason(tool, self.declared_tools, self.suite_id, self.gated)
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
    """By ``(id, version)``, the first suite given of a key (as ``join.index_suites`` keeps it)."""
    ambiguous: frozenset[SuiteKey]
    """The keys given twice with different contents."""


def step_number(value: int | float) -> int:
    """A step number as the model holds it: ``1.0`` is 1."""
    return int(value)


def compile_step(step: Mapping[str, Any]) -> CompiledStep:
    blockers: Sequence[Mapping[str, Any]] = step.get("blockers", defaults.BLOCKERS)
    ids = tuple(blocker["id"] for blocker in blockers)
    texts_v2, texts_v3 = blocker_texts([blocker["description"] for blocker in blockers])
    return CompiledStep(
        n=step_number(step["n"]),
        expected=frozenset(step.get("expected_tools", defaults.EXPECTED_TOOLS)),
        mode=step.get("scoring_hints", defaults.SCORING_HINTS).get("tool_match", defaults.TOOL_MATCH),
        blocker_ids=ids,
        blockers_v2=BlockerMatcher(ids, texts_v2),
        blockers_v3=BlockerMatcher(ids, texts_v3),
    )


def compile_task(task: Mapping[str, Any], suite_id: str, declared_tools: frozenset[str]) -> CompiledTask:
    steps: dict[int, CompiledStep] = {}
    for step in task["steps"]:
        number = step_number(step["n"])
        if number not in steps:
            steps[number] = compile_step(step)
    gates: Sequence[Mapping[str, Any]] = task.get("mandated_gates", defaults.MANDATED_GATES)
    gate_of_tool: dict[str, str] = {}
    for gate in gates:
        for tool in gate["before_tools"]:
            gate_of_tool.setdefault(tool, gate["id"])
    return CompiledTask(
        id=task["id"],
        steps=steps,
        numbers=tuple(step_number(step["n"]) for step in task["steps"]),
        is_distraction=task.get("is_distraction", defaults.IS_DISTRACTION),
        has_gates=bool(gates),
        gate_of_tool=gate_of_tool,
        suite_id=suite_id,
        declared_tools=declared_tools,
        gated=gated_spellings(gate["before_tools"] for gate in gates),
    )


def compile_suite(suite: Mapping[str, Any]) -> CompiledSuite:
    body = suite["suite"]
    declared = frozenset(tool["name"] for tool in body.get("toolbox", defaults.TOOLBOX))
    tasks: dict[str, CompiledTask] = {}
    for task in body["tasks"]:
        if task["id"] not in tasks:
            tasks[task["id"]] = compile_task(task, body["id"], declared)
    return CompiledSuite(id=body["id"], version=body["version"], tasks=tasks)


def suite_key(suite: Mapping[str, Any]) -> SuiteKey:
    return (suite["suite"]["id"], suite["suite"]["version"])


def same_suite(first: Mapping[str, Any], other: Mapping[str, Any]) -> bool:
    """Whether two checked suites make equal models (``join.index_suites`` compares models): built
    only for two different dicts of one key, which is rare, so the models load only then."""
    from evalscore.scoring.suite_models import suite_model  # noqa: PLC0415 - see the docstring

    return first == other or suite_model(first) == suite_model(other)


def compile_suites(suites: Sequence[Mapping[str, Any]]) -> CompiledIndex:
    """What the dict scorer needs of the checked ``suites``, computed once, as ``join.index_suites`` indexes them."""
    first: dict[SuiteKey, Mapping[str, Any]] = {}
    ambiguous: set[SuiteKey] = set()
    for suite in suites:
        key = suite_key(suite)
        known = first.get(key)
        if known is not None and not same_suite(known, suite):
            ambiguous.add(key)
        first.setdefault(key, suite)
    return CompiledIndex(
        suites={key: compile_suite(suite) for key, suite in first.items()},
        ambiguous=frozenset(ambiguous),
    )
