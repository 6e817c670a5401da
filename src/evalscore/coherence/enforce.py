"""Make the models reject incoherent artifacts, unless the caller collects findings itself."""

from __future__ import annotations

from typing import TypeVar

from pydantic import ValidationInfo
from pydantic_core import PydanticCustomError

from evalscore.coherence.walk import coherence_findings

DEFERRED = "deferred"
"""Validation context value ``{"coherence": DEFERRED}``: the caller runs the rules itself."""

ArtifactT = TypeVar("ArtifactT")


def enforce(artifact: ArtifactT, info: ValidationInfo) -> ArtifactT:
    context = info.context
    if isinstance(context, dict) and context.get("coherence") == DEFERRED:
        return artifact
    errors = [finding for finding in coherence_findings(artifact) if finding.is_error]
    if errors:
        summary = "; ".join(f"{finding.code} {finding.message}" for finding in errors)
        raise PydanticCustomError(
            "coherence",
            "{count} coherence rule(s) broken: {summary}",
            {
                "count": len(errors),
                "summary": summary,
            },
        )
    return artifact
