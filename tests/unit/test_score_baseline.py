"""Reading a --baseline: one strict JSON document whatever its name, within the limit, named by its
bytes, and refused when a newer evalscore wrote it. Versions compare as versions."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from evalscore import __version__
from evalscore.cli.main import main
from evalscore.scoring.baseline import _newer_version, _version_key, read_score_report
from evalscore.scoring.report import InputRef, ScoreReport

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "partner-log.jsonl"
SUITE = ROOT / "examples" / "partner-suite.yaml"
LIMIT = 1024 * 1024


@cache
def _report_text() -> str:
    result = CliRunner().invoke(main, ["score", str(LOG), "--suite", str(SUITE), "--format", "json"])
    assert result.exit_code == 0, result.output
    return result.stdout


def report() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(_report_text())
    return loaded


def written(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def ref_of(path: Path) -> InputRef:
    return InputRef(path=str(path), sha256=hashlib.sha256(path.read_bytes()).hexdigest(), kind="baseline")


def test_no_baseline_is_nothing_to_compare_with() -> None:
    assert read_score_report(None, LIMIT) == (None, None)


@pytest.mark.parametrize("name", ["baseline.json", "baseline.txt", "baseline.yaml", "baseline.jsonl"])
def test_a_baseline_is_one_json_document_whatever_its_name_says(tmp_path: Path, name: str) -> None:
    path = written(tmp_path / name, json.dumps(report(), indent=2))
    baseline, ref = read_score_report(str(path), LIMIT)
    assert isinstance(baseline, ScoreReport)
    assert ref == ref_of(path)


@pytest.mark.parametrize("name", ["baseline.yaml", "baseline.txt"])
def test_a_baseline_written_as_yaml_is_refused_even_when_its_name_says_yaml(tmp_path: Path, name: str) -> None:
    path = written(tmp_path / name, yaml.safe_dump(report()))
    assert read_score_report(str(path), LIMIT) == (f"baseline {path}: expected value (line 1 column 1)", ref_of(path))


def test_a_baseline_beyond_the_limit_is_refused_and_names_no_bytes(tmp_path: Path) -> None:
    path = written(tmp_path / "baseline.json", json.dumps(report()))
    assert read_score_report(str(path), 100) == (
        f"baseline {path}: document is larger than 100 bytes; raise --max-document-bytes to read it",
        None,
    )


def test_a_baseline_that_is_not_a_score_report_says_what_is_wrong(tmp_path: Path) -> None:
    changed = report()
    del changed["rates"]
    path = written(tmp_path / "baseline.json", json.dumps(changed))
    reason, ref = read_score_report(str(path), LIMIT)
    assert reason == f"baseline {path}: not an evalscore score report: 'rates' is a required property (at /)"
    assert ref == ref_of(path)


def test_a_baseline_from_a_newer_evalscore_is_refused_naming_both_versions(tmp_path: Path) -> None:
    path = written(tmp_path / "baseline.json", json.dumps({**report(), "evalscore_version": "99.0.0"}))
    reason, _ = read_score_report(str(path), LIMIT)
    assert reason == (
        f"baseline {path}: written by evalscore 99.0.0, newer than this {__version__}; its rules may differ"
    )


@pytest.mark.parametrize(
    ("version", "key"),
    [
        ("0.1.0", (0, 1, 0, 1)),
        ("0.1.0-rc1", (0, 1, 0, 0)),
        ("1.2.3+build.7", (1, 2, 3, 1)),
        ("12.30.456", (12, 30, 456, 1)),
        ("banana", (0, 0, 0, 0)),
        ("1.2", (0, 0, 0, 0)),
    ],
)
def test_a_version_key_orders_numbers_and_puts_a_pre_release_before_its_release(
    version: str, key: tuple[int, int, int, int]
) -> None:
    assert _version_key(version) == key


def test_versions_compare_as_numbers_not_as_text() -> None:
    assert _version_key("0.10.0") > _version_key("0.9.9")
    assert _version_key("10.0.0-rc1") > _version_key("2.0.0")
    assert _version_key("1.0.0") > _version_key("1.0.0-rc2")


@pytest.mark.parametrize(
    ("version", "newer"),
    [
        ("0.2.1", "0.2.1"),
        ("0.3.0-rc1", "0.3.0-rc1"),
        ("1.0.0", "1.0.0"),
        ("0.1.0", None),
        (__version__, None),
        (f"{__version__}-rc1", None),
        (f"{__version__}+local", None),
        ("0.0.9", None),
        ("banana", None),
        (1, None),
        (None, None),
    ],
)
def test_only_a_later_version_string_is_newer_than_this_evalscore(version: object, newer: str | None) -> None:
    assert __version__ == "0.2.0"
    assert _newer_version(version) == newer


def test_a_baseline_whose_rates_disagree_with_its_own_counts_is_not_believed(tmp_path: Path) -> None:
    changed = report()
    changed["rates"]["mandated_compliance_rate"] = 0.5
    path = written(tmp_path / "baseline.json", json.dumps(changed))
    reason, ref = read_score_report(str(path), LIMIT)
    assert isinstance(reason, str)
    assert reason.startswith(f"baseline {path}: its rates disagree with its own counts (")
    assert reason.endswith("); it was not written by evalscore")
    assert ref == ref_of(path)
