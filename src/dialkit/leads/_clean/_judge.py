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

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa

from dialkit._parallel._partitions import Plan, register
from dialkit._utils import _tuning

from ..._utils._base_error import InputError
from .._normalize._cells import cell_frame
from .._normalize._columns import normalize, region_of
from .._normalize._phones import Phones, flagged
from .._read._lead_file import LeadFile
from ._verdicts import Account

if TYPE_CHECKING:
    from dialkit.client import Client

    from ._sinks import DncBar

Normalized = Callable[[pd.Series, str, pd.Series | None], pd.DataFrame]
"""Normalises some of a file's phone cells, each with its row's country."""


MAX_ID_LOOKUPS = 100
"""External ids of a file found among the account's leads that are asked about one
by one, to tell this API client's from another's (the list does not say whose)."""


def country_column_of(file: LeadFile, country_column: str | None) -> str | None:
    """The column of each row's country: ``country_column``, or the file's country
    field; refused when the file has no such column."""
    column = country_column or file.fields.get("country")
    if column is not None and column not in file.frame.columns:
        raise InputError(f"country_column={column!r} is not a column of {file.name}: its "
                         f"columns are {', '.join(map(str, file.frame.columns))}")
    return column


def normalized_cells(cells: pd.Series, region: str,
                     countries: pd.Series | None) -> pd.DataFrame:
    """:func:`normalize` of some of the file's cells (by index), each with its row's
    country (:data:`NORMALIZED` run whole)."""
    return NORMALIZED.local(cell_frame(cells, countries), region=region)


def normalized_part(cells: pd.DataFrame, *, region: str) -> pd.DataFrame:
    """:func:`normalize` of a :func:`cell_frame`'s rows, :data:`~dialkit._utils._tuning.CHUNK_ROWS`
    at a time; the parts' columns joined as Arrow chunks, not copied into one."""
    country, rows = cells.get("country"), _tuning.CHUNK_ROWS
    parts = [normalize(cells["cell"].iloc[at:at + rows], region=region,
                       country=None if country is None else country.iloc[at:at + rows])
             for at in range(0, max(len(cells), 1), rows)]
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


def region_code(region: str) -> str:
    return region_of(region) or region


def stored_as_number(flags: pd.Series, file: LeadFile, chosen: Phones) -> pd.Series:
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
    flags.iloc[rows] = flagged(flags.iloc[rows], "stored_as_number")
    return flags


def unevaluated(numbers: pd.DataFrame, formulas: pd.DataFrame, phone: str,
                index: pd.Index) -> pd.DataFrame:
    """:func:`normalize`'s answer with the phone cells that hold a formula with no value
    flagged ``formula_without_value`` and refused as ``invalid_phone``, not
    ``missing_phone``: the cell is not empty in Excel, only never calculated.
    ``index`` is the frame's (``row - 1`` of each of its rows)."""
    rows = formulas.loc[formulas["column"] == phone, "row"].to_numpy() - 1
    at = index.get_indexer(rows)
    at = at[at >= 0]
    at = at[(numbers["reason"].iloc[at] == "missing_phone").fillna(False).to_numpy(dtype=bool)]
    if not len(at):
        return numbers
    numbers = numbers.copy()
    flags = numbers["flags"].astype(object)
    flags.iloc[at] = flagged(flags.iloc[at], "formula_without_value")
    numbers["flags"] = flags.astype(numbers["flags"].dtype)
    reason = numbers["reason"].astype(object)
    reason.iloc[at] = "invalid_phone"
    numbers["reason"] = reason.astype(numbers["reason"].dtype)
    return numbers


