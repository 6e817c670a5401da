"""A large Inspect ``.eval`` log for ``scripts/bench.py``, built offline with the installed inspect_ai.

The seed is a real log: the importer tests' factory (``tests/unit/importers/inspect_log_factory.py``)
runs its scenarios through ``inspect_ai.eval`` with the scripted ``mockllm`` model and approval
policy, one sample per scenario. Running 10,000 samples through Inspect would take about 8 minutes
here, and ``write_eval_log`` of 10,000 samples about 3, so the seed's sample members are repeated
instead, each copy under a new id (``{id}-{copy}``, in its member name, its ``id`` and its ``uuid``),
with the header's sample count and ids and ``summaries.json`` to match. The archive is written with
the zstd compression Inspect itself writes (``inspect_ai._util.zipfile``). Inspect's own
``read_eval_log`` then reads the header back as a check.
"""

from __future__ import annotations

import importlib.util
import sys
import warnings
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
FACTORY = ROOT / "tests" / "unit" / "importers" / "inspect_log_factory.py"


def _factory() -> ModuleType:
    spec = importlib.util.spec_from_file_location("inspect_log_factory", FACTORY)
    if spec is None or spec.loader is None:
        raise SystemExit(f"bench: cannot load {FACTORY}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses resolve their module through sys.modules
    spec.loader.exec_module(module)
    return module


def seed_log(data: Path) -> Path:
    """The factory's scenarios as one real ``.eval`` log (made once; about 8 s)."""
    marker = data / "inspect-seed.path"
    if marker.exists():
        return Path(marker.read_text())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path: Path = _factory().write_logs(data / "inspect-seed", formats=("eval",))["eval"]
    marker.write_text(str(path))
    return path


def _sample_members(archive: zipfile.ZipFile) -> list[dict[str, Any]]:
    names = sorted(name for name in archive.namelist() if name.startswith("samples/"))
    return [orjson.loads(archive.read(name)) for name in names]


def _copy(record: dict[str, Any], copy: int) -> dict[str, Any]:
    fields = {"id": f"{record['id']}-{copy}"}
    if "uuid" in record:
        fields["uuid"] = f"{record['uuid']}{copy}"
    return {**record, **fields}


def _header(header: dict[str, Any], samples: list[dict[str, Any]]) -> dict[str, Any]:
    dataset = {**header["eval"]["dataset"], "samples": len(samples), "sample_ids": [s["id"] for s in samples]}
    result = {**header, "eval": {**header["eval"], "dataset": dataset}}
    if header.get("results"):
        result["results"] = {**header["results"], "total_samples": len(samples), "completed_samples": len(samples)}
    return result


def _summaries(archive: zipfile.ZipFile, base: list[dict[str, Any]], samples: int) -> list[dict[str, Any]]:
    """The seed's summaries, copied as the samples were: copy ``i`` of seed sample ``i % len(base)``."""
    seed = {(s["id"], s["epoch"]): s for s in orjson.loads(archive.read("summaries.json"))}
    order = [seed[(sample["id"], sample["epoch"])] for sample in base]
    return [_copy(order[index % len(order)], index) for index in range(samples)]


def amplify(seed: Path, samples: int, out: Path) -> Path:
    """``out``: the seed log with ``samples`` sample members, written as Inspect writes a log."""
    from inspect_ai._util.zipfile import zipfile_compress_kwargs  # noqa: PLC0415 - patches zipfile with zstd
    from inspect_ai.log import read_eval_log  # noqa: PLC0415 - inspect_ai is a dev dependency

    partial = out.with_name(f"{out.stem}.partial.eval")  # inspect_ai reads a log by its suffix
    with zipfile.ZipFile(seed) as archive:
        base = _sample_members(archive)
        copies = [_copy(base[index % len(base)], index) for index in range(samples)]
        with zipfile.ZipFile(partial, "w", **zipfile_compress_kwargs) as written:
            written.writestr("_journal/start.json", archive.read("_journal/start.json"))
            for sample in copies:
                written.writestr(f"samples/{sample['id']}_epoch_{sample['epoch']}.json", orjson.dumps(sample))
            written.writestr("summaries.json", orjson.dumps(_summaries(archive, base, samples)))
            written.writestr("header.json", orjson.dumps(_header(orjson.loads(archive.read("header.json")), copies)))
    if read_eval_log(str(partial), header_only=True).eval.dataset.samples != samples:
        raise SystemExit(f"bench: inspect_ai reads back another sample count from {partial}")
    return partial.rename(out)


def eval_log(data: Path, samples: int, seed: Path | None = None) -> Path:
    """The ``samples``-sample log under ``data`` (built once), from ``seed`` or a fresh seed log."""
    out = data / f"inspect-{samples}.eval"
    if not out.exists():
        amplify(seed or seed_log(data), samples, out)
    return out
