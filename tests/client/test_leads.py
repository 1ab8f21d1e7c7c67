"""``client.leads`` against the emulator: lazy lists, reads, single add, update and import.

Campaigns in each state come from the client itself (``client.campaigns.list``);
free and listed numbers are picked from the emulator's store, as the emulator
tests do. A transport that counts requests shows what reaches the wire.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from itertools import islice
from typing import Any

import httpx
import pytest

from conftest import service_time
from dialkit import Client
from dialkit.contract import ImportResponse, Lead, LeadCreated, LeadInput, Page
from dialkit.errors import (
    ApiError,
    ConflictError,
    InvalidArgumentError,
    NotFoundError,
    PermissionDeniedError,
)
from dialkit.sandbox import Sandbox

from ._recording import RecordingTransport, offline

UNKNOWN_LEAD = "lead_00000000-0000-4000-8000-000000000000"
UNKNOWN_CAMPAIGN = "cmp_00000000-0000-4000-8000-000000000000"
BLOCKED_PHONE = "+85021234567"
"""A valid North Korean number; KP is blocked by default."""
DATASET = "client:acme/full"
"""The data set the ``full`` test key is answered from."""


def campaign_in(client: Client, status: str) -> str:
    """The id of a listed campaign in ``status``."""
    found = next(iter(client.campaigns.list(status=status)), None)
    assert found is not None, f"the seeded world has a {status} campaign"
    return found.id


def fresh_phones(sandbox: Sandbox, count: int) -> list[str]:
    """Valid fictional US numbers that are neither leads nor on a DNC list anywhere."""
    used = {r[0] for r in sandbox.service.store.rows(
        "SELECT phone FROM leads UNION SELECT phone FROM dnc")}
    free = [p for p in (f"+1201555{line:04d}" for line in range(100, 200)) if p not in used]
    assert len(free) >= count
    return free[:count]


def dnc_phone(sandbox: Sandbox) -> str:
    """A seeded Do-Not-Call number that is no lead."""
    row = sandbox.service.store.row(
        "SELECT phone FROM dnc WHERE dataset = 'seed:acme' AND phone NOT IN "
        "(SELECT phone FROM leads) ORDER BY phone")
    assert row is not None, "the seeded world has a DNC number"
    return str(row[0])


def stored_ids(sandbox: Sandbox, condition: str, *args: Any) -> set[str]:
    """Ids of the ``full`` client's leads that meet an SQL ``condition``."""
    rows = sandbox.service.store.rows(
        f"SELECT id FROM leads WHERE dataset = ? AND {condition}", (DATASET, *args))
    return {str(r[0]) for r in rows}


def ids(leads: Any) -> list[str]:
    """The ids of an iterable of leads, in order."""
    return [lead.id for lead in leads]


def create(client: Client, sandbox: Sandbox, **fields: Any) -> Lead:
    """Add one fresh lead to a draft campaign and read it back."""
    fields.setdefault("campaign_id", campaign_in(client, "draft"))
    fields.setdefault("phone", fresh_phones(sandbox, 1)[0])
    created = client.leads.create(**fields)
    assert created.status == "accepted" and created.lead_id is not None, created
    return client.leads.get(created.lead_id)


# --- list -------------------------------------------------------------------------------


def test_list_sends_nothing_until_iterated(client_as: Callable[..., Client]) -> None:
    wire = RecordingTransport()
    client = client_as("full", transport=wire)
    leads = client.leads.list(limit=5)
    pages = leads.pages()
    assert wire.requests == []
    first = [next(leads) for _ in range(5)]
    assert len(wire.requests) == 1
    assert wire.requests[0].url.params["limit"] == "5"
    sixth = next(leads)
    assert len(wire.requests) == 2
    assert "cursor" in wire.requests[1].url.params
    assert sixth.id not in ids(first)
    assert len(next(pages).data) == 5
    assert len(wire.requests) == 3


