"""The request's duplicates: which row repeats an earlier accepted row's phone or id.

The service counts only leads it accepted earlier in the request, so a row
is a duplicate of the first row with its phone (or external id) that passes
every other check. With one kind of key repeated, that is one vectorised pass
(:func:`after_first`); with both, a row's fate can hang on another's through
either key, and the rows that share one are walked in file order (:func:`walk`).
The same functions judge the keys of a file held in memory and the buckets of a
streamed one (:mod:`._spill`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc


def holders(numbers: np.ndarray, external: pd.Series, *, eligible: np.ndarray,
            passes: np.ndarray) -> np.ndarray:
    """Per row, the position of the earlier accepted row that already has its phone
    (``numbers``, as integers: :func:`phone_numbers`) or external id (-1: none), which
    the hint names (``duplicate of row 14``)."""
    keys = [codes for codes in (codes_of(numbers, eligible),
                                codes_of(external, eligible, check_first=True))
            if codes is not None]
    if len(keys) == 1:
        return after_first(keys[0], eligible & passes)
    if not keys:
        return np.full(len(numbers), -1, dtype=np.int64)
    shared = np.zeros(len(numbers), dtype=bool)
    for codes in keys:
        keyed = codes >= 0
        shared[keyed] |= pd.Series(codes[keyed]).duplicated(keep=False).to_numpy()
    rows = np.flatnonzero(shared)
    result = np.full(len(numbers), -1, dtype=np.int64)
    taker = walk(keys[0][rows], keys[1][rows], passes[rows])
    result[rows] = np.where(taker >= 0, rows[np.maximum(taker, 0)], -1)
    return result


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


def codes_of(keys: pd.Series | np.ndarray, eligible: np.ndarray, *,
             check_first: bool = False) -> np.ndarray | None:
    """Each eligible row's key as an integer (-1 for none), or ``None`` when no key repeats.

    ``check_first``: look for a repeat by sorting before hashing; for ids, which
    seldom repeat, a sort costs less memory than the hash table it saves.
    """
    if check_first:
        column = pa.array(keys, type=pa.large_string()).drop_null()
        ordered = column.take(pc.array_sort_indices(column))
        if len(ordered) < 2 or not pc.any(pc.equal(ordered[1:], ordered[:-1])).as_py():
            return None
    codes = np.where(eligible, pd.factorize(keys, use_na_sentinel=True)[0], -1)
    if isinstance(keys, np.ndarray):
        codes[keys < 0] = -1  # no number
    return codes if (np.bincount(codes[codes >= 0]) > 1).any() else None


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
