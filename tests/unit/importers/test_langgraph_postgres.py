"""The LangGraph importer on PostgresSaver stores in a real PostgreSQL server (tests/postgres_server.py): the same
runs kept by both savers give the same Runs; the store is read in one read-only transaction and left unchanged."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner
from langgraph.checkpoint.postgres import PostgresSaver

from evalscore.cli.main import main
from evalscore.importers.langgraph import _postgres, import_langgraph_store
from evalscore.importers.shared.errors import UnmappableSourceError, UnreadableSourceError

TABLES = ("checkpoint_migrations", "checkpoints", "checkpoint_blobs", "checkpoint_writes")


def dumped(runs: Any) -> list[dict[str, Any]]:
    documents = [run.model_dump(mode="json") for run in runs]
    for document in documents:
        document["adapter"]["config"].pop("store")
    return documents


def test_the_same_runs_kept_by_both_savers_give_the_same_runs(
    langgraph_store: Path, langgraph_postgres_store: str
) -> None:
    from_sqlite = dumped(import_langgraph_store(str(langgraph_store)))
    from_postgres = dumped(import_langgraph_store(langgraph_postgres_store))
    assert len(from_sqlite) == 10
    assert from_postgres == from_sqlite


def test_the_store_kind_is_named_in_the_provenance(langgraph_postgres_store: str) -> None:
    runs = list(import_langgraph_store(langgraph_postgres_store, threads=("approve",)))
    assert [run.adapter.config["store"] for run in runs] == ["postgresql"]


def snapshot(url: str) -> str:
    digest = hashlib.sha256()
    with psycopg.connect(url) as db:
        for table in TABLES:
            for row in db.execute(
                f"SELECT * FROM {table} ORDER BY 1, 2, 3, 4"
                if table != "checkpoint_migrations"
                else f"SELECT * FROM {table} ORDER BY 1"
            ):
                digest.update(repr(row).encode())
        columns = db.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = 'public' ORDER BY 1, 2"
        ).fetchall()
        digest.update(repr(columns).encode())
        digest.update(
            repr(
                db.execute("SELECT indexname FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1").fetchall()
            ).encode()
        )
    return digest.hexdigest()


def test_the_store_is_unchanged_rows_and_schema(langgraph_postgres_store: str) -> None:
    before = snapshot(langgraph_postgres_store)
    assert len(list(import_langgraph_store(langgraph_postgres_store))) == 10
    assert snapshot(langgraph_postgres_store) == before


def test_the_import_reads_in_a_read_only_transaction(
    langgraph_postgres_store: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[bool | None, Any]] = []
    original = _postgres.PostgresStore.thread_ids

    def spy(self: Any) -> list[str]:
        seen.append((self._db.read_only, self._db.execute("SHOW transaction_isolation").fetchone()))
        return original(self)

    monkeypatch.setattr(_postgres.PostgresStore, "thread_ids", spy)
    assert len(list(import_langgraph_store(langgraph_postgres_store, threads=("reject",)))) == 1
    assert seen == [(True, ("repeatable read",))]


def test_a_refused_connection_is_unreadable_with_the_password_hidden(tmp_path: Path) -> None:
    url = f"postgresql://someone:s3cret@/postgres?host={tmp_path}&password=other"
    with pytest.raises(UnreadableSourceError) as raised:
        list(import_langgraph_store(url))
    assert "s3cret" not in str(raised.value)
    assert "other" not in str(raised.value)
    assert "cannot connect" in str(raised.value)


def test_a_database_without_the_tables_is_not_a_store(postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("CREATE DATABASE empty_one")
    url = postgres_url.replace("/postgres?", "/empty_one?")
    with pytest.raises(UnreadableSourceError, match="no table checkpoints"):
        list(import_langgraph_store(url))


def test_a_planted_pickle_in_postgres_refuses_its_thread(langgraph_postgres_store: str, postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("CREATE DATABASE planted TEMPLATE postgres")
    url = postgres_url.replace("/postgres?", "/planted?")
    with psycopg.connect(url, autocommit=True) as db:
        changed = db.execute(
            "UPDATE checkpoint_writes SET type = 'pickle' WHERE thread_id = 'edit' AND channel = '__resume__'"
        ).rowcount
    assert changed >= 1
    with pytest.raises(UnmappableSourceError, match=r"thread 'edit'.*pickle"):
        list(import_langgraph_store(url))


def test_a_live_per_call_run_saved_by_postgres_saver_maps_as_from_sqlite(
    langgraph_runs: Any, postgres_url: str
) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("CREATE DATABASE live")
    url = postgres_url.replace("/postgres?", "/live?")
    thread = next(t for t in langgraph_runs.THREADS if t.thread_id == "per-call")
    with PostgresSaver.from_conn_string(url) as saver:
        saver.setup()
        langgraph_runs.run_thread(saver, thread)
    (run,) = import_langgraph_store(url)
    step = run.task_results[0].step_results[0]
    assert [(g.resolution, g.task_calls_before) for g in step.gate_events] == [("approved", None), ("denied", None)]
    assert [c.tool for c in step.agent_tool_calls] == ["refund", "lookup"]


def test_the_command_takes_a_postgresql_url(langgraph_postgres_store: str, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    arguments = ["import", "langgraph", langgraph_postgres_store, "--thread", "batch", "-o", str(out)]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    lines = out.read_text().splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0])["adapter"]["config"]["store"] == "postgresql"
