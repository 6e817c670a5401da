"""Questions against blockers: the linear count is the pairwise definition's, and costs linear time."""

from __future__ import annotations

import tracemalloc
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evalscore.scoring import blocker_matching, rederive
from evalscore.scoring.blocker_matching import PAIRWISE_PAIRS, BlockerMatcher, TextAutomaton, blocker_texts

from .builders import Walked, blocker, question


def by_definition(ids: list[str], texts: list[str | None], questions: list[tuple[str, str]]) -> tuple[int, int]:
    """SPEC's rule pair by pair: the reason names the blocker, or the surfaced text contains its text."""

    def addresses(asked: tuple[str, str], index: int) -> bool:
        text = texts[index]
        return asked[0] == ids[index] or (text is not None and text in asked[1])

    matched = sum(1 for asked in questions if any(addresses(asked, index) for index in range(len(ids))))
    addressed = sum(1 for index in range(len(ids)) if any(addresses(asked, index) for asked in questions))
    return matched, addressed


# Few letters make texts that overlap, nest and repeat: every failure link and report chain is used,
# and a node has one, two or three children.
short = st.text(alphabet="abc", max_size=4)
blockers_drawn = st.lists(st.tuples(st.sampled_from(["x", "y", "z"]), st.one_of(st.none(), short)), max_size=8)
questions_drawn = st.lists(st.tuples(st.sampled_from(["x", "y", "w"]), st.text(alphabet="abc", max_size=9)), max_size=8)


@given(blockers_drawn, questions_drawn)
def test_the_linear_and_the_pairwise_count_are_the_definition(blockers: list[Any], questions: list[Any]) -> None:
    ids = [blocker_id for blocker_id, _ in blockers]
    texts = [text for _, text in blockers]
    expected = by_definition(ids, texts, questions)
    assert BlockerMatcher(ids, texts).count_pairwise(questions) == expected
    assert BlockerMatcher(ids, texts).count_linear(questions) == expected
    matcher = BlockerMatcher(ids, texts)  # the automaton made once serves every later step
    assert [matcher.count_linear(questions), matcher.count_linear(questions[::-1])] == [expected] * 2


@pytest.mark.parametrize(
    ("texts", "surfaced", "addressed"),
    [
        (["he", "she", "his", "hers"], "ushers", 3),  # "she" and "he" end at one place, "hers" later
        (["abcd", "bc"], "abcx", 1),  # "bc" is found through the failure link of "abc"
        (["a", "aa", "aaa"], "aaaa", 3),
        (["", "b"], "", 1),  # the empty text is in every text, the empty one too
        (["ab", "b"], "ba", 1),
        (["xa", "xb", "xc", "xd"], "yxcx", 1),  # a third and a fourth child of one node
        (["xab", "xb", "b"], "xxb", 2),  # a node that had one child is given a second
    ],
)
def test_a_text_is_found_wherever_it_ends(texts: list[str], surfaced: str, addressed: int) -> None:
    ids = [f"id-{index}" for index in range(len(texts))]
    assert BlockerMatcher(ids, texts).count_linear([("reason", surfaced)]) == (int(addressed > 0), addressed)


def test_an_id_or_text_given_twice_is_two_blockers_and_a_question_counts_once() -> None:
    matcher = BlockerMatcher(["b", "b", "c", "d"], ["zz", "zz", "order id", "order id"])
    asked = [("b", "?"), ("b", "what order id?"), ("x", "the order id"), ("x", "none")]
    assert matcher.count_linear(asked) == (3, 4)
    assert matcher.count_pairwise(asked) == (3, 4)


def test_a_blank_description_is_matched_by_text_under_v2_only() -> None:
    assert blocker_texts(["  ", "The Order ID", ""]) == (["  ", "the order id", ""], [None, "the order id", None])


