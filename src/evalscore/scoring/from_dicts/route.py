"""Which runs the dict scorer takes, decided from the document before it is checked.

It takes a run re-derived against suites under v2 or v3 whose recorded auto scores, if any, were
recorded under that model too. The models take the rest: no suite (the figures as recorded), a
re-derivation under v1, and a recorded score under another model, which is compared with a replay of
the rules it was recorded under. The document may be anything here (it is checked after): whatever
is not plainly a run goes to the models, whose check says what it is.
"""

from __future__ import annotations

from typing import Any, Final

from evalscore.vocabulary import ScoringModel

DICT_MODELS: Final = frozenset({"v2", "v3"})
"""The models the dict scorer re-derives under."""


def scores_from_dict(document: Any, model: ScoringModel) -> bool:
    """The dict scorer gives this document's partial (should it be a valid run) re-derived under ``model``."""
    if model not in DICT_MODELS or not isinstance(document, dict):
        return False
    if document.get("scoring_model") == model:  # left out, it is v1, which is never ``model`` here
        return True
    return not has_recorded_score(document.get("task_results"))


def has_recorded_score(tasks: Any) -> bool:
    """Some step records an auto score (or the shape is not a run's: then the models decide)."""
    if not isinstance(tasks, list):
        return True
    for task in tasks:
        steps = task.get("step_results") if isinstance(task, dict) else None
        if not isinstance(steps, list):
            return True
        for step in steps:
            if not isinstance(step, dict) or step.get("auto_score") is not None:
                return True
    return False
