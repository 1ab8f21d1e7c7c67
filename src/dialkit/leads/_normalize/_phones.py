"""A lead's phone when a file has more than one: the fallback columns and the other numbers.

A vendor file often has ``Phone`` and ``Mobile`` (or ``Cell``, ``Work phone``,
``Home phone``). The first is the lead's phone; where it holds no valid number,
the first other column that does gives it (flagged ``from_<column>``). Every
other number of the row, a second number written in the same cell included, is
kept as the row's ``alt_phone`` (E.164 where valid, else the text as written),
which the import sends as a custom field: nothing the file held is dropped unsaid.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from dialkit._arrays._bools import arrow_bools
from dialkit._arrays._texts import replace_rows, spread, take

from ._phone_text import second_number

ALT_SEPARATOR = ", "
"""Between the numbers of one row's ``alt_phone`` (custom field values are scalars)."""


Normalizer = Callable[[pd.Series], pd.DataFrame]
"""Normalises cells of the file (all or some rows, by the frame's index), each with its
row's region."""


@dataclass(frozen=True)
class Phones:
    """Each row's phone, from the column that gave it, and its other numbers.

    Attributes:
        numbers: :func:`normalize`'s columns for the number chosen.
        cells: The cell each row's phone was read from (for the service's length rule).
        source: Per row, the place in ``columns`` of the column that gave the phone.
        alt_phone: The row's other numbers, joined by ``", "``; missing when none.
        columns: The phone column, then the fallback columns, in file order.
        other_valid: Per row, the first valid number (E.164) of another of ``columns``
            than the one that gave its phone, and not its phone; missing where none:
            what the hint of a row refused for its phone offers.
    """

    numbers: pd.DataFrame
    cells: pd.Series
    source: np.ndarray
    alt_phone: pd.Series
    columns: list[str]
    other_valid: pd.Series


def choose(frame: pd.DataFrame, columns: list[str], normalized: Normalizer,
           first: pd.DataFrame | None = None) -> Phones:
    """Each row's phone from the first of ``columns`` with a valid number (the first
    column where none has one), and its other numbers as ``alt_phone``; ``first``: the
    first column's numbers where they were normalised already (ahead, on another thread)."""
    found = [normalized(frame[columns[0]]) if first is None else first]
    cells = frame[columns[0]]
    source = np.zeros(len(frame), dtype=np.int8)
    numbers = found[0]
    need = numbers["reason"].notna().to_numpy(dtype=bool, copy=True)
    for place, column in enumerate(columns[1:], start=1):
        found.append(normalized(frame[column]))
        take = need & found[place]["phone_e164"].notna().to_numpy(dtype=bool)
        if take.any():
            numbers, cells = numbers.copy(), cells.copy()
            numbers.loc[take] = found[place].loc[take].to_numpy()
            numbers.loc[take, "flags"] = flagged(found[place]["flags"][take],
                                                  f"from_{slug(column)}")
            cells.loc[take] = frame[column].loc[take]
            source[take] = place
            need &= ~take
    alt = _alt_phones(frame, columns, found, source, normalized)
    return Phones(numbers, cells, source, alt, columns,
                  _other_valid(found, source, numbers["phone_e164"]))


def _other_valid(found: list[pd.DataFrame], source: np.ndarray, phone: pd.Series) -> pd.Series:
    """:attr:`Phones.other_valid` from each column's numbers (``found``), over Arrow arrays
    (pandas' ``where`` and ``fillna`` of them took 0.11 s of a 500,000-row chunk)."""
    chosen = pa.array(phone, pa.large_string())
    other = pa.nulls(len(phone), pa.large_string())
    for place, numbers in enumerate(found if len(found) > 1 else ()):
        e164 = pa.array(numbers["phone_e164"], pa.large_string())
        offered = pc.and_(pa.array(source != place),
                          pc.fill_null(pc.not_equal(e164, chosen), True))
        other = pc.coalesce(other, pc.if_else(offered, e164, None))
    return pd.Series(pd.arrays.ArrowStringArray(other), index=phone.index)


