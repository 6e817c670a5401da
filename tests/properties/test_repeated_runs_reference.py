"""The run ids met so far, kept in memory up to a bound and on disk past it, against a plain dict.

The dict is what ``RepeatedRuns`` was before it spilled to disk: for any sequence of ids (lone
surrogates included) and sources, under any small bounds of entries and characters, each answer
must be the dict's: None the first time, then the source the id was first met at.
"""

from __future__ import annotations

from _budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from evalscore.scoring.repeated_runs import RepeatedRuns, run_id_digest

_texts = st.text(st.characters(exclude_categories=()), max_size=6)
"""Any code points, lone surrogates included (an id from a JSON escape, a path with an undecodable byte)."""
_ids = st.sampled_from(["a", "b", "\ud800", "\ud801", "a\udcff", ""]) | _texts
"""A few ids met often, so that most sequences repeat some, and others."""


@settings(max_examples=examples(50))
@given(
    meetings=st.lists(st.tuples(_ids, _texts), max_size=60),
    entries=st.integers(min_value=1, max_value=6),
    chars=st.integers(min_value=1, max_value=30),
)
def test_every_answer_is_the_plain_dicts_whatever_the_bounds(
    meetings: list[tuple[str, str]], entries: int, chars: int
) -> None:
    reference: dict[bytes, str] = {}
    answers = []
    with RepeatedRuns(memory_entries=entries, memory_chars=chars) as repeated:
        for run_id, source in meetings:
            key = run_id_digest(run_id)
            expected = reference.get(key)
            if expected is None:
                reference[key] = source
            answers.append(repeated.first_source(key, source))
            assert answers[-1] == expected
            assert repeated.in_memory() < entries
        assert len(answers) == len(meetings)
        assert repeated.in_memory() + repeated.on_disk() == len(reference)