@pytest.mark.parametrize("limit", [0, 101])
def test_list_refuses_a_page_size_outside_1_to_100(limit: int) -> None:
    wire = RecordingTransport()
    with pytest.raises(ValueError, match="limit"):
        offline(wire).leads.list(limit=limit)
    assert wire.requests == []


def test_list_filters_by_status(client: Client, sandbox: Sandbox) -> None:
    for status in ("new", "contacted", "callback", "dnc", "completed"):
        listed = list(client.leads.list(status=status))
        assert listed and {lead.status for lead in listed} == {status}
        assert set(ids(listed)) == stored_ids(sandbox, "status = ?", status)
        assert all(isinstance(lead, Lead) for lead in listed)


def test_list_filters_by_campaign_newest_first(client: Client, sandbox: Sandbox) -> None:
    campaign_id = campaign_in(client, "running")
    listed = list(client.leads.list(campaign_id=campaign_id))
    assert {lead.campaign_id for lead in listed} == {campaign_id}
    assert set(ids(listed)) == stored_ids(sandbox, "campaign_id = ?", campaign_id)
    keys = [(lead.created_at, lead.id) for lead in listed]
    assert keys == sorted(keys, reverse=True)


def test_list_filters_by_this_clients_external_id(client: Client, sandbox: Sandbox,
                                                  client_as: Callable[..., Client]) -> None:
    wanted = create(client, sandbox, external_id="crm-42")
    create(client, sandbox, external_id="crm-43")
    assert [lead.model_dump() for lead in client.leads.list(external_id="crm-42")] == [
        wanted.model_dump()]
    assert list(client_as("other").leads.list(external_id="crm-42")) == []


def test_pages_hold_every_item_once_with_their_request_ids(client: Client) -> None:
    campaign_id = campaign_in(client, "ready")
    pages = list(client.leads.list(campaign_id=campaign_id, limit=7).pages())
    assert all(isinstance(page, Page) for page in pages)
    assert len(pages) >= 3
    assert all(len(page.data) == 7 for page in pages[:-1]) and 1 <= len(pages[-1].data) <= 7
    assert all(page.page.has_more and page.page.next_cursor for page in pages[:-1])
    assert (pages[-1].page.has_more, pages[-1].page.next_cursor) == (False, None)
    request_ids = [page.request_id for page in pages]
    assert all(re.fullmatch(r"req_[0-9A-Z]{26}", str(rid)) for rid in request_ids)
    assert len(set(request_ids)) == len(pages)
    assert all(lead.request_id == page.request_id for page in pages for lead in page.data)
    union = [lead.id for page in pages for lead in page.data]
    assert union == ids(client.leads.list(campaign_id=campaign_id, limit=7))
    assert union == ids(client.leads.list(campaign_id=campaign_id))
    assert len(set(union)) == len(union)


def test_a_cursor_resumes_the_list_after_its_page(client: Client) -> None:
    campaign_id = campaign_in(client, "paused")
    everything = ids(client.leads.list(campaign_id=campaign_id))
    first, second = islice(client.leads.list(campaign_id=campaign_id, limit=10).pages(), 2)
    cursor = first.page.next_cursor
    assert cursor is not None
    resumed = client.leads.list(campaign_id=campaign_id, limit=10, cursor=cursor)
    assert ids(resumed) == everything[10:]
    assert ids(next(client.leads.list(campaign_id=campaign_id, limit=10,
                                      cursor=cursor).pages()).data) == ids(second.data)


def test_a_cursor_of_other_filters_is_refused(client: Client) -> None:
    cursor = next(client.leads.list(status="new", limit=1).pages()).page.next_cursor
    assert cursor is not None
    with pytest.raises(ApiError) as raised:
        list(client.leads.list(status="completed", limit=1, cursor=cursor))
    assert (raised.value.status, raised.value.code) == (400, "invalid_cursor")


# --- get and history ----------------------------------------------------------------------


def test_get_answers_the_listed_lead_with_its_etag(client: Client, api: httpx.Client) -> None:
    listed = next(client.leads.list(status="contacted"))
    lead = client.leads.get(listed.id)
    assert lead.model_dump() == listed.model_dump()
    assert lead.etag is not None and re.fullmatch(r'"v\d+"', lead.etag)
    assert lead.etag == api.get(f"/v1/leads/{lead.id}").headers["etag"]
    assert lead.request_id is not None and lead.request_id != listed.request_id


