"""The models' defaults, copied for the dict scorer: what a field left out of a checked run means.

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

from evalscore.models.run import ScoringModel

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
