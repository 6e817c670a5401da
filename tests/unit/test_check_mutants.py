"""scripts/check_mutants.py on hand-made mutmut output: survivors, listings matched by diff, stale listings."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType

import pytest

from module_files import load_module

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    return load_module("check_mutants", ROOT / "scripts" / "check_mutants.py")


check_mutants = _script()
MODULE = "pkg.guard"
ORIGINAL = """\
def x_limit__mutmut_orig(value: int, cap: int = 10) -> bool:
    doubled = value * 2
    return doubled <= cap


def x_limit__mutmut_1(value: int, cap: int = 11) -> bool:
    doubled = value * 2
    return doubled <= cap


def x_limit__mutmut_2(value: int, cap: int = 10) -> bool:
    doubled = value * 2
    return doubled < cap


class Box:
    def xǁBoxǁsize__mutmut_orig(self) -> int:
        return len(self.items)

    def xǁBoxǁsize__mutmut_1(self) -> int:
        return len(None)
"""
NAMES = {
    "cap": f"{MODULE}.x_limit__mutmut_1",
    "strict": f"{MODULE}.x_limit__mutmut_2",
    "method": f"{MODULE}.xǁBoxǁsize__mutmut_1",
}
CAP_DIFF = """\
- def f(value: int, cap: int = 10) -> bool:
+ def f(value: int, cap: int = 11) -> bool:
  doubled = value * 2"""
STRICT_DIFF = """\
  doubled = value * 2
