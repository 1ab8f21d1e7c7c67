"""Listing campaigns never reads every lead: the counts come from each campaign's
progress, a request per campaign however many leads they hold (issue 48, item 2).

After a 2,000,000-lead import, ``dialkit campaigns list --importable`` read the lead
list page by page for 23 minutes before it printed anything.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import orjson
import pytest
from typer.testing import CliRunner

from client._recording import RecordingTransport
from conftest import KEYS
from dialkit import Client
from dialkit.cli import app
from dialkit.leads import campaigns
from dialkit.sandbox import Sandbox

MakeClient = Callable[..., Client]
runner = CliRunner()


class NoProgressCounts(RecordingTransport):
    """The emulator, recorded, with the lead counts taken out of every progress answer:
    a service whose progress (a shape the contract does not show) gives none."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        if not request.url.path.endswith("/progress"):
            return response
        body = orjson.loads(response.read())
        body.pop("leads", None)
        return httpx.Response(response.status_code, headers={"X-Request-ID": "req_x"},
                              json=body)


def paths(spy: RecordingTransport) -> list[str]:
    return [sent.path for sent in spy.sent]


def lead_counts(client: Client) -> dict[str, int]:
    counts = client.frames.leads(refresh="full", progress=False)["campaign_id"].value_counts()
    return {str(k): int(v) for k, v in counts.items()}


def import_leads(client: Client, campaign_id: str, count: int) -> None:
    for start in range(0, count, 200):
        batch = [{"phone": f"+1415555{n:04d}"} for n in range(start, min(count, start + 200))]
        client.leads.import_batch(campaign_id, batch)


def test_listing_costs_a_request_per_campaign_however_many_leads(
        sandbox: Sandbox, client_as: MakeClient) -> None:
    spy = RecordingTransport()
    client = client_as("full", transport=spy)
    before = campaigns(client, refresh="full", progress=False)
    first = paths(spy)
    paused = before.loc[before["status"] == "paused", "id"].iloc[0]
    import_leads(client, paused, 400)
    spy.sent.clear()
    after = campaigns(client, refresh="full", progress=False)
    assert sorted(paths(spy)) == sorted(first)
    assert not any(path.startswith("/v1/leads") for path in first)
    assert first.count("/v1/campaigns") == 1  # one page of campaigns: the small world's
    assert len(first) == 1 + len(before)
    grew = after.set_index("id")["leads"] - before.set_index("id")["leads"]
    assert grew[paused] > 0 and grew.drop(paused).eq(0).all()
    listed = lead_counts(client)
    assert after.set_index("id")["leads"].to_dict() == {
        id_: listed.get(id_, 0) for id_ in after["id"]}


def test_counts_the_progress_does_not_give_are_missing_unless_asked(
        sandbox: Sandbox, client_as: MakeClient) -> None:
    spy = NoProgressCounts()
    client = client_as("full", transport=spy)
    bare = campaigns(client, refresh="full", progress=False)
    assert bare["leads"].isna().all() and str(bare["leads"].dtype) == "Int64"
    assert not any(path.startswith("/v1/leads") for path in paths(spy))
    counted = campaigns(client, count_leads=True, refresh="full", progress=False)
    assert any(path == "/v1/leads" for path in paths(spy))
    listed = lead_counts(client)
    assert counted.set_index("id")["leads"].to_dict() == {
        id_: listed.get(id_, 0) for id_ in counted["id"]}


@pytest.fixture
def attached(sandbox: Sandbox) -> dict[str, Any]:
    """The environment under which ``--sandbox`` reaches the session's emulator."""
    return {"DIALKIT_SANDBOX_URL": sandbox.base_url, "DIALKIT_SANDBOX_KEY": KEYS["full"],
            "DIALKIT_SANDBOX_RATE_LIMIT_SCALE": "0", "DIALKIT_TIMEOUT": None}


def test_cli_lists_the_counts_with_separators_and_no_note(attached: dict[str, Any],
                                                          client_as: MakeClient) -> None:
    client = client_as("full")
    expected = campaigns(client, refresh="full", progress=False)
    result = runner.invoke(app, ["campaigns", "list", "--sandbox", "--importable"],
                           env=attached)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    importable = expected[expected["importable"]]
    assert len(lines) == 1 + len(importable) and "note:" not in result.stdout
    for row in importable.itertuples():
        line = next(line for line in lines if line.startswith(row.id))
        assert line.endswith(f" {row.leads:,}")
