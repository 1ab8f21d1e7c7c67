"""Each row's verdict, as the service decides it: the checks in its order, as codes.

The service judges each lead on its own, in a fixed order, and the first failing
check decides (``docs/emulator.md``, "Leads"). Every verdict it can give a row is
in :data:`VERDICTS`, so a verdict is a small integer that means the same in every
part of a file: the whole file's clean and a streamed file's chunks
(:mod:`._stream`) share the codes, and a million rows cost a million bytes.

A row's checks fall on either side of the request's duplicates, which need
the rows before it: :func:`checks` answers, per row, the first check before them
that fails (``before``: the row is not eligible to be or have a duplicate) and the
first after them (``after``: the row does not pass, so it holds no number for a
later row to repeat).

Each refusal has its words too (:data:`WORDS`), for a vendor who reads without the
contract at hand: a cleaned workbook goes back to whoever sent the file, and where
``field_rule`` / ``email`` is the service's code, a vendor needs "the email address is
not one the service accepts". The words sit beside the codes (which programs and the
contract keep), one sentence for each verdict of :data:`VERDICTS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from dialkit._arrays._bools import arrow_bools
from dialkit.contract import (
    EMAIL_MAX,
    EMAIL_PATTERN,
    EXTERNAL_ID_MAX,
    FIRST_NAME_MAX,
    FULL_NAME_MAX,
    LAST_NAME_MAX,
    PHONE_MAX,
    LeadResultReason,
    LeadResultStatus,
)

FIELD_LIMITS = (("external_id", EXTERNAL_ID_MAX), ("first_name", FIRST_NAME_MAX),
                ("last_name", LAST_NAME_MAX), ("full_name", FULL_NAME_MAX),
                ("email", EMAIL_MAX))
"""The lead fields a file can fill, in the contract's field order, with their
length limits: the first one that breaks a rule is the refusal's ``field``."""

SPACES = (*range(0x9, 0xE), *range(0x1C, 0x21), 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B),
          0x2028, 0x2029, 0x202F, 0x205F, 0x3000)
"""The characters Python's ``\\s`` (the service's) matches, listed: finding them among
all 1,114,112 took 0.13 s of every clean's start (a test checks the list)."""
_WHITESPACE = "".join(f"\\x{{{code:x}}}" for code in SPACES)
_EMAIL_RE2 = EMAIL_PATTERN.replace(r"\s", _WHITESPACE)
"""The service's email rule for RE2, whose ``\\s`` is ASCII only where Python's
(the service's) is every Unicode space."""

LOCAL_REASONS = ("unknown_country", "ambiguous_phone", "extra_fields")
"""Refusals of the clean's own, beside the service's: a row whose country cell names no
country the clean can read, or whose digits read as two valid numbers (with and without
the country's calling code), or a text file's row with more fields than its header (a
value with the delimiter left unquoted: its cells do not match its columns).
The service would read each in some way and accept it; the clean does not send a number
it read on a guess."""
STATUSES = [status.value for status in LeadResultStatus]
REASONS = [*(reason.value for reason in LeadResultReason), *LOCAL_REASONS]
_INVALID = LeadResultStatus.INVALID.value
_DUPLICATE = LeadResultStatus.DUPLICATE.value
_FIELD_RULE = LeadResultReason.FIELD_RULE.value

Verdict = tuple[str, str | None, str | None]
"""A row's ``status``, ``reason`` and ``field``."""

ACCEPTED = 0
MISSING, PHONE_TOO_LONG, INVALID_PHONE, BLOCKED = 1, 2, 3, 4
DUPLICATE_IN_REQUEST, DUPLICATE_IN_CAMPAIGN, ID_ELSEWHERE = 5, 6, 7
FIELD_RULES = 8  # then one per FIELD_LIMITS entry, in its order
ON_DNC = FIELD_RULES + len(FIELD_LIMITS)
UNKNOWN_COUNTRY, AMBIGUOUS_PHONE, EXTRA_FIELDS = ON_DNC + 1, ON_DNC + 2, ON_DNC + 3

VERDICTS: tuple[Verdict, ...] = (
    (LeadResultStatus.ACCEPTED.value, None, None),
    (_INVALID, "missing_phone", None),
    (_INVALID, _FIELD_RULE, "phone"),  # an invalid phone too long: the service reads no further
    (_INVALID, "invalid_phone", None),
    (LeadResultStatus.BLOCKED_COUNTRY.value, None, None),
    (_DUPLICATE, "duplicate_in_request", None),
    (_DUPLICATE, "duplicate_in_campaign", None),
    (_INVALID, _FIELD_RULE, "external_id"),  # an id this API client uses in another campaign
    *((_INVALID, _FIELD_RULE, name) for name, _ in FIELD_LIMITS),
    (LeadResultStatus.ON_DNC.value, None, None),
    (_INVALID, "unknown_country", "country"),
    (_INVALID, "ambiguous_phone", None),
    (_INVALID, "extra_fields", None),  # before every check: the row is not read
)
"""Every verdict a row can get, its code its place here."""


