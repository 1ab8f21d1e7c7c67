"""The cells :mod:`dialkit.leads._normalize._rewrite` takes apart a column at a time (Excel floats,
extensions, two numbers, Unicode digits) get the slow path's answer, cell for cell; the
ones it must not read (a longer extension, digits after a comma that ``phonenumbers``
reads as an extension, ...) are left to the slow path and get its answer too."""

from __future__ import annotations

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dialkit.leads import normalize
from dialkit.leads._normalize._columns import _frame
from dialkit.leads._normalize._fast import verdicts
from dialkit.leads._normalize._rewrite import rewrite

REGIONS = ("US", "CA", "GB", "DE", "FR", "IN", "BR", "AR", "JP", "AU", "MX", "EG", "AG")
Format = phonenumbers.PhoneNumberFormat
EXTENSIONS = (" ext. {}", " x{}", " ext {}", " #{}", ";ext={}", ",,{}", " extension {}",
              " Ext: {}", " x. {}", "x{}", ", ext. {}", " EXTN {}", " anexo {}", " int {}",
              " ~{}", ";{}", ",{}", ", {}", " ,,{}", " xt {}", " extensio {}", " x-{}",
              # near misses: read otherwise, or not at all
              " x{}#", " e{}", "; ext {}", ";ext= {}", " ext.. {}", " x{}0000000", " # {} 1",
              " ext {}a", " доб. {}", " ｅｘｔ{}", "/x{}", " - {}#")
JOINS = (" / ", "/", ", ", ",", "; ", ";", " or ", " and ", " & ", "&", " OR ", "or", " - ",
         " | ", " / x")
WIDE = str.maketrans("0123456789", "０１２３４５６７８９")
ARABIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


@st.composite
def numbers(draw: st.DrawFn) -> str:
    """A number as someone writes it: an example number of some region, its last digits
    varied, in one of phonenumbers' formats, maybe with ``00``/``011``/trunk ``1``."""
    region = draw(st.sampled_from(REGIONS))
    kind = draw(st.sampled_from((phonenumbers.PhoneNumberType.MOBILE,
                                 phonenumbers.PhoneNumberType.FIXED_LINE)))
    example = phonenumbers.example_number_for_type(region, kind) or \
        phonenumbers.example_number(region)
    assert example is not None
    tail = draw(st.integers(0, 999))
    number = phonenumbers.PhoneNumber(
        country_code=example.country_code,
        national_number=example.national_number // 1000 * 1000 + tail,
        italian_leading_zero=example.italian_leading_zero,
        number_of_leading_zeros=example.number_of_leading_zeros)
    style = draw(st.sampled_from((Format.NATIONAL, Format.INTERNATIONAL, Format.E164)))
    text = phonenumbers.format_number(number, style)
    if text.startswith("+"):
        text = draw(st.sampled_from(("", "", "00", "00 ", "011 ", "(00", "1"))) + text[1:] \
            if draw(st.booleans()) else text
    return text


@st.composite
def cells(draw: st.DrawFn) -> str:
    """A cell of one of the shapes the rewrite reads, or nearly."""
    number = draw(numbers())
    shape = draw(st.sampled_from(("excel", "extension", "two", "unicode", "junk", "plain")))
    if shape == "excel":
        digits = "".join(c for c in number if c.isdigit() or c == "+")
        cell = draw(st.sampled_from(("", "+"))) + digits.lstrip("+") + \
            draw(st.sampled_from((".0", ".00", ".0 ", ".5", ".", "0.0")))
        cell = draw(st.sampled_from(("", " "))) + cell
    elif shape == "extension":
        digits = draw(st.text("0123456789", min_size=1, max_size=22))
        cell = number + draw(st.sampled_from(EXTENSIONS)).format(digits)
    elif shape == "two":
        second = draw(st.one_of(numbers(), st.text("0123456789", min_size=1, max_size=16)))
        cell = number + draw(st.sampled_from(JOINS)) + second
    elif shape == "unicode":
        cell = number.translate(draw(st.sampled_from((WIDE, ARABIC))))
        cell = cell.replace(" ", draw(st.sampled_from((" ", "\u00a0", "\u3000", "\u2009"))))
        cell = cell.replace("-", draw(st.sampled_from(("-", "\u2013", "\uff0d"))))
    elif shape == "junk":
        cell = draw(st.sampled_from(("n/a", "TBD", "call back", "2024-03-15", "12/05/2023",
                                     "0", "4.15555E+09", "555-0123", "?", "")))
    else:
        cell = number
    return cell


