"""The campaign read at clean time (issue 20, item 10), and stops that advise a re-run
only when a re-run can succeed."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from conftest import KEYS, add_fault
from dialkit import Client
from dialkit.leads import CampaignError, ImportStoppedError, campaigns, clean, import_leads
from dialkit.sandbox import Sandbox

IMPORT = "/v1/leads/import"
UNKNOWN = "cmp_00000000-0000-4000-8000-000000000000"
FRAME = pd.DataFrame({"phone": [f"+1312555{n:04d}" for n in range(3)]})


def test_an_unknown_campaign_is_refused_with_the_campaigns_that_take_leads(
        client: Client) -> None:
    with pytest.raises(CampaignError) as caught:
        clean(FRAME, client=client, campaign_id=UNKNOWN)
    message = str(caught.value)
    assert UNKNOWN in message and caught.value.status is None
    for campaign in client.campaigns.list():
        shown = f"{campaign.id}  {campaign.name} ({campaign.status.value})"
        assert (shown in message) == (campaign.status.value in ("draft", "ready", "paused"))


def test_a_running_campaign_is_refused_as_the_importer_refuses_it(client: Client) -> None:
    running = next(client.campaigns.list(status="running")).id
    with pytest.raises(CampaignError) as caught:
        clean(FRAME, client=client, campaign_id=running)
    assert str(caught.value).startswith(
        f"campaign {running} is running, and leads can go only into a draft, ready or "
        "paused campaign: pause it")
    assert caught.value.status == "running"


def test_a_completed_campaign_is_refused_with_the_others(client: Client) -> None:
    done = next(client.campaigns.list(status="completed")).id
    with pytest.raises(CampaignError) as caught:
        clean(FRAME, client=client, campaign_id=done)
    assert "choose another campaign" in str(caught.value)
    assert "Campaigns that can take leads:" in str(caught.value)


def test_import_refuses_an_unknown_campaign_before_anything_is_written(
        client: Client, tmp_path: Path) -> None:
    with pytest.raises(CampaignError):
        import_leads(client, FRAME, UNKNOWN, journal=tmp_path, progress=False)
    assert not list(tmp_path.iterdir())  # not even an empty journal folder


def test_an_importable_campaign_is_cleaned_as_before(client: Client) -> None:
    draft = next(client.campaigns.list(status="draft")).id
    assert clean(FRAME, client=client, campaign_id=draft).counts["accepted"] == 3


@pytest.mark.parametrize(("status", "code"), [
    (404, "not_found"), (403, "insufficient_scope"), (422, "validation_failed")])
def test_a_stop_a_rerun_cannot_fix_does_not_advise_one(
        sandbox: Sandbox, client: Client, tmp_path: Path, status: int, code: str) -> None:
    paused = next(client.campaigns.list(status="paused")).id
    cleaned = clean(FRAME)  # offline: the campaign unseen until the batch is sent
    add_fault(sandbox, path=IMPORT, method="POST", kind="error", status=status, code=code,
              count=1)
    with pytest.raises(ImportStoppedError) as caught:
        import_leads(client, cleaned, paused, journal=tmp_path, progress=False)
    assert "run the same import again" not in str(caught.value).lower()


def test_a_completed_campaign_met_at_import_time_does_not_advise_a_rerun(
        client: Client, tmp_path: Path) -> None:
    done = next(client.campaigns.list(status="completed")).id
    with pytest.raises(ImportStoppedError) as caught:  # cleaned offline: the campaign unseen
        import_leads(client, clean(FRAME), done, journal=tmp_path, progress=False)
    message = str(caught.value)
    assert f"campaign {done} is completed" in message and "choose another" in message
    assert "run the same import again" not in message.lower()


def test_a_running_campaign_met_at_import_time_says_pause_then_run_again(
        client: Client, tmp_path: Path) -> None:
    running = next(client.campaigns.list(status="running")).id
    with pytest.raises(ImportStoppedError) as caught:
        import_leads(client, clean(FRAME), running, journal=tmp_path, progress=False)
    assert "pause it, then run the same import again" in str(caught.value)


@pytest.mark.parametrize(("status", "code"), [(503, "temporarily_unavailable"),
                                              (429, "rate_limit_exceeded")])
def test_a_transient_stop_advises_a_rerun(sandbox: Sandbox, tmp_path: Path,
                                          status: int, code: str) -> None:
    with Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None,
                max_retries=0) as client:
        paused = next(client.campaigns.list(status="paused")).id
        add_fault(sandbox, path=IMPORT, method="POST", kind="error", status=status, code=code,
                  retry_after=0, count=1)
        with pytest.raises(ImportStoppedError) as caught:
            import_leads(client, clean(FRAME), paused, journal=tmp_path, progress=False)
    assert "run the same import again" in str(caught.value).lower()


def test_campaigns_counts_each_campaigns_leads(client: Client) -> None:
    frame = campaigns(client, refresh="full", progress=False)
    leads = client.frames.leads(refresh="full", progress=False)
    assert list(frame.columns) == ["id", "name", "status", "leads", "importable"]
    assert set(frame["id"]) == {c.id for c in client.campaigns.list()}
    for row in frame.itertuples():
        assert row.leads == (leads["campaign_id"] == row.id).sum()
        assert row.importable == (row.status in ("draft", "ready", "paused"))
    assert frame["leads"].sum() > 0
