"""Differential fuzzing: the published schemas and the models accept the same documents,
except where a documented coherence rule (docs/DIVERGENCE.md) fires, and then it names itself.

Three sources of documents:
- generated from each committed schema (hypothesis-jsonschema), so schema-valid by construction;
- valid fixtures changed by hypothesis, into other valid documents or near misses
  (wrong types, extra keys, out-of-range numbers, ``"1"``/``true``/``1.0`` for ``1``);
- both validators (jsonschema-rs on the hot path, the reference ``jsonschema``) on all of them.
"""

from __future__ import annotations

import copy
import functools
import gzip
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import jsonschema
import jsonschema_rs
import pytest
from _jsonschema_compat import install
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from pydantic import ValidationError

from evalscore.coherence import RULES, coherence_findings
from evalscore.contract.builder import ARTIFACT_KINDS, SCHEMA_FILES
from evalscore.inputs.yaml_loader import load_yaml
from evalscore.models.by_kind import MODELS
from evalscore.validation import contract_layer

install()

ROOT: Final = Path(__file__).resolve().parents[2]
SCHEMA_DIR: Final = ROOT / "schemas" / "v1"
VALID: Final = ROOT / "fixtures" / "valid"
DOCUMENTED_CODES: Final = frozenset(
    re.findall(r"ES1[0-9]{2}", (ROOT / "docs" / "DIVERGENCE.md").read_text(encoding="utf-8"))
)


def published_schema(kind: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((SCHEMA_DIR / SCHEMA_FILES[kind]).read_text(encoding="utf-8"))  # type: ignore[index]
    return schema


def bounded(node: Any) -> Any:
    """A copy of a schema whose arrays and free-form objects are small: a subset of the same language.

    Every document it generates is valid under the published schema; the bound keeps generation
    fast and under Hypothesis's entropy limit (unbounded, a generated run averages ~1 s and often
    fails the ``data_too_large`` health check).
    """
    if isinstance(node, list):
        return [bounded(item) for item in node]
    if not isinstance(node, dict):
        return node
    copied = {key: bounded(value) for key, value in node.items()}
    if copied.get("type") == "array" and "maxItems" not in copied:
        copied["maxItems"] = max(2, copied.get("minItems", 0))
    if copied.get("type") == "object" and copied.get("additionalProperties") is True:
        copied["maxProperties"] = 3
    return copied


@functools.cache
def generated(kind: str) -> st.SearchStrategy[Any]:
    return from_schema(bounded(published_schema(kind)))


REFERENCE = {kind: jsonschema.Draft202012Validator(published_schema(kind)) for kind in ARTIFACT_KINDS}
FAST = {kind: jsonschema_rs.validator_for(published_schema(kind)) for kind in ARTIFACT_KINDS}


def _documents(path: Path) -> list[Any]:
    data = path.read_bytes()
    name = path.name
    if name.endswith(".gz"):
        data, name = gzip.decompress(data), name.removesuffix(".gz")
    if name.endswith((".yaml", ".yml")):
        return [load_yaml(data)]
    text = data.decode("utf-8")
    if name.endswith(".jsonl"):
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return [json.loads(text)]


def _valid_fixtures() -> list[tuple[str, Any]]:
    found = []
    for path in sorted(VALID.rglob("*")):
        if path.is_file():
            found.extend((path.parent.name, document) for document in _documents(path))
    return found


VALID_DOCUMENTS: Final = _valid_fixtures()

VALID_DOCUMENTS_BY_KIND: Final = {
    kind: [document for document_kind, document in VALID_DOCUMENTS if document_kind == kind] for kind in ARTIFACT_KINDS
}


def model_verdict(kind: str, document: Any) -> list[dict[str, Any]] | None:
    """None when the models accept the document, else the errors of their rejection."""
    try:
        MODELS[kind].model_validate(document)  # type: ignore[index]
    except ValidationError as error:
        return [dict(detail) for detail in error.errors()]
    return None


def coherence_error_codes(kind: str, document: Any) -> set[str]:
    return {finding.code for finding in coherence_findings(kind, document) if finding.is_error}


def schema_verdict(kind: str, document: Any) -> bool:
    """The published schema's verdict; both validators must give it."""
    reference = REFERENCE[kind].is_valid(document)
    fast = FAST[kind].is_valid(document)
    assert fast == reference, f"jsonschema-rs says {fast}, jsonschema says {reference}"
    return reference


def assert_the_layers_agree(kind: str, document: Any) -> bool:
    """The whole differential contract on one document; True when the document is valid."""
    accepted_by_schema = schema_verdict(kind, document)
    rejection = model_verdict(kind, document)
    if not accepted_by_schema:
        assert rejection is not None, "the models accept a document the published schema rejects"
        return False
    codes = coherence_error_codes(kind, document)
    if rejection is None:
        assert codes == set()
        return True
    assert [detail["type"] for detail in rejection] == ["coherence"], f"not a coherence rule: {rejection}"
    assert codes, "the models reject a schema-valid document that no coherence rule flags"
    assert codes <= DOCUMENTED_CODES, f"undocumented divergence: {sorted(codes - DOCUMENTED_CODES)}"
    (detail,) = rejection
    errors = [finding for finding in coherence_findings(kind, document) if finding.is_error]
    assert detail["ctx"]["count"] == len(errors)
    assert all(f"{finding.code} {finding.message}" in detail["msg"] for finding in errors)
    return False


# --- schema -> models ------------------------------------------------------------------------


def test_every_documented_divergence_is_an_error_rule_of_the_registry() -> None:
    error_codes = {rule.code for rule in RULES if rule.severity == "error" and rule.code.startswith("ES1")}
    assert error_codes == DOCUMENTED_CODES
    assert len(DOCUMENTED_CODES) == 20


@pytest.mark.parametrize("kind", ARTIFACT_KINDS)
@given(data=st.data())
def test_a_document_generated_from_the_published_schema_parses_and_round_trips_unless_a_documented_rule_fires(
    kind: str, data: st.DataObject
) -> None:
    document = data.draw(generated(kind), label="document")
    assert schema_verdict(kind, document)
    if assert_the_layers_agree(kind, document):
        assert_round_trip(kind, document)


OFFSET_TIMESTAMP = published_schema("run")["properties"]["task_results"]["items"]["properties"]["step_results"][
    "items"
]["properties"]["gate_events"]["items"]["properties"]["opened_at"]["anyOf"][0]


@given(from_schema(OFFSET_TIMESTAMP))
def test_the_rfc3339_pattern_with_its_end_of_text_lookahead_generates_offset_timestamps(text: str) -> None:
    # hypothesis-jsonschema handles ``(?![\s\S])`` itself: no stand-in ``enum`` is needed.
    assert re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9:.]+([Zz]|[+-][0-9]{2}:[0-9]{2})", text)
    assert FAST["step-score"].is_valid({**VALID_DOCUMENTS_BY_KIND["step-score"][0], "reviewed_at": text})


