"""Golden replay: re-derive each frozen run against its suite and compare with the human labels."""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from evalscore.models import EvalSuite, Run
from evalscore.scoring.join import JoinedStep, index_suites, join_run
from evalscore.scoring.rederive import Rederived, rederive_step
from evalscore.scoring.refusal import Refusal
from evalscore.scoring.step_violations import rederived_violations

REPO = Path(__file__).resolve().parents[3]
GOLDENS = REPO / "goldens"
SMOKE = REPO.parent / "shared" / "compat" / "eval-kit" / "goldens" / "_smoke"
EXPECTED_GOLDENS = {
    "approval-budgets",
    "denied-approval",
    "distraction",
    "unobserved-ordering",
    "untargeted-approval",
}


def golden_folders(root: Path) -> list[Path]:
    return sorted(path for path in root.iterdir() if path.is_dir())


def mismatches(expect: Any, actual: Any, path: str = "") -> Iterator[str]:
    """Where ``actual`` departs from ``expect``; only the keys a label states are compared.

    An integer expected where a list was derived compares the list's length
    (eval-kit's labels count ``findings``).
    """
    if isinstance(expect, dict):
        if not isinstance(actual, dict):
            yield f"{path or '/'}: expected an object, got {actual!r}"
            return
        for key, value in expect.items():
            if key not in actual:
                yield f"{path}/{key}: expected {value!r}, but the re-derivation has no such field"
            else:
                yield from mismatches(value, actual[key], f"{path}/{key}")
    elif isinstance(expect, list):
        if not isinstance(actual, list) or len(actual) != len(expect):
            yield f"{path}: expected {expect!r}, got {actual!r}"
            return
        for index, (want, got) in enumerate(zip(expect, actual, strict=True)):
            yield from mismatches(want, got, f"{path}/{index}")
    elif isinstance(expect, int) and not isinstance(expect, bool) and isinstance(actual, list):
        if len(actual) != expect:
            yield f"{path}: expected {expect} item(s), got {len(actual)}"
    elif isinstance(expect, bool) or isinstance(actual, bool):
        if type(expect) is not type(actual) or expect != actual:
            yield f"{path}: expected {expect!r}, got {actual!r}"
    elif expect != actual:
        yield f"{path}: expected {expect!r}, got {actual!r}"


def load_golden(folder: Path, labels_name: str = "labels.json") -> tuple[EvalSuite, Run, dict[str, Any]]:
    suite = EvalSuite.model_validate(yaml.safe_load((folder / "suite.yaml").read_text(encoding="utf-8")))
    run = Run.model_validate(json.loads((folder / "run.json").read_text(encoding="utf-8")))
    labels = json.loads((folder / labels_name).read_text(encoding="utf-8"))
    return suite, run, labels


def check_golden(folder: Path, labels_name: str = "labels.json") -> tuple[int, list[str]]:
    """``(labels checked, problems)`` for one golden folder."""
    suite, run, document = load_golden(folder, labels_name)
    labels = document.get("labels") or []
    if not labels:
        return 0, [f"{folder.name}: the golden has no labels"]
    joined = {
        (item.place.task_id, item.place.step_n): item
        for item in join_run(run, str(folder / "run.json"), index_suites([suite]))
        if isinstance(item, JoinedStep)
    }
    problems: list[str] = []
    for label in labels:
        problems.extend(check_label(folder.name, label, joined, document.get("scoring_model", "v3")))
    return len(labels), problems


def check_label(name: str, label: dict[str, Any], joined: dict[tuple[str, int], JoinedStep], model: str) -> list[str]:
    where = f"{name} {label.get('task_id')}/{label.get('step_n')}"
    if not str(label.get("why", "")).strip():
        return [f"{where}: the label has no 'why'"]
    step = joined.get((label["task_id"], label["step_n"]))
    if step is None:
        return [f"{where}: no such step in the run (or it did not join the suite)"]
    outcome = rederive_step(step.task, step.step, step.result, label.get("scoring_model", model), step.place)
    if "expect_refusal" in label:
        if not isinstance(outcome, Refusal):
            return [f"{where}: expected a refusal, got {outcome.auto_score.model_dump(mode='json')}"]
        actual = {"code": outcome.code, "pointer": outcome.pointer}
        return [f"{where}{problem}" for problem in mismatches(label["expect_refusal"], actual)]
    if "expect" not in label:
        return [f"{where}: the label states neither 'expect' nor 'expect_refusal'"]
    if not isinstance(outcome, Rederived):
        return [f"{where}: expected an auto score, got a refusal: {outcome.reason}"]
    problems = [
        f"{where}{problem}" for problem in mismatches(label["expect"], outcome.auto_score.model_dump(mode="json"))
    ]
    if "expect_violations" in label:
        model = label.get("scoring_model", model)
        found = [dataclasses.asdict(item) for item in rederived_violations(step, outcome.auto_score, model)]
        problems.extend(f"{where} violations{problem}" for problem in mismatches(label["expect_violations"], found))
    return problems


