"""Import persisted Pydantic AI message histories as evalscore Runs.

A history file is one JSON array of messages (as ``ModelMessagesTypeAdapter.dump_json`` writes it)
or JSONL of such arrays; the file becomes one Run, each history one task with one step. Calls of
the tools named as requiring approval become gates, resolved from what the history recorded in
answer to them; no time, person or decision is taken from anywhere else. ``pydantic_ai`` itself is
never imported. See docs/pydantic-ai-import.md for the whole mapping.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Final

from evalscore.importers.pydantic_ai._reading import history_documents
from evalscore.importers.pydantic_ai._run import MappedTask, map_task, run_document
from evalscore.importers.shared.checked_run import checked_run
from evalscore.importers.shared.errors import ImportFailedError, UnmappableSourceError, UnreadableSourceError
from evalscore.models import EvalSuite, Run

__all__ = [
    "DEFAULT_MAX_HISTORY_BYTES",
    "ImportFailedError",
    "UnmappableSourceError",
    "UnreadableSourceError",
    "import_pydantic_ai_history",
]

DEFAULT_MAX_HISTORY_BYTES: Final = 64 * 1024 * 1024
"""The largest history read by default. Mapping one holds about 25 times its size at worst (a response of
250,000 tool calls: 52 MB read, 1.4 GB held), so the default is lower than validate's 512 MiB."""


def import_pydantic_ai_history(
    path: str,
    *,
    approval_tools: Collection[str] = (),
    suite: EvalSuite | None = None,
    max_document_bytes: int = DEFAULT_MAX_HISTORY_BYTES,
    on_history: Callable[[], None] | None = None,
) -> Run:
    """Read one history file, history by history, and map it to a validated Run.

    ``approval_tools`` names the tools that required approval (a history does not record it).
    Raises ``UnreadableSourceError`` (exit 2) or ``UnmappableSourceError`` (exit 3).
    """
    tools = frozenset(approval_tools)
    tasks: list[MappedTask] = []
    documents, record = history_documents(path, max_document_bytes)
    for document in documents:
        tasks.append(map_task(document, path, tools, position=len(tasks) + 1))
        if on_history is not None:
            on_history()
    if not tasks:
        raise UnmappableSourceError(path, "the file holds no history")
    digest = record().sha256
    if digest is None:  # pragma: no cover - a file read to its end has a digest
        raise UnreadableSourceError(path, "the file could not be read to its end")
    return checked_run(run_document(path, tasks, tools, digest, suite), path, suite)
