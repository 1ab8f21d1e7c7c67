"""``import_leads`` and a journal it cannot trust, and a batch whose outcome stays unknown.

A journal line is applied only to the batch it names (by key and content
hash); a journal that does not match its plan, a broken line or a damaged
plan is refused with how to recover. A key the service keeps answering
``outcome_unknown`` for is settled by looking for the batch's rows in the
campaign and sending the rest under a new key.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path
from typing import Any

import orjson
import pandas as pd
import pytest
from typer.testing import CliRunner

from conftest import KEYS, add_fault
from dialkit import Client
from dialkit.cli import app
from dialkit.errors import OutcomeUnknownError
from dialkit.leads import (
    ImportJournalError,
    ImportRunningError,
    ImportStoppedError,
    JournalWriteError,
    clean,
    import_leads,
)
from dialkit.sandbox import Sandbox
from receivers import wait_for

IMPORT = "/v1/leads/import"
runner = CliRunner()


def numbers(count: int, start: int = 0) -> list[str]:
    return [f"+1312555{n:04d}" for n in range(start, start + count)]


def paused(client: Client) -> str:
    return next(client.campaigns.list(status="paused")).id


def campaign_leads(client: Client, campaign: str) -> dict[str, str]:
    """Phone → lead id of the campaign's leads with the tests' numbers (not its seeded ones)."""
    return {lead.phone: str(lead.id) for lead in client.leads.list(campaign_id=campaign)
            if lead.phone.startswith("+1312555")}


def folder_of(journals: Path) -> Path:
    [folder] = list(journals.iterdir())
    return folder


def lines_of(journals: Path) -> list[dict[str, Any]]:
    raw = (folder_of(journals) / "journal.jsonl").read_bytes().splitlines()
    return [orjson.loads(line) for line in raw]


def append(journals: Path, line: bytes) -> None:
    with open(folder_of(journals) / "journal.jsonl", "ab") as out:
        out.write(line + b"\n")


def stop_after_first_batch(sandbox: Sandbox) -> None:
    """The first import request goes through, the second is refused (nothing written)."""
    add_fault(sandbox, path=IMPORT, method="POST", kind="latency", latency_ms=0, count=1)
    add_fault(sandbox, path=IMPORT, method="POST", kind="error",
              code="campaign_not_importable", count=1)


def first_batch_only(sandbox: Sandbox, client: Client, frame: pd.DataFrame, campaign: str,
                     journals: Path) -> None:
    stop_after_first_batch(sandbox)
    with pytest.raises(ImportStoppedError) as caught:
        import_leads(client, frame, campaign, journal=journals, progress=False)
    assert caught.value.batch == 2


def assert_refused(error: ImportJournalError, folder: Path, *why: str) -> None:
    message = str(error)
    assert str(folder) in message and "delete" in message and "afresh" in message
    assert "duplicate_in_campaign" in message
    for part in why:
        assert part in message


@pytest.mark.parametrize(("screen", "reason"), [
    (False, ""),  # the service replays its answer to the batch's key: accepted
    (True, "duplicate_in_campaign"),  # the local screen refuses them; found in the campaign
])
def test_a_journal_whose_plan_was_deleted_is_refused_and_starting_afresh_imports_each_row_once(
        sandbox: Sandbox, client: Client, tmp_path: Path, screen: bool, reason: str) -> None:
    campaign = paused(client)
    frame = pd.DataFrame({"phone": numbers(600)})
    first_batch_only(sandbox, client, frame, campaign, tmp_path)
    folder = folder_of(tmp_path)
    (folder / "plan.parquet").unlink()
    with pytest.raises(ImportJournalError) as caught:  # it had planned new batches
        import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert_refused(caught.value, folder, "its plan, plan.parquet, is missing")
    assert len(campaign_leads(client, campaign)) == 200  # nothing sent
    shutil.rmtree(folder)  # what the message says to do
    report = import_leads(client, frame, campaign, journal=tmp_path, progress=False,
                          screen=screen)
    assert report.counts["imported"] == 600
    leads = campaign_leads(client, campaign)
    assert sorted(leads) == numbers(600)  # each row once
    assert report.frame["lead_id"].tolist() == [leads[p] for p in numbers(600)]
    found = report.frame.iloc[:200]
    assert found["reason"].astype("string").fillna("").unique().tolist() == [reason]
    assert screen == any("200 rows" in note and "already leads" in note
                         for note in report.notes)


def test_rows_imported_before_the_journal_was_deleted_are_reported_imported(
        client: Client, tmp_path: Path) -> None:
    campaign = paused(client)
    frame = pd.DataFrame({"phone": numbers(250), "external_id": [f"v-{n}" for n in range(250)]})
    first = import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    shutil.rmtree(folder_of(tmp_path))
    again = import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert again.counts.to_dict() == {"imported": 250, "refused_locally": 0,
                                      "refused_by_service": 0, "not_attempted": 0}
    assert again.frame["lead_id"].tolist() == first.frame["lead_id"].tolist()
    assert len(campaign_leads(client, campaign)) == 250


def test_a_lead_of_the_campaign_with_another_external_id_is_not_the_rows(
        client: Client, tmp_path: Path) -> None:
    campaign = paused(client)
    phone = numbers(1)[0]
    [theirs] = client.leads.import_batch(campaign, [{"phone": phone,
                                                     "external_id": "someone-else"}])
    report = import_leads(client, pd.DataFrame({"phone": [phone], "external_id": ["mine"]}),
                          campaign, journal=tmp_path, progress=False)
    assert report.frame["outcome"].tolist() == ["refused_by_service"]  # the service's answer
    assert report.frame["reason"].tolist() == ["duplicate_in_campaign"]
    assert report.frame["lead_id"].isna().all()
    assert report.frame[["campaign_lead_id", "campaign_phone"]].values.tolist() == [
        [theirs.lead_id, phone]]  # the lead the campaign keeps, named (issue 70)


def forged_done(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """A hand-made ``done`` for the second batch, with made-up answers, as the old journal
    wrote them (the key of its ``sent`` line, no content hash)."""
    sent = next(line for line in lines if line["event"] == "sent" and line["batch"] == 1)
    results = [[n, "accepted", None, None, f"lead_00000000-0000-4000-8000-{n:012d}"]
               for n in range(200)]
    return {"event": "done", "batch": 1, "key": sent["key"], "results": results}


def out_of_range(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """A ``done`` with the batch's own key and hash, and an answer for a lead it lacks."""
    line = forged_done(lines)
    sent = next(each for each in lines if each["event"] == "sent" and each["batch"] == 1)
    return {**line, "hash": sent.get("hash"), "results": [[999, "accepted", None, None, None]]}


