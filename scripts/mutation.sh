#!/usr/bin/env bash
# Mutation testing of the guard code (configured under [tool.mutmut] in pyproject.toml),
# then the check that every surviving mutant is a reviewed equivalent one, matched by its diff
# (mutation/equivalent-mutants.toml; see CONTRIBUTING.md, "Mutation testing").
# Usage (from anywhere): scripts/mutation.sh      Exit status: 0 clean, 1 an unexplained survivor
# or a stale listing (a listed mutant a test kills twice: once in the run, once run again alone).
# Runtime: see CONTRIBUTING.md, "Mutation testing" (`scripts/check_mutants.py --times` per module).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python}"
# Property tests in the selection draw the same examples on every run: a kill does not depend on luck.
export HYPOTHESIS_PROFILE="${HYPOTHESIS_PROFILE:-ci}"
rm -rf mutants   # a clean run: mutmut 3 otherwise reuses results of functions it thinks unchanged
# mutmut runs `mypy` over the mutants first (type_check_command): the one beside the Python used.
case "$PYTHON" in */*) PATH="$(cd "$(dirname "$PYTHON")" && pwd):$PATH"; export PATH ;; esac
# mutmut itself, with its type filter's search made fast (scripts/run_mutmut.py says what it replaces).
mutmut=("$PYTHON" scripts/run_mutmut.py)
started=$SECONDS
# mutmut redraws a progress line with carriage returns; keep CI logs short: its last lines only.
# Its output goes to a file, not a pipe: a process a mutant leaves behind (a forked worker whose
# pool a mutated caller never shut down) keeps the file open, harmlessly, where it would keep the
# pipe open and this script waiting forever.
log="$(mktemp)"
status=0
"${mutmut[@]}" run > "$log" 2>&1 || status=$?
tr '\r' '\n' < "$log" | tail -n 3
rm -f "$log"
if [ "$status" -ne 0 ]; then exit "$status"; fi
echo "mutmut run: $((SECONDS - started)) s"
if "$PYTHON" scripts/check_mutants.py; then exit 0; fi
# A listed mutant killed once may be a test that failed on its own on a loaded machine; it is run
# once more, and the check below is final: a stale listing is killed again.
mapfile -t again < <("$PYTHON" scripts/check_mutants.py --listed-but-killed)
if [ "${#again[@]}" -eq 0 ]; then exit 1; fi
echo "running ${#again[@]} listed mutant(s) a test killed once more: ${again[*]}"
log="$(mktemp)"
status=0
"${mutmut[@]}" run "${again[@]}" > "$log" 2>&1 || status=$?
rm -f "$log"
if [ "$status" -ne 0 ]; then exit "$status"; fi
"$PYTHON" scripts/check_mutants.py
