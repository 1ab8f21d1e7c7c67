"""E.164 normalisation of phone columns, with the metadata of the ``phonenumbers`` package.

Cells of plain shape (digits, a leading ``+``, separators) are read a whole column at
a time by :mod:`._fast`, which follows ``phonenumbers``' own rules over pyarrow arrays;
so are Excel floats, extensions, two numbers and Unicode digits in the shapes
:mod:`._rewrite` takes apart column-wise first. Every other cell is cleaned
(:mod:`._phone_text`) and parsed one by one, each distinct (text, region) pair once,
then mapped back to every row that holds it: lead files
repeat numbers, and ``phonenumbers`` is the slow part. Either way the verdict is
``phonenumbers``' own on the cleaned text: ``parse`` + ``is_valid_number`` +
``format_number(E164)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from dialkit._arrays._bools import arrow_bools
from dialkit._arrays._texts import replace_rows, spread
from dialkit._places._regions import is_missing
from dialkit._places._regions import region_of as region_of  # published by dialkit.leads
from dialkit.contract import LeadResultReason, is_e164

from ..._utils._base_error import InputError
from . import _fast
from ._fast import COLUMNS, MIN_INTERNATIONAL_DIGITS
from ._other_country import other_country
from ._phone_text import clean, plain
from ._readings import other_readings

_MISSING = LeadResultReason.MISSING_PHONE.value
IN_FULL = r"^[^\p{Nd}+\x{FF0B}]*[+\x{FF0B}]"
"""A cell whose number is written in full: a plus sign (ASCII or full width) before its
first digit, so that ``phonenumbers`` reads its country code, not its default region."""

_E164 = phonenumbers.PhoneNumberFormat.E164


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one distinct cell became."""

    phone_e164: str | None
    country: str | None
    extension: str | None
    reason: str | None
    flags: str | None


def normalize(phones: Sequence[Any] | pd.Series, *, region: str = "US",
              country: Sequence[Any] | pd.Series | None = None) -> pd.DataFrame:
    """Phone numbers to E.164, one row per input, on the input's index.

    Cells of plain shape (ASCII digits, an optional leading ``+``, spaces, dashes,
    dots and brackets), and the common shapes cleaning rewrites into one (an Excel
    float, an extension, two numbers, Unicode digits), are read a whole column at a
    time against ``phonenumbers``' own metadata (:mod:`._rewrite`, :mod:`._fast`);
    any other cell, and any rule that path does not reproduce, goes through
    ``phonenumbers`` itself, once per distinct cell and region. Both give the same
    answer.

    Args:
        phones: The phone cells, as text (numbers are taken as their text).
        region: The default region (ISO alpha-2) of numbers written nationally.
        country: Each row's country, where the file has one: an ISO 3166 code,
            a calling code (``44``, ``+44``, ``0044``) or a country's name in
            English or a language of the country (:func:`region_of`); a blank one
            falls back to ``region``; one that names no country is not read in
            any: the row is refused ``unknown_country``.

    Returns:
        ``phone_e164`` (``None`` unless valid), ``country`` (the number's region),
        ``extension``, ``reason`` (``missing_phone``, ``invalid_phone`` or ``None``)
        and ``flags`` (comma-separated: ``excel_float``, ``excel_scientific``,
        ``extension``, ``two_numbers``, ``vanity``, ``international_prefix``,
        ``added_plus``, ``unknown_country``, ``not_a_phone``: a date, a time or
        text without a digit, ``over_15_digits``: a number ``phonenumbers``
        accepts that is longer than E.164 allows, refused as the contract's
        pattern refuses it), all of dtype ``string[pyarrow]``. An extension is
        read as ``phonenumbers.parse`` reads it (``ext. 123``, ``x123``,
        ``#123``, ``;ext=123``, ``доб. 123``, ``,,123`` ...).

    Examples:
        >>> normalize(["(415) 555-0123", "0044 20 7946 0123"])["phone_e164"].tolist()
        ['+14155550123', '+442079460123']
    """
    return _frame(phones, region=region, country=country, fast=True)


