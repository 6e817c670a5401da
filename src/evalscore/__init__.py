"""evalscore: validate and score recorded AI-agent runs from external deployments.

The public API: the artifact models (``Run``, ``ScoredRun``, ``EvalSuite``, ``StepScore``;
``Model.model_validate(data)`` parses and enforces the coherence rules), ``check_paths``
(both validation layers over files, directories, JSONL and stdin), ``score`` (the report
value of ``evalscore score``) and the report and finding types.
"""

__version__ = "0.1.0"  # set before the imports below: the reporters import it from here

from evalscore.findings import Finding
from evalscore.models import EvalSuite, Run, ScoredRun, StepScore
from evalscore.scoring import ScoreReport, SourcedRun, Thresholds, score
from evalscore.validation import CheckedArtifact, check_document, check_paths

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
