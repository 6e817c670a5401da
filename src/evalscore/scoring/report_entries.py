"""The report's entries for violations and for the steps holding a mandated gate, from the partial's records.

Records keep a place as its pieces and no message (``violations``): here each becomes an entry with
its message, its JSON Pointers spelled out, and its input split from its line.
"""

from __future__ import annotations

from collections.abc import Sequence

from evalscore.scoring.report import GatedStepEntry, ReasonCount, ViolationCounts, ViolationEntry
from evalscore.scoring.violations import RATE_ORDER, VIOLATION_CODES, GatedStep, Violation, violation_message
from evalscore.sources import located, source_order


def violation_entry(item: Violation, inputs: Sequence[str]) -> ViolationEntry:
    path, line = located(item.source, inputs)
    step = item.step_pointer
    return ViolationEntry(
        rate=item.rate,
        code=item.code,
        message=violation_message(item),
        source=item.source,
        input=path,
        line=line,
        run_id=item.run_id,
        task_id=item.task_id,
        step_n=item.step_n,
        step_pointer=step,
        pointer=step + item.at,
        call_pointer=None if item.call_index is None else f"{step}/agent_tool_calls/{item.call_index}",
        gate_pointer=None if item.event_index is None else f"{step}/gate_events/{item.event_index}",
        tool=item.tool,
        gate_id=item.gate_id,
        weight=item.weight,
        scoring_model=item.scoring_model,
    )


def listed_violations(items: Sequence[Violation], listed: int) -> list[Violation]:
    """The first ``listed`` violations in ``RATE_ORDER``, each rate's in input order (by input and line,
    whatever order the inputs were read in)."""
    ordered = sorted(items, key=lambda item: (RATE_ORDER.index(item.rate), source_order(item.source)))
    return ordered[:listed]


def violation_counts(items: Sequence[Violation], unlisted: Sequence[tuple[str, int]], listed: int) -> ViolationCounts:
    """The totals of the violations found: ``items`` (those the partial kept) and ``unlisted`` (the
    others, per code), of which the report lists ``listed``."""
    by_code: dict[str, int] = {}
    for item in items:
        by_code[item.code] = by_code.get(item.code, 0) + 1
    for code, count in unlisted:
        by_code[code] = by_code.get(code, 0) + count
    reasons = sorted(by_code.items(), key=lambda pair: (RATE_ORDER.index(VIOLATION_CODES[pair[0]][0]), pair[0]))
    total = sum(by_code.values())
    return ViolationCounts(
        total=total,
        listed=listed,
        complete=listed == total,
        by_reason=[ReasonCount(rate=VIOLATION_CODES[code][0], code=code, count=count) for code, count in reasons],
    )


def gated_entry(item: GatedStep, inputs: Sequence[str]) -> GatedStepEntry:
    path, line = located(item.source, inputs)
    return GatedStepEntry(
        source=item.source,
        input=path,
        line=line,
        run_id=item.run_id,
        task_id=item.task_id,
        step_n=item.step_n,
        step_pointer=item.step_pointer,
        required=item.required,
        violated=item.violated,
    )
