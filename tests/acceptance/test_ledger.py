"""The decision ledger (issue 14, part 3): score --ledger appends, ledger verify detects, ledger find answers."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
from pathlib import Path
from typing import Any, Final

import pytest
from click.testing import CliRunner, Result

from evalscore.cli.main import main
from evalscore.ledger.record import GENESIS, canonical, record_hash
from evalscore.ledger.verify import MAX_LINE_BYTES

ROOT: Final = Path(__file__).resolve().parents[2]
LOG: Final = ROOT / "examples" / "partner-log.jsonl"
SUITE: Final = ROOT / "examples" / "partner-suite.yaml"


def invoke(*args: str | Path) -> Result:
    result = CliRunner().invoke(main, [str(arg) for arg in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def decide(ledger: Path, *extra: str) -> Result:
    return invoke("score", LOG, "--suite", SUITE, "--ledger", ledger, "--format", "json", *extra)


def records(ledger: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in ledger.read_text(encoding="utf-8").splitlines()]


def verify(ledger: Path, *extra: str) -> Result:
    return invoke("ledger", "verify", ledger, *extra)


def chain(tmp_path: Path, decisions: int = 3) -> Path:
    ledger = tmp_path / "decisions.jsonl"
    for index in range(decisions):
        assert decide(ledger, "--min-tool-match", f"0.{index + 5}").exit_code == 0
    return ledger


def test_each_decision_appends_one_record_chained_to_the_one_before(tmp_path: Path) -> None:
    ledger = chain(tmp_path)
    first, second, third = records(ledger)
    assert [record["seq"] for record in (first, second, third)] == [1, 2, 3]
    assert first["prev"] == GENESIS
    assert (second["prev"], third["prev"]) == (first["hash"], second["hash"])
    assert first["thresholds"]["min_tool_match"] == 0.5
    assert (first["outcome"], first["exit_code"], first["scoring_model"]) == ("pass", 0, "v3")
    assert {entry["kind"] for entry in first["inputs"]} == {"run", "eval-suite"}
    log_digest = hashlib.sha256(LOG.read_bytes()).hexdigest()
    assert log_digest in {entry["sha256"] for entry in first["inputs"]}
    for line, record in zip(ledger.read_bytes().splitlines(keepends=True), (first, second, third), strict=True):
        assert line == canonical(record) + b"\n"
        assert record["hash"] == record_hash(record)
        assert record["recorded_at"].endswith("Z")


def test_the_same_inputs_in_any_order_give_the_same_report_digest(tmp_path: Path) -> None:
    lines = LOG.read_text().splitlines()
    one, two = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    one.write_text(lines[0] + "\n")
    two.write_text(lines[1] + "\n")
    ledger = tmp_path / "decisions.jsonl"
    for runs in ((one, two), (two, one), (one, two)):
        assert invoke("score", *runs, "--suite", SUITE, "--ledger", ledger).exit_code == 0
    digests = [record["report_sha256"] for record in records(ledger)]
    assert len(digests) == 3
    assert len(set(digests)) == 1


def test_a_verified_chain_prints_its_head(tmp_path: Path) -> None:
    ledger = chain(tmp_path)
    result = verify(ledger)
    head = records(ledger)[-1]["hash"]
    assert result.exit_code == 0
    assert result.stdout == f"{ledger}: 3 record(s), the chain verifies; head {head}\n"
    assert verify(ledger, "--head", records(ledger)[1]["hash"]).exit_code == 0  # an older head is still held


def rewrite(ledger: Path, lines: list[bytes]) -> None:
    ledger.write_bytes(b"".join(lines))


def edited(record: dict[str, Any], **changes: Any) -> bytes:
    return canonical({**record, **changes}) + b"\n"


def tampered(tmp_path: Path, how: str) -> tuple[Path, int, str]:
    """A chain of three that verifies, then tampered with ``how``; the line and the words verify must say."""
    ledger = chain(tmp_path)
    assert verify(ledger).exit_code == 0
    lines = ledger.read_bytes().splitlines(keepends=True)
    first, second, _ = records(ledger)
    at, words = TAMPERING[how]
    if how == "edited":
        lines[1] = edited(second, outcome="fail")
    elif how == "edited and rehashed":
        changed = {**second, "outcome": "fail"}
        lines[1] = edited(changed, hash=record_hash(changed))
    elif how == "reordered":
        lines[1], lines[2] = lines[2], lines[1]
    elif how == "removed":
        del lines[1]
    elif how == "duplicated":
        lines.append(lines[2])
    elif how == "not canonical":
        lines[0] = json.dumps(first, indent=1).replace("\n", " ").encode() + b"\n"
    rewrite(ledger, lines)
    return ledger, at, words


TAMPERING: Final = {
    "edited": (2, "its hash is not the hash of its fields"),
    "edited and rehashed": (3, "prev is not the hash of the record before"),
    "reordered": (2, "seq 3 where 2 follows"),
    "removed": (2, "seq 3 where 2 follows"),
    "duplicated": (4, "a record met before: duplicated"),
    "not canonical": (1, "not in canonical form"),
}


@pytest.mark.parametrize("how", sorted(TAMPERING))
def test_verify_names_the_line_and_what_was_done(tmp_path: Path, how: str) -> None:
    ledger, line, words = tampered(tmp_path, how)
    result = verify(ledger)
    assert result.exit_code == 1
    assert f"{ledger}:{line}: " in result.stdout
    assert words in result.stdout
    assert result.stdout.splitlines()[-1].startswith(f"{ledger}: does not verify (")


def test_a_ledger_cut_at_its_end_verifies_as_a_chain_but_not_against_its_head(tmp_path: Path) -> None:
    ledger = chain(tmp_path)
    head = records(ledger)[-1]["hash"]
    lines = ledger.read_bytes().splitlines(keepends=True)
    rewrite(ledger, lines[:2])
    assert verify(ledger).exit_code == 0
    result = verify(ledger, "--head", head)
    assert result.exit_code == 1
    assert f"{ledger}:2: the head {head} is not in the ledger: records were removed from its end" in result.stdout


def test_a_torn_last_line_is_reported_and_never_extended(tmp_path: Path) -> None:
    ledger = chain(tmp_path, 2)
    with ledger.open("ab") as stream:
        stream.write(b'{"seq":3,"prev":"')  # a write cut short
    before = ledger.read_bytes()
    result = verify(ledger)
    assert result.exit_code == 1
    assert f"{ledger}:3: a torn last line (no newline)" in result.stdout
    report = tmp_path / "report.json"
    refused = decide(ledger, "--output", str(report))
    assert refused.exit_code == 2
    assert f"{ledger}:3: the last line is torn (no newline); not extended" in refused.stderr
    assert ledger.read_bytes() == before
    assert not report.exists()  # refused before anything was scored or written
    assert refused.stdout == ""


def test_a_last_record_holding_a_number_json_cannot_write_back_is_refused_not_a_crash(tmp_path: Path) -> None:
    ledger = chain(tmp_path, 1)
    with ledger.open("ab") as stream:
        stream.write(b'{"hash":"' + b"0" * 64 + b'","max_drop":1e999,"seq":2}\n')
    before = ledger.read_bytes()
    refused = decide(ledger)
    assert refused.exit_code == 2
    assert f"{ledger}:2: the last record's hash or form is not its own" in refused.stderr
    assert ledger.read_bytes() == before


def test_a_seq_written_as_a_fraction_is_no_record(tmp_path: Path) -> None:
    ledger = tmp_path / "decisions.jsonl"
    record = {**records(chain(tmp_path, 1))[0], "seq": 1.0}
    del record["hash"]
    body = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    record["hash"] = hashlib.sha256(body.encode()).hexdigest()
    ledger.write_text(json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
    result = verify(ledger)
    assert result.exit_code == 1
    assert f"{ledger}:1: not a ledger record: seq and exit_code are whole numbers written as such" in result.stdout


def test_a_megabyte_value_is_quoted_shortened_in_the_finding(tmp_path: Path) -> None:
    ledger = tmp_path / "decisions.jsonl"
    ledger.write_text('{"seq":"' + "x" * 900_000 + '"}\n')
    result = verify(ledger)
    assert result.exit_code == 1
    assert f"{ledger}:1: not a ledger record: " in result.stdout
    assert len(result.stdout) < 2_000


@pytest.mark.parametrize(
    ("line", "words"),
    [
        (b"not json at all\n", "not a record: "),
        (b'{"seq": 1, "seq": 2}\n', "not a record: "),
        (b"[" * 300 + b"]" * 300 + b"\n", "not a record: "),
        (b'{"seq": "\xff"}\n', "not a record: "),
        (b'{"seq": 1}\n', "not a ledger record: "),
        (b"x" * (MAX_LINE_BYTES + 10) + b"\n", f"a line longer than {MAX_LINE_BYTES:,} bytes"),
    ],
    ids=["not-json", "repeated-key", "too-deep", "not-utf8", "not-a-record", "huge-line"],
)
def test_a_hostile_line_is_a_located_finding_never_a_crash(tmp_path: Path, line: bytes, words: str) -> None:
    ledger = chain(tmp_path, 1)
    with ledger.open("ab") as stream:
        stream.write(line)
    result = verify(ledger)
    assert result.exit_code == 1
    assert f"{ledger}:2: {words}" in result.stdout


def test_findings_past_a_hundred_are_counted(tmp_path: Path) -> None:
    ledger = tmp_path / "junk.jsonl"
    ledger.write_bytes(b"junk\n" * 250)
    result = verify(ledger)
    assert result.exit_code == 1
    assert result.stdout.count(": not a record: ") == 100
    assert f"{ledger}: ... and 150 more finding(s)" in result.stdout


def test_find_answers_which_decisions_were_made_on_an_input(tmp_path: Path) -> None:
    ledger = chain(tmp_path, 2)
    digest = hashlib.sha256(LOG.read_bytes()).hexdigest()
    found = invoke("ledger", "find", ledger, "--sha256", digest.upper(), "--format", "json")
    assert found.exit_code == 0
    assert [record["seq"] for record in json.loads(found.stdout)] == [1, 2]
    text = invoke("ledger", "find", ledger, "--sha256", digest).stdout.splitlines()
    assert len(text) == 2
    assert text[0].startswith("seq 1 ")
    assert f"input {LOG}" in text[0]
    nothing = invoke("ledger", "find", ledger, "--sha256", "0" * 64)
    assert (nothing.exit_code, nothing.stdout) == (1, "")


def test_find_answers_nothing_from_a_ledger_that_does_not_verify(tmp_path: Path) -> None:
    ledger, _, _ = tampered(tmp_path, "edited")
    digest = hashlib.sha256(LOG.read_bytes()).hexdigest()
    result = invoke("ledger", "find", ledger, "--sha256", digest)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "does not verify; nothing is looked up in it" in result.stderr


def test_the_ledger_is_never_an_input(tmp_path: Path) -> None:
    copy = tmp_path / "log.jsonl"
    copy.write_bytes(LOG.read_bytes())
    result = invoke("score", copy, "--suite", SUITE, "--ledger", copy)
    assert result.exit_code == 2
    assert "appending to it would change the input" in result.stderr
    assert copy.read_bytes() == LOG.read_bytes()


def _append_many(arguments: tuple[str, int]) -> list[str]:
    """What went wrong in each of ``count`` appends that failed (nothing, when all succeeded)."""
    ledger, count = arguments
    failures = []
    for _ in range(count):
        result = CliRunner().invoke(main, ["score", str(LOG), "--suite", str(SUITE), "--ledger", ledger, "-q"])
        if result.exit_code != 0:
            failures.append(f"exit {result.exit_code}: {result.stderr}")
    return failures


def test_eight_processes_appending_twenty_five_decisions_each_make_one_chain_of_two_hundred(tmp_path: Path) -> None:
    """Each process checks the ledger when it starts and appends when it ends, while the others append."""
    ledger = tmp_path / "decisions.jsonl"
    with multiprocessing.get_context("spawn").Pool(8) as pool:
        failures = pool.map(_append_many, [(str(ledger), 25)] * 8)
    assert failures == [[]] * 8
    result = verify(ledger)
    assert result.exit_code == 0, result.stdout
    assert result.stdout.startswith(f"{ledger}: 200 record(s), the chain verifies")
    assert [record["seq"] for record in records(ledger)] == list(range(1, 201))
