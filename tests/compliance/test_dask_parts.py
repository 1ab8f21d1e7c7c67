"""The key the Dask audit shuffles on (:func:`dialkit.compliance._parts.number_key`): equal
numbers meet in one partition whatever text or column holds them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import phonenumbers

from dialkit.compliance._parts import number_key


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
