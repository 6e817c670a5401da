"""The validation summary: which findings an artifact keeps and shows first, and the exit code.

The exit code ranks what was found: an internal error (70) outranks an input that could not be read
or an empty run (2), which outranks an invalid artifact (1); 0 only when every artifact is valid.
"""

from __future__ import annotations

import json

import pytest

from evalscore.findings import Finding, Layer, Severity
from evalscore.reporters.validation_json import render_validation_json
from evalscore.reporters.validation_text import render_validation_text
from evalscore.validation.checker import CheckedArtifact
from evalscore.validation.summary import MAX_KEPT_FINDINGS, ArtifactVerdict, ValidationSummary, verdict_text


def finding(layer: Layer, severity: Severity = "error", code: str = "X") -> Finding:
    return Finding(layer=layer, code=code, severity=severity, pointer="", message=f"{layer} {severity} {code}")


def artifact(*findings: Finding, source: str = "a.json", line: int | None = None) -> CheckedArtifact:
    return CheckedArtifact(source, line, "run", findings)


def summary_of(*artifacts: CheckedArtifact, strict: bool = False, max_findings: int = 0) -> ValidationSummary:
    summary = ValidationSummary(strict=strict, max_findings=max_findings)
    for checked in artifacts:
        summary.add(checked)
    return summary


def test_errors_come_before_warnings_then_syntax_contract_coherence() -> None:
    shuffled = (
        finding("coherence", "warning"),
        finding("coherence"),
        finding("syntax", "warning"),
        finding("contract"),
        finding("syntax"),
        finding("contract", "warning"),
    )
    (verdict,) = summary_of(artifact(*shuffled)).verdicts
    assert [(f.severity, f.layer) for f in verdict.findings] == [
        ("error", "syntax"),
        ("error", "contract"),
        ("error", "coherence"),
        ("warning", "syntax"),
        ("warning", "contract"),
        ("warning", "coherence"),
    ]


def test_findings_of_one_rank_keep_the_order_they_were_found_in() -> None:
    found = tuple(finding("contract", code=f"C{n}") for n in range(5))
    (verdict,) = summary_of(artifact(*found)).verdicts
    assert [f.code for f in verdict.findings] == ["C0", "C1", "C2", "C3", "C4"]


def test_a_verdict_counts_errors_and_warnings_apart() -> None:
    found = (finding("syntax"), *[finding("coherence", "warning")] * 3)
    (verdict,) = summary_of(artifact(*found, source="runs.jsonl", line=7)).verdicts
    assert (verdict.errors, verdict.warnings) == (1, 3)
    assert (verdict.source, verdict.line, verdict.kind) == ("runs.jsonl", 7, "run")


def test_max_findings_keeps_the_most_useful_and_counts_the_rest_as_omitted() -> None:
    found = (finding("coherence", "warning"), finding("coherence"), finding("syntax"), finding("contract"))
    (verdict,) = summary_of(artifact(*found), max_findings=2).verdicts
    assert [f.layer for f in verdict.findings] == ["syntax", "contract"]
    assert verdict.omitted == 2
    assert (verdict.errors, verdict.warnings) == (3, 1)


def test_max_findings_0_keeps_at_most_the_hard_limit() -> None:
    found = tuple(finding("contract", code=str(n)) for n in range(MAX_KEPT_FINDINGS + 5))
    (verdict,) = summary_of(artifact(*found), max_findings=0).verdicts
    assert len(verdict.findings) == MAX_KEPT_FINDINGS == 1000
    assert verdict.omitted == 5
    assert verdict.errors == MAX_KEPT_FINDINGS + 5


def test_max_findings_1_keeps_one() -> None:
    (verdict,) = summary_of(artifact(finding("contract"), finding("syntax")), max_findings=1).verdicts
    assert [f.layer for f in verdict.findings] == ["syntax"]
    assert verdict.omitted == 1


def test_a_warning_fails_an_artifact_only_under_strict() -> None:
    warned = artifact(finding("coherence", "warning"))
    assert summary_of(warned).invalid == 0
    assert summary_of(warned).exit_code == 0
    assert summary_of(warned, strict=True).invalid == 1
    assert summary_of(warned, strict=True).exit_code == 1
    assert summary_of(warned).warnings == 1


@pytest.mark.parametrize(
    ("codes", "exit_code"),
    [
        ([[]], 0),
        ([[], []], 0),
        ([["X"], []], 1),
        ([["ES001"], []], 2),
        ([["ES001"], ["X"]], 2),
        ([["ES099"], ["X"]], 70),
        ([["ES099"], ["ES001"]], 70),
        ([[], ["ES001", "ES099"]], 70),
    ],
)
def test_the_exit_code_ranks_internal_errors_over_unreadable_inputs_over_invalid_ones(
    codes: list[list[str]], exit_code: int
) -> None:
    artifacts = [artifact(*(finding("syntax", code=code) for code in found)) for found in codes]
    summary = summary_of(*artifacts)
    assert len(summary.verdicts) == len(codes)
    assert summary.exit_code == exit_code


def test_nothing_checked_is_a_usage_error_not_all_valid() -> None:
    assert summary_of().exit_code == 2


