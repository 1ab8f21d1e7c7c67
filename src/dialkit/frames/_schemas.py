"""One documented schema per frame, applied the same way to every source.

A frame from the network, from the cache or from an empty result goes
through :meth:`Schema.frame` or :meth:`Schema.conform`, so its columns and
dtypes are always the schema's: Arrow-backed strings, timezone-aware UTC
timestamps, nullable integers, floats and booleans, and categoricals for the
contract's closed value sets. Nested objects are kept whole as one JSON-text
column (their keys differ from row to row, and a stable schema matters more
than a wide one); ``docs/frames.md`` lists every column.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import orjson
import pandas as pd
import pyarrow as pa

from .._utils._moments import utc_times
from ..contract import CallbackStatus, CallDirection, CampaignStatus, LeadStatus, WebhookEventType

Kind = Literal["string", "timestamp", "int", "float", "bool", "category", "date", "json"]

STRING = pd.StringDtype("pyarrow")
TIMESTAMP = pd.DatetimeTZDtype(unit="us", tz="UTC")
DATE = pd.ArrowDtype(pa.date32())


@dataclass(frozen=True, slots=True)
class Column:
    """One column: its name, kind, and for a category its closed value set.

    Attributes:
        name: The column name, the contract's field name.
        kind: How values are typed.
        categories: The closed value set of a ``category`` column.
    """

    name: str
    kind: Kind
    categories: tuple[str, ...] = ()

    @property
    def dtype(self) -> Any:
        """The pandas dtype of the column."""
        if self.kind == "category":
            return pd.CategoricalDtype(list(self.categories))
        return _DTYPES[self.kind]

    def array(self, values: Sequence[Any]) -> pa.Array:
        """The values of a page (decoded JSON) as an Arrow array of :data:`ARROW_TYPES`.

        Arrow reads values of the contract's forms (text; times in ISO 8601 with an
        offset) at a fraction of pandas' cost a page, and refuses, rather than reads
        otherwise, any it cannot read exactly (a time without an offset, nanoseconds,
        a number where text belongs); those go through :meth:`convert`, as before.
        """
        try:
            return self._arrow(values)
        except (pa.ArrowException, TypeError, ValueError, OverflowError):
            return pa.Array.from_pandas(self.convert(values)).cast(ARROW_TYPES[self.kind])

    def _arrow(self, values: Sequence[Any]) -> pa.Array:
        if self.kind == "json":
            values = [None if v is None else orjson.dumps(v).decode() for v in values]
        if self.kind in ("timestamp", "date"):
            return pa.array(values, pa.large_string()).cast(ARROW_TYPES[self.kind])
        if self.kind == "category":
            return pa.array(values, pa.large_string()).dictionary_encode()
        return pa.array(values, ARROW_TYPES[self.kind])

    def categorical(self, values: Iterable[Any]) -> pd.CategoricalDtype:
        """A category column's type for ``values``: the contract's set, then any value
        newer than it (an event type a webhook receiver stored) as a category of its own,
        not turned into NaN."""
        known = set(self.categories)
        newer = sorted({v for v in values if v is not None and v not in known})
        return pd.CategoricalDtype([*self.categories, *newer])

    def convert(self, values: Sequence[Any]) -> pd.Series:
        """The values of a page (decoded JSON) as a typed column, read by pandas."""
        if self.kind == "timestamp":
            return utc_times(pd.Series(values, dtype=object), self.name).astype(TIMESTAMP)
        if self.kind == "date":
            return pd.to_datetime(pd.Series(values, dtype=object), format="ISO8601").astype(DATE)
        if self.kind == "json":
            values = [None if v is None else orjson.dumps(v).decode() for v in values]
        if self.kind == "category":
            return pd.Series(values, dtype=self.categorical(values))
        return pd.Series(values, dtype=object).astype(self.dtype)


_DTYPES: Mapping[str, Any] = {
    "string": STRING, "json": STRING, "timestamp": TIMESTAMP, "date": DATE,
    "int": pd.Int64Dtype(), "float": pd.Float64Dtype(), "bool": pd.BooleanDtype(),
}
ARROW_TYPES: Mapping[str, pa.DataType] = {
    "string": pa.large_string(), "json": pa.large_string(), "timestamp": pa.timestamp("us", "UTC"),
    "date": pa.date32(), "int": pa.int64(), "float": pa.float64(), "bool": pa.bool_(),
    "category": pa.dictionary(pa.int32(), pa.large_string()),
}
"""The Arrow type of each kind: a page's (:meth:`Schema.table`) and a cache file's."""
PANDAS_TYPES: Mapping[pa.DataType, Any] = {
    pa.large_string(): STRING, pa.string(): STRING, pa.int64(): pd.Int64Dtype(),
    pa.float64(): pd.Float64Dtype(), pa.bool_(): pd.BooleanDtype(), pa.date32(): DATE}
"""The pandas type each Arrow type is read as (timestamps and dictionaries as pyarrow
reads them): the schema's, so that :meth:`Schema.conform` casts nothing."""


