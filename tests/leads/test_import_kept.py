"""``import_leads`` names the lead the campaign keeps for a row refused as
``duplicate_in_campaign`` (issue 70): the lead with the row's number, else the lead
with its external id (a number corrected since: a lead's phone never changes), in the
report's ``campaign_lead_id`` and ``campaign_phone`` and in a note; kept in the journal,
so a rerun answers the same without listing the campaign again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pandas as pd
import pytest
from typer.testing import CliRunner

from conftest import KEYS, add_fault, advance, base_config, reset
from dialkit import Client
from dialkit.cli import app
from dialkit.leads import ImportStoppedError, import_leads
from dialkit.leads._import import _recheck
from dialkit.sandbox import Sandbox

LEADS = "/v1/leads"
runner = CliRunner()


def number(n: int) -> str:
    return f"+1312555{n:04d}"


def paused(client: Client) -> str:
    return next(client.campaigns.list(status="paused")).id


def leads_by_external_id(client: Client, campaign: str) -> dict[str, tuple[str, str]]:
    """External id → (lead id, phone) of the campaign's leads, as the service lists them."""
    return {lead.external_id: (str(lead.id), lead.phone)
            for lead in client.leads.list(campaign_id=campaign)
            if lead.external_id is not None and lead.external_id.startswith("v-")}


FIRST = pd.DataFrame({"phone": [number(0), number(1), number(2)],
                      "external_id": ["v-0", "v-1", "v-2"]})
AGAIN = pd.DataFrame({  # the vendor's file again, a month on
    "phone": [number(0),  # unchanged: the row's own lead, imported
              number(11),  # v-1's number corrected: the campaign keeps v-1 with number(1)
              number(2),  # a new id with v-2's number: the campaign keeps v-2
              number(13)],  # new: imported
    "external_id": ["v-0", "v-1", "v-3", "v-4"]})


def kept(report: Any) -> list[list[Any]]:
    frame = report.frame[["outcome", "campaign_lead_id", "campaign_phone"]].astype(object)
    return frame.where(frame.notna(), None).values.tolist()


def found_lines(folder: Path) -> list[dict[str, Any]]:
    lines = [orjson.loads(raw) for path in folder.glob("*/journal.jsonl")
             for raw in path.read_bytes().splitlines()]
    return [line for line in lines if line["event"] == "found"]


def test_a_row_refused_as_a_duplicate_names_the_lead_the_campaign_keeps(
        sandbox: Sandbox, client: Client, tmp_path: Path) -> None:
    campaign = paused(client)
    import_leads(client, FIRST, campaign, journal=tmp_path / "first", progress=False)
    before = leads_by_external_id(client, campaign)
    report = import_leads(client, AGAIN, campaign, journal=tmp_path, progress=False)
    after = leads_by_external_id(client, campaign)
    assert kept(report) == [
        ["imported", None, None],
        ["refused_by_service", *before["v-1"]],
        ["refused_by_service", *before["v-2"]],
        ["imported", None, None]]
    assert before["v-1"][1] == number(1) and before["v-2"][1] == number(2)
    assert report.frame["lead_id"].iloc[[0, 3]].tolist() == [after["v-0"][0], after["v-4"][0]]
    [note] = [note for note in report.notes if "keeps another lead" in note]
    assert note.startswith("2 rows were refused as duplicate_in_campaign: the campaign keeps "
                           "another lead for each (report columns campaign_lead_id, "
                           "campaign_phone): 1 by the row's external id, with another number")
    assert "import it as a new lead without that external id" in note
    assert "1 with the row's number" in note
    assert not any("names no lead" in note for note in report.notes)
    assert [len(line["kept"]) for line in found_lines(tmp_path)] == [2]
    # a rerun answers from its journal: it does not list the campaign's leads again
    add_fault(sandbox, path=LEADS, method="GET", kind="error", status=403,
              code="insufficient_scope", count=1)
    again = import_leads(client, AGAIN, campaign, journal=tmp_path, progress=False)
    assert again.frame.equals(report.frame) and again.notes == report.notes
    assert len(found_lines(tmp_path)) == 1


def test_a_journal_of_an_earlier_dialkit_looks_up_the_kept_leads_once(
        client: Client, tmp_path: Path) -> None:
    """A ``found`` line without ``kept`` (written before issue 70) keeps the leads it
    found, and the next run looks up the rows it did not find, once."""
    campaign = paused(client)
    import_leads(client, FIRST, campaign, journal=tmp_path / "first", progress=False)
    three = AGAIN.iloc[:3]  # v-0 found (its own lead); v-1, v-3 refused
    report = import_leads(client, three, campaign, journal=tmp_path, progress=False)
    path = next(tmp_path.glob("*/journal.jsonl"))
    lines = [orjson.loads(raw) for raw in path.read_bytes().splitlines()]
    [found] = [line for line in lines if line["event"] == "found"]
    older = [line if line is not found else {k: v for k, v in found.items() if k != "kept"}
             for line in lines]
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in older))
    again = import_leads(client, three, campaign, journal=tmp_path, progress=False)
    assert again.frame.equals(report.frame) and again.notes == report.notes
    [_, upgraded] = found_lines(tmp_path)
    assert upgraded["rows"] == found["rows"] and upgraded["kept"] == found["kept"]
    third = import_leads(client, three, campaign, journal=tmp_path, progress=False)
    assert third.frame.equals(report.frame) and len(found_lines(tmp_path)) == 2


