"""Duplicates earlier in the request: the rows whose phone or external id a row the
service accepted before them already has.

A clean holds the whole file (:func:`in_file`), or reads it in parts
(:class:`Taken`, which keeps across parts only the keys of the rows taken so far,
phones as integers, each with its row's number).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

InRequest = Callable[[pd.Series, pd.Series, np.ndarray, np.ndarray, np.ndarray], np.ndarray]
"""Per row of some of a file's rows (``e164``, ``external``, ``eligible``, ``passes``, and
their ``row`` numbers), the number of the earlier row whose duplicate it is (-1: none)."""


def in_file(e164: pd.Series, external: pd.Series, eligible: np.ndarray, passes: np.ndarray,
            rows: np.ndarray) -> np.ndarray:
    """:data:`InRequest` over one frame that holds every row of the request."""
    return numbered(_in_request(e164, external, eligible=eligible, passes=passes), rows)


def numbered(positions: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Positions among ``rows`` (-1: none) as those rows' numbers."""
    return np.where(positions >= 0, rows[np.maximum(positions, 0)], -1)


def _in_request(e164: pd.Series, external: pd.Series, *, eligible: np.ndarray,
                passes: np.ndarray) -> np.ndarray:
    """Per row, the position of the earlier accepted row of the file that already has its
    phone or external id (-1: none), which the hint names (``duplicate of row 14``).

    The service counts only leads it accepted earlier in the request, so a row
    is a duplicate of the first row with its phone (or id) that passes every
    other check. With one kind of key repeated, that is one vectorised pass;
    with both, a row's fate can hang on another's through either key, and the
    rows that share one are walked in file order.
    """
    keys = [codes for codes in (_codes(_phone_numbers(e164), eligible),
                                _codes(external, eligible, check_first=True))
            if codes is not None]
    if len(keys) == 1:
        return _after_first(keys[0], eligible & passes)
    result = np.full(len(e164), -1, dtype=np.int64)
    if not keys:
        return result
    phone, ident = keys
    shared = np.zeros(len(e164), dtype=bool)
    for codes in keys:
        keyed = codes >= 0
        shared[keyed] |= pd.Series(codes[keyed]).duplicated(keep=False).to_numpy()
    phones_taken: dict[int, int] = {}
    ids_taken: dict[int, int] = {}
    for row in np.flatnonzero(shared).tolist():
        number, own = int(phone[row]), int(ident[row])
        taker = phones_taken.get(number, ids_taken.get(own, -1) if own >= 0 else -1)
        if taker >= 0:
            result[row] = taker
        elif passes[row]:
            phones_taken[number] = row
            if own >= 0:
                ids_taken[own] = row
    return result


def _phone_numbers(e164: pd.Series) -> np.ndarray:
    """E.164 numbers as integers (at most 15 digits; -1 for none): hashing a million of
    them takes a fraction of the memory their text would."""
    column = pa.array(e164, type=pa.large_string())
    digits = pc.cast(pc.utf8_slice_codeunits(column, 1), pa.int64())
    numbers: np.ndarray = pc.fill_null(digits, -1).to_numpy()
    return numbers


def _codes(keys: pd.Series | np.ndarray, eligible: np.ndarray, *,
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


def _after_first(codes: np.ndarray, passing: np.ndarray) -> np.ndarray:
    """Per row with a key that a passing row earlier in the file holds, that row (else -1)."""
    candidates = np.flatnonzero(passing & (codes >= 0))
    first = np.full(codes.max() + 1, len(codes))
    first[codes[candidates][::-1]] = candidates[::-1]  # of repeated indices, the last write stays
    keyed = codes >= 0
    holder = first[codes[keyed]]
    result = np.full(len(codes), -1, dtype=np.int64)
    result[keyed] = np.where(holder < np.flatnonzero(keyed), holder, -1)
    return result


class Taken:
    """:data:`InRequest` over a file read in parts, in order: the phones (as integers)
    and external ids of the rows taken so far, each with its row's number.

    A row of a part is a duplicate of an earlier part's row that has its phone; else,
    of the part's own rows as :func:`in_file` finds them, among the rows no earlier
    part's row has a key of; else, when an earlier part's row has its id, of the part's
    earlier row taken with its phone, or that row: the order of
    :func:`_in_request`'s walk, where a row's phone is looked up before its id.
    Kept: 16 bytes a row taken, and its id.
    """

    def __init__(self) -> None:
        self.phones = pa.array([], pa.int64())
        self.phone_rows = np.empty(0, np.int64)
        self.ids = pa.array([], pa.large_string())
        self.id_rows = np.empty(0, np.int64)

    def __call__(self, e164: pd.Series, external: pd.Series, eligible: np.ndarray,
                 passes: np.ndarray, rows: np.ndarray) -> np.ndarray:
        phone = _phone_numbers(e164)
        ident = pa.chunked_array(external.array.__arrow_array__()).cast(
            pa.large_string()).combine_chunks()
        by_phone = np.where(eligible, _held(pa.array(phone), self.phones, self.phone_rows), -1)
        by_id = np.where(eligible, _held(ident, self.ids, self.id_rows), -1)
        fresh = eligible & (by_phone < 0) & (by_id < 0)
        inside = _in_request(e164, external, eligible=fresh, passes=passes)
        taken = fresh & passes & (inside < 0)
        owners = numbered(inside, rows)
        by_id_only = eligible & (by_phone < 0) & (by_id >= 0)
        if by_id_only.any():
            codes = np.where(by_id_only | taken, pd.factorize(phone)[0], -1)
            earlier = numbered(_after_first(codes, taken), rows)
            owners[by_id_only] = np.where(earlier >= 0, earlier, by_id)[by_id_only]
        self._take(phone[taken], ident.filter(pa.array(taken)), rows[taken])
        return np.where(by_phone >= 0, by_phone, owners)

    def _take(self, phones: np.ndarray, ids: pa.Array, rows: np.ndarray) -> None:
        self.phones = pa.concat_arrays([self.phones, pa.array(phones)])
        self.phone_rows = np.concatenate([self.phone_rows, rows])
        held = ids.is_valid().to_numpy(zero_copy_only=False)
        self.ids = pa.concat_arrays([self.ids, ids.drop_null()])
        self.id_rows = np.concatenate([self.id_rows, rows[held]])


def _held(keys: pa.Array, taken: pa.Array, rows: np.ndarray) -> np.ndarray:
    """Per key, the number of the row that took it (-1: none); a missing key, none."""
    if not len(taken):
        return np.full(len(keys), -1, np.int64)
    at = pc.fill_null(pc.index_in(keys, value_set=taken), -1).to_numpy(zero_copy_only=False)
    return np.where(at >= 0, rows[np.maximum(at, 0)], -1)