class AccountChecks:
    """What the checks that need the account compare a file's rows with, asked once for
    the file (the campaign's leads) and per part of it (its ids, its numbers' DNC
    entries), so that a file streamed in chunks asks what the whole file would.

    ``cached``: screen the numbers through the client's cache of DNC checks
    (``client.frames.dnc``, kept for a day), which holds every number it has checked
    in one frame; without it (a file too large to hold, streamed), each part's
    numbers are asked a slice at a time (:func:`checked_in_parts`) and only the listed
    ones kept, so the screen of twenty million numbers holds a slice's answers.

    ``dnc``: a bar of the numbers asked about, told after each slice (a file read in
    chunks sets :attr:`share`, the part of it read, for the bar's total)."""

    def __init__(self, client: Client, campaign_id: str | None, *, cached: bool = True,
                 dnc: DncBar | None = None) -> None:
        self.client, self.campaign_id, self.cached = client, campaign_id, cached
        self.dnc, self.share = dnc, 1.0
        self.phones: frozenset[str] = frozenset()
        self.owners: dict[str, str | None] = {}  # an id asked about: the campaign that has it
        self.listed = pd.Series(dtype=object)
        self.every: bool | None = None  # leads read: None, the campaign's, every one (True)

    def _read(self, ids: bool) -> None:
        """The campaign's leads, read when the first rows are judged; every lead of the
        account (an id used in another campaign is refused too) only once a row read holds
        an id, so that a file without ids, or with an id column empty throughout, asks for
        the campaign's alone."""
        if self.campaign_id is None or self.every is True or self.every == ids:
            return
        leads = self.client.frames.leads(campaign_id=None if ids else self.campaign_id,
                                         refresh="full")
        self.phones = frozenset(leads.loc[leads["campaign_id"] == self.campaign_id,
                                          "phone"].dropna())
        self.listed = leads.dropna(subset=["external_id"]).drop_duplicates(
            "external_id").set_index("external_id")["campaign_id"]  # a row without one: no id
        self.every = ids

    def of(self, e164: pd.Series, external: pd.Series) -> Account:
        """The campaign's phones, which of these rows' ids this client uses here or in
        another campaign, and which of their numbers are on the DNC list."""
        here: set[str] = set()
        elsewhere: set[str] = set()
        self._read(bool(external.notna().any()))
        if self.campaign_id is not None:
            # The list shows every API client's ids without saying whose: the ids that
            # match are asked again, scoped to this client as the service's rule is, up
            # to MAX_ID_LOOKUPS (one request each); the rest are taken as this client's.
            asked = external[e164.notna() & ~e164.isin(self.phones)
                             & external.isin(self.listed.index)]
            for ident in asked.unique().tolist():
                if ident not in self.owners:
                    self.owners[ident] = self.listed[ident] if len(
                        self.owners) >= MAX_ID_LOOKUPS else next(
                        (lead.campaign_id for lead in self.client.leads.list(
                            external_id=ident, limit=1)), None)
                owner = self.owners[ident]
                if owner is not None:
                    (here if owner == self.campaign_id else elsewhere).add(ident)
        listed = self._listed(e164.dropna().unique().tolist())
        return Account(self.phones, frozenset(here), frozenset(elsewhere), listed)

    def _listed(self, wanted: list[str]) -> frozenset[str]:
        """The numbers of ``wanted`` on the account's DNC list."""
        if not wanted:
            return frozenset()
        if self.dnc is None:
            return self._listed_of(wanted)
        self.dnc.asking(len(wanted), self.share)
        listed: set[str] = set()
        at_once = _tuning.SHOWN_CACHED if self.cached else _tuning.SCREEN_STEP
        for at in range(0, len(wanted), at_once):
            listed |= self._listed_of(wanted[at:at + at_once])
            self.dnc.checked(len(wanted[at:at + at_once]))
        return frozenset(listed)

    def _listed_of(self, wanted: list[str]) -> frozenset[str]:
        if self.cached:
            screened = self.client.frames.dnc(wanted)
            return frozenset(screened.loc[screened["listed"].fillna(False).astype(bool),
                                          "phone"])
        from dialkit.frames import checked_in_parts  # brings the frames' cache: not at import

        return frozenset(result.phone for part in checked_in_parts(self.client, wanted)
                         for result in part if result.listed)


