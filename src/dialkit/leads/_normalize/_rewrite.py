"""Rewriting the cells the fast path cannot read as written into plain ones it can.

A lead file's column is mostly plain numbers, but some cells say more than one:
an Excel float (``4155550123.0``), a number with an extension (``415 555 0123
x45``), two numbers (``415 555 0123 / 212 555 0187``), digits of another script
(``４１５ ５５５ ０１２３``). ``_phone_text.clean`` takes each apart one cell at a
time; here the common shapes are taken apart a whole column at a time with
``pyarrow.compute``'s RE2 kernels, so that only cells that truly need
``phonenumbers``' parser reach it. Each rewrite gives the text ``clean`` would
hand to ``phonenumbers`` and the flags (and extension) it would record: the
fast path reads that text, and its verdict is the slow path's.

The shapes are narrower than ``clean``'s rules on purpose. A cell matches only
where the rule's reading is certain: the number before an extension or a second
number is digits and separators alone (so no earlier extension or split can be
found in it), an extension has at most six digits (every form's limit in
``phonenumbers`` is longer) and no ``#`` after it, and two numbers are split
only where ``phonenumbers`` would read no extension in the whole cell (a second
number of digits alone after ``,`` or ``;`` is its extension). A cell of any
other shape, or one whose rewritten text the fast path does not settle, goes
to the slow path as written. ``tests/leads/test_rewrite.py`` holds each rewrite
to the slow path's answer, cell for cell.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from dialkit._arrays._bools import arrow_bools

from ._phone_text import SECOND_DIGITS, normalized_text

FLAGS = ("excel_float", "two_numbers", "extension")
"""The flags a rewrite records, by bit (``1 << place``), in ``clean``'s order."""

_NUMBER = r"(?P<number>\+?[0-9 ().\-]*[0-9])"
"""One number of digits and separators, as ``_phone_text.plain`` has it (a ``+`` first)."""
EXCEL_FLOAT = r"^ *(?P<number>\+?[0-9]+)\.0+ *$"
_AFTER_LABEL = r"[:.]?[ ,\-]*"


def _extension(label: str, most: int) -> str:
    return rf"(?i)^ *{_NUMBER}{label}(?P<extension>[0-9]{{1,{most}}}) *$"


_EXTENSIONS = (_extension(";ext=", 20),
               _extension(r"[ ,]*(?:e?xt(?:ensio)?n?|anexo)" + _AFTER_LABEL, 20),
               _extension(r"[ ,]*(?:[x#~]|int)" + _AFTER_LABEL, 9),
               _extension(r" *(?:,,|;)" + _AFTER_LABEL, 15),
               _extension(r" *,+" + _AFTER_LABEL, 9))
"""``phonenumbers``' extension forms (``_EXTN_PATTERNS_FOR_PARSING``) in ASCII, each with
its longest extension: ``;ext=`` and an explicit label (``ext``, ``extn``, ``extension``,
``anexo``) 20 digits, an ambiguous one (``x``, ``#``, ``~``, ``int``) 9, ``,,`` or ``;``
15, commas alone 9."""
_TWO_NUMBERS = (r"(?i)^ *" + _NUMBER + r" *(?:[/,;&]| +(?:or|and) +) *"
                r"(?P<second>[+(0-9][0-9 ().\-]*?) *$")
"""Two numbers as ``_phone_text.SECOND_NUMBER`` splits them, each of digits and separators."""
_READ_AS_EXTENSION = r"(?:;|,,)[:.]?[ ,\-]*[0-9]{1,15} *$|,[:.]?[ ,\-]*[0-9]{1,9} *$"
"""A cell whose end ``phonenumbers`` reads as an extension (``;`` or ``,`` then digits), to
be split as two numbers only after it, never by :data:`_TWO_NUMBERS`."""