def _frame(phones: Sequence[Any] | pd.Series, *, region: str,
           country: Sequence[Any] | pd.Series | None, fast: bool) -> pd.DataFrame:
    """:func:`normalize`; ``fast=False`` parses every cell with ``phonenumbers``, the
    reference the tests hold the fast path to."""
    region = _region(region)
    cells = pd.Series(phones)
    texts = _texts(cells)
    where, names, unknown, named = _row_regions(country, region, cells.index)
    columns = _others(_read(texts, where, names, fast), texts, where, names, fast)
    columns = _unread(columns, unknown, texts)
    other = other_country(columns[1], columns[0], named, names, where)
    columns[4] = _flagged(columns[4], other, columns[4].take(pa.array(other)), "other_country")
    return pd.DataFrame({name: pd.arrays.ArrowStringArray(column)
                         for name, column in zip(COLUMNS, columns, strict=True)},
                        index=cells.index)


def _read(texts: pa.Array, where: NDArray[np.int64], names: list[str],
          fast: bool) -> list[pa.Array]:
    """The columns of :data:`COLUMNS` for ``texts``, each read in its row's region: by the
    fast path where it can, by ``phonenumbers`` elsewhere (everywhere unless ``fast``)."""
    if fast:
        found = _fast.verdicts(texts, where, names)
        columns = [getattr(found, name) for name in COLUMNS]
        rest = np.flatnonzero(~found.done)
    else:
        columns, rest = [pa.nulls(len(texts), pa.string())] * len(COLUMNS), np.arange(len(texts))
    return [replace_rows(column, rest, values)
            for column, values in zip(columns, _slow_rows(texts, where, names, rest), strict=True)]


def _slow_rows(texts: pa.Array, where: NDArray[np.int64], names: list[str],
               rows: NDArray[np.intp]) -> list[pa.Array]:
    """The columns of :data:`COLUMNS` for ``rows`` of ``texts``, by :func:`_slow`; a missing
    cell is ``missing_phone`` in every region, answered so unread: through ``phonenumbers``
    the blanks of a column 40 % empty (a second phone column) took 3.0 CPU s, against 1.6
    for its filled cells. Only the rows the fast path left are taken apart so: taking the
    filled cells out of the whole column first and spreading the answers back cost the
    1M-row mix 1.07x the CPU of its normalising (a column 40 % blank, 0.94x)."""
    cells = texts.take(pa.array(rows))
    filled = np.flatnonzero(arrow_bools(cells.is_valid()))
    read = _slow(cells.take(pa.array(filled)).to_pylist(),
                 [names[w] for w in where[rows[filled]].tolist()])
    columns = [spread(column, filled, len(rows)) for column in read]
    columns[3] = pc.if_else(cells.is_valid(), columns[3], pa.scalar(_MISSING, pa.string()))
    return columns


def _others(columns: list[pa.Array], texts: pa.Array, where: NDArray[np.int64],
            names: list[str], fast: bool) -> list[pa.Array]:
    """``columns`` with the cells of digits read the other ways they may mean too
    (:mod:`._readings`): the E.164 reading taken where it alone is valid (flagged
    ``calling_code``), the row refused ``ambiguous_phone`` (flagged ``ambiguous``) where
    another reading is a valid number besides the cell's own."""
    ambiguous = [np.zeros(0, np.intp)]
    for other in other_readings(texts, where, names):
        if not len(other.rows):
            continue
        read = _read(other.texts, where[other.rows], names, fast)
        own = columns[0].take(pa.array(other.rows))
        valid = arrow_bools(own.is_valid())
        differ = arrow_bools(read[0].is_valid()) & arrow_bools(
            pc.fill_null(pc.not_equal(own, read[0]), True))
        ambiguous.append(other.rows[differ & valid])
        if other.flag is not None:
            at = pa.array(np.flatnonzero(differ & ~valid))
            taken, flags = other.rows[at.to_numpy()], columns[4]
            columns = [replace_rows(column, taken, new.take(at))
                       for column, new in zip(columns, read, strict=True)]
            columns[4] = _flagged(columns[4], taken, flags.take(pa.array(taken)), other.flag)
    both = np.unique(np.concatenate(ambiguous))
    columns[4] = _flagged(columns[4], both, columns[4].take(pa.array(both)), "ambiguous")
    return _refused(columns, both, "ambiguous_phone")


