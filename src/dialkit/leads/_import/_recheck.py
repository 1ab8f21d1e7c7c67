"""What the import learns from the campaign's leads when the service's answer cannot say.

Two cases. A batch whose key the service keeps answering ``outcome_unknown``
for (the emulator does so for good after a restart that interrupted it) can
never be settled by sending it again under that key; after
:data:`UNKNOWN_LIMIT` such answers the import looks for the batch's leads among
the campaign's, takes those it finds as imported, and sends the others under a
new key derived from the old one and from what is sent. And a row the service
or the local screen answers ``duplicate_in_campaign`` may be the row itself,
imported by an earlier run whose journal is gone: its lead is looked up too.

A lead is the row's when it has the row's phone (unique in a campaign: the
service refuses a second lead with it) and the row's external id, or none when
the row has none. The leads list has no phone filter (the contract's filters
are ``campaign_id``, ``status`` and ``external_id``), so the campaign's leads
are listed whole, once per look-up.

A ``duplicate_in_campaign`` row whose lead is not its own is refused because
the campaign keeps another lead (:func:`kept_lead`): the lead with the row's
phone, else this API client's lead with the row's external id (the row's number
corrected since: a lead's phone never changes). The same listing finds both.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import orjson

from dialkit._shown._words import counted
from dialkit._utils._import_keys import MAX_KEY_CHAIN, key_of
from dialkit.client import ImportResult, stored_refusal
from dialkit.errors import ApiError

from .._clean._judge import MAX_ID_LOOKUPS

if TYPE_CHECKING:
    from dialkit.client import Client

UNKNOWN_LIMIT = 2
"""``outcome_unknown`` answers for a batch, across runs, before the import stops asking
the service and looks for the batch's leads in the campaign instead."""

LeadKey = tuple[str, str | None]
"""What identifies a row's lead in a campaign: its phone and external id."""

Kept = tuple[str | None, str | None]
"""The lead a campaign keeps instead of a row answered ``duplicate_in_campaign``, and
its phone; ``(None, None)`` where no such lead is found."""


@dataclass
class Holders:
    """The campaign's leads with one of the phones or external ids looked for.

    Attributes:
        phones: Phone → the lead with it (unique in a campaign): its ``lead_id`` and
            external id.
        external_ids: External id → the leads with it, ``lead_id`` and phone: the list
            shows every API client's ids without saying whose, so there may be several
            (one of them this client's, unique in a campaign).
        asked: External ids of several leads asked again, scoped to this client.
    """

    phones: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    external_ids: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    asked: int = 0


def campaign_leads(client: Client, campaign_id: str,
                   among: Collection[LeadKey]) -> dict[LeadKey, str]:
    """The campaign's leads with one of the phones and external ids ``among`` → their
    ``lead_id``: the list is read a page at a time and only those kept, so a campaign
    of millions of leads is looked through in the memory of the rows looked for."""
    return {(lead.phone, lead.external_id): str(lead.id)
            for lead in client.leads.list(campaign_id=campaign_id)
            if (lead.phone, lead.external_id) in among}


def campaign_holders(client: Client, campaign_id: str, among: Collection[LeadKey]) -> Holders:
    """The campaign's leads with a phone or an external id of ``among``, listed once a
    page at a time and kept only where they match (the memory of the rows looked for)."""
    phones = {phone for phone, _ in among}
    external_ids = {external for _, external in among if external is not None}
    holders = Holders()
    for lead in client.leads.list(campaign_id=campaign_id):
        if lead.phone in phones:
            holders.phones[lead.phone] = (str(lead.id), lead.external_id)
        if lead.external_id in external_ids:
            holders.external_ids.setdefault(lead.external_id, []).append(
                (str(lead.id), lead.phone))
    return holders


def own_lead(key: LeadKey, holders: Holders) -> str | None:
    """The ``lead_id`` of the row's own lead: the campaign's lead with its phone and
    its external id (none when the row has none)."""
    phone, external = key
    held = holders.phones.get(phone)
    return held[0] if held is not None and held[1] == external else None


def kept_lead(client: Client, campaign_id: str, key: LeadKey, holders: Holders) -> Kept:
    """The lead the campaign keeps that a row (not its own lead) is refused for, as the
    service judges duplicates: the lead with the row's phone, else this client's lead
    with the row's external id. One lead listed with that id is this client's (the
    service refused the row, and no lead has its phone); of several, the one this
    client's filter lists, asked for up to :data:`MAX_ID_LOOKUPS` ids (one request
    each), past which none is named."""
    phone, external = key
    if phone in holders.phones:
        return holders.phones[phone][0], phone
    leads = holders.external_ids.get(external or "", [])
    if len(leads) > 1:
        if holders.asked >= MAX_ID_LOOKUPS:
            return None, None
        holders.asked += 1
        mine = next(iter(client.leads.list(campaign_id=campaign_id, external_id=external,
                                           limit=1)), None)
        leads = [] if mine is None else [(str(mine.id), mine.phone)]
        holders.external_ids[external or ""] = leads  # asked once however many rows have it
    return leads[0] if leads else (None, None)