Ints = NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Rewritten:
    """The cells rewritten: where they are, their new text, flags and extension."""

    rows: NDArray[np.intp]
    """Positions in the column, sorted."""
    texts: pa.Array
    flags: Ints
    """Bits of :data:`FLAGS`."""
    extension: pa.Array


def rewrite(texts: pa.Array, rows: NDArray[np.intp]) -> Rewritten:
    """The cells at ``rows`` (sorted, none null) of ``texts`` that a rule reads, rewritten.

    A cell with a character past ASCII is first written as ``clean`` writes it (Unicode
    digits, dashes and spaces as ASCII; once per distinct cell), and kept so where no
    rule reads it, since the fast path reads ASCII alone."""
    sub = texts.take(pa.array(rows, pa.int64()))
    foreign = ~arrow_bools(pc.string_is_ascii(sub))
    if foreign.any():
        sub = _ascii(sub, foreign)
    found, values = [np.zeros(0, np.intp)], [sub.slice(0, 0)]
    flags, extensions = [np.zeros(0, np.int64)], [pa.nulls(0, pa.string())]
    left = np.arange(len(sub))
    for kind, (place, extension) in _RULES.items():
        hit, number, extra = _read(sub.take(pa.array(left, pa.int64())), kind)
        found.append(left[hit])
        values.append(number)
        flags.append(np.full(len(number), 0 if place is None else 1 << place, np.int64))
        extensions.append(extra if extension else pa.nulls(len(number), pa.string()))
        left = left[~hit]
    if foreign.any():  # made ASCII, nothing else: the text as clean has it
        kept = left[foreign[left]]
        found.append(kept)
        values.append(sub.take(pa.array(kept, pa.int64())))
        flags.append(np.zeros(len(kept), np.int64))
        extensions.append(pa.nulls(len(kept), pa.string()))
    where = np.concatenate(found)
    order = np.argsort(where, kind="stable")
    take = pa.array(order, pa.int64())
    return Rewritten(rows[where[order]], pa.concat_arrays(values).take(take),
                     np.concatenate(flags)[order], pa.concat_arrays(extensions).take(take))


_RULES = {EXCEL_FLOAT: (0, False), **dict.fromkeys(_EXTENSIONS, (2, True)),
          _TWO_NUMBERS: (1, False)}
"""Each shape, its flag's place in :data:`FLAGS`, and whether it reads an extension; a cell
is read by the first shape it has."""


def _read(cells: pa.Array, pattern: str) -> tuple[NDArray[np.bool_], pa.Array, pa.Array]:
    """Which cells have the shape, and their number and extension (or second number).
    The shape is tested first without its groups, which RE2 does several times faster."""
    hit = arrow_bools(pc.match_substring_regex(cells, pattern))
    parts = pc.extract_regex(cells.filter(pa.array(hit)), pattern)
    if pattern == _TWO_NUMBERS:
        cells = cells.filter(pa.array(hit))
        rows = np.flatnonzero(hit)
        ok = ~arrow_bools(pc.match_substring_regex(cells, _READ_AS_EXTENSION))
        for name in ("number", "second"):
            ok &= arrow_bools(pc.greater_equal(pc.count_substring_regex(
                parts.field(name), "[0-9]"), SECOND_DIGITS))
        hit[rows[~ok]] = False
        parts = parts.filter(pa.array(ok))
    chosen = parts
    extra = chosen.field("extension") if pattern in _EXTENSIONS else pa.nulls(len(chosen),
                                                                               pa.string())
    return hit, pc.utf8_trim_whitespace(chosen.field("number")), extra


def _ascii(cells: pa.Array, foreign: NDArray[np.bool_]) -> pa.Array:
    """``cells`` with the ``foreign`` ones as ``clean`` writes them before it reads them."""
    texts = cells.to_pylist()
    rows = np.flatnonzero(foreign).tolist()
    made = {text: normalized_text(text) for text in {texts[row] for row in rows}}
    for row in rows:
        texts[row] = made[texts[row]]
    return pa.array(texts, pa.string())
