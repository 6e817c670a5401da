"""The value a validation produces: per-artifact verdicts and the totals behind the exit code."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from evalscore.findings import Finding, Layer
from evalscore.inputs.documents import INTERNAL_ERROR, UNREADABLE, InputRecord
from evalscore.validation.checker import CheckedArtifact
from evalscore.validation.internal_error import EXIT_INTERNAL_ERROR

EXIT_VALID: Final = 0
EXIT_INVALID: Final = 1
EXIT_USAGE: Final = 2
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
    complete: bool = True
    """False when the search for findings stopped once enough were found: ``errors``, ``warnings``
    and ``omitted`` are then lower bounds (the verdict is not: an error is always looked for)."""

    def valid(self, strict: bool) -> bool:
        return self.errors == 0 and (not strict or self.warnings == 0)


@dataclass(slots=True)
class ValidationSummary:
    """Everything ``evalscore validate`` found, ready for any reporter."""

    strict: bool
    max_findings: int
    inputs: list[InputRecord] = field(default_factory=list)
    verdicts: list[ArtifactVerdict] = field(default_factory=list)

    def add(self, checked: CheckedArtifact) -> None:
        ordered = sorted(checked.findings, key=lambda f: (not f.is_error, _layer_rank(f.layer)))
        limit = self.max_findings if self.max_findings > 0 else MAX_KEPT_FINDINGS
        kept = tuple(ordered[:limit])
        self.verdicts.append(
            ArtifactVerdict(
                source=checked.source,
                line=checked.line,
                kind=checked.kind,
                errors=sum(1 for f in checked.findings if f.is_error),
                warnings=sum(1 for f in checked.findings if not f.is_error),
                findings=kept,
                omitted=len(ordered) - len(kept),
                complete=not checked.more_findings,
            )
        )

    @property
    def unreadable(self) -> int:
        return sum(1 for v in self.verdicts if any(f.code == UNREADABLE for f in v.findings))

    @property
    def internal_errors(self) -> int:
        return sum(1 for v in self.verdicts if any(f.code == INTERNAL_ERROR for f in v.findings))

    @property
    def invalid(self) -> int:
        return sum(1 for v in self.verdicts if not v.valid(self.strict))

    @property
    def warnings(self) -> int:
        return sum(v.warnings for v in self.verdicts)

    @property
    def exit_code(self) -> int:
        if self.internal_errors:
            return EXIT_INTERNAL_ERROR  # a bug on any input outranks every verdict: nothing may read as fine
        if self.unreadable or not self.verdicts:
            return EXIT_USAGE  # nothing checked must never read as "all valid"
        return EXIT_INVALID if self.invalid else EXIT_VALID


_LAYER_RANK: Final[dict[Layer, int]] = {"syntax": 0, "contract": 1, "coherence": 2}
"""The order findings of one severity are shown in: every ``Layer`` has its place."""


def _layer_rank(layer: Layer) -> int:
    return _LAYER_RANK[layer]
