"""``dialkit.leads.import_leads``: batches sent once, a journal that survives a kill,
stops that say what to do, and one reconciled outcome for every row of the file."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import orjson
import pandas as pd
import pytest

from conftest import KEYS, add_fault
from dialkit import Client
from dialkit.errors import OutcomeUnknownError
from dialkit.leads import ImportStoppedError, clean, import_leads
from dialkit.sandbox import Sandbox

IMPORT = "/v1/leads/import"
SAMPLES = Path(__file__).resolve().parents[2] / "data_samples"


def numbers(count: int, start: int = 0) -> list[str]:
    return [f"+1312555{n:04d}" for n in range(start, start + count)]


def paused(client: Client) -> str:
    return next(client.campaigns.list(status="paused")).id


def campaign_phones(client: Client, campaign: str) -> pd.Series:
    return client.frames.leads(campaign_id=campaign, refresh="full")["phone"]


def journal_lines(folder: Path) -> list[dict[str, object]]:
    path = next(folder.glob("*/journal.jsonl"), None)
    if path is None:
        return []
    lines = []
    for raw in path.read_bytes().splitlines():
        try:
            lines.append(orjson.loads(raw))
        except orjson.JSONDecodeError:
            continue
    return lines


def test_rows_are_imported_in_batches_and_reconciled(client: Client, tmp_path: Path) -> None:
    campaign = paused(client)
    frame = pd.DataFrame({"phone": [*numbers(450), "n/a", "bad", numbers(1)[0]],
                          "name": ["Ada"] * 453})
    report = import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert report.batches == 3 and report.resumed == 0
    assert report.counts.to_dict() == {"imported": 450, "refused_locally": 3,
                                       "refused_by_service": 0, "not_attempted": 0}
    assert report.frame["batch"].tolist()[:450] == [1] * 200 + [2] * 200 + [3] * 50
    assert report.frame["lead_id"].iloc[:450].str.startswith("lead_").all()
    assert report.frame["outcome"].iloc[450:].tolist() == ["refused_locally"] * 3
    phones = campaign_phones(client, campaign)
    assert phones.isin(numbers(450)).sum() == 450 and not phones.duplicated().any()
    again = import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert again.resumed == 3
    assert again.frame.equals(report.frame)
    folder = next(tmp_path.iterdir())
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()} == {0o600}


def test_a_refusal_by_the_service_is_reconciled_to_its_row(client: Client,
                                                           tmp_path: Path) -> None:
    campaign = paused(client)
    # another lead of the campaign with the first row's phone (its external id says so)
    [other] = client.leads.import_batch(campaign, [{"phone": numbers(1)[0],
                                                    "external_id": "other"}])
    cleaned = clean(pd.DataFrame({"phone": numbers(3)}))  # offline: the campaign unseen
    report = import_leads(client, cleaned, campaign, journal=tmp_path, progress=False)
    frame = report.frame[["outcome", "status", "reason", "campaign_lead_id",
                          "campaign_phone"]].astype(object)
    assert frame.where(frame.notna(), None).values.tolist() == [
        ["refused_by_service", "duplicate", "duplicate_in_campaign", other.lead_id,
         numbers(1)[0]],
        ["imported", "accepted", None, None, None], ["imported", "accepted", None, None, None]]
    assert "refused_by_service" in report._repr_html_()
    assert report.notes == (
        "1 row was refused as duplicate_in_campaign: the campaign keeps another lead for "
        "each (report columns campaign_lead_id, campaign_phone): 1 with the row's number, "
        "under another external id or none (the number is in the campaign already, as "
        "that lead).",)


def test_a_duplicate_that_is_the_rows_own_lead_is_imported_with_its_lead_id(
        client: Client, tmp_path: Path) -> None:
    campaign = paused(client)
    [earlier] = client.leads.import_batch(campaign, [{"phone": numbers(1)[0]}])
    cleaned = clean(pd.DataFrame({"phone": numbers(2)}))  # offline: the campaign unseen
    report = import_leads(client, cleaned, campaign, journal=tmp_path, progress=False)
    first = report.frame.iloc[0]
    assert (first["outcome"], first["reason"], first["lead_id"]) == (
        "imported", "duplicate_in_campaign", earlier.lead_id)
    assert report.counts["imported"] == 2 and "1 row was already leads" in report.notes[0]
    again = import_leads(client, cleaned, campaign, journal=tmp_path, progress=False)
    assert again.frame.equals(report.frame) and again.notes == report.notes


def test_a_campaign_that_cannot_import_stops_with_what_to_do(client: Client,
                                                             tmp_path: Path) -> None:
    campaign = next(client.campaigns.list(status="running")).id
    frame = clean(pd.DataFrame({"phone": numbers(250)}))  # offline: clean would refuse it
    with pytest.raises(ImportStoppedError) as caught:
        import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    stop = caught.value
    assert f"campaign {campaign} is running" in str(stop)
    assert "draft, ready or paused" in str(stop) and "batch 1 of 2" in str(stop)
    assert stop.batch == 1
    assert stop.report.counts["not_attempted"] == 250
    client.campaigns.pause(campaign)
    report = import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert report.counts["imported"] == 250
    phones = campaign_phones(client, campaign)
    assert phones.isin(numbers(250)).sum() == 250


def test_an_unknown_outcome_stops_at_once_and_keeps_its_key(
        sandbox: Sandbox, client: Client, tmp_path: Path) -> None:
    campaign = paused(client)
    frame = pd.DataFrame({"phone": numbers(300)})
    add_fault(sandbox, path=IMPORT, method="POST", kind="outcome_unknown", count=1)
    with pytest.raises(ImportStoppedError) as caught:
        import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    stop = caught.value
    assert isinstance(stop.cause, OutcomeUnknownError)
    assert "batch 1 of 2 is unknown" in str(stop) and "under that key" in str(stop)
    keys = {line["key"] for line in journal_lines(tmp_path) if line["event"] == "sent"}
    assert keys == {stop.cause.idempotency_key}
    assert campaign_phones(client, campaign).isin(numbers(300)).sum() == 200  # ran once
    # the emulator keeps answering outcome_unknown for that key: the second answer
    # settles the batch from the campaign's leads (test_import_journal.py)
    report = import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert report.counts["imported"] == 300
    assert campaign_phones(client, campaign).isin(numbers(300)).sum() == 300


def test_an_unavailable_dnc_screen_is_waited_out(sandbox: Sandbox, client: Client,
                                                 tmp_path: Path) -> None:
    campaign = paused(client)
    add_fault(sandbox, path=IMPORT, method="POST", kind="dnc_screen_unavailable", count=2,
              retry_after=0)
    report = import_leads(client, pd.DataFrame({"phone": numbers(10)}), campaign,
                          journal=tmp_path, progress=False)
    assert report.counts["imported"] == 10


KILLED = textwrap.dedent("""
    import sys
    from dialkit import Client
    from dialkit.leads import import_leads
    with Client(sys.argv[1], base_url=sys.argv[2]) as client:
        import_leads(client, sys.argv[3], sys.argv[4], journal=sys.argv[5], progress=False)
