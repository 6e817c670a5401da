"""The dict scorer gives the model path's partial (``==`` and ``repr``) on generated runs, perturbed:
recorded scores written in from the evidence and then changed, fields left to their defaults or
written as integral floats, suites with a task missing, another version, an ambiguous twin, a
toolbox or a gated tool's look-alike, orderings not captured, scored runs, any signal parameters."""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

from _budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from evalscore.inputs.documents import Document
from evalscore.models.run import RunOf
from evalscore.scoring.join import JoinedStep, index_suites, join_run
from evalscore.scoring.rederive import Rederived, rederive_step
from evalscore.scoring.signals import SignalParams
from evalscore.validation.checker import check_guarded
from module_files import load_module

TESTS = Path(__file__).resolve().parents[1]
B = load_module("scoring.builders", TESTS / "unit" / "scoring" / "builders.py")
AGREEMENT = load_module("scoring.dict_agreement", TESTS / "unit" / "scoring" / "dict_agreement.py")
GENERATED: ModuleType = load_module("test_scorer_properties", TESTS / "properties" / "test_scorer_properties.py")
SUITE = GENERATED.SUITE


def variant(
    *, version: str = "1.0.0", drop_task: str | None = None, toolbox: bool = False, look_alike: bool = False
) -> Any:
    document = SUITE.model_dump(mode="json")
    body = document["suite"]
    body["version"] = version
    body["tasks"] = [task for task in body["tasks"] if task["id"] != drop_task]
    if toolbox:
        body["toolbox"] = [{"name": tool} for tool in ("refund", "delete", "lookup")]  # "search" is not in it
    if look_alike:
        body["tasks"][0]["mandated_gates"][0]["before_tools"].append("REFUND")
    return type(SUITE).model_validate(document)


TWIN = variant()
object.__setattr__(TWIN.suite, "description", "the same key, other content")
BOTH_VERSIONS = [SUITE, variant(version="0.9.0")]
SUITE_CHOICES = (
    *[BOTH_VERSIONS] * 5,  # most runs join their suite, so that their steps are re-derived and compared
    [SUITE],
    [SUITE, TWIN],
    [variant(drop_task="free")],
    [variant(toolbox=True)],
    [variant(look_alike=True)],
    [B.suite(suite_id="other")],
)
MODELS = (None, None, "v2", "v3", "v1")


def place_of(pointer: str) -> tuple[int, int]:
    task_index, step_index = (int(token) for token in pointer.split("/")[2::2])
    return task_index, step_index


def rederived_scores(doc: dict[str, Any], model: str) -> dict[tuple[int, int], dict[str, Any]]:
    """Each joined step's auto score re-derived from the evidence under ``model`` (against ``SUITE``)."""
    checked = check_guarded(Document("run.json", None, doc), None, True)
    if not isinstance(checked.model, RunOf):
        return {}
    found = {}
    for item in join_run(checked.model, "run.json", index_suites([SUITE, variant(version="0.9.0")])):
        if isinstance(item, JoinedStep):
            outcome = rederive_step(item.task, item.step, item.result, model, item.place)  # type: ignore[arg-type]
            if isinstance(outcome, Rederived):
                found[place_of(item.place.pointer)] = outcome.auto_score.model_dump(mode="json")
    return found


def perturb_score(score: dict[str, Any], how: int) -> None:
    """One change to a recorded auto score, most of them within what the check accepts."""
    gates = score["gates"]
    mandated, discretionary = gates["mandated"], gates["discretionary"]
    if how == 1:
        score["tool_match"] = score["tool_match"] is not True
    elif how == 2:
        score["distraction_caught"] = None if score["distraction_caught"] is not None else True
    elif how == 3:
        score["distraction_acted"] = score["distraction_acted"] is not True
    elif how == 4:
        score.pop("gates")
    elif how == 5:
        gates["mandated"] = None if mandated is not None else {"required": [], "honored": [], "violated": []}
    elif how == 6:
        gates["discretionary"] = (
            None if discretionary is not None else {"blockers": 1, "asked": 0, "matched": 0, "unprompted": 0}
        )
    elif how == 7 and mandated is not None:
        mandated.pop("pairings", None)
        mandated["required"].reverse()
    elif how == 8 and mandated is not None:
        for pairing in mandated.get("pairings", []):
            pairing["callIndex"] = float(pairing["callIndex"])
    elif how == 9 and discretionary is not None:
        discretionary["asked"] += 1
        discretionary["blockers"] = float(discretionary["blockers"]) + 0.5
    elif how == 10 and discretionary is not None:
        discretionary.pop("addressed", None)
    elif how == 11 and discretionary is not None and "addressed" in discretionary:
        discretionary["addressed"] = max(0, discretionary["addressed"] - 1)
    elif how == 12 and mandated is not None and mandated["honored"]:
        mandated["violated"].append(mandated["honored"].pop())
        mandated["pairings"].pop()
    elif how == 13 and mandated is not None:
        mandated["required"].append("g-extra")
        mandated["violated"].append("g-extra")
    elif how == 14 and discretionary is not None and discretionary["matched"]:
        discretionary["matched"] -= 1
    for key in ("distraction_acted", "verification"):
        if score.get(key) is None and how % 2:
            score.pop(key, None)


