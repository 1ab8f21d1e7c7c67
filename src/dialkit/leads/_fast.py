"""Vectorised E.164 verdicts for the plain cells of a phone column.

Parsing a million cells one by one with ``phonenumbers`` takes half a minute;
its metadata patterns are RE2-compatible, so ``pyarrow.compute`` can test a
whole column against them in one pass. This module reproduces, over arrays,
what ``phonenumbers.parse`` + ``is_valid_number`` + ``format_number(E164)``
do to a cell of *plain shape*: ASCII digits with an optional leading ``+`` and
the separators `` -.()``, which ``_phone_text.clean`` leaves alone (but for a
NANP ``00``, done here the same way).

The steps follow ``phonenumbers``' own (``_maybe_extract_country_code``,
``_maybe_strip_national_prefix_carrier_code``, ``_test_number_length``,
``region_code_for_number``, ``_number_type_helper``), on the metadata's own
patterns and ``phonenumbers``' own length verdicts. Where a rule is not
reproduced (a national-prefix transform other than the NANP-style
``(local)$|prefix``, a ``+`` followed by no known calling code), the row is
handed back undone, and the caller parses it with ``phonenumbers``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import phonenumbers
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray
from phonenumbers import phonenumberutil as pnu
from phonenumbers.phonemetadata import PhoneMetadata

from ..contract import E164_PATTERN
from ._phone_text import NANP_REGIONS

MIN_INTERNATIONAL_DIGITS = 11
"""Digits a number without ``+`` needs before it is tried as international (``added_plus``)."""

MAX_TEXT = 250
"""Longest cell ``phonenumbers.parse`` reads (its ``_MAX_INPUT_STRING_LENGTH``)."""
MIN_DIGITS = 3
"""Fewest digits a plain cell needs to go fast (``phonenumbers``' viable-number rule)."""

_PLAIN = r"^ *\+?[0-9 ().\-]*$"
_EXCEL_FLOAT = r"^ *\+?[0-9]+\.0+ *$"
_NANP_00 = r"^ *\(?00 *[1-9]"
_OWN_LINE = re.compile(r"\(([^()]*)\)\$(?:\|(.*))?")
"""A NANP-style national prefix: ``(local number)$|prefix``, the local number prefixed."""
_OWN_REWRITE = re.compile(r"(\d*)\\1")
_FLAG_NAMES = ("international_prefix", "added_plus", "over_15_digits")
Bools = NDArray[np.bool_]
Ints = NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Verdicts:
    """The fast path's answer for each row; rows not ``done`` are the slow path's."""

    done: Bools
    phone_e164: pa.Array
    country: pa.Array
    reason: pa.Array
    flags: pa.Array


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
    metadata: Any


@dataclass(slots=True)
class _Parsed:
    code: Ints
    nsn: pa.Array
    parsed: Bools
    slow: Bools


def verdicts(texts: pa.Array, regions: Ints, names: Sequence[str]) -> Verdicts:
    """Verdicts for the plain cells of ``texts`` (region ``names[regions[i]]`` each)."""
    n = len(texts)
    known = np.array([name in phonenumbers.SUPPORTED_REGIONS for name in names])
    done = _plain(texts) & known[regions]
    rows = np.flatnonzero(done)
    sub, where = texts.take(rows), regions[rows]
    nanp = np.array([name in NANP_REGIONS for name in names])[where] & _match(sub, _NANP_00)
    digits = pc.replace_substring_regex(sub, r"[^0-9]", "")
    digits = pc.if_else(pa.array(nanp), pc.utf8_slice_codeunits(digits, 2), digits)
    plus = nanp | _match(sub, r"^ *\+")
    first = _parse(digits, plus, where, names)
    valid, country = _validate(first)
    retry = np.flatnonzero(~valid & ~first.slow & ~plus & _lost_plus(digits, where, names))
    again = _parse(digits.take(retry), np.ones(len(retry), bool), where[retry], names)
    valid_again, country_again = _validate(again)
    added = np.zeros(len(rows), bool)
    added[retry] = valid_again
    slow = first.slow.copy()
    slow[retry] = again.slow
    valid[retry], country[retry] = valid_again, country_again
    code, nsn = first.code.copy(), _replace(first.nsn, retry, again.nsn)
    code[retry] = again.code
    done[rows[slow]] = False
    return _assemble(done, rows, valid & ~slow, code, nsn, country, (nanp, added))


def _plain(texts: pa.Array) -> Bools:
    digits = pc.utf8_length(pc.replace_substring_regex(texts, r"[^0-9]", ""))
    return (_match(texts, _PLAIN) & ~_match(texts, _EXCEL_FLOAT)
            & _numpy(pc.greater_equal(digits, MIN_DIGITS))
            & _numpy(pc.less_equal(pc.utf8_length(texts), MAX_TEXT)))


def _lost_plus(digits: pa.Array, where: Ints, names: Sequence[str]) -> Bools:
    """``_normalize._lost_plus`` over a column: 11 digits or more, no ``0`` nor own code first."""
    own = np.array([str(phonenumbers.country_code_for_region(name)) for name in names],
                   dtype=object)[where]
    starts = np.zeros(len(digits), bool)
    for code in set(own.tolist()):
        starts |= (own == code) & _match(digits, "^" + code)
    return (_lengths(digits) >= MIN_INTERNATIONAL_DIGITS) & ~starts & ~_match(digits, "^0")


# Parsing: calling code and national significant number -------------------------------------

def _parse(digits: pa.Array, plus: Bools, where: Ints, names: Sequence[str]) -> _Parsed:
    n = len(digits)
    state = _Parsed(np.zeros(n, np.int64), digits, np.ones(n, bool), np.zeros(n, bool))
    if not n:
        return state
    keys = np.where(plus, -1, where)
    outs = _per_group(keys, lambda key, rows: _prefixed(digits.take(rows), plus[rows],
                                                       None if key < 0 else names[key]))
    intl, rest = outs[0], outs[1]
    code, number, plan_keys, parsed, slow = _intl(rest, intl, plus)
    home = ~intl
    if home.any():
        nat = _per_group(np.where(home, where, -1), lambda key, rows: _national(
            digits.take(rows), None if key < 0 else names[key]))
        code = np.where(home, nat[0], code)
        number = pc.if_else(pa.array(home), nat[1], number)
        plan_keys = np.where(home, nat[2], plan_keys)
        slow |= home & nat[3]
    state.code, state.parsed, state.slow = code, parsed & (_lengths(number) >= 2), slow
    state.nsn = _strip_all(number, plan_keys, state)
    return state


def _prefixed(digits: pa.Array, plus: Bools, region: str | None) -> list[Any]:
    """Whether each number is international (``+``, or the region's IDD), and what follows."""
    if region is None:
        return [np.ones(len(digits), bool), digits]
    idd = _plan(region).idd
    if idd is None:
        return [np.zeros(len(digits), bool), digits]
    pattern = f"^(?:{idd})"
    matched = _match(digits, pattern)
    rest = pc.replace_substring_regex(digits, pattern, "", max_replacements=1)
    stripped = matched & ~_match(rest, "^0")  # a 0 after the IDD: not an IDD
    return [stripped, pc.if_else(pa.array(stripped), rest, digits)]


def _intl(rest: pa.Array, intl: Bools, plus: Bools) -> tuple[Ints, pa.Array, Ints, Bools, Bools]:
    """``_extract_country_code``: the first of 1, 2, 3 leading digits that is a calling code."""
    n = len(rest)
    code = np.zeros(n, np.int64)
    width = np.zeros(n, np.int64)
    known = pa.array([str(c) for c in phonenumbers.COUNTRY_CODE_TO_REGION_CODE])
    for size in (3, 2, 1):
        head = pc.utf8_slice_codeunits(rest, 0, size)
        hit = _numpy(pc.is_in(head, value_set=known)) & (_lengths(rest) >= size)
        width = np.where(hit, size, width)
        code = np.where(hit, _ints(head, hit), code)
    long_enough = _lengths(rest) > 2
    found = intl & long_enough & (width > 0)
    slow = intl & long_enough & (width == 0) & plus  # phonenumbers retries without the +
    number = pc.if_else(pa.array(found), _slice_from(rest, width), rest)
    return code, number, _code_ids(code), ~intl | found, slow


def _national(digits: pa.Array, region: str | None) -> list[Any]:
    """A national number: the region's code, unless it starts with it and reads better without
    (``_maybe_extract_country_code``'s rule)."""
    n = len(digits)
    if region is None:
        return [np.zeros(n, np.int64), digits, np.zeros(n, np.int64), np.zeros(n, bool)]
    plan = _plan(region)
    own = str(plan.code)
    starts = _match(digits, "^" + own)
    pot = pc.utf8_slice_codeunits(digits, len(own))
    pot2, slow = _strip(pot, plan, starts)
    too_long = np.array(_length_verdicts(region, 40))[np.minimum(_lengths(digits), 40)] == 2
    better = starts & ~slow & ((~_full(digits, plan.general) & _full(pot2, plan.general))
                               | too_long)
    number = pc.if_else(pa.array(better), pot2, digits)
    keys = np.where(better, _id(_code_plan(plan.code)), _id(region))
    return [np.full(n, plan.code, np.int64), number, keys, starts & slow]


def _strip_all(number: pa.Array, keys: Ints, state: _Parsed) -> pa.Array:
    """The national prefix off, where ``parse`` takes it off (its length check after)."""
    def one(key: int, rows: NDArray[np.intp]) -> list[Any]:
        sub = number.take(rows)
        if key == 0:
            return [sub, np.zeros(len(rows), bool)]
        region = _NAMES[key]
        stripped, slow = _strip(sub, _plan(region), state.parsed[rows])
        kept = np.array(_length_verdicts(region, 40))[np.minimum(_lengths(stripped), 40)] >= 1
        return [pc.if_else(pa.array(kept), stripped, sub), slow]
    out = _per_group(keys, one)
    state.slow |= out[1] & state.parsed
    state.parsed &= _lengths(out[0]) <= pnu._MAX_LENGTH_FOR_NSN
    return out[0]


def _strip(number: pa.Array, plan: _Plan, rows: Bools) -> tuple[pa.Array, Bools]:
    """``_maybe_strip_national_prefix_carrier_code`` on ``rows``; the rows it can't reproduce."""
    none = np.zeros(len(number), bool)
    if plan.prefix is None:
        return number, none
    matched = rows & _match(number, plan.prefix) & (_lengths(number) > 0)
    if not matched.any():
        return number, none
    if plan.opaque:
        return number, matched
    candidate = pc.replace_substring_regex(number, plan.prefix, "", max_replacements=1)
    if plan.own is not None:
        own = _match(number, plan.own)
        candidate = pc.if_else(pa.array(own), pc.binary_join_element_wise(
            plan.own_digits, number, ""), candidate)
    keep = matched & ~(_full(number, plan.general) & ~_full(candidate, plan.general))
    return pc.if_else(pa.array(keep), candidate, number), none


# Validity: region_code_for_number and is_valid_number ---------------------------------------

def _validate(parsed: _Parsed) -> tuple[Bools, NDArray[np.object_]]:
    """Each number's validity and region, grouped by calling code and length."""
    if not len(parsed.code):
        return np.zeros(0, bool), np.full(0, None, object)
    keys = np.where(parsed.parsed & ~parsed.slow,
                    parsed.code * 64 + np.minimum(_lengths(parsed.nsn), 63), -1)

    def one(key: int, rows: NDArray[np.intp]) -> list[Any]:
        if key < 0:
            return [np.zeros(len(rows), bool), np.full(len(rows), None, object)]
        return list(_valid(parsed.nsn.take(rows), key // 64, key % 64))
    out = _per_group(keys, one)
    return out[0], out[1]


def _valid(nsn: pa.Array, code: int, length: int) -> tuple[Bools, NDArray[np.object_]]:
    regions = phonenumbers.COUNTRY_CODE_TO_REGION_CODE.get(code, ())
    valid = np.zeros(len(nsn), bool)
    country = np.full(len(nsn), None, object)
    if len(regions) == 1:
        ok = _typed(nsn, _code_plan(code), length)
        return ok, np.where(ok, regions[0], None)
    open_ = np.ones(len(nsn), bool)
    for region in regions:
        leading = _plan(region).metadata.leading_digits
        if leading is not None:
            hit = open_ & _match(nsn, f"^(?:{leading})")
            valid |= hit & _typed(nsn, region, length)
        else:
            hit = open_ & _typed(nsn, region, length)
            valid |= hit
        country[hit] = region
        open_ &= ~hit
    return valid, np.where(valid, country, None)


def _typed(nsn: pa.Array, name: str, length: int) -> Bools:
    """``_number_type_helper(...) != UNKNOWN``: the general pattern and one type's."""
    patterns = _type_patterns(name, length)
    if patterns is None:
        return np.zeros(len(nsn), bool)
    return _match(nsn, patterns[0]) & _match(nsn, patterns[1])


@functools.cache
def _type_patterns(name: str, length: int) -> tuple[str, str] | None:
    metadata = _plan(name).metadata
    general = metadata.general_desc
    if not _fits(general, length):
        return None
    types = [metadata.premium_rate, metadata.toll_free, metadata.shared_cost, metadata.voip,
             metadata.personal_number, metadata.pager, metadata.uan, metadata.voicemail,
             metadata.fixed_line]
    if not metadata.same_mobile_and_fixed_line_pattern:
        types.append(metadata.mobile)
    found = [d.national_number_pattern for d in types if _fits(d, length)]
    if not found:
        return None
    return (f"^(?:{general.national_number_pattern})$",
            "^(?:" + "|".join(f"(?:{p})" for p in found) + ")$")


def _fits(desc: Any, length: int) -> bool:
    """``_is_number_matching_desc``'s checks that do not need the number itself."""
    return (desc is not None and bool(desc.national_number_pattern)
            and (not desc.possible_length or length in desc.possible_length))


# Metadata plans ------------------------------------------------------------------------------

_NAMES: list[str] = [""]
"""Plans by integer id (0: none), for grouping rows by plan: a region, or ``001/<code>``."""
_IDS: dict[str, int] = {}


def _id(name: str) -> int:
    if name not in _IDS:
        _IDS[name] = len(_NAMES)
        _NAMES.append(name)
    return _IDS[name]


def _code_plan(code: int) -> str:
    """The plan ``parse`` reads a number of calling code ``code`` by: its main region's."""
    main = phonenumbers.region_code_for_country_code(code)
    return f"001/{code}" if main == "001" else str(main)


def _code_ids(codes: Ints) -> Ints:
    distinct, inverse = np.unique(codes, return_inverse=True)
    ids = np.array([_id(_code_plan(int(c))) if c else 0 for c in distinct], np.int64)
    return ids[inverse.reshape(-1)] if len(codes) else np.zeros(0, np.int64)


@functools.cache
def _plan(name: str) -> _Plan:
    if name.startswith("001/"):
        metadata = PhoneMetadata.metadata_for_nongeo_region(int(name[4:]), None)
    else:
        metadata = PhoneMetadata.metadata_for_region(name, None)
    prefix, rule = metadata.national_prefix_for_parsing, metadata.national_prefix_transform_rule
    own = _OWN_LINE.fullmatch(prefix or "")
    rewrite = _OWN_REWRITE.fullmatch(rule or "")
    nanp_like = (own is not None and rewrite is not None
                 and re.compile(prefix).groups == 1)
    general = metadata.general_desc.national_number_pattern
    return _Plan(code=metadata.country_code, general=f"^(?:{general})$" if general else None,
                 prefix=f"^(?:{prefix})" if prefix else None,
                 own=f"^(?:{own.group(1)})$" if nanp_like and own else None,
                 own_digits=rewrite.group(1) if nanp_like and rewrite else "",
                 opaque=bool(rule) and not nanp_like,
                 idd=metadata.international_prefix, metadata=metadata)


@functools.cache
def _length_verdicts(name: str, up_to: int) -> tuple[int, ...]:
    """Per length: 2 ``TOO_LONG``, 1 kept after a national prefix is stripped, 0 not."""
    metadata = _plan(name).metadata
    verdicts = []
    for length in range(up_to + 1):
        result = pnu._test_number_length("0" * length, metadata)
        verdicts.append(2 if result == pnu.ValidationResult.TOO_LONG else int(
            result == pnu.ValidationResult.IS_POSSIBLE))
    return tuple(verdicts)


# Array helpers -------------------------------------------------------------------------------

def _assemble(done: Bools, rows: NDArray[np.intp], valid: Bools, code: Ints, nsn: pa.Array,
              country: NDArray[np.object_], flags: tuple[Bools, Bools]) -> Verdicts:
    e164 = pc.binary_join_element_wise("+", pc.cast(pa.array(code), pa.string()), nsn, "")
    short = valid & _match(e164, E164_PATTERN)
    over = valid & ~short
    n = len(done)
    mask = pa.array(~short)

    def spread(values: pa.Array) -> pa.Array:
        positions = np.full(n, -1, np.int64)
        positions[rows] = np.arange(len(rows))
        return values.take(pa.array(positions, mask=positions < 0))
    bits = flags[0] * 1 + flags[1] * 2 + over * 4
    names = pa.array([",".join(f for i, f in enumerate(_FLAG_NAMES) if b >> i & 1) or None
                      for b in range(8)], pa.string())
    return Verdicts(
        done=done, phone_e164=spread(pc.if_else(mask, pa.scalar(None, pa.string()), e164)),
        country=spread(pa.array(np.where(short, country, None), pa.string())),
        reason=spread(pa.array(np.where(short, None, "invalid_phone"), pa.string())),
        flags=spread(names.take(pa.array(bits))))


def _per_group(keys: Ints, function: Callable[[int, NDArray[np.intp]], list[Any]]) -> list[Any]:
    """``function(key, rows)`` for each key's rows, its outputs put back in row order."""
    order = np.argsort(keys, kind="stable")
    cuts = np.flatnonzero(np.diff(keys[order])) + 1
    parts = [function(int(keys[rows[0]]), rows) for rows in np.split(order, cuts) if len(rows)]
    inverse = np.empty_like(order)
    inverse[order] = np.arange(len(order))
    if not parts:
        return [np.zeros(0, bool)] * 8
    return [_concat([p[i] for p in parts], inverse) for i in range(len(parts[0]))]


def _concat(values: list[Any], inverse: NDArray[np.intp]) -> Any:
    if isinstance(values[0], np.ndarray):
        return np.concatenate(values)[inverse]
    return pa.concat_arrays(values).take(pa.array(inverse))


def _replace(values: pa.Array, rows: NDArray[np.intp], new: pa.Array) -> pa.Array:
    if not len(rows):
        return values
    mask = np.zeros(len(values), bool)
    mask[rows] = True
    positions = np.cumsum(mask) - 1
    spread = new.take(pa.array(np.where(mask, positions, 0)))
    return pc.if_else(pa.array(mask), spread, values)


def _slice_from(values: pa.Array, starts: Ints) -> pa.Array:
    out = values
    for start in set(starts.tolist()) - {0}:
        out = pc.if_else(pa.array(starts == start), pc.utf8_slice_codeunits(values, start), out)
    return out


def _match(values: pa.Array, pattern: str) -> Bools:
    return _numpy(pc.match_substring_regex(values, pattern))


def _full(values: pa.Array, pattern: str | None) -> Bools:
    """``_match_national_number(value, desc, False)``: a full match of the desc's pattern."""
    if pattern is None:
        return np.zeros(len(values), bool)
    return _match(values, pattern)


def _lengths(values: pa.Array) -> Ints:
    return np.asarray(pc.utf8_length(values).to_numpy(zero_copy_only=False), np.int64)


def _ints(values: pa.Array, rows: Bools) -> Ints:
    safe = pc.if_else(pa.array(rows), values, "0")
    return np.asarray(pc.cast(safe, pa.int64()).to_numpy(zero_copy_only=False), np.int64)


def _numpy(values: pa.Array) -> Bools:
    return np.asarray(values.to_numpy(zero_copy_only=False), bool)
