"""Violations over random corpora: every counted failure of a rate is listed, and nothing else is.

For every rate, the weights of its violations add up to its shortfall (the denominator less the
numerator; for the pre-filled ratio, a ceiling, the numerator itself), re-derived under each scoring
model or as recorded: a violation is listed exactly when the figures count one. Blocker recall on the
older ``matched`` basis is no count of blockers (two questions about one can push it past 1), so its
listed blockers are not held to it.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import Any

from _budget import examples
from hypothesis import given, settings

from evalscore.scoring.report import ScoreReport
from evalscore.scoring.violations import RATE_ORDER
from module_files import load_module

GENERATED: ModuleType = load_module(
    "test_scorer_properties", Path(__file__).resolve().parent / "test_scorer_properties.py"
)
CORPUS_SETTINGS = settings(max_examples=examples(40))
PRECISION = 1e-9


def shortfall(report: ScoreReport, rate: str) -> float:
    count: Any = getattr(report.counts, rate)
    if rate == "prefilled_ratio":
        return float(count.numerator)
    return float(count.denominator - count.numerator)


def weights(report: ScoreReport, rate: str) -> float:
    return sum(item.weight for item in report.violations if item.rate == rate)


@CORPUS_SETTINGS
@given(generated=GENERATED.corpus(), mode=GENERATED.MODES)
def test_the_violations_of_each_rate_weigh_exactly_its_shortfall(
    generated: tuple[list[dict[str, Any]], list[dict[str, Any]]], mode: tuple[bool, str | None]
) -> None:
    docs, _ = generated
    report = GENERATED.score_docs(docs, mode, listed=10_000)
    assert report.violation_counts is not None
    assert report.violation_counts.complete
    assert report.violation_counts.total == len(report.violations)
    checked = 0
    for rate in RATE_ORDER:
        if rate == "discretionary_blocker_recall" and report.counts.discretionary_blocker_recall.basis != "addressed":
            continue
        assert abs(weights(report, rate) - shortfall(report, rate)) < PRECISION, rate
        checked += 1
    assert checked >= len(RATE_ORDER) - 1


@CORPUS_SETTINGS
@given(generated=GENERATED.corpus(), mode=GENERATED.MODES)
def test_a_step_holding_a_mandated_gate_is_listed_with_as_many_violations_as_its_gates_violated(
    generated: tuple[list[dict[str, Any]], list[dict[str, Any]]], mode: tuple[bool, str | None]
) -> None:
    docs, _ = generated
    report = GENERATED.score_docs(docs, mode, listed=10_000)
    mandated = [item for item in report.violations if item.rate == "mandated_compliance_rate"]
    assert sum(step.violated for step in report.mandated_steps) == len(mandated)
    assert sum(step.required for step in report.mandated_steps) == report.counts.mandated_compliance_rate.denominator
    for step in report.mandated_steps:
        assert step.required > 0
        assert step.violated == sum(
            1 for item in mandated if (item.source, item.step_pointer) == (step.source, step.step_pointer)
        )