def test_unreadable_internal_and_invalid_artifacts_are_counted_per_artifact() -> None:
    summary = summary_of(
        artifact(finding("syntax", code="ES001"), finding("syntax", code="ES001")),
        artifact(finding("syntax", code="ES099")),
        artifact(finding("contract")),
        artifact(),
    )
    assert (summary.unreadable, summary.internal_errors, summary.invalid) == (1, 1, 3)


def test_a_code_only_counts_where_it_is_kept() -> None:
    # An unreadable input is one finding; an artifact keeps at least its most useful one.
    summary = summary_of(artifact(finding("syntax", code="ES001"), finding("contract")), max_findings=1)
    assert summary.unreadable == 1
    assert summary.exit_code == 2


def test_past_the_listed_number_of_a_group_artifacts_are_counted_not_kept() -> None:
    clean = [artifact(line=n) for n in range(120)]
    flagged = [artifact(finding("contract"), line=1000 + n) for n in range(70)]
    warned = [artifact(finding("coherence", "warning"), line=2000 + n) for n in range(5)]
    summary = ValidationSummary(strict=False, max_findings=0, listed_per_group=50)
    for checked in [*clean[:30], *flagged, *clean[30:], *warned]:
        summary.add(checked)
    assert summary.artifacts == 195
    assert (summary.invalid, summary.warnings) == (70, 5)
    assert len(summary.verdicts) == 100
    assert [verdict.line for verdict in summary.verdicts][:32] == [*range(30), 1000, 1001]
    assert (summary.unlisted, summary.unlisted_with_findings) == (95, 25)
    assert summary.exit_code == 1
    report = json.loads(render_validation_json(summary))
    assert (len(report["artifacts"]), report["unlisted_artifacts"]) == (100, 95)
    assert (report["summary"]["artifacts"], report["summary"]["valid"], report["summary"]["invalid"]) == (195, 125, 70)
    text = render_validation_text(summary)
    assert (
        "... and 25 more artifact(s) with findings, not listed (past the first 50, or 16,777,216 characters of "
        "findings); the totals below count them" in text
    )
    assert text.rstrip().endswith("195 artifact(s) in 0 input(s): 125 valid, 70 invalid, 5 warning(s)")


def test_ten_thousand_of_each_group_are_listed() -> None:
    assert ValidationSummary(strict=False, max_findings=3).listed_per_group == 10_000


def test_under_the_bound_every_artifact_is_listed() -> None:
    summary = summary_of(*(artifact(line=n) for n in range(300)), artifact(finding("syntax"), line=300))
    assert (len(summary.verdicts), summary.unlisted, summary.unlisted_with_findings) == (301, 0, 0)
    assert "not listed" not in render_validation_text(summary)


def test_an_artifact_without_findings_has_a_complete_verdict_of_nothing_omitted() -> None:
    summary = ValidationSummary(strict=True, max_findings=3)
    summary.add(CheckedArtifact("a.jsonl", 7, "run", ()))
    (verdict,) = summary.verdicts
    assert verdict == ArtifactVerdict("a.jsonl", 7, "run", 0, 0, (), 0, True)
    assert (summary.artifacts, summary.invalid, summary.warnings) == (1, 0, 0)


def long_finding(pointer_chars: int, message_chars: int) -> Finding:
    pointer = "/" + "p" * (pointer_chars - 1)
    return Finding(layer="contract", code="X", severity="error", pointer=pointer, message="m" * message_chars)


def test_artifacts_with_findings_are_listed_while_their_text_fits_and_not_after_the_first_that_does_not() -> None:
    # Each verdict holds len("a.json") = 6 characters of source plus its findings' pointer and message.
    summary = ValidationSummary(strict=False, max_findings=0, listed_text=100)
    sizes = [(10, 20), (10, 24), (30, 30), (1, 1), (1, 1)]  # 36, 40: listed (76); 66: over 100; then closed
    for n, (pointer, message) in enumerate(sizes):
        summary.add(artifact(long_finding(pointer, message), line=n))
    summary.add(artifact(line=9))  # a clean artifact is still listed: its group has its own bound
    assert [verdict.line for verdict in summary.verdicts] == [0, 1, 9]
    assert (summary.unlisted, summary.unlisted_with_findings, summary.invalid) == (3, 3, 5)
    assert "(past the first 10,000, or 100 characters of findings)" in render_validation_text(summary)


def test_an_artifact_whose_findings_fill_the_text_bound_exactly_is_listed() -> None:
    summary = ValidationSummary(strict=False, max_findings=0, listed_text=6 + 40)
    summary.add(artifact(long_finding(10, 30), line=1))
    summary.add(artifact(long_finding(1, 0), line=2))  # 7 more characters: over the bound
    assert [verdict.line for verdict in summary.verdicts] == [1]
    assert summary.unlisted_with_findings == 1


def test_the_text_of_a_verdict_counts_its_source_and_every_kept_finding() -> None:
    found = Finding(layer="syntax", code="E", severity="error", pointer="/ab", message="xyz", source="s.json")
    verdict = summary_of(artifact(found, found, source="in.jsonl")).verdicts[0]
    assert verdict_text(verdict) == len("in.jsonl") + 2 * (3 + 3 + 6)


def test_sixteen_mebicharacters_of_findings_are_listed() -> None:
    assert ValidationSummary(strict=False, max_findings=3).listed_text == 16 * 2**20
