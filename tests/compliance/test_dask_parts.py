"""The key the Dask audit shuffles on (:func:`dialkit.compliance._dask._parts.number_key`):
equal numbers meet in one partition whatever text or column holds them; a shuffled frame's
categories are given back as the text pandas had
(:func:`~dialkit.compliance._dask._parts._as_given`)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import phonenumbers
import pytest

from dialkit.compliance._dask._parts import _as_given, _compact, number_key


def _examples() -> list[str]:
    """libphonenumber's own example numbers of every region, as E.164."""
    found = (phonenumbers.example_number(region) for region in
             sorted(phonenumbers.SUPPORTED_REGIONS))
    return [phonenumbers.format_number(n, phonenumbers.PhoneNumberFormat.E164)
            for n in found if n is not None]


def test_an_e164_number_is_its_digits() -> None:
    numbers = _examples()
    assert len(numbers) > 200
    keys = number_key(pd.Series(numbers, dtype="string[pyarrow]"))
    assert keys.dtype == np.int64
    assert keys.tolist() == [int(n[1:]) for n in numbers]


def test_equal_texts_have_equal_keys_in_any_column_type() -> None:
    texts = ["+14155550123", "415-555-0123", "", "call me", "+1 415 555 0123", "+" + "9" * 19,
             None, "+14155550123", "415-555-0123"]
    keys = [number_key(pd.Series(texts, dtype=dtype)) for dtype in
            ("string[pyarrow]", object, "str")]
    assert all((k == keys[0]).all() for k in keys)
    first = keys[0]
    assert first[0] == first[7] and first[1] == first[8]
    assert first[6] == 0  # none
    others = first[[1, 2, 3, 4, 5]]
    assert len(set(others.tolist())) == 5 and 0 not in others  # hashed, apart


@pytest.mark.parametrize("dtype", ["string[pyarrow]", "str"])
def test_a_shuffled_frames_categories_are_its_text_again(dtype: str) -> None:
    """Text as Parquet and pandas 3 give it (object columns come back as object, a missing
    value as NaN: a category keeps no difference between None and NaN)."""
    given = pd.DataFrame({
        "disposition": pd.Series(["sale", None, "", "sale", "callback", None], dtype=dtype),
        "campaign_id": pd.Series(["cmp_b", "cmp_a", "cmp_b", None, "cmp_a", "cmp_b"],
                                 dtype=dtype),
        "at": pd.date_range("2026-11-02", periods=6, freq="h", tz="UTC")})
    shuffled = _compact(given).iloc[[5, 0, 3]][["at", "campaign_id", "disposition"]]
    assert isinstance(shuffled["campaign_id"].dtype, pd.CategoricalDtype)
    pd.testing.assert_frame_equal(_as_given(shuffled, given.dtypes), given.iloc[[5, 0, 3]])
