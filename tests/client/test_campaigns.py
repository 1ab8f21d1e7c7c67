"""``client.campaigns`` against the emulator: list, get, progress, pause and resume.

The seeded world holds campaigns in every status; what the client answers is
compared with the rows of the ``full`` client's data set in the emulator's
store, and every transition is read back through ``client.campaigns.get``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from dialkit import Client
from dialkit.contract import Campaign
from dialkit.errors import ConflictError, NotFoundError, PermissionDeniedError
from dialkit.sandbox import Sandbox

STATUSES = ["draft", "ready", "running", "paused", "completed"]
UNKNOWN = "cmp_00000000-0000-4000-8000-000000000000"
DATASET = "client:acme/full"
"""The data set the ``full`` test key is answered from."""


def campaign_in(client: Client, status: str) -> Campaign:
    """A listed campaign in ``status``."""
    found = next(iter(client.campaigns.list(status=status)), None)
    assert found is not None, f"the seeded world has a {status} campaign"
    return found


def stored(sandbox: Sandbox, condition: str = "1 = 1", *args: Any) -> set[str]:
    """Ids of the ``full`` client's campaigns that meet an SQL ``condition``."""
    rows = sandbox.service.store.rows(
        f"SELECT id FROM campaigns WHERE dataset = ? AND {condition}", (DATASET, *args))
    return {str(r[0]) for r in rows}


def status_of(client: Client, campaign_id: str) -> str:
    """The campaign's status as read back now."""
    return str(client.campaigns.get(campaign_id).status)


# --- list and get ------------------------------------------------------------------------


def test_list_holds_every_campaign_but_the_archived(client: Client, sandbox: Sandbox) -> None:
    listed = list(client.campaigns.list())
    assert all(isinstance(c, Campaign) for c in listed)
    assert {c.status for c in listed} == set(STATUSES)
    assert {c.id for c in listed} == stored(sandbox, "archived = 0")
    assert not {c.id for c in listed} & stored(sandbox, "archived = 1")
    keys = [(c.created_at, c.id) for c in listed]
    assert keys == sorted(keys, reverse=True)


def test_list_filters_by_status(client: Client, sandbox: Sandbox) -> None:
    for status in STATUSES:
        listed = list(client.campaigns.list(status=status))
        assert listed and {c.status for c in listed} == {status}
        assert {c.id for c in listed} == stored(sandbox, "archived = 0 AND status = ?", status)


def test_list_pages_by_limit(client: Client) -> None:
    pages = list(client.campaigns.list(limit=2).pages())
    assert len(pages) >= 4 and all(len(p.data) == 2 for p in pages[:-1])
    assert [c.id for p in pages for c in p.data] == [c.id for c in client.campaigns.list()]
    assert len({p.request_id for p in pages}) == len(pages)


def test_get_answers_the_listed_campaign(client: Client) -> None:
    for listed in client.campaigns.list():
        campaign = client.campaigns.get(listed.id)
        assert campaign.model_dump() == listed.model_dump()
        assert campaign.request_id is not None and campaign.request_id != listed.request_id


def test_archived_campaigns_are_not_found(client: Client, sandbox: Sandbox) -> None:
    client.me()  # the client's data set is copied from the seeded world on its first request
    archived = stored(sandbox, "archived = 1")
    assert archived, "the seeded world has archived campaigns"
    for campaign_id in archived:
        with pytest.raises(NotFoundError):
            client.campaigns.get(campaign_id)


@pytest.mark.parametrize("operation", ["get", "progress", "pause", "resume"])
def test_an_unknown_campaign_is_not_found(client: Client, operation: str) -> None:
    with pytest.raises(NotFoundError) as raised:
        getattr(client.campaigns, operation)(UNKNOWN)
    assert (raised.value.status, raised.value.code) == (404, "not_found")


# --- progress ----------------------------------------------------------------------------


@pytest.mark.parametrize("status", ["running", "paused", "completed"])
def test_progress_counts_the_campaigns_leads(client: Client, status: str) -> None:
    campaign = campaign_in(client, status)
    progress = client.campaigns.progress(campaign.id)
    assert progress.request_id is not None and progress.request_id.startswith("req_")
    assert (progress["campaign_id"], progress["status"]) == (campaign.id, status)
    leads = list(client.leads.list(campaign_id=campaign.id))
    counts = {s: sum(lead.status == s for lead in leads)
              for s in ("new", "contacted", "callback", "dnc", "completed")}
    assert progress["leads"] == {"total": len(leads), **counts}
    calls = progress["calls"]
    assert calls["placed"] == len(list(client.calls.list(campaign_id=campaign.id)))
    assert calls["placed"] >= calls["answered"] > 0


