"""Clean verdicts sent as stretches: the same verdicts, the same summary, as one by one."""

from __future__ import annotations

import pickle
from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from evalscore.findings import Finding
from evalscore.inputs.documents import Document
from evalscore.validation.checker import CheckedArtifact
from evalscore.validation.clean_stretches import CleanStretch, clean_stretches, is_clean
from evalscore.validation.summary import ValidationSummary

ERROR = Finding("contract", "schema.type", "error", "/x", "wrong type")
WARNING = Finding("coherence", "EW001", "warning", "/x", "a warning")


@dataclass(frozen=True)
class Planned:
    """What the planted judge says of a document: its source, line, kind and how it is found."""

    source: str
    line: int | None
    kind: str | None
    verdict: str


def judge(document: Document) -> CheckedArtifact:
    planned: Planned = document.value
    findings = {"clean": (), "error": (ERROR,), "warning": (WARNING,)}.get(planned.verdict, ())
    more = planned.verdict == "more"
    return CheckedArtifact(planned.source, planned.line, planned.kind, findings, None, more)  # type: ignore[arg-type]


plans = st.lists(
    st.builds(
        Planned,
        source=st.sampled_from(["a.jsonl", "b.jsonl"]),
        line=st.one_of(st.none(), st.integers(1, 10**6)),
        kind=st.sampled_from(["run", "scored-run", None]),
        verdict=st.sampled_from(["clean", "clean", "clean", "error", "warning", "more"]),
    ),
    max_size=40,
)


def documents(planned: list[Planned]) -> list[Document]:
    return [Document(plan.source, plan.line, plan) for plan in planned]


def unfolded(judged: list[CheckedArtifact | CleanStretch]) -> list[CheckedArtifact]:
    return [item for value in judged for item in (value.unfolded() if isinstance(value, CleanStretch) else [value])]


@given(plans)
def test_the_stretches_unfold_to_the_verdicts_one_by_one(planned: list[Planned]) -> None:
    one_by_one = [judge(document) for document in documents(planned)]
    judged = clean_stretches(judge, documents(planned))
    assert unfolded(judged) == one_by_one
    assert [value for value in judged if not isinstance(value, CleanStretch)] == [
        verdict for verdict in one_by_one if not is_clean(verdict)
    ]


def test_a_stretch_ends_at_a_verdict_with_findings_and_at_another_source() -> None:
    planned = [
        Planned("a.jsonl", 1, "run", "clean"),
        Planned("a.jsonl", 2, "scored-run", "clean"),
        Planned("a.jsonl", 3, "run", "error"),
        Planned("a.jsonl", 4, "run", "clean"),
        Planned("b.jsonl", 1, "run", "clean"),
        Planned("b.jsonl", 2, None, "more"),
        Planned("b.jsonl", None, "run", "clean"),
    ]
    judged = clean_stretches(judge, documents(planned))
    assert [(type(value).__name__, getattr(value, "lines", None)) for value in judged] == [
        ("CleanStretch", (1, 2)),
        ("CheckedArtifact", None),
        ("CleanStretch", (4,)),
        ("CleanStretch", (1,)),
        ("CheckedArtifact", None),
        ("CleanStretch", (None,)),
    ]
    assert judged[0] == CleanStretch("a.jsonl", (1, 2), ("run", "scored-run"))


def test_a_stretch_crosses_between_processes_as_it_was() -> None:
    stretch = CleanStretch("a\udcff.jsonl", (3, 5), ("run", None))
    assert pickle.loads(pickle.dumps(stretch)) == stretch


def summary_state(summary: ValidationSummary) -> tuple[object, ...]:
    return (summary.verdicts, summary.artifacts, summary.invalid, summary.warnings, summary.unlisted, summary.exit_code)


@given(plans, st.integers(0, 12))
def test_a_summary_given_stretches_is_the_summary_given_their_verdicts(planned: list[Planned], listed: int) -> None:
    judged = clean_stretches(judge, documents(planned))
    by_stretch = ValidationSummary(strict=False, max_findings=3, listed_per_group=listed)
    one_by_one = ValidationSummary(strict=False, max_findings=3, listed_per_group=listed)
    for value in judged:
        if isinstance(value, CleanStretch):
            by_stretch.add_clean(value)
        else:
            by_stretch.add(value)
    for verdict in unfolded(judged):
        one_by_one.add(verdict)
    assert summary_state(by_stretch) == summary_state(one_by_one)


def test_clean_verdicts_past_the_listing_are_counted_not_listed() -> None:
    summary = ValidationSummary(strict=False, max_findings=3, listed_per_group=3)
    summary.add_clean(CleanStretch("a.jsonl", (1, 2), ("run", "run")))
    summary.add_clean(CleanStretch("a.jsonl", (3, 4, 5), ("run", "run", "run")))
    summary.add_clean(CleanStretch("b.jsonl", (1, 2), ("run", "scored-run")))
    assert [verdict.line for verdict in summary.verdicts] == [1, 2, 3]
    assert (summary.artifacts, summary.unlisted, summary.exit_code) == (7, 4, 0)
