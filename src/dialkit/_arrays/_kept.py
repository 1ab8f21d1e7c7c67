"""What is kept of a frame's text columns while their data live: their hash, and what is
asked of their distinct texts (the numbers' zones, the leads' codes among the calls').

A notebook asks the same frames again and again (a funnel, the attempts, the answer
rates, a widget's every redraw, an audit under another preset), and hashing a million
texts takes 60-100 ms, asking their numbers' zones as long again. pandas holds an Arrow
column's data immutable: a column set anew holds new data. So an answer is kept by the
identity of the data it was computed from, for as long as they live, and never by
their value.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from ._bools import arrow_bools
from ._packed import encoded as packed

Ints = NDArray[np.int64]
Rows = NDArray[np.intp]


def hashed(column: pd.Series) -> tuple[Ints, pa.Array]:
    """Each row's index into the distinct texts of ``column`` (-1: null), and those texts in
    first-seen order. The answer for an Arrow column is kept while its data live (see
    :func:`kept`): an audit asks it of the same numbers for the calling hours and again for
    the frequency, and a notebook's funnel, answer rates and attempts of the same calls."""
    source = arrow_data(column)
    if source is None:
        return _hashed(column)
    return kept("hashed", source, lambda: _hashed(column))


def hashed_with(column: pd.Series, other: pd.Series) -> tuple[Ints, Ints, pa.Array]:
    """:func:`hashed` of ``column`` (text), and codes for ``other``'s texts (text) among
    its distinct ones, the texts ``column`` lacks numbered after those in ``other``'s
    first-seen order (-1: null); and the texts those codes index. Where ``column``'s hash
    is not kept yet, both are hashed in one pass, ``column``'s texts first, and
    ``column``'s hash kept: the same codes and texts as hashing it and looking ``other``
    up in its distinct texts (a second table of them built), for 72 against 120 ms of a
    million calls' numbers and 200,000 leads'."""
    source = arrow_data(column)
    if source is None or is_kept("hashed", source) or not len(column) or not len(other):
        codes, distinct = hashed(column)
        return (codes, *_looked_up(_text(other), distinct))
    (codes, other_codes), texts = _encoded([_text(column), _text(other)])  # one pass
    met = int(codes.max(initial=-1)) + 1  # column's texts, first seen before other's
    kept("hashed", source, lambda: (codes, texts.slice(0, met)))
    return codes, other_codes, texts


def _looked_up(text: pa.Array, distinct: pa.Array) -> tuple[Ints, pa.Array]:
    """Codes for ``text`` among the ``distinct`` texts, those it lacks numbered after them
    in first-seen order (-1: null); and the texts they index."""
    codes = filled(pc.index_in(text, value_set=distinct))
    lacking = np.flatnonzero((codes < 0) & arrow_bools(text.is_valid()))
    extra = pc.dictionary_encode(text.take(pa.array(lacking, pa.int64())))
    codes[lacking] = len(distinct) + filled(extra.indices)
    codes.setflags(write=False)  # shared by every caller
    return codes, pa.concat_arrays([distinct, extra.dictionary])


def filled(indices: pa.Array) -> Ints:
    """Arrow indices as int64, null as -1."""
    return np.asarray(indices.fill_null(-1).to_numpy(zero_copy_only=False), np.int64)


def _encoded(parts: list[pa.StringArray]) -> tuple[list[Ints], pa.Array]:
    """Text arrays dictionary-encoded as one: each one's codes (-1: null), and the texts in
    first-seen order over the parts in turn. Where every text of every part has one byte
    length (:func:`_one_width`), as integers packing their bytes' low halves where those
    are all that differ (:mod:`._packed`: E.164 numbers of one country), else as
    fixed-width binary over the same bytes."""
    width = _one_width(parts[0])
    if width is None or any(_one_width(part) != width for part in parts[1:]):
        codes, distinct = _by_arrow(parts, pa.string())
    else:
        fixed = [_fixed(part, width) for part in parts]
        codes, values = packed(fixed, width) or _by_arrow(fixed, pa.binary(width))
        distinct = _from_fixed(values, width)
    for found in codes:
        found.setflags(write=False)  # shared by every caller
    return codes, distinct


def _by_arrow(parts: list[pa.Array], kind: pa.DataType) -> tuple[list[Ints], pa.Array]:
    """Arrays of ``kind`` dictionary-encoded as one by Arrow: each one's codes (-1: null),
    and the distinct values."""
    encoded = pc.dictionary_encode(pa.chunked_array(parts, kind))
    chunks = iter(encoded.chunks)  # one a part, but none for an empty part
    codes = [filled(next(chunks).indices) if len(part) else np.empty(0, np.int64)
             for part in parts]
    return codes, (encoded.chunks[-1].dictionary if encoded.num_chunks
                   else pa.array([], kind))


