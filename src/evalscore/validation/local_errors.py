"""The reference validator's errors, looked for only in the values jsonschema-rs rejects.

Explaining a rejected document with the reference library walked it whole, in Python, up to its
first errors: a 3.9 MB run whose one wrong value was in its last step cost 18 times what checking
it cost. Here the document is walked from the top, and a member is entered only when jsonschema-rs
(in Rust, building no error) rejects it under its own subschema. At each value entered, the reference
validator is asked about that value alone: ``properties``, ``items`` and ``additionalProperties``
still name the members they know, but do not look into them (this walk does, where one is rejected).
Every other keyword is asked as it is, whole, so each error is found once, where the whole walk finds
it, with the same message. jsonschema-rs's own list of errors is not used: it builds every error of
every ``anyOf`` branch before giving the first (6 s and 800 MB for 200,000 wrong values).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import jsonschema_rs

if TYPE_CHECKING:
    import jsonschema
    from jsonschema.exceptions import ValidationError

Place = tuple[str | int, ...]


def own_keywords(subschema: Any) -> Any:
    """``subschema`` asking about the value alone: the members it names are known, not looked into
    (a member's subschema of ``true`` or ``false`` is kept: asking it is asking about the member's
    presence, and it has no members of its own to enter)."""
    if not isinstance(subschema, dict):
        return subschema
    own = dict(subschema)
    if isinstance(own.get("properties"), dict):
        own["properties"] = {name: True if isinstance(sub, dict) else sub for name, sub in own["properties"].items()}
    for keyword in ("items", "additionalProperties"):
        if isinstance(own.get(keyword), dict):
            own[keyword] = True
    return own


def members(keyword: str, subschema: dict[str, Any], value: Any) -> Iterator[tuple[str | int, Any, Any]]:
    """``(key or index, its subschema, the member)`` for each member that ``keyword`` of ``subschema``
    looks into and ``own_keywords`` does not, in the order the reference validator enters them."""
    named = subschema.get("properties")
    named = named if isinstance(named, dict) else {}
    if keyword == "properties" and isinstance(value, dict):
        for key, member_schema in named.items():
            if key in value and isinstance(member_schema, dict):
                yield key, member_schema, value[key]
    elif keyword == "additionalProperties" and isinstance(value, dict) and isinstance(subschema[keyword], dict):
        for key, member in value.items():
            if key not in named:
                yield key, subschema[keyword], member
    elif keyword == "items" and isinstance(value, list) and isinstance(subschema[keyword], dict):
        for index, member in enumerate(value):
            yield index, subschema[keyword], member


class LocalErrors:
    """The errors of one published schema, found by entering only what jsonschema-rs rejects. The
    schema must hold no ``$ref`` (each subschema is checked on its own); the artifacts' schemas inline
    every shape."""

    def __init__(self, reference: jsonschema.Draft202012Validator) -> None:
        self._reference = reference
        self._checkers: dict[int, Any] = {}
        """A jsonschema-rs validator per subschema met, by identity (the schema lives as long as this)."""

    def _accepts(self, subschema: dict[str, Any], value: Any) -> bool:
        checker = self._checkers.get(id(subschema))
        if checker is None:
            checker = self._checkers[id(subschema)] = jsonschema_rs.validator_for(subschema)
        return bool(checker.is_valid(value))

    def errors(self, document: Any) -> Iterator[ValidationError]:
        """The reference validator's errors, in the order its walk of the whole document meets them."""
        yield from self._errors_at((), self._reference.schema, document)

    def _errors_at(self, place: Place, subschema: Any, value: Any) -> Iterator[ValidationError]:
        """The errors at and under ``place``, keyword by keyword in the subschema's order, as the
        reference validator's whole walk meets them (what is kept when a document has more errors
        than are looked for depends on that order)."""
        if not isinstance(subschema, dict) or self._accepts(subschema, value):
            return
        own: dict[str, list[ValidationError]] = {}
        for error in self._reference.evolve(schema=own_keywords(subschema)).iter_errors(value):
            error.relative_path.extendleft(reversed(place))
            keyword = error.relative_schema_path[0] if error.relative_schema_path else ""
            own.setdefault(str(keyword), []).append(error)  # the keyword of this subschema that made it
        for keyword in subschema:
            yield from own.pop(keyword, ())
            for key, member_schema, member in members(keyword, subschema, value):
                yield from self._errors_at((*place, key), member_schema, member)
        for errors in own.values():  # none: every error's schema path starts with a keyword of the subschema
            yield from errors
