"""Hostile ``.eval`` archives: members read as strict JSON, and only names and repeats Inspect itself writes."""

from __future__ import annotations

import struct
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson
import pytest

from evalscore.importers.inspect import UnreadableLogError
from evalscore.importers.inspect._eval_format import EvalLogReader
from evalscore.inputs.strict_json import MAX_DEPTH

HEADER = b'{"version": 2, "eval": {"task": "t"}}'


def stored_zip(entries: Sequence[tuple[str | bytes, bytes]]) -> bytes:
    """A zip of stored members laid out by hand, so that names may repeat or hold any byte."""
    local_part = bytearray()
    central_part = bytearray()
    for name, data in entries:
        encoded = name.encode() if isinstance(name, str) else name
        crc = zlib.crc32(data)
        offset = len(local_part)
        local_part += struct.pack(
            "<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 0x21, crc, len(data), len(data), len(encoded), 0
        )
        local_part += encoded + data
        central_part += struct.pack(
            "<IHHHHHHIIIHHHHHII",
            0x02014B50,
            20,
            20,
            0,
            0,
            0,
            0x21,
            crc,
            len(data),
            len(data),
            len(encoded),
            0,
            0,
            0,
            0,
            0,
            offset,
        )
        central_part += encoded
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(central_part), len(local_part), 0)
    return bytes(local_part + central_part + end)


def archive(tmp_path: Path, *entries: tuple[str | bytes, bytes]) -> Path:
    path = tmp_path / "log.eval"
    path.write_bytes(stored_zip(entries))
    return path


def read(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, int]]:
    reader = EvalLogReader(path)
    try:
        return reader.header(), list(reader.samples()), dict(reader.superseded_members)
    finally:
        reader.close()


def refusal(path: Path) -> str:
    with pytest.raises(UnreadableLogError) as caught:
        read(path)
    assert "\n" not in str(caught.value)
    return caught.value.reason


def nested(depth: int) -> bytes:
    """A sample whose deepest value sits inside ``depth`` arrays and objects (the sample object is one)."""
    return b'{"id": 1, "x": ' + b"[" * (depth - 1) + b"0" + b"]" * (depth - 1) + b"}"


# -- members are strict JSON --------------------------------------------------------------------------


def test_a_sample_member_that_repeats_a_key_is_refused_naming_member_pointer_and_key(tmp_path: Path) -> None:
    sample = b'{"id": 1, "events": [{"event": "approval", "decision": "reject", "decision": "approve"}]}'
    reason = refusal(archive(tmp_path, ("header.json", HEADER), ("samples/1_epoch_1.json", sample)))
    assert reason.startswith("samples/1_epoch_1.json: the object at /events/0 repeats the key 'decision'")


def test_a_header_that_repeats_a_key_is_refused(tmp_path: Path) -> None:
    header = b'{"eval": {"task": "a"}, "eval": {"task": "b"}}'
    reason = refusal(archive(tmp_path, ("header.json", header)))
    assert reason.startswith("header.json: the top-level object repeats the key 'eval'")


def test_a_member_may_nest_max_depth_deep_and_not_one_more(tmp_path: Path) -> None:
    fine = archive(tmp_path, ("header.json", HEADER), ("samples/1_epoch_1.json", nested(MAX_DEPTH)))
    assert len(read(fine)[1]) == 1
    deeper = archive(tmp_path, ("header.json", HEADER), ("samples/1_epoch_1.json", nested(MAX_DEPTH + 1)))
    assert refusal(deeper).startswith("samples/1_epoch_1.json: nested deeper than 200 arrays and objects")


def test_a_member_that_is_not_json_says_so(tmp_path: Path) -> None:
    reason = refusal(archive(tmp_path, ("header.json", b'{"eval": ')))
    assert reason.startswith("header.json: not valid JSON: ")


# -- member names -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "samples/../x",
        "samples/../x.json",
        "samples/a/../../x.json",
        "samples/./x.json",
        "samples//x.json",
        "samples/a\\b.json",
        "samples/x.txt",
        "samples/",
        "samples/.json",
    ],
)
def test_a_samples_member_not_named_samples_name_json_makes_the_log_unreadable(name: str, tmp_path: Path) -> None:
    reason = refusal(archive(tmp_path, ("header.json", HEADER), (name, b'{"id": 1}')))
    assert reason.startswith(f"member {name!r}: not a sample member name")


@pytest.mark.parametrize("name", ["samples/task/001_epoch_1.json", "samples/v1..v2_epoch_1.json"])
def test_a_sample_id_holding_a_slash_or_two_dots_names_a_member_inspect_writes_and_it_is_read(
    name: str, tmp_path: Path
) -> None:
    # Inspect names the member after the sample id, as is: samples/{id}_epoch_{n}.json
    _, samples, _ = read(archive(tmp_path, ("header.json", HEADER), (name, b'{"id": 1}')))
    assert samples == [{"id": 1}]


def test_a_nul_in_a_member_name_is_refused_before_zipfile_cuts_the_name_there(tmp_path: Path) -> None:
    reason = refusal(archive(tmp_path, ("header.json", HEADER), (b"header.json\x00.txt", b'{"eval": {"task": "x"}}')))
    assert reason == "member 'header.json\\x00.txt': its name holds a NUL byte"


