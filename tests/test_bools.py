"""``dialkit._arrays._bools``: Arrow's booleans as numpy's, against Python's own reading of them
(``value is True``), on arrays of every shape Arrow hands back: nulls or none, sliced at
any bit, chunked, empty, all null."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from hypothesis import given
from hypothesis import strategies as st

from dialkit._arrays._bools import arrow_bools

values = st.lists(st.one_of(st.booleans(), st.none()), max_size=80)


@given(values, st.integers(0, 40), st.integers(0, 40))
def test_a_sliced_array_reads_as_python_reads_it(cells: list[bool | None], start: int,
                                                 length: int) -> None:
    array = pa.array(cells, pa.bool_()).slice(start, length)
    expected = [cell is True for cell in array.to_pylist()]
    found = arrow_bools(array)
    assert found.dtype == np.bool_ and found.tolist() == expected


@given(st.lists(values, max_size=5))
def test_a_chunked_array_reads_as_its_chunks_in_turn(chunks: list[list[bool | None]]) -> None:
    array = pa.chunked_array([pa.array(chunk, pa.bool_()) for chunk in chunks], pa.bool_())
    assert arrow_bools(array).tolist() == [cell is True for cell in array.to_pylist()]


def test_a_kernels_answer_on_nulls_and_a_null_typed_column() -> None:
    texts = pa.array(["sale", None, "no_answer", "sale", None] * 7)
    assert arrow_bools(pc.equal(texts, "sale")).tolist() == [True, False, False, True,
                                                             False] * 7
    assert arrow_bools(pc.equal(pa.array([None, None], pa.string()), "x")).tolist() == [
        False, False]
    assert arrow_bools(pa.nulls(3)).tolist() == [False] * 3


def test_the_answer_is_the_callers_own() -> None:
    array = pa.array([True, False, True])
    found = arrow_bools(array)
    found[0] = False
    assert array.to_pylist() == [True, False, True]
