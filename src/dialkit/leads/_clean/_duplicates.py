"""The request's duplicates: which row repeats an earlier accepted row's phone or id.

The service counts only leads it accepted earlier in the request, so a row
is a duplicate of the first row with its phone (or external id) that passes
every other check. With one kind of key repeated, that is one vectorised pass
(:func:`after_first`); with both, a row's fate can hang on another's through
either key, and the rows that share one are walked in file order (:func:`walk`).
They judge the buckets of keys (:mod:`._spill`): one in memory for a file held there,
files on disk for a large streamed one, a Dask frame's shuffled partitions.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc


def walk(phone: np.ndarray, ident: np.ndarray, passes: np.ndarray) -> np.ndarray:
    """Per row (in file order; every row that shares a phone or an id with another),
    the place of the earlier row that took its phone or id (-1: none). A row takes its
    keys when no earlier row has either and it passes the other checks; -1 is no key."""
    result = np.full(len(phone), -1, dtype=np.int64)
    phones_taken: dict[int, int] = {}
    ids_taken: dict[int, int] = {}
    for row, (number, own, good) in enumerate(zip(phone.tolist(), ident.tolist(),
                                                  passes.tolist(), strict=True)):
        taker = phones_taken.get(number, ids_taken.get(own, -1) if own >= 0 else -1)
        if taker >= 0:
            result[row] = taker
        elif good:
            phones_taken[number] = row
            if own >= 0:
                ids_taken[own] = row
    return result


def phone_numbers(e164: pd.Series | pa.Array) -> np.ndarray:
    """E.164 numbers as integers (at most 15 digits; -1 for none): hashing a million of
    them takes a fraction of the memory their text would."""
    column = pa.array(e164, type=pa.large_string())
    digits = pc.cast(pc.utf8_slice_codeunits(column, 1), pa.int64())
    numbers: np.ndarray = pc.fill_null(digits, -1).to_numpy()
    return numbers


def after_first(codes: np.ndarray, passing: np.ndarray) -> np.ndarray:
    """Per row with a key that a passing row earlier in the file holds, that row (else -1)."""
    candidates = np.flatnonzero(passing & (codes >= 0))
    first = np.full(codes.max() + 1, len(codes))
    first[codes[candidates][::-1]] = candidates[::-1]  # of repeated indices, the last write stays
    keyed = codes >= 0
    holder = first[codes[keyed]]
    result = np.full(len(codes), -1, dtype=np.int64)
    result[keyed] = np.where(holder < np.flatnonzero(keyed), holder, -1)
    return result
