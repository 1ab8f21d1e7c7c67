"""What the analytics keep between calls (``_arrays._kept``): a column's hash, its numbers'
zones and the leads' codes among the calls', kept while the column's Arrow data live.
A frame changed in place holds new data and is answered anew; nothing outlives its data."""

from __future__ import annotations

import gc
import time

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest
import rowwise
from handmade import answered, arrow, calls, leads
from hypothesis import given, settings
from hypothesis import strategies as st

from dialkit._arrays import _kept, _packed
from dialkit.analytics import answer_rates, attempts_to_contact, funnel
from dialkit.analytics._inputs import _match


def account() -> dict[str, pd.DataFrame]:
    people = arrow(leads(("cmp_a", "+12125550101"), ("cmp_a", "+12135550123"),
                         ("cmp_b", "+12125550101")))
    made = arrow(calls(answered("+12125550101", "2026-06-01T14:00:00Z", 40, "sale",
                                campaign_id="cmp_a"),
                       {"to_number": "+12135550123", "created_at": "2026-06-01T15:00:00Z",
                        "campaign_id": "cmp_a"},
                       answered("+12125550101", "2026-06-02T16:00:00Z", 10,
                                campaign_id="cmp_b")))
    callbacks = arrow(pd.DataFrame({"lead_id": ["lead_1"]}))
    return {"leads": people, "calls": made, "callbacks": callbacks}


def test_calls_changed_in_place_are_answered_anew() -> None:
    frames = account()
    before = answer_rates(frames["calls"], by=("zone",))
    frames["calls"].loc[1, "to_number"] = "+442079460958"  # Los Angeles to London
    after = answer_rates(frames["calls"], by=("zone",))
    assert after.equals(answer_rates(frames["calls"].astype(object), by=("zone",)))
    assert "Europe/London" in after["zone"].tolist()
    assert not before.equals(after)


def test_leads_and_bookings_changed_in_place_are_matched_anew() -> None:
    frames = account()
    funnel(**frames)
    attempts_to_contact(frames["leads"], frames["calls"])
    frames["leads"].loc[0, "phone"] = "+19175550199"  # no call went there
    frames["leads"].loc[2, "campaign_id"] = "cmp_a"  # the other lead of cmp_a's number
    frames["callbacks"].loc[0, "lead_id"] = "lead_2"
    table = funnel(**frames)
    assert {(c, str(s)): n for c, s, n in table[["campaign_id", "stage", "leads"]]
            .itertuples(index=False) if n} == rowwise.funnel(**frames)
    tries = attempts_to_contact(frames["leads"], frames["calls"])
    assert {(c, None if pd.isna(a) else int(a)): n for c, a, n in tries[
        ["campaign_id", "attempts", "leads"]].itertuples(index=False)} == rowwise.attempts(
        frames["leads"], frames["calls"])


def test_a_funnel_finds_each_columns_codes_once(monkeypatch: pytest.MonkeyPatch) -> None:
    found: list[str] = []
    coded = _match._coded
    monkeypatch.setattr(_match, "_coded", lambda short, long: found.append(
        str(long.name)) or coded(short, long))
    frames = account()
    table = funnel(**frames)  # the phones' in another thread, the campaigns' in this one
    assert sorted(found) == ["campaign_id", "to_number"]  # the match found both kept
    assert {(c, str(s)): n for c, s, n in table[["campaign_id", "stage", "leads"]]
            .itertuples(index=False) if n} == rowwise.funnel(**frames)