@st.composite
def perturbed_run(draw: st.DrawFn, run_id: str) -> tuple[dict[str, Any], str | None]:
    """A generated run and the model ``score`` is asked to re-derive under, mostly the run's own."""
    doc, _ = draw(GENERATED.run_doc(run_id))
    model = draw(st.sampled_from(MODELS))
    if draw(st.integers(0, 7)):
        doc["scoring_model"] = model or "v3"
    if draw(st.integers(0, 3)):
        own = doc["scoring_model"] if doc["scoring_model"] != "v1" else "v3"
        scores = rederived_scores(doc, own)
        for (task_index, step_index), score in scores.items():
            if draw(st.integers(0, 3)):
                perturb_score(score, draw(st.integers(0, 14)))
                doc["task_results"][task_index]["step_results"][step_index]["auto_score"] = score
    for task in doc["task_results"]:
        for step in task["step_results"]:
            if draw(st.integers(0, 4)) == 0:
                step["step_n"] = float(step["step_n"])
            if not step["gate_events"] and draw(st.booleans()):
                del step["gate_events"]
            for event in step.get("gate_events", []):
                if isinstance(event.get("task_calls_before"), int) and draw(st.integers(0, 4)) == 0:
                    event["task_calls_before"] = float(event["task_calls_before"])
            review = step.get("score")
            if review is not None and draw(st.integers(0, 3)) == 0:
                review.pop("pre_filled")
                review["dimensions"] = {name: float(grade) for name, grade in review["dimensions"].items()}
    if doc["scoring_model"] == "v1" and draw(st.booleans()):
        del doc["scoring_model"]
    return doc, model


PARAMS = st.builds(SignalParams, st.floats(0, 5000), st.floats(0, 40)) | st.just(SignalParams())
TALLY: Counter[str] = Counter()
"""What the property met, across its examples: valid runs, and how many the dict path scored."""


GENERATED_RUNS = (st.lists(perturbed_run("run-1"), min_size=1, max_size=3), st.sampled_from(SUITE_CHOICES), PARAMS)


def check_and_tally(runs: list[tuple[dict[str, Any], str | None]], suites: list[Any], params: SignalParams) -> None:
    for doc, model in runs:
        taken = AGREEMENT.agrees(copy.deepcopy(doc), suites, model, params)
        TALLY["documents"] += 1
        TALLY["valid"] += taken is not None
        TALLY["dict"] += taken is True


@settings(max_examples=examples(40))
@given(*GENERATED_RUNS)
def test_the_dict_scorer_gives_the_model_path_s_partial_on_generated_runs(
    runs: list[tuple[dict[str, Any], str | None]], suites: list[Any], params: SignalParams
) -> None:
    check_and_tally(runs, suites, params)


def test_generated_runs_are_mostly_valid_and_often_scored_from_their_dict() -> None:
    """A tally of what the generator gives, drawn the same way on every run: random draws put the dict
    path's share of valid runs near half (0.46 and 0.49 seen), so a floor of half failed by luck."""
    TALLY.clear()

    @settings(max_examples=examples(40), derandomize=True, database=None)
    @given(*GENERATED_RUNS)
    def tallied(runs: list[tuple[dict[str, Any], str | None]], suites: list[Any], params: SignalParams) -> None:
        check_and_tally(runs, suites, params)

    tallied()
    assert TALLY["documents"] >= 40
    assert TALLY["valid"] >= 0.6 * TALLY["documents"]
    assert TALLY["dict"] >= 0.4 * TALLY["valid"]
    assert TALLY["dict"] < TALLY["valid"]  # and some went to the models
