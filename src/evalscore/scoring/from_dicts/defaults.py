"""The models' defaults, copied for the dict scorer: what a field left out of a checked run means.

The dict scorer reads the run as the check accepted it, where a field with a default may be absent;
the models fill these in. ``tests/unit/scoring/test_from_dicts.py`` compares each with the model's own.
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
DISTRACTION_ACTED: Final = None
"""``AutoScore.distraction_acted``."""
PAIRINGS: Final[tuple[()]] = ()
"""``MandatedGateScore.pairings`` (an empty list)."""
TASK_CALLS_BEFORE: Final = None
"""``GateEvent.task_calls_before``: the ordering was not captured."""
USES: Final = None
"""``GateEvent.uses``: the agent said nothing (a budget of 1 at scoring time)."""
OPENED_AT: Final = None
RESOLVED_AT: Final = None
DECISION_LATENCY_MS: Final = None
DECISION_LATENCY_UPPER_BOUND_MS: Final = None
OVERSEERS: Final[tuple[()]] = ()
"""``GateEvent.overseers`` (an empty list)."""
PRE_FILLED: Final = False
"""``StepScore.pre_filled``."""
DIMENSIONS: Final[MappingProxyType[str, int]] = MappingProxyType({})
"""``StepScore.dimensions``: no grade."""
