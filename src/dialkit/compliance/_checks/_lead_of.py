"""Each call's lead, and the lead's address state: for the findings' ``lead_id`` and for
the law of the place called (a state's row applies where the lead's address is).

The leads are looked up by integer codes of their campaigns' and numbers' text, kept
with those columns' hash (:func:`.._arrays._codes.codes_in`) while their data live, as
a notebook audits the same frames again and again.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from ..._arrays._codes import codes_in
from ..._arrays._groups import isin
from ..._arrays._kept import arrow_data, kept
from ..._phones._zones import Rows
from ..._places._subdivisions import subdivisions
from ..._shown._words import counted
from ...contract import E164_PATTERN
from .._rules._rules import FINDING_COLUMNS, Rules
from ._findings import findings


def lead_rows(calls: pd.DataFrame, leads: pd.DataFrame, at: Rows | None = None) -> Rows:
    """Each call's lead (of the calls ``at``, if given): the position among ``leads`` of the
    first lead of the call's campaign with its number, as a left merge finds it (-1:
    none), by integer keys of the two texts (a merge on them took most of a second on a
    million calls): the codes of the leads' texts (:func:`codes_in`, kept with their
    hash), and the first lead of each key kept while the leads' columns live
    (:func:`_first_leads`); 2 ms a lookup of 30,000 calls, where hashing them anew took
    20 ms and the leads' keys 15 ms more."""
    campaign, phone = (codes_in(leads[c], calls[c], at) for c in ("campaign_id", "phone"))
    size = len(leads)
    width = int(phone[:size].max(initial=0)) + 2  # above every call's code too
    keys, first = _first_leads(leads, campaign[:size] * width + phone[:size])
    found = keys.get_indexer(campaign[size:] * width + phone[size:])
    lead: Rows = np.where(found >= 0, first[found], -1) if size else np.full(len(found), -1)
    return lead


def _first_leads(leads: pd.DataFrame, key: Rows) -> tuple[pd.Index, Rows]:
    """The distinct ``key`` of the leads (an index, its hash table built once), and the
    position of the first lead of each: kept while the leads' campaign and number columns
    live, where they are Arrow data (the key is theirs alone)."""
    def first() -> tuple[pd.Index, Rows]:
        keys = pd.Index(key)
        at = np.flatnonzero(~keys.duplicated())
        return keys[at], at
    sources = tuple(arrow_data(leads[c]) for c in ("campaign_id", "phone"))
    return first() if None in sources else kept("first leads", sources, first)


def addresses(outbound: pd.DataFrame, leads: pd.DataFrame | None, addressed: bool,
              others: pd.DataFrame | None = None,
              ) -> tuple[Rows | None, NDArray[np.object_] | None]:
    """If ``addressed`` (the rules apply the law of the place called) and the leads hold
    addresses (:func:`address_states`): each call's lead (:func:`lead_rows`) and its
    address state, else its person's (:func:`person_states`: a person lives where they
    live whichever of their numbers is called); else None for both."""
    states = address_states(leads) if leads is not None and addressed else None
    if leads is None or states is None:
        return None, None
    lead = lead_rows(outbound, leads)
    with_none = np.r_[states, np.array([None], object)]
    own = with_none[np.where(lead >= 0, lead, len(states))]
    return lead, person_states(outbound, leads, states, others, own)


def lead_states(leads: pd.DataFrame) -> NDArray[np.object_] | None:
    """Each lead's address state (:func:`address_states`), else its person's
    (:func:`person_states`, where the leads say their campaigns): what a call to the
    lead's number is judged by (None where the leads hold no addresses)."""
    states = address_states(leads)
    if states is None or "campaign_id" not in leads:
        return states
    return person_states(leads, leads, states, other_numbers(leads), states)


