"""Reading both log formats sample by sample, without inspect_ai, and refusing what cannot be read."""

from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path

import orjson
import pytest
import zstandard

from evalscore.importers.inspect import UnreadableLogError, _zip_members, import_inspect_log
from evalscore.importers.inspect._eval_format import EvalLogReader
from evalscore.importers.inspect._json_format import JsonLogReader, streaming_available
from evalscore.importers.inspect._open import open_inspect_log
from evalscore.importers.inspect._zip_members import ZSTD_METHOD, MemberError, latest_members, read_member


def zstd_zip(members: dict[str, bytes], *, understate: int = 0) -> bytes:
    """A zip whose members are zstd-compressed (method 93), laid out by hand as APPNOTE describes."""
    local_part = bytearray()
    central_part = bytearray()
    for name, data in members.items():
        packed = zstandard.ZstdCompressor().compress(data)
        encoded = name.encode()
        crc = zlib.crc32(data)
        size = len(data) - understate
        offset = len(local_part)
        local_part += struct.pack(
            "<IHHHHHIIIHH", 0x04034B50, 63, 0, ZSTD_METHOD, 0, 0, crc, len(packed), size, len(encoded), 0
        )
        local_part += encoded + packed
        central_part += struct.pack(
            "<IHHHHHHIIIHHHHHII",
            0x02014B50,
            63,
            63,
            0,
            ZSTD_METHOD,
            0,
            0,
            crc,
            len(packed),
            size,
            len(encoded),
            0,
            0,
            0,
            0,
            0,
            offset,
        )
        central_part += encoded
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(central_part), len(local_part), 0)
    return bytes(local_part + central_part + end)


def test_zstd_members_decompress_and_pass_their_crc(tmp_path: Path) -> None:
    path = tmp_path / "a.zip"
    path.write_bytes(zstd_zip({"header.json": b'{"a": 1}', "samples/x.json": b"[" + b"1," * 5000 + b"1]"}))
    with zipfile.ZipFile(path) as archive, path.open("rb") as raw:
        members = latest_members(archive)
        assert [info.compress_type for info in members.values()] == [ZSTD_METHOD, ZSTD_METHOD]
        assert read_member(archive, raw, members["header.json"]) == b'{"a": 1}'
        assert len(read_member(archive, raw, members["samples/x.json"])) == 10003