""")


def test_an_import_killed_half_way_resumes_and_imports_each_row_once(
        sandbox: Sandbox, client: Client, tmp_path: Path,
        make_file: Callable[[int], Path]) -> None:
    campaign = paused(client)
    path = make_file(3000)
    journal = tmp_path / "journal"
    add_fault(sandbox, path=IMPORT, method="POST", kind="latency", latency_ms=150, count=1000)
    process = subprocess.Popen([sys.executable, "-c", KILLED, KEYS["full"], sandbox.base_url,
                                str(path), campaign, str(journal)])
    deadline = time.monotonic() + 60
    while sum(line["event"] == "done" for line in journal_lines(journal)) < 4:
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.02)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    lines = journal_lines(journal)
    done = sum(line["event"] == "done" for line in lines)
    assert 4 <= done < 15
    report = import_leads(client, path, campaign, journal=journal, progress=False)
    assert report.resumed == done and report.batches == 15
    assert report.counts.to_dict() == {"imported": 3000, "refused_locally": 0,
                                       "refused_by_service": 0, "not_attempted": 0}
    phones = campaign_phones(client, campaign)
    wanted = report.frame["phone_e164"]
    assert phones.isin(wanted).sum() == 3000 and not phones.duplicated().any()


@pytest.fixture
def make_file(tmp_path: Path) -> Callable[[int], Path]:
    def make(rows: int) -> Path:
        path = tmp_path / "leads.csv"
        pd.DataFrame({"Phone": numbers(rows, 1000), "Name": ["Ada"] * rows}).to_csv(
            path, index=False)
        return path
    return make
