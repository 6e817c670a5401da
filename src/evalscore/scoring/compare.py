"""Recorded auto score versus the re-derivation under the run's *recorded* scoring model.

Each disagreement names the field, both values and the JSON Pointer of the
recorded value. A recorded ``auto_score: null`` is not a disagreement (the
step is unscored). Values are compared, not spellings: a field left out
reads as its contract default (``distraction_acted: null``, ``gates`` both
null, ``pairings: []``), exactly as the models parse it, so a dump and
re-parse of a run never changes what is compared. Two fields that older
producers never wrote are compared only when recorded: ``distraction_acted``
(null is indistinguishable from "not recorded") and ``addressed`` (v1/v2
scores have none). Verification is
carried, never re-derived, so it is never compared. Lists of gate ids are
compared as multisets and pairings as sets: their order is not a claim.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from evalscore.findings import join_pointer
from evalscore.listing import text_size
from evalscore.pickled_as_fields import pickled_as_fields
from evalscore.scoring.rederive import StepPlace
from evalscore.vocabulary import ScoringModel

if TYPE_CHECKING:
    from pydantic import JsonValue

    from evalscore.models.run import AutoScore, DiscretionaryScore, MandatedGateScore, Pairing


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class Disagreement:
    """The record says one thing, the evidence another."""

    field: str
    """Dotted path within the auto score, e.g. ``gates.mandated.honored``."""
    recorded: JsonValue
    rederived: JsonValue
    pointer: str
    """JSON Pointer of the recorded value within the run."""
    source: str
    run_id: str
    task_id: str
    step_n: int
    scoring_model: ScoringModel
    """The recorded scoring model both sides were computed under."""


def disagreement_text(item: Disagreement) -> int:
    """Characters of text a listed disagreement holds, its two values included (``listing.LISTED_TEXT``
    bounds their sum)."""
    return (
        len(item.field)
        + len(item.pointer)
        + len(item.source)
        + len(item.run_id)
        + len(item.task_id)
        + text_size(item.recorded)
        + text_size(item.rederived)
    )


@dataclass(frozen=True, slots=True)
class _Difference:
    field: str
    recorded: JsonValue
    rederived: JsonValue


def same_multiset(left: Sequence[str], right: Sequence[str]) -> bool:
    return left == right or sorted(left) == sorted(right)


def pairing_set(pairings: Sequence[Pairing]) -> set[tuple[int, int, str]]:
    return {(pairing.callIndex, pairing.approvalIndex, pairing.gateId) for pairing in pairings}


def mandated_differences(
    recorded: MandatedGateScore | None, rederived: MandatedGateScore | None
) -> Iterator[_Difference]:
    if recorded is None or rederived is None:
        if recorded is not rederived:
            yield _Difference("gates.mandated", _dump(recorded), _dump(rederived))
        return
    for name in ("required", "honored", "violated"):
        left: list[str] = getattr(recorded, name)
        right: list[str] = getattr(rederived, name)
        if not same_multiset(left, right):
            yield _Difference(f"gates.mandated.{name}", list(left), list(right))
    if pairing_set(recorded.pairings) != pairing_set(rederived.pairings):
        yield _Difference(
            "gates.mandated.pairings",
            [pairing.model_dump(mode="json") for pairing in recorded.pairings],
            [pairing.model_dump(mode="json") for pairing in rederived.pairings],
        )


def discretionary_differences(
    recorded: DiscretionaryScore | None, rederived: DiscretionaryScore | None
) -> Iterator[_Difference]:
    if recorded is None or rederived is None:
        if recorded is not rederived:
            yield _Difference("gates.discretionary", _dump(recorded), _dump(rederived))
        return
    for name in ("blockers", "asked", "matched", "unprompted"):
        left: float = getattr(recorded, name)
        right: float = getattr(rederived, name)
        if left != right:
            yield _Difference(f"gates.discretionary.{name}", left, right)
    if addressed_differs(recorded, rederived):
        yield _Difference("gates.discretionary.addressed", _addressed(recorded), _addressed(rederived))


def _addressed(score: DiscretionaryScore) -> float | None:
    return score.addressed if isinstance(score.addressed, int | float) else None


def addressed_differs(recorded: DiscretionaryScore, rederived: DiscretionaryScore) -> bool:
    """Compared only when both sides carry ``addressed`` (v1/v2 scores have none)."""
    left, right = _addressed(recorded), _addressed(rederived)
    return left is not None and right is not None and left != right


def differences(recorded: AutoScore, rederived: AutoScore) -> Iterator[_Difference]:
    if recorded.tool_match != rederived.tool_match:
        yield _Difference("tool_match", recorded.tool_match, rederived.tool_match)
    if recorded.distraction_caught != rederived.distraction_caught:
        yield _Difference("distraction_caught", recorded.distraction_caught, rederived.distraction_caught)
    if recorded.distraction_acted is not None and recorded.distraction_acted != rederived.distraction_acted:
        yield _Difference("distraction_acted", recorded.distraction_acted, rederived.distraction_acted)
    yield from mandated_differences(recorded.gates.mandated, rederived.gates.mandated)
    yield from discretionary_differences(recorded.gates.discretionary, rederived.gates.discretionary)


def compare_step(
    recorded: AutoScore | None, rederived: AutoScore, model: ScoringModel, place: StepPlace
) -> list[Disagreement]:
    """Every disagreement between the recorded auto score and ``rederived`` (computed under ``model``)."""
    if recorded is None:
        return []
    return [
        Disagreement(
            field=difference.field,
            recorded=difference.recorded,
            rederived=difference.rederived,
            pointer=join_pointer(place.pointer, "auto_score", *difference.field.split(".")),
            source=place.source,
            run_id=place.run_id,
            task_id=place.task_id,
            step_n=place.step_n,
            scoring_model=model,
        )
        for difference in differences(recorded, rederived)
    ]


def _dump(model: MandatedGateScore | DiscretionaryScore | None) -> JsonValue:
    return None if model is None else model.model_dump(mode="json")