def ambiguous_readings(cells: Sequence[str], regions: Sequence[str]) -> list[list[tuple[str, str]]]:
    """The numbers each ``ambiguous_phone`` cell reads as in its region (``regions``, one
    a cell), each with how it was read (as written first), for its hint: all the cells
    read in one call per reading, as a call's fixed cost is most of a cell's."""
    names = sorted(set(regions))
    texts = pa.array(cells, pa.string())
    where = np.array([names.index(region) for region in regions], np.int64)
    found: list[dict[str | None, str]] = [
        {number: "as written"} for number in _read(texts, where, names, False)[0].to_pylist()]
    for other in other_readings(texts, where, names):
        numbers = _read(other.texts, where[other.rows], names, False)[0].to_pylist()
        for row, number in zip(other.rows.tolist(), numbers, strict=True):
            found[row].setdefault(number, other.said)
    return [[(number, said) for number, said in each.items() if number is not None]
            for each in found]


def _unread(columns: list[pa.Array], unknown: NDArray[np.bool_],
            texts: pa.Array) -> list[pa.Array]:
    """``columns`` with the rows whose country cell names no region flagged
    ``unknown_country``: a number written in full (a ``+`` before its first digit, and its
    country code) is read whatever the cell says, as it reads in every region; any other is
    refused ``unknown_country`` (but where the cell holds no number at all), digits never
    guessed to be international (``added_plus``): a number is never read in a country the
    row did not name."""
    rows = np.flatnonzero(unknown)
    if not len(rows):
        return columns
    at = pa.array(rows)
    kept = pc.and_(pc.and_(pc.match_substring_regex(texts.take(at), IN_FULL),
                           pc.is_null(columns[3].take(at))),
                   pc.invert(pc.fill_null(pc.match_substring(columns[4].take(at),
                                                             "added_plus"), False)))
    missing = pc.equal(columns[3].take(at), _MISSING)
    columns = [*columns[:4], _flagged(columns[4], rows, columns[4].take(at), "unknown_country")]
    refused = pc.invert(pc.or_(pc.fill_null(kept, False), pc.fill_null(missing, False)))
    return _refused(columns, rows[arrow_bools(refused)], "unknown_country")


def _flagged(flags: pa.Array, rows: NDArray[np.intp], old: pa.Array, flag: str) -> pa.Array:
    """``flags`` with ``flag`` added at ``rows`` (whose flags were ``old``)."""
    return replace_rows(flags, rows, pc.binary_join_element_wise(old, flag, ",",
                                                                 null_handling="skip"))


def _refused(columns: list[pa.Array], rows: NDArray[np.intp], reason: str) -> list[pa.Array]:
    """``columns`` with ``rows`` refused for ``reason``: no number, no region."""
    if not len(rows):
        return columns
    nulls = pa.nulls(len(rows), pa.string())
    reasons = pa.array([reason] * len(rows), pa.string())
    return [replace_rows(columns[0], rows, nulls), replace_rows(columns[1], rows, nulls),
            columns[2], replace_rows(columns[3], rows, reasons), columns[4]]


def _slow(texts: list[str | None], regions: list[str]) -> list[pa.Array]:
    """The columns for cells parsed by ``phonenumbers``, each distinct (cell, region) once."""
    seen: dict[tuple[str | None, str], Outcome] = {}
    for key in zip(texts, regions, strict=True):
        if key not in seen:
            seen[key] = _one(*key)
    outcomes = [seen[key] for key in zip(texts, regions, strict=True)]
    return [pa.array([getattr(o, name) for o in outcomes], pa.string()) for name in COLUMNS]


