"""A string long enough that jsonschema-rs gives up matching its pattern: the reference validator
decides, so evalscore's verdict is the reference's, and any other disagreement is still reported."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs
import pytest

from evalscore.validation import contract_layer
from evalscore.validation.checker import check_document
from evalscore.validation.contract_layer import REGEX_ENGINE_LIMIT, contract_findings, holds_string_of

ROOT = Path(__file__).resolve().parents[2]
RUN = json.loads((ROOT / "fixtures" / "valid" / "run" / "latency-without-timestamps.json").read_text())
SUITE_SCHEMA = json.loads((ROOT / "schemas" / "v1" / "eval-suite.schema.json").read_text())
RUN_SCHEMA = json.loads((ROOT / "schemas" / "v1" / "run.schema.json").read_text())


def opened_at(value: str) -> dict[str, Any]:
    run = copy.deepcopy(RUN)
    run["task_results"][0]["step_results"][0]["gate_events"][0]["opened_at"] = value
    return run


MILLION_DIGITS = "2026-03-01T09:00:00." + "1" * 1_000_000 + "Z"


def test_a_timestamp_with_a_million_fraction_digits_is_valid_as_the_reference_says() -> None:
    run = opened_at(MILLION_DIGITS)
    assert not jsonschema_rs.validator_for(RUN_SCHEMA).is_valid(run)  # the limit this works around
    assert jsonschema.Draft202012Validator(RUN_SCHEMA).is_valid(run)
    assert list(contract_findings("run", run)) == []
    kind, findings, _ = check_document(run)
    assert (kind, findings) == ("run", [])


def test_next_to_such_a_string_a_real_error_is_still_found_and_only_it() -> None:
    run = opened_at(MILLION_DIGITS)
    run["task_results"][0]["step_results"][0]["latency_ms"] = "slow"
    findings = list(contract_findings("run", run))
    assert [finding.pointer for finding in findings] == ["/task_results/0/step_results/0/latency_ms"]


def test_a_long_invalid_timestamp_is_invalid_for_both() -> None:
    run = opened_at(MILLION_DIGITS[:-1] + "Q")
    assert not jsonschema.Draft202012Validator(RUN_SCHEMA).is_valid(run)
    findings = list(contract_findings("run", run))
    assert [finding.code for finding in findings] == ["schema.pattern"]


def test_a_suite_version_of_a_million_digits_is_judged_by_the_reference_too() -> None:
    suite = json.loads((ROOT / "fixtures" / "valid" / "eval-suite" / "minimal.json").read_text())
    suite["suite"]["version"] = "1.0." + "0" * 1_000_000
    assert jsonschema.Draft202012Validator(SUITE_SCHEMA).is_valid(suite)
    assert list(contract_findings("eval-suite", suite)) == []


@pytest.mark.parametrize(("length", "reported"), [(REGEX_ENGINE_LIMIT - 1, True), (REGEX_ENGINE_LIMIT, False)])
def test_a_disagreement_no_long_string_explains_is_still_reported(
    length: int, reported: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As if jsonschema-rs rejected a document the reference accepts, for a reason of its own.
    monkeypatch.setattr(contract_layer, "is_contract_valid", lambda kind, document: False)
    monkeypatch.setattr(contract_layer, "local_errors", lambda kind: None)
    run = copy.deepcopy(RUN)
    run["adapter"]["config"] = {"note": "x" * length}  # free text: no pattern
    codes = [finding.code for finding in contract_findings("run", run)]
    assert codes == (["schema.validator-disagreement"] if reported else [])


def test_a_long_string_is_found_as_a_key_or_a_value_at_any_depth() -> None:
    assert holds_string_of({"a": [1, {"b": "xxx"}]}, 3)
    assert holds_string_of({"a": [1, {"xxx": None}]}, 3)
    assert not holds_string_of({"a": [1, {"xx": "xx"}], "yy": 2.5}, 3)
    assert holds_string_of("xxx", 3)
