"""The LangGraph importer on real runs (create_agent + HumanInTheLoopMiddleware, saved by SqliteSaver), field by
field, and on stores tampered with by hand: planted objects, contradicting markers, forks, garbage."""

from __future__ import annotations

import hashlib
import sqlite3
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import msgpack
import pytest
from langgraph.checkpoint.sqlite import SqliteSaver

from evalscore.importers.langgraph import import_langgraph_store
from evalscore.importers.shared.errors import UnmappableSourceError, UnreadableSourceError
from evalscore.models import Run

THREAD_IDS = [
    "agent-inbox", "approve", "batch", "edit", "pending", "per-call", "reject", "respond", "static-breakpoint",
    "two-rounds",
]  # fmt: skip


def runs_of(store: Path, *threads: str) -> dict[str, Run]:
    runs = {run.task_results[0].task_id: run for run in import_langgraph_store(str(store), threads=threads)}
    return runs


def step_of(run: Run) -> Any:
    assert len(run.task_results) == 1
    assert len(run.task_results[0].step_results) == 1
    return run.task_results[0].step_results[0]


def gates_of(run: Run) -> list[tuple[str, str | None, int | None]]:
    return [(g.resolution, g.target_tool, g.task_calls_before) for g in step_of(run).gate_events]


def calls_of(run: Run) -> list[tuple[str, Any]]:
    return [(c.tool, c.args) for c in step_of(run).agent_tool_calls]


def not_run(run: Run) -> list[tuple[str, str]]:
    return [(entry["call_id"], entry["reason"]) for entry in run.adapter.config["calls_not_run"]]


@pytest.fixture(scope="module")
def runs(langgraph_store: Path) -> dict[str, Run]:
    return runs_of(langgraph_store)


def test_every_thread_is_one_run_in_id_order(langgraph_store: Path) -> None:
    ids = [run.task_results[0].task_id for run in import_langgraph_store(str(langgraph_store))]
    assert ids == THREAD_IDS


def test_approve_is_an_approved_gate_and_the_call_ran(runs: dict[str, Run]) -> None:
    run = runs["approve"]
    assert gates_of(run) == [("approved", "refund", 0)]
    assert calls_of(run) == [("refund", {"order": "A1", "amount": 5})]
    assert step_of(run).agent_tool_calls[0].result == "refunded A1 5"
    assert not_run(run) == []
    assert step_of(run).agent_final_output == "All done."


def test_reject_is_denied_and_the_call_is_provenance_not_a_call(runs: dict[str, Run]) -> None:
    run = runs["reject"]
    assert gates_of(run) == [("denied", "refund", 0)]
    assert calls_of(run) == []
    assert not_run(run) == [("c-a", "rejected by the reviewer")]


def test_edit_is_approved_and_what_ran_is_the_edit_with_the_request_kept_as_provenance(runs: dict[str, Run]) -> None:
    run = runs["edit"]
    assert gates_of(run) == [("approved", "refund", 0)]
    assert calls_of(run) == [("refund", {"order": "A1", "amount": 2})]
    assert run.adapter.config["edited_calls_requested"] == [
        {"call_id": "c-a", "requested_tool": "refund", "requested_args": {"order": "A1", "amount": 5}}
    ]


def test_respond_is_answered_not_approved_and_the_tool_did_not_run(runs: dict[str, Run]) -> None:
    run = runs["respond"]
    assert gates_of(run) == [("answered", "ask_customer", 0)]
    assert calls_of(run) == []
    assert not_run(run) == [("c-q", "answered by the reviewer in place of the tool")]


def test_a_thread_that_ends_paused_has_an_unresolved_gate_without_a_bound(runs: dict[str, Run]) -> None:
    run = runs["pending"]
    assert gates_of(run) == [("unresolved", "refund", 0)]
    assert step_of(run).gate_events[0].decision_latency_upper_bound_ms is None
    assert not_run(run) == [("c-a", "awaiting review: the thread ends paused")]


