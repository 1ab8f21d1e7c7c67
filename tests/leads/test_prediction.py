"""The local verdict predicts the service's: every row of every sample file is sent to the
emulator, and its ``LeadResult`` must equal what ``clean`` said of the row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from dialkit import Client
from dialkit.contract import MAX_CUSTOM_FIELDS, MAX_IMPORT_BATCH
from dialkit.leads import CleanResult, clean

SAMPLES = Path(__file__).resolve().parents[2] / "data_samples"
BLOCKED = ["KP", "IR"]  # the emulator account's default blocked countries
FILES = {
    "messy_us.csv": {},
    "international.csv": {},
    "excel_export.xlsx": {},
    "legacy_cp1252.csv": {"region": "FR", "mapping": {"first_name": "Prénom",
                                                      "last_name": "Nom"}},
    "export_utf16.tsv": {"region": "DE"},
    "dnc_list.csv": {},
}


def sent(result: CleanResult) -> list[dict[str, Any]]:
    """Every row as an import would carry it: the E.164 number where there is one, no
    phone where the cell is empty, else the cell as written; the mapped fields; the
    custom fields, the extension and the other numbers included."""
    file, frame = result.file, result.frame
    columns = {name: file.fields[name] for name in
               ("external_id", "first_name", "last_name", "full_name", "email")
               if name in file.fields}
    leads = []
    for position in range(len(frame)):
        row = frame.iloc[position]
        lead: dict[str, Any] = {}
        if pd.notna(row["phone_e164"]):
            lead["phone"] = row["phone_e164"]
        elif row["reason"] != "missing_phone":
            lead["phone"] = row[file.fields["phone"]]
        lead.update({name: row[column] for name, column in columns.items()
                     if pd.notna(row[column])})
        custom = {name: row[name] for name in result.custom.columns() if pd.notna(row[name])}
        for name, column in ((result.extension_field, "extension"),
                             (result.alt_phone_field, "alt_phone")):
            if name is not None and pd.notna(row[column]) and len(custom) < MAX_CUSTOM_FIELDS:
                custom[name] = row[column]  # as leads() sends them: the service takes them
        if custom:
            lead["custom_fields"] = custom
        leads.append(lead)
    return leads


def expected(result: CleanResult) -> list[tuple[Any, ...]]:
    """The local verdicts, where a duplicate of a row sent in an earlier request is one
    the campaign already holds by the time it arrives (the service's own rule)."""
    frame = result.frame
    verdicts = [tuple(None if pd.isna(v) else v for v in row) for row in
                frame[["status", "reason", "field"]].astype(object).itertuples(index=False)]
    phone = frame["phone_e164"].astype(object).tolist()
    ident_column = result.file.fields.get("external_id")
    ident = frame[ident_column].astype(object).tolist() if ident_column else [None] * len(frame)
    first: dict[Any, int] = {}
    for position, verdict in enumerate(verdicts):
        if verdict[0] == "accepted":
            first.setdefault(("p", phone[position]), position)
            if pd.notna(ident[position]):
                first.setdefault(("i", ident[position]), position)
            continue
        if verdict[1] != "duplicate_in_request":
            continue
        earlier = [first[k] for k in (("p", phone[position]), ("i", ident[position]))
                   if k in first]
        if min(earlier) // MAX_IMPORT_BATCH < position // MAX_IMPORT_BATCH:
            verdicts[position] = ("duplicate", "duplicate_in_campaign", None)
    return verdicts


@pytest.mark.parametrize(("name", "options"), FILES.items(), ids=FILES)
def test_the_service_answers_every_row_as_clean_said(client: Client, name: str,
                                                     options: dict[str, Any]) -> None:
    campaign = next(client.campaigns.list(status="paused")).id
    for phone in pd.read_csv(SAMPLES / "dnc_list.csv", dtype=str)["phone"]:
        client.dnc.add(phone)
    result = clean(SAMPLES / name, client=client, campaign_id=campaign,
                   blocked_countries=BLOCKED, **options)
    assert not result.skipped
    leads = sent(result)
    answers: list[tuple[Any, ...]] = []
    for at in range(0, len(leads), MAX_IMPORT_BATCH):
        batch = client.leads.import_batch(campaign, leads[at:at + MAX_IMPORT_BATCH])
        answers += [(r.status.value, None if r.reason is None else r.reason.value, r.field)
                    for r in batch]
    want = expected(result)
    wrong = [(position + 1, leads[position], want[position], answers[position])
             for position in range(len(leads)) if want[position] != answers[position]]
    assert not wrong, wrong[:5]
    assert len({v[0] for v in answers}) >= (4 if name == "messy_us.csv" else 1)
