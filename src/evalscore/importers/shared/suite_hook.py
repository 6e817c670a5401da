"""Re-derive an imported run's auto scores against a suite, or refuse.

Without a suite an imported step carries ``auto_score: null``: a source log
has no policy saying which calls were mandated-gated, so no score can be
written without inventing one. With a suite, every step is re-derived from the
evidence under evalscore's scoring model (v3), exactly as ``evalscore score
--suite`` would, and the run records ``scoring_model: v3``. A run that does not
join the suite (another task name or version, an unknown task or step), or a
step whose ordering was not observed, is refused: the log is not written with
a guessed score.
"""

from __future__ import annotations

from typing import Final

from evalscore.importers.shared.errors import UnmappableSourceError
from evalscore.models import EvalSuite, Run, StepResult, TaskResult
from evalscore.models.run import AutoScore
from evalscore.scoring.join import JoinedStep, index_suites, join_run
from evalscore.scoring.rederive import rederive_step
from evalscore.scoring.refusal import Refusal
from evalscore.vocabulary import ScoringModel

SCORING_MODEL: Final[ScoringModel] = "v3"


def apply_suite(run: Run, suite: EvalSuite | None, source: str = "") -> Run:
    """``run`` with every step's auto score re-derived against ``suite`` (unchanged without one)."""
    if suite is None:
        return run
    scores: dict[tuple[str, int], AutoScore] = {}
    for joined in join_run(run, source, index_suites([suite])):
        if isinstance(joined, Refusal):
            raise UnmappableSourceError(
                source, f"cannot score against the suite: {joined.reason} (at {joined.pointer})"
            )
        scores[(joined.place.task_id, joined.place.step_n)] = _rederived(joined, source)
    scored = run.model_copy(
        update={
            "scoring_model": SCORING_MODEL,
            "task_results": [
                TaskResult(
                    task_id=task.task_id,
                    step_results=[_scored(step, scores[(task.task_id, step.step_n)]) for step in task.step_results],
                )
                for task in run.task_results
            ],
        }
    )
    return Run.model_validate(scored.model_dump())  # the rules check the re-derived scores like any others


def _rederived(joined: JoinedStep, source: str) -> AutoScore:
    outcome = rederive_step(joined.task, joined.step, joined.result, SCORING_MODEL, joined.place)
    if isinstance(outcome, Refusal):
        raise UnmappableSourceError(source, f"cannot score against the suite: {outcome.reason} (at {outcome.pointer})")
    return outcome.auto_score


def _scored(step: StepResult, auto_score: AutoScore) -> StepResult:
    return step.model_copy(update={"auto_score": auto_score})
