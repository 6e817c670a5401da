"""Check a finished mutmut run: every surviving mutant must be a reviewed equivalent one.

Runs no test itself. Reads what mutmut 3 leaves under ``mutants/``: per source file, the results
(``<path>.meta``, JSON with ``exit_code_by_key``) and the mutated copy (``<path>``), which holds the
unmutated function as ``x_<func>__mutmut_orig`` beside each mutant ``x_<func>__mutmut_<n>``
(methods: ``xǁ<Class>ǁ<method>__mutmut_<n>``). The survivors are compared with
``mutation/equivalent-mutants.toml``, where each listed mutant has a one-line reason and the
*diff* it was reviewed as. mutmut numbers mutants in the order it meets them, so an edit to a
function renumbers its mutants; a listing is therefore matched by its diff as well as its name, and
a real survivor that inherits a listed number fails the check.

Exit status 1 (with the reason printed) when a survivor is not listed, a listed mutant no longer
exists, a test now kills a listed mutant, a listed mutant's diff is not the one reviewed, or there
are no results at all; 0 otherwise.

    python scripts/check_mutants.py [--mutants DIR] [--equivalents FILE]
    python scripts/check_mutants.py --print-fingerprint NAME [--print-fingerprint NAME ...]
    python scripts/check_mutants.py --listed-but-killed

The second form prints, for each named mutant, a TOML entry to paste into the list after reading its
diff; its reason is left empty, and the check refuses an empty reason.

The third form prints the names of listed mutants a test killed in this run, one per line, and
checks nothing: ``scripts/mutation.sh`` runs those once more before its final check, since one kill
of a mutant no input can tell apart (a test that failed for a reason of its own on a loaded
machine) is not yet a stale listing, and a stale listing is killed again.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import sys
import tomllib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[1]
# mutmut 3.8's reading of a mutant's test-run exit code (mutmut.stats.status_by_exit_code).
STATUS_BY_EXIT_CODE: Final[dict[int | None, str]] = {
    1: "killed",
    3: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    2: "interrupted",
    None: "not checked",
    34: "skipped",
    35: "suspicious",
    36: "timeout",
    24: "timeout",
    -24: "timeout",
    152: "timeout",
    255: "timeout",
    37: "caught by type check",
    -11: "segfault",
    -9: "segfault",
}
TYPE_CHECKED: Final = "caught by type check"
"""mypy rejected the mutant before any test ran (``type_check_command``): CI's mypy gate refuses it as code."""
# Statuses that mean a test (or, for TYPE_CHECKED, the type checker) noticed the mutant.
CAUGHT: Final = frozenset({"killed", "timeout", TYPE_CHECKED, "segfault"})
MUTANT_MARK: Final = "__mutmut_"
HUNK_BREAK: Final = "..."
"""Stands for a ``@@ -a,b +c,d @@`` line in a fingerprint: where hunks are, not their line numbers."""


@dataclass(frozen=True, slots=True)
class Mutant:
    name: str
    """mutmut's name: ``<module>.<generated function>``, e.g. ``evalscore.scoring.compare.x__dump__mutmut_4``."""
    status: str
    mutated_file: Path
    """The mutated copy of the source file that holds the mutant's function."""


@dataclass(frozen=True, slots=True)
class Listing:
    reason: str
    diff: str


@dataclass(frozen=True, slots=True)
class Verdict:
    mutants: int
    caught: int
    survivors: int
    listed: int
    other_statuses: dict[str, int]
    problems: list[str]


# --- reading mutmut's output -----------------------------------------------------------------


def read_mutants(mutants_dir: Path) -> dict[str, Mutant]:
    """Every mutant with its status and mutated file, from all ``.meta`` files under ``mutants_dir``."""
    found: dict[str, Mutant] = {}
    for meta in sorted(mutants_dir.rglob("*.py.meta")):
        exit_codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
        mutated_file = meta.with_suffix("")
        for name, code in exit_codes.items():
            found[name] = Mutant(name, STATUS_BY_EXIT_CODE.get(code, "suspicious"), mutated_file)
    return found


