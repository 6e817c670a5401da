"""A record's canonical form, its hash, the report digest and the published record schema."""

from __future__ import annotations

import hashlib
import json
import math

import pytest

from evalscore.ledger.record import (
    LEDGER_RECORD_SCHEMA_ID,
    LedgerRecord,
    canonical,
    ledger_record_json_schema,
    record_hash,
    report_digest,
)

from .builders import ROOT, chain, fields, sealed


def test_the_canonical_form_sorts_keys_at_every_depth_and_has_no_spaces() -> None:
    value = {"b": 1, "a": [2, {"d": None, "c": True}], "c": {"z": "y x", "y": 1.5}}
    assert canonical(value) == b'{"a":[2,{"c":true,"d":null}],"b":1,"c":{"y":1.5,"z":"y x"}}'


def test_the_canonical_form_keeps_non_ascii_characters_as_themselves_in_utf8() -> None:
    assert canonical({"k": "café ✓ 日本"}) == '{"k":"café ✓ 日本"}'.encode()


def test_the_canonical_form_escapes_what_json_must_escape() -> None:
    assert canonical(["a\nb", 'q"', "\\"]) == b'["a\\nb","q\\"","\\\\"]'


@pytest.mark.parametrize("number", [math.nan, math.inf, -math.inf])
def test_the_canonical_form_refuses_a_number_that_is_not_json(number: float) -> None:
    with pytest.raises(ValueError, match="not JSON compliant"):
        canonical({"x": number})


def test_a_record_hash_is_the_sha256_of_the_canonical_form_of_every_field_but_hash() -> None:
    record = fields()
    expected = hashlib.sha256(json.dumps(record, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    assert record_hash(record) == expected
    assert record_hash({**record, "hash": "anything"}) == expected


def test_a_record_hash_changes_with_every_field_but_hash() -> None:
    record = sealed(fields())
    changed = {key: record_hash({**record, key: "changed"}) for key in record if key != "hash"}
    assert len(changed) == 11
    assert record["hash"] not in changed.values()
    assert len(set(changed.values())) == 11
    assert record_hash({**record, "hash": "changed"}) == record["hash"]


def test_a_record_hash_counts_a_field_whose_name_only_resembles_hash() -> None:
    record = fields()
    assert record_hash({**record, "hashes": 1}) != record_hash(record)
    assert record_hash({**record, "Hash": 1}) != record_hash(record)


def test_the_report_digest_is_the_sha256_of_the_canonical_json_whatever_the_key_order() -> None:
    report = {"zeta": [1, "é"], "alpha": {"b": None, "a": 0.5}}
    expected = hashlib.sha256('{"alpha":{"a":0.5,"b":null},"zeta":[1,"é"]}'.encode()).hexdigest()
    assert report_digest(report) == expected
    assert report_digest(dict(reversed(report.items()))) == expected


def test_the_record_schema_is_the_published_one() -> None:
    schema = ledger_record_json_schema()
    published = json.loads((ROOT / "schemas" / "v1" / "ledger-record.schema.json").read_text(encoding="utf-8"))
    assert schema == published
    assert schema["$id"] == LEDGER_RECORD_SCHEMA_ID
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_builders_make_records_of_the_published_shape() -> None:
    records = chain(2)
    assert [LedgerRecord.model_validate(record).seq for record in records] == [1, 2]
