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
from dialkit._arrays._texts import spread

from ._phone_text import SECOND_NUMBER

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
    """:attr:`Phones.other_valid` from each column's numbers (``found``)."""
    other = pd.Series(pd.NA, index=phone.index, dtype="string[pyarrow]")
    for place, numbers in enumerate(found if len(found) > 1 else ()):
        e164 = numbers["phone_e164"].astype("string[pyarrow]")
        offered = (source != place) & e164.notna().to_numpy(bool) & (
            e164 != phone).fillna(True).to_numpy(bool)
        other = other.fillna(e164.where(offered))
    return other


def slug(column: str) -> str:
    """A column's name as a flag's tail: ``Work phone`` → ``work_phone``."""
    return re.sub(r"\W+", "_", column.casefold()).strip("_") or "column"


def flagged(flags: pd.Series, flag: str) -> list[str]:
    """``flags`` with ``flag`` added to each (comma-separated, as :func:`normalize` says them)."""
    return [f"{f},{flag}" if isinstance(f, str) else flag for f in flags.tolist()]


def _alt_phones(frame: pd.DataFrame, columns: list[str], found: list[pd.DataFrame],
                source: np.ndarray, normalized: Normalizer) -> pd.Series:
    """Every number of a row but its phone: each other column's (E.164 and extension,
    else the text as written), each cell's second number, in column order."""
    parts: list[pa.Array] = []
    for place, column in enumerate(columns):
        numbers = found[place]
        if place > 0 or (source != 0).any():
            value = _written(frame[column], numbers)
            parts.append(pc.if_else(pa.array(source == place), pa.nulls(len(frame), pa.string()),
                                    value))
        second = _second_numbers(frame[column], numbers, normalized)
        if second is not None:
            parts.append(second)
    if not parts:
        return pd.Series(pd.NA, index=frame.index, dtype="string[pyarrow]")
    joined = parts[0]
    for part in parts[1:]:  # pyarrow's null_handling="skip" loses a row of nulls
        both = pc.binary_join_element_wise(joined, part, ALT_SEPARATOR)
        joined = pc.if_else(pc.is_null(joined), part, pc.if_else(pc.is_null(part), joined, both))
    return pd.Series(pd.arrays.ArrowStringArray(pc.cast(joined, pa.large_string())),
                     index=frame.index)


def _written(cells: pd.Series, numbers: pd.DataFrame) -> pa.Array:
    """A column's numbers as E.164 (`` ext. `` and its extension where it has one), a cell
    with no valid number as written, an empty one missing."""
    e164 = pa.array(numbers["phone_e164"], pa.string())
    extension = pa.array(numbers["extension"], pa.string())
    with_extension = pc.if_else(pc.is_null(extension), e164, pc.binary_join_element_wise(
        e164, extension, " ext. "))
    text = pc.utf8_trim_whitespace(pa.array(cells, pa.string()))
    missing = pa.array((numbers["reason"] == "missing_phone").fillna(False).to_numpy(bool))
    written = pc.if_else(pc.is_null(e164), text, with_extension)
    return pc.if_else(missing, pa.nulls(len(cells), pa.string()), written)


def _second_numbers(cells: pd.Series, numbers: pd.DataFrame,
                    normalized: Normalizer) -> pa.Array | None:
    """The second number of each cell flagged ``two_numbers``, as :func:`_written` has it."""
    flags = pa.array(numbers["flags"], pa.string())
    two = arrow_bools(pc.match_substring(flags, "two_numbers"))
    if not two.any():
        return None
    rows = np.flatnonzero(two)
    texts = [_after_first(cell) for cell in cells.iloc[rows].tolist()]
    seconds = pd.Series(texts, index=cells.index[rows], dtype="string[pyarrow]")
    return spread(_written(seconds, normalized(seconds)), rows, len(cells))


def _after_first(cell: str) -> str | None:
    parts = SECOND_NUMBER.split(cell, maxsplit=1)
    return parts[1].strip() or None if len(parts) == 2 else None
