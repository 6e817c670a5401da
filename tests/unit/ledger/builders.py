"""Ledger records, chains of them and a score report, built in memory for the ledger's unit tests."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Final

from evalscore.inputs import strict_json
from evalscore.inputs.syntax_error import DocumentSyntaxError
from evalscore.inputs.yaml_loader import load_yaml
from evalscore.ledger.record import GENESIS, canonical, record_hash
from evalscore.models import EvalSuite, Run
from evalscore.scoring import ScoreReport, SourcedRun, Thresholds, score
from evalscore.scoring.report import InputRef

ROOT: Final = Path(__file__).resolve().parents[3]
GOLDEN: Final = ROOT / "goldens" / "denied-approval"
THRESHOLDS: Final[dict[str, Any]] = {
    "min_mandated_compliance": None,
    "min_tool_match": None,
    "min_distraction_catch": None,
    "max_prefilled_ratio": None,
    "max_drop": 0.05,
}


def fields(seq: int = 1, prev: str = GENESIS, **changes: Any) -> dict[str, Any]:
    """The fields of a valid record, without ``hash``; ``changes`` replace or add fields."""
    return {
        "seq": seq,
        "prev": prev,
        "recorded_at": "2026-01-02T03:04:05.000006Z",
        "evalscore_version": "0.1.0",
        "inputs": [{"path": "logs/run.json", "sha256": "b" * 64, "kind": "run"}],
        "suites": [{"id": "refund-desk", "version": "2.1.0"}],
        "scoring_model": "v3",
        "thresholds": THRESHOLDS,
        "outcome": "pass",
        "exit_code": 0,
        "report_sha256": f"{seq:064x}",
        **changes,
    }


def sealed(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with the hash of its other fields."""
    return {**record, "hash": record_hash(record)}


def chain(length: int) -> list[dict[str, Any]]:
    """``length`` valid records, each chained to the one before."""
    records: list[dict[str, Any]] = []
    for seq in range(1, length + 1):
        records.append(sealed(fields(seq, records[-1]["hash"] if records else GENESIS)))
    return records


def line(record: Any) -> bytes:
    """One ledger line: the canonical form and a newline."""
    return canonical(record) + b"\n"


def ledger(records: list[dict[str, Any]]) -> bytes:
    return b"".join(line(record) for record in records)


def syntax_reason(data: bytes) -> str:
    """What the strict JSON reader says about ``data``, which must not be JSON it accepts."""
    try:
        strict_json.loads(data)
    except DocumentSyntaxError as error:
        return error.reason
    raise AssertionError(f"{data!r} is JSON the reader accepts")


@functools.cache
def report() -> ScoreReport:
    """A score report with an input, a suite and thresholds set (built once: scoring takes a moment)."""
    run = Run.model_validate(strict_json.loads((GOLDEN / "run.json").read_bytes()))
    suite = EvalSuite.model_validate(load_yaml((GOLDEN / "suite.yaml").read_bytes()))
    inputs = [InputRef(path="runs/run.json", sha256="c" * 64, kind="run")]
    thresholds = Thresholds(min_tool_match=0.25, max_drop=0.5, allow_empty=True)
    return score([SourcedRun("runs/run.json", run)], [suite], thresholds=thresholds, inputs=inputs)
