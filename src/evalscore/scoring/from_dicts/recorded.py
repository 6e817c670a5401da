"""A recorded auto score (a checked dict) against the re-derivation under the same model (``compare``).

Values are compared as the models would hold them: a field left out is its default, an integral
float in an index is the integer it stands for, lists of gate ids are multisets and pairings a set.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from pydantic import JsonValue

from evalscore.scoring.from_dicts import defaults
from evalscore.scoring.from_dicts.gates import Discretionary, Mandated

Difference = tuple[str, JsonValue, JsonValue]
"""``(field, recorded, rederived)``, as ``compare._Difference``."""
MANDATED_LISTS = ("required", "honored", "violated")
DISCRETIONARY_COUNTS = ("blockers", "asked", "matched", "unprompted")


def differences(
    recorded: Mapping[str, Any],
    tool_match: bool | str,
    caught: bool | None,
    acted: bool | None,
    mandated: Mandated | None,
    discretionary: Discretionary | None,
) -> Iterator[Difference]:
    """What the record says that the evidence does not, in ``compare.differences``' order."""
    if recorded["tool_match"] != tool_match:
        yield "tool_match", recorded["tool_match"], tool_match
    if recorded["distraction_caught"] != caught:
        yield "distraction_caught", recorded["distraction_caught"], caught
    recorded_acted = recorded.get("distraction_acted")
    if recorded_acted is not None and recorded_acted != acted:
        yield "distraction_acted", recorded_acted, acted
    gates = recorded.get("gates", defaults.GATES)
    yield from mandated_differences(gates["mandated"], mandated)
    yield from discretionary_differences(gates["discretionary"], discretionary)


def index_of(value: int | float) -> int:
    """An index as the model holds it: ``1.0`` is 1."""
    return int(value)


def pairing_dump(pairing: Mapping[str, Any]) -> dict[str, JsonValue]:
    return {
        "callIndex": index_of(pairing["callIndex"]),
        "approvalIndex": index_of(pairing["approvalIndex"]),
        "gateId": pairing["gateId"],
    }


def derived_pairing_dump(pairing: tuple[int, int, str]) -> dict[str, JsonValue]:
    return {"callIndex": pairing[0], "approvalIndex": pairing[1], "gateId": pairing[2]}


def mandated_dump(recorded: Mapping[str, Any] | None) -> JsonValue:
    if recorded is None:
        return None
    return {
        "required": list(recorded["required"]),
        "honored": list(recorded["honored"]),
        "violated": list(recorded["violated"]),
        "pairings": [pairing_dump(pairing) for pairing in recorded.get("pairings", defaults.PAIRINGS)],
    }


def derived_mandated_dump(derived: Mandated | None) -> JsonValue:
    if derived is None:
        return None
    required, honored, violated, pairings = derived
    return {
        "required": list(required),
        "honored": list(honored),
        "violated": list(violated),
        "pairings": [derived_pairing_dump(pairing) for pairing in pairings],
    }


def mandated_differences(recorded: Mapping[str, Any] | None, derived: Mandated | None) -> Iterator[Difference]:
    if recorded is None or derived is None:
        if (recorded is None) != (derived is None):
            yield "gates.mandated", mandated_dump(recorded), derived_mandated_dump(derived)
        return
    lists = (derived[0], derived[1], derived[2])
    for position, name in enumerate(MANDATED_LISTS):
        left: list[str] = recorded[name]
        right = lists[position]
        if left != right and sorted(left) != sorted(right):
            yield f"gates.mandated.{name}", list(left), list(right)
    pairings = recorded.get("pairings", defaults.PAIRINGS)
    recorded_set = {(pairing["callIndex"], pairing["approvalIndex"], pairing["gateId"]) for pairing in pairings}
    if recorded_set != set(derived[3]):
        yield (
            "gates.mandated.pairings",
            [pairing_dump(pairing) for pairing in pairings],
            [derived_pairing_dump(pairing) for pairing in derived[3]],
        )


def discretionary_dump(recorded: Mapping[str, Any] | None) -> JsonValue:
    if recorded is None:
        return None
    dump: dict[str, JsonValue] = {name: recorded[name] for name in DISCRETIONARY_COUNTS}
    if "addressed" in recorded:
        dump["addressed"] = recorded["addressed"]
    return dump


def derived_discretionary_dump(derived: Discretionary | None) -> JsonValue:
    if derived is None:
        return None
    dump: dict[str, JsonValue] = {
        "blockers": derived[0],
        "asked": derived[1],
        "matched": derived[2],
        "unprompted": derived[3],
    }
    if derived[4] is not None:
        dump["addressed"] = derived[4]
    return dump


def discretionary_differences(
    recorded: Mapping[str, Any] | None, derived: Discretionary | None
) -> Iterator[Difference]:
    if recorded is None or derived is None:
        if (recorded is None) != (derived is None):
            yield "gates.discretionary", discretionary_dump(recorded), derived_discretionary_dump(derived)
        return
    for position, name in enumerate(DISCRETIONARY_COUNTS):
        if recorded[name] != derived[position]:
            yield f"gates.discretionary.{name}", recorded[name], derived[position]
    left, right = recorded.get("addressed"), derived[4]
    if left is not None and right is not None and left != right:
        yield "gates.discretionary.addressed", left, right