@settings(max_examples=200, deadline=None)
@given(rows=st.lists(st.tuples(cells(), st.sampled_from(("", *REGIONS))), min_size=1,
                     max_size=30))
def test_every_rewritten_cell_gets_the_slow_path_s_answer(rows: list[tuple[str, str]]) -> None:
    texts, countries = [t for t, _ in rows], [c for _, c in rows]
    fast = normalize(texts, country=countries)
    slow = _frame(texts, region="US", country=countries, fast=False)
    pd.testing.assert_frame_equal(fast, slow)


READ = {  # cell: (text handed to the fast path, flags, extension)
    "4155550123.0": ("4155550123", 1, None),
    " +14155550123.00 ": ("+14155550123", 1, None),
    "415 555 0123 x45": ("415 555 0123", 4, "45"),
    "(415) 555-0123, ext. 7": ("(415) 555-0123", 4, "7"),
    "+44 20 7946 0123;ext=12": ("+44 20 7946 0123", 4, "12"),
    "0044 20 7946 0123,,9": ("0044 20 7946 0123", 4, "9"),
    "415 555 0123; 212555": ("415 555 0123", 4, "212555"),
    "415 555 0123 x123456789": ("415 555 0123", 4, "123456789"),
    "415 555 0123; 212555018712345": ("415 555 0123", 4, "212555018712345"),
    "415 555 0123, 212555018": ("415 555 0123", 4, "212555018"),
    "415 555 0123 ext 12345678901234567890": ("415 555 0123", 4, "12345678901234567890"),
    "415 555 0123, 2125550187": ("415 555 0123", 2, None),
    "415 555 0123; 2125550187123456": ("415 555 0123", 2, None),
    "415-555-0123 / 212-555-0187": ("415-555-0123", 2, None),
    "415 555 0123 or (212) 555 0187": ("415 555 0123", 2, None),
    "４１５ ５５５ ０１２３": ("415 555 0123", 0, None),
    "٤١٥٥٥٥٠١٢٣.0": ("4155550123", 1, None),
}
LEFT = ["415 555 0123 x1234567890", "415 555 0123 x45#",
        "415 555 0123,, 2125550187123456", "415 555 0123 / 212 55", "415 555 0123or212 555 0187",
        "Tel: 415 555 0123 x4", "415 555 0123 / 212 555 0187 x9", "4.15555E+09", "n/a",
        "415+555 0123 x4", "415 555 0123 e45",
        "415 555 0123 ext 123456789012345678901", "415 555 0123\tx45", "415 555 0123 ext= 4"]
"""Cells no rewrite reads (the slow path's): each differs from a shape above in one way."""


def test_each_shape_is_read_as_clean_reads_it_and_near_misses_are_left() -> None:
    texts = pa.array([*READ, *LEFT], pa.string())
    found = rewrite(texts, np.arange(len(texts)))
    assert found.rows.tolist() == list(range(len(READ)))
    got = list(zip(found.texts.to_pylist(), found.flags.tolist(), found.extension.to_pylist(),
                   strict=True))
    assert got == list(READ.values())


def test_rewritten_cells_do_go_fast() -> None:
    """Else the property above would hold by sending every such cell to phonenumbers."""
    found = verdicts(pa.array(list(READ), pa.string()), np.zeros(len(READ), np.int64), ["US"])
    assert found.done.all()
    assert found.flags.to_pylist()[:3] == ["excel_float", "excel_float", "extension"]


@pytest.mark.parametrize("region", ["US", "GB", "DE", "AR"])
def test_the_named_shapes_and_their_near_misses_agree_with_the_slow_path(region: str) -> None:
    texts = [*READ, *LEFT]
    fast = normalize(texts, region=region)
    pd.testing.assert_frame_equal(fast, _frame(texts, region=region, country=None, fast=False))
