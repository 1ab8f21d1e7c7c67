"""Validating a lead file the way the service will: ``dialkit.leads.clean``.

The service judges each lead on its own, in a fixed order, and the first
failing check decides (``docs/emulator.md``, "Leads"): the phone, a blocked
country, a duplicate earlier in the request or already in the campaign, the
field rules, the Do-Not-Call screen. :func:`clean` runs the same checks in
the same order over whole columns, so the local verdict of each row is the
service's ``LeadResult`` for it, in the service's own words, before anything
is sent. The checks that need the account (the campaign's leads, the DNC
list) run only with a ``client``; the result says which did not.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._bools import arrow_bools
from .._partitions import Plan, on_dask, read_whole, register
from .._places._blocked import blocked_regions
from ..contract import (
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
from ._campaign import check_campaign
from ._cells import CHUNK_ROWS, cell_frame
from ._hints import region_hints
from ._normalize import normalize, region_of
from ._phones import Phones, choose
from ._read import LeadFile, Source, read
from ._result import ALT_PHONE_FIELD, EXTENSION_FIELD, CleanResult, phone_columns
from ._workbook import unevaluated

if TYPE_CHECKING:
    from ..client import Client

FIELD_LIMITS = (("external_id", EXTERNAL_ID_MAX), ("first_name", FIRST_NAME_MAX),
                ("last_name", LAST_NAME_MAX), ("full_name", FULL_NAME_MAX),
                ("email", EMAIL_MAX))
"""The lead fields a file can fill, in the contract's field order, with their
length limits: the first one that breaks a rule is the refusal's ``field``."""

MAX_ID_LOOKUPS = 100
"""External ids of a file found among the account's leads that are asked about one
by one, to tell this API client's from another's (the list does not say whose)."""

SPACES = (*range(0x9, 0xE), *range(0x1C, 0x21), 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B),
          0x2028, 0x2029, 0x202F, 0x205F, 0x3000)
"""The characters Python's ``\\s`` (the service's) matches, listed: finding them among
all 1,114,112 took 0.13 s of every clean's start (a test checks the list)."""
_WHITESPACE = "".join(f"\\x{{{code:x}}}" for code in SPACES)
_EMAIL_RE2 = EMAIL_PATTERN.replace(r"\s", _WHITESPACE)
"""The service's email rule for RE2, whose ``\\s`` is ASCII only where Python's
(the service's) is every Unicode space."""

STATUSES = [status.value for status in LeadResultStatus]
REASONS = [reason.value for reason in LeadResultReason]
_ACCEPTED = LeadResultStatus.ACCEPTED.value
_INVALID = LeadResultStatus.INVALID.value
_DUPLICATE = LeadResultStatus.DUPLICATE.value
_FIELD_RULE = LeadResultReason.FIELD_RULE.value


@dataclass(frozen=True, slots=True)
class _Account:
    """What the checks that need the account compare with."""

    campaign_phones: frozenset[str]
    campaign_ids: frozenset[str]
    other_ids: frozenset[str]
    listed: frozenset[str]


