"""The same inputs and options give a byte-identical score report, so the ledger's report_sha256 binds
a decision to its figures (issue 14): whatever the order the inputs are given in, whatever the order
of keys inside a run, however many worker processes read them."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any, Final

import pytest
from click.testing import CliRunner

from evalscore.cli.main import main

ROOT: Final = Path(__file__).resolve().parents[2]
LOG: Final = ROOT / "examples" / "partner-log.jsonl"
SUITE: Final = ROOT / "examples" / "partner-suite.yaml"
RUN_A, RUN_B = (json.loads(line) for line in LOG.read_text().splitlines())


def score_bytes(*args: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["score", *map(str, args), "--suite", str(SUITE), "--format", "json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout


def reversed_keys(value: Any) -> Any:
    """The same JSON value with every object's keys in reverse order."""
    if isinstance(value, dict):
        return {key: reversed_keys(value[key]) for key in reversed(list(value))}
    if isinstance(value, list):
        return [reversed_keys(item) for item in value]
    return value


def claim(run_id: str) -> dict[str, Any]:
    """Run A with a recorded auto score that disagrees with the evidence."""
    run = copy.deepcopy(RUN_A)
    run["run_id"] = run_id
    run["task_results"][1]["step_results"][0]["auto_score"] = {"tool_match": False, "distraction_caught": None}
    return run


def runs_with_findings() -> dict[str, dict[str, Any]]:
    """Six runs: the example's two, two whose recorded auto scores disagree with the evidence, two of
    another suite version (refused): so the report lists refusals and disagreements from several files."""
    return {
        "a.json": RUN_A,
        "b.json": RUN_B,
        "claim-1.json": claim("claim-1"),
        "claim-2.json": claim("claim-2"),
        "later-1.json": {**copy.deepcopy(RUN_B), "run_id": "later-1", "suite_version": "0.0.1"},
        "later-2.json": {**copy.deepcopy(RUN_B), "run_id": "later-2", "suite_version": "0.0.2"},
    }


def orders(paths: list[Path]) -> list[list[Path]]:
    """Every rotation of ``paths``, forwards and backwards."""
    rotations = [paths[start:] + paths[:start] for start in range(len(paths))]
    return rotations + [rotation[::-1] for rotation in rotations]


def written(directory: Path, runs: dict[str, dict[str, Any]], *, keys_reversed: bool = False) -> list[Path]:
    directory.mkdir()
    paths = []
    for name, run in runs.items():
        path = directory / name
        path.write_text(json.dumps(reversed_keys(run) if keys_reversed else run))
        paths.append(path)
    return paths


def test_every_order_of_the_inputs_gives_the_same_report_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    paths = [path.relative_to(tmp_path) for path in written(tmp_path / "runs", runs_with_findings())]
    tried = orders(paths)
    reports = {score_bytes(*order) for order in tried}
    assert len({tuple(order) for order in tried}) == 12
    (only,) = reports
    code, text = only
    report = json.loads(text)
    assert code == 1  # the disagreements are failures; the refusals change no check
    assert len({refusal["source"] for refusal in report["refusals"]}) == 2
    assert len({violation["source"] for violation in report["violations"]}) >= 2
    assert len({disagreement["source"] for disagreement in report["disagreements"]}) == 2
    assert len(report["inputs"]) == 7


def test_worker_processes_give_the_same_report_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    paths = [path.relative_to(tmp_path) for path in written(tmp_path / "runs", runs_with_findings())]
    assert score_bytes(*paths, "-j", "1") == score_bytes(*reversed(paths), "-j", "3")


def test_the_order_of_keys_inside_a_run_changes_only_its_sha256(tmp_path: Path) -> None:
    plain = written(tmp_path / "plain", runs_with_findings())
    turned = written(tmp_path / "turned", runs_with_findings(), keys_reversed=True)
    assert all(a.read_bytes() != b.read_bytes() for a, b in zip(plain, turned, strict=True))
    first, second = json.loads(score_bytes(*plain)[1]), json.loads(score_bytes(*turned)[1])
    assert [entry["sha256"] for entry in first["inputs"]] != [entry["sha256"] for entry in second["inputs"]]
    for report, directory in ((first, "plain"), (second, "turned")):
        for entry in report["inputs"]:
            entry.pop("sha256")
            entry["path"] = entry["path"].replace(str(tmp_path / directory), "")
        for listed in (*report["refusals"], *report["disagreements"], *report["violations"], *report["mandated_steps"]):
            listed["source"] = listed["source"].replace(str(tmp_path / directory), "")
        for located in (*report["violations"], *report["mandated_steps"]):
            located["input"] = located["input"].replace(str(tmp_path / directory), "")
    assert len(first["violations"]) >= 2
    assert first == second


def test_the_ledger_binds_the_sha256_of_the_reports_canonical_json(tmp_path: Path) -> None:
    ledger = tmp_path / "decisions.jsonl"
    code, text = score_bytes(LOG, "--ledger", ledger)
    assert code == 0
    (record,) = [json.loads(line) for line in ledger.read_text().splitlines()]
    canonical = json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert record["report_sha256"] == hashlib.sha256(canonical.encode()).hexdigest()
    assert score_bytes(LOG)[1] == text  # and again: nothing in the report comes from the clock
