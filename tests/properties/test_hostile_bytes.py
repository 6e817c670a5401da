"""Byte-level fuzzing: valid artifacts edited, cut and spliced, plain and gzipped.

Whatever the bytes, ``validate`` and ``score`` end with a documented exit code,
print no traceback, never report an internal error, and still check (and
pass) the valid input given after the damaged one.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalscore.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
SEEDS: dict[str, bytes] = {
    "run.json": (ROOT / "fixtures" / "valid" / "run" / "full-v3.json").read_bytes(),
    "runs.jsonl": (ROOT / "examples" / "partner-log.jsonl").read_bytes(),
    "suite.yaml": (ROOT / "examples" / "partner-suite.yaml").read_bytes(),
    "scored.json": (ROOT / "fixtures" / "valid" / "scored-run" / "full.json").read_bytes(),
}
GOOD_RUN = ROOT / "fixtures" / "valid" / "run" / "minimal.json"
SUITE = ROOT / "examples" / "partner-suite.yaml"
LOG = ROOT / "examples" / "partner-log.jsonl"
VALIDATE_EXITS = frozenset({0, 1, 2})
SCORE_EXITS = frozenset({0, 1, 2, 3, 4})
INTERESTING = [
    b"{",
    b"}",
    b"[",
    b"]",
    b'"',
    b",",
    b":",
    b"\\",
    b"\n",
    b"\xef\xbb\xbf",
    b"\xff",
    b"1e400",
    b"NaN",
    b"\x1b",
]


@st.composite
def edits(draw: st.DrawFn, data: bytes) -> bytes:
    """One to four edits of ``data``: cut, delete, insert, repeat a slice (repeated keys), splice, flip."""
    for _ in range(draw(st.integers(1, 4))):
        size = len(data)
        start = draw(st.integers(0, size))
        end = draw(st.integers(start, min(size, start + 400)))
        kind = draw(st.sampled_from(["cut", "delete", "insert", "repeat", "splice", "flip"]))
        if kind == "cut":
            data = data[:start]
        elif kind == "delete":
            data = data[:start] + data[end:]
        elif kind == "insert":
            inserted = draw(st.one_of(st.sampled_from(INTERESTING), st.binary(min_size=1, max_size=8)))
            data = data[:start] + inserted + data[start:]
        elif kind == "repeat":
            data = data[:end] + data[start:end] + data[end:]
        elif kind == "splice":
            other = SEEDS[draw(st.sampled_from(sorted(SEEDS)))]
            at = draw(st.integers(0, len(other)))
            data = data[:start] + other[at : at + draw(st.integers(0, 400))] + data[end:]
        elif size:
            position = min(start, size - 1)
            data = data[:position] + bytes([data[position] ^ draw(st.integers(1, 255))]) + data[position + 1 :]
    return data


@st.composite
def damaged_files(draw: st.DrawFn) -> tuple[str, bytes]:
    name = draw(st.sampled_from(sorted(SEEDS)))
    data = draw(edits(SEEDS[name]))
    if draw(st.booleans()):
        compressed = gzip.compress(data)
        if draw(st.booleans()):
            compressed = compressed[: draw(st.integers(0, len(compressed)))]
        return name + ".gz", compressed
    return name, data


def run_cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.stdout


FUZZ = settings(
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large]
)


@FUZZ
@given(damaged=damaged_files())
def test_validate_ends_with_a_documented_code_and_still_checks_the_next_input(
    tmp_path_factory: Any, damaged: tuple[str, bytes]
) -> None:
    name, data = damaged
    path = tmp_path_factory.mktemp("fuzz") / name
    path.write_bytes(data)
    code, stdout = run_cli("validate", "--format", "json", str(path), str(GOOD_RUN))
    assert code in VALIDATE_EXITS
    report = json.loads(stdout)
    assert report["summary"]["internal_errors"] == 0
    last = report["artifacts"][-1]
    assert (last["source"], last["valid"]) == (str(GOOD_RUN), True)
    assert [entry["path"] for entry in report["inputs"]] == [str(path), str(GOOD_RUN)]


@FUZZ
@given(damaged=damaged_files(), as_suite=st.booleans())
def test_score_ends_with_a_documented_code_whatever_the_bytes_of_a_run_or_a_suite(
    tmp_path_factory: Any, damaged: tuple[str, bytes], as_suite: bool
) -> None:
    name, data = damaged
    path = tmp_path_factory.mktemp("fuzz") / name
    path.write_bytes(data)
    if as_suite:
        code, _ = run_cli("score", str(LOG), "--suite", str(path))
    else:
        code, _ = run_cli("score", str(path), str(LOG), "--suite", str(SUITE))
    assert code in SCORE_EXITS