# --- mutated fixtures: models -> schema, and near misses -------------------------------------

Path_ = tuple[str | int, ...]


def locations(node: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    """Every value of a JSON document with its path, the root first."""
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from locations(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from locations(value, (*path, index))


def replace_at(document: Any, path: Path_, value: Any) -> Any:
    changed = copy.deepcopy(document)
    if not path:
        return value
    parent = changed
    for token in path[:-1]:
        parent = parent[token]
    parent[path[-1]] = value
    return changed


def delete_at(document: Any, path: Path_) -> Any:
    changed = copy.deepcopy(document)
    parent = changed
    for token in path[:-1]:
        parent = parent[token]
    del parent[path[-1]]
    return changed


# Values that lax validators coerce or that sit on a constraint's edge.
NEAR_MISSES: Final = (
    "1", "", "true", "0", "2026-03-01T09:00:00", "2026-03-01T09:00:00Z",
    True, False, None, 0, 1, -1, 2, 3, 4, 1.0, 0.0, -0.0, 1.5, -0.5, 0.999, 1.0000001,
    2**63, 2**64 + 1, 1e300, [], [1], {}, {"x": 1},
)  # fmt: skip


def scalar_edits(value: Any) -> list[Any]:
    """Edits aimed at the value's own type: its string, bool and float spellings, and its neighbours."""
    if isinstance(value, bool):
        return [int(value), str(value).lower(), not value]
    if isinstance(value, int | float):
        return [str(value), float(value), value + 1, value - 1, -value, bool(value), value + 0.5]
    if isinstance(value, str):
        return [value + "\n", " " + value, value.upper(), value[:-1], 1]
    return []


@st.composite
def mutated_fixture(draw: st.DrawFn) -> tuple[str, Any]:
    kind, document = draw(st.sampled_from(VALID_DOCUMENTS), label="fixture")
    for _ in range(draw(st.integers(1, 3), label="edits")):
        spots = list(locations(document))
        path, value = draw(st.sampled_from(spots), label="at")
        edit = draw(st.sampled_from(["replace", "nudge", "delete", "add-key", "copy-item", "drop-item"]))
        if edit == "replace" and path:
            document = replace_at(document, path, draw(st.sampled_from(NEAR_MISSES)))
        elif edit == "nudge" and path and scalar_edits(value):
            document = replace_at(document, path, draw(st.sampled_from(scalar_edits(value))))
        elif edit == "delete" and path:
            document = delete_at(document, path)
        elif edit == "add-key" and isinstance(value, dict):
            key = draw(st.sampled_from(["extra", "uses", "score", "opened_at", "addressed", "pairings", "content"]))
            document = replace_at(document, path, {**value, key: draw(st.sampled_from(NEAR_MISSES))})
        elif edit == "copy-item" and isinstance(value, list) and value:
            item = draw(st.sampled_from(value))
            document = replace_at(document, path, [*value, copy.deepcopy(item)])
        elif edit == "drop-item" and isinstance(value, list) and value:
            document = replace_at(document, path, value[1:])
    return kind, document


@given(mutated_fixture())
def test_a_changed_fixture_gets_the_same_verdict_from_both_validators_and_the_models(case: tuple[str, Any]) -> None:
    kind, document = case
    assert_the_layers_agree(kind, document)


GATE_EVENT_SCHEMA: Final = published_schema("run")["properties"]["task_results"]["items"]["properties"]["step_results"][
    "items"
]["properties"]["gate_events"]["items"]


@given(
    fixture=st.sampled_from(
        [doc for kind, doc in VALID_DOCUMENTS if kind in ("run", "scored-run") and doc["task_results"]]
    ),
    events=st.lists(from_schema(bounded(GATE_EVENT_SCHEMA)), min_size=1, max_size=3),
)
def test_a_run_with_generated_gate_events_added_gets_the_same_verdict_from_schema_and_models(
    fixture: dict[str, Any], events: list[dict[str, Any]]
) -> None:
    document = copy.deepcopy(fixture)
    step = document["task_results"][0]["step_results"][0]
    step["gate_events"] = [*step.get("gate_events", []), *events]
    kind = "scored-run" if "score" in step else "run"
    assert_the_layers_agree(kind, document)


def test_the_fixtures_changed_by_the_fuzzer_cover_every_kind() -> None:
    assert {kind for kind, _ in VALID_DOCUMENTS} == set(ARTIFACT_KINDS)
    assert len(VALID_DOCUMENTS) >= 20
    assert all(assert_the_layers_agree(kind, document) for kind, document in VALID_DOCUMENTS)


# --- round trip ------------------------------------------------------------------------------


def assert_round_trip(kind: str, document: Any) -> None:
    model = MODELS[kind].model_validate(document)  # type: ignore[index]
    dumped = model.model_dump(mode="json")
    assert schema_verdict(kind, dumped), "the dump of a valid artifact must be schema-valid"
    assert MODELS[kind].model_validate(dumped) == model  # type: ignore[index]


def test_every_valid_fixture_survives_a_dump_and_parse_round_trip() -> None:
    for kind, document in VALID_DOCUMENTS:
        assert_round_trip(kind, document)
    assert len(VALID_DOCUMENTS) >= 20


@given(mutated_fixture())
def test_a_changed_fixture_the_models_accept_survives_a_dump_and_parse_round_trip(case: tuple[str, Any]) -> None:
    kind, document = case
    if assert_the_layers_agree(kind, document):
        assert_round_trip(kind, document)


# --- disagreements the fuzzer found (minimal cases; see the report to the lead) ---------------

HUGE: Final = 10**400  # a JSON integer beyond float range: valid for JSON Schema's "number" and "integer"


def _run_with(edit: dict[str, Any], gate_edit: dict[str, Any] | None = None) -> dict[str, Any]:
    document = copy.deepcopy(
        next(doc for kind, doc in VALID_DOCUMENTS if kind == "run" and doc["run_id"] == "run-full-v3")
    )
    step = document["task_results"][0]["step_results"][0]
    step.update(edit)
    if gate_edit is not None:
        step["gate_events"][1].update(gate_edit)
    return document


def test_a_number_field_holding_an_integer_beyond_float_range_is_accepted_by_both_layers() -> None:
    document = _run_with({"latency_ms": HUGE})
    assert schema_verdict("run", document)
    assert model_verdict("run", document) is None


def test_a_task_calls_before_beyond_float_range_is_rejected_by_rule_es111_not_by_a_crash() -> None:
    document = _run_with({}, {"task_calls_before": HUGE})
    assert schema_verdict("run", document)
    assert coherence_error_codes("run", document) == {"ES111"}
    assert_the_layers_agree("run", document)


# --- explaining: only the rejected values entered, or the whole document walked --------------


@given(mutated_fixture(), st.sampled_from([1, 2, 3, 21, None]))
def test_a_changed_fixture_is_explained_alike_whether_only_rejected_values_are_entered_or_all_of_it(
    case: tuple[str, Any], at_most: int | None
) -> None:
    """Alike down to which errors are kept when there are more than are looked for: the walk meets
    them in the whole walk's order."""
    kind, document = case
    assume(not contract_layer.is_contract_valid(kind, document))  # type: ignore[arg-type]
    whole_walk = jsonschema.Draft202012Validator(published_schema(kind))
    entered = list(contract_layer.contract_findings(kind, document, at_most))  # type: ignore[arg-type]
    assert entered
    assert entered == list(contract_layer._explained(whole_walk, document, at_most))