@dataclass(frozen=True, slots=True)
class Account:
    """What the checks that need the account compare with."""

    campaign_phones: frozenset[str]
    campaign_ids: frozenset[str]
    other_ids: frozenset[str]
    listed: frozenset[str]


@dataclass(frozen=True)
class Checked:
    """Per row, the code in :data:`VERDICTS` of the first check that fails before the
    request's duplicates (``before``) and after them (``after``); 0 where none does."""

    before: np.ndarray
    after: np.ndarray

    def final(self, duplicate: np.ndarray) -> np.ndarray:
        """Each row's verdict, given which rows repeat an earlier accepted row."""
        return np.where(self.before > 0, self.before,
                        np.where(duplicate, DUPLICATE_IN_REQUEST, self.after)).astype(np.int8)


def checks(frame: pd.DataFrame, fields: Mapping[str, str], phones: pd.Series,
           numbers: pd.DataFrame, blocked: frozenset[str], account: Account | None) -> Checked:
    """The checks of every row of ``frame`` (a file's, or a chunk's) but the duplicates in
    the request: ``phones`` the cells the numbers were read from, ``numbers``
    :func:`normalize`'s columns for them."""
    reason = numbers["reason"]
    invalid = (reason == "invalid_phone").fillna(False).to_numpy(dtype=bool)
    before = _first((
        ((reason == "missing_phone").fillna(False).to_numpy(dtype=bool), MISSING),
        ((reason == "unknown_country").fillna(False).to_numpy(dtype=bool), UNKNOWN_COUNTRY),
        (invalid & _longer(phones, PHONE_MAX), PHONE_TOO_LONG),
        ((reason == "ambiguous_phone").fillna(False).to_numpy(dtype=bool), AMBIGUOUS_PHONE),
        (invalid, INVALID_PHONE),
        (numbers["country"].isin(blocked).to_numpy(dtype=bool), BLOCKED)), len(frame))
    e164, external = numbers["phone_e164"], text(frame, fields.get("external_id"))
    steps: list[tuple[np.ndarray, int]] = []
    if account is not None:
        steps.append(((e164.isin(account.campaign_phones)
                       | external.isin(account.campaign_ids)).to_numpy(dtype=bool),
                      DUPLICATE_IN_CAMPAIGN))
        steps.append((external.isin(account.other_ids).to_numpy(dtype=bool), ID_ELSEWHERE))
    bad = _first_bad_field(frame, fields)
    steps += [(bad == place, FIELD_RULES + place) for place in range(len(FIELD_LIMITS))]
    if account is not None:
        steps.append((e164.isin(account.listed).to_numpy(dtype=bool), ON_DNC))
    return Checked(before, _first(steps, len(frame)))


def _first(steps: tuple[tuple[np.ndarray, int], ...] | list[tuple[np.ndarray, int]],
           rows: int) -> np.ndarray:
    """Per row, the code of the first step whose mask holds it (0: none)."""
    codes = np.zeros(rows, dtype=np.int8)
    for mask, code in reversed(steps):  # in reverse order: the first in order wins
        codes[mask] = code
    return codes


def verdict_frame(codes: np.ndarray, index: pd.Index) -> pd.DataFrame:
    """``status`` and ``reason`` as categoricals of the contract's values (as in
    ``ImportResult.to_frame``), ``field`` as text, from each row's code."""
    columns = {}
    for n, (name, values) in enumerate((("status", STATUSES), ("reason", REASONS))):
        where = np.array([-1 if (value := kind[n]) is None else values.index(value)
                          for kind in VERDICTS], dtype=np.int8)
        columns[name] = pd.Categorical.from_codes(where[codes], values)
    fields = pa.array([kind[2] for kind in VERDICTS], type=pa.large_string())
    field = pd.arrays.ArrowStringArray(pa.chunked_array([pc.take(fields, pa.array(codes))]))
    return pd.DataFrame({**columns, "field": field}, index=index)


def text(frame: pd.DataFrame, column: str | None) -> pd.Series:
    """A column of ``frame``, or a column of missing text when there is none."""
    if column is None:
        return pd.Series(pd.NA, index=frame.index, dtype="string[pyarrow]")
    return frame[column]


