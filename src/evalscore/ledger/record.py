"""One ledger record: what was decided, on which bytes, under which rules, chained to the record before.

A record's canonical form is its JSON with keys sorted, no insignificant whitespace, UTF-8 (non-ASCII
characters as themselves); ``hash`` is the SHA-256 of the canonical form of the record without
``hash``, and ``prev`` is the previous record's ``hash`` (64 zeros for the first). A line of the
ledger is one record in canonical form and a newline, so a record is verified by its bytes alone:
parse it, write it canonically again, and compare.
"""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from evalscore.described_schema import DescribedJsonSchema
from evalscore.scoring.report import DecisionThresholds, InputRef, SuiteRef

LEDGER_RECORD_SCHEMA_ID: Final = "https://evalscore.dev/schemas/v1/ledger-record.schema.json"
GENESIS: Final = "0" * 64
"""The ``prev`` of the first record."""
HEX_DIGEST: Final = r"^[0-9a-f]{64}$"
RECORDED_AT: Final = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z$"

Digest = Annotated[str, Field(pattern=HEX_DIGEST)]


class LedgerRecord(BaseModel):
    """One decision of ``evalscore score``, as the ledger keeps it: one record per line, in canonical
    form (keys sorted, no insignificant whitespace, UTF-8 with non-ASCII characters as themselves) and
    a newline. ``hash`` is the SHA-256 of the canonical form of the record without ``hash``; ``prev``
    is the ``hash`` of the record before, 64 zeros for the first."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    seq: Annotated[int, Field(ge=1)]
    """1 for the first record, then one more than the record before."""
    prev: Digest
    """The hash of the record before; 64 zeros for the first."""
    recorded_at: Annotated[str, Field(pattern=RECORDED_AT)]
    """When the record was appended (UTC, microseconds): the one time truly observed here, the
    appender's clock; it says nothing about when the runs were made."""
    evalscore_version: str
    """The evalscore that decided."""
    inputs: list[InputRef]
    """Every input the decision read, with its SHA-256 (a baseline too)."""
    suites: list[SuiteRef]
    """The suites the figures are about."""
    scoring_model: Literal["v1", "v2", "v3"] | None
    """The gate rules behind the figures."""
    thresholds: DecisionThresholds
    """What the decision applied."""
    outcome: Literal["pass", "fail", "refused", "not-gated"]
    """The decision."""
    exit_code: Literal[0, 1, 4]
    """The decision's exit code."""
    report_sha256: Digest
    """The SHA-256 of the score report's canonical JSON (``report_digest``)."""
    hash: Digest
    """The SHA-256 of this record's canonical JSON without ``hash``."""


def canonical(value: Any) -> bytes:
    """Keys sorted, no insignificant whitespace, UTF-8 with characters as themselves."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()


def record_hash(fields: dict[str, Any]) -> str:
    """The hash of a record: the SHA-256 of the canonical JSON of every field but ``hash``."""
    return hashlib.sha256(canonical({key: value for key, value in fields.items() if key != "hash"})).hexdigest()


def report_digest(report: dict[str, Any]) -> str:
    """The SHA-256 of a score report's canonical JSON. The report lists its inputs, refusals and
    disagreements in an order of their own (``scoring.report_builder``), so the same inputs given in any order
    give the same report, and the same digest."""
    return hashlib.sha256(canonical(report)).hexdigest()


def ledger_record_json_schema() -> dict[str, Any]:
    """The published schema of a ledger record."""
    schema = LedgerRecord.model_json_schema(schema_generator=DescribedJsonSchema)  # validation mode
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": LEDGER_RECORD_SCHEMA_ID, **schema}
