"""The drift gate: missing, stale and extra schema files are reported; files are stable and closed."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from evalscore.contract.builder import (
    ARTIFACT_KINDS,
    REPORT_SCHEMA_FILE,
    SCHEMA_FILES,
    VALIDATION_REPORT_SCHEMA_FILE,
    build_schemas,
    render_schema,
)
from evalscore.contract.drift import REGENERATE_COMMAND, find_drift, write_schemas
from evalscore.models._base import RFC3339_OFFSET_PATTERN

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "schemas" / "v1"
PUBLISHED = sorted([*SCHEMA_FILES.values(), REPORT_SCHEMA_FILE, VALIDATION_REPORT_SCHEMA_FILE])
FREE_FORM = {"args", "result", "config", "params"}


@pytest.fixture
def schema_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "v1"
    assert len(write_schemas(directory)) == len(ARTIFACT_KINDS) + 2  # and the two reports'
    return directory


def test_freshly_generated_schemas_show_no_drift(schema_dir: Path) -> None:
    assert find_drift(schema_dir) == []
    assert sorted(p.name for p in schema_dir.iterdir()) == PUBLISHED


def test_a_missing_schema_file_is_reported(schema_dir: Path) -> None:
    (schema_dir / "run.schema.json").unlink()
    assert [(p.file, p.problem) for p in find_drift(schema_dir)] == [("run.schema.json", "missing")]


def test_a_stale_schema_file_is_reported_with_a_diff(schema_dir: Path) -> None:
    path = schema_dir / "step-score.schema.json"
    data = bytearray(path.read_bytes())
    index = data.index(b"One human review")
    data[index] = ord("o")
    path.write_bytes(bytes(data))
    (problem,) = find_drift(schema_dir)
    assert (problem.file, problem.problem) == ("step-score.schema.json", "stale")
    assert '-  "description": "one human review' in problem.diff
    assert '+  "description": "One human review' in problem.diff


def test_a_missing_trailing_newline_is_drift(schema_dir: Path) -> None:
    path = schema_dir / "eval-suite.schema.json"
    path.write_bytes(path.read_bytes().rstrip(b"\n"))
    assert [(p.file, p.problem) for p in find_drift(schema_dir)] == [("eval-suite.schema.json", "stale")]


def test_an_extra_schema_file_is_reported(schema_dir: Path) -> None:
    (schema_dir / "old-thing.schema.json").write_text("{}\n")
    problems = find_drift(schema_dir)
    assert len(problems) == 1
    assert problems[0].file == "old-thing.schema.json"
    assert problems[0].problem.startswith("extra")


def test_a_missing_schema_directory_reports_every_file_missing(tmp_path: Path) -> None:
    problems = find_drift(tmp_path / "nowhere")
    assert sorted((p.file, p.problem) for p in problems) == [(n, "missing") for n in PUBLISHED]


def test_write_schemas_writes_only_what_changed(schema_dir: Path) -> None:
    untouched = schema_dir / "run.schema.json"
    os.utime(untouched, ns=(1_000_000_000, 1_000_000_000))
    assert write_schemas(schema_dir) == []
    assert untouched.stat().st_mtime_ns == 1_000_000_000
    (schema_dir / "scored-run.schema.json").write_text("{}\n")
    assert write_schemas(schema_dir) == ["scored-run.schema.json"]
    assert untouched.stat().st_mtime_ns == 1_000_000_000
    assert find_drift(schema_dir) == []


def test_the_committed_schemas_have_no_drift() -> None:
    problems = find_drift(COMMITTED)
    assert [(p.file, p.problem) for p in problems] == [], f"regenerate with: {REGENERATE_COMMAND}"


def test_render_schema_sorts_keys_indents_two_spaces_and_ends_with_a_newline() -> None:
    rendered = render_schema({"b": 1, "a": {"d": [1], "c": None}})
    assert rendered == b'{\n  "a": {\n    "c": null,\n    "d": [\n      1\n    ]\n  },\n  "b": 1\n}\n'


@pytest.mark.parametrize("name", sorted(SCHEMA_FILES.values()))
def test_a_rendered_schema_round_trips_to_identical_bytes(name: str) -> None:
    rendered = render_schema(build_schemas()[name])
    assert rendered.endswith(b"}\n")
    assert render_schema(json.loads(rendered)) == rendered
    assert json.dumps(json.loads(rendered), indent=2, sort_keys=True, ensure_ascii=False).encode() + b"\n" == rendered


def _objects(node: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], dict[str, Any]]]:
    """Every sub-schema that describes an object, with the property path leading to it."""
    found: list[tuple[tuple[str, ...], dict[str, Any]]] = []
    if isinstance(node, dict):
        if node.get("type") == "object":
            found.append((path, node))
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                for prop, sub in value.items():
                    found.extend(_objects(sub, (*path, prop)))
            elif key not in {"properties", "default"}:
                found.extend(_objects(value, path))
    elif isinstance(node, list):
        for item in node:
            found.extend(_objects(item, path))
    return found


@pytest.mark.parametrize("kind", ARTIFACT_KINDS)
def test_every_schema_declares_itself_and_is_closed_except_in_the_free_form_objects(kind: str) -> None:
    schema = json.loads((COMMITTED / SCHEMA_FILES[kind]).read_text())
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith("/v1/" + SCHEMA_FILES[kind])
    assert schema["title"]
    assert schema["description"]
    assert schema["additionalProperties"] is False
    objects = _objects(schema)
    assert len(objects) >= 2
    for path, sub in objects:
        if (path and path[-1] in FREE_FORM) or (path and path[-1] == "dimensions"):
            continue
        assert sub.get("additionalProperties") is False, f"{kind}: {'/'.join(path) or '/'} is open"


@pytest.mark.parametrize("kind", ["run", "scored-run"])
def test_opened_at_and_resolved_at_carry_the_rfc3339_offset_pattern(kind: str) -> None:
    schema = json.loads((COMMITTED / SCHEMA_FILES[kind]).read_text())
    step = schema["properties"]["task_results"]["items"]["properties"]["step_results"]["items"]
    gate = step["properties"]["gate_events"]["items"]["properties"]
    for field in ("opened_at", "resolved_at"):
        patterns = [branch.get("pattern") for branch in gate[field]["anyOf"] if branch.get("type") == "string"]
        assert patterns == [RFC3339_OFFSET_PATTERN]


@pytest.mark.parametrize("kind", ARTIFACT_KINDS)
def test_the_schema_uses_only_json_schema_keywords_for_numeric_bounds(kind: str) -> None:
    text = (COMMITTED / SCHEMA_FILES[kind]).read_text()
    for pydantic_only in ('"ge":', '"gt":', '"le":', '"lt":'):
        assert pydantic_only not in text, f"{pydantic_only} is not a JSON Schema keyword and is ignored by validators"