def slug(column: str) -> str:
    """A column's name as a flag's tail: ``Work phone`` → ``work_phone``."""
    return re.sub(r"\W+", "_", column.casefold()).strip("_") or "column"


def flagged(flags: pd.Series, flag: str) -> list[str]:
    """``flags`` with ``flag`` added to each (comma-separated, as :func:`normalize` says them)."""
    return [f"{f},{flag}" if isinstance(f, str) else flag for f in flags.tolist()]


def _alt_phones(frame: pd.DataFrame, columns: list[str], found: list[pd.DataFrame],
                source: np.ndarray, normalized: Normalizer) -> pd.Series:
    """Every number of a row but its phone: each other column's (E.164 and extension,
    else the text as written), each cell's second number, in column order. A column's
    numbers are written only at the rows whose phone another column gave (the first
    column's at the few its fallbacks filled), and two parts joined only at the rows
    that hold both: text kernels over every row of every part made this 0.43 CPU s of a
    500,000-row chunk of two phone columns, 0.29 so."""
    parts: list[pa.Array] = []
    for place, column in enumerate(columns):
        numbers = found[place]
        if (source != place).any():
            parts.append(_written(frame[column], numbers, source != place))
        second = _second_numbers(frame[column], numbers, normalized)
        if second is not None:
            parts.append(second)
    joined = parts[0] if parts else pa.nulls(len(frame), pa.string())
    for part in parts[1:]:
        joined = _joined(joined, part)
    return pd.Series(pd.arrays.ArrowStringArray(pc.cast(joined, pa.large_string())),
                     index=frame.index)


def _joined(first: pa.Array, second: pa.Array) -> pa.Array:
    """Each row's two texts joined by :data:`ALT_SEPARATOR`, or the one it has (pyarrow's
    ``null_handling="skip"`` makes a row of nulls empty, not missing)."""
    both = np.flatnonzero(arrow_bools(first.is_valid()) & arrow_bools(second.is_valid()))
    return replace_rows(pc.coalesce(first, second), both, pc.binary_join_element_wise(
        take(first, both), take(second, both), ALT_SEPARATOR))


def _written(cells: pd.Series, numbers: pd.DataFrame, among: np.ndarray | None = None
             ) -> pa.Array:
    """A column's numbers as E.164 (`` ext. `` and its extension where it has one), a cell
    with no valid number as written, an empty one missing; only ``among`` those rows
    (else all), the others missing: where they are few (the first column's, whose
    phones its fallbacks filled), only they are read."""
    rows = None if among is None or 2 * among.sum() > len(among) else np.flatnonzero(among)

    def at(values: pd.Series) -> pa.Array:
        array = pa.array(values, pa.string())
        array = array.combine_chunks() if isinstance(array, pa.ChunkedArray) else array
        return array if rows is None else take(array, rows)

    e164 = at(numbers["phone_e164"])
    with_extension = pc.coalesce(pc.binary_join_element_wise(
        e164, at(numbers["extension"]), " ext. "), e164)
    written = pc.coalesce(with_extension, pc.utf8_trim_whitespace(at(cells)))
    missing = pc.fill_null(pc.equal(at(numbers["reason"]), "missing_phone"), False)
    if rows is not None:
        return spread(pc.if_else(missing, None, written), rows, len(cells))
    if among is not None:
        missing = pc.or_(missing, pa.array(~among))
    return pc.if_else(missing, None, written)


def _second_numbers(cells: pd.Series, numbers: pd.DataFrame,
                    normalized: Normalizer) -> pa.Array | None:
    """The second number of each cell flagged ``two_numbers``, as :func:`_written` has it."""
    flags = pa.array(numbers["flags"], pa.string())
    two = arrow_bools(pc.match_substring(flags, "two_numbers"))
    if not two.any():
        return None
    rows = np.flatnonzero(two)
    texts = [second_number(cell) for cell in cells.iloc[rows].tolist()]
    seconds = pd.Series(texts, index=cells.index[rows], dtype="string[pyarrow]")
    return spread(_written(seconds, normalized(seconds)), rows, len(cells))
