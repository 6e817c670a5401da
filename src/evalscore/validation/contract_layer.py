"""The contract layer: the published schemas, checked fast, explained well.

jsonschema-rs decides validity on the hot path; only for a document it
rejects does the reference ``jsonschema`` library list the errors, ordered
so that the most useful comes first. A test proves the two give the same
verdict on every fixture.

A number beyond the range of a double (``1e400``) is valid JSON grammar that
the parser reads as infinity, a value JSON cannot hold: written back out it
would become ``null`` ("not observed"). jsonschema-rs rejects infinity under
every ``type``; the copy of each schema it checks also spells the free-form
parts (``args``, ``result``, ``config``, ``params``) as "any JSON value", so an
infinity anywhere makes the document invalid at no cost to valid ones, and the
explanation then names each such number as a syntax finding.
"""

from __future__ import annotations

import itertools
import math
import reprlib
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any, Final

import jsonschema_rs
import orjson

from evalscore.artifact_kinds import REPORT_SCHEMA_FILE, SCHEMA_FILES, ArtifactKind
from evalscore.finding_codes import NOT_JSON
from evalscore.findings import Finding, JsonPath, join_pointer, pointer_of
from evalscore.published import published_schema
from evalscore.validation.local_errors import LocalErrors

if TYPE_CHECKING:
    import jsonschema
    from jsonschema.exceptions import ValidationError

JSON_VALUE_DEF: Final = "evalscore-json-value"
_JSON_VALUE: Final = {"$ref": f"#/$defs/{JSON_VALUE_DEF}"}
_CONSTRAINING: Final = frozenset({"type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const", "not"})


@cache
def fast_validator(kind: ArtifactKind) -> Any:
    return jsonschema_rs.validator_for(finite_json_schema(published_schema(SCHEMA_FILES[kind])))


def finite_json_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with every place that accepts any value narrowed to any *JSON* value
    (a document, as JSON, passes exactly when it passed before)."""
    narrowed = _narrowed(schema)
    definitions = dict(narrowed.get("$defs", {}))
    definitions[JSON_VALUE_DEF] = {
        "type": ["null", "boolean", "number", "string", "array", "object"],
        "items": _JSON_VALUE,
        "additionalProperties": _JSON_VALUE,
    }
    return {**narrowed, "$defs": definitions}


_SCHEMA_MAPS: Final = ("properties", "$defs", "patternProperties", "dependentSchemas")
"""Keywords whose value maps names to subschemas."""
_SCHEMA_LISTS: Final = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_VALUES: Final = ("items", "additionalProperties", "not", "propertyNames", "contains", "if", "then", "else")


def _narrowed(schema: Any) -> Any:
    """One subschema narrowed: where it accepts anything, it now accepts any JSON value."""
    if schema is True:
        return _JSON_VALUE
    if not isinstance(schema, dict):
        return schema
    result = dict(schema)
    for keyword in _SCHEMA_MAPS:
        if isinstance(result.get(keyword), dict):
            result[keyword] = {name: _narrowed(sub) for name, sub in result[keyword].items()}
    for keyword in _SCHEMA_LISTS:
        if isinstance(result.get(keyword), list):
            result[keyword] = [_narrowed(sub) for sub in result[keyword]]
    for keyword in _SCHEMA_VALUES:
        if keyword in result:
            result[keyword] = _narrowed(result[keyword])
    if not _CONSTRAINING & result.keys():
        result.update(_JSON_VALUE)
    return result


@cache
def _finite_validator() -> Any:
    """Accepts any JSON value in which every number is finite (jsonschema-rs refuses infinity under every type)."""
    return jsonschema_rs.validator_for(finite_json_schema({}))


def nonfinite_numbers(document: Any) -> Iterator[str]:
    """The JSON Pointer of every number in ``document`` that is not finite, in document order."""
    stack: list[tuple[JsonPath, Any]] = [((), document)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            yield pointer_of(path)
        elif isinstance(value, dict):
            stack.extend(((*path, key), item) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend(((*path, index), value[index]) for index in reversed(range(len(value))))


def _out_of_range(pointer: str) -> Finding:
    return Finding(
        layer="syntax",
        code=NOT_JSON,
        severity="error",
        pointer=pointer,
        message=f"a number beyond the range of a double (read as infinity, which JSON cannot hold) at {pointer or '/'}",
    )


BRANCH_ERRORS: Final = 32
"""Errors an ``anyOf`` keeps from each branch that fails: enough for ``_deepest`` to pick the branch
that explains most. The reference library keeps every one, so an optional score whose two arrays
held 400,000 wrong values each (1.6 MB) took 43 s and 2.8 GB to explain; its valid twin, 0.3 s.
The price: a branch is ranked among its first 32 errors, as a document's findings are ranked among
the first ones looked for, so a deeper error past them is not the one shown."""


def _bounded_any_of(
    validator: jsonschema.Draft202012Validator, branches: list[Any], instance: Any, schema: Any
) -> Iterator[ValidationError]:
    """``anyOf`` as the reference library checks it, keeping at most ``BRANCH_ERRORS`` errors of each
    failing branch (a branch is valid exactly when it yields none, so the verdict is the same)."""
    from jsonschema.exceptions import ValidationError  # noqa: PLC0415 - imported with the reference validator

    kept: list[ValidationError] = []
    for index, branch in enumerate(branches):
        errors = list(itertools.islice(validator.descend(instance, branch, schema_path=index), BRANCH_ERRORS))
        if not errors:
            return
        kept.extend(errors)
    # ``_deepest`` always explains a branch's error instead, so this message is never shown: a bounded
    # repr spares writing out an instance of any size.
    yield ValidationError(f"{reprlib.repr(instance)} is not valid under any of the given schemas", context=kept)


@cache
def _reference_class() -> type[jsonschema.Draft202012Validator]:
    import jsonschema  # noqa: PLC0415 - see _reference_validator_of

    extended: type[jsonschema.Draft202012Validator] = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        jsonschema.Draft202012Validator, {"anyOf": _bounded_any_of}
    )
    return extended


def _reference_validator_of(schema: dict[str, Any]) -> jsonschema.Draft202012Validator:
    """The reference validator, imported only when a document is rejected: it costs more to
    import than a small valid document costs to check."""
    return _reference_class()(schema)


@cache
def reference_validator(kind: ArtifactKind) -> jsonschema.Draft202012Validator:
    return _reference_validator_of(published_schema(SCHEMA_FILES[kind]))


def is_contract_valid(kind: ArtifactKind, document: Any) -> bool:
    return bool(fast_validator(kind).is_valid(document))


def _deepest(error: ValidationError) -> ValidationError:
    """For anyOf/oneOf, the branch error that explains most, as jsonschema's best_match does."""
    while error.context:
        error = min(error.context, key=_sort_key)
    return error