def person_states(calls: pd.DataFrame, leads: pd.DataFrame, states: NDArray[np.object_],
                  others: pd.DataFrame | None,
                  own: NDArray[np.object_]) -> NDArray[np.object_]:
    """Each call's address state: ``own``, its lead's, where that says one; else, for a call
    to one of the numbers of a person the leads link (``others``: :func:`other_numbers`,
    in the call's campaign), the first address state the person's leads say (``states``,
    in the leads' order). Without it, a call to a Florida lead's other number found no lead,
    and was judged by New York's hours alone."""
    if others is None or not len(others):
        return own
    linked = np.flatnonzero(pd.isna(own) & isin(calls["phone"], pd.unique(np.r_[
        others["number"].to_numpy(object), others["phone"].to_numpy(object)]).tolist()))
    if not len(linked):
        return own
    said = np.flatnonzero(pd.notna(states))
    theirs = _people_of(leads["campaign_id"].to_numpy(object)[said],
                        leads["phone"].to_numpy(object)[said], others).assign(
        state=states[said]).drop_duplicates(["campaign_id", "person"])
    asked = _people_of(calls["campaign_id"].to_numpy(object)[linked],
                       calls["phone"].to_numpy(object)[linked], others)
    found = own.copy()
    found[linked] = asked.merge(theirs, how="left", on=["campaign_id", "person"])[
        "state"].to_numpy(object)
    return found


def _people_of(campaigns: NDArray[np.object_], numbers: NDArray[np.object_],
               others: pd.DataFrame) -> pd.DataFrame:
    """``campaign_id`` and ``person`` of each (campaign, number): the number that stands
    for the person the number is of (``others``' ``phone``), else the number itself."""
    asked = pd.DataFrame({"campaign_id": campaigns, "number": numbers}, dtype=object)
    person = asked.merge(others, how="left", on=["campaign_id", "number"])["phone"]
    return asked.assign(person=person.fillna(asked["number"]).to_numpy(object))[
        ["campaign_id", "person"]]


_STATE_FIELD = r'"state"\s*:\s*"(?P<state>[^"]*)"'
"""A ``state`` key of a lead's ``custom_fields`` JSON text, read by one regex over the
column (a million ``json.loads`` would take a second)."""


def reads_addresses(rules: Rules) -> bool:
    """Whether the ``rules`` read a lead's address state: where the US states' rows apply
    (the law of the place called is the state's where the person lives)."""
    return "US" in rules.jurisdictions and rules.states


def unknown_address_state(leads: pd.DataFrame) -> pd.DataFrame:
    """Leads whose address state (:func:`address_states`) names no place
    :func:`~dialkit._places._subdivisions.subdivision_of` reads (``Flordia``, ``XX``): a
    risk, not a violation, for their calls are then judged by their number's place alone,
    and the rule of the state they live in (a stricter window, a cap) may be missed. The
    evidence quotes the cell."""
    states = address_states(leads)
    cells = np.full(len(leads), None, object) if states is None else states
    unread = np.flatnonzero(pd.notna(cells) & pd.isna(subdivisions(cells)))
    hits = leads[[c for c in leads.columns if c in FINDING_COLUMNS]].iloc[unread]
    said = pd.Series(cells[unread], index=hits.index, dtype=object).astype(str)
    evidence = ("the address state " + said.map(repr) + " names no US state, DC, territory "
                "or Canadian province this audit reads (FL, US-FL, Fla. or Florida): the "
                "lead's calls are judged by its number's place alone")
    return findings("unknown_address_state", hits, evidence, address_state=said)


def unread_note(found: pd.DataFrame) -> dict[str, str]:
    """The report's note of the leads whose address state could not be read (none: no
    note), quoting the first few of their cells."""
    if "address_state" not in found:
        return {}
    unread = found.loc[found["rule"] == "unknown_address_state", "address_state"]
    quoted = [repr(text) for text in pd.unique(unread)]
    shown = ", ".join(quoted[:_QUOTED]) + (", ..." if len(quoted) > _QUOTED else "")
    return {"unknown_address_state": (
        f"the address state of {counted(len(unread), 'lead')} could not be read ({shown}): "
        "their calls were judged by their number's place alone; write a postal code (FL), "
        "an ISO 3166-2 code (US-FL), an AP abbreviation (Fla.) or the name")}


_QUOTED = 5
"""How many unreadable address states a note quotes."""


def address_states(leads: pd.DataFrame) -> NDArray[np.object_] | None:
    """Each lead's address state as its text (``"LA"``, ``"Louisiana"``, ``"US-LA"``;
    None where it has none), as the leads write it: the law reads it with
    :func:`~dialkit._places._subdivisions.subdivision_of`. A ``state`` column (a column
    mapped to it), and where its cell is blank or missing, the ``state`` key of the
    ``custom_fields`` JSON text (a blank cell of an import once dropped the state the
    lead's fields held); None where the leads have neither."""
    fields = _field_states(leads) if "custom_fields" in leads.columns else None
    if "state" not in leads.columns:
        return fields
    column: NDArray[np.object_] = leads["state"].astype(object).where(
        leads["state"].notna(), None).to_numpy(object)
    blank = pd.isna(column) | (pd.Series(column, dtype=object).fillna("").astype(str)
                               .str.strip() == "").to_numpy()
    fallback = np.full(len(column), None, object) if fields is None else fields
    found: NDArray[np.object_] = np.where(blank, fallback, column)
    return found