def test_history_is_plain_data_with_its_request_id(client: Client, sandbox: Sandbox) -> None:
    lead = create(client, sandbox, full_name="Ada")
    client.leads.update(lead.id, full_name="Ada Lovelace")
    history = client.leads.history(lead.id)
    assert history.request_id is not None and history.request_id.startswith("req_")
    assert history["lead_id"] == lead.id
    assert [entry["event"] for entry in history["data"]] == ["created", "updated"]
    assert history["data"][0]["detail"] == {"campaign_id": lead.campaign_id, "via": "create"}


def test_history_of_a_seeded_lead_lists_its_call_attempts(client: Client,
                                                          sandbox: Sandbox) -> None:
    lead = next(client.leads.list(status="completed"))
    events = [entry["event"] for entry in client.leads.history(lead.id)["data"]]
    assert events[0] == "created"
    assert events.count("call_attempt") == lead.attempts


@pytest.mark.parametrize("operation", ["get", "history", "update"])
def test_an_unknown_lead_is_not_found(client: Client, operation: str) -> None:
    calls: dict[str, Callable[[], object]] = {
        "get": lambda: client.leads.get(UNKNOWN_LEAD),
        "history": lambda: client.leads.history(UNKNOWN_LEAD),
        "update": lambda: client.leads.update(UNKNOWN_LEAD, full_name="x"),
    }
    with pytest.raises(NotFoundError) as raised:
        calls[operation]()
    assert (raised.value.status, raised.value.code) == (404, "not_found")


def test_another_clients_lead_is_not_found(client: Client, sandbox: Sandbox,
                                           client_as: Callable[..., Client]) -> None:
    lead = create(client, sandbox)
    with pytest.raises(NotFoundError):
        client_as("other").leads.get(lead.id)


# --- create -------------------------------------------------------------------------------


def test_create_adds_the_lead_it_answers_for(client: Client, sandbox: Sandbox) -> None:
    draft = campaign_in(client, "draft")
    [phone] = fresh_phones(sandbox, 1)
    created = client.leads.create(
        campaign_id=draft, phone=phone, external_id="web-7", first_name="Grace",
        last_name="Hopper", email="grace@example.org", custom_fields={"tier": "gold"},
        source="web_form")
    assert isinstance(created, LeadCreated)
    assert (created.status, created.reason, created.field, created.campaign_id,
            created.external_id) == ("accepted", None, None, draft, "web-7")
    assert (created.dial_now.status, created.dial_now.expires_at) == ("not_requested", None)
    assert created.request_id is not None
    assert created.lead_id is not None
    lead = client.leads.get(created.lead_id)
    assert (lead.phone, lead.full_name, lead.email, lead.status, lead.campaign_id,
            lead.external_id, lead.custom_fields) == (
        phone, "Grace Hopper", "grace@example.org", "new", draft, "web-7",
        {"tier": "gold", "lead_source": "web_form"})
    assert created.lead_id in ids(client.leads.list(campaign_id=draft))


@pytest.mark.parametrize(("campaign", "dial_now", "outcome"), [
    ("paused", None, "not_requested"),
    ("paused", True, "campaign_not_running"),
    ("running", False, "not_requested"),
    ("running", True, "queued"),
])
def test_create_dial_now_outcomes(client: Client, sandbox: Sandbox, campaign: str,
                                  dial_now: bool | None, outcome: str) -> None:
    [phone] = fresh_phones(sandbox, 1)
    created = client.leads.create(campaign_id=campaign_in(client, campaign), phone=phone,
                                  dial_now=dial_now, dial_within_seconds=120)
    assert (created.status, created.dial_now.status) == ("accepted", outcome)
    if outcome == "queued":
        assert created.dial_now.expires_at == service_time(sandbox) + timedelta(seconds=120)
    else:
        assert created.dial_now.expires_at is None


