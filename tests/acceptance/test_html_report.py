"""`evalscore report SCORE.json -o report.html` and `score --html` (issue 11, item 2).

The page is checked as text (what it holds, what it never loads) and in a real browser: Debian's
Chromium, headless, driven by Playwright. The browser test asserts that the page logs no console
error, fetches nothing but itself, and shows the key numbers in its DOM, and writes a screenshot to
``test-artifacts/`` for the CI run. Without Chromium the browser tests skip, saying so, except
under ``EVALSCORE_REQUIRE_EXTERNAL=1`` (``.ci/run``, which installs it), where they fail.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any, Final

import pytest
from click.testing import CliRunner, Result

from evalscore.cli.main import main

ROOT: Final = Path(__file__).resolve().parents[2]
LOG: Final = ROOT / "examples" / "partner-log.jsonl"
SUITE: Final = ROOT / "examples" / "partner-suite.yaml"
ARTIFACTS: Final = ROOT / "test-artifacts"
HOSTILE_TOOL: Final = 'refund<img src="x" onerror="alert(1)">$x^2$\x1b[2J'
NAMESPACES: Final = frozenset({"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"})


def invoke(*args: str | Path) -> Result:
    result = CliRunner().invoke(main, [str(arg) for arg in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def score_report(tmp_path: Path, *extra: str, log: Path = LOG) -> Path:
    result = invoke("score", log, "--suite", SUITE, "--format", "json", *extra)
    assert result.exit_code in (0, 1, 4), result.output
    path = tmp_path / "score.json"
    path.write_text(result.stdout)
    return path


def hostile_log(tmp_path: Path) -> Path:
    """The partner log with one target tool named by a producer who writes HTML and escape sequences."""
    runs = [json.loads(line) for line in LOG.read_text().splitlines()]
    runs[1]["task_results"][0]["step_results"][0]["gate_events"][0]["target_tool"] = HOSTILE_TOOL
    path = tmp_path / "hostile.jsonl"
    path.write_text("".join(json.dumps(run) + "\n" for run in runs))
    return path


def page_of(tmp_path: Path, *extra: str, log: Path = LOG) -> str:
    out = tmp_path / "report.html"
    result = invoke("report", score_report(tmp_path, *extra, log=log), "-o", out)
    assert result.exit_code == 0, result.output
    return out.read_text(encoding="utf-8")


def test_the_page_holds_the_decision_the_rates_with_their_counts_and_three_charts(tmp_path: Path) -> None:
    page = page_of(tmp_path)
    assert page.startswith("<!DOCTYPE html>")
    assert '<span class="outcome not-gated">NOT GATED</span> (nothing was checked, exit 0)' in page
    assert "<h2>Violations (6)</h2>" in page
    assert '<td><code>approval-denied</code></td>' in page
    assert (
        '<td>mandated gate compliance</td><td class="number">0.600</td><td class="number">3 / 5</td>'
        '<td class="number">0.231\N{EN DASH}0.882</td>'
    ) in page
    assert "<th>95% interval</th>" in page
    assert page.count("<svg") == 3
    assert "latency unknown: 1 (not plotted)" in page
    assert '<strong id="latency-unknown">1</strong>' in page
    assert "fast-approval floor 1000 ms (+ 8 ms per character shown)" in page


def test_the_page_loads_nothing_and_runs_nothing(tmp_path: Path) -> None:
    page = page_of(tmp_path, "--min-tool-match", "0.99")
    assert "<script" not in page.lower()
    assert set(re.findall(r"https?://[^\"' )<>]+", page)) <= NAMESPACES
    assert "default-src 'none'" in page
    references = re.findall(r"\b(?:src|href)\s*=\s*\"([^\"]*)\"", page)
    assert len(references) > 0  # the charts' tick marks are drawn by local references (xlink:href="#...")
    assert [ref for ref in references if not ref.startswith("#")] == []


def test_a_refused_or_failed_decision_lists_its_checks_refusals_and_disagreements(tmp_path: Path) -> None:
    runs = [json.loads(line) for line in LOG.read_text().splitlines()]
    runs[0]["task_results"][0]["step_results"][0]["auto_score"] = {"tool_match": False, "distraction_caught": None}
    runs[1]["suite_version"] = "9.9.9"
    log = tmp_path / "mixed.jsonl"
    log.write_text("".join(json.dumps(run) + "\n" for run in runs))
    page = page_of(tmp_path, "--min-golden-truth-pass", "0.5", log=log)
    # the disagreement is an established failure, whatever the refusal and the null golden-truth rate would say
    assert '<span class="outcome fail">FAIL</span> (exit 1)' in page
    assert "<h2>Refusals (1)</h2>" in page
    assert "suite-unknown" in page
    assert re.search(r"<h2>Recorded scores the evidence contradicts \([1-9][0-9]*\)</h2>", page)
    assert "min_golden_truth_pass" in page


def test_text_from_the_log_is_escaped_and_a_dollar_sign_is_no_formula(tmp_path: Path) -> None:
    page = page_of(tmp_path, log=hostile_log(tmp_path))
    assert "<img" not in page
    assert "&lt;img src=&quot;x&quot;" in page
    assert "\x1b" not in page
    assert "\\x1b[2J" in page
    assert "$x^2$" in page  # drawn as the characters, not typeset as a formula


def test_score_html_writes_the_same_page_as_report(tmp_path: Path) -> None:
    direct = tmp_path / "direct.html"
    result = invoke("score", LOG, "--suite", SUITE, "--html", direct)
    assert result.exit_code == 0
    assert "NOT GATED (nothing was checked, exit 0)" in result.stdout
    assert direct.read_text(encoding="utf-8") == page_of(tmp_path)


def test_a_file_that_is_not_a_score_report_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = invoke("report", LOG, "-o", out)
    assert result.exit_code == 2
    assert result.stderr.startswith("evalscore report: score report ")
    assert not out.exists()


def test_the_page_is_never_written_over_the_report_it_is_made_of(tmp_path: Path) -> None:
    report = score_report(tmp_path)
    before = report.read_bytes()
    result = invoke("report", report, "-o", report)
    assert result.exit_code == 2
    assert "writing it would destroy the input" in result.stderr
    assert report.read_bytes() == before


def test_a_report_written_before_the_latency_distribution_still_renders_and_says_so(tmp_path: Path) -> None:
    path = score_report(tmp_path)
    document: dict[str, Any] = json.loads(path.read_text())
    del document["signals"]["approval_latencies"]
    del document["signals"]["unresolved_by_target_tool"]
    path.write_text(json.dumps(document))
    out = tmp_path / "old.html"
    assert invoke("report", path, "-o", out).exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert "written before evalscore kept the distribution of latencies" in page
    assert page.count("<svg") == 2


# --- in a real browser -----------------------------------------------------------------------


def chromium() -> str:
    found = os.environ.get("EVALSCORE_CHROMIUM") or shutil.which("chromium")
    if found:
        return found
    message = "Chromium is not installed (Debian: apt-get install chromium; .ci/run installs it)"
    if os.environ.get("EVALSCORE_REQUIRE_EXTERNAL") == "1":
        pytest.fail(message)
    pytest.skip(message)


def test_chromium_shows_the_page_with_no_console_error_no_request_and_the_key_numbers(tmp_path: Path) -> None:
    executable = chromium()
    from playwright.sync_api import sync_playwright  # noqa: PLC0415 - the browser tests only

    html_file = tmp_path / "report.html"
    html_file.write_text(page_of(tmp_path, "--min-tool-match", "0.9", log=hostile_log(tmp_path)), encoding="utf-8")
    numbers = json.loads((tmp_path / "score.json").read_text())
    compliance = numbers["counts"]["mandated_compliance_rate"]
    shown_rate = f"{numbers['rates']['mandated_compliance_rate']:.3f}"
    shown_counts = f"{compliance['numerator']:g} / {compliance['denominator']:g}"
    problems: list[str] = []
    requests: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
        )
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.on("request", lambda request: requests.append(request.url))
            page.goto(html_file.as_uri())
            page.wait_for_load_state("load")
            decision = page.inner_text("#decision")
            rates = page.inner_text("#rates")
            unknown = page.inner_text("#latency-unknown")
            svgs = page.locator("svg").count()
            dialogs = page.evaluate("() => document.querySelectorAll('img').length")
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "report.png"), full_page=True)
        finally:
            browser.close()
    assert problems == []
    assert requests == [html_file.as_uri()]
    assert "FAIL" in decision
    assert "exit 1" in decision
    assert f"mandated gate compliance\t{shown_rate}\t{shown_counts}" in rates
    assert shown_counts == "2 / 5"  # the producer's tool name no longer names the gated tool: one fewer honored
    assert unknown == "1"
    assert svgs == 3
    assert dialogs == 0  # the <img> a producer wrote into a tool name is text, not an element
    assert (ARTIFACTS / "report.png").stat().st_size > 10_000
