"""Integrations (issue 11, item 5): the pre-commit hook, the GitHub Action's script, [tool.evalscore], completion.

The hook is tried as pre-commit tries a hook repository (``pre-commit try-repo``), offline: pip
installs evalscore into the hook's environment from wheels of this environment (``_wheelhouse``).
The Action's work is one script (``scripts/github-action.sh``), run here as the runner runs it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Final

import pytest
import yaml
from _wheelhouse import wheelhouse
from click.testing import CliRunner, Result

from evalscore.cli.main import main

ROOT: Final = Path(__file__).resolve().parents[2]
LOG: Final = ROOT / "examples" / "partner-log.jsonl"
SUITE: Final = ROOT / "examples" / "partner-suite.yaml"
VALID_RUN: Final = ROOT / "fixtures" / "valid" / "run" / "minimal.json"
INVALID_RUN: Final = ROOT / "fixtures" / "invalid" / "run" / "ES101--latency-disagrees-with-timestamps.json"
BIN: Final = Path(sys.executable).parent
GIT_IDENTITY: Final = {
    "GIT_AUTHOR_NAME": "evalscore tests",
    "GIT_AUTHOR_EMAIL": "tests@evalscore.invalid",
    "GIT_COMMITTER_NAME": "evalscore tests",
    "GIT_COMMITTER_EMAIL": "tests@evalscore.invalid",
}


def invoke(*args: str | Path) -> Result:
    result = CliRunner().invoke(main, [str(arg) for arg in args])
    assert "Traceback" not in result.output
    return result


# --- pre-commit -------------------------------------------------------------------------------


def test_the_hook_manifest_declares_evalscore_validate_for_the_files_evalscore_reads() -> None:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert (hook["id"], hook["language"]) == ("evalscore-validate", "python")
    assert hook["entry"].startswith("evalscore validate")
    pattern = hook["files"]
    matched = [
        name for name in ("a.json", "b.jsonl.gz", "c.yaml", "d.yml", "e.txt", "f.json.bak") if re.search(pattern, name)
    ]
    assert matched == ["a.json", "b.jsonl.gz", "c.yaml", "d.yml"]


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")
def test_pre_commit_try_repo_runs_the_hook_offline_and_fails_on_an_invalid_artifact(tmp_path: Path) -> None:
    wheels = wheelhouse(tmp_path / "wheels")
    assert len(wheels) >= 15
    repository = tmp_path / "partner"
    repository.mkdir()
    shutil.copy(VALID_RUN, repository / "good.json")
    shutil.copy(INVALID_RUN, repository / "bad.json")
    environment = {
        **os.environ,
        **GIT_IDENTITY,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(tmp_path / "wheels"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "VIRTUALENV_NO_DOWNLOAD": "1",
    }
    subprocess.run(["git", "init", "-q"], cwd=repository, check=True, env=environment)
    subprocess.run(["git", "add", "."], cwd=repository, check=True, env=environment)
    subprocess.run(["git", "commit", "-qm", "runs"], cwd=repository, check=True, env=environment)

    def try_repo(*files: str) -> subprocess.CompletedProcess[str]:
        command = [str(BIN / "pre-commit"), "try-repo", str(ROOT), "evalscore-validate", "--files", *files]
        return subprocess.run(command, cwd=repository, env=environment, capture_output=True, text=True, check=False)

    failed = try_repo("good.json", "bad.json")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "evalscore validate" in failed.stdout
    assert "bad.json:35:38: ES101 /task_results/0/step_results/0/gate_events/0/decision_latency_ms" in failed.stdout
    passed = try_repo("good.json")
    assert passed.returncode == 0, passed.stdout + passed.stderr


# --- the GitHub Action ------------------------------------------------------------------------


def test_the_action_passes_its_inputs_in_the_environment_and_runs_the_script() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert set(action["inputs"]) == {"runs", "suite", "args", "report"}
    steps = action["runs"]["steps"]
    score = next(step for step in steps if step.get("id") == "score")
    assert score["run"] == 'bash "${GITHUB_ACTION_PATH}/scripts/github-action.sh"'
    assert set(score["env"]) == {"EVALSCORE_RUNS", "EVALSCORE_SUITE", "EVALSCORE_ARGS", "EVALSCORE_REPORT"}
    for step in steps:  # an input pasted into a script's text could run as a command
        assert "${{ inputs." not in step.get("run", "")
    upload = next(step for step in steps if "upload-artifact" in step.get("uses", ""))
    assert upload["with"]["path"] == "${{ steps.score.outputs.report }}"


def run_action(tmp_path: Path, **inputs: str) -> tuple[subprocess.CompletedProcess[str], dict[str, str], str]:
    summary, outputs = tmp_path / "summary.md", tmp_path / "outputs.txt"
    environment = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_OUTPUT": str(outputs),
        "EVALSCORE_REPORT": str(tmp_path / "report.html"),
        "NO_COLOR": "1",
        **{f"EVALSCORE_{name.upper()}": value for name, value in inputs.items()},
    }
    script = ROOT / "scripts" / "github-action.sh"
    done = subprocess.run(
        ["bash", str(script)], env=environment, capture_output=True, text=True, check=False, cwd=tmp_path
    )
    values = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    return done, values, summary.read_text() if summary.exists() else ""


def test_the_action_script_annotates_summarises_and_writes_the_report_of_a_failed_gate(tmp_path: Path) -> None:
    done, outputs, summary = run_action(tmp_path, runs=str(LOG), suite=str(SUITE), args="--min-tool-match 0.9")
    assert done.returncode == 0, done.stderr
    assert outputs == {"exit-code": "1", "report": str(tmp_path / "report.html")}
    assert "::error title=evalscore score%3A FAIL (exit 1)::" in done.stdout
    assert summary.startswith("## evalscore score: FAIL (exit 1)")
    assert "FAIL" in (tmp_path / "report.html").read_text(encoding="utf-8")


def test_the_action_script_reports_a_pass_with_exit_code_0(tmp_path: Path) -> None:
    done, outputs, summary = run_action(tmp_path, runs=str(LOG), suite=str(SUITE), args="--min-tool-match 0.8")
    assert outputs["exit-code"] == "0"
    assert summary.startswith("## evalscore score: PASS (exit 0)")
    assert "::notice title=evalscore score%3A PASS (exit 0)::" in done.stdout


def test_the_action_script_without_a_criterion_says_nothing_was_gated(tmp_path: Path) -> None:
    done, outputs, summary = run_action(tmp_path, runs=str(LOG), suite=str(SUITE))
    assert outputs["exit-code"] == "0"
    assert summary.startswith("## evalscore score: NOT GATED (nothing was checked, exit 0)")
    assert "::notice title=evalscore score%3A NOT GATED (nothing was checked%2C exit 0)::" in done.stdout
    assert done.stdout.count("title=violation%3A ") == 6  # each violation still on its file and line


def compliant_corpus(path: Path, runs: int) -> Path:
    """``runs`` runs shaped like the bundled log's, each gated call approved before it ran."""
    first, second = (json.loads(line) for line in LOG.read_text().splitlines())
    first["task_results"][1]["step_results"][0]["gate_events"][0]["resolution"] = "approved"
    second["task_results"][0]["step_results"][1]["gate_events"].append(
        {**first["task_results"][0]["step_results"][0]["gate_events"][0], "task_calls_before": 1}
    )
    copies = [{**(first, second)[index % 2], "run_id": f"run-{index}"} for index in range(runs)]
    path.write_text("".join(json.dumps(run) + "\n" for run in copies))
    return path