def test_a_batch_of_two_gated_calls_and_one_free_call_pairs_decisions_by_position(runs: dict[str, Run]) -> None:
    run = runs["batch"]
    assert gates_of(run) == [("approved", "refund", 0), ("denied", "refund", 0)]
    assert [g.surfaced.splitlines()[-1] for g in step_of(run).gate_events] == [
        "Args: {'order': 'A1', 'amount': 5}",
        "Args: {'order': 'B2', 'amount': 7}",
    ]
    assert calls_of(run) == [("refund", {"order": "A1", "amount": 5}), ("lookup", {"order": "A1"})]
    assert not_run(run) == [("c-b", "rejected by the reviewer")]


def test_two_rounds_count_the_calls_that_ran_before_each_pause(runs: dict[str, Run]) -> None:
    run = runs["two-rounds"]
    assert gates_of(run) == [("approved", "refund", 1), ("approved", "refund", 2)]
    assert [tool for tool, _ in calls_of(run)] == ["lookup", "refund", "refund"]
    assert run.adapter.config["pauses_with_review"] == 2


def test_the_per_call_shape_is_read_and_its_order_against_sibling_calls_is_not_invented(runs: dict[str, Run]) -> None:
    run = runs["per-call"]
    # the free lookup ran while both reviews were open: how many calls preceded each decision is not recorded
    assert gates_of(run) == [("approved", "refund", None), ("denied", "refund", None)]
    assert [g.reason.endswith("(per_call)") for g in step_of(run).gate_events] == [True, True]
    assert calls_of(run) == [("refund", {"order": "A1", "amount": 5}), ("lookup", {"order": "A1"})]


def test_a_static_breakpoint_is_no_gate_and_its_resume_is_counted(runs: dict[str, Run]) -> None:
    run = runs["static-breakpoint"]
    assert gates_of(run) == []
    assert calls_of(run) == [("refund", {"order": "A1", "amount": 5})]  # it ran, and nothing records a review
    assert run.adapter.config["resumes_without_a_recorded_review"] == 1
    others = [
        r.adapter.config["resumes_without_a_recorded_review"] for t, r in runs.items() if t != "static-breakpoint"
    ]
    assert others == [0] * 9


def test_the_agent_inbox_shape_accept_edit_response_and_ignore(runs: dict[str, Run]) -> None:
    run = runs["agent-inbox"]
    assert gates_of(run) == [
        ("approved", "refund", 0),
        ("approved", "refund", 0),
        ("answered", "ask_customer", 0),
        ("unresolved", "lookup", 0),
    ]
    assert [g.reason.endswith("(agent_inbox)") for g in step_of(run).gate_events] == [True] * 4
    # accept ran the call as requested, edit ran the edit; response and ignore wrote ordinary tool messages
    # without running anything: only the resume value says so
    assert calls_of(run) == [("refund", {"order": "A1", "amount": 5}), ("refund", {"order": "B2", "amount": 1})]
    assert not_run(run) == [
        ("c-q", "answered by the reviewer in place of the tool"),
        ("c-l", "ignored by the reviewer (Agent Inbox): not run, not decided"),
    ]
    assert run.adapter.config["edited_calls_requested"] == [
        {"call_id": "c-b", "requested_tool": "refund", "requested_args": {"order": "B2", "amount": 7}}
    ]
    assert [g.decision_latency_upper_bound_ms is None for g in step_of(run).gate_events] == [False, False, False, True]


def test_no_time_or_person_is_invented_and_the_only_time_is_an_observed_bound(runs: dict[str, Run]) -> None:
    gates = [gate for run in runs.values() for gate in step_of(run).gate_events]
    assert len(gates) == 15
    for gate in gates:
        assert (gate.opened_at, gate.resolved_at, gate.decision_latency_ms) == (None, None, None)
        assert (gate.overseers, gate.approval_chain) == ([], [])
        if gate.resolution == "unresolved":
            assert gate.decision_latency_upper_bound_ms is None
        else:
            assert gate.decision_latency_upper_bound_ms is not None
            assert 0 <= gate.decision_latency_upper_bound_ms < 60_000
    # the invoker's metadata (user_id) is named as a key, never as an overseer
    assert "user_id" in runs["approve"].adapter.config["metadata_keys"]