def test_members_outside_samples_are_not_read_whatever_their_name(tmp_path: Path) -> None:
    path = archive(tmp_path, ("header.json", HEADER), ("../samples/x.json", b"not json"), ("Samples/y.json", b"!"))
    assert read(path) == ({"version": 2, "eval": {"task": "t"}}, [], {})


# -- repeated names -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["header.json", "_journal/start.json"])
def test_a_repeated_header_member_is_refused_as_ambiguous(name: str, tmp_path: Path) -> None:
    path = archive(tmp_path, (name, HEADER), ("samples/1_epoch_1.json", b'{"id": 1}'), (name, HEADER))
    assert (
        refusal(path) == f"{name}: the archive holds 2 entries of that name; which one is the log's header is ambiguous"
    )


def test_a_repeated_sample_member_reads_its_last_entry_and_says_how_many_it_superseded(tmp_path: Path) -> None:
    path = archive(
        tmp_path,
        ("header.json", HEADER),
        ("samples/1_epoch_1.json", b'{"id": 1, "try": 1}'),
        ("samples/2_epoch_2.json", b'{"id": 2}'),
        ("samples/1_epoch_1.json", b'{"id": 1, "try": 2}'),
        ("samples/1_epoch_1.json", b'{"id": 1, "try": 3}'),
    )
    _, samples, superseded = read(path)
    assert samples == [{"id": 2}, {"id": 1, "try": 3}]
    assert superseded == {"samples/1_epoch_1.json": 2}


def test_repeated_members_that_are_never_read_are_not_reported(tmp_path: Path) -> None:
    path = archive(
        tmp_path,
        ("header.json", HEADER),
        ("_journal/summaries/1.json", b"[]"),
        ("_journal/summaries/1.json", b"[]"),
    )
    assert read(path)[2] == {}


# -- every member's size and CRC-32, whatever its compression -----------------------------------------

STDLIB_METHODS = {
    "stored": zipfile.ZIP_STORED,
    "deflated": zipfile.ZIP_DEFLATED,
    "bzip2": zipfile.ZIP_BZIP2,
    "lzma": zipfile.ZIP_LZMA,
}
SAMPLE = b'{"id": 1, "input": "' + b"refund order A-1 " * 1000 + b'"}'


def patched_central_entry(path: Path, name: str, *, file_size: int | None = None, crc: int | None = None) -> Path:
    """Rewrite the central directory's uncompressed size or CRC-32 of ``name`` (the local header keeps its own)."""
    raw = bytearray(path.read_bytes())
    at = raw.find(b"PK\x01\x02")
    while raw[at + 46 : at + 46 + len(name)] != name.encode():
        at = raw.find(b"PK\x01\x02", at + 1)
    if file_size is not None:
        raw[at + 24 : at + 28] = file_size.to_bytes(4, "little")
    if crc is not None:
        raw[at + 16 : at + 20] = crc.to_bytes(4, "little")
    path.write_bytes(bytes(raw))
    return path


def compressed_log(tmp_path: Path, method: int, sample: bytes = SAMPLE) -> Path:
    path = tmp_path / "log.eval"
    with zipfile.ZipFile(path, "w", method) as archive:
        archive.writestr("header.json", HEADER)
        archive.writestr("samples/1_epoch_1.json", sample)
    return path


@pytest.mark.parametrize("method", STDLIB_METHODS.values(), ids=STDLIB_METHODS.keys())
def test_members_of_every_standard_method_are_read_when_size_and_crc_agree(method: int, tmp_path: Path) -> None:
    assert read(compressed_log(tmp_path, method))[1] == [orjson.loads(SAMPLE)]


@pytest.mark.parametrize("method", STDLIB_METHODS.values(), ids=STDLIB_METHODS.keys())
def test_a_member_smaller_than_its_declared_size_is_refused_whatever_its_method(method: int, tmp_path: Path) -> None:
    # 100 MB: within the default --max-document-bytes, so the size check, not the cap, must catch it
    path = patched_central_entry(compressed_log(tmp_path, method), "samples/1_epoch_1.json", file_size=10**8)
    assert refusal(path) == (
        f"samples/1_epoch_1.json: member 'samples/1_epoch_1.json' decompresses to {len(SAMPLE)} bytes, "
        "the archive says 100000000"
    )


@pytest.mark.parametrize("method", STDLIB_METHODS.values(), ids=STDLIB_METHODS.keys())
def test_a_member_larger_than_its_declared_size_is_refused_not_cut_to_it(method: int, tmp_path: Path) -> None:
    hidden = b"\n" * 64  # what a reader that stops at the declared size never sees
    path = compressed_log(tmp_path, method, SAMPLE + hidden)
    patched_central_entry(path, "samples/1_epoch_1.json", file_size=len(SAMPLE), crc=zlib.crc32(SAMPLE))
    assert refusal(path).startswith(
        f"samples/1_epoch_1.json: member 'samples/1_epoch_1.json' decompresses to more than {len(SAMPLE)} bytes"
    )


@pytest.mark.parametrize("method", STDLIB_METHODS.values(), ids=STDLIB_METHODS.keys())
def test_a_member_whose_crc_disagrees_is_refused_whatever_its_method(method: int, tmp_path: Path) -> None:
    path = compressed_log(tmp_path, method)
    patched_central_entry(path, "samples/1_epoch_1.json", crc=zlib.crc32(SAMPLE) ^ 1)
    assert refusal(path) == "samples/1_epoch_1.json: member 'samples/1_epoch_1.json' fails its CRC-32 check"
