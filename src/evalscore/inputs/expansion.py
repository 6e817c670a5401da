"""Expand command-line paths and URLs into the files to read, in a stable order."""

from __future__ import annotations

from collections.abc import Iterator

from evalscore.inputs.paths import FileKey, SourceFile, expand_local_path, is_url
from evalscore.inputs.urls import expand_url


def expand_paths(paths: list[str], skip: frozenset[FileKey] = frozenset()) -> Iterator[SourceFile]:
    """Files named directly are read whatever their suffix (a suffix that announces no format
    is sniffed from the content) and whatever they are (a pipe from ``<(cmd)`` is fine);
    directories are walked recursively for the suffixes evalscore reads, regular files only. A URL
    (``s3://…``, ``file://…``) is expanded the same way through fsspec (``inputs.urls``).
    A file whose key is in ``skip`` is left out, named or walked (``score`` reads its suites so)."""
    for path in paths:
        if is_url(path):
            yield from expand_url(path, skip)
        else:
            yield from expand_local_path(path, skip)
