"""Start-up: ``validate`` imports neither the models nor pydantic nor the scoring package.

What each command imports is decided by the import graph, which any new import can change; these
tests fix the contract that issue 9 sets (a validate process starts in well under a second).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import evalscore
from evalscore.cli.main import COMMANDS, main
from evalscore.reporters import validation_json
from evalscore.validation.summary import ValidationSummary

ROOT = Path(__file__).resolve().parents[2]
PARTNER_LOG = ROOT / "examples" / "partner-log.jsonl"
NOT_ON_THE_VALIDATE_PATH = (
    "pydantic",
    "evalscore.models",
    "evalscore.scoring",
    "jsonschema",
    "yaml",
    "rich",
    "multiprocessing",
)

_PROBE = """
import json, sys
from evalscore.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
sys.stdout.flush()
print(json.dumps({"exit": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def _modules_after(*args: str) -> tuple[int, set[str]]:
    done = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, check=False)
    probe = json.loads(done.stderr.splitlines()[-1])
    return probe["exit"], set(probe["modules"])


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_validating_valid_runs_imports_no_model_no_pydantic_and_no_scoring(output_format: str) -> None:
    exit_code, modules = _modules_after("validate", str(PARTNER_LOG), "--format", output_format)
    assert exit_code == 0
    assert "evalscore.validation.contract_layer" in modules  # the document was checked in this process
    assert [name for name in NOT_ON_THE_VALIDATE_PATH if name in modules] == []


def test_scoring_imports_the_models_it_builds() -> None:
    exit_code, modules = _modules_after("score", str(PARTNER_LOG), "--allow-empty")
    assert exit_code in (0, 1)
    assert {"pydantic", "evalscore.models", "evalscore.scoring"} <= modules


_DOCSTRINGS_READ = """
import json, pydantic
from pydantic._internal import _fields
read = []
real = _fields.extract_docstrings_from_cls
_fields.extract_docstrings_from_cls = lambda cls, **options: read.append(cls.__name__) or real(cls, **options)
from evalscore.cli import import_command, import_langgraph_command, import_pydantic_ai_command
from evalscore.cli import ledger_command, report_command, schema_command, score_command
class Probe(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(use_attribute_docstrings=True)
print(json.dumps(read))
"""


def test_no_model_class_reads_its_attribute_docstrings_when_it_is_made() -> None:
    done = subprocess.run([sys.executable, "-c", _DOCSTRINGS_READ], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == ["Probe"]  # the probe's own class shows that a reading is seen


def test_scoring_takes_the_ledger_s_lock_only_with_a_ledger(tmp_path: Path) -> None:
    exit_code, modules = _modules_after("score", str(PARTNER_LOG), "--allow-empty")
    assert exit_code in (0, 1)
    assert "evalscore.models" in modules
    assert "filelock" not in modules
    ledger = tmp_path / "decisions.jsonl"
    exit_code, modules = _modules_after("score", str(PARTNER_LOG), "--allow-empty", "--ledger", str(ledger))
    assert exit_code in (0, 1)
    assert "filelock" in modules
    assert ledger.stat().st_size > 0


def test_a_rejected_document_loads_the_reference_validator_to_explain_itself(tmp_path: Path) -> None:
    run = json.loads(PARTNER_LOG.read_text().splitlines()[0])
    run["task_results"] = "not a list"
    (tmp_path / "bad.json").write_text(json.dumps(run))
    exit_code, modules = _modules_after("validate", str(tmp_path / "bad.json"))
    assert exit_code == 1
    assert "jsonschema" in modules
    assert "pydantic" not in modules


def test_every_command_is_found_by_name_and_an_unknown_one_is_a_usage_error() -> None:
    for name in COMMANDS:
        command = main.get_command(None, name)  # type: ignore[arg-type]  # the context is not used
        assert command is not None
        assert command.name == name
    assert sorted(COMMANDS) == ["import", "ledger", "report", "schema", "score", "validate"]
    assert main.get_command(None, "scroe") is None  # type: ignore[arg-type]
    done = subprocess.run([sys.executable, "-m", "evalscore", "scroe"], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "No such command 'scroe'" in done.stderr


def test_the_help_lists_every_command() -> None:
    done = subprocess.run([sys.executable, "-m", "evalscore", "--help"], capture_output=True, text=True, check=True)
    listed = [line.split()[0] for line in done.stdout.split("Commands:")[1].splitlines() if line.strip()]
    assert listed == sorted(COMMANDS)


def test_the_public_api_is_imported_on_first_use() -> None:
    from evalscore.models import Run  # noqa: PLC0415 - compared with what the package hands out
    from evalscore.running.pipeline import check_paths  # noqa: PLC0415

    assert evalscore.Run is Run
    assert evalscore.check_paths is check_paths
    assert dir(evalscore) == sorted(evalscore.__all__)
    with pytest.raises(AttributeError, match="no attribute 'Runn'"):
        _ = evalscore.Runn


def test_every_public_name_resolves() -> None:
    resolved = [getattr(evalscore, name) for name in evalscore.__all__]
    assert len(resolved) == 13
    assert all(value is not None for value in resolved)


def test_a_json_report_that_breaks_its_published_schema_is_a_bug_not_output(monkeypatch: pytest.MonkeyPatch) -> None:
    real = validation_json._raw_dict
    monkeypatch.setattr(validation_json, "_raw_dict", lambda summary: {**real(summary), "exit_code": 5})
    with pytest.raises(Exception, match="exit_code"):
        validation_json.validation_json_dict(ValidationSummary(strict=False, max_findings=3))
    monkeypatch.setattr(validation_json, "_raw_dict", real)
    assert validation_json.validation_json_dict(ValidationSummary(strict=False, max_findings=3))["exit_code"] == 2


_FREEZE_PROBE = """
import gc, json, sys
from evalscore.cli.main import main
collected, while_importing = [], []
def note(phase, info):
    if phase == "start":
        collected.append(info["generation"])
        command = sys.modules.get("evalscore.cli.score_command")
        if command is not None and not hasattr(command, "score_command"):
            while_importing.append(info["generation"])
gc.callbacks.append(note)
if sys.argv[1] == "off":
    gc.disable()
try:
    main(["score", sys.argv[2], "--allow-empty"])
except SystemExit as exit:
    code = exit.code
probe = {"exit": code, "frozen": gc.get_freeze_count(), "enabled": gc.isenabled()}
print(json.dumps({**probe, "collections": collected, "while_importing": while_importing}), file=sys.stderr)
"""


def _freeze_probe(collector: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _FREEZE_PROBE, collector, str(PARTNER_LOG)], capture_output=True, text=True, check=False
    )
    probe: dict[str, object] = json.loads(done.stderr.splitlines()[-1])
    assert probe["exit"] == 0
    return probe


def test_a_command_s_module_is_imported_without_collecting_then_frozen() -> None:
    """Importing ``score`` makes tens of thousands of objects that live as long as the process: the
    collector does not walk them while they are made, nor after (they are frozen), and it is on again."""
    probe = _freeze_probe("on")
    assert isinstance(probe["frozen"], int)
    assert probe["frozen"] > 20_000
    assert probe["while_importing"] == []
    assert probe["enabled"] is True


def test_a_collector_that_was_off_stays_off_through_a_command() -> None:
    probe = _freeze_probe("off")
    assert probe["enabled"] is False
    assert probe["collections"] == []


NOT_BEFORE_THE_WORKERS = ("pydantic", "evalscore.cli.score_report", "rich")
NEVER_ON_THE_DICT_PATH = ("evalscore.models", "evalscore.coherence.enforce")
_FORK_PROBE = """
import json, os, sys
from evalscore.running import pipeline
pipeline.PARALLEL_MIN_BYTES = 0  # the example log is judged on forked workers
pipeline.RANGE_BYTES = 1  # a line per range
at_fork = []
os.register_at_fork(before=lambda: at_fork.append(sorted(sys.modules)))
from evalscore.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit as exit:
    code = exit.code
print(json.dumps({"exit": code, "at_fork": at_fork, "after": sorted(sys.modules)}), file=sys.stderr)
"""


@pytest.mark.parametrize("output_format", ["json", "text"])
def test_score_with_a_suite_starts_its_workers_before_it_loads_pydantic_and_the_models(output_format: str) -> None:
    """Workers that score checked dicts never need the models; what the report needs (pydantic, and
    rich for a text report) is imported while they work, not before they start, and no artifact
    model is ever built (issue 9: ``score`` on every core)."""
    suite = ROOT / "examples" / "partner-suite.yaml"
    args = ["score", str(PARTNER_LOG), "--suite", str(suite), "-j", "2", "--format", output_format]
    done = subprocess.run([sys.executable, "-c", _FORK_PROBE, *args], capture_output=True, text=True, check=False)
    probe = json.loads(done.stderr.splitlines()[-1])
    assert probe["exit"] in (0, 1)
    if output_format == "json":
        assert json.loads(done.stdout)["counts"]["total_steps"] == 8  # both runs of the log, scored
    else:
        assert done.stdout.startswith("2 input(s); 8 step(s)")
    assert len(probe["at_fork"]) == 2  # one fork per worker
    for modules in probe["at_fork"]:
        assert "evalscore.scoring.from_dicts.run" in modules  # the workers have the dict scorer
        assert [name for name in NOT_BEFORE_THE_WORKERS if name in modules] == []
    imported = [name for name in NOT_BEFORE_THE_WORKERS if name in probe["after"]]
    assert imported == list(NOT_BEFORE_THE_WORKERS if output_format == "text" else NOT_BEFORE_THE_WORKERS[:-1])
    assert [name for name in NEVER_ON_THE_DICT_PATH if name in probe["after"]] == []  # no artifact model is built


_DICT_WORKER_PROBE = """
import json, sys
from evalscore.inputs.documents import Document
from evalscore.inputs.yaml_loader import load_yaml
from evalscore.scoring.checked_runs import RunScorer
from evalscore.scoring.scored_runs import ScoredRuns, fold_runs
from evalscore.scoring.signals import SignalParams
suite = load_yaml(open(sys.argv[1], "rb").read())
runs = [json.loads(line) for line in open(sys.argv[2], "rb")]
scorer = RunScorer([suite], sys.argv[3], SignalParams(), 3)  # under v1: scored from the models
sent = fold_runs(scorer, [Document("log.jsonl", line, run) for line, run in enumerate(runs, 1)])
summed = [item.count for item in sent if isinstance(item, ScoredRuns)]
print(json.dumps({"summed": summed, "pydantic": "pydantic" in sys.modules}))
"""


@pytest.mark.parametrize(("model", "pydantic_loaded"), [("v3", False), ("v1", True)])
def test_a_worker_scores_checked_dicts_without_pydantic(model: str, pydantic_loaded: bool) -> None:
    """What a forked worker runs, in a fresh interpreter: scoring the dicts loads no model; runs
    re-derived under v1 are scored from their models, which loads them (the probe can tell)."""
    suite = ROOT / "examples" / "partner-suite.yaml"
    args = [str(suite), str(PARTNER_LOG), model]
    done = subprocess.run([sys.executable, "-c", _DICT_WORKER_PROBE, *args], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == {"summed": [2], "pydantic": pydantic_loaded}