OTHER_LIVE = "svc_live_otherliv01_AAAAbbbbCCCCddddEEEEffff0010"


@pytest.mark.parametrize("asked", [100, 1])
def test_the_lead_of_this_api_client_is_named_where_another_clients_has_the_id(
        make_sandbox: Callable[..., Sandbox], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        asked: int) -> None:
    """The list shows every API client's external ids without saying whose (live keys
    share the account's data set): of two leads with the row's id, the one this client's
    own filter lists is named, whichever the list shows first (the other client's lead
    is older for v-1, newer for v-5); each id is asked for once, up to a limit, past
    which no lead is named and a note says so."""
    monkeypatch.setattr(_recheck, "MAX_ID_LOOKUPS", asked)
    config = base_config()
    config["accounts"][0]["clients"][1]["keys"].append({"key": OTHER_LIVE})
    running = make_sandbox(config)
    with Client(KEYS["full_live"], base_url=running.base_url, rate_limit=None) as client, \
            Client(OTHER_LIVE, base_url=running.base_url, rate_limit=None) as other:
        campaign = paused(client)
        other.leads.import_batch(campaign, [{"phone": number(9), "external_id": "v-1"}])
        advance(running, 60)
        mine = [*client.leads.import_batch(campaign, [
            {"phone": number(1), "external_id": "v-1"},
            {"phone": number(5), "external_id": "v-5"}])]
        advance(running, 60)
        other.leads.import_batch(campaign, [{"phone": number(8), "external_id": "v-5"}])
        listed = [lead.external_id for lead in client.leads.list(campaign_id=campaign)]
        assert listed.count("v-1") == listed.count("v-5") == 2  # whose, the list does not say
        report = import_leads(client, pd.DataFrame({"phone": [number(11), number(15)],
                                                    "external_id": ["v-1", "v-5"]}),
                              campaign, journal=tmp_path, progress=False)
    second = [str(mine[1].lead_id), number(5)] if asked > 1 else [None, None]
    assert kept(report) == [["refused_by_service", str(mine[0].lead_id), number(1)],
                            ["refused_by_service", *second]]
    assert (asked == 1) == any("share the external id past 1 asked for" in note
                               for note in report.notes)


def test_a_row_whose_number_and_id_are_both_held_names_the_lead_with_its_number(
        client: Client, tmp_path: Path) -> None:
    """The service refuses the row for its number first: no other external id, and no
    corrected id, would let that number in."""
    campaign = paused(client)
    import_leads(client, FIRST, campaign, journal=tmp_path / "first", progress=False)
    leads = leads_by_external_id(client, campaign)
    report = import_leads(client, pd.DataFrame({"phone": [number(2)], "external_id": ["v-1"]}),
                          campaign, journal=tmp_path, progress=False)
    assert kept(report) == [["refused_by_service", *leads["v-2"]]]
    assert "1 row was refused as duplicate_in_campaign" in " ".join(report.notes)


def test_a_kept_lead_not_found_is_said_not_left_blank(
        sandbox: Sandbox, client: Client, tmp_path: Path) -> None:
    campaign = paused(client)
    import_leads(client, FIRST, campaign, journal=tmp_path / "first", progress=False)
    add_fault(sandbox, path=LEADS, method="GET", kind="error", status=403,
              code="insufficient_scope", count=1)
    with pytest.raises(ImportStoppedError) as caught:  # answered, then not looked up
        import_leads(client, AGAIN, campaign, journal=tmp_path, progress=False)
    assert "could not be listed" in str(caught.value)
    reset(sandbox)  # the campaign's leads gone since the service answered
    assert paused(client) == campaign
    report = import_leads(client, AGAIN, campaign, journal=tmp_path, progress=False)
    assert kept(report) == [["refused_by_service", None, None]] * 3 + [["imported", None, None]]
    assert "3 rows refused as duplicate_in_campaign name no lead in campaign_lead_id" in (
        " ".join(report.notes))
    assert not any("keeps another lead" in note for note in report.notes)


def test_the_cli_prints_the_kept_leads_note_and_writes_their_columns(
        sandbox: Sandbox, client: Client, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIALKIT_API_KEY", KEYS["full"])
    monkeypatch.setenv("DIALKIT_BASE_URL", sandbox.base_url)
    campaign = paused(client)
    for name, frame in (("first.csv", FIRST), ("again.csv", AGAIN)):
        frame.to_csv(tmp_path / name, index=False)
        result = runner.invoke(app, ["leads", "import", str(tmp_path / name), "--campaign",
                                     campaign, "--journal", str(tmp_path / "journals"),
                                     "--out", str(tmp_path / f"outcome-{name}")])
        assert result.exit_code == 0, result.output
    leads = leads_by_external_id(client, campaign)
    assert ("note: 2 rows were refused as duplicate_in_campaign: the campaign keeps another "
            "lead for each (report columns campaign_lead_id, campaign_phone)") in result.output
    written = pd.read_csv(tmp_path / "outcome-again.csv", dtype=str, keep_default_na=False)
    assert written[["campaign_lead_id", "campaign_phone"]].values.tolist() == [
        ["", ""], list(leads["v-1"]), list(leads["v-2"]), ["", ""]]