class Looked:
    """What the look-up in the campaign noted for plan rows (the journal's ``found`` or
    ``kept``), in plan order, handed out a part of the plan at a time."""

    def __init__(self, looked: Mapping[int, Any] | None) -> None:
        self.items = sorted((looked or {}).items())
        self.at = np.array([position for position, _ in self.items], dtype=np.int64)

    def within(self, offset: int, rows: int) -> Iterator[tuple[int, Any]]:
        """The part's rows (their place in the part) with what was noted for each."""
        start, stop = np.searchsorted(self.at, [offset, offset + rows])
        return ((position - offset, value) for position, value in self.items[start:stop])


def name_kept(answers: dict[str, np.ndarray], at: int, lead: Kept, phone: str) -> str:
    """Name the lead the campaign keeps for the refused row ``at``; what kind of lead it
    is: one with the row's ``phone``, one with its external id, or none found."""
    answers["campaign_lead_id"][at], answers["campaign_phone"][at] = lead
    return "unnamed" if lead[0] is None else "phone" if lead[1] == phone else "external"


def lead_key(lead: Mapping[str, Any]) -> LeadKey:
    """The phone and external id of a lead as the import sends it."""
    return str(lead["phone"]), lead.get("external_id")


def rest_key(key: str, attempt: int, link: int, leads: Sequence[Mapping[str, Any]]) -> str:
    """The key for the rows of a batch not found in the campaign: derived from the
    batch's own key, the ``outcome_unknown`` answers so far and the rows sent, so a
    run killed while sending them sends the same rows under the same key, and rows
    that a lost answer imported (found on the next look) change it."""
    return key_of(orjson.dumps([key, attempt, link, list(leads)], option=orjson.OPT_SORT_KEYS))


def send_rest(client: Client, campaign_id: str, leads: Sequence[Mapping[str, Any]], key: str,
              attempt: int) -> tuple[ImportResult, str]:
    """Import the rows not found under :func:`rest_key`, walking on to the next key
    after a stored refusal (a campaign that was running, since paused) as the
    client does for a batch's own key; the answer and the key it came under."""
    for link in range(MAX_KEY_CHAIN):
        sent = rest_key(key, attempt, link, leads)
        try:
            return client.leads.import_batch(campaign_id, leads, idempotency_key=sent), sent
        except ApiError as error:
            if not stored_refusal(error) or link == MAX_KEY_CHAIN - 1:
                raise
    raise AssertionError("unreachable: the last link returns or raises")


def recheck_note(number: int, size: int, recheck: Mapping[str, Any]) -> str:
    """What the report says about a batch settled from the campaign's leads."""
    found, sent = recheck.get("found", 0), recheck.get("sent", 0)
    rest = (f"the other {sent} were sent under a new key, {recheck.get('key')}" if sent
            else "none was left to send")
    return (f"batch {number + 1}: the service answered outcome_unknown {UNKNOWN_LIMIT} times "
            f"for its Idempotency-Key, so the campaign's leads were checked: {found} of its "
            f"{size} rows were found there (reported imported, with their lead_id), and {rest}.")


def found_note(rows: int) -> str:
    """What the report says about rows found in the campaign after ``duplicate_in_campaign``."""
    return (f"{counted(rows, 'row')} {'was' if rows == 1 else 'were'} already leads of "
            "the campaign (answered "
            "duplicate_in_campaign; found by phone and external id, as an earlier import "
            "left them): reported imported, with their lead_id.")


def kept_note(by_phone: int, by_external: int) -> str:
    """What the report says about rows refused for a lead the campaign keeps: how many,
    which columns name it, and the way out the contract leaves (a lead's phone never
    changes: ``PATCH /v1/leads`` changes only ``full_name``, ``email`` and
    ``custom_fields``; an external id is unique per API client, in any campaign)."""
    rows = by_phone + by_external
    kinds = []
    if by_external:
        kinds.append(f"{by_external} by the row's external id, with another number (a "
                     "lead's phone never changes: PATCH /v1/leads changes only full_name, "
                     "email and custom_fields, so to have a corrected number called, import "
                     "it as a new lead without that external id)")
    if by_phone:
        kinds.append(f"{by_phone} with the row's number, under another external id or "
                     "none (the number is in the campaign already, as that lead)")
    return (f"{counted(rows, 'row')} {'was' if rows == 1 else 'were'} refused as "
            "duplicate_in_campaign: the campaign keeps another lead for each (report "
            f"columns campaign_lead_id, campaign_phone): {' and '.join(kinds)}.")


def unnamed_note(rows: int) -> str:
    """What the report says about refused rows for which no lead of the campaign is found."""
    again = ("Import it again, in a file of its own, for the service to judge it afresh"
             if rows == 1 else "Import those rows again, in a file of their own, for the "
             "service to judge them afresh")
    return (f"{counted(rows, 'row')} refused as duplicate_in_campaign "
            f"{'names' if rows == 1 else 'name'} no lead in campaign_lead_id: no lead of the "
            "campaign has the row's number or this client's external id now (a lead gone "
            "since the answer, or one the local screen saw that the campaign's list does "
            f"not show), or several leads share the external id past {MAX_ID_LOOKUPS} "
            f"asked for. {again}.")
