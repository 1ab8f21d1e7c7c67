"""Which column of another tool's export holds which column the audit reads:
a dialer's ``Phone Number`` and ``Call Start``, a CRM's ``Lead ID`` and ``Line Type``, a
DNC vendor's ``Scrub Date``, each read as the column it names, or as the user maps it
(``mapping={"to_number": "Dialed"}``, ``--map to_number=Dialed``), as a lead file's
columns are read by the clean (:mod:`dialkit._files._headers` compares them alike).

A column the export names as the audit does is read as it is. Of a column the audit reads
that the export does not name so, a column named as :data:`COMMON` says is read as it,
where exactly one is (two that could each be it are refused, naming both: a guess would
change findings silently); the user's mapping is read first and never second-guessed. The
report's notes say what was read as what (:func:`read_as_note`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pandas as pd
import pyarrow.dataset as ds

from ..._files._headers import header_named, squeeze
from ..._parallel._partitions import is_dask, is_dataset, read_whole
from ..._utils._base_error import AuditInputError
from ...frames import maybe_pandas
from ._declared import INPUTS, declared
from ._vocabulary import Values, checked_values, read_named

Columns = Mapping[str, str] | None
"""The user's mapping of columns (``mapping=``): a column the audit reads (``to_number``;
``calls.created_at`` where a bare name would name several frames' columns) to the
header of the column of the export that holds it."""

_PHONE = ("phone", "phonenumber", "telephone", "telephonenumber", "tel", "number")
_LEAD = ("leadid", "contactid", "customerid", "recordid")
COMMON: Mapping[str, Mapping[str, tuple[str, ...]]] = MappingProxyType({
    "calls": {
        "id": ("callid", "calluuid", "uniqueid", "callsid", "callkey", "sessionid"),
        "direction": ("calldirection", "inboundoutbound"),
        "from_number": ("from", "callerid", "callernumber", "ani", "callingnumber",
                        "outboundcallerid", "presentednumber"),
        "to_number": ("to", *_PHONE, "dialednumber", "diallednumber", "numberdialed",
                      "numberdialled", "callednumber", "phonedialed", "destination",
                      "destinationnumber", "dnis", "customerphone", "contactphone",
                      "leadphone"),
        "created_at": ("calldate", "calldatetime", "callstart", "callstarttime", "starttime",
                       "startedat", "startdate", "datetime", "timestamp", "dialtime",
                       "dialedat", "placedat"),
        "answered_at": ("answertime", "answeredtime", "callanswered", "connecttime",
                        "connectedat"),
        "ended_at": ("endtime", "callend", "callendtime", "hanguptime", "hungupat",
                     "disconnecttime", "disconnectedat"),
        "campaign_id": ("campaign", "campaignname", "campaigncode"),
        "disposition": ("calldisposition", "dispositioncode", "result", "callresult",
                        "outcome", "calloutcome", "wrapup", "wrapupcode"),
        "status": ("callstatus",),
        "hangup_cause": ("hangupreason", "terminationreason", "termreason",
                         "disconnectreason", "disconnectcause"),
        "agent_joined_at": ("agentconnecttime", "agentconnectedat", "agentjoined"),
        "prerecorded": ("prerecordedvoice", "artificialvoice", "robocall"),
        "duration_seconds": ("duration", "callduration", "durationsec", "lengthinsec",
                             "length", "seconds", "billsec"),
    },
    "leads": {
        "id": _LEAD,
        "campaign_id": ("campaign", "campaignname", "campaigncode"),
        "phone": (*_PHONE, "mobile", "mobilephone", "cell", "cellphone", "homephone",
                  "primaryphone"),
        "status": ("leadstatus", "contactstatus"),
        "state": ("province", "stateprovince", "addressstate", "mailingstate", "billingstate",
                  "st"),
        "line": ("linetype", "phonetype", "numbertype", "carriertype"),
        "other_phones": ("alternatephones", "altphones"),
        "created_at": ("createddate", "datecreated", "createdon", "entrydate"),
    },
    "dnc": {
        "phone": _PHONE,
        "listed": ("dnc", "ondnc", "isdnc", "dnclisted", "donotcall", "onlist", "registered",
                   "isregistered", "dncflag"),
        "checked_at": ("checkdate", "checked", "datechecked", "scrubdate", "scrubbed",
                       "scrubbedat", "lookupdate"),
        "listed_at": ("listeddate", "registrationdate", "dateregistered", "registeredat",
                      "dateadded", "addedon"),
        "list": ("listname", "dnclist", "registry"),
    },
    "consents": {
        "phone": _PHONE,
        "lead_id": _LEAD,
        "kind": ("consenttype", "consentkind", "type"),
        "given_at": ("consentdate", "dategiven", "optindate", "optedinat", "consentedat"),
        "revoked_at": ("revocationdate", "daterevoked", "optoutdate", "optedoutat",
                       "withdrawnat"),
        "relationship": ("relationshiptype", "ebrtype"),
    },
    "contracts": {
        "phone": _PHONE,
        "lead_id": _LEAD,
        "signed_at": ("signeddate", "datesigned", "contractdate", "effectivedate"),
        "ends_at": ("enddate", "expirydate", "expirationdate", "expiresat",
                    "terminationdate"),
    },
    "reassigned": {
        "phone": _PHONE,
        "asked_at": ("querydate", "dateasked", "lookupdate", "checkedat"),
        "answer": ("result", "reassigned", "response"),
    },
    "texts": {
        "message_id": ("messagesid", "smsid", "sid"),
        "to": ("tonumber", *_PHONE, "recipient", "destination"),
        "created_at": ("sentat", "datesent", "senttime", "timestamp"),
        "status": ("deliverystatus",),
    },
    "emergencies": {
        "area": ("state", "region"),
        "starts_at": ("startdate", "declaredat", "declared", "declarationdate"),
        "ends_at": ("enddate", "liftedat", "expiresat"),
        "declaration": ("order", "executiveorder", "proclamation"),
    },
})
"""Of each input, the names (squeezed: :func:`dialkit._files._headers.squeeze`) other
tools' exports give each column the audit reads, besides its own: a dialer's, a CRM's, a
DNC vendor's. A name of a column's time is one that holds a time of day (``Call Start``),
never one that holds a length (``Call Time`` is the length of the call in one dialer's
export). Of one input, no name is two columns' (a test holds it)."""