def hash_taken(taken: pd.Series, column: pd.Series, rows: Rows) -> None:
    """Keep for ``taken``, ``column``'s ``rows``, the hash of ``column`` (kept) at those
    rows: its hash then costs a gather, and its numbers' zones (kept by the same distinct
    texts) nothing, where an audit takes the outbound calls' numbers from the calls' own
    column anew each time (70 ms of hashing and 100 ms of zones a million calls). Its
    distinct texts may then hold some that ``taken`` lacks, a code no row has, which every
    caller here allows."""
    source, whole = (arrow_data(c) for c in (taken, column))
    if source is None or whole is None:
        return
    codes, distinct = hashed(column)
    at = codes[rows]
    at.setflags(write=False)
    kept("hashed", source, lambda: (at, distinct))


def arrow_data(column: pd.Series) -> object | None:
    """A column's Arrow data (what :func:`kept` keeps by), or None."""
    found: object | None = (column.array.__arrow_array__()
                            if hasattr(column.array, "__arrow_array__") else None)
    return found


def _hashed(column: pd.Series) -> tuple[Ints, pa.Array]:
    (codes,), distinct = _encoded([_text(column)])
    return codes, distinct


def _one_width(text: pa.StringArray) -> int | None:
    """The byte length every text of ``text`` has, where there is one and no null: such a
    column (a country's numbers, the contract's ids) is hashed as fixed-width binary, a
    quarter faster than as text (36 against 47 ms for a million numbers of 12 bytes; the
    same codes, in the same first-seen order)."""
    if text.null_count or not len(text):
        return None
    widths = np.diff(np.frombuffer(text.buffers()[1], np.int32, len(text) + 1,
                                   text.offset * 4))
    width = int(widths[0])
    return width if width and bool((widths == width).all()) else None


def _fixed(text: pa.StringArray, width: int) -> pa.Array:
    """The bytes of ``text``, all ``width`` long, as fixed-width binary (no copy)."""
    start = int(np.frombuffer(text.buffers()[1], np.int32, 1, text.offset * 4)[0])
    data = text.buffers()[2].slice(start, width * len(text))
    return pa.FixedSizeBinaryArray.from_buffers(pa.binary(width), len(text), [None, data])


def _from_fixed(values: pa.Array, width: int) -> pa.Array:
    """Fixed-width binary values (of :func:`_fixed`'s text) as text again (no copy of the
    bytes)."""
    data = values.buffers()[1].slice(values.offset * width, width * len(values))
    ends = pa.py_buffer(np.arange(len(values) + 1, dtype=np.int32) * width)
    return pa.StringArray.from_buffers(len(values), ends, data)


T = TypeVar("T")


def is_kept(kind: str, source: object) -> bool:
    """Whether :func:`kept` holds an answer of ``kind`` for ``source`` (one source)."""
    found = _KEPT.get((kind, id(source)))
    return found is not None and found[0][0]() is source


def kept(kind: str, sources: object | tuple[object, ...], compute: Callable[[], T]) -> T:
    """``compute()``, kept for ``sources`` (Arrow arrays, immutable) while they live, under
    ``kind``: hashing a million texts takes 60-100 ms, asking their zones as long again, and
    a frame's columns are asked again and again (every analysis, every widget's redraw).
    Kept by the identity of the data, not by their value, so equal data elsewhere are
    computed anew; a pandas column set anew holds new Arrow data."""
    held = sources if isinstance(sources, tuple) else (sources,)
    key = (kind, *map(id, held))
    found = _KEPT.get(key)
    if found is not None and all(ref() is source for ref, source in zip(found[0], held,
                                                                        strict=True)):
        return cast(T, found[1])
    value = compute()
    memo = _KEPT  # the callbacks hold the dict itself: at exit the module's names are gone
    memo[key] = (tuple(weakref.ref(source, lambda _: memo.pop(key, None)) for source in held),
                 value)
    return value


_KEPT: dict[tuple[object, ...], tuple[tuple[weakref.ref[Any], ...], object]] = {}
"""What :func:`kept` holds: by kind and the identity of the data, each while its data live."""


def _text(column: pd.Series) -> pa.Array:
    """A text column as one Arrow ``string`` array."""
    text = pa.array(column.array, pa.string(), from_pandas=True)
    return text.combine_chunks() if isinstance(text, pa.ChunkedArray) else text