def test_create_of_a_listed_number_is_answered_on_dnc(client: Client, sandbox: Sandbox) -> None:
    draft = campaign_in(client, "draft")
    before = ids(client.leads.list(campaign_id=draft))
    created = client.leads.create(campaign_id=draft, phone=dnc_phone(sandbox), dial_now=True,
                                  override="the service's own answer is what is tested")
    assert (created.status, created.lead_id, created.dial_now.status) == (
        "on_dnc", None, "lead_not_accepted")
    assert ids(client.leads.list(campaign_id=draft)) == before


def test_create_in_an_unknown_campaign_is_not_found(client: Client) -> None:
    with pytest.raises(NotFoundError) as raised:
        client.leads.create(campaign_id=UNKNOWN_CAMPAIGN, phone="+12015550100")
    assert raised.value.code == "not_found"


# --- update -------------------------------------------------------------------------------


def test_update_none_clears_and_unset_keeps(client: Client, sandbox: Sandbox) -> None:
    lead = create(client, sandbox, full_name="Ada Lovelace", email="ada@example.org",
                  custom_fields={"a": 1, "b": "two"})
    renamed = client.leads.update(lead.id, full_name=None)
    assert (renamed.full_name, renamed.email, renamed.custom_fields) == (
        None, "ada@example.org", {"a": 1, "b": "two"})
    merged = client.leads.update(lead.id, custom_fields={"b": None, "c": True})
    assert (merged.full_name, merged.email, merged.custom_fields) == (
        None, "ada@example.org", {"a": 1, "c": True})
    untouched = client.leads.update(lead.id)
    assert untouched.model_dump() == merged.model_dump()
    stored = client.leads.get(lead.id)
    assert (stored.full_name, stored.email, stored.custom_fields, stored.phone) == (
        None, "ada@example.org", {"a": 1, "c": True}, lead.phone)
    cleared = client.leads.update(lead.id, email=None, custom_fields=None)
    assert (cleared.full_name, cleared.email, cleared.custom_fields) == (None, None, None)


def test_update_with_the_current_etag_moves_it(client: Client, sandbox: Sandbox) -> None:
    lead = create(client, sandbox)
    assert lead.etag is not None
    updated = client.leads.update(lead.id, email="new@example.org", if_match=lead.etag)
    assert updated.email == "new@example.org"
    assert updated.etag is not None and updated.etag != lead.etag
    assert client.leads.get(lead.id).etag == updated.etag


def test_update_with_a_stale_etag_is_precondition_failed(client: Client,
                                                         sandbox: Sandbox) -> None:
    lead = create(client, sandbox, full_name="One")
    assert lead.etag is not None
    client.leads.update(lead.id, full_name="Two", if_match=lead.etag)
    with pytest.raises(ApiError) as raised:
        client.leads.update(lead.id, full_name="Three", if_match=lead.etag)
    assert (raised.value.status, raised.value.code) == (412, "precondition_failed")
    assert client.leads.get(lead.id).full_name == "Two"


# --- import -------------------------------------------------------------------------------


def test_import_answers_one_result_per_lead(client: Client, sandbox: Sandbox) -> None:
    ready = campaign_in(client, "ready")
    first, second = fresh_phones(sandbox, 2)
    existing = next(client.leads.list(campaign_id=ready)).phone
    leads: list[dict[str, Any]] = [
        {"phone": first, "external_id": "crm-1", "first_name": "Ada", "last_name": "Lovelace"},
        {"phone": "+12345"},
        {"phone": BLOCKED_PHONE},
        {"phone": first},
        {"phone": existing},
        {"phone": dnc_phone(sandbox)},
        {"phone": second, "email": "not-an-email"},
        {"phone": second, "custom_fields": {"tier": "gold"}},
    ]
    answer = client.leads.import_batch(ready, leads)
    assert isinstance(answer, ImportResponse)
    assert answer.campaign_id == ready and answer.replayed is False
    assert [r.index for r in answer.data] == list(range(len(leads)))
    assert [(r.status, r.reason, r.field) for r in answer.data] == [
        ("accepted", None, None),
        ("invalid", "invalid_phone", None),
        ("blocked_country", None, None),
        ("duplicate", "duplicate_in_request", None),
        ("duplicate", "duplicate_in_campaign", None),
        ("on_dnc", None, None),
        ("invalid", "field_rule", "email"),
        ("accepted", None, None),
    ]
    assert (answer.summary.received, answer.summary.accepted, answer.summary.rejected) == (
        8, 2, 6)
    lead_id, other_id = answer.data[0].lead_id, answer.data[7].lead_id
    assert lead_id is not None and other_id is not None
    lead = client.leads.get(lead_id)
    assert (lead.phone, lead.full_name, lead.external_id, lead.campaign_id) == (
        first, "Ada Lovelace", "crm-1", ready)
    assert client.leads.get(other_id).custom_fields == {"tier": "gold"}