def another_batch(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The first batch's ``done`` line, moved to the second batch."""
    done = next(line for line in lines if line["event"] == "done")
    return {**done, "batch": 1}


def out_of_turn(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The second batch's ``sent`` line, moved back to the first batch, which is done."""
    sent = next(each for each in lines if each["event"] == "sent" and each["batch"] == 1)
    return {**sent, "batch": 0}


@pytest.mark.parametrize(("line", "why"), [
    (forged_done, "line"),
    (out_of_turn, "out of turn"),
    (out_of_range, "answer"),
    (another_batch, "does not match"),
    (lambda lines: {"event": "done"}, "line"),
    (lambda lines: {"event": "sent", "batch": "two", "key": 3}, "line"),
    (lambda lines: "not json {", "line"),
])
def test_a_forged_or_broken_journal_line_is_refused(
        sandbox: Sandbox, client: Client, tmp_path: Path, line: Any, why: str) -> None:
    campaign = paused(client)
    frame = pd.DataFrame({"phone": numbers(400)})
    first_batch_only(sandbox, client, frame, campaign, tmp_path)
    lines = lines_of(tmp_path)
    made = line(lines)
    why = f"line {len(lines) + 1}" if why == "line" else why
    append(tmp_path, made.encode() if isinstance(made, str) else orjson.dumps(made))
    with pytest.raises(ImportJournalError) as caught:
        import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert_refused(caught.value, folder_of(tmp_path), why)
    assert len(campaign_leads(client, campaign)) == 200  # nothing sent, nothing taken as done


@pytest.mark.parametrize("damage", ["truncated", "another plan"])
def test_a_damaged_plan_is_refused_with_what_to_do(client: Client, tmp_path: Path,
                                                   damage: str) -> None:
    campaign = paused(client)
    frame = pd.DataFrame({"phone": numbers(300)})
    import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    plan = folder_of(tmp_path) / "plan.parquet"
    if damage == "truncated":
        plan.write_bytes(plan.read_bytes()[:len(plan.read_bytes()) // 2])
    else:
        pd.DataFrame({"phone": numbers(3)}).to_parquet(plan)
    with pytest.raises(ImportJournalError) as caught:
        import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert_refused(caught.value, folder_of(tmp_path), "plan.parquet")


def test_a_journal_of_an_earlier_dialkit_is_refused_with_what_to_do(client: Client,
                                                                   tmp_path: Path) -> None:
    campaign = paused(client)
    frame = pd.DataFrame({"phone": numbers(300)})
    import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    path = folder_of(tmp_path) / "journal.jsonl"
    old = [{k: v for k, v in line.items() if k != "hash"} for line in lines_of(tmp_path)[1:]]
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in old))
    with pytest.raises(ImportJournalError) as caught:
        import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert_refused(caught.value, folder_of(tmp_path), "earlier dialkit")


def test_a_torn_last_line_is_dropped_and_the_journal_stays_resumable(
        client: Client, tmp_path: Path) -> None:
    campaign = paused(client)
    frame = pd.DataFrame({"phone": numbers(400)})
    import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    path = folder_of(tmp_path) / "journal.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]) + lines[-1][:40])  # a kill tore the last "done"
    again = import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert again.resumed == 1 and again.counts["imported"] == 400
    third = import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert third.resumed == 2 and third.frame.equals(again.frame)
    assert len(campaign_leads(client, campaign)) == 400


def test_a_key_answered_outcome_unknown_twice_is_settled_from_the_campaigns_leads(
        sandbox: Sandbox, client: Client, tmp_path: Path) -> None:
    campaign = paused(client)
    other = next(c.id for c in client.campaigns.list(status="draft"))
    client.leads.import_batch(other, [{"phone": numbers(1, 9000)[0], "external_id": "taken"}])
    ids = [f"v-{n}" for n in range(250)]
    ids[5] = "taken"  # the service refuses it: this client uses the id in another campaign
    cleaned = clean(pd.DataFrame({"phone": numbers(250), "external_id": ids}))  # offline
    add_fault(sandbox, path=IMPORT, method="POST", kind="outcome_unknown", count=1)
    with pytest.raises(ImportStoppedError) as caught:  # the batch ran; its answer was lost
        import_leads(client, cleaned, campaign, journal=tmp_path, progress=False)
    assert isinstance(caught.value.cause, OutcomeUnknownError)
    assert "run the same import again" in str(caught.value)
    report = import_leads(client, cleaned, campaign, journal=tmp_path, progress=False)
    assert report.counts.to_dict() == {"imported": 249, "refused_locally": 0,
                                       "refused_by_service": 1, "not_attempted": 0}
    leads = campaign_leads(client, campaign)
    assert sorted(leads) == [p for n, p in enumerate(numbers(250)) if n != 5]
    imported = report.frame[report.frame["outcome"] == "imported"]
    assert imported["lead_id"].tolist() == [leads[p] for p in imported["phone_e164"]]
    refused = report.frame.iloc[5]
    assert (refused["status"], refused["reason"], refused["field"]) == (
        "invalid", "field_rule", "external_id")
    [note] = report.notes
    assert "batch 1" in note and "outcome_unknown" in note and "199" in note
    rechecked = [line for line in lines_of(tmp_path) if line["event"] == "done"
                 and line["batch"] == 0]
    assert rechecked[0]["recheck"]["key"] != caught.value.cause.idempotency_key


KILLED = textwrap.dedent("""
    import sys
    import httpx
    from dialkit import Client
    from dialkit.leads import import_leads
    with Client.sandbox(db=sys.argv[1]) as client:
        campaign = next(client.campaigns.list(status="paused")).id
        httpx.post(client.emulator.base_url + "/_sandbox/faults",
                   headers=client.emulator.admin_headers, json={
            "path": "/v1/leads/import", "method": "POST", "kind": "latency",
            "latency_ms": 60000, "count": 1}).raise_for_status()
        print(campaign, flush=True)
        import_leads(client, sys.argv[2], campaign, journal=sys.argv[3], progress=False)
""")


def running_keys(db: Path) -> list[str]:
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        return [row[0] for row in conn.execute(
            "SELECT key FROM idempotency WHERE state = 'running'")]


def test_a_batch_killed_with_its_in_process_emulator_is_imported_once_on_the_second_rerun(
        tmp_path: Path) -> None:
    db, journals, path = tmp_path / "world.sqlite", tmp_path / "journals", tmp_path / "l.csv"
    pd.DataFrame({"Phone": numbers(250, 1000)}).to_csv(path, index=False)
    process = subprocess.Popen([sys.executable, "-c", KILLED, str(db), str(path),
                                str(journals)], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        campaign = process.stdout.readline().strip()
        wait_for(lambda: running_keys(db), timeout=30, what="the batch in flight")
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.communicate()
    with Client.sandbox(db=db) as client:  # restarted: the key answers outcome_unknown
        with pytest.raises(ImportStoppedError) as caught:
            import_leads(client, path, campaign, journal=journals, progress=False)
        assert isinstance(caught.value.cause, OutcomeUnknownError)
        report = import_leads(client, path, campaign, journal=journals, progress=False)
        assert report.counts["imported"] == 250
        leads = campaign_leads(client, campaign)
        assert sorted(set(leads) & set(numbers(250, 1000))) == numbers(250, 1000)
        assert report.frame["lead_id"].tolist() == [leads[p] for p in numbers(250, 1000)]
        [note] = report.notes
        assert "0 of its 200 rows" in note and "new key" in note


def test_a_second_import_of_the_file_while_one_runs_is_refused_and_sends_nothing(
        sandbox: Sandbox, client: Client, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    path, journals = tmp_path / "leads.csv", tmp_path / "journals"
    pd.DataFrame({"Phone": numbers(250, 3000)}).to_csv(path, index=False)
    campaign = paused(client)
    add_fault(sandbox, path=IMPORT, method="POST", kind="latency", latency_ms=3000, count=1)
    with Client(KEYS["full"], base_url=sandbox.base_url) as other, \
            ThreadPoolExecutor(1) as pool:
        first = pool.submit(import_leads, other, path, campaign, journal=journals,
                            progress=False)
        wait_for(lambda: any(b'"sent"' in lines.read_bytes()
                             for lines in journals.glob("*/journal.jsonl")),
                 timeout=30, what="the first import's first batch in flight")
        with pytest.raises(ImportRunningError) as caught:
            import_leads(client, path, campaign, journal=journals, progress=False)
        command = runner.invoke(app, ["leads", "import", str(path), "--campaign", campaign,
                                      "--journal", str(journals)])
        assert first.result().counts["imported"] == 250
    assert not isinstance(caught.value, ImportJournalError)  # whose way out deletes the folder
    assert str(folder_of(journals)) in str(caught.value)
    assert "Nothing was sent" in str(caught.value) and "run the import again" in str(caught.value)
    assert command.exit_code == 1 and "Traceback" not in command.output
    assert "error: Another import of this file into this campaign is running" in command.output
    assert [line["event"] for line in lines_of(journals)] == [
        "plan", "sent", "done", "sent", "done"]
    assert sorted(set(campaign_leads(client, campaign)) & set(numbers(250, 3000))) == numbers(
        250, 3000)
    again = import_leads(client, path, campaign, journal=journals, progress=False)
    assert again.counts["imported"] == 250 and not again.notes


def test_the_cli_refuses_a_broken_journal_with_its_message_and_prints_the_notes(
        sandbox: Sandbox, client: Client, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    path = tmp_path / "leads.csv"
    pd.DataFrame({"Phone": numbers(20)}).to_csv(path, index=False)
    journals = tmp_path / "journals"
    arguments = ["leads", "import", str(path), "--campaign", paused(client),
                 "--journal", str(journals)]
    assert runner.invoke(app, arguments).exit_code == 0
    append(journals, b'{"event":"done"}')
    refused = runner.invoke(app, arguments)
    assert refused.exit_code == 2 and "Traceback" not in refused.output
    assert "line 4 is broken" in refused.output and "delete that folder" in refused.output
    shutil.rmtree(folder_of(journals))
    again = runner.invoke(app, [*arguments, "--screen"])  # the local screen finds them
    assert again.exit_code == 0, again.output
    assert "note: 20 rows were already leads of the campaign" in again.output


FILE_LIMITED = textwrap.dedent("""
    import resource, signal, sys
    from dialkit.cli import app
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails: EFBIG
    limit = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    app(sys.argv[2:], prog_name="dialkit")
""")


def sizes(journals: Path) -> dict[str, int]:
    return {path.name: path.stat().st_size for path in folder_of(journals).iterdir()}


def test_a_journal_line_past_a_file_size_limit_stops_the_import_naming_why_and_it_resumes(
        sandbox: Sandbox, client: Client, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A real short write: the file-size limit (``ulimit -f``) falls inside a journal line,
    which the kernel writes in part, then refuses (EFBIG). Before, the torn part stayed;
    the message named neither the journal nor the cause."""
    path = tmp_path / "leads.csv"
    pd.DataFrame({"Phone": numbers(3000, 5000)}).to_csv(path, index=False)
    draft = next(c.id for c in client.campaigns.list(status="draft"))
    import_leads(client, path, draft, journal=tmp_path / "measure", progress=False)
    whole = sizes(tmp_path / "measure")  # the same import's files, written whole
    largest_other = max(whole["plan.parquet"], whole["report.parquet"])
    assert whole["journal.jsonl"] > largest_other + 20_000
    limit = (largest_other + whole["journal.jsonl"]) // 2  # only the journal passes it
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    campaign, journals = paused(client), tmp_path / "journals"
    stopped = subprocess.run(
        [sys.executable, "-c", FILE_LIMITED, str(limit), "leads", "import", str(path),
         "--campaign", campaign, "--journal", str(journals)],
        capture_output=True, text=True, timeout=120, check=False)
    folder = folder_of(journals)
    assert stopped.returncode == 1, stopped.stderr
    assert "Traceback" not in stopped.stderr
    assert (f"failed (the import journal in {folder} could not be written: file too large "
            "(the file-size limit (ulimit -f) is below the output's size: raise it"
            in stopped.stderr), stopped.stderr
    raw = (folder / "journal.jsonl").read_bytes()
    assert raw.endswith(b"\n") and len(raw) <= limit  # cut back to its last whole line
    done = sum(line["event"] == "done" for line in lines_of(journals))
    assert 1 <= done < 15
    again = import_leads(client, path, campaign, journal=journals, progress=False)
    assert again.resumed == done and again.counts["imported"] == 3000
    assert len(campaign_leads(client, campaign)) == 3000


def _journal_writes(monkeypatch: pytest.MonkeyPatch, fault: Any) -> None:
    """``os.write`` of a journal line larger than a "sent" line (a "done" line) goes
    through ``fault(descriptor, data, write)`` once; every other write as it is."""
    write, armed = os.write, [True]

    def faulty(descriptor: int, data: Any) -> int:
        if armed[0] and len(data) > 1000 and os.readlink(
                f"/proc/self/fd/{descriptor}").endswith("journal.jsonl"):
            armed[0] = False
            return int(fault(descriptor, bytes(data), write))
        return write(descriptor, data)

    monkeypatch.setattr(os, "write", faulty)


def test_a_journal_line_written_in_part_is_written_whole(
        client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``os.write`` may write less than it was given (a disk filling up, then freed):
    the rest is written, not left torn under the next line, where the next run found
    "line 3 is broken" and told to delete the folder of an import half sent."""
    _journal_writes(monkeypatch, lambda fd, data, write: write(fd, data[:len(data) // 2]))
    campaign, frame = paused(client), pd.DataFrame({"phone": numbers(400, 7000)})
    import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert [line["event"] for line in lines_of(tmp_path)] == [
        "plan", "sent", "done", "sent", "done"]
    again = import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert again.resumed == 2 and again.counts["imported"] == 400


def test_a_full_disk_stops_the_import_naming_the_journals_disk_and_it_resumes(
        client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(fd: int, data: bytes, write: Any) -> int:
        write(fd, data[:100])  # what fitted; then the disk is full
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    _journal_writes(monkeypatch, full)
    campaign, frame = paused(client), pd.DataFrame({"phone": numbers(400, 8000)})
    with pytest.raises(ImportStoppedError) as caught:
        import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    folder = folder_of(tmp_path)
    assert isinstance(caught.value.cause, OSError)
    assert caught.value.cause.errno == errno.ENOSPC
    assert (f"batch 1 of 2 failed (the import journal in {folder} could not be written: no "
            "space left on device (free space on that disk") in str(caught.value)
    assert "cannot be trusted" not in str(caught.value)
    assert [line["event"] for line in lines_of(tmp_path)] == ["plan", "sent"]
    again = import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert again.counts["imported"] == 400  # batch 1 again under its key: its stored answer
    assert len(campaign_leads(client, campaign)) == 400


def test_a_disk_too_full_for_the_report_too_still_says_why_the_journal_stopped(
        client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a full disk the report of the rows' outcomes, written when an import stops,
    fails as the journal did: the journal's error is what is raised (which disk, what to
    do), not the report's. pyarrow's writes stand in for the full disk (no test can
    fill one)."""
    import pyarrow.parquet as pq

    def full(fd: int, data: bytes, write: Any) -> int:
        monkeypatch.setattr(pq.ParquetWriter, "write_table", refused)  # from now on
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def refused(*args: Any, **kwargs: Any) -> None:
        raise OSError(errno.ENOSPC, "IOError: No space left on device")

    _journal_writes(monkeypatch, full)
    campaign, frame = paused(client), pd.DataFrame({"phone": numbers(400, 9000)})
    with pytest.raises(JournalWriteError, match="the import journal in .* could not be "
                       "written: no space left on device") as caught:
        import_leads(client, frame, campaign, journal=tmp_path, progress=False)
    assert caught.value.errno == errno.ENOSPC
    assert [line["event"] for line in lines_of(tmp_path)] == ["plan", "sent"]
