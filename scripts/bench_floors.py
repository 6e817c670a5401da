#!/usr/bin/env python3
"""The floors of ``scripts/bench.py``: the least a process must do to read the same bytes.

``python scripts/bench_floors.py KIND PATH`` runs one floor as a whole process (interpreter start-up
and the import of orjson included, as in the command it is compared with):

- ``document``: ``orjson.loads`` of the whole file;
- ``lines``: ``orjson.loads`` of each line of a JSONL file;
- ``files``: ``orjson.loads`` of each ``.json`` file under a directory (sorted walk);
- ``imports``: only ``import orjson, jsonschema_rs, click`` (PATH unread), the start-up floor of issue 9;
- ``eval``: each member of an Inspect ``.eval`` zip decompressed (zstd, through ``zipfile_zstd``, the
  package inspect_ai itself patches ``zipfile`` with) and ``orjson.loads`` of it.

The cyclic garbage collector is off throughout: the floor at its best, as evalscore pauses the
collector while it loads.
"""

from __future__ import annotations

import gc
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import orjson


def document(path: Path) -> None:
    orjson.loads(path.read_bytes())


def lines(path: Path) -> None:
    with path.open("rb") as stream:
        for line in stream:
            orjson.loads(line)


def files(path: Path) -> None:
    for file in sorted(path.rglob("*.json")):
        orjson.loads(file.read_bytes())


def imports(_path: Path) -> None:
    import click  # noqa: F401, PLC0415 - the start-up floor: what validate cannot avoid importing
    import jsonschema_rs  # noqa: F401, PLC0415


def eval_members(path: Path) -> None:
    import zipfile_zstd  # type: ignore[import-untyped]  # noqa: F401, PLC0415 - patches zipfile with zstd

    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            orjson.loads(archive.read(info))


FLOORS: dict[str, Callable[[Path], None]] = {
    "document": document,
    "lines": lines,
    "files": files,
    "imports": imports,
    "eval": eval_members,
}


def main(argv: list[str]) -> int:
    kind, path = argv
    gc.disable()
    FLOORS[kind](Path(path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
