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
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import orjson

from dialkit._shown._words import counted
from dialkit._utils._import_keys import MAX_KEY_CHAIN, key_of, stored_refusal
from dialkit.client import ImportResult
from dialkit.errors import ApiError

if TYPE_CHECKING:
    from dialkit.client import Client

UNKNOWN_LIMIT = 2
"""``outcome_unknown`` answers for a batch, across runs, before the import stops asking
the service and looks for the batch's leads in the campaign instead."""

LeadKey = tuple[str, str | None]
"""What identifies a row's lead in a campaign: its phone and external id."""


def campaign_leads(client: Client, campaign_id: str,
                   among: Collection[LeadKey]) -> dict[LeadKey, str]:
    """The campaign's leads with one of the phones and external ids ``among`` → their
    ``lead_id``: the list is read a page at a time and only those kept, so a campaign
    of millions of leads is looked through in the memory of the rows looked for."""
    return {(lead.phone, lead.external_id): str(lead.id)
            for lead in client.leads.list(campaign_id=campaign_id)
            if (lead.phone, lead.external_id) in among}


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
