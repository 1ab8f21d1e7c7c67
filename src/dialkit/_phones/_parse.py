"""``phonenumbers.parse`` over a column: each number's calling code and national
significant number, the one parse the leads' verdicts and the zone lookup share
(before, each kept its own).

The steps are ``phonenumbers``' own (``_maybe_strip_i18n_prefix_and_normalize``,
``_extract_country_code``, ``_maybe_extract_country_code``,
``_maybe_strip_national_prefix_carrier_code``, ``_test_number_length``), on the
metadata's own patterns (RE2's syntax too) and its own length verdicts. A national-prefix
transform other than the NANP-style ``(local)$|prefix`` (Argentina's, Brazil's, Gabon's)
is applied by Python's ``re`` once per distinct number it touches. Where a rule is not
reproduced (a ``+`` followed by no known calling code), the row is marked ``slow``: the
caller asks ``phonenumbers`` itself.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray
from phonenumbers import PhoneMetadata, region_code_for_country_code

from .._arrays._bools import arrow_bools
from .._arrays._texts import (
    Bools,
    Changes,
    Ints,
    Rows,
    cut,
    drop,
    groups,
    lengths,
    match,
    replace_rows,
    sliced,
    starts,
    take,
)
from ._metadata import MAX_NSN, MAX_TEXT, MIN_NSN, calling_codes, length_verdicts

_OWN_LINE = re.compile(r"\(([^()]*)\)\$(?:\|(.*))?")
"""A NANP-style national prefix: ``(local number)$|prefix``, the local number prefixed."""
_OWN_REWRITE = re.compile(r"(\d*)\\1")
_LONGEST = 40
"""Lengths past this one are all ``TOO_LONG`` (17 digits at most are kept)."""


@dataclass(slots=True)
class Parsed:
    """What ``parse`` made of each number: calling code, national significant number,
    whether it raised (``parsed`` false: invalid), and whether ``phonenumbers`` must say."""

    code: Ints
    nsn: pa.Array
    parsed: Bools
    slow: Bools


def parse(digits: pa.Array, plus: Bools, where: Ints, names: Sequence[str]) -> Parsed:
    """``phonenumbers.parse`` of each number (its digits, and whether a ``+`` led them),
    a number without one read in region ``names[where[i]]``."""
    n = len(digits)
    state = Parsed(np.zeros(n, np.int64), digits, np.ones(n, bool), np.zeros(n, bool))
    if not n:
        return state
    intl, changes = plus.copy(), Changes(digits)
    for key, rows in groups(where, ~plus):
        stripped, after = _prefixed(take(digits, rows), names[key])
        intl[rows[stripped]] = True
        changes.add(rows[stripped], after)
    code, number, plans, parsed, slow = _intl(changes.applied(), intl, plus)
    changes = Changes(number)
    for key, rows in groups(where, ~intl):
        local, better, after, slow_rows = _national(take(digits, rows), names[key])
        code[rows], plans[rows] = local, _id(names[key])
        plans[rows[better]] = _id(_code_plan(local))
        slow[rows[slow_rows]] = True
        changes.add(rows[better], after)
    number = changes.applied()
    state.code, state.parsed, state.slow = code, parsed & (lengths(number) >= MIN_NSN), slow
    state.nsn = _strip_all(number, plans, state)
    return state


def parse_e164(texts: pa.Array) -> tuple[Rows, Ints, pa.Array, Rows]:
    """``parse`` of the texts written as E.164 (:func:`e164_shaped`): the rows it reads,
    their calling codes and national significant numbers; and the rows only
    ``phonenumbers`` itself can read (every text of another shape among them)."""
    shaped = e164_shaped(texts)
    rows = np.flatnonzero(shaped)
    found = parse(sliced(take(texts, rows), 1), np.ones(len(rows), bool),
                  np.zeros(len(rows), np.int64), ())
    kept = found.parsed & ~found.slow
    slow = np.sort(np.r_[np.flatnonzero(~shaped), rows[found.slow]])
    return rows[kept], found.code[kept], found.nsn.filter(pa.array(kept)), slow


def e164_shaped(texts: pa.Array) -> Bools:
    """Which texts are E.164 as the service writes it (``+``, a digit 1-9, two or more
    digits): the texts ``parse`` reads with no rule for how they are written."""
    digits = sliced(texts, 1)  # by bytes, what follows a "+" (the only text read here):
    # 3.9 against 6.7 ms of CPU for 183,000 numbers, where it was decoded
    shaped = pc.and_kleene(pc.and_kleene(pc.starts_with(texts, "+"), pc.ascii_is_decimal(
        digits)), pc.invert(pc.starts_with(digits, "0")))
    sizes = lengths(texts)
    return arrow_bools(shaped) & (sizes >= 4) & (sizes <= MAX_TEXT)


def _prefixed(digits: pa.Array, region: str) -> tuple[Bools, pa.Array]:
    """Which numbers start with the region's IDD (``phonenumbers``' rule), and what follows."""
    idd = _plan(region).idd
    stripped = np.zeros(len(digits), bool)
    if idd is None:
        return stripped, digits.slice(0, 0)
    pattern = f"^(?:{idd})"
    matched = np.flatnonzero(match(digits, pattern))
    rest = cut(digits.take(pa.array(matched)), pattern)
    idd_rows = ~starts(rest, "0")  # a 0 after the IDD: not an IDD
    stripped[matched[idd_rows]] = True
    return stripped, rest.filter(pa.array(idd_rows))


def _intl(rest: pa.Array, intl: Bools, plus: Bools) -> tuple[Ints, pa.Array, Ints, Bools, Bools]:
    """``_extract_country_code``: the first of 1, 2, 3 leading digits that is a calling code."""
    tried = intl & (lengths(rest) > 2)  # else: too short after the IDD, invalid
    rows = np.flatnonzero(tried)
    codes, widths = np.zeros(len(rest), np.int64), np.zeros(len(rest), np.int64)
    codes[rows], widths[rows] = calling_codes(take(rest, rows))
    found = widths > 0
    slow = tried & plus & ~found  # phonenumbers retries without the +
    return codes, drop(rest, widths), _code_ids(codes), ~intl | found, slow


def _national(digits: pa.Array, region: str) -> tuple[int, Bools, pa.Array, Bools]:
    """A national number: the region's code; the rows that start with that code and read
    better without it (``_maybe_extract_country_code``'s rule), what they become, and the
    rows whose national prefix this module does not reproduce."""
    plan = _plan(region)
    own = str(plan.code)
    owned = np.flatnonzero(starts(digits, own))
    sub = digits.take(pa.array(owned))
    pot = drop(sub, np.full(len(owned), len(own)))
    changed, after, slow = _strip(pot, plan)
    pot = replace_rows(pot, changed, after)
    too_long = np.array(_length_verdicts(region))[np.minimum(lengths(sub), _LONGEST)] == 2
    better = ~slow & ((~_full(sub, plan.general) & _full(pot, plan.general)) | too_long)
    rows, slow_rows = np.zeros(len(digits), bool), np.zeros(len(digits), bool)
    rows[owned[better]], slow_rows[owned[slow]] = True, True
    return plan.code, rows, pot.filter(pa.array(better)), slow_rows


def _strip_all(number: pa.Array, plans: Ints, state: Parsed) -> pa.Array:
    """The national prefix off, where ``parse`` takes it off (its length check after)."""
    changes = Changes(number)
    for key, rows in groups(plans, _prefixed_by_plan(number, plans, state.parsed)):
        changed, after, slow = _strip(take(number, rows), _plan(_NAMES[key]))
        state.slow[rows[slow]] = True
        if not len(changed):
            continue
        verdicts = np.array(_length_verdicts(_NAMES[key]))
        kept = verdicts[np.minimum(lengths(after), _LONGEST)] >= 1
        changes.add(rows[changed[kept]], after.filter(pa.array(kept)))
    number = changes.applied()
    state.parsed &= lengths(number) <= MAX_NSN
    return number


def _prefixed_by_plan(number: pa.Array, plans: Ints, among: Bools) -> Bools:
    """Which numbers ``among`` start with their plan's national prefix: looked for once per
    distinct prefix (91 calling codes share ``0``, 100 have none), not once per plan: the
    zones of 260,000 distinct numbers parsed in 68 against 88 ms of CPU."""
    with _IDS_LOCK:
        names = list(_NAMES)
    keys, prefixes = pd.factorize(np.array([None, *(_plan(n).prefix for n in names[1:])]))
    keyed = keys[plans]
    hit = np.zeros(len(plans), bool)
    for key, rows in groups(keyed, among & (keyed >= 0)):
        hit[rows] = match(take(number, rows), prefixes[key])
    return hit


def _strip(number: pa.Array, plan: _Plan) -> tuple[NDArray[np.intp], pa.Array, Bools]:
    """``_maybe_strip_national_prefix_carrier_code``: the rows it changes, what they become,
    and the rows whose rule this module does not reproduce."""
    slow = np.zeros(len(number), bool)
    nothing = (np.zeros(0, np.intp), number.slice(0, 0), slow)
    if plan.prefix is None:
        return nothing
    tried = np.flatnonzero(lengths(number) > 0)
    sub = take(number, tried)
    hit = match(sub, plan.prefix)
    if not hit.any():
        return nothing
    matched, sub = tried[hit], sub.filter(pa.array(hit))
    if plan.opaque:
        candidate, unread = _by_rule(sub, plan)
        slow[matched[unread]] = True
        matched, sub = matched[~unread], sub.filter(pa.array(~unread))
        candidate = candidate.filter(pa.array(~unread))
    else:
        candidate = cut(sub, plan.prefix)
    if plan.own is not None:
        own = match(sub, plan.own)
        candidate = pc.if_else(pa.array(own), pc.binary_join_element_wise(
            plan.own_digits, sub, ""), candidate)
    keep = ~(_full(sub, plan.general) & ~_full(candidate, plan.general))
    return matched[keep], candidate.filter(pa.array(keep)), slow


def _by_rule(numbers: pa.Array, plan: _Plan) -> tuple[pa.Array, Bools]:
    """A transform rule RE2 cannot apply as ``phonenumbers`` does, applied by Python's
    ``re`` as it does, once per distinct number: whether the rule's last group took part
    decides between the rule and a plain strip (Brazil's carrier code, Argentina's mobile
    ``15``), which RE2's matching cannot tell; and the numbers ``re`` does not match as
    RE2 did, left to ``phonenumbers`` itself. Before, every such number was: the hints of
    a file of national Brazilian numbers parsed each one again per candidate region."""
    pattern = re.compile(plan.metadata.national_prefix_for_parsing or "")
    rule = plan.metadata.national_prefix_transform_rule or ""
    encoded = pc.dictionary_encode(numbers)
    applied: list[str | None] = []
    for number in encoded.dictionary.to_pylist():
        found = pattern.match(number)
        if found is None:
            applied.append(None)
        elif found.groups()[-1] is None:
            applied.append(number[found.end():])
        else:
            applied.append(pattern.sub(rule, number, count=1))
    out = pc.take(pa.array(applied, pa.string()), encoded.indices)
    return out.cast(numbers.type), arrow_bools(pc.is_null(out))


def _full(values: pa.Array, pattern: str | None) -> Bools:
    """``_match_national_number(value, desc, False)``: a full match of the desc's pattern."""
    return np.zeros(len(values), bool) if pattern is None else match(values, pattern)


# Metadata plans ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Plan:
    """What parsing needs of one metadata (a region's, or a non-geographic calling code's)."""

    code: int
    general: str | None
    prefix: str | None
    own: str | None
    own_digits: str
    opaque: bool
    idd: str | None
    metadata: PhoneMetadata


_NAMES: list[str] = [""]
"""Plans by integer id (0: none), for grouping rows by plan: a region, or ``001/<code>``."""
_IDS: dict[str, int] = {}
_IDS_LOCK = threading.Lock()


def _id(name: str) -> int:
    with _IDS_LOCK:
        if name not in _IDS:
            _IDS[name] = len(_NAMES)
            _NAMES.append(name)
        return _IDS[name]


@functools.cache
def _code_plan(code: int) -> str:
    """The plan ``parse`` reads a number of calling code ``code`` by: its main region's."""
    main = region_code_for_country_code(code)
    return f"001/{code}" if main == "001" else str(main)


def _code_ids(codes: Ints) -> Ints:
    inverse, distinct = pd.factorize(codes)
    ids = np.array([_id(_code_plan(int(c))) if c else 0 for c in distinct], np.int64)
    return ids[inverse] if len(codes) else np.zeros(0, np.int64)


@functools.cache
def _plan(name: str) -> _Plan:
    """The plan of a region, or of a non-geographic calling code (``001/800``).

    A national-prefix transform is vectorised only in the NANP style ``(local)$|prefix``
    with a ``digits\\1`` rule (the local number, written without its area code, gets it
    back); another transform rule is ``opaque``: :func:`_by_rule` applies it."""
    metadata = (PhoneMetadata.metadata_for_nongeo_region(int(name[4:]), None)
                if name.startswith("001/") else PhoneMetadata.metadata_for_region(name, None))
    if metadata is None:
        raise ValueError(f"phonenumbers has no metadata for {name!r}")
    prefix = metadata.national_prefix_for_parsing or ""
    rule = metadata.national_prefix_transform_rule or ""
    own, rewrite = _OWN_LINE.fullmatch(prefix), _OWN_REWRITE.fullmatch(rule)
    nanp_like = own is not None and rewrite is not None and re.compile(prefix).groups == 1
    general = metadata.general_desc.national_number_pattern if metadata.general_desc else None
    return _Plan(code=int(metadata.country_code or 0),
                 general=f"^(?:{general})$" if general else None,
                 prefix=f"^(?:{prefix})" if prefix else None,
                 own=f"^(?:{own.group(1)})$" if nanp_like and own else None,
                 own_digits=rewrite.group(1) if nanp_like and rewrite else "",
                 opaque=bool(rule) and not nanp_like,
                 idd=metadata.international_prefix, metadata=metadata)


@functools.cache
def _length_verdicts(name: str) -> tuple[int, ...]:
    """Per length: 2 ``TOO_LONG``, 1 kept after a national prefix is stripped, 0 not."""
    return length_verdicts(_plan(name).metadata, _LONGEST)
