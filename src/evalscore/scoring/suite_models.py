"""The reference models of checked suites, built only when asked for.

``score`` reads its suites as checked dicts (``from_dicts.compiled``): a forked worker scoring dicts
never loads pydantic. The models are built here, on first need, for what reads suites as models: a
run scored from its model (``engine.score_run``), and two different dicts of one suite key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evalscore.coherence.enforce import DEFERRED
from evalscore.models.suite import EvalSuite
from evalscore.scoring.join import SuiteIndex, index_suites


def suite_model(suite: Mapping[str, Any]) -> EvalSuite:
    """The model of a suite both checking layers accepted (its coherence rules are not run again)."""
    return EvalSuite.model_validate(suite, context={"coherence": DEFERRED})


def suite_index(suites: Sequence[Mapping[str, Any]]) -> SuiteIndex:
    """``join.index_suites`` of the checked ``suites``' models."""
    return index_suites([suite_model(suite) for suite in suites])