def _sort_key(error: ValidationError) -> Any:
    from jsonschema.exceptions import relevance  # noqa: PLC0415 - imported with the reference validator

    return relevance(error)


MAX_MESSAGE_CHARS = 240
REGEX_ENGINE_LIMIT: Final = 500_000
"""Characters from which jsonschema-rs may give up matching a string against a ``pattern`` and call it
invalid: its regex engine stops after a million backtracking steps, and the schemas' patterns take
about one a character (a timestamp with a million fraction digits was rejected). A document holding
a string this long that jsonschema-rs rejects and the reference validator accepts is valid."""


def holds_string_of(document: Any, length: int) -> bool:
    """Whether ``document`` holds a string (a key or a value) of at least ``length`` characters."""
    pending = [document]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if len(value) >= length:
                return True
        elif isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return False


def _shorten(message: str) -> str:
    """jsonschema quotes the whole offending value; a long array or object says nothing more."""
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    return message[: MAX_MESSAGE_CHARS - 21] + " ... (value shortened)"


def contract_findings(kind: ArtifactKind, document: Any, at_most: int | None = None) -> Iterator[Finding]:
    """Contract findings, the most useful first; none when the document conforms.

    With ``at_most``, only the first ``at_most`` errors the reference validator meets are
    explained and ranked: explaining costs far more than checking, and a document with
    300,000 wrong values must not cost 300,000 explanations to say it is invalid.
    """
    if is_contract_valid(kind, document):
        return
    yield from _explained(reference_validator(kind), document, at_most, local_errors(kind))


@cache
def _report_validators() -> tuple[Any, jsonschema.Draft202012Validator]:
    schema = published_schema(REPORT_SCHEMA_FILE)
    return jsonschema_rs.validator_for(finite_json_schema(schema)), _reference_validator_of(schema)


def report_findings(document: Any) -> Iterator[Finding]:
    """Findings of a document read as an ``evalscore score --format json`` report (a baseline), against
    its published schema; none when it conforms."""
    fast, reference = _report_validators()
    if fast.is_valid(document):
        return
    yield from _explained(reference, document)


@cache
def local_errors(kind: ArtifactKind) -> LocalErrors | None:
    """The reference validator's errors of ``kind`` found in the values jsonschema-rs rejects; None for a
    schema with a ``$ref`` (its subschemas cannot be checked on their own)."""
    reference = reference_validator(kind)
    return None if b'"$ref"' in orjson.dumps(reference.schema) else LocalErrors(reference)


def _explained(
    reference: jsonschema.Draft202012Validator,
    document: Any,
    at_most: int | None = None,
    local: LocalErrors | None = None,
) -> Iterator[Finding]:
    """Why a document the fast validator rejected is invalid: numbers JSON cannot hold, else the schema's
    errors, looked for in the values jsonschema-rs rejects (``local``), or by walking the whole document."""
    if not _finite_validator().is_valid(document):  # the document is walked in Python only when it holds one
        out_of_range = [_out_of_range(pointer) for pointer in itertools.islice(nonfinite_numbers(document), at_most)]
        if out_of_range:
            yield from out_of_range
            return
    found = reference.iter_errors(document) if local is None else local.errors(document)
    errors = sorted(itertools.islice(found, at_most), key=_sort_key)
    if not errors and holds_string_of(document, REGEX_ENGINE_LIMIT):
        return  # jsonschema-rs gave up on a pattern; the reference validator, which did not, decides
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
