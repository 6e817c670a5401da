"""The Inspect importer as the import commands see it (``importers.shared.importer``): a log to its Run,
and what the summary line says of the runs written."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from evalscore.importers.inspect import import_inspect_log
from evalscore.models import EvalSuite, Run


@dataclass(frozen=True, slots=True)
class InspectImporter:
    """Inspect logs (``.eval`` or ``.json``), one Run each."""

    human_approvers: frozenset[str]
    max_member_bytes: int
    unit: str = "samples"
    noun: str = "log"

    def import_source(self, source: str, suite: EvalSuite | None, tick: Callable[[], None]) -> Run:
        return import_inspect_log(
            source,
            human_approvers=self.human_approvers,
            suite=suite,
            max_member_bytes=self.max_member_bytes,
            on_sample=tick,
        )

    def tally(self) -> InspectTally:
        return InspectTally()


@dataclass(slots=True)
class InspectTally:
    runs: int = 0
    gates: int = 0
    automatic: int = 0
    superseded: int = 0

    def add(self, run: Run) -> None:
        self.runs += 1
        self.gates += sum(len(step.gate_events) for task in run.task_results for step in task.step_results)
        self.automatic += _listed(run, "automatic_approvals")
        self.superseded += sum(entry["superseded_entries"] for entry in _entries(run, "superseded_members"))

    def summary(self, output: str) -> str:
        superseded = (
            f"; {self.superseded} superseded sample member entr{'y' if self.superseded == 1 else 'ies'} "
            "skipped (the last entry of a name is read, as Inspect reads it; listed in "
            "adapter.config.superseded_members)"
            if self.superseded
            else ""
        )
        return (
            f"wrote {self.runs} run(s) to {output}: {self.gates} gate event(s) from approvers counted as "
            f"human, {self.automatic} automatic approval chain(s) kept in adapter.config; opened_at, "
            f"decision_latency_ms and overseers are not recorded by Inspect and are left null/empty{superseded}"
        )


def _entries(run: Run, key: str) -> list[dict[str, Any]]:
    value = run.adapter.config.get(key)
    return [entry for entry in value if isinstance(entry, dict)] if isinstance(value, list) else []


def _listed(run: Run, key: str) -> int:
    value = run.adapter.config.get(key)
    return len(value) if isinstance(value, list) else 0