def test_a_funnel_looks_each_booking_up_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The appointments' lookup, in the funnel's own thread while the phones' codes are
    found or beside the match after them, is kept for the other."""
    found: list[str] = []
    among, coded = _match._among, _match._coded
    monkeypatch.setattr(_match, "_among", lambda column, values: found.append(
        str(column.name)) or among(column, values))
    monkeypatch.setattr(_match, "_coded", lambda short, long: time.sleep(  # not done first
        0.2 if long.name == "to_number" else 0) or coded(short, long))
    frames = account() | {"appointments": arrow(pd.DataFrame({"phone": ["+12135550123"]}))}
    table = funnel(**frames)
    assert sorted(found) == ["id", "phone"]
    assert {(c, str(s)): n for c, s, n in table[["campaign_id", "stage", "leads"]]
            .itertuples(index=False) if n} == rowwise.funnel(**frames)


def test_nothing_kept_outlives_its_data() -> None:
    gc.collect()
    held = len(_kept._KEPT)
    frames = account()
    funnel(**frames)
    answer_rates(frames["calls"])
    assert len(_kept._KEPT) > held
    del frames
    gc.collect()
    assert len(_kept._KEPT) == held


def test_ids_read_as_numbers_are_matched_as_their_text() -> None:
    """A CSV export's campaign ids may come back as numbers (``pd.read_csv``); the codes
    kept are of text, so they are matched as the texts they were."""
    frames = account()
    as_numbers = {name: frame.assign(**{"campaign_id": frame["campaign_id"].map(
        {"cmp_a": 1, "cmp_b": 2})}) if "campaign_id" in frame else frame
        for name, frame in frames.items()}
    table = funnel(**as_numbers)
    expected = funnel(**frames).assign(campaign_id=lambda t: t["campaign_id"].map(
        {"cmp_a": "1", "cmp_b": "2"}).astype("string[pyarrow]"))
    pd.testing.assert_frame_equal(table, expected)
    calls = frames["calls"].assign(to_number=frames["calls"]["to_number"].astype(object))
    assert answer_rates(calls).equals(answer_rates(frames["calls"]))


TEXTS = ["+12125550101", "+12125550102", "+442079460958", "+1212555010", "+12125550101 ",
         "cmp_a", "cmp_b", "", "é+1212555010", "+800123456789", None]
"""Texts of one byte length (12: numbers that share digits, one with a trailing space, one
with a two-byte letter) and of others, an empty one and a null."""


@settings(max_examples=200, deadline=None)
@given(texts=st.lists(st.sampled_from(TEXTS), max_size=30), start=st.integers(0, 3))
def test_a_column_hashes_to_its_texts_dictionary_codes(texts: list[str | None],
                                                       start: int) -> None:
    """``hashed`` (fixed-width binary where every text has one byte length and none is
    null) gives ``dictionary_encode``'s codes and distinct texts, on a column that is a
    slice of its Arrow data too."""
    column = pd.Series(["+19175550199"] * start + texts, dtype="string[pyarrow]").iloc[start:]
    codes, distinct = _kept.hashed(column)
    encoded = pc.dictionary_encode(pa.array(texts, pa.string()))
    assert codes.tolist() == encoded.indices.fill_null(-1).to_pylist()
    assert distinct.type == pa.string() and distinct.to_pylist() == encoded.dictionary.to_pylist()


def _first_seen(*columns: list[str | None]) -> tuple[list[list[int]], list[str]]:
    """Each column's codes into the texts in first-seen order over the columns in turn."""
    order: dict[str, int] = {}
    codes = [[-1 if text is None else order.setdefault(text, len(order)) for text in column]
             for column in columns]
    return codes, list(order)


@settings(max_examples=200, deadline=None)
@given(texts=st.lists(st.sampled_from(TEXTS), max_size=30),
       others=st.lists(st.sampled_from(TEXTS), max_size=30), start=st.integers(0, 3),
       hashed_first=st.booleans())
def test_a_column_hashed_with_another_codes_both_in_first_seen_order(
        texts: list[str | None], others: list[str | None], start: int,
        hashed_first: bool) -> None:
    """``hashed_with``: the column's texts coded in first-seen order, then the other's it
    lacks; in one pass (the column's hash not kept yet) or looked up in the column's hash
    (kept); and the column's hash kept either way, the one ``hashed`` gives."""
    column = pd.Series(["+19175550199"] * start + texts, dtype="string[pyarrow]").iloc[start:]
    other = pd.Series(others, dtype="string[pyarrow]")
    if hashed_first:
        _kept.hashed(column)
    codes, other_codes, distinct = _kept.hashed_with(column, other)
    (expected, expected_other), expected_texts = _first_seen(texts, others)
    assert (codes.tolist(), other_codes.tolist()) == (expected, expected_other)
    assert distinct.type == pa.string() and distinct.to_pylist() == expected_texts
    kept_codes, kept_distinct = _kept.hashed(column)
    assert kept_codes.tolist() == expected
    assert kept_distinct.to_pylist() == expected_texts[:len(set(texts) - {None})]


