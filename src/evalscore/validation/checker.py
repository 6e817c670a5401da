"""One pass over each document: syntax, contract, then coherence."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from evalscore.artifact_kinds import ArtifactKind
from evalscore.coherence import coherence_findings
from evalscore.coherence.walk_quick import is_plainly_coherent
from evalscore.finding_codes import KIND_UNKNOWN, MODEL_DIVERGENCE, TOO_LARGE, UNREADABLE
from evalscore.findings import Finding, join_pointer
from evalscore.inputs.documents import Document
from evalscore.pickled_as_fields import pickled_as_fields
from evalscore.validation.contract_layer import contract_findings
from evalscore.validation.internal_error import internal_error_finding
from evalscore.validation.kinds import detect_kind

if TYPE_CHECKING:
    from pydantic import BaseModel, ValidationError

    from evalscore.inputs.positions import Position

RANKED_AT_LEAST: Final = 100
"""However few findings are asked for, the first this many are found and the most useful shown:
asking for 3 must not show the first 3 met instead of the best 3 of a hundred."""


_RUN_KINDS: Final = frozenset({"run", "scored-run"})


@pickled_as_fields
@dataclass(frozen=True, slots=True)
class CheckedArtifact:
    """The verdict on one document; ``model`` is kept only when the caller asks for it."""

    source: str
    line: int | None
    kind: ArtifactKind | None
    findings: tuple[Finding, ...]
    model: BaseModel | None = None
    more_findings: bool = False
    """The document has more findings than were looked for (``findings`` is not all of them)."""

    @property
    def valid(self) -> bool:
        return not any(finding.is_error for finding in self.findings)

    @property
    def readable(self) -> bool:
        return not any(finding.code == UNREADABLE for finding in self.findings)


def _located(findings: list[Finding], document: Document) -> tuple[Finding, ...]:
    """The findings with the document's source and line, and where each value starts when the
    document's text was kept (``inputs.positions``): in a JSONL line, its column; in a JSON or YAML
    document, its line and column."""
    positions = _positions(findings, document.text) if findings and document.text is not None else {}
    located = []
    for finding in findings:
        position = positions.get(finding.pointer)
        if position is None:
            located.append(dataclasses.replace(finding, source=document.source, line=document.line))
        else:
            line = document.line if document.line is not None else position[0]
            located.append(dataclasses.replace(finding, source=document.source, line=line, column=position[1]))
    return tuple(located)


def _positions(findings: list[Finding], text: tuple[str, bytes]) -> dict[str, Position]:
    from evalscore.inputs.positions import json_positions, yaml_positions  # noqa: PLC0415 - documents with findings only

    pointers = {finding.pointer for finding in findings}
    text_format, data = text
    return json_positions(data, pointers) if text_format == "json" else yaml_positions(data, pointers)


def _model_findings(error: ValidationError) -> Iterator[Finding]:
    for detail in error.errors():
        pointer = join_pointer("", *detail["loc"])
        yield Finding(
            layer="contract",
            code=MODEL_DIVERGENCE,
            severity="error",
            pointer=pointer,
            message=(
                "the reference models reject what the published schema accepts: "
                f"{detail['msg']} (at {pointer or '/'}); this is a drift between schema and models, please report it"
            ),
        )


def check_document(
    document: Any, forced_kind: ArtifactKind | None = None, keep_model: bool = False, at_most: int | None = None
) -> tuple[ArtifactKind | None, list[Finding], BaseModel | None]:
    """Contract and coherence findings of one parsed document.

    With ``at_most``, the first ``at_most`` found (ask for one more to learn whether there are
    more), and the first error after them when none of them is one: a verdict never turns on
    where the search stopped.
    """
    kind = forced_kind or detect_kind(document)
    if kind is None:
        return (
            None,
            [
                Finding(
                    layer="contract",
                    code=KIND_UNKNOWN,
                    severity="error",
                    pointer="",
                    message=(
                        "cannot tell which artifact this is (no 'suite', 'task_results' or 'reviewer_id'); use --kind"
                    ),
                )
            ],
            None,
        )
    findings = list(contract_findings(kind, document, at_most))
    if findings:
        return kind, findings, None
    if kind in _RUN_KINDS and is_plainly_coherent(document):
        findings = []
    else:
        findings = _first(coherence_findings(kind, document), at_most)
    if not keep_model:
        return kind, findings, None
    return _with_model(kind, document, findings)


def _with_model(
    kind: ArtifactKind, document: Any, findings: list[Finding]
) -> tuple[ArtifactKind, list[Finding], BaseModel | None]:
    """The reference model of a document both layers accept. The models (and pydantic) are imported
    here, when a model is first asked for: ``validate`` never asks, and starts without them."""
    from pydantic import ValidationError  # noqa: PLC0415 - see the docstring

    from evalscore.coherence.enforce import DEFERRED  # noqa: PLC0415
    from evalscore.models.by_kind import MODELS  # noqa: PLC0415

    try:
        model = MODELS[kind].model_validate(document, context={"coherence": DEFERRED})
    except ValidationError as error:
        return kind, [*findings, *_model_findings(error)], None
    return kind, findings, model


def _first(findings: Iterator[Finding], at_most: int | None) -> list[Finding]:
    kept = list(itertools.islice(findings, at_most))
    if not any(finding.is_error for finding in kept):
        kept.extend(itertools.islice((finding for finding in findings if finding.is_error), 1))
    return kept


def check_guarded(
    document: Document, forced_kind: ArtifactKind | None, keep_model: bool, wanted: int | None = None
) -> CheckedArtifact:
    """``check_one`` that turns running out of memory into a finding, and a bug into ``ES099``."""
    try:
        return check_one(document, forced_kind, keep_model, wanted)
    except MemoryError:
        message = "the document does not fit in the memory available; lower --max-document-bytes or add memory"
        finding = Finding("syntax", TOO_LARGE, "error", "", message, document.source, document.line)
        return CheckedArtifact(document.source, document.line, None, (finding,))
    except Exception as error:
        finding = internal_error_finding(error, document.source, document.line)
        return CheckedArtifact(document.source, document.line, None, (finding,))


def check_one(
    document: Document, forced_kind: ArtifactKind | None, keep_model: bool, wanted: int | None = None
) -> CheckedArtifact:
    """The verdict on one document. With ``wanted``, the findings stop a little beyond that many
    (the most useful of at least ``RANKED_AT_LEAST`` come first) and ``more_findings`` says that
    there may be more than those listed."""
    if document.syntax is not None:
        return CheckedArtifact(document.source, document.line, None, (document.syntax,))
    bound = None if wanted is None else max(wanted, RANKED_AT_LEAST) + 1
    kind, findings, model = check_document(document.value, forced_kind, keep_model, bound)
    more = bound is not None and len(findings) >= bound
    return CheckedArtifact(document.source, document.line, kind, _located(findings, document), model, more)
