"""evalscore: validate and score recorded AI-agent runs from external deployments.

The public API: the artifact models (``Run``, ``ScoredRun``, ``EvalSuite``, ``StepScore``;
``Model.model_validate(data)`` parses and enforces the coherence rules), ``check_paths``
(both validation layers over files, directories, JSONL and stdin), ``score`` (the report
value of ``evalscore score``) and the report and finding types.

Each name is imported on first use: the command line imports only what a command needs (a
``validate`` process never loads the models or pydantic).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from evalscore.lazy_names import imported_on_first_use
from evalscore.version import __version__

if TYPE_CHECKING:
    from evalscore.findings import Finding
    from evalscore.models import EvalSuite, Run, ScoredRun, StepScore
    from evalscore.running.pipeline import check_paths
    from evalscore.scoring import ScoreReport, SourcedRun, Thresholds, score
    from evalscore.validation import CheckedArtifact, check_document

_PUBLIC: Final[dict[str, str]] = {
    "CheckedArtifact": "evalscore.validation",
    "EvalSuite": "evalscore.models",
    "Finding": "evalscore.findings",
    "Run": "evalscore.models",
    "ScoreReport": "evalscore.scoring",
    "ScoredRun": "evalscore.models",
    "SourcedRun": "evalscore.scoring",
    "StepScore": "evalscore.models",
    "Thresholds": "evalscore.scoring",
    "check_document": "evalscore.validation",
    "check_paths": "evalscore.running.pipeline",
    "score": "evalscore.scoring",
}

__all__ = [
    "CheckedArtifact",
    "EvalSuite",
    "Finding",
    "Run",
    "ScoreReport",
    "ScoredRun",
    "SourcedRun",
    "StepScore",
    "Thresholds",
    "__version__",
    "check_document",
    "check_paths",
    "score",
]

__getattr__, __dir__ = imported_on_first_use(globals(), _PUBLIC)
