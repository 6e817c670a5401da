"""Explaining why a document is invalid costs about what checking it costs: an ``anyOf`` keeps at
most ``BRANCH_ERRORS`` errors of each failing branch, where the reference library kept them all
(an optional score holding 800,000 wrong values took 43 s and 2.8 GB), and every contract fixture
is explained exactly as the unbounded reference library explains it."""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from jsonschema.exceptions import ValidationError

from evalscore.inputs.yaml_loader import load_yaml
from evalscore.published import published_schema
from evalscore.validation import contract_layer
from evalscore.validation.contract_layer import BRANCH_ERRORS, contract_findings, reference_validator

ROOT = Path(__file__).resolve().parents[2]
RUN = json.loads((ROOT / "fixtures" / "valid" / "run" / "minimal.json").read_text())
CONTRACT_FIXTURES = sorted(
    (kind.name, path)
    for kind in (ROOT / "fixtures" / "invalid").iterdir()
    for path in kind.iterdir()
    if path.name.startswith("schema.") and path.suffix in {".json", ".yaml"}
)


def a_run_whose_optional_score_holds(wrong_items: int) -> dict[str, Any]:
    run = copy.deepcopy(RUN)
    step = run["task_results"][0]["step_results"][0]
    step["auto_score"] = {
        "tool_match": True,
        "distraction_caught": None,
        "gates": {
            "mandated": {"required": [1] * wrong_items, "honored": [], "violated": [], "pairings": []},
            "discretionary": None,
        },
    }
    return run


def branch_sizes(error: ValidationError) -> list[int]:
    """For every ``anyOf`` error in the tree under ``error``, how many errors each failing branch kept."""
    sizes: list[int] = []
    if error.validator == "anyOf":
        by_branch = itertools.groupby(error.context, key=lambda branch_error: branch_error.relative_schema_path[0])
        sizes.extend(len(list(errors)) for _, errors in by_branch)
    for inner in error.context:
        sizes.extend(branch_sizes(inner))
    return sizes


def test_the_contract_fixtures_are_all_collected() -> None:
    assert len(CONTRACT_FIXTURES) >= 20
    assert {kind for kind, _ in CONTRACT_FIXTURES} == {"eval-suite", "run", "scored-run", "step-score"}


def test_an_any_of_keeps_at_most_its_bound_of_each_failing_branch_s_errors() -> None:
    errors = list(reference_validator("run").iter_errors(a_run_whose_optional_score_holds(1000)))
    assert len(errors) == 1
    sizes = branch_sizes(errors[0])
    assert len(sizes) == 4  # auto_score's two branches, then mandated's two
    assert max(sizes) == BRANCH_ERRORS
    assert sorted(sizes) == [1, 1, 1, BRANCH_ERRORS]


def test_the_finding_is_the_first_wrong_value_whatever_the_bound() -> None:
    (finding,) = contract_findings("run", a_run_whose_optional_score_holds(1000), at_most=21)
    assert finding.code == "schema.type"
    assert finding.pointer == "/task_results/0/step_results/0/auto_score/gates/mandated/required/0"
    assert finding.message.startswith("1 is not of type 'string'")


def test_a_document_whose_branch_is_valid_raises_no_any_of_error() -> None:
    assert list(reference_validator("run").iter_errors(a_run_whose_optional_score_holds(0))) == []


@pytest.mark.parametrize("case", CONTRACT_FIXTURES, ids=lambda case: f"{case[0]}/{case[1].name}")
def test_every_contract_fixture_is_explained_as_the_unbounded_reference_explains_it(case: tuple[str, Path]) -> None:
    kind, path = case
    document = load_yaml(path.read_bytes()) if path.suffix == ".yaml" else json.loads(path.read_text())
    unbounded = jsonschema.Draft202012Validator(published_schema(contract_layer.SCHEMA_FILES[kind]))  # type: ignore[index]
    bounded = list(contract_findings(kind, document, at_most=21))  # type: ignore[arg-type]
    assert bounded
    assert bounded == list(contract_layer._explained(unbounded, document, 21))


def a_run_whose_last_step_is_wrong(steps: int) -> dict[str, Any]:
    run = copy.deepcopy(RUN)
    step = run["task_results"][0]["step_results"][0]
    run["task_results"][0]["step_results"] = [{**step, "step_n": n + 1} for n in range(steps)]
    run["task_results"][0]["step_results"][-1]["latency_ms"] = "slow"
    return run


def test_the_reference_validator_is_asked_only_about_the_values_jsonschema_rs_rejects(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[Any] = []
    reference_class = type(reference_validator("run"))
    real_evolve = reference_class.evolve

    def counting(self: Any, **changes: Any) -> Any:
        asked.append(changes["schema"])
        return real_evolve(self, **changes)

    monkeypatch.setattr(reference_class, "evolve", counting)
    local = contract_layer.local_errors("run")
    assert local is not None
    errors = list(local.errors(a_run_whose_last_step_is_wrong(500)))
    assert [list(error.absolute_path) for error in errors] == [["task_results", 0, "step_results", 499, "latency_ms"]]
    assert len(asked) == 6  # the run, task_results, its task, step_results, the last step, its latency
    assert all(properties is True for schema in asked for properties in schema.get("properties", {}).values())


@pytest.mark.parametrize("kind", ["run", "scored-run", "eval-suite", "step-score"])
def test_every_artifact_s_schema_is_explained_by_entering_only_rejected_values(kind: str) -> None:
    assert isinstance(contract_layer.local_errors(kind), contract_layer.LocalErrors)  # type: ignore[arg-type]


def test_a_schema_with_references_is_explained_by_walking_it_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    with_reference = contract_layer._reference_validator_of({"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n"})
    monkeypatch.setattr(contract_layer, "reference_validator", lambda _kind: with_reference)
    assert contract_layer.local_errors.__wrapped__("run") is None


def test_with_more_errors_than_are_looked_for_the_same_ones_are_kept_as_by_the_whole_walk() -> None:
    run = copy.deepcopy(RUN)
    step = run["task_results"][0]["step_results"][0]
    run["task_results"][0]["step_results"][0] = {**step, "gate_events": [5] * 150, "agent_tool_calls": [5]}
    whole_walk = jsonschema.Draft202012Validator(published_schema(contract_layer.SCHEMA_FILES["run"]))
    entered = list(contract_findings("run", run, at_most=101))
    assert len(entered) == 101
    assert entered == list(contract_layer._explained(whole_walk, run, 101))
    assert entered[0].pointer == "/task_results/0/step_results/0/agent_tool_calls/0"


def test_a_member_whose_subschema_is_false_is_still_an_error_where_it_is() -> None:
    schema = {"type": "object", "properties": {"gone": False, "kept": {"type": "integer"}}}
    local = contract_layer.LocalErrors(contract_layer._reference_validator_of(schema))
    document = {"gone": 1, "kept": "x"}
    errors = [(error.message, list(error.absolute_path)) for error in local.errors(document)]
    assert errors == [("False schema does not allow 1", []), ("'x' is not of type 'integer'", ["kept"])]
    assert errors == [(error.message, list(error.absolute_path)) for error in local._reference.iter_errors(document)]
