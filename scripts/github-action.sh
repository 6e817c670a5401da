#!/usr/bin/env bash
# The score step of action.yml: score once, then render the saved report as GitHub annotations
# (stdout, read by the runner), a job summary ($GITHUB_STEP_SUMMARY) and an HTML report; set the
# step's outputs exit-code and report ($GITHUB_OUTPUT). The inputs arrive in environment variables,
# never pasted into the script's text, so no input can become a command.
# Exit status: 0 whenever the step itself worked; the decision is in the exit-code output.
set -uo pipefail

read -r -a runs <<< "${EVALSCORE_RUNS:?the runs input is empty}"
read -r -a extra <<< "${EVALSCORE_ARGS:-}"
suites=()
for suite in ${EVALSCORE_SUITE:-}; do
  suites+=(--suite "$suite")
done
summary="${GITHUB_STEP_SUMMARY:-/dev/null}"
outputs="${GITHUB_OUTPUT:-/dev/null}"
report="${EVALSCORE_REPORT:-evalscore-report.html}"
scored="$(mktemp --suffix=.json)"
trap 'rm -f "$scored"' EXIT

evalscore score "${runs[@]}" "${suites[@]}" "${extra[@]}" --format json --output "$scored" --color never
code=$?
echo "exit-code=$code" >> "$outputs"

case "$code" in
  0 | 1 | 4)  # a decision was made: the report holds it
    evalscore report "$scored" --format github --output -
    evalscore report "$scored" --format markdown --output - >> "$summary"
    if evalscore report "$scored" --output "$report"; then
      echo "report=$report" >> "$outputs"
    else
      echo "report=" >> "$outputs"
    fi
    ;;
  3)  # invalid input: nothing was scored; the findings are the news
    evalscore validate "${runs[@]}" ${EVALSCORE_SUITE:-} --format github --color never
    evalscore validate "${runs[@]}" ${EVALSCORE_SUITE:-} --format markdown --color never >> "$summary"
    echo "report=" >> "$outputs"
    ;;
  *)
    echo "::error title=evalscore score::evalscore score exited $code (a usage error, an unreadable input or a bug); see the log above"
    printf '## evalscore score: exited %s\n\nSee the job log.\n' "$code" >> "$summary"
    echo "report=" >> "$outputs"
    ;;
esac
exit 0