def named_inputs(given: Mapping[str, Any], mapping: Columns) -> tuple[dict[str, Any], str]:
    """Each input of ``given`` (its name to a frame in any form the audit takes, or None)
    with its columns named as the audit reads them (:data:`COMMON`, then ``mapping``),
    and the note saying what was read as what (empty: nothing was renamed).

    Raises:
        AuditInputError: ``mapping`` names no column of an input, or a header the input
            does not have; or two of an input's columns could each be one the audit reads.
    """
    wanted = checked_mapping(mapping)
    read: dict[str, Any] = {}
    said = []
    for name, frame in given.items():
        if frame is None:
            read[name] = None
            continue
        renames = _renames(name, _headers(frame), wanted.get(name, {}))
        read[name] = _renamed(frame, renames) if renames else frame
        shown = [f"{header!r} as {column}" for header, column in renames.items()
                 if squeeze(header) != squeeze(column)]
        if shown:
            said.append(f"{name}: {', '.join(shown)}")
    unused = [f"{name}.{column}" for name, columns in wanted.items() if given.get(name) is None
              for column in columns]
    if unused:
        raise AuditInputError(f"mapping= names {unused[0]}, but no {unused[0].split('.')[0]} "
                              "were given: pass them, or leave the mapping out")
    return read, "; ".join(said)


def readable(given: Mapping[str, Any], mapping: Columns,
             values: Values) -> tuple[dict[str, pd.DataFrame | None], str]:
    """:func:`named_inputs` of the frames a judge before a call is given, each as pandas
    with its named columns read through the vocabulary and the user's ``values``
    (:func:`._vocabulary.read_named`: the caller's frames untouched), so that its judge
    reads them as the audit reads them; and the note of what was read as what.

    Raises:
        AuditInputError: As :func:`named_inputs`, and a record's value not understood.
    """
    named, said = named_inputs(given, mapping)
    checked_values(values)
    read = {name: None if frame is None else read_named(
        maybe_pandas(frame, name).copy(deep=False), name, values)  # type: ignore[union-attr]
        for name, frame in named.items()}
    return read, said


def read_as_note(said: str) -> dict[str, str]:
    """The report's note of the columns read by another name (:func:`named_inputs`)."""
    if not said:
        return {}
    return {"columns": f"read as the audit's columns: {said}; to read another column as "
                       "one, pass mapping={'<column>': '<header>'}"}


