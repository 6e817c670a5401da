"""A review request's listed calls are found by key (``match_key``) instead of by walking the turn with a
comparison of the args: the key must be shared exactly when the comparison, tried the slow way, holds."""

from __future__ import annotations

from typing import Any

from _budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from evalscore.importers.langgraph._decode import Named
from evalscore.importers.langgraph._messages import CallRequest
from evalscore.importers.langgraph._pauses import match_key


def same_call_reference(call: CallRequest, name: Any, args: Any) -> bool:
    """The same tool and the same args, value for value and type for type (``1``, ``1.0`` and ``true`` differ,
    and a NaN matches nothing): the comparison the importer made pair by pair before ``match_key``."""
    if call.tool != name:
        return False
    pairs = [(call.args, args)]
    while pairs:
        mine, theirs = pairs.pop()
        if type(mine) is not type(theirs):
            return False
        if isinstance(mine, dict):
            if mine.keys() != theirs.keys():
                return False
            pairs.extend((mine[key], theirs[key]) for key in mine)
        elif isinstance(mine, list):
            if len(mine) != len(theirs):
                return False
            pairs.extend((mine[index], theirs[index]) for index in range(len(mine)))
        elif mine != theirs:
            return False
    return True


_leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.sampled_from([0, 1, -1, 0.0, -0.0, 1.0, float("nan"), float("inf"), True, False, "", "1", "a:b", "{1;"])
    | st.floats(allow_nan=True)
    | st.text(max_size=6)
)
_plain_values = st.recursive(
    _leaves,
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.text(max_size=4) | st.sampled_from(["1:", "s1:a", "{1;"]), children, max_size=3)
    ),
    max_leaves=12,
)
"""What a model turn's call args can be: plain JSON data (``_messages.plain``), a NaN included."""
_any_values = st.recursive(
    _leaves | st.builds(Named, st.just("m"), st.just("C"), st.just({})),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(st.text(max_size=4), children, max_size=3)
        | st.dictionaries(st.integers(0, 3), children, min_size=1, max_size=2)
    ),
    max_leaves=12,
)
"""What a review request may list as args: anything decoded."""


def _perturbed(value: Any) -> Any:
    """A copy the comparison may or may not hold with: 0 and 0.0, -0.0 and 0.0, a bool for an int."""
    if isinstance(value, dict):
        return {key: _perturbed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_perturbed(item) for item in value]
    if value is True:
        return 1
    if type(value) is int and value in {0, 1}:
        return float(value)
    if type(value) is float and value == 0:
        return -value
    return value


@settings(max_examples=examples(50))
@given(st.sampled_from(["refund", "lookup"]), _plain_values, st.sampled_from(["refund", "lookup", 1]), _any_values,
       st.booleans())  # fmt: skip
def test_a_listed_request_shares_the_match_key_of_a_call_exactly_when_it_is_the_same_call(
    tool_name: str, call_args: Any, name: Any, other_args: Any, near: bool
) -> None:
    args = _perturbed(call_args) if near else other_args
    call = CallRequest("c-1", tool_name, call_args)
    assert (match_key(name, args) == match_key(call.tool, call.args)) is same_call_reference(call, name, args)
