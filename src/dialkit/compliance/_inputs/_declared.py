"""Each input frame of the audit declared once: its columns, their kinds, which it must
have and what reads each (issue 71; STYLE.md point 17).

The pandas path checks a frame by this declaration (:func:`._columns.typed`, the audit's
``prepared_*``), and the Dask path takes from it which columns go through its shuffles
(:mod:`.._dask._parts`), so that no column is read on one path and dropped on the other:
the Dask path kept its own lists, dropped the leads' ``line`` and the DNC results' ``list``,
and judged a call to a business line, and a number on the account's own list, otherwise
than pandas did. Polars' and Arrow's frames are read as pandas'
(:func:`dialkit.frames.as_pandas`), the command line's files by :mod:`._read`, the
guard's calls by :func:`required` of ``calls``: each through the same checks.

Kinds: ``text`` (checked as text: an id or a label held as numbers is refused), ``phone``
(text, and E.164), ``time`` (read as UTC, :data:`TIME_TYPE`), ``number``, ``boolean``
(as a CSV writes it), ``value`` (read as given: JSON text, a list).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

TIME_TYPE = pd.DatetimeTZDtype(unit="us", tz="UTC")
"""Every time the audit reads, as ``client.frames`` types it: text read by pandas came in
the resolution its text suggested (seconds for ``2026-06-01T00:00:00Z``), and a Dask part
given another frame's resolution (the calls' microseconds) ended in ``MergeError``."""
REPORT = "the report"
"""The reader of a column only the report lists (an abandoned call's row whole)."""


@dataclass(frozen=True)
class Column:
    """One column of an input frame: its ``name``, ``kind`` (the module's), whether the
    frame must have it, and what reads it (the rules, or :data:`REPORT`)."""

    name: str
    kind: str
    required: bool = False
    read_by: tuple[str, ...] = ()


def _c(name: str, kind: str, *read_by: str, required: bool = False) -> Column:
    """A :class:`Column` written as a line of the table below."""
    return Column(name, kind, required, read_by)


_CALLED = ("calling_hours", "call_frequency", "dnc_call", "blocked_country", "caller_id")
INPUTS: dict[str, tuple[Column, ...]] = {
    "calls": (
        _c("id", "text", "every finding", required=True),
        _c("direction", "text", "every rule (outbound calls only)", required=True),
        _c("from_number", "phone", "caller_id", "unverified_caller_id", required=True),
        _c("to_number", "phone", *_CALLED, required=True),
        _c("created_at", "time", *_CALLED, "abandonment", required=True),
        _c("answered_at", "time", "abandonment", "short_ring", required=True),
        _c("ended_at", "time", "abandonment", "short_ring", required=True),
        _c("campaign_id", "text", "call_frequency", "abandonment", required=True),
        _c("disposition", "text", "abandonment", "dnc_call", required=True),
        _c("agent_joined_at", "time", "abandonment"),
        _c("status", "value", "abandonment", "short_ring"),
        _c("hangup_cause", "value", "short_ring"),
        _c("subject", "value", "call_frequency"),
        _c("prerecorded", "boolean", "no_written_consent"),
        _c("duration_seconds", "number", REPORT)),
    "leads": (
        _c("id", "text", "dnc_lead", "unscreened_lead", required=True),
        _c("campaign_id", "text", "every lead rule", required=True),
        _c("phone", "phone", "every lead rule", required=True),
        _c("status", "text", "dnc_lead", "unscreened_lead", required=True),
        _c("state", "text", "calling_hours", "call_frequency", "unknown_address_state"),
        _c("custom_fields", "text", "calling_hours", "call_frequency"),
        _c("line", "text", "dnc_call"),
        _c("other_phones", "value", "call_frequency", "calling_hours"),
        _c("subject", "value", "call_frequency"),
        _c("created_at", "time", REPORT)),
    "dnc": (
        _c("phone", "phone", "dnc_call", "dnc_lead", "unscreened_lead", required=True),
        _c("listed", "boolean", "dnc_call", "dnc_lead", required=True),
        _c("checked_at", "time", "dnc_call", "unscreened_lead", required=True),
        _c("listed_at", "time", "dnc_call"),
        _c("list", "text", "dnc_call", "dnc_lead")),
    "consents": (
        _c("phone", "phone", "dnc_call", "no_written_consent"),
        _c("lead_id", "text", "dnc_call", "no_written_consent"),
        _c("kind", "text", "dnc_call", "no_written_consent", required=True),
        _c("given_at", "time", "dnc_call", "no_written_consent", required=True),
        _c("revoked_at", "time", "dnc_call", "no_written_consent"),
        _c("relationship", "text", "dnc_call")),
    "contracts": (
        _c("phone", "phone", "dnc_call"),
        _c("lead_id", "text", "dnc_call"),
        _c("signed_at", "time", "dnc_call", required=True),
        _c("ends_at", "time", "dnc_call")),
    "reassigned": (
        _c("phone", "phone", "dnc_call", "no_written_consent", required=True),
        _c("asked_at", "time", "dnc_call", "no_written_consent", required=True),
        _c("answer", "text", "dnc_call", "no_written_consent", required=True)),
    "texts": (
        _c("message_id", "text", "every finding", required=True),
        _c("to", "phone", *_CALLED, required=True),
        _c("created_at", "time", *_CALLED, required=True),
        _c("status", "text", "the evidence of a text's findings"),
        _c("error_code", "text", "the evidence of a text's findings")),
    "emergencies": (  # issue 73: read into the rules (compliance._checks._hours)
        _c("area", "text", "calling_hours", "unknown_jurisdiction", required=True),
        _c("starts_at", "time", "calling_hours", "unknown_jurisdiction", required=True),
        _c("ends_at", "time", "calling_hours", "unknown_jurisdiction"),
        _c("declaration", "text", "the evidence of an emergency's findings")),
}
"""Every input frame's columns the audit reads (docs/compliance.md, docs/frames.md)."""


def declared(frame: str, *kinds: str) -> tuple[str, ...]:
    """The names of ``frame``'s columns (of ``kinds``, where given), in declared order."""
    return tuple(c.name for c in INPUTS[frame] if not kinds or c.kind in kinds)


def required(frame: str) -> tuple[str, ...]:
    """The columns ``frame`` must have: one lacking any is refused, naming it."""
    return tuple(c.name for c in INPUTS[frame] if c.required)


def read_by_rules(frame: str) -> tuple[str, ...]:
    """``frame``'s columns a rule reads, not the report alone: what the Dask audit shuffles
    for every row (the others go only with the rows the report lists whole)."""
    return tuple(c.name for c in INPUTS[frame] if c.read_by != (REPORT,))