def test_the_readme_s_action_example_passes_on_unchanged_logs_of_the_size_it_names(tmp_path: Path) -> None:
    """A thousand runs shaped like the bundled log's, all gates honored, against their own earlier report."""
    corpus = compliant_corpus(tmp_path / "logs.jsonl", 1000)
    baseline = tmp_path / "main-score.json"
    written = invoke("score", corpus, "--suite", SUITE, "--format", "json", "-o", baseline)
    assert written.exit_code == 0
    assert json.loads(baseline.read_text())["rates"]["mandated_compliance_rate"] == 1.0
    args = f"--min-mandated-compliance 0.9 --baseline {baseline}"
    _, outputs, summary = run_action(tmp_path, runs=str(corpus), suite=str(SUITE), args=args)
    assert outputs["exit-code"] == "0", summary
    assert summary.startswith("## evalscore score: PASS (exit 0)")


def test_the_action_script_shows_the_findings_of_invalid_input_and_writes_no_report(tmp_path: Path) -> None:
    done, outputs, summary = run_action(tmp_path, runs=str(INVALID_RUN))
    assert outputs == {"exit-code": "3", "report": ""}
    assert "::error file=" in done.stdout
    assert "ES101" in done.stdout
    assert summary.startswith("## evalscore validate: INVALID (exit 1)")
    assert not (tmp_path / "report.html").exists()


# --- [tool.evalscore] -------------------------------------------------------------------------