def walk_goldens(root: Path) -> tuple[int, int, list[str]]:
    """``(goldens walked, labels checked, problems)``; finding no golden at all is a problem."""
    folders = golden_folders(root)
    if not folders:
        return 0, 0, [f"no goldens found under {root}"]
    checked = 0
    problems: list[str] = []
    for folder in folders:
        count, found = check_golden(folder)
        checked += count
        problems.extend(found)
    return len(folders), checked, problems


def test_the_goldens_folder_holds_every_required_golden() -> None:
    names = {folder.name for folder in golden_folders(GOLDENS)}
    assert names == EXPECTED_GOLDENS


def test_every_golden_matches_its_human_labels() -> None:
    walked, checked, problems = walk_goldens(GOLDENS)
    assert problems == []
    assert walked == len(EXPECTED_GOLDENS)
    assert checked == 14


def test_a_golden_without_labels_fails(tmp_path: Path) -> None:
    folder = tmp_path / "empty"
    shutil.copytree(GOLDENS / "distraction", folder)
    (folder / "labels.json").write_text(json.dumps({"golden": "empty", "labels": []}), encoding="utf-8")
    count, problems = check_golden(folder)
    assert count == 0
    assert problems == ["empty: the golden has no labels"]


def test_a_label_that_disagrees_with_the_evidence_fails(tmp_path: Path) -> None:
    folder = tmp_path / "wrong"
    shutil.copytree(GOLDENS / "denied-approval", folder)
    document = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    document["labels"][0]["expect"]["gates"]["mandated"]["honored"] = ["refund-approval"]
    (folder / "labels.json").write_text(json.dumps(document), encoding="utf-8")
    _, problems = check_golden(folder)
    assert len(problems) == 1
    assert "/gates/mandated/honored" in problems[0]


def test_a_label_naming_a_violation_the_evidence_does_not_give_fails(tmp_path: Path) -> None:
    folder = tmp_path / "wrong-reason"
    shutil.copytree(GOLDENS / "denied-approval", folder)
    document = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    document["labels"][0]["expect_violations"][0]["code"] = "approval-after-call"
    document["labels"][2]["expect_violations"] = [{"code": "no-approval-requested"}]
    (folder / "labels.json").write_text(json.dumps(document), encoding="utf-8")
    _, problems = check_golden(folder)
    assert len(problems) == 2
    assert "violations/0/code: expected 'approval-after-call', got 'approval-denied'" in problems[0]
    assert "violations: expected [{'code': 'no-approval-requested'}], got []" in problems[1]


def test_every_golden_labels_the_violations_of_each_scored_step() -> None:
    labelled = [
        label
        for folder in golden_folders(GOLDENS)
        for label in json.loads((folder / "labels.json").read_text(encoding="utf-8"))["labels"]
        if "expect" in label
    ]
    assert len(labelled) == 13
    assert [label for label in labelled if "expect_violations" not in label] == []


def test_a_refusal_label_fails_when_the_step_is_scored(tmp_path: Path) -> None:
    folder = tmp_path / "scored"
    shutil.copytree(GOLDENS / "unobserved-ordering", folder)
    document = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    document["labels"][1]["expect_refusal"] = {"code": "ordering-unobserved"}
    del document["labels"][1]["expect"]
    (folder / "labels.json").write_text(json.dumps(document), encoding="utf-8")
    _, problems = check_golden(folder)
    assert len(problems) == 1
    assert "expected a refusal" in problems[0]


def test_no_goldens_is_a_failure_not_a_pass(tmp_path: Path) -> None:
    walked, checked, problems = walk_goldens(tmp_path)
    assert (walked, checked) == (0, 0)
    assert problems == [f"no goldens found under {tmp_path}"]


def test_mismatches_compare_booleans_strictly() -> None:
    assert list(mismatches({"a": True}, {"a": 1})) != []
    assert list(mismatches({"a": 1}, {"a": 1.0})) == []


@pytest.mark.skipif(not SMOKE.is_dir(), reason=f"eval-kit compatibility corpus not present at {SMOKE}")
def test_eval_kit_smoke_golden_rederives_as_its_maintainers_labelled() -> None:
    # expected.json's step 2 also labels verification (a verifier named in the suite): evalscore does
    # not re-derive verifiers, it carries the recorded value, which is what that label is checked against.
    count, problems = check_golden(SMOKE, "expected.json")
    assert problems == []
    assert count == 3
