"""The LangGraph importer as the import commands see it (``importers.shared.importer``): a checkpoint
store to its Runs, one per thread, and what the summary line says of the runs written."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from evalscore.importers.langgraph import import_langgraph_store
from evalscore.models import EvalSuite, Run


@dataclass(frozen=True, slots=True)
class LangGraphImporter:
    """A LangGraph checkpoint store (a SQLite file or a PostgreSQL address), one Run per thread."""

    threads: tuple[str, ...]
    max_value_bytes: int
    unit: str = "threads"
    noun: str = "store"

    def import_source(self, source: str, suite: EvalSuite | None, tick: Callable[[], None]) -> Iterator[Run]:
        return import_langgraph_store(
            source, threads=self.threads, suite=suite, max_value_bytes=self.max_value_bytes, on_thread=tick
        )

    def tally(self) -> LangGraphTally:
        return LangGraphTally()


@dataclass(slots=True)
class LangGraphTally:
    runs: int = 0
    resolutions: dict[str, int] = field(default_factory=dict)
    bounded: int = 0
    not_run: int = 0

    def add(self, run: Run) -> None:
        self.runs += 1
        for task in run.task_results:
            for step in task.step_results:
                for gate in step.gate_events:
                    self.resolutions[gate.resolution] = self.resolutions.get(gate.resolution, 0) + 1
                    self.bounded += gate.decision_latency_upper_bound_ms is not None
        not_run = run.adapter.config.get("calls_not_run")
        self.not_run += len(not_run) if isinstance(not_run, list) else 0

    def summary(self, output: str) -> str:
        gates = sum(self.resolutions.values())
        by_resolution = ", ".join(f"{count} {name}" for name, count in sorted(self.resolutions.items()))
        return (
            f"wrote {self.runs} run(s) (one per thread) to {output}: {gates} gate event(s)"
            f"{f' ({by_resolution})' if gates else ''}, {self.bounded} with an upper bound on the decision latency, "
            f"{self.not_run} requested call(s) that did not run kept in adapter.config.calls_not_run; opened_at, "
            "resolved_at, decision_latency_ms and overseers are not recorded by LangGraph and are left null/empty"
        )
