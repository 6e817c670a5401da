"""A recorded auto score (a checked dict) against the re-derivation under the same model (``compare``).

Values are compared as the models would hold them: a field left out is its default, an integral
float in an index is the integer it stands for, lists of gate ids are multisets and pairings a set.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from evalscore.scoring.from_dicts import defaults
from evalscore.scoring.from_dicts.gates import Discretionary, Mandated

if TYPE_CHECKING:
    from pydantic import JsonValue

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
) -> list[Difference]:
    """What the record says that the evidence does not, in ``compare.differences``' order (a list: a
    step's comparison is on the scorer's hot path, and most find nothing)."""
    found: list[Difference] = []
    if recorded["tool_match"] != tool_match:
        found.append(("tool_match", recorded["tool_match"], tool_match))
    if recorded["distraction_caught"] != caught:
        found.append(("distraction_caught", recorded["distraction_caught"], caught))
    recorded_acted = recorded.get("distraction_acted")
    if recorded_acted is not None and recorded_acted != acted:
        found.append(("distraction_acted", recorded_acted, acted))
    gates = recorded.get("gates", defaults.GATES)
    add_mandated_differences(found, gates["mandated"], mandated)
    add_discretionary_differences(found, gates["discretionary"], discretionary)
    return found


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


def add_mandated_differences(
    found: list[Difference], recorded: Mapping[str, Any] | None, derived: Mandated | None
) -> None:
    if recorded is None or derived is None:
        if (recorded is None) != (derived is None):
            found.append(("gates.mandated", mandated_dump(recorded), derived_mandated_dump(derived)))
        return
    lists = (derived[0], derived[1], derived[2])
    for position, name in enumerate(MANDATED_LISTS):
        left: list[str] = recorded[name]
        right = lists[position]
        if left != right and sorted(left) != sorted(right):
            found.append((f"gates.mandated.{name}", list(left), list(right)))
    pairings = recorded.get("pairings", defaults.PAIRINGS)
    recorded_set = {(pairing["callIndex"], pairing["approvalIndex"], pairing["gateId"]) for pairing in pairings}
    if recorded_set != set(derived[3]):
        found.append(
            (
                "gates.mandated.pairings",
                [pairing_dump(pairing) for pairing in pairings],
                [derived_pairing_dump(pairing) for pairing in derived[3]],
            )
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


def add_discretionary_differences(
    found: list[Difference], recorded: Mapping[str, Any] | None, derived: Discretionary | None
) -> None:
    if recorded is None or derived is None:
        if (recorded is None) != (derived is None):
            found.append(("gates.discretionary", discretionary_dump(recorded), derived_discretionary_dump(derived)))
        return
    for position, name in enumerate(DISCRETIONARY_COUNTS):
        if recorded[name] != derived[position]:
            found.append((f"gates.discretionary.{name}", recorded[name], derived[position]))
    left, right = recorded.get("addressed"), derived[4]
    if left is not None and right is not None and left != right:
        found.append(("gates.discretionary.addressed", left, right))
