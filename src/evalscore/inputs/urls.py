"""Inputs named by fsspec URLs: ``s3://bucket/logs/``, ``gs://…``, ``memory://…``, ``file://…``.

fsspec (installed with the extra ``evalscore[dask]``; a protocol may need its own package, such
as s3fs) is imported only when a URL is given. A ``file://`` URL is the local path it names and is
read as one, with every guard a local path has. Any other URL is opened through fsspec by whoever
reads it (this process, or a Dask worker): a directory is listed once, in the order a local walk
would give, and only files whose names announce a format are taken from it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Final

from evalscore.inputs.errors import os_reason
from evalscore.inputs.paths import FileKey, SourceFile, classify, expand_local_path

# ruff: noqa: PLC0415 - fsspec is imported only for a URL: without the extra, nothing changes

NEEDS_FSSPEC: Final = "reading a URL needs fsspec: pip install 'evalscore[dask]'"


def expand_url(url: str, skip: frozenset[FileKey]) -> Iterator[SourceFile]:
    """The files a URL names: itself, or, for a directory, every file under it whose name announces
    a format. What cannot be looked at is one source with the reason."""
    try:
        from fsspec.core import url_to_fs
        from fsspec.implementations.local import LocalFileSystem
    except ImportError:
        yield _unreadable(url, NEEDS_FSSPEC)
        return
    try:
        filesystem, root = url_to_fs(url)
    except Exception as error:  # an unknown protocol, or its package missing
        yield _unreadable(url, _reason(error))
        return
    if isinstance(filesystem, LocalFileSystem):
        yield from expand_local_path(root, skip)  # file://: the local path, with every guard a path has
        return
    try:
        is_directory = filesystem.info(root).get("type") == "directory"
        found = filesystem.find(root) if is_directory else None  # files only, at any depth
    except Exception as error:  # each protocol's package raises its own errors
        yield _unreadable(url, _reason(error))
        return
    if found is None:
        fmt, gzipped = classify(url) or ("sniff", url.lower().endswith(".gz"))
        yield SourceFile(url, fmt, gzipped)
        return
    yield from _listed(url, root, found)


def _listed(url: str, root: str, found: list[str]) -> Iterator[SourceFile]:
    prefix = root.rstrip("/") + "/"
    walk_order = sorted((_walk_key(name[len(prefix) :]), name) for name in found if name.startswith(prefix))
    for _, name in walk_order:
        relative = name[len(prefix) :]
        announced = classify(relative)
        if announced is not None:
            yield SourceFile(url.rstrip("/") + "/" + relative, *announced)


def _walk_key(relative: str) -> tuple[tuple[int, str], ...]:
    """The order of a top-down walk that sorts each directory: a directory's files, then its
    subdirectories one after the other."""
    *directories, name = relative.split("/")
    return (*((1, directory) for directory in directories), (0, name))


def open_url(url: str) -> IO[bytes]:
    """The bytes behind a URL (not ``file://``), for reading from the start; the caller closes it.
    Every error opening it is an ``OSError`` with the reason."""
    try:
        import fsspec
    except ImportError as error:
        raise OSError(NEEDS_FSSPEC) from error
    try:
        opened: IO[bytes] = fsspec.open(url, "rb").open()
    except Exception as error:  # an unknown protocol, its package missing, its client's own errors
        raise OSError(_reason(error)) from error
    return opened


def url_size(stream: IO[bytes]) -> int | None:
    """The size of a file opened by ``open_url``, when its file system says."""
    size = getattr(stream, "size", None)
    return size if isinstance(size, int) else None


def _reason(error: Exception) -> str:
    """fsspec raises ``FileNotFoundError(path)``, without the OS's words: they are given here."""
    if isinstance(error, FileNotFoundError) and not error.strerror:
        return "no such file or directory"
    return os_reason(error)


def _unreadable(url: str, reason: str) -> SourceFile:
    return SourceFile(url, "json", gzipped=False, problem=reason)
