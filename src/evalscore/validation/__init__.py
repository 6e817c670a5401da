"""Judging one document by both validation layers in one pass: contract (JSON Schema) and coherence
(models). Walking the inputs and sharing them among processes is ``evalscore.running``'s job
(``check_paths``)."""

from evalscore.validation.checker import CheckedArtifact, check_document
from evalscore.validation.kinds import detect_kind

__all__ = ["CheckedArtifact", "check_document", "detect_kind"]
