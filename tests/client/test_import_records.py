"""Leads as a notebook holds them: per-lead problems reach the service, empty cells are absent.

A lead with no phone, a blank phone or an invalid phone is answered by the
service in its own result, so the client sends it instead of refusing the
batch. The same batch sent as JSON to the same campaign of the seeded world
(reset in between) draws the same results. Records of
``DataFrame.to_dict("records")`` go as they come: NaN, ``None``, ``pd.NA`` and
``pd.NaT`` mean "absent".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import numpy as np
import orjson
import pandas as pd
import pytest

from conftest import write
from dialkit import Client
from dialkit.client import ImportResult
from dialkit.contract import LeadResult, LeadResultReason, LeadResultStatus
from dialkit.sandbox import Sandbox

from ._recording import recording
from .test_leads import campaign_in, fresh_phones

Outcome = tuple[int, str, str | None, str | None]


def outcomes(results: Any) -> list[Outcome]:
    """Index, status, reason and field of each result (lead ids differ between campaigns)."""
    return [(r["index"], r["status"], r["reason"], r["field"]) if isinstance(r, dict)
            else (r.index, r.status, r.reason, r.field) for r in results]


def service_outcomes(api: httpx.Client, campaign_id: str, leads: list[dict[str, Any]],
                     ) -> list[Outcome]:
    """What the seeded world answers for ``leads`` sent as they are to ``campaign_id``."""
    api.post("/_sandbox/reset").raise_for_status()
    answer = write(api, f"/v1/leads/import?campaign_id={campaign_id}", {"leads": leads})
    assert answer.status_code == 200, answer.text
    return outcomes(answer.json()["data"])


def test_per_lead_problems_get_their_own_results(client: Client, sandbox: Sandbox,
                                                 api: httpx.Client) -> None:
    first, second = fresh_phones(sandbox, 2)
    leads: list[dict[str, Any]] = [
        {"phone": first, "full_name": "Ada Lovelace"},
        {"full_name": "No Phone"},
        {"phone": "  "},
        {"phone": None},
        {"phone": "415-555-0123"},
        {"phone": 4155550123},
        {"phone": second, "email": "not-an-email"},
        {"phone": second, "custom_fields": {"tier": ["gold"]}},
    ]
    draft = campaign_in(client, "draft")
    result = client.leads.import_batch(draft, leads)
    assert outcomes(result) == [
        (0, "accepted", None, None),
        (1, "invalid", "missing_phone", None),
        (2, "invalid", "missing_phone", None),
        (3, "invalid", "missing_phone", None),
        (4, "invalid", "invalid_phone", None),
        (5, "invalid", "invalid_phone", None),
        (6, "invalid", "field_rule", "email"),
        (7, "invalid", "field_rule", "custom_fields.tier"),
    ]
    assert outcomes(result) == service_outcomes(api, draft, leads)


def test_create_answers_a_lead_without_a_phone(client: Client) -> None:
    created = client.leads.create(campaign_id=campaign_in(client, "draft"), phone="",
                                  full_name="No Phone")
    assert (created.status, created.reason, created.lead_id) == ("invalid", "missing_phone", None)


def frame(phones: list[str]) -> pd.DataFrame:
    """A lead list as read from a spreadsheet: empty cells of every kind."""
    return pd.DataFrame({
        "phone": [phones[0], phones[1], None, phones[2]],
        "first_name": ["Ada", np.nan, "Alan", pd.NA],
        "email": [np.nan, "grace@example.com", None, "not-an-email"],
        "external_id": pd.array(["crm-1", pd.NA, "crm-3", "crm-4"], dtype="string"),
        "custom_fields": [{"tier": "gold", "score": np.nan}, np.nan, None, {"tier": pd.NaT}],
    })


def test_dataframe_records_import_as_they_come(client: Client, sandbox: Sandbox,
                                               client_as: Callable[..., Client],
                                               api: httpx.Client) -> None:
    phones = fresh_phones(sandbox, 3)
    records = frame(phones).to_dict("records")
    draft = campaign_in(client, "draft")
    importer, recorder = recording(client_as)
    result = importer.leads.import_batch(draft, records)
    assert outcomes(result) == [
        (0, "accepted", None, None),
        (1, "accepted", None, None),
        (2, "invalid", "missing_phone", None),
        (3, "invalid", "field_rule", "email"),
    ]
    absent: list[dict[str, Any]] = [
        {"phone": phones[0], "first_name": "Ada", "external_id": "crm-1",
         "custom_fields": {"tier": "gold"}},
        {"phone": phones[1], "email": "grace@example.com"},
        {"first_name": "Alan", "external_id": "crm-3"},
        {"phone": phones[2], "email": "not-an-email", "external_id": "crm-4",
         "custom_fields": {}},
    ]
    assert orjson.loads(recorder.requests[0].content) == {"leads": absent}
    first, second = (client.leads.get(str(r.lead_id)) for r in result.data[:2])
    assert (first.full_name, first.email, first.external_id, first.custom_fields) == (
        "Ada", None, "crm-1", {"tier": "gold"})
    assert (second.full_name, second.email, second.external_id, second.custom_fields) == (
        None, "grace@example.com", None, None)
    assert outcomes(result) == service_outcomes(api, draft, absent)


@pytest.mark.parametrize(("empty", "fields"), [
    ({"email": np.nan, "first_name": pd.NA, "source": None}, {}),
    ({"phone": np.nan}, {"status": "invalid", "reason": "missing_phone"}),
], ids=["optional fields", "the phone"])
def test_create_takes_a_record_with_empty_cells(client: Client, sandbox: Sandbox,
                                                empty: dict[str, Any],
                                                fields: dict[str, str]) -> None:
    record = {"phone": fresh_phones(sandbox, 1)[0], "full_name": "Ada Lovelace", **empty}
    created = client.leads.create(campaign_id=campaign_in(client, "draft"), **record)
    expected = {"status": "accepted", "reason": None, **fields}
    assert (created.status, created.reason) == (expected["status"], expected["reason"])
    if created.lead_id is not None:
        lead = client.leads.get(created.lead_id)
        assert (lead.full_name, lead.email) == ("Ada Lovelace", None)


def test_update_leaves_a_field_with_an_empty_cell_as_it_is(client: Client,
                                                           sandbox: Sandbox) -> None:
    created = client.leads.create(
        campaign_id=campaign_in(client, "draft"), phone=fresh_phones(sandbox, 1)[0],
        full_name="Ada", email="ada@example.com", custom_fields={"tier": "gold", "plan": "x"})
    assert created.lead_id is not None
    lead = client.leads.update(created.lead_id, full_name=None, email=np.nan,
                               custom_fields={"tier": pd.NA, "plan": None, "score": 3})
    assert (lead.full_name, lead.email, lead.custom_fields) == (
        None, "ada@example.com", {"tier": "gold", "score": 3})


# The answer: .data, iteration, a DataFrame. ----------------------------------------------------

def test_the_import_answer_iterates_and_makes_a_typed_frame(client: Client,
                                                           sandbox: Sandbox) -> None:
    phone = fresh_phones(sandbox, 1)[0]
    result = client.leads.import_batch(campaign_in(client, "draft"), [
        {"phone": phone, "external_id": "crm-1"}, {"phone": "12"}, {"phone": phone}])
    assert isinstance(result, ImportResult)
    assert list(result) == result.data and len(result) == 3
    assert all(isinstance(item, LeadResult) for item in result)
    frame = result.to_frame()
    assert list(frame.columns) == ["index", "status", "reason", "field", "lead_id",
                                   "external_id"]
    assert set(frame.columns) == set(LeadResult.model_fields)
    assert frame.index.equals(pd.RangeIndex(3))
    assert {name: str(dtype) for name, dtype in frame.dtypes.items()} == {
        "index": "Int64", "external_id": "string", "status": "category",
        "reason": "category", "field": "string", "lead_id": "string"}
    assert frame["external_id"].dtype == pd.StringDtype("pyarrow")
    assert list(frame["status"].cat.categories) == [s.value for s in LeadResultStatus]
    assert list(frame["reason"].cat.categories) == [r.value for r in LeadResultReason]
    assert frame.astype(object).where(frame.notna(), None).to_dict("records") == [
        result.data[n].model_dump(mode="json") for n in range(3)]
    assert frame["status"].tolist() == ["accepted", "invalid", "duplicate"]


def test_the_import_answer_is_still_a_model(client: Client, sandbox: Sandbox) -> None:
    result = client.leads.import_batch(campaign_in(client, "draft"),
                                       [{"phone": fresh_phones(sandbox, 1)[0]}])
    dumped = result.model_dump(mode="json")
    assert set(dumped) == {"campaign_id", "data", "summary"}
    assert ImportResult.model_validate(dumped).data == result.data
    assert repr(result).startswith("ImportResult(campaign_id=")
    assert result.request_id is not None and not result.replayed
