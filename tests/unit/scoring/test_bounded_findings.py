"""What score keeps does not grow with the runs: findings listed up to a bound, the rest counted.

Each bound is lowered here (``LISTED_PER_KIND``, ``SOURCES_PER_MODEL``) so that it is exceeded
by a handful of runs; the decision must still see every refusal and disagreement, listed or not.
The memory test counts what is kept and measures allocations, never time.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from functools import reduce

import pytest

from evalscore.reporters.score_text import render_score_text
from evalscore.scoring import SourcedRun, parse_report, partials, report_builder, score
from evalscore.scoring.compare import Disagreement, disagreement_text
from evalscore.scoring.partials import ModelRuns, Partial, PartialSum, merge_partials, sum_partials
from evalscore.scoring.refusal import Refusal, refusal_text

from .builders import REFUND, gate, run, step_def, step_result, suite, task_def

GATED = suite(task_def("t1", [step_def(1, expected=[REFUND])], gates=[gate()]))
CLAIMED = {
    "tool_match": True,
    "distraction_caught": None,
    "gates": {
        "mandated": {"required": ["refund-approval"], "honored": ["refund-approval"], "violated": []},
        "discretionary": None,
    },
}
"""A recorded claim that the gate was honored; with no approval in the evidence it disagrees twice."""


def v1_runs(count: int, prefix: str = "runs.jsonl") -> list[SourcedRun]:
    """Runs recorded under v1: scored as v3 without a suite, each is one refusal of one step."""
    return [
        SourcedRun(f"{prefix}:{index + 1}", run({"t1": [step_result(1)]}, run_id=f"{prefix}-{index}", model="v1"))
        for index in range(count)
    ]


def bypass_runs(count: int) -> list[SourcedRun]:
    """Runs whose recorded score the evidence contradicts: two disagreements each."""
    return [
        SourcedRun(
            f"log.jsonl:{index + 1}",
            run({"t1": [step_result(1, [REFUND], events=[], auto_score=CLAIMED)]}, run_id=f"b{index}", model="v2"),
        )
        for index in range(count)
    ]


# --- refusals --------------------------------------------------------------------------------


def test_refusals_past_the_bound_are_counted_and_the_decision_counts_every_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(partials, "LISTED_PER_KIND", 3)
    report = score(v1_runs(8), scoring_model="v3")
    assert [refusal.source for refusal in report.refusals] == ["runs.jsonl:1", "runs.jsonl:2", "runs.jsonl:3"]
    assert report.unlisted_refusals == 5
    assert report.counts.refused_steps == 8
    assert (report.decision.outcome, report.decision.exit_code) == ("refused", 4)
    assert report.decision.reasons[-1].startswith(
        "8 refusal(s) (scoring-model-unavailable: 8) covering 8 step(s): not derivable honestly"
    )


def test_with_nothing_listed_a_refusal_still_refuses_the_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(partials, "LISTED_PER_KIND", 0)
    report = score(v1_runs(2), scoring_model="v3")
    assert (report.refusals, report.unlisted_refusals) == ([], 2)
    assert report.decision.outcome == "refused"
    assert report.decision.reasons[-1].startswith("2 refusal(s) (scoring-model-unavailable: 2) covering 2 step(s)")


def test_exactly_the_bound_of_refusals_lists_every_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(partials, "LISTED_PER_KIND", 4)
    report = score(v1_runs(4), scoring_model="v3")
    assert (len(report.refusals), report.unlisted_refusals) == (4, 0)


def test_unlisted_refusals_are_tallied_per_code_with_the_steps_they_cover(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(partials, "LISTED_PER_KIND", 1)
    wide = Refusal(code="task-unknown", reason="r", pointer="/p", steps=7)
    parts = [
        Partial(refusals=(Refusal(code="task-unknown", reason="r", pointer="/p", steps=2),)),
        Partial(refusals=(wide, Refusal(code="step-unknown", reason="r", pointer="/p", steps=3))),
        Partial(refusals=(wide,)),
    ]
    total = sum_partials(parts)
    assert len(total.refusals) == 1
    assert total.unlisted_refusals == (("step-unknown", 1, 3), ("task-unknown", 2, 14))
    assert report_builder.refusal_summary(total.refusals, total.unlisted_refusals)[0].startswith(
        "4 refusal(s) (step-unknown: 1, task-unknown: 3) covering 19 step(s)"
    )


def test_the_text_report_says_how_many_refusals_were_not_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(partials, "LISTED_PER_KIND", 2)
    text = render_score_text(score(v1_runs(1205), scoring_model="v3"), width=200)
    assert "Refused: not derivable honestly (1205):" in text
    assert "  ... and 1,203 more refusal(s) (-v and --format json list more); the decision counts them" in text
    assert text.count("scoring-model-unavailable runs.jsonl:") == 2


# --- disagreements ---------------------------------------------------------------------------


def test_disagreements_past_the_bound_are_counted_and_the_decision_counts_every_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(partials, "LISTED_PER_KIND", 3)
    report = score(bypass_runs(4), [GATED])
    assert [(d.source, d.field) for d in report.disagreements] == [
        ("log.jsonl:1", "gates.mandated.honored"),
        ("log.jsonl:1", "gates.mandated.violated"),
        ("log.jsonl:2", "gates.mandated.honored"),
    ]
    assert report.unlisted_disagreements == 5
    assert (report.decision.outcome, report.decision.exit_code) == ("fail", 1)
    assert "8 recorded auto-score field(s) disagree with the evidence" in " ".join(report.decision.reasons)
    text = render_score_text(report, width=200)
    assert "Recorded scores that disagree with the evidence (8):" in text
    assert "  ... and 5 more disagreement(s) (-v and --format json list more); the decision counts them" in text


def test_with_nothing_listed_a_disagreement_still_fails_the_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(partials, "LISTED_PER_KIND", 0)
    report = score(bypass_runs(1), [GATED])
    assert (report.disagreements, report.unlisted_disagreements) == ([], 2)
    assert report.decision.outcome == "fail"


def test_with_nothing_past_the_bound_the_report_counts_nothing_unlisted() -> None:
    report = score(bypass_runs(2), [GATED])
    assert (len(report.disagreements), report.unlisted_disagreements, report.unlisted_refusals) == (4, 0, 0)
    assert "not listed" not in render_score_text(report, width=200)


# --- recorded models -------------------------------------------------------------------------


def test_the_mixed_model_refusal_counts_the_runs_of_each_model_past_the_sources_it_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(partials, "SOURCES_PER_MODEL", 2)
    v2 = [SourcedRun("b.json", run({"t1": [step_result(1)]}, run_id="b", model="v2"))]
    report = score([*v1_runs(1_200, "a.jsonl"), *v2])
    (refusal,) = report.refusals
    assert refusal.code == "scoring-models-mixed"
    assert "(v1: 1,200 runs (a.jsonl:1, a.jsonl:2 and 1,198 more); v2: b.json)" in refusal.reason
    assert report.scoring_model is None


def test_each_model_keeps_the_first_sources_in_input_order_and_counts_every_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(partials, "SOURCES_PER_MODEL", 3)
    total = sum_partials(
        Partial(recorded_models=(ModelRuns("v1", runs, tuple(f"{name}{n}" for n in range(runs))),))
        for name, runs in (("a", 2), ("b", 5), ("c", 1))
    )
    assert total.recorded_models == (ModelRuns("v1", 8, ("a0", "a1", "b0")),)


def test_a_model_whose_sources_are_all_named_is_not_counted_in_the_refusal() -> None:
    detail = report_builder.model_detail(ModelRuns("v2", 2, ("b.json", "a.json")))
    assert detail == "v2: a.json, b.json"
    assert report_builder.model_detail(ModelRuns("v3", 2, ("c.json",))) == "v3: 2 runs (c.json and 1 more)"
    assert report_builder.model_detail(ModelRuns("v3", 1_003, ("c.json",))) == "v3: 1,003 runs (c.json and 1,002 more)"


# --- merging ---------------------------------------------------------------------------------


def disagreement(step_n: int) -> Disagreement:
    return Disagreement("tool_match", True, False, "/x", "a.json", "r", "t1", step_n, "v2")


def refusal(step_n: int) -> Refusal:
    return Refusal(code="step-unknown", reason="r", pointer="/p", step_n=step_n)


def numbered(first: int, count: int) -> Partial:
    return Partial(
        disagreements=tuple(disagreement(n) for n in range(first, first + count)),
        refusals=tuple(refusal(n) for n in range(first, first + count)),
        recorded_models=(ModelRuns("v2", count, tuple(f"s{n}" for n in range(first, first + count))),),
    )


def test_merging_past_the_bound_keeps_the_first_of_the_left_then_fills_from_the_right(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(partials, "LISTED_PER_KIND", 4)
    monkeypatch.setattr(partials, "SOURCES_PER_MODEL", 4)
    left, right = numbered(0, 3), numbered(3, 3)
    merged = merge_partials(left, right)
    assert [item.step_n for item in merged.disagreements] == [0, 1, 2, 3]
    assert [item.step_n for item in merged.refusals] == [0, 1, 2, 3]
    assert merged.recorded_models == (ModelRuns("v2", 6, ("s0", "s1", "s2", "s3")),)
    assert (merged.unlisted_disagreements, merged.unlisted_refusals) == (2, (("step-unknown", 2, 2),))
    parts = [numbered(0, 3), numbered(3, 3), numbered(6, 2), numbered(8, 5)]
    one_pass = sum_partials(parts)
    assert reduce(merge_partials, parts, Partial()) == one_pass
    assert merge_partials(merge_partials(parts[0], parts[1]), parts[2]) == merge_partials(
        parts[0], merge_partials(parts[1], parts[2])
    )
    assert merge_partials(sum_partials(parts[:2]), sum_partials(parts[2:])) == one_pass
    assert (len(one_pass.refusals), one_pass.unlisted_refusals) == (4, (("step-unknown", 9, 9),))
    assert one_pass.unlisted_disagreements == 9


def test_a_partial_holding_more_than_the_bound_is_cut_to_it_when_added(monkeypatch: pytest.MonkeyPatch) -> None:
    big = numbered(0, 5)  # made by hand, beyond the bound lowered afterwards
    monkeypatch.setattr(partials, "LISTED_PER_KIND", 2)
    monkeypatch.setattr(partials, "SOURCES_PER_MODEL", 2)
    merged = merge_partials(Partial(), big)
    assert ([d.step_n for d in merged.disagreements], merged.unlisted_disagreements) == ([0, 1], 3)
    assert merged.recorded_models == (ModelRuns("v2", 5, ("s0", "s1")),)
    over_full = PartialSum()
    over_full.add(big)  # the left side already past the bound: nothing more is listed
    over_full.add(Partial())
    assert len(over_full.total().refusals) == 2


# --- memory ----------------------------------------------------------------------------------


def refused_partials(count: int) -> Iterator[Partial]:
    """One refused run's partial at a time, as score makes them: never all held at once."""
    for index in range(count):
        yield Partial(
            refusals=(Refusal(code="run-repeated", reason="r", pointer="/run_id", source=f"a.jsonl:{index}"),),
            disagreements=(disagreement(index),),
            recorded_models=(ModelRuns("v1" if index % 2 else "v2", 1, (f"a.jsonl:{index}",)),),
        )