- return doubled <= cap
+ return doubled < cap"""


def mutants_tree(
    tmp_path: Path,
    exit_codes: Mapping[str, int | None],
    source: str = ORIGINAL,
    durations: Mapping[str, float] | None = None,
) -> Path:
    """A ``mutants/`` directory as mutmut 3.8 leaves it: the mutated copy and its ``.meta`` results."""
    mutants = tmp_path / "mutants"
    mutated = mutants / "src" / "pkg" / "guard.py"
    mutated.parent.mkdir(parents=True)
    mutated.write_text(source, encoding="utf-8")
    meta = {"exit_code_by_key": exit_codes, "durations_by_key": dict(durations or {})}
    (mutated.parent / "guard.py.meta").write_text(json.dumps(meta), encoding="utf-8")
    return mutants


def listing(tmp_path: Path, entries: dict[str, tuple[str, str]]) -> Path:
    path = tmp_path / "equivalent-mutants.toml"
    path.write_text(
        "".join(check_mutants.toml_entry(name, diff, reason) + "\n" for name, (reason, diff) in entries.items()),
        encoding="utf-8",
    )
    return path


def run_check(mutants: Path, equivalents: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = check_mutants.main(["--mutants", str(mutants), "--equivalents", str(equivalents)])
    return code, capsys.readouterr().out


ALL_KILLED = {NAMES["cap"]: 1, NAMES["strict"]: 1, NAMES["method"]: 1}


def test_a_run_where_every_mutant_is_killed_passes_with_the_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_check(mutants_tree(tmp_path, ALL_KILLED), listing(tmp_path, {}), capsys)
    assert (
        out.splitlines()[0] == "mutants: 3  killed: 3 (of them rejected by mypy before any test: 0)  survived: 0  "
        "listed as equivalent: 0  not explained: 0"
    )
    assert code == 0


def test_an_unlisted_survivor_fails_the_check_and_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_check(mutants_tree(tmp_path, {**ALL_KILLED, NAMES["strict"]: 0}), listing(tmp_path, {}), capsys)
    assert f"SURVIVED (not listed as equivalent): {NAMES['strict']} [survived]" in out
    assert "not explained: 1" in out
    assert code == 1


def test_a_listed_survivor_whose_diff_matches_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    equivalents = listing(tmp_path, {NAMES["cap"]: ("the cap is never reached", CAP_DIFF)})
    code, out = run_check(mutants_tree(tmp_path, {**ALL_KILLED, NAMES["cap"]: 0}), equivalents, capsys)
    assert (
        out.splitlines()[0] == "mutants: 3  killed: 2 (of them rejected by mypy before any test: 0)  survived: 1  "
        "listed as equivalent: 1  not explained: 0"
    )
    assert code == 0


def test_a_renumbered_real_survivor_does_not_inherit_the_listing_of_its_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The function was edited: what was mutant 1 (cap=11) is now mutant 2, and mutant 1 is the `<` mutant.
    renumbered = ORIGINAL.replace("x_limit__mutmut_1(", "x_limit__mutmut_TMP(")
    renumbered = renumbered.replace("x_limit__mutmut_2(", "x_limit__mutmut_1(").replace("_TMP(", "_2(")
    equivalents = listing(tmp_path, {NAMES["cap"]: ("the cap is never reached", CAP_DIFF)})
    mutants = mutants_tree(tmp_path, {**ALL_KILLED, NAMES["cap"]: 0}, source=renumbered)
    code, out = run_check(mutants, equivalents, capsys)
    assert f"LISTED DIFF DOES NOT MATCH: {NAMES['cap']}" in out
    assert "- return doubled <= cap" in out  # the diff it has now is shown
    assert "listed as equivalent: 0  not explained: 1" in out
    assert code == 1


def test_a_listed_mutant_that_mutmut_no_longer_produces_fails_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = f"{MODULE}.x_limit__mutmut_9"
    equivalents = listing(tmp_path, {gone: ("was equivalent once", CAP_DIFF)})
    code, out = run_check(mutants_tree(tmp_path, ALL_KILLED), equivalents, capsys)
    assert f"LISTED BUT GONE: {gone}" in out
    assert code == 1


def test_a_listed_mutant_that_a_test_now_kills_fails_the_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    equivalents = listing(tmp_path, {NAMES["cap"]: ("the cap is never reached", CAP_DIFF)})
    code, out = run_check(mutants_tree(tmp_path, ALL_KILLED), equivalents, capsys)
    assert f"LISTED BUT KILLED: {NAMES['cap']}" in out
    assert code == 1


def test_listed_but_killed_names_only_the_listed_mutants_a_test_killed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = f"{MODULE}.x_limit__mutmut_9"
    equivalents = listing(
        tmp_path,
        {NAMES["cap"]: ("the cap is never reached", CAP_DIFF), gone: ("was equivalent once", CAP_DIFF)},
    )
    mutants = mutants_tree(tmp_path, {**ALL_KILLED, NAMES["strict"]: 0})
    arguments = ["--mutants", str(mutants), "--equivalents", str(equivalents), "--listed-but-killed"]
    assert check_mutants.main(arguments) == 0
    assert capsys.readouterr().out.splitlines() == [NAMES["cap"]]
    mutants_survived = mutants_tree(tmp_path / "again", {**ALL_KILLED, NAMES["cap"]: 0})
    assert check_mutants.main(["--mutants", str(mutants_survived), *arguments[2:]]) == 0
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize(
    ("exit_code", "status"), [(None, "not checked"), (33, "no tests"), (2, "interrupted"), (34, "skipped")]
)
def test_a_mutant_no_test_judged_counts_as_a_survivor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], exit_code: int | None, status: str
) -> None:
    code, out = run_check(
        mutants_tree(tmp_path, {**ALL_KILLED, NAMES["strict"]: exit_code}), listing(tmp_path, {}), capsys
    )
    assert f"SURVIVED (not listed as equivalent): {NAMES['strict']} [{status}]" in out
    assert code == 1


@pytest.mark.parametrize("exit_code", [1, 3, 36, -9])
def test_killed_timed_out_and_crashed_mutants_count_as_caught(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], exit_code: int
) -> None:
    code, _ = run_check(
        mutants_tree(tmp_path, {**ALL_KILLED, NAMES["strict"]: exit_code}), listing(tmp_path, {}), capsys
    )
    assert code == 0


def test_no_results_at_all_fail_the_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert check_mutants.main(["--mutants", str(tmp_path / "nothing")]) == 1
    assert "no mutmut results" in capsys.readouterr().err


@pytest.mark.parametrize(
    "entry",
    [
        '[equivalent."pkg.guard.x_limit__mutmut_1"]\nreason = ""\ndiff = "- a\\n+ b"\n',
        '[equivalent."pkg.guard.x_limit__mutmut_1"]\nreason = "why"\n',
        '[equivalent]\n"pkg.guard.x_limit__mutmut_1" = "a reason alone, the old format"\n',
    ],
)
def test_a_listing_without_a_reason_or_a_diff_is_refused(tmp_path: Path, entry: str) -> None:
    path = tmp_path / "equivalent-mutants.toml"
    path.write_text(entry, encoding="utf-8")
    with pytest.raises(SystemExit, match=re.escape("incomplete listing: pkg.guard.x_limit__mutmut_1")):
        check_mutants.read_equivalents(path)


def test_the_fingerprint_names_the_changed_lines_with_one_line_of_context_and_no_line_numbers(
    tmp_path: Path,
) -> None:
    mutants = check_mutants.read_mutants(mutants_tree(tmp_path, ALL_KILLED))
    fingerprints = check_mutants.Fingerprints()
    assert len(mutants) == 3
    assert fingerprints.of(mutants[NAMES["cap"]]) == CAP_DIFF
    assert fingerprints.of(mutants[NAMES["strict"]]) == STRICT_DIFF
    assert fingerprints.of(mutants[NAMES["method"]]) == (
        "  def f(self) -> int:\n- return len(self.items)\n+ return len(None)"
    )


def test_the_fingerprint_ignores_indentation_and_spacing_but_not_the_code(tmp_path: Path) -> None:
    respaced = ORIGINAL.replace("    doubled = value * 2", "    doubled  =  value *  2")
    mutants = check_mutants.read_mutants(mutants_tree(tmp_path, ALL_KILLED, source=respaced))
    fingerprints = check_mutants.Fingerprints()
    assert fingerprints.of(mutants[NAMES["strict"]]) == STRICT_DIFF
    changed = ORIGINAL.replace("doubled = value * 2", "doubled = value * 3")
    other = check_mutants.read_mutants(mutants_tree(tmp_path / "other", ALL_KILLED, source=changed))
    assert check_mutants.Fingerprints().of(other[NAMES["strict"]]) != STRICT_DIFF


def test_a_second_hunk_is_kept_apart_by_a_marker_not_a_line_number() -> None:
    original = "def x_g__mutmut_orig():\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    e = 5\n"
    mutated = "def x_g__mutmut_1():\n    a = 9\n    b = 2\n    c = 3\n    d = 4\n    e = 9\n"
    assert check_mutants.fingerprint(original, mutated) == (
        "  def f():\n- a = 1\n+ a = 9\n  b = 2\n...\n  d = 4\n- e = 5\n+ e = 9"
    )


def test_print_fingerprint_gives_an_entry_that_the_check_accepts_once_a_reason_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mutants = mutants_tree(tmp_path, {**ALL_KILLED, NAMES["method"]: 0})
    assert check_mutants.main(["--mutants", str(mutants), "--print-fingerprint", NAMES["method"]]) == 0
    printed = capsys.readouterr().out
    entry = printed[printed.index("[equivalent.") :]
    blank = tmp_path / "blank.toml"
    blank.write_text(entry, encoding="utf-8")
    with pytest.raises(SystemExit, match="incomplete listing"):
        check_mutants.read_equivalents(blank)  # the reason is the reviewer's to write
    reviewed = tmp_path / "reviewed.toml"
    reviewed.write_text(entry.replace('reason = ""', 'reason = "no input tells them apart"'), encoding="utf-8")
    code, out = run_check(mutants, reviewed, capsys)
    assert "listed as equivalent: 1  not explained: 0" in out
    assert code == 0


def test_print_fingerprint_of_an_unknown_mutant_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mutants = mutants_tree(tmp_path, ALL_KILLED)
    assert check_mutants.main(["--mutants", str(mutants), "--print-fingerprint", f"{MODULE}.x_nope__mutmut_1"]) == 1
    assert "no mutant named" in capsys.readouterr().err


def test_a_diff_holding_three_quotes_is_written_as_an_escaped_toml_string(tmp_path: Path) -> None:
    diff = "- s = '''a'''\n+ s = '''b'''"
    path = tmp_path / "entry.toml"
    path.write_text(check_mutants.toml_entry(f"{MODULE}.x_s__mutmut_1", diff, "same text"), encoding="utf-8")
    assert check_mutants.read_equivalents(path)[f"{MODULE}.x_s__mutmut_1"].diff == diff


def test_every_committed_listing_has_a_reason_and_a_diff() -> None:
    listed = check_mutants.read_equivalents(ROOT / "mutation" / "equivalent-mutants.toml")
    assert len(listed) >= 1
    assert all(entry.diff.count("\n+ ") + entry.diff.startswith("+ ") >= 1 for entry in listed.values())


def test_a_mutant_mypy_rejected_is_caught_and_counted_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_check(mutants_tree(tmp_path, {**ALL_KILLED, NAMES["strict"]: 37}), listing(tmp_path, {}), capsys)
    assert out.splitlines()[0].startswith("mutants: 3  killed: 3 (of them rejected by mypy before any test: 1)")
    assert code == 0


def test_times_sums_each_module_s_sessions_and_counts_what_mypy_rejected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    durations = {NAMES["cap"]: 0.25, NAMES["method"]: 0.5}
    mutants = mutants_tree(tmp_path, {**ALL_KILLED, NAMES["strict"]: 37}, durations=durations)
    assert check_mutants.main(["--mutants", str(mutants), "--times"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| `")]
    assert rows == ["| `pkg/guard` | 3 | 1 | 2 | 1 | 0.38 |"]
