"""The listing bound: a number of items and the characters of text they hold, a prefix always."""

from __future__ import annotations

from evalscore.listing import LISTED_TEXT, Listing, text_size


def test_items_are_taken_until_the_number_is_reached() -> None:
    listing = Listing(2, 1_000)
    assert [listing.take(1) for _ in range(4)] == [True, True, False, False]


def test_items_are_taken_until_their_text_would_pass_the_bound_and_none_after() -> None:
    listing = Listing(100, 10)
    assert [listing.take(size) for size in (4, 6, 1, 0)] == [True, True, False, False]


def test_an_item_too_large_closes_the_listing_for_the_smaller_ones_after_it() -> None:
    listing = Listing(100, 10)
    assert [listing.take(size) for size in (3, 8, 2)] == [True, False, False]


def test_a_listing_closed_by_a_merged_part_takes_nothing_more() -> None:
    listing = Listing(100, 10)
    listing.close()
    assert listing.take(0) is False


def test_no_items_means_nothing_is_listed() -> None:
    assert Listing(0, 10).take(0) is False


def test_the_default_text_bound_is_sixteen_mebicharacters() -> None:
    listing = Listing(1)
    assert LISTED_TEXT == 16 * 2**20
    assert listing.take(LISTED_TEXT) is True
    assert Listing(1).take(LISTED_TEXT + 1) is False


def test_text_size_counts_strings_by_length_and_everything_else_as_one() -> None:
    assert text_size("abc") == 3
    assert text_size(["ab", "c", 7, None]) == 5
    assert text_size({"key": ["value", {"k": 1.5}]}) == 3 + 5 + 1 + 1
    assert text_size(("x" * 10, True)) == 11
    assert text_size([]) == 0
