"""The models' defaults, copied for the dict scorer: what a field left out of a checked run or suite means.

The dict scorer reads the run as the check accepted it, where a field with a default may be absent;
the models fill these in. A field whose default is null (``task_calls_before``, ``uses``,
``opened_at``, ``resolved_at``, ``decision_latency_ms``, ``decision_latency_upper_bound_ms``,
``distraction_acted``, a discretionary score's ``addressed``) is read with ``dict.get``, which gives
None for an absent key; a review's ``dimensions`` (empty: no grade) is read the same way.
``tests/unit/scoring/test_from_dicts.py`` compares each with the model's own.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Final

from evalscore.vocabulary import ScoringModel

SCORING_MODEL: Final[ScoringModel] = "v1"
"""``RunOf.scoring_model``."""
GATE_EVENTS: Final[tuple[()]] = ()
"""``StepResult.gate_events`` (an empty list)."""
GATES: Final[MappingProxyType[str, Any]] = MappingProxyType({"mandated": None, "discretionary": None})
"""``AutoScore.gates``: both null."""
PAIRINGS: Final[tuple[()]] = ()
"""``MandatedGateScore.pairings`` (an empty list)."""
OVERSEERS: Final[tuple[()]] = ()
"""``GateEvent.overseers`` (an empty list)."""
PRE_FILLED: Final = False
"""``StepScore.pre_filled``."""

TOOLBOX: Final[tuple[()]] = ()
"""``SuiteBody.toolbox`` (an empty list: no toolbox declared)."""
IS_DISTRACTION: Final = False
"""``EvalTask.is_distraction``."""
MANDATED_GATES: Final[tuple[()]] = ()
"""``EvalTask.mandated_gates`` (an empty list)."""
EXPECTED_TOOLS: Final[tuple[()]] = ()
"""``EvalStep.expected_tools`` (an empty list)."""
BLOCKERS: Final[tuple[()]] = ()
"""``EvalStep.blockers`` (an empty list)."""
SCORING_HINTS: Final[MappingProxyType[str, Any]] = MappingProxyType({})
"""``EvalStep.scoring_hints`` left out: each hint its own default."""
TOOL_MATCH: Final = "subset"
"""``ScoringHints.tool_match``."""
