"""Import LangGraph human-in-the-loop runs from a checkpoint store as evalscore Runs, one per thread.

The store (a ``SqliteSaver`` file, or a ``postgresql://`` URL of a ``PostgresSaver`` database) is
opened read-only and read as data: nothing a stored value names is imported or called
(``_decode``). Each thread's lineage becomes a Run of one task with one step; gates exist only where
the store recorded a HumanInTheLoopMiddleware review request, resolved from the resume writes that
answered it. No time, person or decision is taken from anywhere else; the only time a gate carries
is an observed upper bound on its decision latency. See docs/langgraph-import.md for the whole
mapping.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from evalscore.importers.langgraph._run import run_document
from evalscore.importers.langgraph._sqlite import SqliteStore
from evalscore.importers.langgraph._store import CheckpointStore, StoreReadError, ThreadValueError, threads_in_order
from evalscore.importers.langgraph._thread import map_thread
from evalscore.importers.langgraph_defaults import DEFAULT_MAX_VALUE_BYTES
from evalscore.importers.shared.checked_run import checked_run
from evalscore.importers.shared.errors import ImportFailedError, UnmappableSourceError, UnreadableSourceError
from evalscore.models import EvalSuite, Run

__all__ = [
    "DEFAULT_MAX_VALUE_BYTES",
    "ImportFailedError",
    "UnmappableSourceError",
    "UnreadableSourceError",
    "import_langgraph_store",
]

POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")


def import_langgraph_store(
    source: str,
    *,
    threads: tuple[str, ...] = (),
    suite: EvalSuite | None = None,
    max_value_bytes: int = DEFAULT_MAX_VALUE_BYTES,
    on_thread: Callable[[], None] | None = None,
) -> Iterator[Run]:
    """The validated Run of each thread (all, in id order, or those named), one at a time.

    Raises ``UnreadableSourceError`` (exit 2) when the store cannot be opened or read, and
    ``UnmappableSourceError`` (exit 3) naming the thread that cannot be mapped without inventing data.
    """
    shown = source
    try:
        store: CheckpointStore
        if source.startswith(POSTGRES_SCHEMES):
            # psycopg is imported only for a PostgreSQL store
            from evalscore.importers.langgraph._postgres import PostgresStore, redacted  # noqa: PLC0415

            shown = redacted(source)
            store = PostgresStore(source, max_value_bytes)
        else:
            store = SqliteStore(source, max_value_bytes)
    except StoreReadError as error:
        raise UnreadableSourceError(shown, str(error)) from None
    try:
        for thread_id in threads_in_order(store, threads):
            try:
                mapped = map_thread(store, store.thread(thread_id))
            except ThreadValueError as error:
                raise UnmappableSourceError(shown, f"thread {thread_id!r}: {error}") from None
            yield checked_run(run_document(store.kind, mapped, suite), f"{shown} (thread {thread_id!r})", suite)
            if on_thread is not None:
                on_thread()
    except StoreReadError as error:
        raise UnreadableSourceError(shown, str(error)) from None
    finally:
        store.close()
