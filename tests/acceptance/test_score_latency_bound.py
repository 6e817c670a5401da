"""A gate with an observed upper bound on its unknown latency (contract 1.1.0), through ``evalscore score``.

The fixture holds three approval requests: an approval whose bound (640.25 ms) is under its reading
floor (1,000 ms + 8 ms x 11 characters), a denial with a bound of a day, and an approval whose
latency is known (2,000 ms, at its bound, not fast for its 20 characters).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
from click.testing import CliRunner

from evalscore.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
RUN = ROOT / "fixtures" / "valid" / "run" / "latency-upper-bound.json"
REPORT_SCHEMA = json.loads((ROOT / "schemas" / "v1" / "score-report.schema.json").read_text())
PROVEN = "1 (1 proven by an upper bound on an unobserved latency)"


def score(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["score", str(RUN), "--allow-empty", *args], env={"COLUMNS": "240"})
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout


def test_an_approval_bounded_under_its_floor_is_a_proven_fast_approval_and_not_latency_unknown() -> None:
    code, out = score("--format", "json")
    report: dict[str, Any] = json.loads(out)
    jsonschema.Draft202012Validator(REPORT_SCHEMA).validate(report)
    signals = report["signals"]
    assert (signals["approvals"], signals["denials"]) == (2, 1)
    assert (signals["fast_approvals"], signals["fast_approvals_by_bound"]) == (1, 1)
    assert signals["latency_unavailable"] == 1  # the denial: its bound proves nothing about an approval
    # the histogram holds observed latencies: the known 2,000 ms in its bin, the bounded one beside it
    assert signals["approval_latencies"]["unknown"] == 1
    assert sum(signals["approval_latencies"]["counts"]) == 1
    assert code == 0


def test_a_larger_floor_does_not_change_what_the_bound_proves_and_a_smaller_one_removes_it() -> None:
    _, out = score("--format", "json", "--fast-approval-floor-ms", "600", "--fast-approval-ms-per-char", "0")
    signals = json.loads(out)["signals"]
    assert (signals["fast_approvals"], signals["fast_approvals_by_bound"], signals["latency_unavailable"]) == (0, 0, 2)


def test_the_text_markdown_and_html_reports_say_how_many_rest_on_a_bound(tmp_path: Path) -> None:
    assert PROVEN in score()[1]
    assert f"| {PROVEN} |" in score("--format", "markdown")[1]
    report = tmp_path / "score.json"
    report.write_text(score("--format", "json")[1])
    page = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["report", str(report), "-o", str(page)])
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    by_bound = '(<strong id="fast-approvals-by-bound">1</strong> proven by an upper bound'
    assert f'<strong id="fast-approvals">1</strong> {by_bound}' in html


def test_without_a_bound_the_reports_do_not_mention_one() -> None:
    example = ROOT / "examples" / "partner-log.jsonl"
    result = CliRunner().invoke(main, ["score", str(example)])
    assert "upper bound" not in result.stdout
    assert result.stdout.count("approved faster than") == 1
