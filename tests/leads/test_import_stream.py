"""``import_leads`` of a file read back a part at a time (#40): its plan is the cleaned
file on disk, its batches are built from parts of it, its report is written part by
part, and none of that depends on where the parts are cut.

The parts are made tiny here (a few dozen rows, where a real import reads 65,536),
so that batches of 200 leads and the file's duplicates cross them: an import stopped
half way with one cut resumes with another (the journal's keys and hashes match, so
the batches are the same), and its report is the same whichever cut writes it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import add_fault
from dialkit import Client
from dialkit._utils import _tuning
from dialkit.leads import ImportStoppedError, clean, import_leads
from dialkit.sandbox import Sandbox

IMPORT = "/v1/leads/import"
SAMPLES = Path(__file__).resolve().parents[2] / "data_samples"
MESSY = SAMPLES / "messy_us.csv"
"""3,000 rows: duplicates, extensions and second numbers, external ids, bad rows, rows
the service refuses (a blocked country): 2,740 accepted locally, 14 batches."""


def paused(client: Client) -> str:
    return next(client.campaigns.list(status="paused")).id


def cut(monkeypatch: pytest.MonkeyPatch, plan: int, chunk: int | None = None) -> None:
    """Read the plan ``plan`` rows at a time, and clean the file ``chunk`` at a time."""
    monkeypatch.setattr(_tuning, "PLAN_ROWS", plan)
    if chunk is not None:
        monkeypatch.setattr(_tuning, "CHUNK_ROWS", chunk)


def test_an_import_stopped_with_one_cut_resumes_with_another_and_reports_alike(
        sandbox: Sandbox, client: Client, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    campaign = paused(client)
    expected = clean(MESSY, client=client, campaign_id=campaign)
    # The plan cleaned in 3 chunks: test_stream holds this file cleaned in chunks of 97
    # rows to the clean in memory; here each chunk would only add its DNC check's cost.
    cut(monkeypatch, plan=97, chunk=1000)
    add_fault(sandbox, path=IMPORT, method="POST", kind="latency", latency_ms=0, count=5)
    add_fault(sandbox, path=IMPORT, method="POST", kind="error",
              code="campaign_not_importable", count=1)
    with pytest.raises(ImportStoppedError) as caught:
        import_leads(client, MESSY, campaign, journal=tmp_path, progress=False)
    stopped = caught.value.report
    assert caught.value.batch == 6 and stopped.batches == 14
    assert stopped.frame["batch"].max() == 5
    assert stopped.counts["not_attempted"] == expected.counts["accepted"] - 1000

    cut(monkeypatch, plan=1 << 16)  # read whole: the same batches, or the journal refuses
    report = import_leads(client, MESSY, campaign, journal=tmp_path, progress=False)
    assert (report.resumed, report.batches) == (5, 14)
    assert report.counts["not_attempted"] == 0
    cut(monkeypatch, plan=59)  # a third cut (parts of 13 rows: the test took 3x as long)
    again = import_leads(client, MESSY, campaign, journal=tmp_path, progress=False)
    assert again.resumed == 14
    pd.testing.assert_frame_equal(again.frame, report.frame)
    assert again.summary.equals(report.summary) and again.notes == report.notes

    frame = report.frame
    kept = [c for c in expected.frame.columns if c not in ("status", "reason", "field")]
    pd.testing.assert_frame_equal(frame[kept], expected.frame[kept])
    local = frame["outcome"] == "refused_locally"
    assert frame.loc[local, "reason"].equals(expected.frame.loc[local, "reason"])
    sent = frame[frame["batch"].notna()]
    assert sent["batch"].tolist() == (np.arange(len(sent)) // 200 + 1).tolist()
    leads = {lead.phone: str(lead.id) for lead in client.leads.list(campaign_id=campaign)}
    imported = frame[frame["outcome"] == "imported"]
    assert imported["lead_id"].tolist() == [leads[p] for p in imported["phone_e164"]]
    refused = frame[frame["outcome"] == "refused_by_service"]
    assert len(refused) > 0 and refused["lead_id"].isna().all()
    assert any("sent as custom fields" in note for note in report.notes)


def test_a_plan_whose_journal_was_never_started_is_cleaned_again(
        client: Client, tmp_path: Path) -> None:
    """A kill between the plan's rename and the journal's first line: the plan is
    unused, so it is made again, and nothing is imported twice."""
    campaign = paused(client)
    frame = pd.DataFrame({"phone": [f"+1312555{n:04d}" for n in range(250)]})
    first = import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    [folder] = list(tmp_path.iterdir())
    (folder / "journal.jsonl").unlink()
    (folder / ".plan.parquet.0123456789ab.partial").write_bytes(b"PAR1 cut short")
    again = import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert again.resumed == 0 and again.counts["imported"] == 250
    assert again.frame["lead_id"].tolist() == first.frame["lead_id"].tolist()
    assert not list(folder.glob(".*.partial"))


def test_the_report_is_written_as_csv_a_part_at_a_time(
        client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    campaign = paused(client)
    cut(monkeypatch, plan=7)
    frame = pd.DataFrame({"phone": ["+13125550100", "=1+1", "+13125550101"],
                          "name": ["=HYPERLINK(\"x\")", "Ada", None]})
    report = import_leads(client, frame, campaign, journal=tmp_path / "j", progress=False)
    report.to_csv(tmp_path / "out.csv")
    written = pd.read_csv(tmp_path / "out.csv", dtype=str, keep_default_na=False)
    assert written["name"].tolist() == ["'=HYPERLINK(\"x\")", "Ada", ""]
    assert written["outcome"].tolist() == report.frame["outcome"].tolist()
    assert written["lead_id"].tolist()[0].startswith("lead_")