def test_the_same_batch_twice_is_imported_once(client: Client, sandbox: Sandbox) -> None:
    draft = campaign_in(client, "draft")
    before = ids(client.leads.list(campaign_id=draft))
    leads = [{"phone": phone} for phone in fresh_phones(sandbox, 3)]
    first = client.leads.import_batch(draft, leads)
    again = client.leads.import_batch(draft, leads)
    assert (first.replayed, again.replayed) == (False, True)
    assert again.model_dump() == first.model_dump()
    assert first.summary.accepted == 3
    after = ids(client.leads.list(campaign_id=draft))
    assert len(after) == len(before) + 3
    assert set(after) - set(before) == {r.lead_id for r in first.data}


def test_a_given_idempotency_key_is_used_as_is(client: Client, sandbox: Sandbox) -> None:
    draft = campaign_in(client, "draft")
    leads = [{"phone": fresh_phones(sandbox, 1)[0]}]
    first = client.leads.import_batch(draft, leads, idempotency_key="my-import-1")
    again = client.leads.import_batch(draft, leads, idempotency_key="my-import-2")
    assert (first.data[0].status, again.data[0].status) == ("accepted", "duplicate")
    assert not again.replayed
    assert client.leads.import_batch(draft, leads, idempotency_key="my-import-1").replayed


@pytest.mark.parametrize("make", [
    lambda phone: {"phone": phone, "full_name": "Ada Lovelace", "custom_fields": {"k": 1}},
    lambda phone: LeadInput(phone=phone, full_name="Ada Lovelace", custom_fields={"k": 1}),
], ids=["dict", "LeadInput"])
def test_import_takes_dicts_and_lead_inputs(client: Client, sandbox: Sandbox,
                                            make: Callable[[str], Any]) -> None:
    [phone] = fresh_phones(sandbox, 1)
    answer = client.leads.import_batch(campaign_in(client, "draft"), [make(phone)])
    lead_id = answer.data[0].lead_id
    assert answer.data[0].status == "accepted" and lead_id is not None
    lead = client.leads.get(lead_id)
    assert (lead.phone, lead.full_name, lead.email, lead.custom_fields) == (
        phone, "Ada Lovelace", None, {"k": 1})


def test_import_takes_dicts_and_lead_inputs_in_one_batch(client: Client,
                                                         sandbox: Sandbox) -> None:
    first, second = fresh_phones(sandbox, 2)
    answer = client.leads.import_batch(campaign_in(client, "draft"), [
        {"phone": first, "external_id": "a"}, LeadInput(phone=second, external_id="b")])
    assert [(r.status, r.external_id) for r in answer.data] == [("accepted", "a"),
                                                                 ("accepted", "b")]


@pytest.mark.parametrize("leads", [[{"phone": "+12015550100"}] * 201, [], [{"mobile": "x"}]],
                         ids=["201 leads", "none", "unknown field"])
def test_a_bad_batch_is_refused_before_any_request(leads: list[dict[str, str]]) -> None:
    wire = RecordingTransport()
    with pytest.raises(InvalidArgumentError, match="200" if len(leads) > 200 else "leads"):
        offline(wire).leads.import_batch(UNKNOWN_CAMPAIGN, leads)
    assert wire.requests == []


