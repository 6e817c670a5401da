"""Both validation layers in one pass: contract (JSON Schema) and coherence (models)."""

from evalscore.validation.checker import CheckedArtifact, check_document
from evalscore.validation.kinds import detect_kind
from evalscore.validation.pipeline import check_paths

__all__ = ["CheckedArtifact", "check_document", "check_paths", "detect_kind"]