def configured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str) -> Path:
    project = tmp_path / "project"
    (project / "evals").mkdir(parents=True)
    shutil.copy(SUITE, project / "evals" / "suite.yaml")
    (project / "pyproject.toml").write_text(f"[project]\nname = 'x'\n\n[tool.evalscore]\n{table}\n")
    (project / "sub").mkdir()
    monkeypatch.chdir(project / "sub")  # the nearest pyproject.toml is found from below it
    return project


def decision(result: Result) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(result.stdout)["decision"]
    return document


def test_the_config_sets_suites_relative_to_itself_and_thresholds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    configured(
        tmp_path, monkeypatch, 'suite = ["../project/evals/suite.yaml"]\nmin-tool-match = 0.9\nscoring-model = "v2"'
    )
    result = invoke("score", LOG, "--format", "json")
    report = json.loads(result.stdout)
    assert (report["source"], report["scoring_model"]) == ("rederived", "v2")
    assert decision(result)["thresholds"]["min_tool_match"] == 0.9
    assert result.exit_code == 1


def test_the_config_sets_the_confidence_and_the_threshold_basis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    configured(
        tmp_path,
        monkeypatch,
        'suite = "evals/suite.yaml"\nmin-mandated-compliance = 0.5\nconfidence = 0.9\nthreshold-basis = "interval"',
    )
    result = invoke("score", LOG, "--format", "json")
    thresholds = decision(result)["thresholds"]
    assert (thresholds["confidence"], thresholds["threshold_basis"]) == (0.9, "interval")
    (check,) = decision(result)["checks"]
    assert check["interval"]["confidence"] == 0.9
    assert result.exit_code == 4  # 3/5 at 90 %: 0.26 to 0.86 straddles the floor of 0.5


def test_the_config_sets_the_margin_and_how_many_of_each_list_the_report_keeps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    configured(tmp_path, monkeypatch, 'suite = "evals/suite.yaml"\nmax-listed = 2\nmax-drop = 0.2')
    result = invoke("score", LOG, "--format", "json")
    report = json.loads(result.stdout)
    assert (len(report["violations"]), report["violation_counts"]["total"]) == (2, 6)
    assert report["decision"]["thresholds"]["max_drop"] == 0.2
    assert result.exit_code == 0


def test_an_option_on_the_command_line_wins_over_the_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    configured(tmp_path, monkeypatch, 'suite = "evals/suite.yaml"\nmin-tool-match = 0.9')
    result = invoke("score", LOG, "--format", "json", "--min-tool-match", "0.5")
    assert decision(result)["thresholds"]["min_tool_match"] == 0.5
    assert result.exit_code == 0


@pytest.mark.parametrize(
    ("table", "says"),
    [
        ("min-tool-mach = 0.9", "has no key 'min-tool-mach'"),
        ('min-tool-match = "high"', "min-tool-match must be a number"),
        ("allow-empty = 1", "allow-empty must be true or false"),
        ('scoring-model = "v9"', "scoring-model must be v1, v2 or v3"),
        ("suite = 3", "suite must be a path or a list of paths"),
        ("min-tool-match = 2", "2.0 is not in the range"),
        ('threshold-basis = "whole"', "threshold-basis must be point or interval"),
        ("max-listed = 10001", "10001 is not in the range"),
        ("confidence = 1", "1.0 is not in the range"),
    ],
)
def test_a_config_evalscore_cannot_use_is_a_usage_error_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: str, says: str
) -> None:
    project = configured(tmp_path, monkeypatch, table)
    result = invoke("score", LOG)
    assert result.exit_code == 2
    assert says in result.stderr
    if "range" not in says:
        assert str(project / "pyproject.toml") in result.stderr


def test_without_a_table_nothing_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "plain"
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    monkeypatch.chdir(project)
    result = invoke("score", LOG, "--suite", SUITE, "--format", "json")
    assert decision(result)["thresholds"]["min_tool_match"] is None


# --- shell completion -------------------------------------------------------------------------


def test_shell_completion_is_click_s_own(tmp_path: Path) -> None:
    environment = {**os.environ, "_EVALSCORE_COMPLETE": "bash_source"}
    source = subprocess.run([str(BIN / "evalscore")], env=environment, capture_output=True, text=True, check=False)
    assert source.returncode == 0
    assert "_evalscore_completion()" in source.stdout
    environment = {
        **os.environ,
        "_EVALSCORE_COMPLETE": "bash_complete",
        "COMP_WORDS": "evalscore va",
        "COMP_CWORD": "1",
    }
    done = subprocess.run([str(BIN / "evalscore")], env=environment, capture_output=True, text=True, check=False)
    assert done.stdout.strip() == "plain,validate"