@dataclass(frozen=True, slots=True)
class Schema:
    """The columns of one frame, in order."""

    name: str
    columns: tuple[Column, ...]

    @property
    def dtypes(self) -> dict[str, Any]:
        """Column name to dtype."""
        return {column.name: column.dtype for column in self.columns}

    @property
    def arrow(self) -> pa.Schema:
        """The Arrow schema of :meth:`table`."""
        return pa.schema([(c.name, ARROW_TYPES[c.kind]) for c in self.columns])

    def frame(self, records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
        """Records as decoded from the API (missing fields null, unknown fields dropped)."""
        return self.frame_of(self.table(records))

    def table(self, records: Iterable[Mapping[str, Any]]) -> pa.Table:
        """Records as an Arrow table of the schema's :data:`ARROW_TYPES`: a page as the
        cache keeps it, and as pages are gathered, to become one frame at the end
        (:meth:`frame_of`) rather than a frame a page."""
        rows = list(records)
        return pa.table({c.name: c.array([row.get(c.name) for row in rows])
                         for c in self.columns})

    def frame_of(self, table: pa.Table) -> pd.DataFrame:
        """Pages' :meth:`table` (one, or several concatenated) as the frame, each category
        column with the newer values it holds (:meth:`Column.categorical`)."""
        frame = table.to_pandas(split_blocks=True, ignore_metadata=True,
                                types_mapper=PANDAS_TYPES.get)  # the schema's types
        for column in self.columns:
            if column.kind == "category":  # a dictionary's values in the order they came
                held = frame[column.name].cat
                frame[column.name] = held.set_categories(
                    column.categorical(held.categories).categories)
        return frame

    def empty(self) -> pd.DataFrame:
        """A frame with no rows and every column of the schema."""
        return self.frame([])

    def conform(self, frame: pd.DataFrame) -> pd.DataFrame:
        """``frame`` with exactly the schema's columns and dtypes (casts only where needed).

        Raises:
            ValueError: If a column is missing (a cache file of another schema).
        """
        missing = [c.name for c in self.columns if c.name not in frame.columns]
        if missing:
            raise ValueError(f"the {self.name} frame lacks columns {missing}")
        frame = frame[[c.name for c in self.columns]]
        wrong = {name: dtype for name, dtype in self.dtypes.items() if frame[name].dtype != dtype}
        return frame.astype(wrong) if wrong else frame


def _values(kind: type[Any]) -> tuple[str, ...]:
    return tuple(member.value for member in kind)


def _s(*names: str) -> tuple[Column, ...]:
    return tuple(Column(name, "string") for name in names)


def _t(*names: str) -> tuple[Column, ...]:
    return tuple(Column(name, "timestamp") for name in names)


CALLS = Schema("calls", (
    *_s("id"), Column("direction", "category", _values(CallDirection)),
    *_s("from_number", "to_number", "status"), *_t("created_at", "answered_at", "ended_at"),
    Column("duration_seconds", "float"), *_s("campaign_id", "disposition", "hangup_cause"),
    *_t("agent_joined_at"),
))
LEADS = Schema("leads", (
    *_s("id", "campaign_id", "external_id", "phone", "full_name", "email"),
    Column("status", "category", _values(LeadStatus)), Column("attempts", "int"),
    Column("custom_fields", "json"), *_t("last_attempt_at", "next_attempt_at"),
    *_s("disposition_code", "hangup_cause"), *_t("created_at", "updated_at"),
))
CAMPAIGNS = Schema("campaigns", (
    *_s("id", "name"), Column("status", "category", _values(CampaignStatus)),
    *_s("dialer_mode"), *_t("created_at", "updated_at", "started_at", "completed_at"),
))
CALLBACKS = Schema("callbacks", (
    *_s("id", "lead_id", "campaign_id"), *_t("scheduled_at"),
    Column("status", "category", _values(CallbackStatus)), *_s("notes"), *_t("created_at"),
))
APPOINTMENTS = Schema("appointments", (
    *_s("id", "status"), *_t("scheduled_at"), *_s("timezone"), Column("duration_minutes", "int"),
    *_s("service_type", "contact_name", "phone", "email", "notes", "source"),
    *_t("created_at", "updated_at"),
))
DISPOSITIONS = Schema("dispositions", (
    Column("from", "date"), Column("to", "date"), *_s("campaign_id", "disposition_code"),
    Column("count", "int"),
))
DNC = Schema("dnc", (*_s("phone"), Column("listed", "bool"), *_t("checked_at", "listed_at")))
WEBHOOK_EVENTS = Schema("webhook_events", (
    *_s("id"), Column("type", "category", _values(WebhookEventType)), *_t("created_at"),
    *_s("api_version"), Column("schema_version", "int"), Column("deliveries", "json"),
    Column("data", "json"),
))
SMS_REPORTS = Schema("sms_reports", (
    *_s("message_id", "to", "status", "error_code", "client_reference"),
    Column("segments", "int"), Column("estimated_cost", "float"), *_t("created_at", "updated_at"),
))

SCHEMAS: Mapping[str, Schema] = {schema.name: schema for schema in (
    CALLS, LEADS, CAMPAIGNS, CALLBACKS, APPOINTMENTS, DISPOSITIONS, DNC, WEBHOOK_EVENTS,
    SMS_REPORTS)}
"""Every frame's schema by frame name."""
