"""Campaigns: list, read, progress, and the pause/resume state machine of the contract."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from conftest import KEYS, assert_problem, base_config, client_for, write
from dialkit.sandbox import Sandbox

STATUSES = ["draft", "ready", "running", "paused", "completed"]


def campaigns(http: httpx.Client, **params: Any) -> list[dict[str, Any]]:
    """Every listed campaign (one page of 100 holds the small world's)."""
    response = http.get("/v1/campaigns", params={"limit": 100, **params})
    assert response.status_code == 200, response.text
    data: list[dict[str, Any]] = response.json()["data"]
    return data


def campaign_in(http: httpx.Client, status: str) -> dict[str, Any]:
    """A campaign of the caller's data set with ``status``."""
    found = campaigns(http, status=status)
    assert found, f"the seeded world has a {status} campaign"
    return found[0]


def test_every_status_is_listed_and_each_filter_selects_its_own(api: httpx.Client) -> None:
    assert {c["status"] for c in campaigns(api)} == set(STATUSES)
    for status in STATUSES:
        assert {c["status"] for c in campaigns(api, status=status)} == {status}


def test_a_campaign_has_exactly_the_contract_fields(api: httpx.Client) -> None:
    campaign = campaign_in(api, "running")
    assert set(campaign) == {"id", "name", "status", "dialer_mode", "created_at", "updated_at",
                             "started_at", "completed_at"}
    assert api.get(f"/v1/campaigns/{campaign['id']}").json() == campaign


def test_archived_campaigns_are_neither_listed_nor_found(sandbox: Sandbox,
                                                         api: httpx.Client) -> None:
    archived = sandbox.service.store.rows(
        "SELECT id FROM campaigns WHERE dataset = 'seed:acme' AND archived = 1")
    assert archived, "the seeded world has archived campaigns"
    listed = {c["id"] for c in campaigns(api)}
    for row in archived:
        assert row["id"] not in listed
        assert_problem(api.get(f"/v1/campaigns/{row['id']}"), 404, "not_found")
        assert_problem(api.get(f"/v1/campaigns/{row['id']}/progress"), 404, "not_found")


@pytest.mark.parametrize("path", ["", "/progress"])
def test_unknown_campaign_is_not_found(api: httpx.Client, path: str) -> None:
    unknown = "cmp_00000000-0000-4000-8000-000000000000"
    assert_problem(api.get(f"/v1/campaigns/{unknown}{path}"), 404, "not_found")


def test_progress_counts_the_campaign_leads_by_status(api: httpx.Client) -> None:
    campaign = campaign_in(api, "running")
    progress = api.get(f"/v1/campaigns/{campaign['id']}/progress").json()
    leads = api.get("/v1/leads", params={"campaign_id": campaign["id"], "limit": 100})
    assert progress["campaign_id"] == campaign["id"]
    assert progress["leads"]["total"] == sum(progress["leads"][s] for s in
                                             ["new", "contacted", "callback", "dnc", "completed"])
    assert progress["leads"]["total"] >= len(leads.json()["data"]) > 0
    assert progress["calls"]["placed"] >= progress["calls"]["answered"] > 0


@pytest.mark.parametrize(("status", "verb", "outcome"), [
    ("running", "pause", "paused"),
    ("paused", "pause", "paused"),
    ("paused", "resume", "running"),
    ("running", "resume", "running"),
])
def test_allowed_transitions(api: httpx.Client, status: str, verb: str, outcome: str) -> None:
    campaign = campaign_in(api, status)
    answer = write(api, f"/v1/campaigns/{campaign['id']}/{verb}", {})
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == outcome
    assert api.get(f"/v1/campaigns/{campaign['id']}").json()["status"] == outcome


@pytest.mark.parametrize("status", ["draft", "ready", "completed"])
@pytest.mark.parametrize(("verb", "code"), [("pause", "campaign_not_running"),
                                            ("resume", "campaign_not_paused")])
def test_pause_or_resume_of_a_campaign_neither_running_nor_paused_is_refused(
        api: httpx.Client, status: str, verb: str, code: str) -> None:
    campaign = campaign_in(api, status)
    assert_problem(write(api, f"/v1/campaigns/{campaign['id']}/{verb}"), 409, code)
    assert api.get(f"/v1/campaigns/{campaign['id']}").json()["status"] == status


def test_pause_body_must_be_empty_or_an_empty_object(api: httpx.Client) -> None:
    campaign = campaign_in(api, "running")
    assert_problem(write(api, f"/v1/campaigns/{campaign['id']}/pause", {"now": True}), 400,
                   "validation_failed")


def test_resume_needs_the_tier_2_switch(key_client: Callable[[str], httpx.Client]) -> None:
    http = key_client("noswitch")
    campaign = campaign_in(http, "paused")
    assert_problem(write(http, f"/v1/campaigns/{campaign['id']}/resume"), 403,
                   "tier_not_enabled")


def _config(**account: Any) -> dict[str, Any]:
    config = copy.deepcopy(base_config())
    config["accounts"][0].update(account)
    return config


def test_resume_is_blocked_by_a_stale_national_registry(
        make_sandbox: Callable[..., Sandbox]) -> None:
    running = make_sandbox(_config(stale_dnc_registries=["US", "CA", "GB"]))
    with client_for(running, KEYS["full"]) as http:
        campaign = campaign_in(http, "paused")
        assert_problem(write(http, f"/v1/campaigns/{campaign['id']}/resume"), 409,
                       "registry_stale_blocked")
        assert http.get(f"/v1/campaigns/{campaign['id']}").json()["status"] == "paused"


def test_a_stale_registry_does_not_block_an_account_that_allows_such_launches(
        make_sandbox: Callable[..., Sandbox]) -> None:
    running = make_sandbox(_config(stale_dnc_registries=["US", "CA", "GB"],
                                   block_stale_registry_launches=False))
    with client_for(running, KEYS["full"]) as http:
        campaign = campaign_in(http, "paused")
        answer = write(http, f"/v1/campaigns/{campaign['id']}/resume")
        assert answer.status_code == 200, answer.text


def test_resume_answers_daily_cap_reached_when_the_account_cap_is_used_up(
        make_sandbox: Callable[..., Sandbox]) -> None:
    running = make_sandbox(_config(daily_cap=0))
    with client_for(running, KEYS["full"]) as http:
        campaign = campaign_in(http, "paused")
        assert_problem(write(http, f"/v1/campaigns/{campaign['id']}/resume"), 429,
                       "daily_cap_reached")


def test_resume_sets_started_at_of_a_campaign_never_started(api: httpx.Client,
                                                           sandbox: Sandbox) -> None:
    campaign = campaign_in(api, "paused")
    sandbox.service.store.conn.execute(
        "UPDATE campaigns SET started_at = NULL WHERE id = ? AND dataset LIKE 'client:%'",
        (campaign["id"],))
    resumed = write(api, f"/v1/campaigns/{campaign['id']}/resume").json()
    assert resumed["started_at"] == resumed["updated_at"]
