"""A ``SqliteSaver`` checkpoint file, opened read-only (``mode=ro``): never written, never migrated.

langgraph's own ``SqliteSaver.setup()`` creates tables and switches the file to WAL mode; it is never
used here. The file is opened through an SQLite URI with ``mode=ro``, and every query runs in one
read transaction, so a writer working on the file meanwhile cannot make one thread's rows disagree.
"""

from __future__ import annotations

import sqlite3
from typing import Any, Final
from urllib.parse import quote

from evalscore.importers.langgraph._decode import StoredValueError, decode_stored
from evalscore.importers.langgraph._store import (
    READ_CHANNELS,
    ROOT_NAMESPACE,
    CheckpointRow,
    SavedState,
    StoreReadError,
    ThreadRows,
    ThreadValueError,
    WriteRow,
    resume_marker,
)
from evalscore.inputs import strict_json

PRIMARY_KEYS: Final = {
    "checkpoints": ("thread_id", "checkpoint_ns", "checkpoint_id"),
    "writes": ("thread_id", "checkpoint_ns", "checkpoint_id", "task_id", "idx"),
}
"""The tables read and their primary keys as ``SqliteSaver.setup()`` creates them."""
INDEX_COLUMNS: Final = "SELECT * FROM pragma_index_xinfo(?)"


