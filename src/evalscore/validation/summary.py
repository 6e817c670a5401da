"""The value a validation produces: per-artifact verdicts and the totals behind the exit code."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from evalscore.exit_codes import EXIT_FAILED, EXIT_INTERNAL_ERROR, EXIT_OK, EXIT_USAGE
from evalscore.finding_codes import INTERNAL_ERROR, UNREADABLE
from evalscore.findings import Finding, Layer
from evalscore.inputs.documents import InputRecord
from evalscore.listing import LISTED_TEXT, Listing
from evalscore.validation.checker import CheckedArtifact
from evalscore.validation.clean_stretches import CleanStretch

MAX_KEPT_FINDINGS: Final = 1000


@dataclass(frozen=True, slots=True)
class ArtifactVerdict:
    """One artifact's verdict with its findings, the most useful first."""

    source: str
    line: int | None
    kind: str | None
    errors: int
    warnings: int
    findings: tuple[Finding, ...]
    omitted: int
    complete: bool
    """False when the search for findings stopped once enough were found: ``errors``, ``warnings``
    and ``omitted`` are then lower bounds (the verdict is not: an error is always looked for)."""

    def valid(self, strict: bool) -> bool:
        return self.errors == 0 and (not strict or self.warnings == 0)


LISTED_PER_GROUP: Final = 10_000
"""Artifacts listed by a report, per group: those with a finding (or invalid), and the clean rest.
Memory must not grow with the input: past these, artifacts are counted, not kept. Those with
findings are also listed only while their findings hold at most ``listing.LISTED_TEXT`` characters."""


def verdict_text(verdict: ArtifactVerdict) -> int:
    """Characters of text a listed verdict holds: its source, and each kept finding's message,
    pointer and source."""
    return len(verdict.source) + sum(
        len(finding.message) + len(finding.pointer) + len(finding.source) for finding in verdict.findings
    )


@dataclass(slots=True)
class ValidationSummary:
    """Everything ``evalscore validate`` found, ready for any reporter.

    Totals count every artifact; ``verdicts`` lists them in input order, the first
    ``listed_per_group`` with findings (fewer when their findings would hold more than
    ``listed_text`` characters) and the first ``listed_per_group`` without; the others are
    counted in ``unlisted`` (and, of those with findings, ``unlisted_with_findings``).
    """

    strict: bool
    max_findings: int
    show_all: str = "--max-errors 0"
    """What the text report tells the reader to run to see every finding (``score`` has no
    ``--max-errors``: its report points at ``validate``)."""
    inputs: list[InputRecord] = field(default_factory=list)
    verdicts: list[ArtifactVerdict] = field(default_factory=list)
    artifacts: int = 0
    invalid: int = 0
    unreadable: int = 0
    internal_errors: int = 0
    warnings: int = 0
    unlisted: int = 0
    unlisted_with_findings: int = 0
    listed_per_group: int = LISTED_PER_GROUP
    listed_text: int = LISTED_TEXT
    _listed_clean: int = 0
    _with_findings: Listing = field(init=False)

    def __post_init__(self) -> None:
        self._with_findings = Listing(self.listed_per_group, self.listed_text)

    def add(self, checked: CheckedArtifact) -> None:
        self.artifacts += 1
        if not checked.findings:  # most artifacts: valid, nothing to order or count; no verdict made past the listing
            if self._listed_clean < self.listed_per_group:
                self._listed_clean += 1
                complete = not checked.more_findings
                self.verdicts.append(ArtifactVerdict(checked.source, checked.line, checked.kind, 0, 0, (), 0, complete))
            else:
                self.unlisted += 1
            return
        verdict = self._verdict(checked)
        self.invalid += not verdict.valid(self.strict)
        self.unreadable += any(f.code == UNREADABLE for f in verdict.findings)
        self.internal_errors += any(f.code == INTERNAL_ERROR for f in verdict.findings)
        self.warnings += verdict.warnings
        if self._with_findings.take(verdict_text(verdict)):
            self.verdicts.append(verdict)
        else:
            self.unlisted += 1
            self.unlisted_with_findings += 1

    def add_clean(self, stretch: CleanStretch) -> None:
        """``add`` of each verdict ``stretch`` stands for, without making those past the listing."""
        self.artifacts += stretch.count
        listed = min(stretch.count, max(0, self.listed_per_group - self._listed_clean))
        for index in range(listed):
            self.verdicts.append(
                ArtifactVerdict(stretch.source, stretch.lines[index], stretch.kinds[index], 0, 0, (), 0, True)
            )
        self._listed_clean += listed
        self.unlisted += stretch.count - listed

    def _verdict(self, checked: CheckedArtifact) -> ArtifactVerdict:
        """The verdict of an artifact with findings, the most useful first."""
        ordered = sorted(checked.findings, key=lambda f: (not f.is_error, _layer_rank(f.layer)))
        limit = self.max_findings if self.max_findings > 0 else MAX_KEPT_FINDINGS
        kept = tuple(ordered[:limit])
        return ArtifactVerdict(
            source=checked.source,
            line=checked.line,
            kind=checked.kind,
            errors=sum(1 for f in checked.findings if f.is_error),
            warnings=sum(1 for f in checked.findings if not f.is_error),
            findings=kept,
            omitted=len(ordered) - len(kept),
            complete=not checked.more_findings,
        )

    @property
    def exit_code(self) -> int:
        if self.internal_errors:
            return EXIT_INTERNAL_ERROR  # a bug on any input outranks every verdict: nothing may read as fine
        if self.unreadable or not self.artifacts:
            return EXIT_USAGE  # nothing checked must never read as "all valid"
        return EXIT_FAILED if self.invalid else EXIT_OK


_LAYER_RANK: Final[dict[Layer, int]] = {"syntax": 0, "contract": 1, "coherence": 2}
"""The order findings of one severity are shown in: every ``Layer`` has its place."""


def _layer_rank(layer: Layer) -> int:
    return _LAYER_RANK[layer]
