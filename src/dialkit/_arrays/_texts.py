"""The array helpers of the column readers: a text column's bytes and lengths, takes and
replacements of some rows, pattern matches, and rows grouped by a key (one set,
where ``leads/_normalize/_fast.py`` and ``_places/_texts.py`` each kept their own).
"""

from __future__ import annotations

import functools
import re
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from .._utils import _tuning
from ._bools import arrow_bools

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
Rows = NDArray[np.intp]


def buffers(values: pa.Array) -> tuple[Ints, NDArray[np.uint8]]:
    """A string array's offsets (from 0) and bytes (its own rows' of a slice; a large
    string array's too)."""
    _, offsets_buffer, data_buffer = values.buffers()
    width = np.int64 if pa.types.is_large_string(values.type) else np.int32
    offsets = np.frombuffer(offsets_buffer, width)[values.offset:values.offset + len(values) + 1]
    offsets = offsets.astype(np.int64)
    data = (np.zeros(0, np.uint8) if data_buffer is None
            else np.frombuffer(data_buffer, np.uint8)[offsets[0]:offsets[-1]])
    return offsets - offsets[0], data


def from_bytes(data: NDArray[np.uint8], offsets: NDArray[np.integer[Any]]) -> pa.Array:
    """The string array of ``data`` cut at ``offsets``."""
    return pa.StringArray.from_buffers(len(offsets) - 1, pa.py_buffer(offsets.astype(np.int32)),
                                       pa.py_buffer(np.ascontiguousarray(data)))


def lengths(values: pa.Array) -> Ints:
    """Each text's length in bytes (null: 0), read off its offsets: the same as characters
    for the ASCII texts the readers parse (a text that is not is never parsed here)."""
    found = np.diff(buffers(values)[0])
    if values.null_count:
        found[~arrow_bools(values.is_valid())] = 0
    return found


def heads(values: pa.Array, size: int) -> Ints:
    """The number the first ``size`` digits of each value make, -1 where it is shorter."""
    offsets, data = buffers(values)
    long_enough = np.diff(offsets) >= size
    head = np.zeros(len(values), np.int64)
    for at in range(size):
        index = np.minimum(offsets[:-1] + at, max(len(data) - 1, 0))
        digit = data[index].astype(np.int64) - 48 if len(data) else np.zeros(len(values), np.int64)
        head = head * 10 + digit
    return np.where(long_enough, head, -1)


def drop(values: pa.Array, counts: Ints) -> pa.Array:
    """Each value without its first ``counts`` characters (ASCII; a few at most)."""
    offsets, data = buffers(values)
    counts = np.minimum(counts, np.diff(offsets))
    keep = np.ones(len(data), bool)
    for at in range(int(counts.max(initial=0))):
        keep[offsets[:-1][counts > at] + at] = False
    dropped = np.zeros(len(offsets), np.int64)
    np.cumsum(counts, out=dropped[1:])
    return from_bytes(data[keep], offsets - dropped)


def sliced(numbers: pa.Array, start: int, stop: int = 1 << 16) -> pa.Array:
    """``[start:stop]`` of each ASCII text, by its bytes: 1 against 3.5 ms for 183,000
    numbers, where ``utf8_slice_codeunits`` decodes them."""
    return pc.binary_slice(numbers.view(pa.binary()), start, stop).view(pa.string())


def take(values: pa.Array, rows: Rows) -> pa.Array:
    """``values[rows]`` for ascending distinct ``rows``: all of them is ``values`` itself."""
    return values if len(rows) == len(values) else values.take(pa.array(rows))


def replace_rows(values: pa.Array, rows: Rows, new: pa.Array) -> pa.Array:
    """``values`` with ``new`` at ``rows`` (sorted): one take from both."""
    if not len(rows):
        return values
    if len(rows) == len(values):
        return new
    index = np.arange(len(values))
    index[rows] = len(values) + np.arange(len(rows))
    return pa.concat_arrays([values, new]).take(pa.array(index))


def spread(values: pa.Array, rows: Rows, size: int) -> pa.Array:
    """A column of ``size`` rows: ``values`` at ``rows`` (sorted), null elsewhere."""
    positions = np.full(size, -1, np.int64)
    positions[rows] = np.arange(len(rows))
    return values.take(pa.array(positions, mask=positions < 0))