@st.composite
def one_width(draw: st.DrawFn) -> list[str | None]:
    """Texts of one length (7 to 17 characters, around the 8 to 16 bytes that
    ``_packed`` packs) that begin with ``+``: digits and ``:`` (their bytes differ only in
    the low half), sometimes ``A`` or ``+`` among them (a high half of its own), sometimes
    a null."""
    width = draw(st.sampled_from([7, 8, 12, 16, 17]))
    letters = draw(st.sampled_from(["019:", "019:", "019:A+"]))
    text = st.text(alphabet=letters, min_size=width - 1, max_size=width - 1).map("+".__add__)
    nulls = draw(st.integers(0, 3)) == 0
    return draw(st.lists(st.one_of(text, st.none()) if nulls else text, max_size=30))


@settings(max_examples=300, deadline=None)
@given(texts=one_width(), others=one_width(), start=st.integers(0, 3))
def test_texts_of_one_length_hash_to_their_dictionary_codes(
        texts: list[str | None], others: list[str | None], start: int) -> None:
    """Texts of one byte length, whose bytes may differ only in their low halves (packed as
    integers, ``_packed``), hash as ``dictionary_encode`` codes them, alone and with
    another column (in first-seen order over both)."""
    column = pd.Series(["+" * 40] * start + texts, dtype="string[pyarrow]").iloc[start:]
    codes, distinct = _kept.hashed(column)
    encoded = pc.dictionary_encode(pa.array(texts, pa.string()))
    assert codes.tolist() == encoded.indices.fill_null(-1).to_pylist()
    assert distinct.to_pylist() == encoded.dictionary.to_pylist()
    fresh = pd.Series(["+" * 40] * start + texts, dtype="string[pyarrow]").iloc[start:]
    found, other_found, both = _kept.hashed_with(fresh, pd.Series(others, dtype="string[pyarrow]"))
    (expected, expected_other), expected_texts = _first_seen(texts, others)
    assert (found.tolist(), other_found.tolist(), both.to_pylist()) == (
        expected, expected_other, expected_texts)


@pytest.mark.parametrize(("texts", "packs"), [
    (["+12125550101", "+12125550102", "+19175550199", "+12125550101"], True),
    (["+1212555010:", "+12125550102"], True),  # ':' differs from '0' in its low half
    (["+1212555010A", "+12125550102"], False),  # 'A' is 0x41: a high half differs
    (["12125550101+", "+12125550102"], False),  # '+' where the other has a digit
    (["+1212555", "+1212556"], True),  # 8 bytes
    (["+121255501234567", "+121255501234568"], True),  # 16 bytes
    (["+1212555012345678", "+1212555012345679"], False),  # 17: more than one integer
    (["+121255", "+121256"], False),  # 7: less than a word
])
def test_texts_are_packed_where_only_low_halves_differ(texts: list[str], packs: bool) -> None:
    """``_packed.encoded`` takes exactly the columns it can pack one to one, and gives their
    dictionary codes and values."""
    width = len(texts[0])
    fixed = pa.array([text.encode() for text in texts], pa.binary(width))
    found = _packed.encoded([fixed[:1], fixed[1:]], width)
    assert (found is not None) == packs
    if found is not None:
        encoded = pc.dictionary_encode(fixed)
        assert [codes.tolist() for codes in found[0]] == [
            encoded.indices.to_pylist()[:1], encoded.indices.to_pylist()[1:]]
        assert found[1].to_pylist() == encoded.dictionary.to_pylist()
