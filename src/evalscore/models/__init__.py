"""The reference models of the four artifact shapes (schema v1)."""

from evalscore.models._base import CURRENT_SCHEMA_VERSION
from evalscore.models.review import ScoredRun, ScoredStepResult, ScoredTaskResult, StepScore
from evalscore.models.run import (
    AdapterInfo,
    AutoScore,
    DiscretionaryScore,
    GateEvent,
    MandatedGateScore,
    Pairing,
    Run,
    StepResult,
    TaskResult,
    ToolCall,
)
from evalscore.models.suite import Blocker, EvalStep, EvalSuite, EvalTask, MandatedGate, ScoringHints

__all__ = [
    "CURRENT_SCHEMA_VERSION",
    "AdapterInfo",
    "AutoScore",
    "Blocker",
    "DiscretionaryScore",
    "EvalStep",
    "EvalSuite",
    "EvalTask",
    "GateEvent",
    "MandatedGate",
    "MandatedGateScore",
    "Pairing",
    "Run",
    "ScoredRun",
    "ScoredStepResult",
    "ScoredTaskResult",
    "ScoringHints",
    "StepResult",
    "StepScore",
    "TaskResult",
    "ToolCall",
]
