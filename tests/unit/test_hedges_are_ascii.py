"""The distraction hedge patterns fold ASCII case only, as the rule is written and as eval-kit reads it."""

from __future__ import annotations

import pytest

from evalscore.scoring.rederive import hedges


@pytest.mark.parametrize(
    "output",
    [
        "no \u017fources found",  # the long s folds to s under full Unicode case folding
        "No results found for \u212aelvin",  # harmless, but: the Kelvin sign folds to k
        "outside of my \u212anowledge",
        "unable to f\u0131nd it",  # dotless i
        "UNABLE TO F\u0130ND IT",  # dotted capital I
    ],
)
def test_a_letter_that_only_unicode_folding_makes_ascii_does_not_make_a_hedge(output: str) -> None:
    if "results found" in output.lower():
        assert hedges(output)  # the ASCII part of it still matches
    else:
        assert not hedges(output)


def test_ascii_case_is_still_folded() -> None:
    assert hedges("CANNOT VERIFY that claim")
    assert hedges("Outside Of My Knowledge")
