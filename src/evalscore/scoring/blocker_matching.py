"""Which of a step's questions address which of its blockers (SPEC section 4, discretionary gates).

A question addresses a blocker when its ``reason`` is the blocker's id, or its surfaced text,
lower-cased, contains the blocker's text: the description lower-cased, or under v3 nothing for a
description that is empty once trimmed (the empty string is contained in every text). The score
counts the questions that address at least one blocker (``matched``) and the blockers that at
least one question addresses (``addressed``).

Pair by pair, that costs the questions times the blockers times the text: a step of 4,000
questions under a suite step of 4,000 blockers took about 4 s to score, and 16,000 of each would
take a minute. Past ``PAIRWISE_PAIRS`` pairs, the ids are looked up in a table and the texts found
by one Aho-Corasick automaton over the blockers' distinct texts, made once per suite step and
model, which reads each distinct surfaced text once: time linear in the texts, memory about 100
bytes per character of the blockers' texts. Below it, pair by pair is the faster of the two.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Final

PAIRWISE_PAIRS: Final = 256
"""Questions times blockers up to which a step is matched pair by pair."""

Question = tuple[str, str]
"""A question's ``reason`` and its surfaced text, lower-cased."""


def blocker_texts(descriptions: Sequence[str]) -> tuple[list[str], list[str | None]]:
    """What v2 and v3 search a question's surfaced text for: each description lower-cased; under v3
    None (never by text) for one that is empty once trimmed."""
    lowered = [description.lower() for description in descriptions]
    return lowered, [description.lower() if description.strip() else None for description in descriptions]


def addresses(question: Question, blocker_id: str, text: str | None) -> bool:
    reason, surfaced = question
    return reason == blocker_id or (text is not None and text in surfaced)


class TextAutomaton:
    """An Aho-Corasick automaton over the distinct non-empty blocker texts; an empty one is in every text."""

    __slots__ = ("below", "empty", "ends", "fail", "goto", "nearest")

    def __init__(self, texts: Sequence[str | None]) -> None:
        self.goto: list[dict[str, int]] = [{}]
        self.ends: dict[int, list[int]] = {}  # by node, the blockers whose text ends there
        self.empty: list[int] = []  # the blockers whose text is empty
        for index, text in enumerate(texts):
            if text == "":
                self.empty.append(index)
            elif text is not None:
                self.ends.setdefault(self._node_of(text), []).append(index)
        self.fail = [0] * len(self.goto)
        # By node: itself when a text ends there, else the first such node along its failure links;
        # and the first node where a text ends along the failure links, strictly below it.
        self.nearest: dict[int, int] = {}
        self.below: dict[int, int] = {}
        self._link()

    def _node_of(self, text: str) -> int:
        goto = self.goto
        node = 0
        for char in text:
            child = goto[node].get(char)
            if child is None:
                child = len(goto)
                goto[node][char] = child
                goto.append({})
            node = child
        return node

    def _link(self) -> None:
        goto, fail = self.goto, self.fail
        pending = deque(goto[0].values())  # a node of one character falls back to the root
        for child in pending:
            self._place(child)
        while pending:
            node = pending.popleft()
            for char, child in goto[node].items():
                fail[child] = self.step(fail[node], char)
                self._place(child)
                pending.append(child)

    def _place(self, node: int) -> None:
        lower = self.nearest.get(self.fail[node])
        if lower is not None:
            self.below[node] = lower
        if node in self.ends:
            self.nearest[node] = node
        elif lower is not None:
            self.nearest[node] = lower

    def step(self, node: int, char: str) -> int:
        """The node after reading ``char`` at ``node``: the longest text prefix that ends the text read."""
        goto, fail = self.goto, self.fail
        while True:
            child = goto[node].get(char)
            if child is not None:
                return child
            if node == 0:
                return 0
            node = fail[node]

    def scan(self, surfaced: str, found: set[int], addressed: set[int]) -> bool:
        """Whether a non-empty blocker text occurs in ``surfaced``; each found for the first time (its
        node not in ``found``) adds its blockers to ``addressed``. A node is in ``found`` only with
        every node below it, so each is entered once however many texts contain it."""
        nearest = self.nearest
        last: int | None = None  # the node of the last text found to end in ``surfaced``
        node = 0
        for char in surfaced:
            node = self.step(node, char)
            ending = nearest.get(node)
            if ending is not None:
                last = ending
                self._found(ending, found, addressed)
        return last is not None

    def _found(self, node: int | None, found: set[int], addressed: set[int]) -> None:
        while node is not None and node not in found:
            found.add(node)
            addressed.update(self.ends[node])
            node = self.below.get(node)


class BlockerMatcher:
    """One suite step's blockers as one model matches questions against them; the table and the
    automaton of the linear count are made at its first use."""

    __slots__ = ("_automaton", "_by_id", "ids", "texts")

    def __init__(self, ids: Sequence[str], texts: Sequence[str | None]) -> None:
        self.ids = tuple(ids)
        self.texts = tuple(texts)
        self._by_id: dict[str, list[int]] | None = None
        self._automaton: TextAutomaton | None = None

    def count(self, questions: Sequence[Question]) -> tuple[int, int]:
        """``(matched, addressed)``: the questions that address a blocker, the blockers a question addresses."""
        if len(questions) * len(self.ids) <= PAIRWISE_PAIRS:
            return self.count_pairwise(questions)
        return self.count_linear(questions)

    def count_pairwise(self, questions: Sequence[Question]) -> tuple[int, int]:
        ids, texts = self.ids, self.texts
        blockers = range(len(ids))
        matched = sum(1 for asked in questions if any(addresses(asked, ids[b], texts[b]) for b in blockers))
        addressed = sum(1 for b in blockers if any(addresses(asked, ids[b], texts[b]) for asked in questions))
        return matched, addressed

    def count_linear(self, questions: Sequence[Question]) -> tuple[int, int]:
        by_id = self._ids()
        named = {reason for reason, _ in questions if reason in by_id}
        addressed: set[int] = set()
        for reason in named:
            addressed.update(by_id[reason])
        automaton = self._texts()
        if questions:  # an empty text is in every surfaced text
            addressed.update(automaton.empty)
        found: set[int] = set()
        hit_of: dict[str, bool] = {}
        for _, surfaced in questions:
            if surfaced not in hit_of:
                hit_of[surfaced] = automaton.scan(surfaced, found, addressed) or bool(automaton.empty)
        matched = sum(1 for reason, surfaced in questions if reason in named or hit_of[surfaced])
        return matched, len(addressed)

    def _ids(self) -> dict[str, list[int]]:
        if self._by_id is None:
            by_id: dict[str, list[int]] = {}
            for index, blocker_id in enumerate(self.ids):
                by_id.setdefault(blocker_id, []).append(index)
            self._by_id = by_id
        return self._by_id

    def _texts(self) -> TextAutomaton:
        if self._automaton is None:
            self._automaton = TextAutomaton(self.texts)
        return self._automaton
