"""Each input frame of the audit made ready for its checks: the calls, texts, leads, DNC
results, contracts, consent records and reassigned-number answers checked against their
declaration (:mod:`._declared`), times in UTC, their named columns read through the
vocabulary (:mod:`._vocabulary`), each refused as an :class:`AuditInputError` naming the
frame. One reader per input, read by every judge (the audit on pandas and on Dask,
``next_allowed``, ``upcoming``, the guard), so that no path reads an input otherwise.

Beside them, what the DNC results say as a whole, read before the audit is split into
parts (in any form the audit takes them: pandas, Dask, a dataset's path): which state
lists they scrub against (:func:`lists_given`), and how many leave ``listed`` empty
(:func:`unanswered`).

The declared states of emergency (``emergencies=``) are read here too, by their declaration,
into the rules' :class:`.._rules._emergencies.Emergency` values, and carried by the rules,
so that every judge of a call reads them from the rules alike: the audit on pandas and on
Dask, ``next_allowed``, ``upcoming``, ``repair`` and the client's guard.
"""

from __future__ import annotations

from collections.abc import Collection

import pandas as pd

from ..._law import _dnc_lists as lists
from ..._utils._base_error import AuditInputError, ColumnError, InputError
from ...contract import LeadStatus
from ...frames import maybe_pandas
from .._rules._emergencies import Emergency, emergency
from .._rules._rules import FINDING_COLUMNS, Rules
from ._columns import reduced, typed
from ._declared import declared, required
from ._load import TEXT_COLUMNS
from ._options import lacking
from ._vocabulary import Values
from ._vocabulary import read as named_read

CALL_COLUMNS = required("calls")
LEAD_COLUMNS = required("leads")
DNC_COLUMNS = required("dnc")
LEAD_STATUSES = tuple(status.value for status in LeadStatus)
"""A lead's ``status`` values (the contract's); another is refused, never read as open."""
_LEADS_UNREAD = frozenset(FINDING_COLUMNS) - {"campaign_id", "phone"}
"""The findings' own columns a lead's column of the same name would stand in for."""
CONSENT_COLUMNS = required("consents")
"""The consent records' columns the audit needs, beside ``phone`` or ``lead_id``."""
REASSIGNED_COLUMNS = required("reassigned")


def prepared_calls(calls: pd.DataFrame, values: Values = None) -> pd.DataFrame:
    """The calls checked for the audit's columns, times in UTC, their named columns
    (direction, status, disposition, hangup cause) read through the vocabulary with the
    user's ``values`` (:mod:`._vocabulary`: a value not understood is kept as
    written, and its rows held out of the rules it would decide)."""
    return _prepared(calls, CALL_COLUMNS, "calls", values)


def prepared_texts(texts: pd.DataFrame | None) -> pd.DataFrame | None:
    """The texts (``client.frames.sms_reports()``) checked, times in UTC, their
    ``attrs`` kept (where :func:`~dialkit.compliance.load` says why none were read)."""
    if texts is None:
        return None
    prepared = _prepared(texts, TEXT_COLUMNS, "texts")
    prepared.attrs.update(texts.attrs)
    return prepared


def prepared_leads(leads: pd.DataFrame | None, campaigns: Collection[str] | None,
                   values: Values = None) -> pd.DataFrame | None:
    """The leads of the audited campaigns, checked, their ``id`` as ``lead_id``. A column
    of their own under a name a finding gives its own (``lead_id``, ``at``, ``timezone``,
    ``basis``, ...: a lead file's time zone) is not kept: no rule reads it, and a finding
    of a lead would have said it as the audit's. Its ``status`` and ``line`` are read
    through the vocabulary (a value not understood refused, naming it)."""
    if leads is None:
        return None
    leads = _prepared(leads, LEAD_COLUMNS, "leads", values)
    theirs = [column for column in leads.columns if column in _LEADS_UNREAD]
    if theirs:
        leads = leads.drop(columns=theirs)
    leads = leads.rename(columns={"id": "lead_id"})
    return leads if campaigns is None else leads[leads["campaign_id"].isin(campaigns)]


def prepared_dnc(dnc: pd.DataFrame | None, values: Values = None) -> pd.DataFrame | None:
    """The DNC results checked, times in UTC, ``listed`` as booleans, a ``list`` column's
    values ``national``, ``company`` or a state's list, each read as people write it (the
    vocabulary's :func:`._vocabulary.list_named`). A result whose
    ``listed`` is empty (not known) is left out: no check of its number, nor a scrub of it
    against a state's list (counted as one, it let a required list's risk pass), which the
    report's note counts (:func:`unanswered`)."""
    if dnc is None:
        return None
    prepared = _prepared(dnc, DNC_COLUMNS, "dnc", values)
    answered = prepared["listed"].notna().to_numpy(bool)
    return prepared if answered.all() else prepared[answered]


def prepared_contracts(contracts: pd.DataFrame | None,
                       has_leads: bool) -> pd.DataFrame | None:
    """The written contracts checked as the consent records are: ``phone`` or
    ``lead_id``, ``signed_at`` and ``ends_at`` (added empty: in force) in UTC."""
    if contracts is None:
        return None
    prepared = _prepared(contracts, required("contracts"), "contracts")
    if "phone" not in prepared and ("lead_id" not in prepared or not has_leads):
        raise AuditInputError("contracts name no phone (or a lead_id, with leads=): give "
                              "each contract's number (E.164)", frame="contracts")
    return _open_ended(prepared, "ends_at")