def checked_mapping(mapping: Columns) -> dict[str, dict[str, str]]:
    """``mapping`` by input (``{"calls": {"to_number": "Phone"}}``), each key checked to
    name one column the audit reads: bare where one input has it (``to_number``), else
    with its input (``calls.created_at``); refused, naming the key, where it names none
    or several, or its header is no text."""
    by_input: dict[str, dict[str, str]] = {}
    for key, header in (mapping or {}).items():
        frame, _, column = str(key).rpartition(".")
        frames = [name for name in INPUTS if column in declared(name)]
        if not frames or (frame and frame not in frames):
            raise AuditInputError(f"mapping= names {key!r}, no column the audit reads: pass "
                                  "one of to_number, calls.created_at, dnc.phone, ... (the "
                                  "columns of docs/compliance.md's inputs)")
        if not frame and len(frames) > 1:
            raise AuditInputError(f"mapping= names {key!r}, a column of "
                                  f"{', '.join(frames)}: write which, as "
                                  f"{frames[0]}.{column}")
        if not isinstance(header, str) or not header:
            raise AuditInputError(f"mapping={{{key!r}: {header!r}}}: pass the header of the "
                                  "column that holds it, as the file writes it")
        by_input.setdefault(frame or frames[0], {})[column] = header
    return by_input


def _renames(name: str, headers: list[str], wanted: Mapping[str, str]) -> dict[str, str]:
    """The headers of input ``name`` to rename, each to the column it holds: the user's
    (``wanted``: column to header) first, then by :data:`COMMON` each column the input
    lacks where exactly one header names it."""
    for column, header in wanted.items():
        if header not in headers:
            raise AuditInputError(f"mapping= reads {name}.{column} from {header!r}, but no "
                                  f"column of {name} is named so: its columns are "
                                  f"{', '.join(map(repr, headers[:20]))}", frame=name)
        if column in headers and column != header:
            raise AuditInputError(f"mapping= reads {name}.{column} from {header!r}, but "
                                  f"{name} has a column {column!r} too: rename or drop one "
                                  "of them", frame=name)
    renames = {header: column for column, header in wanted.items()}
    own = set(declared(name))
    by_name = {alias: column for column, aliases in COMMON[name].items() for alias in aliases}
    by_name.update({squeeze(column): column for column in own})  # "Campaign ID", "STATUS"
    kept = {header for header in headers if header not in renames}  # a column mapped away
    found: dict[str, list[str]] = {}                                  # frees its name
    for header in headers:
        meant = header_named(header, by_name)
        if (meant is not None and header in kept and header not in own
                and meant not in kept and meant not in wanted):
            found.setdefault(meant, []).append(header)
    for column, named in found.items():
        if len(named) > 1:
            raise AuditInputError(
                f"the columns {' and '.join(map(repr, named))} of {name} could each be "
                f"{column}: pass which, as mapping={{'{_key(name, column)}': "
                f"'{named[0]}'}}", frame=name)
        renames[named[0]] = column
    return renames


def _key(name: str, column: str) -> str:
    """``column`` as a mapping names it: bare where one input has it."""
    return column if sum(column in declared(each) for each in INPUTS) == 1 else (
        f"{name}.{column}")


def _headers(frame: Any) -> list[str]:
    """The column names of a frame in any form the audit takes (pandas, Dask, Polars, an
    Arrow table, a Parquet dataset's path)."""
    if isinstance(frame, str | os.PathLike) and is_dataset(frame):
        return list(ds.dataset(frame, format="parquet", partitioning="hive").schema.names)
    names = getattr(frame, "column_names", None)  # an Arrow table's columns are arrays
    return [str(each) for each in (getattr(frame, "columns", []) if names is None else names)]


def _renamed(frame: Any, renames: Mapping[str, str]) -> Any:
    """``frame`` with its columns renamed, of its own kind where it has one (a Parquet
    dataset's path is read whole: a dataset dialkit wrote names its columns as the audit
    reads them)."""
    if isinstance(frame, str | os.PathLike) and is_dataset(frame):
        return _renamed(read_whole(frame), renames)
    if hasattr(frame, "rename_columns"):  # an Arrow table
        return frame.rename_columns([renames.get(name, name) for name in frame.column_names])
    if is_dask(frame) or hasattr(frame, "attrs"):  # pandas' and Dask's frames
        return frame.rename(columns=dict(renames))
    return frame.rename(dict(renames))  # Polars