def clean(source: Source | LeadFile, *, region: str = "US", client: Client | None = None,
          campaign_id: str | None = None, blocked_countries: Collection[str] = (),
          country_column: str | None = None, sheet: str | int | None = None,
          mapping: Mapping[str, str] | None = None, encoding: str | None = None,
          extension_field: str | None = EXTENSION_FIELD,
          alt_phone_field: str | None = ALT_PHONE_FIELD) -> CleanResult:
    """Check every row of a lead file as the service will, before importing it.

    Args:
        source: A lead file (CSV, TSV, XLSX, XLS), a binary file object, a frame
            (pandas', Polars', a pyarrow Table), or what :func:`read` returned; or a
            Dask DataFrame, or a Parquet dataset (a folder, or a ``.parquet`` file),
            read with Dask when it is installed: the phones are normalised on Dask's
            workers, partition by partition, and the rows judged together on the
            client (``docs/scale.md``).
        region: The default region of numbers written nationally.
        client: With a client, the checks that need the account run too: the
            DNC screen (``client.frames.dnc``, cached) and, with ``campaign_id``,
            the leads already in the campaign (and, when the file has external
            ids, the ids this API client uses in other campaigns).
        campaign_id: The campaign the leads are for.
        blocked_countries: Countries the account blocks: ISO 3166 alpha-2 codes or
            English names, in a list or one comma-separated text (``"KP, IR"``), as
            :func:`dialkit.compliance.audit` takes them; the service knows the
            account's list, the API does not show it.
        country_column: The column of each row's country; by default the one
            named country or country code.
        sheet: As for :func:`read`.
        mapping: As for :func:`read`.
        encoding: As for :func:`read`.
        extension_field: The custom field a phone's extension is sent as, ``None``
            to leave extensions out (the E.164 phone cannot hold one).
        alt_phone_field: The custom field a row's other numbers are sent as (a
            second number in the phone cell, the other phone columns' numbers),
            ``None`` to leave them out.

    Returns:
        A :class:`CleanResult`: one row per input row with its ``status``,
        ``reason`` and ``field`` in the vocabulary of the service's ``LeadResult``.

    Raises:
        CampaignError: With ``client`` and ``campaign_id``: the campaign is not the
            account's, or cannot take leads (read before the file).
        LeadFileError: The file cannot be read, or has no phone column.

    Examples:
        >>> import dialkit.leads
        >>> with open("vendor.csv", "w") as file:  # a vendor's file, as it came
        ...     _ = file.write("Mobile,Name,E-mail\\n(415) 555-0199,Ada,ada@example.com\\n"
        ...                    "212.555.0142,Alan,\\nnot a phone,Nobody,\\n")
        >>> result = dialkit.leads.clean("vendor.csv", region="US")
        >>> result.summary
             status         reason field rows
        0  accepted           None  None    2
        1   invalid  invalid_phone  None    1
    """
    blocked = frozenset(blocked_regions(blocked_countries))  # before the file or account
    if client is not None and campaign_id is not None:
        check_campaign(client, campaign_id)  # before the file: a mistyped id fails fast
    normalized: Callable[[pd.Series, str, pd.Series | None], pd.DataFrame] = _normalized
    if on_dask((source,), compute=True):  # the rows on the client, the phones on Dask
        from . import _dask
        source, normalized = _dask.whole(source), _dask.normalizer(source)
    file = source if isinstance(source, LeadFile) else read(
        read_whole(source), sheet=sheet, mapping=mapping, encoding=encoding)
    column = country_column or file.fields.get("country")
    if column is not None and column not in file.frame.columns:
        raise ValueError(f"country_column={column!r} is not a column of {file.name}: its "
                         f"columns are {', '.join(map(str, file.frame.columns))}")
    countries = None if column is None else file.frame[column]
    chosen = choose(file.frame, [file.fields["phone"], *phone_columns(file)],
                    lambda cells: normalized(cells, region, countries))
    phones, numbers = chosen.cells, chosen.numbers
    numbers["flags"] = _stored_as_number(numbers["flags"], file, chosen)
    numbers = unevaluated(numbers, file.formulas, chosen.columns[0], file.frame.index)
    external = _text(file.frame, file.fields.get("external_id"))
    account = None if client is None else _account(client, campaign_id, numbers["phone_e164"],
                                                    external)
    verdicts, duplicate_of = _verdicts(file, phones, numbers, blocked, account)
    hints, looks_like = region_hints(file.frame[chosen.columns[0]], numbers, _region(region),
                                     countries)
    numbers["alt_phone"] = chosen.alt_phone
    result = CleanResult.build(
        file, numbers, verdicts, region=region, campaign_id=campaign_id,
        blocked_countries=tuple(sorted(blocked)), skipped=_skipped(client, campaign_id),
        extension_field=_field_name("extension_field", extension_field),
        alt_phone_field=_field_name("alt_phone_field", alt_phone_field),
        hints=hints, duplicate_of=duplicate_of,
        sources=_sources(chosen), looks_like=looks_like)
    result.check_names()
    return result


def _normalized(cells: pd.Series, region: str, countries: pd.Series | None) -> pd.DataFrame:
    """:func:`normalize` of some of the file's cells (by index), each with its row's
    country (:data:`NORMALIZED` run whole)."""
    return NORMALIZED.local(cell_frame(cells, countries), region=region)


def normalized_part(cells: pd.DataFrame, *, region: str) -> pd.DataFrame:
    """:func:`normalize` of a :func:`cell_frame`'s rows, :data:`CHUNK_ROWS` at a time;
    the parts' columns joined as Arrow chunks, not copied into one."""
    country = cells.get("country")
    parts = [normalize(cells["cell"].iloc[at:at + CHUNK_ROWS], region=region,
                       country=None if country is None else country.iloc[at:at + CHUNK_ROWS])
             for at in range(0, max(len(cells), 1), CHUNK_ROWS)]
    if len(parts) == 1:
        return parts[0]
    return pd.DataFrame({name: pd.arrays.ArrowStringArray(pa.chunked_array(
        [chunk for part in parts for chunk in part[name].array.__arrow_array__().chunks],
        type=pa.large_string())) for name in parts[0].columns}, index=cells.index)


