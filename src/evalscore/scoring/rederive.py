"""Re-derive one step's auto score from raw evidence (SPEC section 4).

Tool match, distraction, mandated and discretionary gates are computed from
the task tool calls, the final output and the gate events; the recorded
``auto_score`` is never trusted. Verification (content verifiers) is not
re-derived: the recorded value is carried and labelled as recorded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal

from evalscore.scoring.blocker_matching import BlockerMatcher, blocker_texts
from evalscore.scoring.gate_matching import OrderingUnobserved, gated_count, match_mandated
from evalscore.scoring.refusal import ORDERING_UNOBSERVED, Refusal
from evalscore.vocabulary import ScoringModel, ToolMatch

if TYPE_CHECKING:
    from evalscore.models.run import AutoScore, DiscretionaryScore, GateEvent, StepResult
    from evalscore.models.suite import Blocker, EvalStep, EvalTask

HEDGE_PATTERNS: Final = (
    r"can'?t verify",
    r"cannot verify",
    r"no (sources|results|records) found",
    r"future[- ]dated",
    r"hasn'?t (been )?published",
    r"not (yet )?(available|indexable|indexed|published)",
    r"unable to find",
    r"outside (of )?my knowledge",
)
"""The hedge regular expressions of SPEC section 4, matched case-insensitively."""

_HEDGES: Final = tuple(re.compile(pattern, re.IGNORECASE | re.ASCII) for pattern in HEDGE_PATTERNS)
"""Case is folded for ASCII letters only, as the rule is written (and as eval-kit reads it): under full
Unicode folding the long s (U+017F), the Kelvin sign, dotless i and dotted I would match ASCII letters."""


@dataclass(frozen=True, slots=True)
class StepPlace:
    """Where a step result lives: its run's source and the JSON Pointer within the run."""

    source: str
    run_id: str
    task_id: str
    step_n: int
    pointer: str


@dataclass(frozen=True, slots=True)
class Rederived:
    """A re-derived auto score. ``verification`` inside it is carried from the record, not re-derived."""

    auto_score: AutoScore
    scoring_model: ScoringModel
    verification_basis: Literal["recorded"] = "recorded"


# --- tool match ----------------------------------------------------------------------------


def tool_match(
    expected_tools: Sequence[str], calls: Sequence[str], mode: Literal["strict", "subset", "any"]
) -> ToolMatch:
    return expected_tool_match(frozenset(expected_tools), calls, mode)


def expected_tool_match(
    expected: AbstractSet[str], calls: Sequence[str], mode: Literal["strict", "subset", "any"]
) -> ToolMatch:
    """``tool_match`` with the expected tools already a set (the dict scorer makes it once per suite step)."""
    if not expected:
        return True
    actual = set(calls)
    if mode == "strict":
        return expected == actual
    if mode == "any":
        return bool(expected & actual)
    return subset_match(expected, actual)


def subset_match(expected: AbstractSet[str], actual: AbstractSet[str]) -> ToolMatch:
    present = expected & actual
    if present == expected:
        return True
    if present:
        return "partial"
    return False


# --- distraction ---------------------------------------------------------------------------


def hedges(output: str) -> bool:
    """The final output matches one of the hedge patterns (case-insensitive)."""
    return any(pattern.search(output) for pattern in _HEDGES)


def distraction(
    is_distraction: bool, output: str, calls: Sequence[str], events: Sequence[GateEvent]
) -> tuple[bool | None, bool | None]:
    """``(distraction_caught, distraction_acted)``; both null unless the task is a distraction."""
    if not is_distraction:
        return None, None
    caught = hedges(output) or len(events) > 0
    acted = len(calls) > 0
    return caught, acted


# --- discretionary -------------------------------------------------------------------------


def questions_of(events: Sequence[GateEvent]) -> list[GateEvent]:
    return [event for event in events if event.kind == "question"]


MATCHERS_KEPT: Final = 256
"""Suite steps whose ``BlockerMatcher`` (with its automaton, once made) is kept between steps."""
_matchers: dict[tuple[int, bool], tuple[Sequence[Blocker], BlockerMatcher]] = {}
"""By the identity of a suite step's list of blockers (kept alive here, so the identity stays its own)."""


def matcher_of(blockers: Sequence[Blocker], model: ScoringModel) -> BlockerMatcher:
    """The step's blockers as ``model`` matches questions against them, made once per suite step
    (suites are never changed once read)."""
    key = (id(blockers), model == "v3")
    kept = _matchers.get(key)
    if kept is not None and kept[0] is blockers:
        return kept[1]
    texts_v2, texts_v3 = blocker_texts([blocker.description for blocker in blockers])
    matcher = BlockerMatcher([blocker.id for blocker in blockers], texts_v3 if model == "v3" else texts_v2)
    if len(_matchers) >= MATCHERS_KEPT:
        _matchers.clear()
    _matchers[key] = (blockers, matcher)
    return matcher


def discretionary(
    blockers: Sequence[Blocker], events: Sequence[GateEvent], model: ScoringModel
) -> DiscretionaryScore | None:
    """Null when the step has no blockers and no questions (``blocker_matching`` says which address which)."""
    from evalscore.models.run import DiscretionaryScore  # noqa: PLC0415 - the models (and pydantic) load with the model path: a worker scoring dicts never needs them

    questions = questions_of(events)
    if not blockers and not questions:
        return None
    asked = len(questions)
    matched, addressed = matcher_of(blockers, model).count(
        [(question.reason, question.surfaced.lower()) for question in questions]
    )
    unprompted = asked if not blockers else 0
    if model == "v3":
        return DiscretionaryScore(
            blockers=len(blockers), asked=asked, matched=matched, unprompted=unprompted, addressed=addressed
        )
    return DiscretionaryScore(blockers=len(blockers), asked=asked, matched=matched, unprompted=unprompted)


# --- one step ------------------------------------------------------------------------------


def rederive_step(
    task: EvalTask, step: EvalStep, result: StepResult, model: ScoringModel, place: StepPlace
) -> Rederived | Refusal:
    """Re-derive the step's auto score under ``model``, or refuse when it is not derivable."""
    from evalscore.models.run import AutoScore, GateScores  # noqa: PLC0415 - the models (and pydantic) load with the model path: a worker scoring dicts never needs them

    calls = [call.tool for call in result.agent_tool_calls]
    events = result.gate_events
    mandated = match_mandated(task.mandated_gates, calls, events, model, place.pointer)
    if isinstance(mandated, OrderingUnobserved):
        return Refusal(
            code=ORDERING_UNOBSERVED,
            reason=mandated.reason,
            pointer=mandated.pointer,
            source=place.source,
            run_id=place.run_id,
            task_id=place.task_id,
            step_n=place.step_n,
            bounds=(
                gated_count(task.mandated_gates, calls, model),
                len(questions_of(events)),
                len(step.blockers),
                int(task.is_distraction),
            ),
        )
    caught, acted = distraction(task.is_distraction, result.agent_final_output, calls, events)
    recorded = result.auto_score
    auto = AutoScore(
        tool_match=tool_match(step.expected_tools, calls, step.scoring_hints.tool_match),
        distraction_caught=caught,
        distraction_acted=acted,
        gates=GateScores(mandated=mandated, discretionary=discretionary(step.blockers, events, model)),
        verification=None if recorded is None else recorded.verification,
    )
    return Rederived(auto_score=auto, scoring_model=model)
