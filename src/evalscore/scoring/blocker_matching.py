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
model, which reads each distinct surfaced text once: time linear in the texts, memory about 45
bytes per character of the blockers' texts. Below it, pair by pair is the faster of the two.
"""

from __future__ import annotations

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


NO_CHILD: Final = 0
"""``child_node`` of a leaf (the root, node 0, is no one's child)."""
BRANCHING: Final = -1
"""``child_node`` of a node with two or more children: they are in ``branches``."""


class TextAutomaton:
    """An Aho-Corasick automaton over the distinct non-empty blocker texts; an empty one is in every text.

    The trie is kept in flat lists by node: most nodes of real texts have one child (a description
    shares a prefix with few others), so only nodes with several children have a table of them. A
    table per node held about 116 bytes a character, which on 4,000 blockers of 38 characters meant
    18 MB to make and walk; this way, about 45.
    """

    __slots__ = (
        "below",
        "branches",
        "chars",
        "child_char",
        "child_node",
        "empty",
        "ends",
        "fail",
        "levels",
        "nearest",
        "parents",
    )

    def __init__(self, texts: Sequence[str | None]) -> None:
        # By node: its only child and the character leading there (NO_CHILD for a leaf, BRANCHING
        # for a node whose children are in ``branches``). By node but the root (node n at n - 1):
        # its parent and the character leading to it.
        self.child_char: list[str | None] = [None]
        self.child_node: list[int] = [NO_CHILD]
        self.branches: dict[int, dict[str, int]] = {}
        self.parents: list[int] = []
        self.chars: list[str] = []
        self.levels: list[list[int]] = []  # the nodes at depth 1, 2, ... in the order they were made
        self.ends: dict[int, list[int]] = {}  # by node, the blockers whose text ends there
        self.empty: list[int] = []  # the blockers whose text is empty
        for index, text in enumerate(texts):
            if text == "":
                self.empty.append(index)
            elif text is not None:
                self.ends.setdefault(self._node_of(text), []).append(index)
        self.fail = [0] * len(self.child_node)
        # By node: itself when a text ends there, else the first such node along its failure links;
        # and the first node where a text ends along the failure links, strictly below it.
        self.nearest: dict[int, int] = {}
        self.below: dict[int, int] = {}
        self._link()

    def _node_of(self, text: str) -> int:
        node = 0
        for depth, char in enumerate(text, 1):
            child = self._child(node, char)
            if child is None:
                child = self._add(node, char, depth)
            node = child
        return node

    def _child(self, node: int, char: str) -> int | None:
        if self.child_char[node] == char:
            return self.child_node[node]
        if self.child_node[node] == BRANCHING:
            return self.branches[node].get(char)
        return None

    def _add(self, node: int, char: str, depth: int) -> int:
        """A new child of ``node``, reached by ``char``, at ``depth``."""
        child = len(self.child_node)
        self.child_char.append(None)
        self.child_node.append(NO_CHILD)
        self.parents.append(node)
        self.chars.append(char)
        if depth == len(self.levels) + 1:
            self.levels.append([])
        self.levels[depth - 1].append(child)
        first = self.child_node[node]
        if first == BRANCHING:
            self.branches[node][char] = child
        elif first == NO_CHILD:
            self.child_char[node], self.child_node[node] = char, child
        else:  # a second child: both go to a table
            self.branches[node] = {self.chars[first - 1]: first, char: child}
            self.child_char[node], self.child_node[node] = None, BRANCHING
        return child

    def _link(self) -> None:
        """Each node's failure link, depth by depth: a node's link is found from its parent's, which is shallower."""
        fail, parents, chars = self.fail, self.parents, self.chars
        for level in self.levels:
            for node in level:
                parent = parents[node - 1]
                if parent != 0:  # a node of one character falls back to the root
                    fail[node] = self.step(fail[parent], chars[node - 1])
                self._place(node)

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
        child_char, child_node, fail = self.child_char, self.child_node, self.fail
        while True:
            if child_char[node] == char:
                return child_node[node]
            if child_node[node] == BRANCHING:
                child = self.branches[node].get(char)
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
        hits, addressed = self._linear(questions)
        return sum(hits), len(addressed)

    def _linear(self, questions: Sequence[Question]) -> tuple[list[bool], set[int]]:
        """Whether each question addresses a blocker, and the blockers addressed, in time linear in the texts."""
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
        return [reason in named or hit_of[surfaced] for reason, surfaced in questions], addressed

    def misses(self, questions: Sequence[Question]) -> tuple[list[int], list[int]]:
        """The positions of the questions that address no blocker, and of the blockers no question
        addresses (``count`` gives how many of each do): asked for only when some miss."""
        blockers = range(len(self.ids))
        if len(questions) * len(self.ids) <= PAIRWISE_PAIRS:
            ids, texts = self.ids, self.texts
            hits = [any(addresses(asked, ids[b], texts[b]) for b in blockers) for asked in questions]
            addressed = {b for b in blockers if any(addresses(asked, ids[b], texts[b]) for asked in questions)}
        else:
            hits, addressed = self._linear(questions)
        return [index for index, hit in enumerate(hits) if not hit], [b for b in blockers if b not in addressed]

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