def _first_bad_field(frame: pd.DataFrame, fields: Mapping[str, str]) -> np.ndarray:
    """Per row, the place in :data:`FIELD_LIMITS` of the first lead field that breaks its
    rule (-1: none)."""
    bad = np.full(len(frame), -1, dtype=np.int8)
    for place, (name, limit) in reversed(list(enumerate(FIELD_LIMITS))):
        column = fields.get(name)
        if column is None:
            continue
        values = frame[column]
        broken = _longer(values, limit)
        if name == "email":
            broken |= values.notna().to_numpy() & ~_matches(values, _EMAIL_RE2)
        bad[broken] = place  # in reverse order: the first field in order wins
    return bad


def _longer(values: pd.Series, limit: int) -> np.ndarray:
    """Which cells hold more than ``limit`` characters (code points, as the service counts
    them): counted only when a cell has more bytes than that, which the column's offsets
    tell without reading its text."""
    cells = _arrow_text(values)
    if (pc.max(pc.binary_length(cells)).as_py() or 0) <= limit:
        return np.zeros(len(values), dtype=bool)
    return arrow_bools(pc.greater(pc.utf8_length(cells), limit))


def _matches(values: pd.Series, pattern: str) -> np.ndarray:
    found: np.ndarray = pc.fill_null(pc.match_substring_regex(_arrow_text(values), pattern),
                                     False).to_numpy(zero_copy_only=False)
    return found


def _arrow_text(values: pd.Series) -> pa.ChunkedArray:
    """A column's cells as Arrow strings, its chunks as they are (not joined into a copy)."""
    cells = values.astype("string[pyarrow]").array.__arrow_array__()
    return cells if isinstance(cells, pa.ChunkedArray) else pa.chunked_array([cells])

# Each verdict in words ----------------------------------------------------------------------

EXPLANATION = "explanation"
"""The column of a cleaned workbook that holds each refusal in words."""

WORDS: Mapping[Verdict, str] = MappingProxyType({
    ("invalid", "missing_phone", None): "the row has no phone number",
    ("invalid", "field_rule", "phone"): f"the phone cell is longer than {PHONE_MAX} "
                                        "characters, too long to be a phone number",
    ("invalid", "invalid_phone", None): "not a valid phone number of the country it was read "
                                        "in (the row's country, else the file's region)",
    ("invalid", "unknown_country", "country"): "the row's country cell names no country the "
                                               "clean can read, so its number was not read",
    ("invalid", "ambiguous_phone", None): "the digits read as two valid numbers, with and "
                                          "without the country's calling code (the hint "
                                          "names both): write the number with + and its "
                                          "country code",
    ("invalid", "extra_fields", None): "the row has more fields than the file's header (a "
                                       "value holding the delimiter, unquoted), so its cells "
                                       "do not match its columns and it was not read: the "
                                       "hint names its line",
    ("blocked_country", None, None): "the number is in a country the account does not call",
    ("duplicate", "duplicate_in_request", None): "the same phone number or lead id as an "
                                                 "earlier row of the file",
    ("duplicate", "duplicate_in_campaign", None): "already a lead of the campaign",
    ("invalid", "field_rule", "external_id"): f"the lead id is longer than {EXTERNAL_ID_MAX} "
                                              "characters, or used in another campaign",
    ("invalid", "field_rule", "first_name"): f"the first name is longer than {FIRST_NAME_MAX} "
                                             "characters",
    ("invalid", "field_rule", "last_name"): f"the last name is longer than {LAST_NAME_MAX} "
                                            "characters",
    ("invalid", "field_rule", "full_name"): f"the name is longer than {FULL_NAME_MAX} "
                                            "characters",
    ("invalid", "field_rule", "email"): "the email address is not a valid address (or is "
                                        f"longer than {EMAIL_MAX} characters)",
    ("on_dnc", None, None): "the number is on the account's Do-Not-Call list",
})
"""Each refusal the clean gives, by ``status``, ``reason`` and ``field``, in words."""


def explained(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` (cleaned rows, or their summary) with :data:`EXPLANATION` right after its
    ``field`` column (``explanation (clean)`` where the file has a column of that name):
    each row's refusal in words, empty for an accepted row."""
    keys = zip(*(frame[name].astype(object).where(frame[name].notna(), None).tolist()
                 for name in ("status", "reason", "field")), strict=True)
    name = EXPLANATION if EXPLANATION not in frame.columns else f"{EXPLANATION} (clean)"
    words = frame.assign(**{name: [WORDS.get(key) for key in keys]})
    columns = [column for column in frame.columns if column != name]
    at = columns.index("field") + 1
    return words[[*columns[:at], name, *columns[at:]]]
