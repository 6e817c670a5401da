"""Terminal conventions (issue 11, item 3): -h, --color with NO_COLOR and FORCE_COLOR, -q/-v, findings as
``path:line:col: CODE pointer message``, the width of piped text from COLUMNS, byte sizes in MiB."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Final

import pytest
from click.testing import CliRunner, Result

from evalscore.cli.main import main
from evalscore.inputs import documents

ROOT: Final = Path(__file__).resolve().parents[2]
LOG: Final = ROOT / "examples" / "partner-log.jsonl"
SUITE: Final = ROOT / "examples" / "partner-suite.yaml"
VALID_RUN: Final = ROOT / "fixtures" / "valid" / "run" / "minimal.json"
INVALID_RUN: Final = ROOT / "fixtures" / "invalid" / "run" / "ES101--latency-disagrees-with-timestamps.json"
YAML_SUITE: Final = ROOT / "fixtures" / "invalid" / "eval-suite" / "ES142--duplicate-step-n-in-yaml.yaml"
SGR: Final = re.compile(r"\x1b\[[0-9;]*m")
LATENCY: Final = "/task_results/0/step_results/0/gate_events/0/decision_latency_ms"


def invoke(*args: str | Path, env: dict[str, str] | None = None) -> Result:
    result = CliRunner().invoke(main, [str(arg) for arg in args], env=env)
    assert "Traceback" not in result.output
    return result


@pytest.mark.parametrize("command", [[], ["validate"], ["score"], ["import", "inspect"], ["report"], ["schema"]])
def test_h_is_help_everywhere(command: list[str]) -> None:
    result = invoke(*command, "-h")
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: ")


def test_a_finding_in_a_json_file_is_one_line_with_its_line_and_column() -> None:
    result = invoke("validate", INVALID_RUN)
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"{INVALID_RUN}:35:38: ES101 {LATENCY} coherence error: decision_latency_ms is 8999")
    assert INVALID_RUN.read_text().splitlines()[34][37:41] == "8999"  # line 35, column 38 is where the value starts


def test_a_finding_in_a_jsonl_line_names_the_line_and_the_column_within_it(tmp_path: Path) -> None:
    log = tmp_path / "runs.jsonl"
    log.write_text(
        json.dumps(json.loads(VALID_RUN.read_text())) + "\n" + json.dumps(json.loads(INVALID_RUN.read_text())) + "\n"
    )
    line = invoke("validate", log).stdout.splitlines()[0]
    found = re.match(rf"{re.escape(str(log))}:2:(\d+): ES101 {LATENCY} coherence error: ", line)
    assert found is not None
    column = int(found.group(1))
    assert log.read_text().splitlines()[1][column - 1 : column + 3] == "8999"


def test_a_finding_in_a_yaml_suite_and_a_syntax_error_are_placed_too(tmp_path: Path) -> None:
    lines = invoke("validate", YAML_SUITE).stdout.splitlines()
    assert lines[0].startswith(
        f"{YAML_SUITE}:14:15: ES142 /suite/tasks/0/steps/2/n coherence error: duplicate step n 2"
    )
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "a": [1,\n    x]\n}\n')
    assert invoke("validate", broken).stdout.splitlines()[0].startswith(f"{broken}:3:5: ES002 / syntax error: ")


def test_a_document_too_large_to_locate_is_named_by_its_pointer_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(documents, "LOCATE_LIMIT", 100)
    first = invoke("validate", INVALID_RUN).stdout.splitlines()[0]
    assert first.startswith(f"{INVALID_RUN}: ES101 {LATENCY} coherence error: ")


def test_quiet_prints_the_outcome_only_and_verbose_every_artifact() -> None:
    quiet = invoke("validate", "-q", VALID_RUN, INVALID_RUN)
    assert quiet.exit_code == 1
    assert quiet.stdout.splitlines() == ["INVALID: 2 artifact(s) in 2 input(s): 1 valid, 1 invalid, 0 warning(s)"]
    verbose = invoke("validate", "-v", VALID_RUN, INVALID_RUN).stdout.splitlines()
    assert verbose[0] == f"ok {VALID_RUN} (run): 0 error(s), 0 warning(s)"
    assert verbose[1] == f"INVALID {INVALID_RUN} (run): 1 error(s), 0 warning(s)"
    assert len(verbose) == 4
    scored = invoke("score", LOG, "--suite", SUITE, "-q")
    assert scored.stdout.splitlines()[0] == "NOT GATED (nothing was checked, exit 0)"
    assert len(scored.stdout.splitlines()) == 2
    assert "sha256" in invoke("score", LOG, "--suite", SUITE, "-v").stdout


def test_quiet_and_verbose_together_are_a_usage_error() -> None:
    result = invoke("validate", "-q", "-v", VALID_RUN)
    assert result.exit_code == 2
    assert "cannot be given together" in result.stderr


@pytest.mark.parametrize(
    ("args", "env", "coloured"),
    [
        ([], {}, False),  # piped: no colour
        (["--color", "always"], {}, True),
        (["--color", "always"], {"NO_COLOR": "1"}, True),
        ([], {"FORCE_COLOR": "1"}, True),
        ([], {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
        (["--color", "never"], {"FORCE_COLOR": "1"}, False),
    ],
)
def test_colour_follows_color_no_color_and_force_color(args: list[str], env: dict[str, str], coloured: bool) -> None:
    environment = {"NO_COLOR": "", "FORCE_COLOR": "", **env}
    for command in (["validate", INVALID_RUN], ["score", LOG, "--suite", SUITE]):
        result = invoke(*command, *args, env=environment)
        assert bool(SGR.search(result.stdout)) is coloured, (command, args, env)


def test_piped_text_takes_its_width_from_columns() -> None:
    narrow = invoke("score", LOG, "--suite", SUITE, env={"COLUMNS": "64"}).stdout
    wide = invoke("score", LOG, "--suite", SUITE, env={"COLUMNS": "140"}).stdout
    table_width = {
        text: max(len(line) for line in text.splitlines() if line.startswith("┏")) for text in (narrow, wide)
    }
    assert table_width[narrow] <= 64 < table_width[wide] <= 140


def test_byte_sizes_in_help_are_in_mebibytes() -> None:
    text = " ".join(invoke("validate", "-h").stdout.split())
    assert "512 MiB" in text
    assert "1 byte to 1 TiB" in text
    assert "536870912" not in text
    assert "1099511627776" not in text