def test_progress_of_a_new_lead_counts_it(client: Client, sandbox: Sandbox) -> None:
    draft = campaign_in(client, "draft")
    before = client.campaigns.progress(draft.id)["leads"]
    used = {r[0] for r in sandbox.service.store.rows("SELECT phone FROM leads UNION "
                                                     "SELECT phone FROM dnc")}
    phone = next(p for p in (f"+1201555{n:04d}" for n in range(100, 200)) if p not in used)
    client.leads.create(campaign_id=draft.id, phone=phone)
    after = client.campaigns.progress(draft.id)["leads"]
    assert (after["total"], after["new"]) == (before["total"] + 1, before["new"] + 1)


# --- pause and resume --------------------------------------------------------------------


def test_pause_of_a_running_campaign_pauses_it(client: Client) -> None:
    running = campaign_in(client, "running")
    paused = client.campaigns.pause(running.id)
    assert isinstance(paused, Campaign)
    assert (paused.id, paused.status, paused.name) == (running.id, "paused", running.name)
    assert paused.request_id is not None and not paused.replayed
    assert client.campaigns.get(running.id).model_dump() == paused.model_dump()
    assert running.id in {c.id for c in client.campaigns.list(status="paused")}
    assert running.id not in {c.id for c in client.campaigns.list(status="running")}


def test_pause_of_a_paused_campaign_changes_nothing(client: Client) -> None:
    paused = campaign_in(client, "paused")
    again = client.campaigns.pause(paused.id)
    assert again.model_dump() == paused.model_dump()
    assert client.campaigns.get(paused.id).model_dump() == paused.model_dump()


def test_a_pause_with_the_same_key_is_replayed(client: Client) -> None:
    running = campaign_in(client, "running")
    first = client.campaigns.pause(running.id, idempotency_key="pause-once")
    again = client.campaigns.pause(running.id, idempotency_key="pause-once")
    assert (first.replayed, again.replayed) == (False, True)
    assert again.model_dump() == first.model_dump()


def test_resume_of_a_paused_campaign_runs_it(client: Client) -> None:
    paused = campaign_in(client, "paused")
    resumed = client.campaigns.resume(paused.id)
    assert (resumed.id, resumed.status) == (paused.id, "running")
    assert resumed.updated_at is not None and resumed.started_at is not None
    assert paused.updated_at is None or resumed.updated_at > paused.updated_at
    assert client.campaigns.get(paused.id).model_dump() == resumed.model_dump()


def test_resume_of_a_running_campaign_changes_nothing(client: Client) -> None:
    running = campaign_in(client, "running")
    assert client.campaigns.resume(running.id).model_dump() == running.model_dump()


def test_pause_then_resume_goes_back_to_running(client: Client) -> None:
    campaign = campaign_in(client, "running")
    assert client.campaigns.pause(campaign.id).status == "paused"
    assert client.campaigns.resume(campaign.id).status == "running"
    assert status_of(client, campaign.id) == "running"


@pytest.mark.parametrize(("verb", "code"), [("pause", "campaign_not_running"),
                                            ("resume", "campaign_not_paused")])
def test_pause_or_resume_in_another_state_is_a_conflict(client: Client, verb: str,
                                                        code: str) -> None:
    for status in ("draft", "ready", "completed"):
        campaign = campaign_in(client, status)
        with pytest.raises(ConflictError) as raised:
            getattr(client.campaigns, verb)(campaign.id)
        assert (raised.value.status, raised.value.code) == (409, code)
        assert client.campaigns.get(campaign.id).model_dump() == campaign.model_dump()


def test_resume_without_the_tier_2_switch_is_not_enabled(
        client_as: Callable[..., Client]) -> None:
    noswitch = client_as("noswitch")
    paused = campaign_in(noswitch, "paused")
    with pytest.raises(PermissionDeniedError) as raised:
        noswitch.campaigns.resume(paused.id)
    assert (raised.value.status, raised.value.code) == (403, "tier_not_enabled")
    assert status_of(noswitch, paused.id) == "paused"
    assert noswitch.campaigns.pause(campaign_in(noswitch, "running").id).status == "paused"


@pytest.mark.parametrize(("verb", "status"), [("pause", "running"), ("resume", "paused")])
def test_a_reader_cannot_pause_or_resume(client_as: Callable[..., Client], verb: str,
                                         status: str) -> None:
    reader = client_as("reader")
    campaign = campaign_in(reader, status)
    with pytest.raises(PermissionDeniedError) as raised:
        getattr(reader.campaigns, verb)(campaign.id)
    assert (raised.value.status, raised.value.code) == (403, "insufficient_scope")
    assert status_of(reader, campaign.id) == status
