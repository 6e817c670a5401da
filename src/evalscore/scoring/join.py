"""Join runs to the suites they were recorded against, by ``suite_id`` and ``suite_version``.

An unknown suite, task id or step number is a refusal with the reason and the
exact place (the run's source and a JSON Pointer within the run); nothing is guessed.
So is a step that calls a tool the suite does not know: one outside a declared
toolbox, or one whose name differs from a gated tool's only by case, width or
invisible characters (``Delete_Records`` for ``delete_records``), which would
otherwise walk past the gate unmatched.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from evalscore.findings import join_pointer
from evalscore.scoring.rederive import StepPlace
from evalscore.scoring.refusal import (
    STEP_UNKNOWN,
    SUITE_AMBIGUOUS,
    SUITE_UNKNOWN,
    TASK_UNKNOWN,
    TOOL_UNKNOWN,
    Refusal,
)
from evalscore.visible_text import visible_key
from evalscore.vocabulary import ScoringModel

if TYPE_CHECKING:
    from evalscore.models.run import RunOf, StepResult, TaskResultOf
    from evalscore.models.suite import EvalStep, EvalSuite, EvalTask

SuiteKey = tuple[str, str]


@dataclass(frozen=True, slots=True)
class KnownSuite:
    """A suite with what every joined step looks up in it, found once (not once per task or call)."""

    suite: EvalSuite
    tasks: Mapping[str, EvalTask]
    """Tasks by id (the first of an id, as a scan in declared order finds it)."""
    declared_tools: frozenset[str]
    gated_by_key: Mapping[str, Mapping[str, tuple[str, ...]]]
    """Per task id, its gated tools by ``tool_key``, each key's spellings sorted."""


def know_suite(suite: EvalSuite) -> KnownSuite:
    tasks: dict[str, EvalTask] = {}
    gated_by_key: dict[str, dict[str, tuple[str, ...]]] = {}
    for task in suite.suite.tasks:
        tasks.setdefault(task.id, task)
        gated_by_key.setdefault(task.id, gated_spellings(gate.before_tools for gate in task.mandated_gates))
    declared = frozenset(declared_tool.name for declared_tool in suite.suite.toolbox)
    return KnownSuite(suite=suite, tasks=tasks, declared_tools=declared, gated_by_key=gated_by_key)


def gated_spellings(gates_before_tools: Iterable[Sequence[str]]) -> dict[str, tuple[str, ...]]:
    """A task's gated tools by ``tool_key``, each key's spellings sorted; given each gate's ``before_tools``."""
    spellings: dict[str, set[str]] = {}
    for before_tools in gates_before_tools:
        for name in before_tools:
            spellings.setdefault(tool_key(name), set()).add(name)
    return {key: tuple(sorted(names)) for key, names in spellings.items()}


@dataclass(frozen=True, slots=True)
class SuiteIndex:
    """Suites by ``(id, version)``; keys given twice with different content are ambiguous."""

    suites: Mapping[SuiteKey, KnownSuite]
    ambiguous: frozenset[SuiteKey]


@dataclass(frozen=True, slots=True)
class JoinedStep:
    """A step result with the suite task and step it answers."""

    task: EvalTask
    step: EvalStep
    result: StepResult
    place: StepPlace
    recorded_model: ScoringModel
    """The run's recorded scoring model (the rules behind its recorded auto scores)."""


def suite_key(suite: EvalSuite) -> SuiteKey:
    return (suite.suite.id, suite.suite.version)


def index_suites(suites: Sequence[EvalSuite]) -> SuiteIndex:
    """Index suites; the same key with different content is recorded as ambiguous, never resolved."""
    by_key: dict[SuiteKey, EvalSuite] = {}
    ambiguous: set[SuiteKey] = set()
    for suite in suites:
        key = suite_key(suite)
        known = by_key.get(key)
        if known is not None and known != suite:
            ambiguous.add(key)
        by_key.setdefault(key, suite)
    known_suites = {key: know_suite(suite) for key, suite in by_key.items()}
    return SuiteIndex(suites=known_suites, ambiguous=frozenset(ambiguous))


def step_count(run: RunOf[Any]) -> int:
    return sum(len(task.step_results) for task in run.task_results)


def find_suite(run: RunOf[Any], index: SuiteIndex, source: str) -> KnownSuite | Refusal:
    """The suite the run names, or a refusal naming ``/suite_id`` or ``/suite_version``."""
    key = (run.suite_id, run.suite_version)
    suite = index.suites.get(key)
    if suite is not None and key not in index.ambiguous:
        return suite
    return suite_refusal(index.suites, index.ambiguous, key, run.run_id, step_count(run), source)


