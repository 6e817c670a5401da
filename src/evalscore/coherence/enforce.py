"""Make the models reject incoherent artifacts, unless the caller collects findings itself."""

from __future__ import annotations

from typing import Any, Final, TypeVar

from pydantic import BaseModel, ValidationInfo
from pydantic_core import PydanticCustomError

from evalscore.coherence.walk import coherence_findings

DEFERRED: Final = "deferred"
"""Validation context value ``{"coherence": DEFERRED}``: the caller runs the rules itself."""

ModelT = TypeVar("ModelT", bound=BaseModel)


def enforce(artifact: ModelT, kind: str, info: ValidationInfo) -> ModelT:
    """Run every coherence rule on the model's JSON form; raise when any error rule fires."""
    context: Any = info.context
    if isinstance(context, dict) and context.get("coherence") == DEFERRED:
        return artifact
    errors = [finding for finding in coherence_findings(kind, artifact.model_dump()) if finding.is_error]
    if errors:
        summary = "; ".join(f"{finding.code} {finding.message}" for finding in errors)
        raise PydanticCustomError(
            "coherence",
            "{count} coherence rule(s) broken: {summary}",
            {"count": len(errors), "summary": summary},
        )
    return artifact