@pytest.mark.parametrize("compression", ["zstd", "deflate"])
def test_a_member_declaring_more_than_the_limit_is_refused_before_it_is_decompressed(
    tmp_path: Path, compression: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "a.eval"
    data = b"[" + b"0," * 50_000 + b"0]"
    if compression == "zstd":
        path.write_bytes(zstd_zip({"samples/x.json": data}))
    else:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("samples/x.json", data)
    decompressed: list[int] = []
    real_decompress = _zip_members.decompress_zstd
    monkeypatch.setattr(_zip_members, "decompress_zstd", lambda *args: decompressed.append(1) or real_decompress(*args))
    monkeypatch.setattr(_zip_members, "read_stdlib_member", lambda *args: decompressed.append(1) or b"")
    with zipfile.ZipFile(path) as archive, path.open("rb") as raw:
        info = archive.getinfo("samples/x.json")
        assert info.file_size == len(data) == 100_003
        with pytest.raises(MemberError) as refused:
            read_member(archive, raw, info, limit=100_002)
        assert str(refused.value) == (
            "member 'samples/x.json' declares 100,003 bytes uncompressed, more than 100,002; "
            "raise --max-document-bytes to read it"
        )
        assert decompressed == []
        monkeypatch.undo()
        assert read_member(archive, raw, info, limit=100_003) == data


def test_a_zstd_member_whose_crc_disagrees_is_refused(tmp_path: Path) -> None:
    raw = bytearray(zstd_zip({"header.json": b'{"a": 1}'}))
    raw[14] ^= 0xFF  # the local header's CRC is not read; corrupt the central one instead
    central = raw.find(b"PK\x01\x02")
    raw[central + 16] ^= 0xFF
    path = tmp_path / "a.zip"
    path.write_bytes(bytes(raw))
    with zipfile.ZipFile(path) as archive, path.open("rb") as handle, pytest.raises(MemberError, match="CRC-32"):
        read_member(archive, handle, archive.getinfo("header.json"))


def test_a_member_larger_than_the_archive_declares_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.zip"
    path.write_bytes(zstd_zip({"samples/x.json": b"x" * 100_000}, understate=50_000))
    with (
        zipfile.ZipFile(path) as archive,
        path.open("rb") as raw,
        pytest.raises(MemberError, match="the archive says 50000"),
    ):
        read_member(archive, raw, archive.getinfo("samples/x.json"))


def test_deflated_and_stored_members_are_read_by_the_standard_library(tmp_path: Path) -> None:
    path = tmp_path / "old.eval"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.json", b'{"version": 2}')
        archive.writestr("samples/1_epoch_1.json", b'{"id": 1}', compress_type=zipfile.ZIP_STORED)
    reader = EvalLogReader(path)
    try:
        assert reader.header() == {"version": 2}
        assert list(reader.samples()) == [{"id": 1}]
    finally:
        reader.close()


def test_an_unknown_compression_method_is_named(tmp_path: Path) -> None:
    raw = bytearray(zstd_zip({"header.json": b"{}"}))
    central = raw.find(b"PK\x01\x02")
    raw[central + 10 : central + 12] = (99).to_bytes(2, "little")
    path = tmp_path / "a.eval"
    path.write_bytes(bytes(raw))
    reader = EvalLogReader(path)
    try:
        with pytest.raises(UnreadableLogError, match="compression method 99"):
            reader.header()
    finally:
        reader.close()


def test_a_log_still_being_written_falls_back_to_its_journal_start(tmp_path: Path) -> None:
    path = tmp_path / "running.eval"
    path.write_bytes(zstd_zip({"_journal/start.json": b'{"version": 2, "eval": {"task": "t"}}'}))
    reader = open_inspect_log(path)
    try:
        assert reader.header() == {"version": 2, "eval": {"task": "t"}}
        assert list(reader.samples()) == []
    finally:
        reader.close()


def test_an_archive_without_header_or_journal_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "other.eval"
    path.write_bytes(zstd_zip({"readme.txt": b"hi"}))
    reader = open_inspect_log(path)
    try:
        with pytest.raises(UnreadableLogError, match=r"neither header\.json nor _journal/start\.json"):
            reader.header()
    finally:
        reader.close()


def test_a_directory_is_not_a_log(tmp_path: Path) -> None:
    with pytest.raises(UnreadableLogError, match="is a directory"):
        open_inspect_log(tmp_path)


@pytest.mark.parametrize("stream", [True, False])
def test_json_header_and_samples_are_the_same_streamed_or_whole(inspect_logs: dict[str, Path], stream: bool) -> None:
    if stream and not streaming_available():
        pytest.skip("ijson is not installed: .json logs are read whole")
    whole = orjson.loads(inspect_logs["json"].read_bytes())
    reader = JsonLogReader(inspect_logs["json"], stream=stream)
    try:
        header = reader.header()
        assert header == {key: value for key, value in whole.items() if key not in ("samples", "reductions")}
        assert [sample["id"] for sample in reader.samples()] == [sample["id"] for sample in whole["samples"]]
    finally:
        reader.close()


def test_a_streamed_header_written_after_the_samples_is_still_read(tmp_path: Path) -> None:
    if not streaming_available():
        pytest.skip("ijson is not installed: .json logs are read whole")
    path = tmp_path / "reordered.json"
    path.write_bytes(
        b'{"samples": [{"id": 1, "n": [1.5, {"a": []}]}], "eval": {"task": "t", "x": [1, [2]]}, "stats": {}}'
    )
    reader = JsonLogReader(path, stream=True)
    try:
        assert reader.header() == {"eval": {"task": "t", "x": [1, [2]]}, "stats": {}}
        assert list(reader.samples()) == [{"id": 1, "n": [1.5, {"a": []}]}]
    finally:
        reader.close()


@pytest.mark.parametrize("stream", [True, False])
def test_invalid_json_is_unreadable(tmp_path: Path, stream: bool) -> None:
    if stream and not streaming_available():
        pytest.skip("ijson is not installed: .json logs are read whole")
    path = tmp_path / "bad.json"
    path.write_bytes(b'{"eval": {"task": "t"}, "samples": [{"id": 1}, {"id": ')
    reader = JsonLogReader(path, stream=stream)
    try:
        with pytest.raises(UnreadableLogError, match="not valid JSON"):
            _read_everything(reader)
    finally:
        reader.close()


def _read_everything(reader: JsonLogReader) -> None:
    reader.header()
    list(reader.samples())


def test_the_whole_file_fallback_imports_the_same_run(
    inspect_logs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    streamed = import_inspect_log(inspect_logs["json"])
    monkeypatch.setattr("evalscore.importers.inspect._json_format.ijson", None)
    assert not streaming_available()
    assert import_inspect_log(inspect_logs["json"]) == streamed


def test_eval_samples_are_read_one_member_at_a_time(inspect_logs: dict[str, Path]) -> None:
    reader = EvalLogReader(inspect_logs["eval"])
    try:
        samples = reader.samples()
        first = next(samples)
        assert isinstance(first["id"], str)
        assert len(list(samples)) == 6
    finally:
        reader.close()