def _in_order(numbers: pd.DataFrame, **_: Any) -> pd.DataFrame:
    """Parts' numbers stacked in the cells' order are the whole's."""
    return numbers


NORMALIZED = register(Plan("clean", normalized_part, _in_order))
"""Each phone on its own: parts of the cells normalised anywhere, stacked in order; the
checks that need all rows (duplicates in the file, the DNC screen, hints by the file's
regions) run on the whole file once its numbers are back."""


def _region(region: str) -> str:
    return region_of(region) or region


def _field_name(option: str, name: str | None) -> str | None:
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise ValueError(f"{option}={name!r}: pass the custom field's name, or None to leave "
                         "it out")
    return name


def _sources(chosen: Phones) -> dict[str, int]:
    """Rows whose valid phone each phone column gave, the phone column first (only
    with fallback columns)."""
    if len(chosen.columns) == 1:
        return {}
    valid = chosen.numbers["phone_e164"].notna().to_numpy(dtype=bool)
    counts = np.bincount(chosen.source[valid], minlength=len(chosen.columns))
    return {column: int(count) for column, count in zip(chosen.columns, counts, strict=True)}


def _stored_as_number(flags: pd.Series, file: LeadFile, chosen: Phones) -> pd.Series:
    """Flag the phone cells a workbook held as numbers: Excel may have dropped a
    leading zero or digits before anything read the file."""
    rows = np.concatenate([
        rows[chosen.source[rows] == place] for place, rows in enumerate(
            file.frame.index.get_indexer(  # positions: blank rows are not in the frame
                file.numbers.loc[file.numbers["column"] == column, "row"].to_numpy(np.int64) - 1)
            for column in chosen.columns)])
    if len(rows) == 0:
        return flags
    flags = flags.copy()
    flags.iloc[rows] = [f"{f},stored_as_number" if isinstance(f, str) else "stored_as_number"
                        for f in flags.iloc[rows].tolist()]
    return flags


def _skipped(client: Client | None, campaign_id: str | None) -> dict[str, str]:
    """The checks that did not run, each with what would run it."""
    skipped = {}
    if client is None or campaign_id is None:
        skipped["duplicate_in_campaign"] = "needs the campaign's leads: pass client= and " \
                                           "campaign_id="
    if client is None:
        skipped["on_dnc"] = "needs the account's DNC list: pass client="
    return skipped


def _account(client: Client, campaign_id: str | None, e164: pd.Series,
             external: pd.Series) -> _Account:
    """The campaign's phones, which of the file's ids this client uses here or in
    another campaign, and which numbers are on the DNC list."""
    phones: frozenset[str] = frozenset()
    here: set[str] = set()
    elsewhere: set[str] = set()
    if campaign_id is not None:
        has_ids = bool(external.notna().any())
        leads = client.frames.leads(campaign_id=None if has_ids else campaign_id,
                                    refresh="full")
        phones = frozenset(leads.loc[leads["campaign_id"] == campaign_id, "phone"].dropna())
        # The list shows every API client's ids without saying whose: the ids that
        # match are asked again, scoped to this client as the service's rule is,
        # up to MAX_ID_LOOKUPS (one request each); the rest are taken as this client's.
        listed = leads.drop_duplicates("external_id").set_index("external_id")["campaign_id"]
        asked = external[e164.notna() & ~e164.isin(phones) & external.isin(listed.index)]
        for n, ident in enumerate(asked.unique().tolist()):
            owner = listed[ident] if n >= MAX_ID_LOOKUPS else next(
                (lead.campaign_id for lead in client.leads.list(external_id=ident, limit=1)),
                None)
            if owner is not None:
                (here if owner == campaign_id else elsewhere).add(ident)
    wanted = e164.dropna().unique().tolist()
    screened = client.frames.dnc(wanted) if wanted else None
    listed = frozenset() if screened is None else frozenset(
        screened.loc[screened["listed"].fillna(False).astype(bool), "phone"])
    return _Account(phones, frozenset(here), frozenset(elsewhere), listed)


def _text(frame: pd.DataFrame, column: str | None) -> pd.Series:
    if column is None:
        return pd.Series(pd.NA, index=frame.index, dtype="string[pyarrow]")
    return frame[column]


Verdict = tuple[str, str | None, str | None]
"""A row's ``status``, ``reason`` and ``field``."""


