"""What a new user meets first: local checks in plain words, records from a DataFrame,
the import's results as a frame, and a closed client.

Each test starts from what the user did (a local number to the DNC check, a
DataFrame with empty cells to the importer) and holds the client's answer to
the service's: a lead the service judges one by one is sent, and only a
request the service would refuse whole is refused locally.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

import httpx
import numpy as np
import pandas as pd
import pydantic
import pytest

from dialkit import Client
from dialkit.errors import ClientClosedError, InvalidArgumentError
from dialkit.sandbox import Sandbox, parse_config

from ._recording import recording

ClientAs = Callable[..., Client]
LONDON = "+44207946{:04d}"


def paused_campaign(client: Client) -> str:
    return next(client.campaigns.list(status="paused")).id


# 1. Local validation speaks the service's language, not pydantic's. -----------------------------

def test_a_local_number_to_the_dnc_check_says_what_to_pass(client_as: ClientAs) -> None:
    client, wire = recording(client_as)
    with pytest.raises(InvalidArgumentError) as caught:
        client.dnc.check(["415-555-0123"])
    error = caught.value
    assert isinstance(error, ValueError) and not isinstance(error, pydantic.ValidationError)
    assert str(error).startswith("phones[0] '415-555-0123' is not E.164 (pass +14155550123")
    assert [(e.pointer, e.code) for e in error.errors] == [("/phones/0", "invalid_format")]
    assert wire.requests == []


@pytest.mark.parametrize(("call", "pointer", "named"), [
    (lambda c: c.webhooks.create(url="https://hooks.example.com/in", events=["call.nope"]),
     "/events/0", "events[0] 'call.nope'"),
    (lambda c: c.sms.send(to="+12125550142", body="x" * 919, client_reference="r1"), "/body",
     "body 'xxxx"),
    (lambda c: c.calls.create(to="0207 946 0000", agent_extension="1001"), "/to",
     "to '0207 946 0000' is not E.164"),
], ids=["webhook event", "sms body", "click-to-call number"])
def test_every_method_refuses_through_the_one_mapping(client_as: ClientAs, call: Any,
                                                      pointer: str, named: str) -> None:
    client, wire = recording(client_as)
    with pytest.raises(InvalidArgumentError) as caught:
        call(client)
    assert [e.pointer for e in caught.value.errors] == [pointer]
    assert str(caught.value).startswith(named)
    assert wire.requests == []


def test_a_key_passed_by_mistake_is_not_repeated_in_the_message(client_as: ClientAs) -> None:
    client, _ = recording(client_as)
    key = "svc_live_abcd1234_" + "S" * 32
    with pytest.raises(InvalidArgumentError) as caught:
        client.dnc.check([key])
    assert key not in str(caught.value) and "S" * 8 not in str(caught.value)


# 2. Records from a DataFrame go as they come; per-lead problems are the service's. -------------

def records() -> list[dict[str, Any]]:
    """A lead file as pandas reads it: empty cells are NaN, None, pd.NA or NaT."""
    frame = pd.DataFrame({
        "phone": [LONDON.format(401), "", None, "not a phone", LONDON.format(402)],
        "full_name": ["Ada", "Blank Phone", "No Phone", "Bad Phone", np.nan],
        "email": ["ada@example.com", np.nan, None, pd.NA, "x@example.org"],
        "custom_fields": [{"seen": pd.Timestamp("2026-11-01T10:00Z"), "note": np.nan}, None,
                          None, None, {"tier": "gold"}],
    })
    return frame.to_dict("records")


def test_dataframe_records_import_with_per_lead_results(sandbox: Sandbox,
                                                        client_as: ClientAs) -> None:
    client, wire = recording(client_as)
    campaign = paused_campaign(client)
    result = client.leads.import_batch(campaign, records())

    assert [(r.status, r.reason) for r in result] == [
        ("accepted", None), ("invalid", "missing_phone"), ("invalid", "missing_phone"),
        ("invalid", "invalid_phone"), ("accepted", None)]
    sent = wire.requests[-1].read()
    assert b"NaN" not in sent and b"null" not in sent  # missing values are not sent at all
    assert b'"seen":"2026-11-01T10:00:00+00:00"' in sent
    ada = client.leads.get(result.data[0].lead_id or "")
    assert (ada.email, ada.custom_fields) == ("ada@example.com",
                                              {"seen": "2026-11-01T10:00:00+00:00"})


def test_the_local_verdict_is_the_services(sandbox: Sandbox, client_as: ClientAs) -> None:
    """The same leads sent raw, without the client, get the same results."""
    client, _ = recording(client_as)
    campaign = paused_campaign(client)
    leads = [{"phone": LONDON.format(411 + n), "full_name": name} for n, name in
             enumerate(["A", "B"])] + [{"full_name": "No phone"}, {"phone": "  "},
                                       {"phone": 4155550123}, {"phone": LONDON.format(420),
                                                               "email": "not an email"}]
    ours = client.leads.import_batch(campaign, leads)
    raw = httpx.post(f"{sandbox.base_url}/v1/leads/import", params={"campaign_id": campaign},
                     json={"leads": [{**lead, "full_name": f"raw {n}"} for n, lead in
                                     enumerate(leads)]},
                     headers={"Authorization": f"Bearer {sandbox.keys['acme/full/test']}",
                              "Idempotency-Key": "raw-import-1"}).json()
    theirs = [(r["status"], r["reason"]) for r in raw["data"]]
    assert [(r.status, r.reason) for r in ours][2:] == theirs[2:]
    assert [status for status, _ in theirs[:2]] == ["duplicate", "duplicate"]
    assert [r.status for r in ours][:2] == ["accepted", "accepted"]


def test_a_single_add_with_a_blank_phone_is_the_services_answer(client_as: ClientAs) -> None:
    client, _ = recording(client_as)
    created = client.leads.create(campaign_id=paused_campaign(client), phone="",
                                  full_name="Blank", email=float("nan"))  # type: ignore[arg-type]
    assert (created.status, created.reason) == ("invalid", "missing_phone")


@pytest.mark.parametrize(("leads", "pointers", "message"), [
    ([{"phone": LONDON.format(430), "notes": "call after 5"}], ["/leads/0/notes"],
     "leads[0] has an unknown field 'notes'"),
    ([{"phone": LONDON.format(431)}, "+442079460432"], ["/leads/1"],
     "leads[1] '+442079460432' must be a dict of fields, not str"),
    ([{"phone": LONDON.format(433), "custom_fields": {"at": object()}}],
     ["/leads/0/custom_fields/at"], "leads[0].custom_fields.at is of type object"),
    ([], ["/leads"], "leads []: list should have at least 1 item"),
    ([{"phone": LONDON.format(n)} for n in range(201)], [], "leads holds 201 leads"),
    ("+442079460434", ["/leads"], "leads is a str: pass a list of leads"),
], ids=["extra column", "not a dict", "not JSON", "empty", "too many", "a string"])
def test_only_the_shape_of_a_batch_is_refused_locally(client_as: ClientAs, leads: Any,
                                                      pointers: list[str], message: str) -> None:
    client, wire = recording(client_as)
    campaign = paused_campaign(client)
    sent_before = len(wire.requests)
    with pytest.raises(InvalidArgumentError, match=re.escape(message)) as caught:
        client.leads.import_batch(campaign, leads)
    assert [e.pointer for e in caught.value.errors] == pointers
    assert len(wire.requests) == sent_before


# 5. The import's results: named, iterable, a DataFrame. ----------------------------------------

def test_the_import_result_is_iterable_and_a_typed_frame(client_as: ClientAs) -> None:
    client, _ = recording(client_as)
    result = client.leads.import_batch(paused_campaign(client), records())
    assert list(result) == result.data and len(result) == 5
    frame = result.to_frame()
    assert list(frame.columns) == ["index", "status", "reason", "field", "lead_id",
                                   "external_id"]
    assert frame["index"].tolist() == [0, 1, 2, 3, 4]
    assert str(frame["index"].dtype) == "Int64"
    assert isinstance(frame["status"].dtype, pd.CategoricalDtype)
    assert "duplicate_in_campaign" in frame["reason"].cat.categories
    assert frame["status"].tolist() == [r.status.value for r in result]
    assert frame["lead_id"].isna().tolist() == [r.lead_id is None for r in result]


# 7. A closed client says so. -------------------------------------------------------------------

def test_a_call_on_a_closed_client_raises_client_closed(client_as: ClientAs) -> None:
    client, wire = recording(client_as)
    client.close()
    with pytest.raises(ClientClosedError, match="create a new dialkit.Client"):
        client.me()
    with pytest.raises(RuntimeError):
        list(client.campaigns.list())
    assert wire.requests == []


# 4. Key labels: the documented forms work, an unknown one lists those there are. ---------------

ONE_CLIENT = {"accounts": [{"name": "acme", "scale": "small", "clients": [
    {"name": "analytics", "scopes": ["leads:read", "calls:read"],
     "keys": [{"key": "svc_test_k7f3a9c2_Zx81mQ4vTn0pLs92RbWc6yHd"},
              {"key": "svc_test_k7f3a9c3_Zx81mQ4vTn0pLs92RbWc6yHe"}]}]}]}


@pytest.mark.parametrize(("label", "key"), [
    ("acme/analytics/test", "svc_test_k7f3a9c2_Zx81mQ4vTn0pLs92RbWc6yHd"),
    ("test", "svc_test_k7f3a9c2_Zx81mQ4vTn0pLs92RbWc6yHd"),
    ("acme/analytics/test#2", "svc_test_k7f3a9c3_Zx81mQ4vTn0pLs92RbWc6yHe"),
    ("test#2", "svc_test_k7f3a9c3_Zx81mQ4vTn0pLs92RbWc6yHe"),
])
def test_a_documented_key_label_picks_its_key(label: str, key: str) -> None:
    with Client.sandbox(parse_config(ONE_CLIENT), key=label) as client:
        assert client.credential_id == key.split("_")[2]
        assert client.me()["client"]["name"] == "analytics"


def test_an_unknown_key_label_lists_the_labels_there_are() -> None:
    before = threading.active_count()
    with pytest.raises(ValueError, match="no key labelled 'acme/analyst/test'") as caught:
        Client.sandbox(parse_config(ONE_CLIENT), key="acme/analyst/test")
    assert "acme/analytics/test, acme/analytics/test#2, test, test#2" in str(caught.value)
    assert threading.active_count() <= before  # the emulator it started was stopped


# 5. A pinned world: the same start time gives the same world, so notebooks repeat. ---------


def test_the_same_start_time_gives_the_same_world() -> None:
    worlds = []
    for _ in range(2):
        with Client.sandbox(start_time="2026-11-02T15:00:00Z") as client:
            worlds.append([(c.id, c.created_at, c.disposition)
                           for c in next(client.calls.list(limit=100).pages()).data])
    assert worlds[0] == worlds[1] and len(worlds[0]) == 100
    assert str(worlds[0][0][1]) < "2026-11-02T15:00:00+00:00"


@pytest.mark.parametrize(("options", "message"), [
    ({"start_time": "2026-11-02"}, "has no time zone"),
    ({"start_time": "yesterday"}, "is not ISO 8601"),
    ({"start_time": "2026-11-02T15:00:00Z", "config": parse_config(ONE_CLIENT)},
     r"set \[server\] start_time in it"),
])
def test_a_start_time_it_cannot_use_is_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Client.sandbox(**options)
