"""The histories of one file, read with evalscore's own guarded reader.

A ``.json`` file is one history, a ``.jsonl`` file one history per line; a file whose name says
neither is told apart by its content, as ``evalscore validate`` tells it. The reader is the one
``validate`` uses: strict JSON (a repeated key or a number beyond a double is refused, so no two
readers can disagree about a history), ``--max-document-bytes`` per history, a JSONL file streamed
line by line, the file's SHA-256 taken as it is read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from evalscore.importers.shared.errors import UnreadableSourceError
from evalscore.inputs.documents import Document, InputRecord, read_file_documents
from evalscore.inputs.paths import SourceFile, classify


@dataclass(frozen=True, slots=True)
class HistoryDocument:
    """One history as parsed, with its line in a JSONL file (None in a JSON file)."""

    line: int | None
    value: Any


def history_documents(path: str, limit: int) -> tuple[Iterator[HistoryDocument], Callable[[], InputRecord]]:
    """The file's histories, lazily, and its record (SHA-256) once they are consumed.

    Raises ``UnreadableSourceError`` for a file that cannot be read or parsed, naming the line.
    """
    announced = classify(path)
    if announced is not None and announced[0] not in ("json", "jsonl"):
        raise UnreadableSourceError(path, f"a Pydantic AI history is JSON or JSONL, not {announced[0].upper()}")
    fmt, gzipped = announced if announced is not None else ("sniff", path.lower().endswith(".gz"))
    documents, record = read_file_documents(SourceFile(path, fmt, gzipped), limit)

    def parsed() -> Iterator[HistoryDocument]:
        for document in documents:
            assert isinstance(document, Document)  # raw lines are asked for only by the parallel reader
            if document.syntax is not None:
                where = f"line {document.line}: " if document.line is not None else ""
                raise UnreadableSourceError(path, f"{where}{document.syntax.message} ({document.syntax.code})")
            yield HistoryDocument(document.line, document.value)

    return parsed(), record