class SqliteStore:
    kind = "sqlite"

    def __init__(self, path: str, max_value_bytes: int) -> None:
        self._max = max_value_bytes
        try:
            self._db = sqlite3.connect(f"file:{quote(path)}?mode=ro", uri=True, isolation_level=None)
        except sqlite3.Error as error:
            raise StoreReadError(f"cannot open the SQLite file: {error}") from None
        try:
            self._db.execute("BEGIN")  # one snapshot for every query that follows
            tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.Error as error:
            self._db.close()
            raise StoreReadError(f"not a readable SQLite database: {error}") from None
        missing = sorted(set(PRIMARY_KEYS) - tables)
        try:
            problem = f"no table {', '.join(missing)}" if missing else self._schema_problem()
        except StoreReadError:
            self._db.close()
            raise
        if problem is not None:
            self._db.close()
            raise StoreReadError(f"not a LangGraph SqliteSaver store: {problem}")

    def _schema_problem(self) -> str | None:
        """What makes the tables other than langgraph's, in ways that change what reading them costs or
        means: a computed column runs an expression on every read (any time, whatever the file's size),
        a missing primary key makes every lookup a scan of the table, and a key column compared other
        than byte for byte would merge threads or order them differently."""
        for table, key in PRIMARY_KEYS.items():
            columns = self._query("SELECT * FROM pragma_table_xinfo(?)", (table,))
            if any(column[6] for column in columns):
                return f"table {table} has computed columns, which langgraph never makes"
            declared = tuple(name for name, _ in sorted(((c[1], c[5]) for c in columns if c[5]), key=lambda c: c[1]))
            if declared != key:
                return f"table {table} does not have langgraph's primary key ({', '.join(key)})"
            indexes = [row[1] for row in self._query("SELECT * FROM pragma_index_list(?)", (table,)) if row[3] == "pk"]
            index_columns = [row for name in indexes for row in self._query(INDEX_COLUMNS, (name,))]
            collations = {row[4] for row in index_columns if row[5]}  # row[5]: a key column, not the rowid
            if len(indexes) != 1 or collations != {"BINARY"}:
                return f"the primary key of table {table} does not compare its text byte for byte"
        return None

    def close(self) -> None:
        self._db.close()

    def _query(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._db.execute(sql, parameters).fetchall()
        except sqlite3.Error as error:
            raise StoreReadError(f"cannot read the store: {error}") from None

    def thread_ids(self) -> list[str]:
        rows = self._query("SELECT DISTINCT thread_id FROM checkpoints ORDER BY thread_id")
        return [str(row[0]) for row in rows]

    def thread(self, thread_id: str) -> ThreadRows:
        checkpoints: list[CheckpointRow] = []
        subgraph = 0
        for namespace, checkpoint_id, parent_id, metadata in self._query(
            "SELECT checkpoint_ns, checkpoint_id, parent_checkpoint_id, metadata FROM checkpoints "
            "WHERE thread_id = ? ORDER BY checkpoint_id",
            (thread_id,),
        ):
            if namespace != ROOT_NAMESPACE:
                subgraph += 1
                continue
            parent = None if parent_id is None else _text(parent_id, "a checkpoint's parent id")
            checkpoints.append(CheckpointRow(_text(checkpoint_id, "a checkpoint id"), parent, self._metadata(metadata)))
        rows = self._query(
            "SELECT checkpoint_id, task_id, task_path, idx, channel, type, value FROM writes "
            "WHERE thread_id = ? AND checkpoint_ns = ? ORDER BY checkpoint_id, task_path, task_id, idx",
            (thread_id, ROOT_NAMESPACE),
        )
        writes = [self._write_row(*row) for row in rows]
        return ThreadRows(thread_id, checkpoints, writes, subgraph)

    def saved_state(self, thread_id: str, checkpoint_id: str) -> SavedState:
        rows = self._query(
            "SELECT type, checkpoint FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?",
            (thread_id, ROOT_NAMESPACE, checkpoint_id),
        )
        if len(rows) != 1:
            raise ThreadValueError(f"checkpoint {checkpoint_id} is stored {len(rows)} times")
        tag, blob = rows[0]
        state = self._decode(tag, blob, f"checkpoint {checkpoint_id}")
        if not isinstance(state, dict):
            raise ThreadValueError(f"checkpoint {checkpoint_id} is not a map")
        channels = state.get("channel_values")
        messages = channels.get("messages") if isinstance(channels, dict) else None
        return SavedState(state.get("ts"), messages, resume_marker(state))

    def _metadata(self, raw: Any) -> dict[str, Any]:
        if raw is None:
            return {}
        data = _bytes(raw, "a checkpoint's metadata")
        if len(data) > self._max:
            raise ThreadValueError(f"a checkpoint's metadata is larger than {self._max:,} bytes")
        try:
            value = strict_json.loads(data)
        except strict_json.JsonSyntaxError as error:
            raise ThreadValueError(f"a checkpoint's metadata is not JSON: {error}") from None
        return value if isinstance(value, dict) else {}

    def _write_row(
        self, checkpoint_id: Any, task_id: Any, task_path: Any, index: Any, channel: Any, kind: Any, value: Any
    ) -> WriteRow:
        channel = _text(channel, "a write's channel")
        decoded = self._decode(kind, value, f"a write on channel {channel}") if channel in READ_CHANNELS else None
        if not isinstance(index, int) or isinstance(index, bool):
            raise ThreadValueError(f"a write's index is {type(index).__name__}, not an integer")
        return WriteRow(
            _text(checkpoint_id, "a write's checkpoint id"),
            _text(task_id, "a write's task id"),
            _text(task_path, "a write's task path"),
            index,
            channel,
            decoded,
        )

    def _decode(self, tag: Any, blob: Any, what: str) -> Any:
        data = None if blob is None else _bytes(blob, what)
        if data is not None and len(data) > self._max:
            raise ThreadValueError(f"{what} is larger than {self._max:,} bytes (--max-document-bytes)")
        if tag is not None and not isinstance(tag, str):
            raise ThreadValueError(f"{what}: its type is stored as {type(tag).__name__}, not text")
        try:
            return decode_stored(tag, data)
        except StoredValueError as error:
            raise ThreadValueError(f"{what}: {error}") from None


def _text(value: Any, what: str) -> str:
    """A key column as langgraph writes it: text. Anything else (a BLOB, a number) refuses the thread: turned
    into text it would name another channel or checkpoint than the one stored."""
    if not isinstance(value, str):
        raise ThreadValueError(f"{what} is stored as {type(value).__name__}, not text")
    return value


def _bytes(value: Any, what: str) -> bytes:
    """A value column's bytes (a BLOB, or text as UTF-8); a number is refused before anything is allocated."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")
    raise ThreadValueError(f"{what} is stored as {type(value).__name__}, not bytes or text")