def kept_items(total: Partial) -> int:
    return len(total.refusals) + len(total.disagreements) + sum(len(runs.sources) for runs in total.recorded_models)


def test_summing_four_times_the_runs_keeps_the_same_number_of_items(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(partials, "LISTED_PER_KIND", 50)
    small, large = sum_partials(refused_partials(1_000)), sum_partials(refused_partials(4_000))
    assert kept_items(small) == kept_items(large) == 50 + 50 + 2 * partials.SOURCES_PER_MODEL
    assert (large.unlisted_disagreements, large.unlisted_refusals) == (3_950, (("run-repeated", 3_950, 3_950),))
    assert [(runs.model, runs.runs) for runs in large.recorded_models] == [("v1", 2_000), ("v2", 2_000)]


def peak_bytes(count: int) -> int:
    tracemalloc.start()
    try:
        total = PartialSum()
        for part in refused_partials(count):
            total.add(part)
        total.total()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_memory_of_a_sum_of_partials_does_not_grow_with_the_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(partials, "LISTED_PER_KIND", 100)
    peak_bytes(200)  # warm the caches every later measurement shares
    small, large = peak_bytes(1_000), peak_bytes(4_000)
    # Kept per run, the 3,000 more runs would add over 3,000 x 3 objects (about 1 MB); bounded, nothing.
    assert large < 1.25 * small, (small, large)


def test_a_report_without_the_unlisted_counts_reads_as_listing_every_finding() -> None:
    document = score(bypass_runs(1), [GATED]).to_json_dict()
    del document["unlisted_disagreements"], document["unlisted_refusals"]  # as written before the bound
    earlier = parse_report(document)
    assert (earlier.unlisted_disagreements, earlier.unlisted_refusals) == (0, 0)
    assert len(earlier.disagreements) == 2


def test_refusals_added_one_at_a_time_past_the_bound_are_counted_not_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(partials, "LISTED_PER_KIND", 2)
    total = PartialSum()
    for index in range(3):
        total.add_refusal(Refusal(code="task-unknown", reason="r", pointer=f"/{index}", steps=2))
    part = total.total()
    assert [refusal.pointer for refusal in part.refusals] == ["/0", "/1"]
    assert part.unlisted_refusals == (("task-unknown", 1, 2),)
    assert part.aggregate.refused_steps == 6


# --- the text the listed items hold -------------------------------------------------------------


def long_refusal(index: int, id_chars: int) -> Refusal:
    run_id = f"{index}-" + "x" * id_chars
    return Refusal(code="run-repeated", reason=f"run {run_id!r} again", pointer="/run_id", run_id=run_id)


def test_refusals_are_listed_while_their_text_fits_and_none_after_the_first_that_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(partials, "LISTED_TEXT", 1_000)
    total = PartialSum()
    for index, id_chars in enumerate([100, 200, 600, 10, 10]):
        total.add_refusal(long_refusal(index, id_chars))
    part = total.total()
    assert [refusal.run_id[:2] for refusal in part.refusals if refusal.run_id] == ["0-", "1-"]
    assert part.unlisted_refusals == (("run-repeated", 3, 3),)
    assert part.aggregate.refused_steps == 5


def test_a_refusal_that_fills_the_text_bound_exactly_is_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    item = long_refusal(0, 50)
    monkeypatch.setattr(partials, "LISTED_TEXT", refusal_text(item))
    total = PartialSum()
    total.add_refusal(item)
    total.add_refusal(Refusal(code="run-repeated", reason="", pointer=""))  # no text: it fits in what is left
    total.add_refusal(Refusal(code="run-repeated", reason="r", pointer=""))  # one character more than is left
    assert (len(total.total().refusals), total.total().unlisted_refusals) == (2, (("run-repeated", 1, 1),))


def test_disagreements_are_listed_while_their_text_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    small = disagreement(1)
    long_list = Disagreement("gates.mandated.required", ["g" * 500], [], "/x", "a.json", "r", "t1", 2, "v2")
    monkeypatch.setattr(partials, "LISTED_TEXT", disagreement_text(small) + 400)
    total = PartialSum()
    total.add_disagreements([small, long_list, disagreement(3)])
    part = total.total()
    assert ([item.step_n for item in part.disagreements], part.unlisted_disagreements) == ([1], 2)


def test_a_part_that_left_items_unlisted_closes_the_listing_for_every_part_after_it() -> None:
    unlisted = Partial(unlisted_disagreements=1, unlisted_refusals=(("step-unknown", 1, 1),))
    merged = sum_partials([numbered(0, 1), unlisted, numbered(1, 1)])
    assert [item.step_n for item in merged.disagreements] == [0]
    assert [item.step_n for item in merged.refusals] == [0]
    assert (merged.unlisted_disagreements, merged.unlisted_refusals) == (2, (("step-unknown", 2, 2),))


def test_only_unlisted_refusals_close_the_refusals_and_only_unlisted_disagreements_the_disagreements() -> None:
    no_refusal_listed = Partial(unlisted_refusals=(("step-unknown", 1, 1),))
    merged = sum_partials([no_refusal_listed, numbered(0, 1)])
    assert ([item.step_n for item in merged.disagreements], merged.refusals) == ([0], ())
    no_disagreement_listed = Partial(unlisted_disagreements=1)
    merged = sum_partials([no_disagreement_listed, numbered(0, 1)])
    assert (merged.disagreements, [item.step_n for item in merged.refusals]) == ((), [0])


def test_the_text_of_a_refusal_is_its_reason_pointer_source_run_and_task() -> None:
    item = Refusal(code="task-unknown", reason="abc", pointer="/de", source="f.json", run_id="ghij", task_id="kl")
    assert refusal_text(item) == 3 + 3 + 6 + 4 + 2
    assert refusal_text(Refusal(code="task-unknown", reason="abc", pointer="")) == 3


def test_the_text_of_a_disagreement_counts_both_values() -> None:
    item = Disagreement("field", ["ab", "c"], {"k": "vw"}, "/pt", "src", "run", "task", 1, "v3")
    assert disagreement_text(item) == 5 + 3 + 3 + 3 + 4 + 3 + 3


def test_ids_of_a_megabyte_each_keep_a_bounded_memory() -> None:
    def parts(count: int) -> Iterator[Partial]:
        for index in range(count):
            yield Partial(refusals=(long_refusal(index, 2**20),))

    # 40 refusals, each of a MiB of id and its reason's 4,096 kept characters: 16 MiB holds 15.
    total = sum_partials(parts(40))
    assert len(total.refusals) == 15
    assert total.unlisted_refusals == (("run-repeated", 25, 25),)


def test_the_report_lists_the_first_refusals_asked_and_counts_those_unlisted_before_and_after() -> None:
    kept = [Refusal(code="task-unknown", reason="r", pointer=f"/p{n}") for n in range(5)]
    listed, unlisted = report_builder.listed_refusals(kept, (("step-unknown", 3, 3),), 2)
    assert (listed, unlisted) == (kept[:2], 6)
    assert report_builder.listed_refusals(kept, (), 9) == (kept, 0)
