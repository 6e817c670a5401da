"""The listing bound: a number of items and the characters of text they hold, a prefix always."""

from __future__ import annotations

import pickle

from evalscore.findings import Finding
from evalscore.listing import LISTED_TEXT, MESSAGE_KEPT, Listing, kept_message, text_size
from evalscore.scoring.refusal import Refusal


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


def test_a_message_up_to_the_kept_length_is_kept_whole() -> None:
    text = "m" * MESSAGE_KEPT
    assert kept_message(text) is text
    assert MESSAGE_KEPT == 4_096


def test_a_longer_message_keeps_its_start_and_end_and_says_how_long_it_was() -> None:
    text = "<" + "x" * 1_000_000 + ">"
    kept = kept_message(text)
    assert len(kept) == MESSAGE_KEPT
    assert kept.startswith("<xxx")
    assert kept.endswith("xxx>")
    assert " ...(1,000,002 characters, cut here)... " in kept
    head, tail = kept.split(" ...(1,000,002 characters, cut here)... ")
    assert len(head) - len(tail) in (0, 1)
    assert kept_message(kept) is kept


def test_one_character_over_is_cut() -> None:
    kept = kept_message("a" * (MESSAGE_KEPT + 1))
    assert len(kept) == MESSAGE_KEPT
    assert "(4,097 characters, cut here)" in kept


def test_a_finding_and_a_refusal_keep_at_most_the_kept_length_and_pickle_unchanged() -> None:
    quoted = "key " + "k" * 50_000
    finding = Finding(layer="syntax", code="ES002", severity="error", pointer="/a", message=quoted)
    refusal = Refusal(code="tool-unknown", reason=quoted, pointer="/b")
    assert finding.message == refusal.reason == kept_message(quoted)
    assert pickle.loads(pickle.dumps(finding)) == finding
    assert pickle.loads(pickle.dumps(refusal)) == refusal
    short = Finding(layer="syntax", code="ES002", severity="error", pointer="/a", message="m" * MESSAGE_KEPT)
    assert short.message == "m" * MESSAGE_KEPT
    assert Refusal(code="tool-unknown", reason="r" * MESSAGE_KEPT, pointer="").reason == "r" * MESSAGE_KEPT


def test_a_listing_is_full_exactly_when_no_item_is_left() -> None:
    listing = Listing(1)
    assert listing.full() is False
    assert listing.take(1) is True
    assert listing.full() is True
    assert Listing(0).full() is True