class Changes:
    """New values for some rows of a column, gathered group by group and put in with one
    take at the end: a whole-column take per group cost most of the fast path."""

    def __init__(self, values: pa.Array) -> None:
        self.values = values
        self.rows: list[Rows] = []
        self.new: list[pa.Array] = []

    def add(self, rows: Rows, new: pa.Array) -> None:
        if len(rows):
            self.rows.append(rows)
            self.new.append(new)

    def applied(self) -> pa.Array:
        if not self.rows:
            return self.values
        rows = np.concatenate(self.rows)
        order = np.argsort(rows, kind="stable")
        new = pa.concat_arrays(self.new).take(pa.array(order))
        return replace_rows(self.values, rows[order], new)


def groups(keys: Ints, among: Bools | None = None) -> list[tuple[int, Rows]]:
    """The rows (of ``among``, or all) of each distinct key; a column of one key needs no
    sort. Keys that fit in 16 bits (regions, plans, calling codes, lengths) are
    radix-sorted as they are: hashing them first (``factorize``) cost twice the sort."""
    rows = np.arange(len(keys)) if among is None else np.flatnonzero(among)
    if not len(rows):
        return []
    picked = keys[rows]
    if (picked == picked[0]).all():
        return [(int(picked[0]), rows)]
    if picked.min() >= 0 and picked.max() < 2**16:
        small = picked.astype(np.uint16)
    else:
        small = pd.factorize(picked)[0]
    order = np.argsort(small, kind="stable")  # a radix sort for 16-bit keys
    cuts = np.flatnonzero(np.diff(small[order])) + 1
    return [(int(picked[part[0]]), rows[part]) for part in np.split(order, cuts)]


def match(values: pa.Array, pattern: str) -> Bools:
    """Where ``pattern`` (RE2: the metadata's patterns read alike in ``re``) matches; a
    literal prefix is tested as such, ten times faster."""
    literal = _LITERAL.fullmatch(pattern)
    if literal is not None:
        return starts(values, literal.group(1))
    texts = _few(values)
    if texts is not None:
        search = _compiled(pattern).search
        return np.array([t is not None and search(t) is not None for t in texts], bool)
    return arrow_bools(pc.match_substring_regex(values, pattern))


def matched_among(values: pa.Array, among: Bools, pattern: str | None) -> Bools:
    """Where ``pattern`` matches, of the rows ``among``: tried on those rows alone where
    they are few, else on all (taking most of the texts costs more than matching the
    others: 183,000 numbers, all but one in 1,000 among, 9.9 against 11.4 ms)."""
    found = np.zeros(len(values), bool)
    rows = np.flatnonzero(among)
    if pattern is None or not len(rows):
        return found
    if 2 * len(rows) > len(values):
        return match(values, pattern) & among
    found[rows] = match(take(values, rows), pattern)
    return found


def cut(values: pa.Array, pattern: str) -> pa.Array:
    """Each value without the first match of ``pattern`` (RE2); few values as :func:`match`
    matches them."""
    texts = _few(values)
    if texts is not None:
        sub = _compiled(pattern).sub
        return pa.array([None if t is None else sub("", t, count=1) for t in texts], pa.string())
    return pc.replace_substring_regex(values, pattern, "", max_replacements=1)


def starts(values: pa.Array, prefix: str) -> Bools:
    """Where each value starts with the text ``prefix``."""
    return arrow_bools(pc.starts_with(values, prefix))


def _few(values: pa.Array) -> list[str | None] | None:
    """Fewer than ``_tuning.PHONE_SMALL_MATCH`` values as Python text, where Python's ``re``
    reads them as RE2 does (ASCII, no line break for ``$`` to stop before); else ``None``."""
    if len(values) >= _tuning.PHONE_SMALL_MATCH:
        return None
    texts: list[str | None] = values.to_pylist()
    return texts if all(t is None or (t.isascii() and "\n" not in t) for t in texts) else None


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.ASCII)


_LITERAL = re.compile(r"\^(?:\(\?:)?(\d+)(?:\))?")
