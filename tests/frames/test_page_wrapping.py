"""Where a table's cell may wrap on a page (issue 48): between words, and in an id after
its ``_``, ``-`` or ``/``; never inside a word, never inside a date."""

from __future__ import annotations

import pandas as pd
import pytest

from dialkit._shown._pages import break_points, breakable, html_table


@pytest.mark.parametrize(("text", "pieces"), [
    ("call_0ff99234-b122-49be-89bc-e43fb07e93fe",
     ["call_", "0ff99234-", "b122-", "49be-", "89bc-", "e43fb07e93fe"]),
    ("America/Los_Angeles", ["America/", "Los_", "Angeles"]),
    ("Spring renewals (cmp_09f97…-ff21)", ["Spring renewals (cmp_", "09f97…-", "ff21)"]),
    ("calling_hours", ["calling_", "hours"]),
    ("abandonment", ["abandonment"]),  # no _, - or /: a word stays whole
    ("US-FL", ["US-FL"]),  # short: as it is
    ("a__b--", ["a__b--"]),
])
def test_a_long_word_may_wrap_after_its_underscores_dashes_and_slashes(
        text: str, pieces: list[str]) -> None:
    assert break_points(text) == pieces
    assert "".join(pieces) == text


def test_a_column_name_wraps_after_its_underscore_whatever_its_length() -> None:
    assert break_points("local_time", 0) == ["local_", "time"]


def test_markup_stays_text_and_a_date_stays_on_one_line() -> None:
    assert breakable("<b>_is_a_long_name") == "&lt;b&gt;_<wbr>is_<wbr>a_<wbr>long_<wbr>name"
    assert breakable("2026-10-16 03:34:50 UTC") == (
        '<span style="white-space:nowrap">2026-10-16</span> 03:34:50 UTC')


def test_a_tables_ids_and_names_get_their_break_points_and_numbers_none() -> None:
    table = html_table(pd.DataFrame({"call_id": ["call_1234-5678-90ab"], "calls": [12345]}))
    assert "<th>call_<wbr>id</th>" in table
    assert "<td>call_<wbr>1234-<wbr>5678-<wbr>90ab</td>" in table
    assert '<td class="dialkit-number">12,345</td>' in table
