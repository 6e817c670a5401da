"""A ``PostgresSaver`` store, read in one read-only ``REPEATABLE READ`` transaction: never written, never migrated.

langgraph's ``PostgresSaver.setup()`` sends DDL even to an up-to-date store, and ``from_conn_string``
opens a read-write autocommit connection; neither is used here. A live store keeps changing, so every
query of an import runs in one read-only transaction: one consistent snapshot, whatever is written
meanwhile. The facts are those of ``SqliteSaver``, in four tables: ``checkpoints`` (the checkpoint and
its metadata as JSONB), ``checkpoint_blobs`` (channel values, one row per channel version: a
checkpoint's messages are the blob whose version is its ``channel_versions["messages"]``),
``checkpoint_writes`` and ``checkpoint_migrations``. No value larger than the bound leaves the server.
"""

from __future__ import annotations

from typing import Any, Final
from urllib.parse import parse_qsl, urlencode, urlsplit

import psycopg

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

TABLES: Final = ("checkpoints", "checkpoint_blobs", "checkpoint_writes")
CONNECT_TIMEOUT_S: Final = 10


def redacted(url: str) -> str:
    """The URL as messages show it: a password, in the user part or the query, replaced by ``***``."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        user, _, host = netloc.rpartition("@")
        if ":" in user:
            user = user.split(":", 1)[0] + ":***"
        netloc = f"{user}@{host}"
    query = urlencode(
        [(key, "***" if key == "password" else value) for key, value in parse_qsl(parts.query, keep_blank_values=True)],
        safe="/",
    )
    fragment = f"#{parts.fragment}" if parts.fragment else ""
    # not urlunsplit: it drops the // of an empty netloc (postgresql:///db?host=/socket/dir)
    return f"{parts.scheme}://{netloc}{parts.path}{'?' if query else ''}{query}{fragment}"


class PostgresStore:
    kind = "postgresql"

    def __init__(self, url: str, max_value_bytes: int) -> None:
        self._max = max_value_bytes
        try:
            self._db = psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S)
        except psycopg.Error as error:
            raise StoreReadError(f"cannot connect: {_first_line(error)}") from None
        except ValueError as error:  # a URL libpq cannot parse is ProgrammingError; some bad values are ValueError
            raise StoreReadError(f"not a usable PostgreSQL URL: {error}") from None
        try:
            self._db.read_only = True
            self._db.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            found = self._query("SELECT " + ", ".join(f"to_regclass('{table}') IS NOT NULL" for table in TABLES))
        except StoreReadError:
            self._db.close()
            raise
        missing = [table for table, present in zip(TABLES, found[0], strict=True) if not present]
        if missing:
            self._db.close()
            raise StoreReadError(f"not a LangGraph PostgresSaver store: no table {', '.join(missing)}")

    def close(self) -> None:
        self._db.close()  # the read-only transaction ends unwritten

    def _query(self, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._db.execute(sql, parameters).fetchall()
        except psycopg.Error as error:
            raise StoreReadError(f"cannot read the store: {_first_line(error)}") from None

    def thread_ids(self) -> list[str]:
        rows = self._query('SELECT thread_id FROM checkpoints GROUP BY thread_id ORDER BY thread_id COLLATE "C"')
        return [str(row[0]) for row in rows]

    def thread(self, thread_id: str) -> ThreadRows:
        checkpoints: list[CheckpointRow] = []
        subgraph = 0
        for namespace, checkpoint_id, parent_id, size, metadata in self._query(
            "SELECT checkpoint_ns, checkpoint_id, parent_checkpoint_id, octet_length(metadata::text), "
            "CASE WHEN octet_length(metadata::text) <= %s THEN metadata::text END "
            'FROM checkpoints WHERE thread_id = %s ORDER BY checkpoint_id COLLATE "C"',
            (self._max, thread_id),
        ):
            if namespace != ROOT_NAMESPACE:
                subgraph += 1
                continue
            self._refuse_large(size, f"the metadata of checkpoint {checkpoint_id}")
            parent = None if parent_id is None else str(parent_id)
            checkpoints.append(CheckpointRow(str(checkpoint_id), parent, self._json(metadata, checkpoint_id)))
        rows = self._query(
            "SELECT checkpoint_id, task_id, task_path, idx, channel, type, octet_length(blob), "
            "CASE WHEN channel = ANY(%s) AND octet_length(blob) <= %s THEN blob END FROM checkpoint_writes "
            "WHERE thread_id = %s AND checkpoint_ns = %s "
            'ORDER BY checkpoint_id COLLATE "C", task_path COLLATE "C", task_id COLLATE "C", idx',
            (sorted(READ_CHANNELS), self._max, thread_id, ROOT_NAMESPACE),
        )
        writes = [self._write_row(*row) for row in rows]
        return ThreadRows(thread_id, checkpoints, writes, subgraph)

    def saved_state(self, thread_id: str, checkpoint_id: str) -> SavedState:
        rows = self._query(
            "SELECT octet_length(checkpoint::text), CASE WHEN octet_length(checkpoint::text) <= %s "
            "THEN checkpoint::text END FROM checkpoints "
            "WHERE thread_id = %s AND checkpoint_ns = %s AND checkpoint_id = %s",
            (self._max, thread_id, ROOT_NAMESPACE, checkpoint_id),
        )
        size, text = rows[0]
        self._refuse_large(size, f"checkpoint {checkpoint_id}")
        checkpoint = self._json(text, checkpoint_id)
        versions = checkpoint.get("channel_versions")
        version = versions.get("messages") if isinstance(versions, dict) else None
        if version is None:
            inline = checkpoint.get("channel_values")
            messages = inline.get("messages") if isinstance(inline, dict) else None
            return SavedState(checkpoint.get("ts"), messages, resume_marker(checkpoint))
        blobs = self._query(
            "SELECT type, octet_length(blob), CASE WHEN octet_length(blob) <= %s THEN blob END "
            "FROM checkpoint_blobs "
            "WHERE thread_id = %s AND checkpoint_ns = %s AND channel = 'messages' AND version = %s",
            (self._max, thread_id, ROOT_NAMESPACE, str(version)),
        )
        if not blobs:
            missing = f"the messages of checkpoint {checkpoint_id} (version {version}) are not in the store"
            raise ThreadValueError(missing)
        kind, size, blob = blobs[0]
        if kind == "empty":
            return SavedState(checkpoint.get("ts"), None, resume_marker(checkpoint))
        self._refuse_large(size, f"the messages of checkpoint {checkpoint_id}")
        messages = self._decode(kind, blob, f"the messages of checkpoint {checkpoint_id}")
        return SavedState(checkpoint.get("ts"), messages, resume_marker(checkpoint))

    def _write_row(self, *row: Any) -> WriteRow:
        checkpoint_id, task_id, task_path, index, channel, kind, size, blob = row
        decoded = None
        if channel in READ_CHANNELS:
            what = f"a write on channel {channel}"
            self._refuse_large(size, what)
            decoded = self._decode(kind, blob, what)
        return WriteRow(str(checkpoint_id), str(task_id), str(task_path), int(index), str(channel), decoded)

    def _refuse_large(self, size: Any, what: str) -> None:
        if size is not None and size > self._max:
            raise ThreadValueError(f"{what} is larger than {self._max:,} bytes (--max-document-bytes)")

    def _json(self, text: Any, checkpoint_id: Any) -> dict[str, Any]:
        if text is None:
            return {}
        try:
            value = strict_json.loads(str(text).encode())
        except strict_json.JsonSyntaxError as error:
            raise ThreadValueError(f"checkpoint {checkpoint_id}: its JSON cannot be read: {error}") from None
        return value if isinstance(value, dict) else {}

    def _decode(self, kind: Any, blob: Any, what: str) -> Any:
        try:
            return decode_stored(None if kind is None else str(kind), None if blob is None else bytes(blob))
        except StoredValueError as error:
            raise ThreadValueError(f"{what}: {error}") from None


def _first_line(error: Exception) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__
