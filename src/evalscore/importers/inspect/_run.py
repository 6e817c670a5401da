"""Assemble one Run from an Inspect log's header and its mapped samples.

Task ids are the sample ids. When the eval ran more than one epoch, one
sample id has several results, and the Run allows one result per task id:
the task id is then ``<sample id>#epoch<n>`` for every sample of the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from evalscore.importers.inspect._errors import SampleMappingError
from evalscore.importers.inspect._log_reader import LogFormat
from evalscore.importers.inspect._sample import MappedSample

SOURCE_NAME: Final = "inspect_ai"


def run_document(
    header: Mapping[str, Any],
    samples: Sequence[MappedSample],
    *,
    log_format: LogFormat,
    human_approvers: Iterable[str],
    superseded_members: Mapping[str, int] = MappingProxyType({}),
) -> dict[str, Any]:
    """The Run as a JSON object, not yet validated."""
    spec = _object(header.get("eval"), "eval")
    stats = header.get("stats")
    stats = stats if isinstance(stats, Mapping) else {}
    multi_epoch = epochs_configured(spec) > 1 or any((sample.epoch or 1) > 1 for sample in samples)
    task_ids = [task_id(sample, multi_epoch=multi_epoch) for sample in samples]
    return {
        "suite_id": _text(spec.get("task"), "eval.task"),
        "suite_version": _version(spec.get("task_version")),
        "run_id": _text(spec.get("eval_id") or spec.get("task_id"), "eval.eval_id"),
        "started_at": _as_given(stats.get("started_at")),
        "ended_at": _as_given(stats.get("completed_at")),
        "adapter": {
            "name": adapter_name(spec, header.get("plan")),
            "model": _text(spec.get("model"), "eval.model"),
            "config": provenance(header, spec, samples, task_ids, log_format, human_approvers, superseded_members),
        },
        "task_results": [
            {"task_id": tid, "step_results": [sample.step]} for tid, sample in zip(task_ids, samples, strict=True)
        ],
    }


def epochs_configured(spec: Mapping[str, Any]) -> int:
    """The epoch count that decides whether task ids name their epoch: Inspect's default (1) when none is recorded."""
    epochs = recorded_epochs(spec)
    return 1 if epochs is None else epochs


def recorded_epochs(spec: Mapping[str, Any]) -> int | None:
    """``eval.config.epochs`` when the log records it as an integer; None when it does not (not observed)."""
    config = spec.get("config")
    epochs = config.get("epochs") if isinstance(config, Mapping) else None
    return epochs if isinstance(epochs, int) and not isinstance(epochs, bool) else None


def task_id(sample: MappedSample, *, multi_epoch: bool) -> str:
    if not multi_epoch:
        return sample.sample_id
    if sample.epoch is None:
        raise SampleMappingError(f"sample {sample.sample_id!r} of a multi-epoch log records no epoch")
    return f"{sample.sample_id}#epoch{sample.epoch}"


def adapter_name(spec: Mapping[str, Any], plan: object) -> str:
    """The solver that acted: the eval's named solver or agent, else the plan's solver steps joined by ``+``."""
    for key in ("solver", "agent"):
        named = spec.get(key)
        if isinstance(named, str) and named:
            return named
    steps = plan.get("steps") if isinstance(plan, Mapping) else None
    names = [step.get("solver") for step in steps or [] if isinstance(step, Mapping)]
    joined = "+".join(name for name in names if isinstance(name, str))
    return joined or SOURCE_NAME


def provenance(
    header: Mapping[str, Any],
    spec: Mapping[str, Any],
    samples: Sequence[MappedSample],
    task_ids: Sequence[str],
    log_format: LogFormat,
    human_approvers: Iterable[str],
    superseded_members: Mapping[str, int] = MappingProxyType({}),
) -> dict[str, Any]:
    """What the Run's own fields cannot hold but a reviewer needs: where the data came from and what was left out."""
    config = spec.get("config")
    packages = spec.get("packages")
    return {
        "source": SOURCE_NAME,
        "inspect_version": packages.get("inspect_ai") if isinstance(packages, Mapping) else None,
        "log_format": log_format,
        "log_status": header.get("status"),
        "eval_id": spec.get("eval_id"),
        "inspect_run_id": spec.get("run_id"),
        "inspect_task_id": spec.get("task_id"),
        "epochs": recorded_epochs(spec),
        "approval_policy": config.get("approval") if isinstance(config, Mapping) else None,
        "human_approvers": sorted(human_approvers),
        "automatic_approvals": [
            {"task_id": tid, **entry}
            for tid, sample in zip(task_ids, samples, strict=True)
            for entry in sample.automatic_approvals
        ],
        "calls_not_run": [
            {"task_id": tid, **entry}
            for tid, sample in zip(task_ids, samples, strict=True)
            for entry in sample.calls_not_run
        ],
        "sample_notes": [
            {"task_id": tid, **sample.notes} for tid, sample in zip(task_ids, samples, strict=True) if sample.notes
        ],
        "superseded_members": superseded(superseded_members),
    }


def superseded(members: Mapping[str, int]) -> list[dict[str, Any]]:
    """Sample members of an ``.eval`` log that a later entry of the same name superseded, by name."""
    return [{"member": name, "superseded_entries": members[name]} for name in sorted(members)]


def _object(value: object, name: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise SampleMappingError(f"the log has no {name} object")
    return value


def _text(value: object, name: str) -> str:
    if not isinstance(value, str) or not value:
        raise SampleMappingError(f"the log records no {name}")
    return value


def _version(value: object) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise SampleMappingError(f"the log records no usable eval.task_version (found {value!r})")
    return str(value)


def _as_given(value: object) -> str:
    """Run start and end are strings in the contract: kept exactly as the log has them ("" when it has none)."""
    return value if isinstance(value, str) else ""
