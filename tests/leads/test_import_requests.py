"""What an import costs on the wire, and that importing one file twice reports it once.

The service screens each imported lead against its DNC list and the campaign's leads
(the contract's import checks), so by default an import sends its batches and
little else; ``screen=True`` previews the DNC list and the campaign's leads first.
Requests are counted by a transport that forwards each one to the emulator.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from client._recording import RecordingTransport
from conftest import KEYS
from dialkit import Client
from dialkit.contract import MAX_IMPORT_BATCH
from dialkit.leads import import_leads
from dialkit.sandbox import Sandbox

IMPORT = "/v1/leads/import"


def paused(client: Client) -> str:
    return next(client.campaigns.list(status="paused")).id


def lead_file(path: Path, rows: int) -> Path:
    """A vendor file of ``rows`` rows: distinct valid numbers, an invalid cell every 50th
    row (from the 26th), a repeat of the row before every 20th: 7 % refused locally."""
    phones = [f"(312) 555-{n:04d}" for n in range(rows)]
    for n in range(25, rows, 50):
        phones[n] = "n/a"
    for n in range(1, rows, 20):
        phones[n] = phones[n - 1]
    pd.DataFrame({"Mobile": phones, "Lead Ref": [f"r-{n}" for n in range(rows)],
                  "Name": ["Ada Lovelace"] * rows}).to_csv(path, index=False)
    return path


@pytest.mark.parametrize("screen", [False, True])
def test_an_import_sends_a_request_per_batch_and_the_service_screens_it(
        sandbox: Sandbox, client: Client, tmp_path: Path, screen: bool) -> None:
    campaign = paused(client)
    path = lead_file(tmp_path / "vendor.csv", 2_000)
    listed = "+13125550007"
    client.dnc.add(listed)
    wire = RecordingTransport()
    with Client(KEYS["full"], base_url=sandbox.base_url, rate_limit=None,
                transport=wire) as counted:
        report = import_leads(counted, path, campaign, journal=tmp_path / "journal",
                              progress=False, screen=screen)
    batches = math.ceil(report.frame["batch"].notna().sum() / MAX_IMPORT_BATCH)
    assert report.batches == batches == 10
    dnc = report.frame.loc[report.frame["phone_e164"] == listed].iloc[0]
    assert (dnc["status"], dnc["outcome"]) == (
        ("on_dnc", "refused_locally") if screen else ("on_dnc", "refused_by_service"))
    sent = len(wire.sent)
    if screen:  # the DNC list asked 100 numbers a request, the campaign's leads read
        assert sent > batches + report.rows * 0.9 / 100
    else:  # the campaign read once, then the batches alone
        assert len(wire.to(IMPORT, "POST")) == batches
        assert sent == batches + 1 <= 1.05 * report.rows / MAX_IMPORT_BATCH + 1


def test_one_file_imported_twice_reports_the_same_counts(
        client: Client, tmp_path: Path) -> None:
    """Issue 48: the second import, with a fresh journal and the preview, counted the
    file's repeated rows imported, each with its first row's lead id."""
    campaign = paused(client)
    path = lead_file(tmp_path / "vendor.csv", 400)
    first = import_leads(client, path, campaign, journal=tmp_path / "one", progress=False)
    for screen in (False, True):
        again = import_leads(client, path, campaign, journal=tmp_path / f"again-{screen}",
                             progress=False, screen=screen)
        assert again.counts.to_dict() == first.counts.to_dict(), screen
        assert again.frame["lead_id"].equals(first.frame["lead_id"])
        repeats = again.frame.iloc[1::20]
        assert set(repeats["reason"].astype(str)) == {"duplicate_in_request"}
