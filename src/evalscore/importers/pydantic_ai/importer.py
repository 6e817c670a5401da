"""The Pydantic AI importer as the import commands see it (``importers.shared.importer``): a history file
to its Run, and what the summary line says of the runs written."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from evalscore.importers.pydantic_ai import import_pydantic_ai_history
from evalscore.models import EvalSuite, Run


@dataclass(frozen=True, slots=True)
class PydanticAIImporter:
    """Pydantic AI message histories (a JSON file each), one Run each."""

    approval_tools: frozenset[str]
    max_document_bytes: int
    unit: str = "histories"
    noun: str = "history file"

    def import_source(self, source: str, suite: EvalSuite | None, tick: Callable[[], None]) -> Run:
        return import_pydantic_ai_history(
            source,
            approval_tools=self.approval_tools,
            suite=suite,
            max_document_bytes=self.max_document_bytes,
            on_history=tick,
        )

    def tally(self) -> PydanticAITally:
        return PydanticAITally()


@dataclass(slots=True)
class PydanticAITally:
    runs: int = 0
    histories: int = 0
    resolutions: dict[str, int] = field(default_factory=dict)
    not_run: int = 0
    denials_not_named: int = 0

    def add(self, run: Run) -> None:
        self.runs += 1
        self.histories += len(run.task_results)
        for task in run.task_results:
            for step in task.step_results:
                for gate in step.gate_events:
                    self.resolutions[gate.resolution] = self.resolutions.get(gate.resolution, 0) + 1
        self.not_run += _count(run.adapter.config.get("calls_not_run"))
        named = run.adapter.config.get("denials_of_tools_not_named")
        self.denials_not_named += named if isinstance(named, int) else 0

    def summary(self, output: str) -> str:
        gates = sum(self.resolutions.values())
        by_resolution = ", ".join(f"{count} {name}" for name, count in sorted(self.resolutions.items()))
        unnamed = (
            f"; {self.denials_not_named} denied call(s) of tools not named by --approval-tool are not gates "
            "(name every tool that required approval)"
            if self.denials_not_named
            else ""
        )
        return (
            f"wrote {self.runs} run(s) ({self.histories} history/histories) to {output}: {gates} gate event(s)"
            f"{f' ({by_resolution})' if gates else ''}, {self.not_run} requested call(s) that did not run kept in "
            "adapter.config.calls_not_run; opened_at, resolved_at, decision_latency_ms and overseers are not "
            f"recorded by Pydantic AI and are left null/empty{unnamed}"
        )


def _count(value: Any) -> int:
    return len(value) if isinstance(value, list) else 0