def test_the_bound_is_the_next_checkpoints_ts_minus_the_paused_ones(langgraph_store: Path) -> None:
    run = runs_of(langgraph_store, "approve")["approve"]
    with SqliteSaver.from_conn_string(f"file:{langgraph_store}?mode=ro") as saver:
        history = list(saver.list({"configurable": {"thread_id": "approve"}}))
    paused = [item for item in history if any(w[1] == "__interrupt__" for w in item.pending_writes or [])]
    assert len(paused) == 1
    following = [
        item
        for item in history
        if item.parent_config
        and item.parent_config["configurable"]["checkpoint_id"] == paused[0].config["configurable"]["checkpoint_id"]
    ]
    assert len(following) == 1
    expected = (
        datetime.fromisoformat(following[0].checkpoint["ts"]) - datetime.fromisoformat(paused[0].checkpoint["ts"])
    ).total_seconds() * 1000
    assert step_of(run).gate_events[0].decision_latency_upper_bound_ms == pytest.approx(expected, abs=0.001)


def test_the_store_is_unchanged_by_an_import(langgraph_store: Path) -> None:
    before = hashlib.sha256(langgraph_store.read_bytes()).hexdigest()
    assert len(runs_of(langgraph_store)) == 10
    assert hashlib.sha256(langgraph_store.read_bytes()).hexdigest() == before


def test_naming_threads_imports_those_in_the_order_named_and_an_unknown_one_is_unreadable(
    langgraph_store: Path,
) -> None:
    ids = [
        run.task_results[0].task_id
        for run in import_langgraph_store(str(langgraph_store), threads=("reject", "approve", "reject"))
    ]
    assert ids == ["reject", "approve"]
    with pytest.raises(UnreadableSourceError, match="no thread 'nope'"):
        list(import_langgraph_store(str(langgraph_store), threads=("nope",)))


# --- tampered stores ------------------------------------------------------------------------------


def copy_of(store: Path, tmp_path: Path) -> Path:
    target = tmp_path / "copy.sqlite"
    with sqlite3.connect(store) as source, sqlite3.connect(target) as copy:
        source.backup(copy)
    return target


def object_blob(module: str, name: str, arguments: Any, code: int = 2) -> bytes:
    payload = msgpack.packb([module, name, arguments])
    return msgpack.packb(msgpack.ExtType(code, payload))


def test_a_planted_object_is_never_imported_or_called_and_refuses_its_thread(
    langgraph_store: Path, tmp_path: Path
) -> None:
    planted = tmp_path / "planted_side_effect.py"
    marker = tmp_path / "imported"
    planted.write_text(f"open({str(marker)!r}, 'w').close()\n")
    sys.path.insert(0, str(tmp_path))
    try:
        store = copy_of(langgraph_store, tmp_path)
        victim = tmp_path / "made-by-a-blob"
        with sqlite3.connect(store) as db:
            rows = db.execute(
                "SELECT checkpoint_id FROM checkpoints WHERE thread_id = 'approve' ORDER BY checkpoint_id DESC LIMIT 1"
            ).fetchall()
            assert len(rows) == 1
            checkpoint = {
                "v": 4,
                "ts": "2026-01-01T00:00:00+00:00",
                "id": rows[0][0],
                "channel_values": {
                    "messages": [
                        msgpack.ExtType(2, msgpack.packb(["planted_side_effect", "Anything", {}])),
                        msgpack.ExtType(0, msgpack.packb(["os", "mkdir", str(victim)])),
                    ]
                },
            }
            db.execute(
                "UPDATE checkpoints SET checkpoint = ? WHERE thread_id = 'approve' AND checkpoint_id = ?",
                (msgpack.packb(checkpoint), rows[0][0]),
            )
        with pytest.raises(UnmappableSourceError, match=r"planted_side_effect\.Anything"):
            list(import_langgraph_store(str(store), threads=("approve",)))
        assert not marker.exists()
        assert not victim.exists()
        assert "planted_side_effect" not in sys.modules
    finally:
        sys.path.remove(str(tmp_path))