def test_n_blank_descriptions_are_added_once_not_once_per_question(monkeypatch: pytest.MonkeyPatch) -> None:
    count = 2000
    walked: list[Walked] = []
    real_init = TextAutomaton.__init__

    def init(self: TextAutomaton, texts: Any) -> None:
        real_init(self, texts)
        self.empty = Walked(self.empty)
        walked.append(self.empty)

    monkeypatch.setattr(TextAutomaton, "__init__", init)
    matcher = BlockerMatcher([f"b{index}" for index in range(count)], [""] * (count - 1) + ["card"])
    asked = [("r", f"question {index}") for index in range(count - 1)] + [("r", "which card?")]
    assert matcher.count_linear(asked) == (count, count)
    assert matcher.count_linear([]) == (0, 0)  # nothing asked: no text is in any question
    assert len(walked) == 1
    assert walked[0].steps == count - 1  # once, for the count that met questions


@pytest.mark.parametrize(
    ("questions", "blockers", "way"), [(16, 16, "pairwise"), (1, 256, "pairwise"), (257, 1, "linear")]
)
def test_a_step_is_matched_pair_by_pair_up_to_the_bound_then_linearly(
    questions: int, blockers: int, way: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert questions * blockers in (PAIRWISE_PAIRS, PAIRWISE_PAIRS + 1)
    used: list[str] = []
    for name in ("pairwise", "linear"):
        real = getattr(BlockerMatcher, f"count_{name}")
        monkeypatch.setattr(
            BlockerMatcher,
            f"count_{name}",
            lambda self, asked, real=real, name=name: (used.append(name), real(self, asked))[1],
        )
    matcher = BlockerMatcher([f"b{index}" for index in range(blockers)], ["text"] * blockers)
    assert matcher.count([("b0", "some text")] * questions) == (questions, blockers)
    assert used == [way]


def test_n_questions_under_n_blockers_read_each_character_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    count = 2000
    steps: list[int] = []
    real_step = TextAutomaton.step
    monkeypatch.setattr(
        TextAutomaton, "step", lambda self, node, char: (steps.append(1), real_step(self, node, char))[1]
    )
    texts = [f"which card {index:05d} is it" for index in range(count)]
    asked = [(f"reason-{index}", f"about the card {index:05d} is it ok?") for index in range(count)]
    matcher = BlockerMatcher([f"blocker-{index}" for index in range(count)], texts)
    read = sum(len(surfaced) for _, surfaced in asked)
    assert matcher.count(asked) == (0, 0)
    first = len(steps)
    assert read < first < read + sum(map(len, texts))  # one step per node of the automaton, and per character
    assert matcher.count(asked) == (0, 0)
    assert len(steps) - first == read  # the automaton is made once


class CountingSet(set):  # type: ignore[type-arg]
    """A set that counts the times it is added to."""

    updates = 0

    def update(self, *others: Any) -> None:
        self.updates += 1
        super().update(*others)


def test_texts_found_again_are_not_walked_again() -> None:
    automaton = TextAutomaton(["x", "xx", "xxx", None])
    found: set[int] = set()
    addressed = CountingSet()
    assert automaton.scan("x" * 3000, found, addressed)
    assert (addressed, addressed.updates, len(found)) == ({0, 1, 2}, 3, 3)  # each text's node entered once
    assert automaton.scan("xx", found, addressed)
    assert addressed.updates == 3
    assert not automaton.scan("yyy", found, addressed)


def test_the_model_path_makes_a_suite_step_s_matcher_once_and_keeps_a_bounded_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(rederive, "_matchers", {})
    blockers = [blocker("b", "The order ID"), blocker("c", " ")]
    first = rederive.matcher_of(blockers, "v3")
    assert rederive.matcher_of(blockers, "v3") is first
    assert first.texts == ("the order id", None)
    assert rederive.matcher_of(blockers, "v2").texts == ("the order id", " ")
    other = list(blockers)  # another step's list, equal or not
    second = rederive.matcher_of(other, "v3")
    assert second is not first
    assert (rederive.matcher_of(blockers, "v3"), rederive.matcher_of(other, "v3")) == (first, second)
    monkeypatch.setattr(rederive, "_matchers", {})
    lists = [[blocker("b", "x")] for _ in range(rederive.MATCHERS_KEPT + 1)]
    for each in lists[:-1]:
        rederive.matcher_of(each, "v3")
    assert len(rederive._matchers) == rederive.MATCHERS_KEPT
    rederive.matcher_of(lists[-1], "v3")
    assert len(rederive._matchers) == 1  # full: emptied, then the new one kept


def test_the_model_path_counts_questions_under_many_blockers_as_the_definition(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(rederive, "_matchers", {})
    blockers = [blocker(f"b{index}", f"Card {index}") for index in range(40)]
    events = [question(f"b{index}" if index % 5 == 0 else "other", f"about CARD {index * 3}?") for index in range(40)]
    score = rederive.discretionary(blockers, events, "v3")
    assert score is not None
    ids = [each.id for each in blockers]
    texts = blocker_texts([each.description for each in blockers])[1]
    expected = by_definition(ids, texts, [(event.reason, event.surfaced.lower()) for event in events])
    assert (score.blockers, score.asked, score.matched, score.addressed) == (40, 40, *expected)
    assert expected[0] > 8  # by id and by text
    assert expected[1] > 8
    assert blocker_matching.PAIRWISE_PAIRS < 40 * 40


def test_the_automaton_holds_under_60_bytes_a_character_of_the_blockers_texts() -> None:
    """Flat lists by node, a table only where a node has several children: a table per node held
    about 116 bytes a character, and 4,000 blockers took 18 MB to make and walk."""
    texts = [f"which card {index:07d} is to be refunded" for index in range(4000)]
    tracemalloc.start()
    try:
        automaton = TextAutomaton(texts)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(automaton.parents) > 70_000  # a node per character but the shared prefixes
    assert held / sum(map(len, texts)) < 60


def test_only_a_node_with_two_or_more_children_keeps_them_in_a_table() -> None:
    """The memory test's rule, small: a node's single child sits in the flat lists, and a table is made
    at its second child (here the root's "a" and "x", and "ab"'s "c" and "d"; "a" has one child)."""
    automaton = TextAutomaton(["abc", "abd", "x"])
    assert sorted(sorted(table) for table in automaton.branches.values()) == [["a", "x"], ["c", "d"]]
    assert len(automaton.parents) == 5  # a node per character but the shared prefixes: a, b, c, d, x


def misses_by_definition(
    ids: list[str], texts: list[str | None], questions: list[tuple[str, str]]
) -> tuple[list[int], list[int]]:
    def addresses(asked: tuple[str, str], index: int) -> bool:
        text = texts[index]
        return asked[0] == ids[index] or (text is not None and text in asked[1])

    unmatched = [q for q, asked in enumerate(questions) if not any(addresses(asked, b) for b in range(len(ids)))]
    unaddressed = [b for b in range(len(ids)) if not any(addresses(asked, b) for asked in questions)]
    return unmatched, unaddressed


@given(blockers_drawn, questions_drawn)
def test_the_misses_are_the_definition_s_pair_by_pair_and_past_the_pairwise_bound(
    blockers: list[Any], questions: list[Any]
) -> None:
    ids = [blocker_id for blocker_id, _ in blockers]
    texts = [text for _, text in blockers]
    expected = misses_by_definition(ids, texts, questions)
    assert BlockerMatcher(ids, texts).misses(questions) == expected
    wide = (ids * 40, texts * 40, questions * 40)  # past PAIRWISE_PAIRS whenever there is a pair at all
    assert BlockerMatcher(wide[0], wide[1]).misses(wide[2]) == misses_by_definition(*wide)


def test_the_misses_past_the_pairwise_bound_name_each_question_and_blocker() -> None:
    ids = [f"b{index}" for index in range(20)]
    texts: list[str | None] = [f"text {index}." for index in range(20)]
    questions = [(f"b{index}", "?") for index in range(0, 20, 2)] + [("x", "about text 3.")] * 8
    assert len(questions) * len(ids) > PAIRWISE_PAIRS
    unmatched, unaddressed = BlockerMatcher(ids, texts).misses(questions)
    assert unmatched == []
    assert unaddressed == [1, 5, 7, 9, 11, 13, 15, 17, 19]
    assert BlockerMatcher(ids, texts).misses([("x", "nothing")] * 20) == (list(range(20)), list(range(20)))