def test_200_leads_are_one_batch(client: Client, sandbox: Sandbox) -> None:
    answer = client.leads.import_batch(campaign_in(client, "draft"),
                                       [{"phone": "+12015550100"}] * 200)
    assert answer.summary.received == len(answer.data) == 200


def test_import_into_a_running_campaign_is_refused(client: Client, sandbox: Sandbox) -> None:
    running = campaign_in(client, "running")
    before = ids(client.leads.list(campaign_id=running))
    leads = [{"phone": fresh_phones(sandbox, 1)[0]}]
    with pytest.raises(ConflictError) as raised:
        client.leads.import_batch(running, leads)
    assert (raised.value.status, raised.value.code) == (409, "campaign_not_importable")
    assert raised.value.idempotency_key is not None
    assert ids(client.leads.list(campaign_id=running)) == before
    client.campaigns.pause(running)
    answer = client.leads.import_batch(running, leads, idempotency_key="after-the-pause")
    assert answer.data[0].status == "accepted"


def test_a_refused_batch_is_imported_once_the_campaign_is_paused(
        client: Client, sandbox: Sandbox) -> None:
    running = campaign_in(client, "running")
    leads = [{"phone": fresh_phones(sandbox, 1)[0]}]
    for _ in range(2):  # the re-run meets the stored refusal, follows on, and is refused anew
        with pytest.raises(ConflictError) as raised:
            client.leads.import_batch(running, leads)
        assert (raised.value.code, raised.value.replayed) == ("campaign_not_importable", False)
    client.campaigns.pause(running)
    answer = client.leads.import_batch(running, leads)
    assert (answer.data[0].status, answer.replayed) == ("accepted", False)
    again = client.leads.import_batch(running, leads)
    assert again.replayed and again.data[0].lead_id == answer.data[0].lead_id
    assert ids(client.leads.list(campaign_id=running)).count(answer.data[0].lead_id) == 1


def test_a_caller_key_is_not_followed_after_a_stored_refusal(client: Client,
                                                              sandbox: Sandbox) -> None:
    running = campaign_in(client, "running")
    leads = [{"phone": fresh_phones(sandbox, 1)[0]}]
    with pytest.raises(ConflictError):
        client.leads.import_batch(running, leads, idempotency_key="my-import-1")
    client.campaigns.pause(running)
    with pytest.raises(ConflictError) as raised:
        client.leads.import_batch(running, leads, idempotency_key="my-import-1")
    assert raised.value.replayed and raised.value.idempotency_key == "my-import-1"
    assert "stored answer" in str(raised.value)


def test_import_into_an_unknown_campaign_is_not_found(client: Client) -> None:
    with pytest.raises(NotFoundError) as raised:
        client.leads.import_batch(UNKNOWN_CAMPAIGN, [{"phone": "+12015550100"}])
    assert (raised.value.status, raised.value.code) == (404, "not_found")


# --- scopes -------------------------------------------------------------------------------


@pytest.mark.parametrize("write", ["create", "update", "import_batch"])
def test_writes_need_the_leads_write_scope(client_as: Callable[..., Client],
                                           write: str) -> None:
    reader = client_as("reader")
    draft = campaign_in(reader, "draft")
    before = [lead.model_dump() for lead in reader.leads.list(campaign_id=draft)]
    lead_id = before[0]["id"]
    calls: dict[str, Callable[[], object]] = {
        "create": lambda: reader.leads.create(campaign_id=draft, phone="+12015550100"),
        "update": lambda: reader.leads.update(lead_id, full_name="x"),
        "import_batch": lambda: reader.leads.import_batch(draft, [{"phone": "+12015550100"}]),
    }
    with pytest.raises(PermissionDeniedError) as raised:
        calls[write]()
    assert (raised.value.status, raised.value.code) == (403, "insufficient_scope")
    assert [lead.model_dump() for lead in reader.leads.list(campaign_id=draft)] == before
