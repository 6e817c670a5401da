"""`--max-document-bytes N` on the command line, for validate and for score: N bytes are read, N + 1 are not.

The limit is in bytes: a JSON or YAML document of exactly N bytes is accepted and one of N + 1 is
refused with ES006; in a JSONL file each line is measured alone, without its line break. The
documents are the bundled example's runs and suite, padded with trailing blanks (or a YAML comment)
to the exact size, so everything but the size is valid.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from evalscore.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
RUN_A, RUN_B = (line.encode() for line in (ROOT / "examples" / "partner-log.jsonl").read_text().splitlines())
SUITE = (ROOT / "examples" / "partner-suite.yaml").read_bytes()
N = max(len(RUN_A), len(RUN_B), len(SUITE)) + 10
"""The limit every test passes: above each bundled document's own size, so padding reaches it exactly."""
TOO_LARGE = "ES006"


def padded(document: bytes, size: int, *, yaml: bool = False) -> bytes:
    """``document`` grown to exactly ``size`` bytes with what its format ignores."""
    if yaml:  # a comment line: "#---...---\n"
        body = document.rstrip(b"\n") + b"\n"
        grown = body + b"#" + b"-" * (size - len(body) - 2) + b"\n"
    else:
        grown = document + b" " * (size - len(document))
    assert len(grown) == size
    return grown


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def invoke(*args: str | Path) -> Result:
    result = CliRunner().invoke(main, [str(arg) for arg in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def validate_json(*args: str | Path) -> tuple[int, dict[str, Any]]:
    result = invoke("validate", "--format", "json", "--max-document-bytes", str(N), *args)
    report: dict[str, Any] = json.loads(result.stdout)
    return result.exit_code, report


def verdicts(report: dict[str, Any]) -> list[tuple[int | None, bool, list[str]]]:
    """(line, valid, finding codes) of every artifact the report lists."""
    return [
        (artifact["line"], artifact["valid"], [finding["code"] for finding in artifact["findings"]])
        for artifact in report["artifacts"]
    ]


def score_json(*args: str | Path) -> tuple[int, dict[str, Any]]:
    result = invoke("score", "--format", "json", "--max-document-bytes", str(N), *args)
    report: dict[str, Any] = json.loads(result.stdout)
    return result.exit_code, report


# --- validate -------------------------------------------------------------------------------


def test_validate_accepts_a_json_document_of_exactly_max_document_bytes(tmp_path: Path) -> None:
    code, report = validate_json(write(tmp_path, "run.json", padded(RUN_A, N)))
    assert verdicts(report) == [(None, True, [])]
    assert code == 0


def test_validate_refuses_a_json_document_one_byte_over_max_document_bytes_with_es006(tmp_path: Path) -> None:
    code, report = validate_json(write(tmp_path, "run.json", padded(RUN_A, N + 1)))
    assert verdicts(report) == [(None, False, [TOO_LARGE])]
    assert code == 1


def test_validate_accepts_a_yaml_document_of_exactly_max_document_bytes(tmp_path: Path) -> None:
    code, report = validate_json(write(tmp_path, "suite.yaml", padded(SUITE, N, yaml=True)))
    assert verdicts(report) == [(None, True, [])]
    assert code == 0


def test_validate_refuses_a_yaml_document_one_byte_over_max_document_bytes_with_es006(tmp_path: Path) -> None:
    code, report = validate_json(write(tmp_path, "suite.yaml", padded(SUITE, N + 1, yaml=True)))
    assert verdicts(report) == [(None, False, [TOO_LARGE])]
    assert code == 1


@pytest.mark.parametrize("first_too_large", [False, True])
def test_validate_measures_each_jsonl_line_alone_n_bytes_pass_and_n_plus_1_are_refused(
    tmp_path: Path, first_too_large: bool
) -> None:
    lines = [padded(RUN_A, N), padded(RUN_B, N + 1)]
    if first_too_large:
        lines = [padded(RUN_A, N + 1), padded(RUN_B, N)]
    code, report = validate_json(write(tmp_path, "runs.jsonl", b"\n".join(lines) + b"\n"))
    expected = [(1, True, []), (2, False, [TOO_LARGE])]
    if first_too_large:
        expected = [(1, False, [TOO_LARGE]), (2, True, [])]
    assert verdicts(report) == expected
    assert code == 1


def test_validate_accepts_a_jsonl_file_whose_every_line_is_exactly_max_document_bytes(tmp_path: Path) -> None:
    data = padded(RUN_A, N) + b"\n" + padded(RUN_B, N) + b"\n"
    assert len(data) > N  # the file is larger than the limit; no line is
    code, report = validate_json(write(tmp_path, "runs.jsonl", data))
    assert verdicts(report) == [(1, True, []), (2, True, [])]
    assert code == 0


# --- score ----------------------------------------------------------------------------------


def test_score_reads_a_run_and_a_suite_of_exactly_max_document_bytes(tmp_path: Path) -> None:
    run = write(tmp_path, "run.json", padded(RUN_A, N))
    suite = write(tmp_path, "suite.yaml", padded(SUITE, N, yaml=True))
    code, report = score_json(run, "--suite", suite)
    assert report["source"] == "rederived"
    assert report["counts"]["scored_steps"] == 4  # run A holds four steps
    assert code == 0


def test_score_refuses_a_run_one_byte_over_max_document_bytes_as_invalid_input(tmp_path: Path) -> None:
    run = write(tmp_path, "run.json", padded(RUN_A, N + 1))
    suite = write(tmp_path, "suite.yaml", padded(SUITE, N, yaml=True))
    code, report = score_json(run, "--suite", suite)
    assert verdicts(report) == [(None, False, [TOO_LARGE])]
    assert report["artifacts"][0]["source"] == str(run)
    assert code == 3


def test_score_refuses_a_suite_one_byte_over_max_document_bytes_as_invalid_input(tmp_path: Path) -> None:
    run = write(tmp_path, "run.json", padded(RUN_A, N))
    suite = write(tmp_path, "suite.yaml", padded(SUITE, N + 1, yaml=True))
    code, report = score_json(run, "--suite", suite)
    assert verdicts(report) == [(None, False, [TOO_LARGE])]
    assert report["artifacts"][0]["source"] == str(suite)
    assert code == 3


def test_score_reads_a_jsonl_log_whose_every_line_is_exactly_max_document_bytes(tmp_path: Path) -> None:
    log = write(tmp_path, "runs.jsonl", padded(RUN_A, N) + b"\n" + padded(RUN_B, N) + b"\n")
    code, report = score_json(log, "--suite", write(tmp_path, "suite.yaml", SUITE))
    assert report["counts"]["total_steps"] == 8
    assert code == 0


def test_score_refuses_a_jsonl_log_with_a_line_one_byte_over_max_document_bytes(tmp_path: Path) -> None:
    log = write(tmp_path, "runs.jsonl", padded(RUN_A, N) + b"\n" + padded(RUN_B, N + 1) + b"\n")
    code, report = score_json(log, "--suite", write(tmp_path, "suite.yaml", SUITE))
    assert verdicts(report) == [(2, False, [TOO_LARGE])]
    assert code == 3