def _field_states(leads: pd.DataFrame) -> NDArray[np.object_]:
    """The ``state`` key of each lead's ``custom_fields`` JSON text (None: none)."""
    found: NDArray[np.object_] = np.asarray(pc.struct_field(pc.extract_regex(
        _arrow_text(leads["custom_fields"]), _STATE_FIELD), "state").to_pylist(), object)
    found[pd.Series(found, dtype=object).fillna("").astype(str).str.strip().eq("")
          .to_numpy()] = None
    return found


def _arrow_text(fields: pd.Series) -> pa.Array:
    """The ``custom_fields`` column as one Arrow text array (a hand-made frame's dicts as
    their JSON text), for a regex over the whole column."""
    try:
        text = pa.array(fields.array, pa.string(), from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError):  # a hand-made frame's dicts
        text = pa.array([None if pd.isna(v) else json.dumps(v) if not isinstance(v, str)
                         else v for v in fields.astype(object)], pa.string())
    if isinstance(text, pa.ChunkedArray):  # as pandas' Arrow columns give it
        text = text.combine_chunks()
    return text


OTHER_PHONES = "other_phones"
"""The leads' column, or ``custom_fields`` key, of the person's other numbers (E.164, in
one text separated by commas, semicolons or spaces, or a list): a lead's calls to any of
its numbers are calls to one person (Fla. Stat. 501.616(6)(b) counts calls "to a
person")."""
_OTHER_FIELD = r'"other_phones"\s*:\s*(?P<other>\[[^\]]*\]|"[^"]*")'
_E164_IN_TEXT = E164_PATTERN[1:-1] + "(?![0-9])"
"""An E.164 number within a text, by the contract's own rule; a longer run of digits is
no number, not one cut short."""


def other_numbers(leads: pd.DataFrame | None) -> pd.DataFrame:
    """Each number of a person but the person's own, one row each: ``campaign_id``,
    ``number`` and ``phone``, the person's number. A person is every number of one
    campaign the leads link, a lead's ``phone`` to each number its :data:`OTHER_PHONES`
    names, directly or through other leads: two leads that name each other's numbers (as
    a deduplication writes them) are one person, as one lead naming both is. Its number
    is the own ``phone`` of the first lead that links it. None where no lead names
    another number."""
    none = pd.DataFrame({"campaign_id": [], "number": [], "phone": []}, dtype=object)
    named = None if leads is None else _numbers_named(leads)
    if leads is None or named is None or not len(named):
        return none
    at = named.index.to_numpy()
    campaigns = np.tile(leads["campaign_id"].astype(object).to_numpy()[at], 2)
    numbers = np.r_[leads["phone"].astype(object).to_numpy()[at], named.to_numpy(object)]
    text = pd.factorize(numbers, use_na_sentinel=False)[0]
    place = pd.factorize(campaigns, use_na_sentinel=False)[0]
    node = pd.factorize(place * (int(text.max()) + 1) + text)[0]  # the leads' own first
    first = np.unique(node, return_index=True)[1]  # each node's first row
    person = smallest_linked(node[:len(at)], node[len(at):], len(first))
    moved = np.flatnonzero(person != np.arange(len(first)))
    return pd.DataFrame({"campaign_id": campaigns[first[moved]],
                         "number": numbers[first[moved]],
                         "phone": numbers[first[person[moved]]]}, dtype=object)


def numbers_held(leads: pd.DataFrame, numbers: list[str]) -> pd.DataFrame:
    """Each of ``numbers`` a lead holds, with the lead's campaign (``phone`` and
    ``campaign_id``, as Python text): as its own ``phone``, or as one its
    :data:`OTHER_PHONES` names. A text to a person's other number is of the person's
    campaign, as one to their own number is."""
    own = leads.loc[isin(leads["phone"], numbers), ["phone", "campaign_id"]].astype(object)
    named = _numbers_named(leads)
    if named is None or not len(named):
        return own
    named = named[named.isin(set(numbers)).to_numpy(bool)]
    return pd.concat([own, pd.DataFrame({
        "phone": named.to_numpy(object),
        "campaign_id": leads["campaign_id"].astype(object).to_numpy()[named.index.to_numpy()]})],
        ignore_index=True)


