"""The contract layer: the published schemas, checked fast, explained well.

jsonschema-rs decides validity on the hot path; only for a document it
rejects does the reference ``jsonschema`` library list the errors, ordered
so that the most useful comes first. A test proves the two give the same
verdict on every fixture.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

import jsonschema
import jsonschema_rs
from jsonschema.exceptions import ValidationError, relevance

from evalscore.contract.builder import ArtifactKind, build_schema
from evalscore.findings import Finding, join_pointer


@cache
def fast_validator(kind: ArtifactKind) -> Any:
    return jsonschema_rs.validator_for(build_schema(kind))


@cache
def reference_validator(kind: ArtifactKind) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(build_schema(kind))


def is_contract_valid(kind: ArtifactKind, document: Any) -> bool:
    return bool(fast_validator(kind).is_valid(document))


def _deepest(error: ValidationError) -> ValidationError:
    """For anyOf/oneOf, the branch error that explains most, as jsonschema's best_match does."""
    while error.context:
        error = min(error.context, key=_sort_key)
    return error


def _sort_key(error: ValidationError) -> Any:
    return relevance(error)


MAX_MESSAGE_CHARS = 240


def _shorten(message: str) -> str:
    """jsonschema quotes the whole offending value; a long array or object says nothing more."""
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    return message[: MAX_MESSAGE_CHARS - 21] + " ... (value shortened)"


def contract_findings(kind: ArtifactKind, document: Any) -> Iterator[Finding]:
    """Contract findings, the most useful first; none when the document conforms."""
    if is_contract_valid(kind, document):
        return
    errors = sorted(reference_validator(kind).iter_errors(document), key=_sort_key)
    if not errors:
        yield Finding(
            layer="contract",
            code="schema.validator-disagreement",
            severity="error",
            pointer="",
            message="jsonschema-rs rejected the document but the reference validator accepts it; please report this",
        )
        return
    for error in errors:
        best = _deepest(error)
        path = list(best.absolute_path)
        if best.parent is not None and best.parent.validator == "propertyNames" and isinstance(best.instance, str):
            path.append(best.instance)  # the offending key itself, not the object holding it
        pointer = join_pointer("", *path)
        yield Finding(
            layer="contract",
            code=f"schema.{best.validator}",
            severity="error",
            pointer=pointer,
            message=f"{_shorten(best.message)} (at {pointer or '/'})",
        )
