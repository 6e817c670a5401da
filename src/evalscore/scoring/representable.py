"""Recorded counts a report can carry exactly: a number of questions or blockers beyond 2**53 cannot be.

JSON numbers have no size limit and evalscore reads integers exactly, but a
rate and its counts are reported as doubles. A recorded count past the largest
integer a double holds exactly would be rounded or overflow, so a run that
records one is refused instead of being added up.
"""

from __future__ import annotations

from typing import Any, Final

from evalscore.findings import join_pointer
from evalscore.scoring.join import step_count
from evalscore.scoring.refusal import COUNT_UNREPRESENTABLE, Refusal

LARGEST_EXACT_COUNT: Final = 2**53
BOUNDING_COUNTS: Final = ("blockers", "asked")
"""The coherence rules keep matched and unprompted within asked, addressed within blockers (ES124-ES126):
these two bound all five."""


def oversized_count(run: Any, source: str) -> Refusal | None:
    """A refusal of the whole run for its first recorded count beyond ``LARGEST_EXACT_COUNT``, if any."""
    for task_index, task in enumerate(run.task_results):
        for step_index, step in enumerate(task.step_results):
            discretionary = step.auto_score.gates.discretionary if step.auto_score is not None else None
            for name in BOUNDING_COUNTS if discretionary is not None else ():
                value = getattr(discretionary, name)
                if isinstance(value, int | float) and abs(value) > LARGEST_EXACT_COUNT:
                    pointer = join_pointer(
                        "/task_results", task_index, "step_results", step_index, "auto_score", "gates", "discretionary"
                    )
                    return Refusal(
                        code=COUNT_UNREPRESENTABLE,
                        reason=(
                            f"a recorded {name} count beyond 2**53 cannot be added up or reported exactly; "
                            "the run's recorded figures are refused"
                        ),
                        pointer=join_pointer(pointer, name),
                        source=source,
                        run_id=run.run_id,
                        steps=step_count(run),
                    )
    return None