def smallest_linked(a: Rows, b: Rows, size: int) -> Rows:
    """Each of ``size`` nodes' smallest node linked to it by the edges (``a``, ``b``),
    directly or through others (itself where none): a union-find in whole arrays. Each
    round hooks every root onto the smallest root an edge joins it to, then points every
    node at its root; the roots of a linked group at least halve a round, so however the
    leads chain their numbers a few rounds join them."""
    root: Rows = np.arange(size)
    while True:
        left, right = root[a], root[b]
        apart = left != right
        if not apart.any():
            return root
        low = np.minimum(left[apart], right[apart])
        np.minimum.at(root, left[apart], low)
        np.minimum.at(root, right[apart], low)
        root = _to_roots(root)


def _to_roots(parent: Rows) -> Rows:
    """Every node pointed at its root, where ``parent`` points each below itself."""
    while True:
        up = parent[parent]
        if (up == parent).all():
            return parent
        parent = up


def _numbers_named(leads: pd.DataFrame) -> pd.Series | None:
    """The numbers each lead's :data:`OTHER_PHONES` names, one row each, indexed by the
    lead's position: a text's E.164 numbers, whatever separates them, and a list's (a
    Python list or array, or an Arrow list) alike. Only the leads that name some are
    read."""
    said = _others_said(leads)
    if said is None:
        return None
    cells = said.explode()  # a list's items one row each; a text stays whole
    texts = cells[cells.notna().to_numpy(dtype=bool)].astype(str)
    whole = texts.str.fullmatch(E164_PATTERN[1:-1]).to_numpy(dtype=bool)  # most: by Arrow
    return pd.concat([texts[whole].astype(object), texts[~whole].str.findall(
        _E164_IN_TEXT).explode().dropna().astype(object)])


def _others_said(leads: pd.DataFrame) -> pd.Series | None:
    """The :data:`OTHER_PHONES` of the leads that have one, indexed by position: the
    column, else the ``custom_fields`` key (one regex over the column's text)."""
    if OTHER_PHONES in leads.columns:
        column = leads[OTHER_PHONES].reset_index(drop=True)
        return column[column.notna().to_numpy(dtype=bool)]
    if "custom_fields" not in leads.columns:
        return None
    found = pc.struct_field(pc.extract_regex(_arrow_text(leads["custom_fields"]),
                                             _OTHER_FIELD), "other")
    values = pd.Series(np.asarray(found.to_pylist(), object))
    return values[values.notna().to_numpy(dtype=bool)]


def people(calls: pd.DataFrame, others: pd.DataFrame) -> tuple[Rows, Rows]:
    """Each call's person as an integer code, equal for calls to the same person: the
    person of a call to a lead's other number (:func:`own_numbers`) is that lead's own
    number; of any other call, the number called. Also the rows of the calls to another
    number. The number's codes are those of :func:`codes_in` (kept)."""
    moved, primary = own_numbers(calls, others)
    codes = codes_in(calls["phone"], primary)
    person, theirs = codes[:len(calls)], codes[len(calls):]
    new = theirs == 0  # a lead's own number never called: a code of its own
    theirs[new] = person.max(initial=0) + 1 + pd.factorize(primary[new])[0]
    person[moved] = theirs
    return person, moved


def own_numbers(calls: pd.DataFrame, others: pd.DataFrame) -> tuple[Rows, pd.Series]:
    """The rows of the calls to a lead's other number (of the call's campaign,
    :func:`other_numbers`), and that lead's own number for each, as the calls' text (their
    categories' type where the calls hold the numbers as a category: a number no call
    reached is no value of it)."""
    other = np.flatnonzero(isin(calls["phone"], others["number"].tolist()))
    asked = pd.DataFrame({"campaign_id": calls["campaign_id"].astype(object).to_numpy()[other],
                          "number": calls["phone"].astype(object).to_numpy()[other]})
    own = asked.merge(others, how="left", on=["campaign_id", "number"])["phone"]
    moved = other[own.notna().to_numpy(dtype=bool)]
    text = calls["phone"].dtype
    if isinstance(text, pd.CategoricalDtype):
        text = text.categories.dtype
    return moved, pd.Series(own.dropna().to_numpy(object), dtype=text)