class _Verdicts:
    """Every row's verdict as a small integer into the verdicts seen, the first decided
    staying: a million rows cost a million bytes, not three columns of objects."""

    def __init__(self, rows: int) -> None:
        self.kinds: list[Verdict] = [(_ACCEPTED, None, None)]
        self.codes = np.zeros(rows, dtype=np.int8)
        self.decided = np.zeros(rows, dtype=bool)

    def decide(self, mask: np.ndarray, verdict: Verdict) -> None:
        new = mask & ~self.decided
        if new.any():
            if verdict not in self.kinds:
                self.kinds.append(verdict)
            self.codes[new] = self.kinds.index(verdict)
            self.decided |= new

    def frame(self, index: pd.Index) -> pd.DataFrame:
        """``status`` and ``reason`` as categoricals of the contract's values (as in
        ``ImportResult.to_frame``), ``field`` as text."""
        columns: dict[str, Any] = {}
        for n, (name, values) in enumerate((("status", STATUSES), ("reason", REASONS))):
            where = np.array([-1 if value is None else values.index(value)
                              for value in (kind[n] for kind in self.kinds)], dtype=np.int8)
            columns[name] = pd.Categorical.from_codes(where[self.codes], values)
        fields = pa.array([kind[2] for kind in self.kinds], type=pa.large_string())
        columns["field"] = pd.arrays.ArrowStringArray(
            pa.chunked_array([pc.take(fields, pa.array(self.codes))]))
        return pd.DataFrame(columns, index=index)


def _verdicts(file: LeadFile, phones: pd.Series, numbers: pd.DataFrame,
              blocked: frozenset[str], account: _Account | None
              ) -> tuple[pd.DataFrame, np.ndarray]:
    """``status``, ``reason`` and ``field`` of every row, the first failing check deciding;
    and per row the position of the row a ``duplicate_in_request`` repeats (else -1)."""
    verdicts = _Verdicts(len(phones))
    e164 = numbers["phone_e164"]
    missing = (numbers["reason"] == "missing_phone").fillna(False).to_numpy(dtype=bool)
    invalid = (numbers["reason"] == "invalid_phone").fillna(False).to_numpy(dtype=bool)
    verdicts.decide(missing, (_INVALID, "missing_phone", None))
    verdicts.decide(invalid & _longer(phones, PHONE_MAX),  # the service reads no further
                    (_INVALID, _FIELD_RULE, "phone"))
    verdicts.decide(invalid, (_INVALID, "invalid_phone", None))
    verdicts.decide(numbers["country"].isin(blocked).to_numpy(dtype=bool),
                    ("blocked_country", None, None))
    external = _text(file.frame, file.fields.get("external_id"))
    later = _after_duplicates(e164, external, _first_bad_field(file), account)
    owners = _in_request(e164, external, eligible=~verdicts.decided,
                         passes=~later["refused"])
    verdicts.decide(owners >= 0, (_DUPLICATE, "duplicate_in_request", None))
    for mask, verdict in later["steps"]:
        verdicts.decide(mask, verdict)
    return verdicts.frame(phones.index), owners


def _after_duplicates(e164: pd.Series, external: pd.Series, bad_field: np.ndarray,
                      account: _Account | None) -> dict[str, Any]:
    """The checks after the request's duplicates, in order, and whether each row fails one."""
    steps: list[tuple[np.ndarray, Verdict]] = []
    if account is not None:
        in_campaign = (e164.isin(account.campaign_phones) | external.isin(account.campaign_ids))
        steps.append((in_campaign.to_numpy(dtype=bool),
                      (_DUPLICATE, "duplicate_in_campaign", None)))
        steps.append((external.isin(account.other_ids).to_numpy(dtype=bool),
                      (_INVALID, _FIELD_RULE, "external_id")))
    for code, (name, _) in enumerate(FIELD_LIMITS, start=1):
        steps.append((bad_field == code, (_INVALID, _FIELD_RULE, name)))
    if account is not None:
        steps.append((e164.isin(account.listed).to_numpy(dtype=bool),
                      (LeadResultStatus.ON_DNC.value, None, None)))
    refused = np.zeros(len(e164), dtype=bool)
    for mask, _ in steps:
        refused |= mask
    return {"steps": steps, "refused": refused}


def _first_bad_field(file: LeadFile) -> np.ndarray:
    """Per row, the first lead field that breaks its rule, as its 1-based place in
    :data:`FIELD_LIMITS` (0: none)."""
    bad = np.zeros(len(file.frame), dtype=np.int8)
    for code, (name, limit) in reversed(list(enumerate(FIELD_LIMITS, start=1))):
        column = file.fields.get(name)
        if column is None:
            continue
        values = file.frame[column]
        broken = _longer(values, limit)
        if name == "email":
            broken |= values.notna().to_numpy() & ~_matches(values, _EMAIL_RE2)
        bad[broken] = code  # in reverse order: the first field in order wins
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
