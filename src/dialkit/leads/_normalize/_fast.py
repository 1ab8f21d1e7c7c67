"""Vectorised E.164 verdicts for the plain cells of a phone column.

Parsing a million cells one by one with ``phonenumbers`` takes most of a minute;
its metadata patterns are RE2-compatible, so ``pyarrow.compute`` can test a
whole column against them in one pass. This module reproduces, over arrays,
what ``phonenumbers.parse`` + ``is_valid_number`` + ``format_number(E164)``
do to a cell of *plain shape*: ASCII digits with an optional leading ``+`` and
the separators `` -.()``, which ``_phone_text.clean`` leaves alone (but for a
NANP ``00``, done here the same way, and a date such as ``2012-01-02``, left to
it). Cells :mod:`._rewrite` takes apart (an Excel float, an extension, two numbers,
Unicode digits) are read as the plain text it gives, with its flags and extension.
The column's bytes are scanned with numpy, the numbers parsed by
:mod:`dialkit._phones._parse` and their validity decided by calling code and length,
each group meeting one union of patterns, built once. A row the parse leaves to
``phonenumbers`` is handed back undone, and the caller parses it so.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import phonenumbers
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from dialkit._arrays._bools import arrow_bools
from dialkit._arrays._texts import (
    Bools,
    Ints,
    buffers,
    from_bytes,
    groups,
    lengths,
    match,
    replace_rows,
    spread,
    starts,
    take,
)
from dialkit._phones._metadata import MAX_TEXT
from dialkit._phones._parse import parse
from dialkit._phones._types import REGIONS, validity
from dialkit._utils import _tuning
from dialkit.contract import E164_PATTERN

from ._phone_text import NANP_REGIONS, PLAIN_DATE
from ._rewrite import EXCEL_FLOAT, rewrite
from ._rewrite import FLAGS as REWRITE_FLAGS

MIN_INTERNATIONAL_DIGITS = 11
"""Digits a number without ``+`` needs before it is tried as international (``added_plus``)."""

MIN_DIGITS = 3
"""Fewest digits a plain cell needs to go fast (``phonenumbers``' viable-number rule)."""
DATE_DIGITS = (6, 8)
"""Fewest and most digits of a date written with ``-`` or ``.`` (``1-2-2012``, ``2012-01-02``):
only plain cells with these many are tested for a date's shape."""

_NANP_00 = r"^ *\(?00 *[1-9]"
COLUMNS = ("phone_e164", "country", "extension", "reason", "flags")
"""The columns of a verdict (and of :func:`._columns.normalize`), besides the input's index."""
_FLAG_NAMES = (*REWRITE_FLAGS, "international_prefix", "added_plus", "over_15_digits")
"""Every flag the fast path gives, by bit, in ``_phone_text.clean``'s order."""


@dataclass(frozen=True, slots=True)
class Verdicts:
    """The fast path's answer for each row; rows not ``done`` are the slow path's."""

    done: Bools
    phone_e164: pa.Array
    country: pa.Array
    extension: pa.Array
    reason: pa.Array
    flags: pa.Array


def verdicts(texts: pa.Array, regions: Ints, names: Sequence[str]) -> Verdicts:
    """Verdicts for the plain cells of ``texts`` (region ``names[regions[i]]`` each).

    A long column (``_tuning.PHONE_THREAD_ROWS`` rows a thread) is read in parts on
    threads, as many as the pool's (``_tuning.WORKERS``) but its own: the streamed
    clean reads its next chunk on the pool meanwhile, and parts queued behind that
    would run one at a time. numpy and pyarrow release the GIL for the whole-column
    work. The rows are ordered by region, then by their
    first bytes (:func:`_leading`), and cut into parts of as many rows: a region's rows
    fall in one part (but where a cut splits one), so each region's groups and patterns
    are met once, not once per part. A part holds at most ``_tuning.PHONE_PART_ROWS``
    rows (its working memory grows with it). Cut by work (a region's fixed work counted
    as 400 rows') and the busiest part first, as they were, the 500,000 rows a clean
    normalises at a time took 1.09x the CPU and 1.02x the wall (medians of 9 rounds in turn)."""
    threads = min(len(texts) // _tuning.PHONE_THREAD_ROWS, len(os.sched_getaffinity(0)),
                  _tuning.WORKERS)
    if threads < 2:
        return _verdicts(texts, regions, names)
    order = np.argsort(regions << 32 | _leading(texts))
    ordered = regions[order]
    count = max(threads, -(-len(texts) // _tuning.PHONE_PART_ROWS))
    cuts = np.linspace(0, len(texts), count + 1).astype(np.int64)
    back = np.empty(len(order), np.int64)
    back[order] = np.arange(len(order))
    index = pa.array(back)
    with ThreadPoolExecutor(threads) as pool:
        parts = list(pool.map(lambda n: _verdicts(
            texts.take(pa.array(order[cuts[n]:cuts[n + 1]])), ordered[cuts[n]:cuts[n + 1]],
            names), range(len(cuts) - 1)))
        columns = pool.map(lambda c: pa.chunked_array([getattr(f, c) for f in parts], pa.string())
                           .take(index).combine_chunks(), COLUMNS)  # back in row order
        return Verdicts(np.concatenate([f.done for f in parts])[back], *columns)


def _leading(texts: pa.Array) -> Ints:
    """Each cell's first :data:`~dialkit._utils._tuning.LEADING_BYTES` bytes as one number
    (0 past its end).

    Rows ordered by region alone left each part of the main region with numbers of
    nearly every calling code (``+44 …``, ``0044 …``, ``442079460123.0``): 270 groups of
    calling code and length in each part, met again part after part. Ordered by their
    first bytes too, a calling code's rows lie together: 30 such groups in a part of
    national numbers; normalising the 1M-row mix's column took 0.92x the wall time cold,
    0.85x warm (medians of 5 interleaved fresh processes), the sort's 20 ms a call
    included. Re-measured (``bench_normalize.py --tricks``): by region
    alone, 1.17x the CPU and 1.21x the wall."""
    offsets, data = buffers(texts)
    sizes = np.diff(offsets)
    last = max(len(data) - 1, 0)
    key = np.zeros(len(texts), np.int64)
    for at in range(_tuning.LEADING_BYTES):
        byte = data[np.minimum(offsets[:-1] + at, last)] if len(data) else 0
        key = key << 8 | np.where(sizes > at, byte, 0)
    return key


def _verdicts(texts: pa.Array, regions: Ints, names: Sequence[str]) -> Verdicts:
    """The verdicts of one part: the cells :mod:`._rewrite` reads rewritten, then parse,
    validate, and the ``added_plus`` retry."""
    known = np.array([name in phonenumbers.SUPPORTED_REGIONS for name in names])
    all_digits, plain, plus = _scan(texts)
    texts, all_digits, rewritten = _rewritten(texts, all_digits, plain, plus)
    done = plain & known[regions]
    rows = np.flatnonzero(done)
    digits, where, plus = take(all_digits, rows), regions[rows], plus[rows]
    nanp = _nanp_00(texts, all_digits, rows, np.array([n in NANP_REGIONS for n in names])[where])
    if nanp.any():
        digits = pc.if_else(pa.array(nanp), pc.utf8_slice_codeunits(digits, 2), digits)
    plus |= nanp
    first = parse(digits, plus, where, names)
    valid, country = validity(first.code, first.nsn, first.parsed & ~first.slow)
    retry = np.flatnonzero(~valid & ~first.slow & ~plus & _lost_plus(digits, where, names))
    again = parse(digits.take(pa.array(retry)), np.ones(len(retry), bool), where[retry], names)
    valid_again, country_again = validity(again.code, again.nsn, again.parsed & ~again.slow)
    added = np.zeros(len(rows), bool)
    added[retry] = valid_again
    slow = first.slow.copy()
    slow[retry] = again.slow
    valid[retry], country[retry] = valid_again, country_again
    code, nsn = first.code.copy(), replace_rows(first.nsn, retry, again.nsn)
    code[retry] = again.code
    done[rows[slow]] = False
    bits = rewritten.flags[rows] | nanp << 3 | added << 4
    return _assemble(done, rows, valid & ~slow, code, nsn, country, bits, rewritten.extension)


def _rewritten(texts: pa.Array, digits: pa.Array, plain: Bools,
               plus: Bools) -> tuple[pa.Array, pa.Array, _Rewrites]:
    """The column with the cells :mod:`._rewrite` reads rewritten (``plain``, ``plus``
    updated in place), their digits, and each row's flags and extension."""
    rows = np.flatnonzero(~plain & arrow_bools(texts.is_valid()) & (lengths(texts) <= MAX_TEXT))
    found = rewrite(texts, rows)
    flags = np.zeros(len(texts), np.int64)
    flags[found.rows] = found.flags
    extension = spread(found.extension, found.rows, len(texts))
    if not len(found.rows):
        return texts, digits, _Rewrites(flags, extension)
    new_digits, plain[found.rows], plus[found.rows] = _scan(found.texts)
    return (replace_rows(texts, found.rows, found.texts),
            replace_rows(digits, found.rows, new_digits), _Rewrites(flags, extension))


@dataclass(frozen=True, slots=True)
class _Rewrites:
    """Each row's flags from :mod:`._rewrite` (bits of its ``FLAGS``) and extension."""

    flags: Ints
    extension: pa.Array


_BYTE_KINDS = np.full(256, 3, np.int8)
_BYTE_KINDS[list(b"0123456789")] = 0
_BYTE_KINDS[list(b" ()-")] = 1
_BYTE_KINDS[ord(".")] = 2
_BYTE_KINDS[ord("+")] = 4
"""Each byte of a cell: 0 a digit, 1 a separator, 2 a dot, 3 not plain, 4 a plus sign."""
_KIND_TABLE = _BYTE_KINDS.tobytes()
"""The same as a ``bytes.translate`` table: half the time of ``np.take`` over the bytes."""


def _scan(texts: pa.Array) -> tuple[pa.Array, Bools, Bools]:
    """Each cell's digits, whether it is plain, and whether it starts with ``+``: one pass over
    the column's bytes (a regex replace over a million cells takes half a second). A ``+``
    after leading spaces is left to the slow path."""
    offsets, data = buffers(texts)
    sizes = np.diff(offsets)
    firsts = np.minimum(offsets[:-1], max(len(data) - 1, 0))
    kinds = np.frombuffer(bytearray(data).translate(_KIND_TABLE), np.int8)
    lead = (sizes > 0) & (kinds[firsts] == 4) if len(data) else sizes > 0
    kinds[firsts[lead]] = 1  # a leading + is plain, any other is not
    digit = kinds == 0
    before = np.zeros(len(data) + 1, np.int32)  # digits before each byte (under 2 GiB of text)
    np.cumsum(digit, out=before[1:])
    ends = before[offsets]
    counts = np.diff(ends)
    digits = from_bytes(np.compress(digit, data), ends)  # compress: [] is a third slower
    marked = np.flatnonzero(kinds >= 2)  # dots and bytes no plain cell has: found in one pass
    cells, marks = np.searchsorted(offsets, marked, side="right") - 1, kinds[marked]
    plain = (arrow_bools(texts.is_valid()) & (sizes <= MAX_TEXT) & (counts >= MIN_DIGITS))
    plain[cells[marks >= 3]] = False
    dots = np.bincount(cells[marks == 2], minlength=len(sizes))
    dotted = np.flatnonzero(plain & (dots == 1))  # an Excel float has one dot
    plain[dotted] &= ~match(texts.take(pa.array(dotted)), EXCEL_FLOAT)
    dated = np.flatnonzero(plain & (counts >= DATE_DIGITS[0]) & (counts <= DATE_DIGITS[1]))
    plain[dated] &= ~match(texts.take(pa.array(dated)), PLAIN_DATE)  # not_a_phone: slow path's
    return digits, plain, lead


def _nanp_00(texts: pa.Array, digits: pa.Array, rows: NDArray[np.intp], nanp: Bools) -> Bools:
    """``_phone_text``'s rule: ``00`` then a digit 1-9 in a NANP region means ``+``."""
    found = np.zeros(len(rows), bool)
    maybe = np.flatnonzero(nanp & match(take(digits, rows), "^00"))
    found[maybe] = match(texts.take(pa.array(rows[maybe])), _NANP_00)
    return found


def _lost_plus(digits: pa.Array, where: Ints, names: Sequence[str]) -> Bools:
    """``_normalize._lost_plus`` over a column: 11 digits or more, no ``0`` nor own code first."""
    excluded = starts(digits, "0")
    for key, rows in groups(where, lengths(digits) >= MIN_INTERNATIONAL_DIGITS):
        own = str(phonenumbers.country_code_for_region(names[key]))
        excluded[rows] |= starts(take(digits, rows), own)
    return (lengths(digits) >= MIN_INTERNATIONAL_DIGITS) & ~excluded


# Array helpers -------------------------------------------------------------------------------

def _assemble(done: Bools, rows: NDArray[np.intp], valid: Bools, code: Ints, nsn: pa.Array,
              country: Ints, bits: Ints, extension: pa.Array) -> Verdicts:
    """The columns ``_normalize._one`` gives, E.164 refused past the contract's 15 digits.
    Each calling code's ``+code`` is written once and taken (casting a million codes to
    text cost more); the per-row columns are laid out at full length in numpy, one take
    each."""
    inverse, distinct = pd.factorize(code)
    prefixes = pa.array([f"+{c}" for c in distinct.tolist()], pa.string())
    e164 = pc.binary_join_element_wise(prefixes.take(pa.array(inverse)), nsn, "")
    size = lengths(e164)
    odd = np.flatnonzero(valid & ((size < 3) | (size > 16)))  # the pattern's lengths
    short = valid.copy()
    short[odd] = match(e164.take(pa.array(odd)), E164_PATTERN)
    over = valid & ~short

    def full(values: NDArray[Any]) -> NDArray[Any]:
        if len(rows) == len(done):
            return values
        out = np.zeros(len(done), values.dtype)
        out[rows] = values
        return out
    ok, bits, where = full(short), full(bits | over << 5), full(np.ones(len(rows), bool))
    names = pa.array([",".join(f for i, f in enumerate(_FLAG_NAMES) if b >> i & 1) or None
                      for b in range(1 << len(_FLAG_NAMES))], pa.string())
    _, offsets, data = e164.buffers()  # a fresh array: no offset, no nulls
    phone = pa.StringArray.from_buffers(len(e164), offsets, data, pa.array(short).buffers()[1])
    if len(rows) != len(done):
        phone = spread(phone, rows, len(done))
    return Verdicts(
        done=done, phone_e164=phone,
        country=pa.array(REGIONS).take(pa.array(full(country), mask=~ok)),
        extension=extension,
        reason=pa.array(["invalid_phone"]).take(pa.array(np.zeros(len(done), np.int64),
                                                         mask=ok | ~where)),
        flags=names.take(pa.array(bits)))

