"""Read members of a zip archive, including zstd members (method 93) that ``zipfile`` cannot open before 3.14.

``zipfile`` reads the central directory. A zstd member's local header is parsed
here to find its data, which is decompressed with ``zstandard``; the standard
methods (stored, deflated, bzip2, lzma) are decompressed by ``zipfile``. Either
way, what a member decompresses to is checked here against the central
directory's size and CRC-32: ``zipfile`` by itself stops at the declared size
(a member that decompresses to more is silently cut to it, and checked against
a CRC-32 the archive may have computed over the cut) and never compares a
shorter result with it.
"""

from __future__ import annotations

import copy
import struct
import zipfile
import zlib
from typing import IO, Final

import zstandard

from evalscore.inputs.documents import DEFAULT_MAX_DOCUMENT_BYTES

ZSTD_METHOD: Final = 93
"""The zip compression method id of Zstandard (APPNOTE 4.4.5)."""
STDLIB_METHODS: Final = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA})
_LOCAL_HEADER: Final = struct.Struct("<IHHHHHIIIHH")
_LOCAL_SIGNATURE: Final = 0x04034B50
_ENCRYPTED_FLAG: Final = 0x1
_CHUNK: Final = 1 << 20


class MemberError(Exception):
    """A member that cannot be read; the message says why in one line."""


def latest_members(archive: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    """Members by name in central-directory order; a name written twice keeps its last entry."""
    members: dict[str, zipfile.ZipInfo] = {}
    for info in archive.infolist():
        members.pop(info.filename, None)
        members[info.filename] = info
    return members


def superseded_entries(archive: zipfile.ZipFile) -> dict[str, int]:
    """Names written more than once, each with how many of its entries a later one supersedes."""
    counts: dict[str, int] = {}
    for info in archive.infolist():
        counts[info.filename] = counts.get(info.filename, -1) + 1
    return {name: count for name, count in counts.items() if count}


def read_member(
    archive: zipfile.ZipFile, raw: IO[bytes], info: zipfile.ZipInfo, limit: int = DEFAULT_MAX_DOCUMENT_BYTES
) -> bytes:
    """The uncompressed bytes of one member; ``raw`` is the archive file opened in binary mode.

    A member declaring more than ``limit`` uncompressed bytes is refused before anything is
    decompressed; one that decompresses to more than it declares is stopped one byte past it
    (see ``read_stdlib_member`` and ``decompress_zstd``), so memory never exceeds the limit.
    """
    if info.flag_bits & _ENCRYPTED_FLAG:
        raise MemberError(f"member {info.filename!r} is encrypted")
    if info.file_size > limit:
        raise MemberError(
            f"member {info.filename!r} declares {info.file_size:,} bytes uncompressed, more than {limit:,}; "
            "raise --max-document-bytes to read it"
        )
    if info.compress_type in STDLIB_METHODS:
        data = read_stdlib_member(archive, info)
    elif info.compress_type == ZSTD_METHOD:
        data = decompress_zstd(read_compressed(raw, info), info.file_size)
    else:
        raise MemberError(
            f"member {info.filename!r} uses zip compression method {info.compress_type}, which is not supported"
        )
    check_member(info, data)
    return data


def read_stdlib_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    """At most one byte more than the declared size of a member ``zipfile`` decompresses; ``check_member`` judges it.

    ``zipfile`` reads up to the size it is given and checks the CRC-32 it is
    given: it is given the declared size plus one (so a member that decompresses
    to more shows it) and no CRC-32 (which ``check_member`` compares, over all
    that was read).
    """
    probe = copy.copy(info)
    probe.file_size = info.file_size + 1
    del probe.CRC
    with archive.open(probe) as member:
        return member.read()


def read_compressed(raw: IO[bytes], info: zipfile.ZipInfo) -> bytes:
    """The compressed bytes of a member, found through its local file header."""
    raw.seek(info.header_offset)
    header = raw.read(_LOCAL_HEADER.size)
    if len(header) != _LOCAL_HEADER.size:
        raise MemberError(f"member {info.filename!r}: the archive ends inside its local header")
    fields = _LOCAL_HEADER.unpack(header)
    if fields[0] != _LOCAL_SIGNATURE:
        raise MemberError(f"member {info.filename!r}: no local file header where the central directory points")
    name_length, extra_length = fields[9], fields[10]
    raw.seek(info.header_offset + _LOCAL_HEADER.size + name_length + extra_length)
    data = raw.read(info.compress_size)
    if len(data) != info.compress_size:
        raise MemberError(f"member {info.filename!r}: the archive ends inside its data")
    return data


def decompress_zstd(data: bytes, expected_size: int) -> bytes:
    """Decompress every zstd frame in ``data``, refusing output beyond ``expected_size`` bytes."""
    decompressor = zstandard.ZstdDecompressor()
    try:
        with decompressor.stream_reader(data, read_across_frames=True) as reader:
            chunks: list[bytes] = []
            remaining = expected_size + 1
            while remaining > 0:
                chunk = reader.read(min(remaining, _CHUNK))
                if not chunk:
                    break
                chunks.append(chunk)
                remaining -= len(chunk)
    except zstandard.ZstdError as error:
        raise MemberError(f"zstd data is corrupt: {error}") from error
    return b"".join(chunks)


def check_member(info: zipfile.ZipInfo, data: bytes) -> None:
    """Compare the decompressed bytes with the central directory's size and CRC-32."""
    if len(data) != info.file_size:
        size = f"more than {info.file_size}" if len(data) > info.file_size else str(len(data))
        raise MemberError(f"member {info.filename!r} decompresses to {size} bytes, the archive says {info.file_size}")
    if zlib.crc32(data) != info.CRC:
        raise MemberError(f"member {info.filename!r} fails its CRC-32 check")
