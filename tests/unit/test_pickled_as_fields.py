"""What a worker sends back pickles as field values, rebuilt by each class's constructor: the same
value arrives, and no dataclass state function (a ``BUILD`` opcode) runs for it on either side."""

from __future__ import annotations

import pickle
import pickletools
from dataclasses import dataclass, field, fields
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from evalscore.findings import Finding
from evalscore.inputs.documents import Document
from evalscore.inputs.strict_json import loads
from evalscore.pickled_as_fields import pickled_as_fields
from evalscore.scoring.aggregate import Aggregate
from evalscore.scoring.checked_runs import CheckedRun, RunOutcome, RunScorer
from evalscore.scoring.compare import Disagreement
from evalscore.scoring.partials import ModelRuns, Partial
from evalscore.scoring.refusal import TOOL_UNKNOWN, Refusal
from evalscore.scoring.signals import SignalParams, Signals
from evalscore.validation.checker import CheckedArtifact

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / "examples" / "partner-log.jsonl"
SUITE = ROOT / "examples" / "partner-suite.yaml"

SENT_BY_WORKERS = (CheckedRun, RunOutcome, CheckedArtifact, Finding, Partial, ModelRuns, Aggregate, Signals)
"""What a worker of ``score`` (or ``validate``) pickles for every line, and what those hold."""
LISTED_IN_A_PARTIAL = (Disagreement, Refusal)


def round_trip(value: Any) -> Any:
    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def built_by_state_functions(value: Any) -> int:
    """How many objects of the pickle are filled in by ``__setstate__`` (``BUILD``) after being made."""
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return sum(1 for opcode, _, _ in pickletools.genops(data) if opcode.name == "BUILD")


def scored_partner_log() -> list[CheckedRun]:
    scorer = RunScorer([yaml.safe_load(SUITE.read_text())], None, SignalParams(), 20)
    lines = LOG.read_bytes().splitlines()
    return [scorer(Document(str(LOG), number, loads(line))) for number, line in enumerate(lines, start=1)]


def test_a_scored_run_arrives_as_sent_and_no_part_of_it_is_built_by_state_functions() -> None:
    sent = scored_partner_log()
    assert len(sent) == 2
    assert all(isinstance(item.run, RunOutcome) and isinstance(item.run.outcome, Partial) for item in sent)
    assert round_trip(sent) == sent
    assert [built_by_state_functions(item) for item in sent] == [0, 0]
    partials = [item.run.outcome for item in sent if item.run is not None]
    assert sum(part.aggregate.total_steps for part in partials if isinstance(part, Partial)) == 8


def _refusal() -> Refusal:
    return Refusal(TOOL_UNKNOWN, "why", "/task_results/0", "runs.jsonl:3", "run-1", "t1", 2, 3)


def _disagreement() -> Disagreement:
    return Disagreement("tool_match", True, "partial", "/task_results/0/auto_score", "s", "r", "t", 1, "v2")


def test_listed_refusals_and_disagreements_arrive_as_sent_inside_a_partial() -> None:
    partial = Partial(
        aggregate=Aggregate(total_steps=4, refused_steps=3, asked=Fraction(7, 3)),
        signals=Signals(approvals=2, by_target_tool=(("refund", 2, 0),), approval_latency_bins=(1, 1)),
        disagreements=(_disagreement(),),
        unlisted_disagreements=5,
        refusals=(_refusal(),),
        unlisted_refusals=((TOOL_UNKNOWN, 2, 6),),
        recorded_models=(ModelRuns("v2", 3, ("a.jsonl:1", "a.jsonl:2")),),
        suites=frozenset({("suite", "1.0.0")}),
    )
    finding = Finding("coherence", "ES101", "warning", "/run_id", "message", "runs.jsonl", 7, 12)
    sent = CheckedRun(CheckedArtifact("runs.jsonl", 7, "run", (finding,), None, True), RunOutcome("s", "r", 4, partial))
    assert round_trip(sent) == sent
    assert built_by_state_functions(sent) == 0
    assert built_by_state_functions([_refusal(), _disagreement()]) == 0


@pytest.mark.parametrize("cls", SENT_BY_WORKERS + LISTED_IN_A_PARTIAL, ids=lambda cls: cls.__name__)
def test_every_class_a_worker_sends_pickles_as_its_fields_in_declared_order(cls: type[Any]) -> None:
    names = [declared.name for declared in fields(cls)]
    assert len(names) >= 2
    value = object.__new__(cls)
    for position, name in enumerate(names):
        object.__setattr__(value, name, f"field {position}")
    rebuilt_by, values = value.__reduce__()
    assert rebuilt_by is cls
    assert values == tuple(f"field {position}" for position in range(len(names)))


def test_a_class_pickles_as_its_class_and_a_tuple_of_its_values_one_field_or_more() -> None:
    @pickled_as_fields
    @dataclass(frozen=True, slots=True)
    class One:
        only: int

    @pickled_as_fields
    @dataclass(frozen=True, slots=True)
    class Three:
        first: int
        second: str
        third: tuple[int, ...] = ()

    assert One(4).__reduce__() == (One, (4,))
    assert Three(1, "b", (3,)).__reduce__() == (Three, (1, "b", (3,)))


def test_a_field_left_out_of_init_is_refused_when_the_class_is_decorated() -> None:
    @dataclass(frozen=True)
    class Derived:
        given: int
        made: int = field(init=False, default=0)
        also: int = field(init=False, default=1)

    @dataclass(frozen=True)
    class Keyword:
        given: int
        named: int = field(kw_only=True, default=0)

    with pytest.raises(TypeError, match="fields: made, also not positional in __init__"):
        pickled_as_fields(Derived)
    with pytest.raises(TypeError, match="fields: named not positional in __init__"):
        pickled_as_fields(Keyword)


def test_a_class_that_already_says_how_it_pickles_is_refused() -> None:
    @dataclass(frozen=True)
    class Custom:
        given: int

        def __reduce__(self) -> tuple[Any, ...]:
            return (Custom, (self.given,))

    with pytest.raises(TypeError, match="already says how it pickles"):
        pickled_as_fields(Custom)