def test_a_pickled_value_is_refused_not_loaded(langgraph_store: Path, tmp_path: Path) -> None:
    store = copy_of(langgraph_store, tmp_path)
    with sqlite3.connect(store) as db:
        changed = db.execute("UPDATE writes SET type = 'pickle' WHERE thread_id = 'reject' AND channel = '__resume__'")
        assert changed.rowcount >= 1
    with pytest.raises(UnmappableSourceError, match=r"thread 'reject'.*pickle"):
        list(import_langgraph_store(str(store), threads=("reject",)))


def set_resume(store: Path, thread: str, value: Any) -> None:
    with sqlite3.connect(store) as db:
        changed = db.execute(
            "UPDATE writes SET value = ? WHERE thread_id = ? AND channel = '__resume__' AND task_id != ?",
            (msgpack.packb(value), thread, "00000000-0000-0000-0000-000000000000"),
        )
        assert changed.rowcount == 1


def test_a_resume_write_that_contradicts_the_marker_refuses_the_thread(langgraph_store: Path, tmp_path: Path) -> None:
    store = copy_of(langgraph_store, tmp_path)
    set_resume(store, "reject", [{"decisions": [{"type": "approve"}]}])  # the messages say it was rejected
    with pytest.raises(UnmappableSourceError, match=r"thread 'reject'.*marker"):
        list(import_langgraph_store(str(store), threads=("reject",)))


def test_an_approve_rewritten_as_reject_with_an_ordinary_result_refuses(langgraph_store: Path, tmp_path: Path) -> None:
    store = copy_of(langgraph_store, tmp_path)
    set_resume(store, "approve", [{"decisions": [{"type": "reject"}]}])
    with pytest.raises(UnmappableSourceError, match="ordinary result: it may have run"):
        list(import_langgraph_store(str(store), threads=("approve",)))


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ([{"decisions": [{"type": "accept"}]}], "decision type 'accept' is not one of"),
        ([{"decisions": []}], "answers 0 decision"),
        ([{"decisions": [{"type": "approve"}, {"type": "approve"}]}], "answers 2 decision"),
        ([{"decisions": [{"type": "edit"}]}], "an edit without an edited action"),
        ([{"decisions": [{"type": "respond"}]}], "respond decision without its message"),
        ([], "do not pair one to one"),
        ({"decisions": [{"type": "approve"}]}, "do not pair one to one"),
    ],
)
def test_an_answer_that_does_not_fit_its_request_refuses_the_thread(
    langgraph_store: Path, tmp_path: Path, answer: Any, reason: str
) -> None:
    store = copy_of(langgraph_store, tmp_path)
    set_resume(store, "approve", answer)
    with pytest.raises(UnmappableSourceError, match=reason):
        list(import_langgraph_store(str(store), threads=("approve",)))


def test_a_fork_at_the_paused_checkpoint_refuses_the_thread(langgraph_store: Path, tmp_path: Path) -> None:
    store = copy_of(langgraph_store, tmp_path)
    with sqlite3.connect(store) as db:
        paused = db.execute(
            "SELECT DISTINCT checkpoint_id FROM writes WHERE thread_id = 'approve' AND channel = '__interrupt__'"
        ).fetchall()
        assert len(paused) == 1
        db.execute(
            "INSERT INTO checkpoints SELECT thread_id, checkpoint_ns, '0-fork', checkpoint_id, type, checkpoint, "
            "metadata FROM checkpoints WHERE thread_id = 'approve' AND checkpoint_id = ?",
            paused[0],
        )
    with pytest.raises(UnmappableSourceError, match="has 2 children"):
        list(import_langgraph_store(str(store), threads=("approve",)))


