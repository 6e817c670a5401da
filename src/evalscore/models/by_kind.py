"""The reference model of each artifact kind: what the schema builders, the fixture check and the
checker's model layer look a document's kind up in."""

from __future__ import annotations

from typing import Final

from pydantic import BaseModel

from evalscore.artifact_kinds import ArtifactKind
from evalscore.models.review import ScoredRun, StepScore
from evalscore.models.run import Run
from evalscore.models.suite import EvalSuite

MODELS: Final[dict[ArtifactKind, type[BaseModel]]] = {
    "eval-suite": EvalSuite,
    "run": Run,
    "scored-run": ScoredRun,
    "step-score": StepScore,
}
