"""``_arrays._groups.isin``, the toolkit's membership of text by its distinct values, gives
pandas' own answer for columns and indexes alike, Arrow-backed or Python text, with
missing values among them and among what is asked, by the column's kept hash or asked once
(the monitor asks it of indexes of call ids, where pandas made an Arrow scalar of each id
asked). ``stably_by``, the rows by their codes 16 bits at a time, is numpy's stable sort's
order for codes of every width, negative ones too."""

from __future__ import annotations

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from dialkit._arrays._groups import isin, stably_by

TEXTS = st.lists(st.one_of(st.none(), st.sampled_from(["call_1", "call_2", "", "+1212"])),
                 max_size=12)


@settings(max_examples=60, deadline=None)
@given(column=TEXTS, values=TEXTS, dtype=st.sampled_from(["string[pyarrow]", "object"]),
       index=st.booleans(), keep=st.booleans())
def test_isin_is_pandas_answer_for_columns_and_indexes(column: list[str | None],
                                                        values: list[str | None], dtype: str,
                                                        index: bool, keep: bool) -> None:
    texts = pd.Series(column, dtype=dtype)
    asked = pd.Series(values, dtype=dtype)
    expected = texts.isin(asked).to_numpy(bool)
    found = isin(pd.Index(texts) if index else texts, asked, keep=keep)
    assert isinstance(found, np.ndarray) and found.dtype == bool
    assert found.tolist() == expected.tolist()


CODES = st.one_of(st.integers(0, 3), st.integers(2**16 - 2, 2**16 + 2),
                  st.integers(0, 2**32 - 1), st.integers(-2, 2**40))


@settings(max_examples=80, deadline=None)
@given(codes=st.lists(CODES, min_size=1, max_size=8).flatmap(
    lambda pool: st.lists(st.sampled_from(pool), min_size=100, max_size=400)))
def test_stably_by_is_a_stable_sorts_order(codes: list[int]) -> None:
    keys = np.array(codes, np.int64)
    assert stably_by(keys).tolist() == np.argsort(keys, kind="stable").tolist()
    assert stably_by(keys[:0]).tolist() == []