@pytest.mark.parametrize("content", [b"", b"not a database at all" * 100, b"SQLite format 3\x00" + b"\xff" * 200])
def test_a_file_that_is_not_a_checkpoint_store_is_unreadable(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "store.sqlite"
    path.write_bytes(content)
    with pytest.raises(UnreadableSourceError):
        list(import_langgraph_store(str(path)))


def test_a_store_of_another_program_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE checkpoints (x)")
    with pytest.raises(UnreadableSourceError, match="no table writes"):
        list(import_langgraph_store(str(path)))


def test_a_value_larger_than_the_bound_refuses_its_thread(langgraph_store: Path) -> None:
    with pytest.raises(UnmappableSourceError, match="larger than 100 bytes"):
        list(import_langgraph_store(str(langgraph_store), threads=("approve",), max_value_bytes=100))


@pytest.mark.parametrize(
    ("statement", "reason"),
    [
        ("UPDATE checkpoints SET metadata = 1.5 WHERE thread_id = 'approve'", "metadata is stored as float"),
        ("UPDATE checkpoints SET metadata = -3 WHERE thread_id = 'approve'", "metadata is stored as int"),
        ("UPDATE checkpoints SET checkpoint = 10000000000 WHERE thread_id = 'approve'", "stored as int"),
        ("UPDATE writes SET value = 2.5 WHERE thread_id = 'approve' AND channel = '__resume__'", "stored as float"),
        (
            "UPDATE writes SET idx = 'abc' WHERE rowid = (SELECT min(rowid) FROM writes WHERE thread_id = 'approve')",
            "index is str, not an integer",
        ),
        ("UPDATE writes SET channel = CAST(channel AS BLOB) WHERE thread_id = 'approve'", "channel is stored as bytes"),
        ("UPDATE writes SET task_id = CAST(task_id AS BLOB) WHERE thread_id = 'approve'", "task id is stored as bytes"),
        (
            "UPDATE writes SET type = X'07' WHERE thread_id = 'approve' AND channel = '__resume__'",
            "stored as bytes, not text",
        ),
        (
            "UPDATE checkpoints SET checkpoint_id = CAST(checkpoint_id AS BLOB) WHERE thread_id = 'approve'",
            "checkpoint id is stored as bytes",
        ),
    ],
)
def test_a_column_of_the_wrong_type_refuses_the_thread_without_a_crash(
    langgraph_store: Path, tmp_path: Path, statement: str, reason: str
) -> None:
    store = copy_of(langgraph_store, tmp_path)
    with sqlite3.connect(store) as db:
        assert db.execute(statement).rowcount >= 1
    with pytest.raises(UnmappableSourceError, match=reason):
        list(import_langgraph_store(str(store), threads=("approve",)))


CHECKPOINTS_COLUMNS = (
    "thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL DEFAULT '', checkpoint_id TEXT NOT NULL, "
    "parent_checkpoint_id TEXT, type TEXT, checkpoint BLOB, metadata BLOB"
)
WRITES_COLUMNS = (
    "thread_id TEXT NOT NULL, checkpoint_ns TEXT NOT NULL DEFAULT '', checkpoint_id TEXT NOT NULL, "
    "task_id TEXT NOT NULL, task_path TEXT NOT NULL DEFAULT '', idx INTEGER NOT NULL, channel TEXT NOT NULL, "
    "type TEXT, value BLOB"
)
CHECKPOINTS_KEY = ", PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)"
WRITES_KEY = ", PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)"


def rebuilt(store: Path, tmp_path: Path, checkpoints: str, writes: str) -> Path:
    """The store's rows under other table definitions (a row a narrower key makes a duplicate is left out)."""
    target = tmp_path / "rebuilt.sqlite"
    stored = "thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint"
    if "metadata BLOB GENERATED" not in checkpoints:
        stored += ", metadata"
    written = "thread_id, checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, type, value"
    with sqlite3.connect(target) as db:
        db.execute(f"CREATE TABLE checkpoints ({checkpoints})")
        db.execute(f"CREATE TABLE writes ({writes})")
        db.execute("ATTACH DATABASE ? AS source", (str(store),))
        copied = db.execute(f"INSERT INTO checkpoints ({stored}) SELECT {stored} FROM source.checkpoints").rowcount
        assert copied > 0
        db.execute(f"INSERT OR IGNORE INTO writes ({written}) SELECT {written} FROM source.writes")
    return target


def test_the_store_rebuilt_with_langgraphs_own_table_definitions_imports_the_same(
    langgraph_store: Path, tmp_path: Path
) -> None:
    store = rebuilt(langgraph_store, tmp_path, CHECKPOINTS_COLUMNS + CHECKPOINTS_KEY, WRITES_COLUMNS + WRITES_KEY)
    assert runs_of(store) == runs_of(langgraph_store)


@pytest.mark.parametrize(
    ("checkpoints", "writes", "reason"),
    [
        (  # an expression run on every read of a row: its cost does not depend on the file's size
            CHECKPOINTS_COLUMNS.replace(
                "metadata BLOB", "metadata BLOB GENERATED ALWAYS AS (CAST(length(hex(zeroblob(1000))) AS TEXT)) VIRTUAL"
            )
            + CHECKPOINTS_KEY,
            WRITES_COLUMNS + WRITES_KEY,
            "table checkpoints has computed columns",
        ),
        (
            CHECKPOINTS_COLUMNS + CHECKPOINTS_KEY,
            WRITES_COLUMNS + ", extra BLOB GENERATED ALWAYS AS (value) STORED" + WRITES_KEY,
            "table writes has computed columns",
        ),
        (  # every lookup a scan of the table
            CHECKPOINTS_COLUMNS,
            WRITES_COLUMNS + WRITES_KEY,
            "table checkpoints does not have langgraph's primary key",
        ),
        (
            CHECKPOINTS_COLUMNS + CHECKPOINTS_KEY,
            WRITES_COLUMNS + ", PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id)",
            "table writes does not have langgraph's primary key",
        ),
        (
            CHECKPOINTS_COLUMNS + ", PRIMARY KEY (checkpoint_ns, thread_id, checkpoint_id)",
            WRITES_COLUMNS + WRITES_KEY,
            "table checkpoints does not have langgraph's primary key",
        ),
        (  # threads "A" and "a" would be one
            CHECKPOINTS_COLUMNS.replace("thread_id TEXT NOT NULL", "thread_id TEXT NOT NULL COLLATE NOCASE")
            + CHECKPOINTS_KEY,
            WRITES_COLUMNS + WRITES_KEY,
            "the primary key of table checkpoints does not compare its text byte for byte",
        ),
    ],
)
def test_tables_other_than_langgraphs_are_not_read(
    langgraph_store: Path, tmp_path: Path, checkpoints: str, writes: str, reason: str
) -> None:
    store = rebuilt(langgraph_store, tmp_path, checkpoints, writes)
    with pytest.raises(UnreadableSourceError, match=reason):
        list(import_langgraph_store(str(store)))


def test_a_resume_marker_nested_a_thousand_deep_refuses_the_thread_without_a_crash(
    langgraph_store: Path, tmp_path: Path
) -> None:
    store = copy_of(langgraph_store, tmp_path)
    deep: Any = []
    for _ in range(1000):
        deep = [deep]
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT checkpoint_id, checkpoint FROM checkpoints WHERE thread_id = 'approve'").fetchall()
        assert len(rows) >= 2
        for checkpoint_id, blob in rows:
            state = msgpack.unpackb(blob, strict_map_key=False)
            state["versions_seen"]["__interrupt__"] = deep
            packed = msgpack.packb(state)
            db.execute("UPDATE checkpoints SET checkpoint = ? WHERE checkpoint_id = ?", (packed, checkpoint_id))
    with pytest.raises(UnmappableSourceError, match="is not a map of channel names to versions"):
        list(import_langgraph_store(str(store), threads=("approve",)))