@dataclass(slots=True)
class ModuleTime:
    mutants: int = 0
    type_checked: int = 0
    seconds: float = 0.0


def module_times(mutants_dir: Path) -> dict[str, ModuleTime]:
    """Per mutated module: its mutants, how many mypy rejected before any test ran, and the seconds
    its tested mutants' sessions took (mutmut's ``durations_by_key``: each session's wall time)."""
    times: dict[str, ModuleTime] = {}
    for meta in sorted(mutants_dir.rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        module = meta.relative_to(mutants_dir).with_suffix("").with_suffix("").as_posix().removeprefix("src/")
        entry = times.setdefault(module, ModuleTime())
        entry.mutants += len(data["exit_code_by_key"])
        entry.type_checked += sum(
            STATUS_BY_EXIT_CODE.get(code) == TYPE_CHECKED for code in data["exit_code_by_key"].values()
        )
        entry.seconds += sum(data.get("durations_by_key", {}).values())
    return times


def print_times(times: dict[str, ModuleTime]) -> None:
    """The modules by the time their mutants took, the slowest first, and the totals."""
    print("| module | mutants | rejected by mypy | tested | session seconds | per tested mutant |")
    print("|---|---|---|---|---|---|")
    for module, entry in sorted(times.items(), key=lambda item: -item[1].seconds):
        tested = entry.mutants - entry.type_checked
        per = f"{entry.seconds / tested:.2f}" if tested else "-"
        print(f"| `{module}` | {entry.mutants} | {entry.type_checked} | {tested} | {entry.seconds:.0f} | {per} |")
    total = ModuleTime(
        sum(entry.mutants for entry in times.values()),
        sum(entry.type_checked for entry in times.values()),
        sum(entry.seconds for entry in times.values()),
    )
    print(f"| all {len(times)} modules | {total.mutants} | {total.type_checked} | {total.mutants - total.type_checked} "
          f"| {total.seconds:.0f} | |")  # fmt: skip


def generated_name(mutant_name: str) -> str:
    """The mutant's function in the mutated file: ``x_f__mutmut_3`` of ``pkg.mod.x_f__mutmut_3``."""
    return mutant_name.rpartition(".")[2]


def original_name(mutant_name: str) -> str:
    """The unmutated copy mutmut keeps beside the mutants: ``x_f__mutmut_orig``."""
    return generated_name(mutant_name).partition(MUTANT_MARK)[0] + MUTANT_MARK + "orig"


def generated_functions(source: str) -> dict[str, str]:
    """The source text (dedented) of every generated function, at module level or in a class body."""
    lines = source.splitlines()
    functions: dict[str, str] = {}

    def visit(body: Iterable[ast.stmt], indent: int) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and MUTANT_MARK in node.name:
                end = node.end_lineno or node.lineno
                start = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
                functions[node.name] = "\n".join(line[indent:] for line in lines[start - 1 : end])
            elif isinstance(node, ast.ClassDef):
                visit(node.body, indent + 4)

    visit(ast.parse(source).body, 0)
    return functions


def _normalised(line: str) -> str:
    """A diff line with its marker kept and every run of whitespace after it made one space."""
    return (line[0] + " " + " ".join(line[1:].split())).rstrip()


def fingerprint(original: str, mutated: str) -> str:
    """What a mutant changes, without line numbers: the changed lines and one line of context each
    side, whitespace normalised, hunks separated by ``...``. Both functions are first given the same
    name, so only the mutation shows."""
    shared = "f"
    before = _renamed(original, shared).splitlines()
    after = _renamed(mutated, shared).splitlines()
    kept: list[str] = []
    for line in difflib.unified_diff(before, after, lineterm="", n=1):
        if line.startswith(("---", "+++")):
            continue
        kept.append(HUNK_BREAK if line.startswith("@@") else _normalised(line))
    return "\n".join(kept[1:] if kept[:1] == [HUNK_BREAK] else kept)


def _renamed(function_source: str, name: str) -> str:
    head, _, rest = function_source.partition("def ")
    generated, paren, tail = rest.partition("(")
    if not generated or not paren:
        raise ValueError(f"not a function definition: {function_source[:80]!r}")
    return f"{head}def {name}{paren}{tail}"


class Fingerprints:
    """Fingerprints of mutants, parsing each mutated file once."""

    def __init__(self) -> None:
        self._functions: dict[Path, dict[str, str]] = {}

    def of(self, mutant: Mutant) -> str | None:
        """None when the mutated file does not hold the mutant (or its original) any more."""
        if mutant.mutated_file not in self._functions:
            try:
                source = mutant.mutated_file.read_text(encoding="utf-8")
            except OSError:
                source = ""
            self._functions[mutant.mutated_file] = generated_functions(source)
        functions = self._functions[mutant.mutated_file]
        original = functions.get(original_name(mutant.name))
        mutated = functions.get(generated_name(mutant.name))
        if original is None or mutated is None:
            return None
        return fingerprint(original, mutated)


# --- the reviewed list -----------------------------------------------------------------------


def read_equivalents(path: Path) -> dict[str, Listing]:
    """Listed mutant names with their reasons and reviewed diffs; an entry without either is an error."""
    if not path.exists():
        return {}
    listed = tomllib.loads(path.read_text(encoding="utf-8")).get("equivalent", {})
    listings: dict[str, Listing] = {}
    incomplete: list[str] = []
    for name, entry in listed.items():
        if not isinstance(entry, dict):
            incomplete.append(f"{name} (not a table with reason and diff)")
            continue
        reason, diff = str(entry.get("reason", "")).strip(), str(entry.get("diff", "")).strip("\n")
        if not reason or not diff.strip():
            incomplete.append(f"{name} (needs a reason and a diff)")
            continue
        listings[str(name)] = Listing(reason=reason, diff=diff)
    if incomplete:
        raise SystemExit(f"{path}: incomplete listing: {'; '.join(sorted(incomplete))}")
    return listings


def toml_entry(name: str, diff: str, reason: str = "") -> str:
    """A listing to paste into the TOML file (the reason is for the reviewer to write)."""
    quoted_diff = f"'''\n{diff}\n'''" if "'''" not in diff else json.dumps(diff + "\n", ensure_ascii=False)
    return f"[equivalent.{json.dumps(name, ensure_ascii=False)}]\nreason = {json.dumps(reason)}\ndiff = {quoted_diff}\n"


# --- the check -------------------------------------------------------------------------------


def check(mutants: dict[str, Mutant], equivalents: dict[str, Listing]) -> Verdict:
    fingerprints = Fingerprints()
    survivors = sorted(name for name, mutant in mutants.items() if mutant.status not in CAUGHT)
    problems: list[str] = []
    listed = 0
    for name in survivors:
        listing = equivalents.get(name)
        if listing is None:
            problems.append(
                f"SURVIVED (not listed as equivalent): {name} [{mutants[name].status}]  see: mutmut show {name}"
            )
            continue
        current = fingerprints.of(mutants[name])
        if current != listing.diff:
            problems.append(
                f"LISTED DIFF DOES NOT MATCH: {name} survives, but its diff is not the one reviewed as equivalent "
                "(renumbered or changed: review it, then list it again or kill it)\n"
                + _indented("listed", listing.diff)
                + "\n"
                + _indented("now", current if current is not None else "(not found in the mutated file)")
            )
            continue
        listed += 1
    for name in sorted(equivalents):
        if name not in mutants:
            problems.append(f"LISTED BUT GONE: {name} is listed as equivalent but mutmut no longer produces it")
    for name in listed_but_killed(mutants, equivalents):
        problems.append(f"LISTED BUT KILLED: {name} is listed as equivalent but a test kills it; remove it")
    counts = Counter(mutant.status for mutant in mutants.values())
    return Verdict(
        mutants=len(mutants),
        caught=sum(counts[status] for status in CAUGHT),
        survivors=len(survivors),
        listed=listed,
        other_statuses={status: n for status, n in sorted(counts.items()) if status not in CAUGHT | {"survived"}},
        problems=problems,
    )


def listed_but_killed(mutants: dict[str, Mutant], equivalents: dict[str, Listing]) -> list[str]:
    """The listed mutants a test killed in this run, by name."""
    return sorted(name for name in equivalents if name in mutants and mutants[name].status in CAUGHT)


def _indented(label: str, text: str) -> str:
    return f"  {label}:\n" + "\n".join(f"    {line}" for line in text.splitlines())


def print_fingerprints(names: Sequence[str], mutants: dict[str, Mutant]) -> int:
    fingerprints = Fingerprints()
    missing = 0
    for name in names:
        mutant = mutants.get(name)
        diff = fingerprints.of(mutant) if mutant is not None else None
        if mutant is None or diff is None:
            print(f"no mutant named {name} in this run", file=sys.stderr)
            missing += 1
            continue
        print(f"# {mutant.status}: {mutant.mutated_file}")
        print(toml_entry(name, diff))
    return 1 if missing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mutants", type=Path, default=ROOT / "mutants", help="mutmut's output directory")
    parser.add_argument(
        "--equivalents", type=Path, default=ROOT / "mutation" / "equivalent-mutants.toml", help="reviewed list"
    )
    parser.add_argument(
        "--print-fingerprint",
        metavar="NAME",
        action="append",
        default=[],
        help="print a TOML listing of this mutant to paste after review (repeatable); checks nothing",
    )
    parser.add_argument(
        "--listed-but-killed",
        action="store_true",
        help="print the names of the listed mutants a test killed in this run, one per line; checks nothing",
    )
    parser.add_argument(
        "--times",
        action="store_true",
        help="print, per mutated module, its mutants, those mypy rejected and its sessions' seconds; checks nothing",
    )
    args = parser.parse_args(argv)
    if args.times:
        print_times(module_times(args.mutants))
        return 0

    mutants = read_mutants(args.mutants)
    if not mutants:
        print(f"no mutmut results under {args.mutants}; run `mutmut run` first", file=sys.stderr)
        return 1
    if args.print_fingerprint:
        return print_fingerprints(args.print_fingerprint, mutants)
    if args.listed_but_killed:
        for name in listed_but_killed(mutants, read_equivalents(args.equivalents)):
            print(name)
        return 0

    verdict = check(mutants, read_equivalents(args.equivalents))
    type_checked = sum(mutant.status == TYPE_CHECKED for mutant in mutants.values())
    print(
        f"mutants: {verdict.mutants}  killed: {verdict.caught} (of them rejected by mypy before any test: "
        f"{type_checked})  survived: {verdict.survivors}  "
        f"listed as equivalent: {verdict.listed}  not explained: {verdict.survivors - verdict.listed}"
    )
    if verdict.other_statuses:
        print(
            "  of the survivors, not plainly 'survived': "
            + ", ".join(f"{status}: {n}" for status, n in verdict.other_statuses.items())
        )
    for problem in verdict.problems:
        print(problem)
    if verdict.problems:
        print(
            f"{len(verdict.problems)} problem(s). To list a mutant that no input can tell from the original: "
            "python scripts/check_mutants.py --print-fingerprint NAME, paste the entry into "
            "mutation/equivalent-mutants.toml and write its reason."
        )
    return 1 if verdict.problems else 0


if __name__ == "__main__":
    sys.exit(main())