def prepared_consents(consents: pd.DataFrame | None, has_leads: bool,
                      values: Values = None) -> pd.DataFrame | None:
    """The consent records checked: ``phone`` or ``lead_id`` (``lead_id`` needs leads),
    ``kind`` and ``relationship`` read through the vocabulary, times in UTC, ``revoked_at`` added
    empty where absent."""
    if consents is None:
        return None
    prepared = _prepared(consents, CONSENT_COLUMNS, "consents", values)
    if "phone" not in prepared and "lead_id" not in prepared:
        raise AuditInputError("consents has no column phone or lead_id: give each record's "
                              "number (E.164) or its lead's id", frame="consents")
    if "phone" not in prepared and not has_leads:
        raise AuditInputError("consents name leads by lead_id: pass leads= too, or give each "
                              "record's phone", frame="consents")
    return _open_ended(prepared, "revoked_at")


def prepared_reassigned(reassigned: pd.DataFrame | None,
                        values: Values = None) -> pd.DataFrame | None:
    """The reassigned numbers database's answers checked: ``answer`` one of
    :data:`._vocabulary.ANSWERS`, ``asked_at`` in UTC."""
    if reassigned is None:
        return None
    return _prepared(reassigned, REASSIGNED_COLUMNS, "reassigned", values)


def _prepared(frame: pd.DataFrame, needed: tuple[str, ...], name: str,
              values: Values = None) -> pd.DataFrame:
    """A copy with the needed columns checked and the times as UTC (a column already in
    UTC, as ``client.frames`` types it, is kept as it is: the copy shares its data), its
    named columns read through the vocabulary with the user's ``values``."""
    missing = [column for column in needed if column not in frame.columns]
    if missing:
        raise AuditInputError(lacking(name, missing, needed), frame=name)
    try:
        return typed(frame.copy(deep=False), name, values)
    except ValueError as error:  # the column, its value and row, what to write instead
        raise AuditInputError(str(error), frame=name) from None


def _open_ended(prepared: pd.DataFrame, end: str) -> pd.DataFrame:
    """``prepared`` (records in force from a time: consents, contracts) with the column of
    their ``end`` added empty where the records give none, so that each is in force until
    an end is known."""
    if end not in prepared:
        prepared[end] = pd.Series(pd.NaT, index=prepared.index, dtype="datetime64[ns, UTC]")
    return prepared


def lists_given(dnc: object, values: Values = None) -> frozenset[str]:
    """The state lists (``US-IN``, ...) the DNC results hold a row of, listed or not: a
    scrub against them was given. Of a pandas or Dask frame (its ``list`` column's few
    values computed), or a Parquet dataset's path (that column alone read), each value
    read through the vocabulary with the user's ``values`` as the rows are (a state as
    people write it, a vendor's word mapped); none where the results have no ``list``
    column."""
    told = None if dnc is None else reduced(
        dnc, "list", lambda column: column.dropna().astype(str).unique())
    if told is None:
        return frozenset()
    read = named_read(pd.Series(list(told), dtype=object), "dnc", "list", values)
    return frozenset(map(str, read.dropna())) & {row.results_name for row in lists.all()
                                                  if row.state}


def unanswered(dnc: object) -> int:
    """How many of the DNC results (in any form the audit takes them) leave ``listed``
    empty: a check that did not answer, which the audit reads as no check at all
    (:func:`prepared_dnc` leaves such rows out), never as
    "not listed"."""
    count = None if dnc is None else reduced(dnc, "listed",
                                             lambda column: column.isna().sum())
    return int(count or 0)


FRAME = "emergencies"
"""The input's name: its keyword, its declaration's and its errors' frame."""


def with_emergencies(rules: Rules, emergencies: object) -> Rules:
    """``rules`` carrying the emergencies of the frame ``emergencies`` (pandas, Polars or
    Arrow; None: ``rules`` as they are, none given), each row read by the declaration.

    Raises:
        AuditInputError: The frame lacks ``area`` or ``starts_at``, holds a value that is
            not of its column's kind, an area that names no state, or an end not after
            its start; the message names the column and the row (``frame`` is
            ``emergencies``).
    """
    if emergencies is None:
        return rules
    return rules.with_emergencies(declared_emergencies(emergencies))


def declared_emergencies(emergencies: object) -> tuple[Emergency, ...]:
    """The frame's declared emergencies, each row checked (:func:`with_emergencies`)."""
    frame = maybe_pandas(emergencies, FRAME)
    assert frame is not None
    missing = [column for column in required(FRAME) if column not in frame.columns]
    if missing:
        raise AuditInputError(f"{FRAME} has no column {', '.join(missing)}: give each "
                              "declared emergency's area (a state: US-LA, LA, Louisiana) and "
                              "starts_at, and ends_at where it has ended "
                              f"({', '.join(declared(FRAME))})", frame=FRAME)
    try:
        read = typed(frame[[c for c in declared(FRAME) if c in frame]].copy(), FRAME)
        return tuple(emergency(**{column: row.get(column) for column in declared(FRAME)},
                               where=f"{FRAME} row {n}")  # the columns are its arguments
                     for n, row in enumerate(read.to_dict("records")))
    except (ColumnError, InputError) as error:
        raise AuditInputError(str(error), frame=FRAME) from None
