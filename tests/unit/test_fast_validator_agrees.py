"""jsonschema-rs (the hot path) and the reference jsonschema library give the same verdict."""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import jsonschema
import jsonschema_rs
import pytest

from evalscore.contract.builder import ARTIFACT_KINDS, SCHEMA_FILES
from evalscore.inputs.yaml_loader import load_yaml

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
SCHEMA_DIR = ROOT / "schemas" / "v1"


def _documents(path: Path) -> list[Any]:
    data = path.read_bytes()
    name = path.name
    if name.endswith(".gz"):
        data, name = gzip.decompress(data), name.removesuffix(".gz")
    try:
        text = data.decode("utf-8")
        if name.endswith(".jsonl"):
            return [json.loads(line) for line in text.splitlines() if line.strip()]
        if name.endswith((".yaml", ".yml")):
            return [load_yaml(data)]
        return [json.loads(text)]
    except ValueError:
        return []  # the syntax fixtures hold no document to validate


def _fixture_documents() -> list[tuple[str, str, Any]]:
    found = []
    for path in sorted(FIXTURES.rglob("*")):
        if path.is_file():
            kind = path.parent.name
            found.extend((f"{path.relative_to(FIXTURES)}#{i}", kind, doc) for i, doc in enumerate(_documents(path)))
    return found


def _schema(kind: str) -> dict[str, Any]:
    return json.loads((SCHEMA_DIR / SCHEMA_FILES[kind]).read_text())  # type: ignore[index]


def _with_overseer(overseer: Any) -> dict[str, Any]:
    run = json.loads((FIXTURES / "valid" / "run" / "latency-without-timestamps.json").read_text())
    run = copy.deepcopy(run)
    run["task_results"][0]["step_results"][0]["gate_events"][0]["overseers"] = [overseer]
    return run


def _with_opened_at(opened_at: Any) -> dict[str, Any]:
    run = json.loads((FIXTURES / "valid" / "run" / "latency-without-timestamps.json").read_text())
    del run["task_results"][0]["step_results"][0]["gate_events"][0]["decision_latency_ms"]
    run["task_results"][0]["step_results"][0]["gate_events"][0]["opened_at"] = opened_at
    return run


# Strings where regex engines are known to differ: Unicode white space, line ends, case.
OVERSEERS = ["a", " a", "\u3000", "\u00a0", "\u0085", "\u2028", "\u200b", "\x1c", "\ufeff", "\t\n", "é", "\U0001f600"]
OPENED_AT = [
    "2026-03-01T09:00:00Z",
    "2026-03-01t09:00:00z",
    "2026-03-01T09:00:00Z\n",
    "2026-03-01T09:00:00+05:30\n",
    "2026-03-01T09:00:00",
    "2026-03-01 09:00:00Z",
    "2026-03-01T09:00:60.123456789-00:00",
    "\uff12\uff10\uff12\uff16-03-01T09:00:00Z"  # full-width digits: \d would match them in Python,
    "2026-03-01T09:00:00Z ",
    "2026-13-01T09:00:00Z",
]
EXTRA = [(f"overseer {o!r}", "run", _with_overseer(o)) for o in OVERSEERS] + [
    (f"opened_at {t!r}", "run", _with_opened_at(t)) for t in OPENED_AT
]
CASES = _fixture_documents() + EXTRA


def test_the_agreement_check_covers_every_fixture_document_and_the_tricky_strings() -> None:
    assert len(CASES) >= 90
    assert {kind for _, kind, _ in CASES} == set(ARTIFACT_KINDS)


@pytest.mark.parametrize("kind", ARTIFACT_KINDS)
def test_both_validators_give_the_same_verdict_on_every_document_of_one_kind(kind: str) -> None:
    fast = jsonschema_rs.validator_for(_schema(kind))
    reference = jsonschema.Draft202012Validator(_schema(kind))
    checked = 0
    disagreements = []
    for name, case_kind, document in CASES:
        if case_kind != kind:
            continue
        checked += 1
        if fast.is_valid(document) != reference.is_valid(document):
            disagreements.append(name)
    assert disagreements == []
    assert checked == sum(1 for _, case_kind, _ in CASES if case_kind == kind) > 0


def test_the_tricky_strings_draw_both_verdicts() -> None:
    reference = jsonschema.Draft202012Validator(_schema("run"))
    verdicts = {reference.is_valid(document) for _, _, document in EXTRA}
    assert verdicts == {True, False}
    assert len(EXTRA) == len(OVERSEERS) + len(OPENED_AT)