def _texts(cells: pd.Series) -> pa.Array:
    """The cells as text (a number as its ``str``), null where missing. A column of text
    already held by Arrow (pandas' ``str`` and ``string`` dtypes) is read as it is held:
    through Python objects it took a tenth of a second a million cells each way."""
    if isinstance(cells.dtype, pd.StringDtype):
        held = pa.chunked_array(cells.array.__arrow_array__())
        return pc.cast(held, pa.string()).combine_chunks()
    values = cells.to_numpy(dtype=object)
    if pd.api.types.infer_dtype(values, skipna=True) in ("string", "empty"):
        try:
            return pa.array(values, pa.string(), from_pandas=True)  # NaN, None and NA: null
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            pass
    return pa.array([None if is_missing(v) else str(v) for v in values], pa.string())


def _one(text: str | None, region: str) -> Outcome:
    cleaned = clean(text, region)
    flags = cleaned.flags
    if cleaned.refusal is not None or cleaned.text is None:
        return Outcome(None, None, cleaned.extension, cleaned.refusal, ",".join(flags) or None)
    number = _valid(cleaned.text, region)
    if number is None and _lost_plus(cleaned.text, region):
        number = _valid("+" + "".join(c for c in cleaned.text if c.isdigit()), region)
        if number is not None:
            flags.append("added_plus")
    e164 = None if number is None else phonenumbers.format_number(number, _E164)
    if e164 is not None and not is_e164(e164):
        flags.append("over_15_digits")  # valid to phonenumbers, refused by the contract
        e164 = None
    if number is None or e164 is None:
        return Outcome(None, None, cleaned.extension, "invalid_phone", ",".join(flags) or None)
    return Outcome(e164, phonenumbers.region_code_for_number(number), cleaned.extension, None,
                   ",".join(flags) or None)


def _lost_plus(text: str, region: str) -> bool:
    """Whether ``text`` looks like a full international number without its ``+``.

    Only a number too long to be national (11 digits or more) that starts with
    neither a trunk ``0`` nor the region's own calling code: a 10-digit invalid
    US number (``4630463310``) must stay invalid, not become a Swedish one (``+46…``).
    And only text of digits and separators alone: the digits of an extension, a
    date or a second number are never joined on (``923 123 456 ext. 123`` is no
    Pakistani ``+923123456123``).
    """
    digits = "".join(c for c in text if c.isdigit())
    own = str(phonenumbers.country_code_for_region(region))
    return (plain(text) and len(digits) >= MIN_INTERNATIONAL_DIGITS
            and not digits.startswith(("0", own)))


def _valid(text: str, region: str) -> phonenumbers.PhoneNumber | None:
    try:
        number = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException:
        return None
    return number if phonenumbers.is_valid_number(number) else None


def _row_regions(country: Sequence[Any] | pd.Series | None, region: str, index: pd.Index
                 ) -> tuple[NDArray[np.int64], list[str], NDArray[np.bool_], NDArray[np.bool_]]:
    """Each row's region as an index into the regions found (the first is ``region``),
    which rows named a country no region matches, and which named one it does. Each
    distinct country cell is read once. A blank cell (empty or spaces, as a CSV's empty
    field reads) is a missing one: the file's default region, not an unknown country."""
    rows = len(index)
    if country is None:
        return np.zeros(rows, np.int64), [region], np.zeros(rows, bool), np.zeros(rows, bool)
    values = pd.Series(country)
    if len(values) != rows:
        raise InputError(f"country has {len(values)} values for {rows} phones: pass "
                         "one country per phone (or none)")
    encoded = pc.dictionary_encode(_texts(values))
    codes = pc.fill_null(encoded.indices, -1).to_numpy(zero_copy_only=False)
    texts = encoded.dictionary.to_pylist()
    found = [region_of(value) for value in texts]
    names = [region, *sorted({f for f in found if f is not None} - {region})]
    lookup = np.array([names.index(f or region) for f in found] + [0], np.int64)
    unknown = np.array([f is None and bool(v.strip()) for f, v in zip(found, texts,
                                                                        strict=True)] + [False])
    named = np.array([f is not None for f in found] + [False])
    return lookup[codes], names, unknown[codes], named[codes]


def _region(region: str) -> str:
    found = region_of(region)
    if found is None:
        raise InputError(f"region={region!r} is not a region phonenumbers knows: pass an ISO "
                         "3166 alpha-2 code such as 'US' or 'GB'")
    return found
