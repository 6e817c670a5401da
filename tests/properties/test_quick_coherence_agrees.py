"""The quick test of a run (``is_plainly_coherent``) says "nothing to find" exactly when the walk finds nothing.

``validate`` skips the walk when the quick test says a run is plainly coherent, so a quick test
that says so of a run with a finding would hide that finding. Each rule is tried at its boundary
(the last value it allows, the first it refuses), then on every committed run fixture and on
generated runs; in every case the walk's own answer is asserted too, so no expectation here is
one the quick test merely agrees with itself about.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import jsonschema_rs
import pytest
from _budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from evalscore.coherence import coherence_findings
from evalscore.coherence.walk_quick import is_plainly_coherent
from evalscore.validation.contract_layer import fast_validator
from evalscore.validation.kinds import detect_kind

ROOT: Final = Path(__file__).resolve().parents[2]
OPENED: Final = "2026-03-01T09:00:00Z"


def walk_is_silent(document: dict[str, Any]) -> bool:
    kind = detect_kind(document)
    assert kind in ("run", "scored-run")
    return not list(coherence_findings(kind, document))


def contract_valid(document: dict[str, Any]) -> bool:
    kind = detect_kind(document)
    assert kind in ("run", "scored-run")
    validator: jsonschema_rs.Validator = fast_validator(kind)
    return bool(validator.is_valid(document))


def gate(**fields: Any) -> dict[str, Any]:
    event: dict[str, Any] = {
        "kind": "approval_request",
        "reason": "policy",
        "surfaced": "Refund?",
        "target_tool": "refund",
        "resolution": "approved",
    }
    event.update(fields)
    return event


def step(
    calls: int = 2, events: list[dict[str, Any]] | None = None, auto_score: Any = None, **extra: Any
) -> dict[str, Any]:
    result: dict[str, Any] = {
        "step_n": 1,
        "agent_tool_calls": [{"tool": f"tool{i}"} for i in range(calls)],
        "agent_final_output": "Done.",
        "latency_ms": 1,
        "auto_score": auto_score,
    }
    if events is not None:
        result["gate_events"] = events
    result.update(extra)
    return result


def auto(mandated: Any = None, discretionary: Any = None) -> dict[str, Any]:
    return {
        "tool_match": True,
        "distraction_caught": None,
        "gates": {"mandated": mandated, "discretionary": discretionary},
    }


def mandated(required: list[str], honored: list[str], violated: list[str], **extra: Any) -> dict[str, Any]:
    return {"required": required, "honored": honored, "violated": violated, **extra}


def discretionary(
    blockers: int = 2, asked: int = 2, matched: int = 1, unprompted: int = 0, **extra: Any
) -> dict[str, Any]:
    return {"blockers": blockers, "asked": asked, "matched": matched, "unprompted": unprompted, **extra}


def review(step_n: int = 1, reviewed_at: str = OPENED) -> dict[str, Any]:
    return {
        "step_n": step_n,
        "tool_match": True,
        "golden_truth": 2,
        "distraction_caught": None,
        "reviewer_id": "rev",
        "reviewed_at": reviewed_at,
    }


def run(*steps: dict[str, Any], tasks: int = 1, **fields: Any) -> dict[str, Any]:
    document: dict[str, Any] = {
        "suite_id": "s",
        "suite_version": "1",
        "run_id": "r",
        "started_at": OPENED,
        "ended_at": "2026-03-01T10:00:00Z",
        "adapter": {"name": "a", "model": "m"},
        "task_results": [{"task_id": f"t{i}", "step_results": list(steps) or [step()]} for i in range(tasks)],
    }
    document.update(fields)
    return document


def timed(resolved_at: str, latency: float | None = None, **fields: Any) -> dict[str, Any]:
    extra = {} if latency is None else {"decision_latency_ms": latency}
    return run(step(events=[gate(opened_at=OPENED, resolved_at=resolved_at, **extra, **fields)]))


def pairing(call_index: int, approval_index: int) -> dict[str, Any]:
    return {"callIndex": call_index, "approvalIndex": approval_index, "gateId": "g"}


def paired(*pairings: dict[str, Any], kinds: tuple[str, ...] = ("approval_request",)) -> dict[str, Any]:
    events = [gate(kind=kind, task_calls_before=0) for kind in kinds]
    score = mandated(["g"], ["g"], [], pairings=list(pairings))
    return run(step(calls=2, events=events, auto_score=auto(mandated=score)))


def two_steps(first_n: int, second_n: int) -> dict[str, Any]:
    return run(step(step_n=first_n), step(step_n=second_n))


# (name, document, whether the walk finds nothing): both sides of every rule's boundary.
CASES: Final[list[tuple[str, dict[str, Any], bool]]] = [
    ("a plain run", run(), True),
    ("a run of several tasks with distinct ids", run(tasks=3), True),
    ("schema_version 1.x", run(schema_version="1.4.0"), True),
    ("schema_version 2.x (ES202)", run(schema_version="2.0.0"), False),
    ("schema_version 10.x (ES202)", run(schema_version="10.0.0"), False),
    ("started_at equal to ended_at", run(ended_at=OPENED), True),
    ("started_at a microsecond after ended_at (ES134)", run(started_at="2026-03-01T10:00:00.000001Z"), False),
    ("started_at with an offset, same instant as ended_at", run(started_at="2026-03-01T11:00:00+01:00"), True),
    ("started_at without an offset (ES201)", run(started_at="2026-03-01T09:00:00"), False),
    ("ended_at without an offset (ES201)", run(ended_at="2026-03-01T09:00:00"), False),
    ("started_at on a day that does not exist (ES201)", run(started_at="2026-02-30T09:00:00Z"), False),
    ("ended_at on a day that does not exist (ES201)", run(ended_at="2026-02-30T09:00:00Z"), False),
    ("a repeated task id (ES131)", {**run(), "task_results": [run()["task_results"][0]] * 2}, False),
    ("distinct step numbers", two_steps(1, 2), True),
    ("a repeated step number (ES132)", two_steps(2, 2), False),
    ("a gate resolved when opened", timed(OPENED), True),
    ("a gate resolved a microsecond before it opened (ES102)", timed("2026-03-01T08:59:59.999999Z"), False),
    ("a latency 1000 ms above the elapsed time", timed("2026-03-01T09:00:00Z", 1000), True),
    ("a latency just over 1000 ms above (ES101)", timed("2026-03-01T09:00:00Z", 1000.001), False),
    ("a latency 1000 ms below the elapsed time", timed("2026-03-01T09:00:01Z", 0), True),
    ("a latency just over 1000 ms below (ES101)", timed("2026-03-01T09:00:01.000001Z", 0), False),
    ("a latency larger than any float (ES101)", timed("2026-03-01T09:00:01Z", 10**400), False),
    ("a latency without its timestamps", run(step(events=[gate(decision_latency_ms=5)])), True),
    ("only opened_at", run(step(events=[gate(opened_at=OPENED)])), True),
    ("only resolved_at", run(step(events=[gate(resolved_at=OPENED)])), True),
    ("a lower-case t and z", timed("2026-03-01t09:00:01z", 1000), True),
    ("a leap second at 23:59 UTC", run(step(events=[gate(opened_at="2016-12-31T23:59:60Z")])), True),
    ("a leap second at another minute (ES104)", run(step(events=[gate(opened_at="2016-12-31T22:59:60Z")])), False),
    ("opened_at on February 30th (ES104)", run(step(events=[gate(opened_at="2026-02-30T09:00:00Z")])), False),
    ("resolved_at on February 30th (ES104)", run(step(events=[gate(resolved_at="2026-02-30T09:00:00Z")])), False),
    ("an unresolved gate with no decision", run(step(events=[gate(resolution="unresolved", opened_at=OPENED)])), True),
    (
        "an unresolved gate with a resolved_at (ES103)",
        run(step(events=[gate(resolution="unresolved", resolved_at=OPENED)])),
        False,
    ),
    (
        "an unresolved gate with a latency (ES103)",
        run(step(events=[gate(resolution="unresolved", decision_latency_ms=0)])),
        False,
    ),
    (
        "a latency at its upper bound",
        run(step(events=[gate(decision_latency_ms=5, decision_latency_upper_bound_ms=5)])),
        True,
    ),
    (
        "a latency above its upper bound (ES105)",
        run(step(events=[gate(decision_latency_ms=5.5, decision_latency_upper_bound_ms=5)])),
        False,
    ),
    ("timestamps as far apart as the bound", timed("2026-03-01T09:00:01Z", decision_latency_upper_bound_ms=1000), True),
    (
        "timestamps further apart than the bound (ES105)",
        timed("2026-03-01T09:00:01.000001Z", decision_latency_upper_bound_ms=1000),
        False,
    ),
    ("an upper bound alone", run(step(events=[gate(decision_latency_upper_bound_ms=10**400)])), True),
    (
        "an unresolved gate with an upper bound (ES103)",
        run(step(events=[gate(resolution="unresolved", decision_latency_upper_bound_ms=0)])),
        False,
    ),
    ("task_calls_before equal to the calls", run(step(calls=2, events=[gate(task_calls_before=2)])), True),
    ("task_calls_before above the calls (ES111)", run(step(calls=2, events=[gate(task_calls_before=3)])), False),
    (
        "task_calls_before repeated",
        run(step(events=[gate(task_calls_before=1), gate(task_calls_before=1)])),
        True,
    ),
    (
        "task_calls_before falling (ES112)",
        run(step(events=[gate(task_calls_before=1), gate(task_calls_before=0)])),
        False,
    ),
    (
        "task_calls_before falling across an unknown one (ES112)",
        run(step(events=[gate(task_calls_before=1), gate(task_calls_before=None), gate(task_calls_before=0)])),
        False,
    ),
    (
        "task_calls_before unknown before a lower one",
        run(step(events=[gate(task_calls_before=None), gate(task_calls_before=0)])),
        True,
    ),
    (
        "honored and violated in the order of required",
        run(step(auto_score=auto(mandated(["a", "b"], ["a"], ["b"])))),
        True,
    ),
    ("honored and violated in another order", run(step(auto_score=auto(mandated(["a", "b"], ["b"], ["a"])))), True),
    ("a required gate unaccounted for (ES121)", run(step(auto_score=auto(mandated(["a", "b"], ["a"], [])))), False),
    ("a gate honored twice, required once (ES121)", run(step(auto_score=auto(mandated(["a"], ["a", "a"], [])))), False),
    ("a gate of another id (ES121)", run(step(auto_score=auto(mandated(["a"], ["b"], [])))), False),
    ("pairings in range", paired(pairing(1, 0)), True),
    ("a pairing's call index at the calls (ES122)", paired(pairing(2, 0)), False),
    ("a pairing's approval index at the events (ES122)", paired(pairing(0, 1)), False),
    ("a pairing pointing at a question (ES123)", paired(pairing(0, 1), kinds=("approval_request", "question")), False),
    ("a pairing pointing at a later approval", paired(pairing(0, 1), kinds=("question", "approval_request")), True),
    ("matched equal to asked", run(step(auto_score=auto(discretionary=discretionary(matched=2)))), True),
    ("matched above asked (ES124)", run(step(auto_score=auto(discretionary=discretionary(matched=3)))), False),
    ("unprompted equal to asked", run(step(auto_score=auto(discretionary=discretionary(unprompted=2)))), True),
    ("unprompted above asked (ES125)", run(step(auto_score=auto(discretionary=discretionary(unprompted=3)))), False),
    ("addressed equal to blockers", run(step(auto_score=auto(discretionary=discretionary(addressed=2)))), True),
    ("addressed above blockers (ES126)", run(step(auto_score=auto(discretionary=discretionary(addressed=3)))), False),
    ("an auto score with no gates", run(step(auto_score={"tool_match": True, "distraction_caught": None})), True),
    ("a review of the same step", run(step(score=review())), True),
    ("a review of another step (ES133)", run(step(score=review(step_n=2))), False),
    ("a review time without an offset (ES201)", run(step(score=review(reviewed_at="2026-03-01T09:00:00"))), False),
    (
        "a review time on a day that does not exist (ES201)",
        run(step(score=review(reviewed_at="2026-02-30T09:00:00Z"))),
        False,
    ),
    ("a step not reviewed", run(step(score=None), step(step_n=2, score=review(step_n=2))), True),
    (
        "a finding in the last step only (ES111)",
        run(step(), step(step_n=2, calls=0, events=[gate(task_calls_before=1)])),
        False,
    ),
]


@pytest.mark.parametrize(("name", "document", "silent"), CASES, ids=[name for name, _, _ in CASES])
def test_the_quick_test_says_nothing_to_find_exactly_when_the_walk_finds_nothing(
    name: str, document: dict[str, Any], silent: bool
) -> None:
    assert contract_valid(document), name
    assert walk_is_silent(document) is silent, name
    assert is_plainly_coherent(document) is silent, name


def test_the_cases_cover_both_answers_and_every_run_rule() -> None:
    assert len(CASES) == 68
    assert sum(silent for _, _, silent in CASES) == 31
    codes = {
        code
        for _, document, _ in CASES
        for code in (f.code for f in coherence_findings(detect_kind(document) or "", document))
    }
    assert codes == {
        "ES101", "ES102", "ES103", "ES104", "ES105", "ES111", "ES112", "ES121", "ES122", "ES123", "ES124", "ES125",
        "ES126", "ES131", "ES132", "ES133", "ES134", "ES201", "ES202",
    }  # fmt: skip


def _fixture_runs() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for folder in ("valid", "invalid"):
        for kind in ("run", "scored-run"):
            for path in sorted((ROOT / "fixtures" / folder / kind).glob("*.json")):
                try:
                    document = json.loads(path.read_text(encoding="utf-8"))
                except ValueError:
                    continue  # a syntax fixture: never reaches the coherence layer
                if isinstance(document, dict) and detect_kind(document) in ("run", "scored-run"):
                    found.append((f"{folder}/{kind}/{path.name}", document))
    return found


def test_on_every_committed_run_fixture_the_quick_test_and_the_walk_agree() -> None:
    checked = silent = 0
    for name, document in _fixture_runs():
        if not contract_valid(document):
            continue
        checked += 1
        silent += walk_is_silent(document)
        assert is_plainly_coherent(document) is walk_is_silent(document), name
    assert checked >= 25
    assert silent >= 4
    assert checked - silent >= 20


# --- generated runs ---------------------------------------------------------------------------

TIMES: Final = (
    "2026-03-01T09:00:00Z",
    "2026-03-01T09:00:00.999Z",
    "2026-03-01T09:00:01Z",
    "2026-03-01T10:00:01+01:00",
    "2026-03-01t09:00:02z",
    "2016-12-31T23:59:60Z",
    "2016-12-31T23:59:60+01:00",
    "2026-02-30T09:00:00Z",
)
FREE_TIMES: Final = (*TIMES, "2026-03-01T09:00:00", "yesterday")
LATENCIES: Final = (0, 999.5, 1000, 1000.5, 2000, 2001, 10**400)
COUNTS: Final = st.integers(0, 3)


@st.composite
def gate_events(draw: Callable[..., Any]) -> dict[str, Any]:
    event = gate(
        kind=draw(st.sampled_from(["approval_request", "question"])),
        resolution=draw(st.sampled_from(["approved", "denied", "answered", "unresolved"])),
        task_calls_before=draw(st.none() | COUNTS),
    )
    for field, values in (("opened_at", TIMES), ("resolved_at", TIMES), ("decision_latency_ms", LATENCIES)):
        if draw(st.booleans()):
            event[field] = draw(st.sampled_from(values))
    return event


@st.composite
def auto_scores(draw: Callable[..., Any], events: int) -> dict[str, Any] | None:
    if draw(st.booleans()):
        return None
    ids = st.lists(st.sampled_from(["a", "b"]), max_size=2)
    score = mandated(draw(ids), draw(ids), draw(ids))
    if draw(st.booleans()):
        score["pairings"] = draw(st.lists(st.builds(pairing, COUNTS, st.integers(0, events + 1)), max_size=2))
    asked = discretionary(draw(COUNTS), draw(COUNTS), draw(COUNTS), draw(COUNTS))
    if draw(st.booleans()):
        asked["addressed"] = draw(COUNTS)
    return auto(draw(st.none() | st.just(score)), draw(st.none() | st.just(asked)))


@st.composite
def steps(draw: Callable[..., Any], step_n: int, scored: bool) -> dict[str, Any]:
    """A step; in a scored run every step carries ``score`` (null: not reviewed)."""
    events = draw(st.lists(gate_events(), max_size=3))
    result = step(calls=draw(COUNTS), events=events, auto_score=draw(auto_scores(len(events))), step_n=step_n)
    if scored:
        result["score"] = draw(
            st.none() | st.builds(review, st.sampled_from([step_n, step_n + 1]), st.sampled_from(FREE_TIMES))
        )
    return result


@st.composite
def runs(draw: Callable[..., Any]) -> dict[str, Any]:
    numbers = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    scored = draw(st.booleans())
    tasks = [
        {"task_id": draw(st.sampled_from(["t1", "t2"])), "step_results": [draw(steps(n, scored)) for n in numbers]}
        for _ in range(draw(st.integers(1, 2)))
    ]
    document = run(
        schema_version=draw(st.sampled_from(["1.0.0", "1.2.3", "2.0.0"])),
        started_at=draw(st.sampled_from(FREE_TIMES)),
        ended_at=draw(st.sampled_from(FREE_TIMES)),
    )
    document["task_results"] = tasks
    return document


@settings(max_examples=examples(50))
@given(runs())
def test_on_generated_runs_the_quick_test_and_the_walk_agree(document: dict[str, Any]) -> None:
    assert contract_valid(document)
    assert is_plainly_coherent(copy.deepcopy(document)) is walk_is_silent(document)