def suite_refusal(
    given: Collection[SuiteKey], ambiguous: AbstractSet[SuiteKey], key: SuiteKey, run_id: str, steps: int, source: str
) -> Refusal:
    """The refusal of a run of ``steps`` steps naming suite ``key``, which was given twice with different
    contents (``ambiguous``) or not at all (``given`` holds the keys of the suites given)."""
    suite_id, version = key
    if key in ambiguous:
        return Refusal(
            code=SUITE_AMBIGUOUS,
            reason=(
                f"two different suites named {suite_id!r} version {version!r} were given; evalscore will not choose one"
            ),
            pointer="/suite_version",
            source=source,
            run_id=run_id,
            steps=steps,
        )
    versions = sorted(given_version for given_id, given_version in given if given_id == suite_id)
    if versions:
        pointer = "/suite_version"
        reason = (
            f"the run was recorded against suite {suite_id!r} version {version!r}, "
            f"but only version(s) {versions} were given"
        )
    else:
        pointer = "/suite_id"
        listed = sorted(f"{given_id}@{given_version}" for given_id, given_version in given)
        reason = f"the run was recorded against suite {suite_id!r}, which is not among the suites given {listed}"
    return Refusal(code=SUITE_UNKNOWN, reason=reason, pointer=pointer, source=source, run_id=run_id, steps=steps)


def step_by_n(task: EvalTask, n: int) -> EvalStep | None:
    for step in task.steps:
        if step.n == n:
            return step
    return None


@lru_cache(maxsize=4096)
def tool_key(name: str) -> str:
    """A tool name as a reader sees it (``evalscore.visible_text``); logs call the same few tools
    over and over, so the keys of the latest names are kept."""
    return visible_key(name)


def unknown_tool_reason(
    tool: str, declared_tools: AbstractSet[str], suite_id: str, gated: Mapping[str, tuple[str, ...]]
) -> str | None:
    """Why a call to ``tool`` cannot be scored against suite ``suite_id``, or None when the suite knows it;
    ``declared_tools`` is its toolbox, ``gated`` the task's ``gated_spellings``."""
    if declared_tools and tool not in declared_tools:
        return f"the step calls {tool!r}, which is not in the toolbox of suite {suite_id!r}"
    look_alikes = gated.get(tool_key(tool))
    if look_alikes and tool not in look_alikes:  # a call that names a gated tool exactly is that tool's
        return (
            f"the step calls {tool!r}, which differs from the gated tool {look_alikes[0]!r} only by case, width "
            "or invisible characters: whether the gate governs it cannot be told"
        )
    return None


def unknown_tool(known: KnownSuite, task: EvalTask, result: StepResult, place: StepPlace) -> Refusal | None:
    """A refusal for the step's first call to a tool the suite does not know, if any."""
    for index, call in enumerate(result.agent_tool_calls):
        reason = unknown_tool_reason(call.tool, known.declared_tools, known.suite.suite.id, known.gated_by_key[task.id])
        if reason is not None:
            return Refusal(
                code=TOOL_UNKNOWN,
                reason=reason,
                pointer=join_pointer(place.pointer, "agent_tool_calls", index, "tool"),
                source=place.source,
                run_id=place.run_id,
                task_id=place.task_id,
                step_n=place.step_n,
            )
    return None


def join_task(
    run: RunOf[Any], task_index: int, task_result: TaskResultOf[Any], known: KnownSuite, source: str
) -> Iterator[JoinedStep | Refusal]:
    task_pointer = join_pointer("/task_results", task_index)
    suite = known.suite.suite
    task = known.tasks.get(task_result.task_id)
    if task is None:
        yield Refusal(
            code=TASK_UNKNOWN,
            reason=f"task {task_result.task_id!r} is not in suite {suite.id!r} version {suite.version!r}",
            pointer=join_pointer(task_pointer, "task_id"),
            source=source,
            run_id=run.run_id,
            task_id=task_result.task_id,
            steps=len(task_result.step_results),
        )
        return
    for step_index, result in enumerate(task_result.step_results):
        step_pointer = join_pointer(task_pointer, "step_results", step_index)
        yield join_step(run, known, task, result, step_pointer, source)


def join_step(
    run: RunOf[Any], known: KnownSuite, task: EvalTask, result: StepResult, step_pointer: str, source: str
) -> JoinedStep | Refusal:
    step = step_by_n(task, result.step_n)
    if step is None:
        numbers = [known_step.n for known_step in task.steps]
        return Refusal(
            code=STEP_UNKNOWN,
            reason=f"step {result.step_n} is not a step of task {task.id!r} (its steps are {numbers})",
            pointer=join_pointer(step_pointer, "step_n"),
            source=source,
            run_id=run.run_id,
            task_id=task.id,
            step_n=result.step_n,
        )
    place = StepPlace(source=source, run_id=run.run_id, task_id=task.id, step_n=result.step_n, pointer=step_pointer)
    refusal = unknown_tool(known, task, result, place)
    if refusal is not None:
        return refusal
    return JoinedStep(task=task, step=step, result=result, place=place, recorded_model=run.scoring_model)


def join_run(run: RunOf[Any], source: str, index: SuiteIndex) -> Iterator[JoinedStep | Refusal]:
    """Every step of the run joined to its suite step, or the refusals that stop the join."""
    known = find_suite(run, index, source)
    if isinstance(known, Refusal):
        yield known
        return
    for task_index, task_result in enumerate(run.task_results):
        yield from join_task(run, task_index, task_result, known, source)
