"""The account's texts are audited as the calls they are in law (issue 61, item 12).

Over real HTTP on the session emulator, whose manual clock stands at Monday 2026-11-02
15:00 UTC (10:00 in New York and Miami): texts sent with the sending key (the guard
overridden where the law forbids them) and read back by ``load`` with the ``full`` key.
The emulator refuses any text outside 08:00-21:00 local and to a listed number, as the
service does, so a text at 22:15 or to a listed number can only be one the account's
records already hold (another platform's, or from before the checks): such a record is
written into the emulator's store as its world writes its recent texts.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import KEYS, START, advance
from dialkit import Client
from dialkit.compliance import AuditInputError, AuditReport, audit, load, next_allowed
from dialkit.sandbox import Sandbox

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import bench_audit  # noqa: E402

FLORIDA = "+13055550142"
"""Miami (Eastern time): Florida's law allows calls until 20:00 (Fla. Stat. 501.616(6)(a)),
the federal rule and the emulator until 21:00."""
NEW_YORK = "+12125550142"
REASON = "the customer asked for the confirmation by text tonight"
NOW = datetime.fromisoformat(START)
DATA_SET = "client:acme/full"


@pytest.fixture
def sender(sandbox: Sandbox) -> Iterator[Client]:
    """A client with the sending key (the ``full`` client's, whose data set it texts in)."""
    with Client(KEYS["sending"], base_url=sandbox.base_url, rate_limit=None) as made:
        yield made


def recorded_text(sandbox: Sandbox, to: str, at: datetime, reference: str) -> str:
    """A text the account's records hold, sent ``at``, written into the store as the
    emulator's world writes its texts: its message id."""
    message_id = f"msg_{reference:0>8}-0000-4000-8000-000000000000"
    stamp = at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    with sandbox.service.store.transaction() as conn:
        conn.execute("INSERT INTO sms (dataset, id, credential_id, to_number, body, status, "
                     "client_reference, segments, cost, created_at, updated_at) VALUES "
                     "(?, ?, 'world', ?, 'Offer ends tonight', 'queued', ?, 1, 0.0079, ?, ?)",
                     (DATA_SET, message_id, to, reference, stamp, stamp))
    return message_id


def textable(client: Client, leads: pd.DataFrame) -> pd.Series:
    """A lead of one campaign whose number is neither listed nor outside its hours now."""
    one = leads[leads["phone"].str.startswith("+1")].drop_duplicates("phone", keep=False)
    some = one.head(60)
    listed = {r.phone for r in client.dnc.check(some["phone"].tolist()) if r.listed}
    allowed = next_allowed(some["phone"].tolist(), pd.Timestamp(NOW))["allowed"].to_numpy()
    return some[allowed & ~some["phone"].isin(listed).to_numpy()].iloc[0]


def of(report: AuditReport, contact: str) -> pd.DataFrame:
    """The findings of one call or text."""
    return report.findings[report.findings["call_id"] == contact]


def test_a_text_after_the_state_s_hours_is_a_finding_of_a_text(
        sandbox: Sandbox, client: Client, sender: Client) -> None:
    advance(sandbox, 10.5 * 3600)  # 20:30 in Miami: the emulator and the federal rule allow
    sent = sender.sms.send(to=FLORIDA, body="Your quote is ready.",
                           client_reference="fl-night", override=REASON)
    report = audit(**load(client))
    [found] = of(report, sent.id).itertuples()
    assert (found.rule, found.channel, found.jurisdiction, found.phone) == (
        "calling_hours", "text", "US-FL", FLORIDA)
    assert found.local_time == "2026-11-02 20:30:00" and "a text message" in found.evidence
    assert report.texts_audited == 1 and "1 text audited" in report.notes["texts"]
    assert set(report.findings.loc[report.findings["call_id"].notna(), "channel"]) <= {
        "call", "text"}
    assert (report.findings.loc[report.findings["channel"] == "text", "call_id"]
            == sent.id).all()


def test_a_text_at_22_15_is_a_finding_of_the_federal_rule(sandbox: Sandbox,
                                                          client: Client) -> None:
    late = recorded_text(sandbox, NEW_YORK, NOW + timedelta(hours=12, minutes=15), "1")
    report = audit(**load(client))
    [found] = of(report, late).itertuples()
    assert (found.rule, found.channel, found.local_time) == (
        "calling_hours", "text", "2026-11-02 22:15:00")
    assert "47 CFR 64.1200(c)(1)" in found.evidence and "64.1200(e)" in found.evidence
    totals = report.totals
    assert totals.loc["calling_hours", "unit"] == "calls and texts"
    assert totals.loc["calling_hours", "audited"] == report.calls_audited + 1
    assert not report.passed["calling_hours"]


def test_a_lawful_text_is_no_finding(client: Client, sender: Client) -> None:
    sent = sender.sms.send(to=NEW_YORK, body="Your table is ready.", client_reference="ok")
    report = audit(**load(client))
    assert of(report, sent.id).empty
    assert report.texts_audited == 1


def test_a_text_to_a_listed_number_is_a_dnc_finding_and_one_before_its_listing_is_not(
        sandbox: Sandbox, client: Client, sender: Client) -> None:
    before = sender.sms.send(to=NEW_YORK, body="Your table is ready.", client_reference="b")
    advance(sandbox, 600)
    client.dnc.add(NEW_YORK)
    advance(sandbox, 600)
    after = recorded_text(sandbox, NEW_YORK, NOW + timedelta(minutes=30), "2")
    report = audit(**load(client))
    assert of(report, before.id).empty
    [found] = of(report, after).itertuples()
    assert (found.rule, found.channel, found.phone) == ("dnc_call", "text", NEW_YORK)


@pytest.mark.parametrize(("options", "kept", "reported"), [
    ({}, True, True), ({"until": "2026-11-03"}, True, True),
    ({"since": "2026-11-03"}, True, False),
    ({"campaign_id": "leads' campaign"}, True, True), ({"campaign_id": "another"}, False, False),
], ids=["all", "until after it", "since after it", "its lead's campaign", "another campaign"])
def test_load_gives_the_texts_as_it_gives_the_calls(
        client: Client, sender: Client, options: dict[str, str], kept: bool,
        reported: bool) -> None:
    """Every text of the campaigns, as every call: a period is the audit's to report, the
    texts before it being history its caps count (issue 61)."""
    leads = client.frames.leads()
    lead = textable(client, leads)
    other = leads.loc[leads["campaign_id"] != lead["campaign_id"], "campaign_id"].iloc[0]
    named = {"leads' campaign": lead["campaign_id"], "another": other}
    if "campaign_id" in options:
        options = {"campaign_id": named[options["campaign_id"]]}
    sent = sender.sms.send(to=lead["phone"], body="Your table is ready.", client_reference="c")
    frames = load(client, **options)
    assert (sent.id in set(frames["texts"]["message_id"])) is kept
    assert (lead["phone"] in set(frames["dnc"]["phone"])) or not kept
    assert (audit(**frames).texts_audited == 1) is reported


def test_without_texts_the_findings_are_the_calls_alone(sandbox: Sandbox,
                                                        client: Client) -> None:
    recorded_text(sandbox, NEW_YORK, NOW + timedelta(hours=12, minutes=15), "3")
    frames = load(client)
    calls_only = {name: frame for name, frame in frames.items() if name != "texts"}
    without, with_texts = audit(**calls_only), audit(**frames)
    assert without.notes["texts"].startswith("not audited: pass texts=")
    assert without.texts_audited == 0 and "texts" not in without.population
    contacts = without.findings["call_id"].notna()
    assert (without.findings.loc[contacts, "channel"] == "call").all()
    assert without.findings.loc[~contacts, "channel"].isna().all()
    called = with_texts.findings[with_texts.findings["channel"] != "text"]
    pd.testing.assert_frame_equal(called.reset_index(drop=True),
                                  without.findings.reset_index(drop=True))
    assert with_texts.calls_audited == without.calls_audited
    assert len(with_texts.findings) == len(without.findings) + 1


def test_a_key_that_may_not_read_texts_audits_the_calls_and_says_so(
        make_sandbox: Callable[..., Sandbox]) -> None:
    key = "svc_test_auditor01_AAAAbbbbCCCCddddEEEEffff0010"
    config = {"server": {"rate_limit_scale": 0, "clock": "manual", "start_time": START},
              "accounts": [{"name": "acme", "seed": 7, "scale": "small", "clients": [
                  {"name": "auditor", "keys": [{"key": key}],
                   "scopes": ["calls:read", "leads:read", "dnc:check"]}]}]}
    running = make_sandbox(config)
    with Client(key, base_url=running.base_url, rate_limit=None) as auditor:
        frames = load(auditor)
    report = audit(**frames)
    assert frames["texts"].empty and report.texts_audited == 0 and report.calls_audited
    assert "sms:read" in report.notes["texts"] and "not audited" in report.notes["texts"]


CALLS = pd.DataFrame({
    "id": ["call_1", "call_2", "call_3"], "direction": "outbound",
    "from_number": "+13055550100", "to_number": FLORIDA,
    "created_at": pd.to_datetime(["2026-06-01T14:00Z", "2026-06-01T15:00Z",
                                  "2026-06-01T16:00Z"], utc=True),
    "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None})
LEADS = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [FLORIDA],
                      "status": ["contacted"]})


def texts(at: str, *, status: str = "delivered", to: str = FLORIDA) -> pd.DataFrame:
    """One text of the SMS frame's columns."""
    return pd.DataFrame({"message_id": ["msg_1"], "to": [to], "status": [status],
                         "error_code": ["unreachable" if status == "failed" else None],
                         "segments": [1], "created_at": pd.to_datetime([at], utc=True)})


@pytest.mark.parametrize(("leads", "found"), [
    (LEADS, {("call_frequency", "msg_1", "text")}),  # its lead's campaign: one subject
    (None, set()),  # no lead tells its campaign: another subject than the calls'
], ids=["with its lead", "without leads"])
def test_a_text_counts_towards_a_cap_with_the_calls_to_the_same_person(
        leads: pd.DataFrame | None, found: set[tuple[str, str, str]]) -> None:
    report = audit(CALLS, leads=leads, texts=texts("2026-06-01T17:00Z"))
    assert {(f.rule, f.call_id, f.channel) for f in report.findings.itertuples()} == found
    assert report.calls_audited == 3 and report.texts_audited == 1


@pytest.mark.parametrize(("status", "said"), [
    ("failed", "its delivery failed (unreachable): it was sent all the same"),
    ("delivered", "a text message, judged as a call"),
])
def test_a_text_that_failed_at_the_carrier_was_still_sent(status: str, said: str) -> None:
    report = audit(CALLS.head(0), texts=texts("2026-06-02T02:15Z", status=status))
    [found] = report.findings.itertuples()
    assert (found.rule, found.channel) == ("calling_hours", "text") and said in found.evidence


def test_a_text_is_not_judged_by_the_rules_of_a_voice_call() -> None:
    report = audit(CALLS.head(0), texts=texts("2026-06-01T15:00Z"),
                   verified_caller_ids=["+13055550100"])
    assert report.findings.empty  # no caller id shown, no ring, no answer: no finding
    assert {"caller_id", "short_ring", "unverified_caller_id"} <= set(report.ran)
    assert report.totals.loc["caller_id", "unit"] == "outbound calls"
    assert not report.empty and report.calls_audited == 0


def test_texts_join_calls_whose_text_columns_are_categories() -> None:
    """A disposition of categories (as Dask or a Parquet dictionary gives it) once ended in
    a TypeError: the texts' empty column inferred categories of another kind."""
    calls = CALLS.assign(disposition="voicemail").astype({"disposition": "category",
                                                          "direction": "category"})
    report = audit(calls, texts=texts("2026-06-02T02:15Z"))
    assert [(f.rule, f.call_id, f.channel) for f in report.findings.itertuples()] == [
        ("calling_hours", "msg_1", "text")]


@pytest.mark.parametrize(("given", "message"), [
    (texts("2026-06-01T15:00Z").drop(columns="to"), "texts has no column to"),
    (texts("2026-06-01T15:00Z").assign(message_id="call_1"), "texts.message_id holds an id"),
    (texts("2026-06-01T15:00Z").assign(to=13055550142), "texts.to holds"),
], ids=["no to", "a call's id", "numbers as integers"])
def test_texts_the_audit_cannot_read_are_refused_by_name(given: pd.DataFrame,
                                                         message: str) -> None:
    with pytest.raises(AuditInputError, match=message) as raised:
        audit(CALLS, texts=given)
    assert raised.value.frame == "texts"


@pytest.fixture(scope="module")
def generated() -> dict[str, pd.DataFrame]:
    """A small generated account (the audit benchmark's: night calls, bursts, listed
    numbers) and its texts: minutes after a call to the same number (the caps), at night
    local time, to listed numbers, to a number of no lead; some failed at the carrier."""
    frames = bench_audit.frames(600, 120, seed=5)
    rng = np.random.default_rng(5)
    out = frames["calls"][frames["calls"]["direction"] == "outbound"]
    often = out["to_number"].value_counts()
    out = out[out["to_number"].isin(often.index[often >= 4])]  # the bursts, texted too
    listed = frames["dnc"].loc[frames["dnc"]["listed"].astype(bool), "phone"].head(8)
    night = frames["leads"]["phone"].sample(20, random_state=5)
    days = pd.to_timedelta(rng.integers(0, 30, len(listed) + len(night) + 1), "D")
    to = pd.concat([out["to_number"], listed, night, pd.Series(["+12125550199"])])
    at = pd.concat([out["created_at"] + pd.to_timedelta(rng.integers(1, 90, len(out)), "min"),
                    pd.Series(bench_audit.START + pd.Timedelta(hours=7, minutes=30) + days)])
    status = rng.choice(["delivered", "failed"], len(to), p=[0.8, 0.2])
    frames["texts"] = pd.DataFrame({
        "message_id": [f"msg_{n}" for n in range(len(to))], "to": to.to_numpy(),
        "status": status, "error_code": np.where(status == "failed", "unreachable", None),
        "created_at": at.to_numpy()}).astype({"to": "string", "message_id": "string"})
    return frames


@pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.reset_index")  # Dask's
@pytest.mark.parametrize("form", ["dask frames", "a dataset's path"])
def test_dask_audits_texts_as_pandas_does(generated: dict[str, pd.DataFrame], form: str,
                                          tmp_path: Path) -> None:
    """The same findings (with their channel and evidence), texts counted and population."""
    dd = pytest.importorskip("dask.dataframe")
    calls, leads, dnc, given = (generated[name] for name in ("calls", "leads", "dnc", "texts"))
    expected = audit(calls, leads=leads, dnc=dnc, texts=given, as_of=bench_audit.AS_OF)
    if form == "dask frames":
        source: Any = dd.from_pandas(calls, npartitions=3)
    else:
        source = tmp_path / "calls"
        source.mkdir()
        for n, rows in enumerate(np.array_split(np.arange(len(calls)), 3)):
            calls.iloc[rows].to_parquet(source / f"part-{n}.parquet", index=False)
    found = audit(source, leads=dd.from_pandas(leads, npartitions=2),
                  dnc=dd.from_pandas(dnc, npartitions=2), texts=given, as_of=bench_audit.AS_OF)
    texted = expected.findings[expected.findings["channel"] == "text"]
    assert {"calling_hours", "call_frequency", "dnc_call"} <= set(texted["rule"])

    def ordered(findings: pd.DataFrame) -> pd.DataFrame:
        return findings.sort_values(["call_id", "rule", "lead_id"], ignore_index=True)

    pd.testing.assert_frame_equal(ordered(found.findings), ordered(expected.findings))
    assert found.texts_audited == expected.texts_audited == len(given)
    pd.testing.assert_frame_equal(found.population, expected.population)
    assert found.notes == expected.notes and found.sources["texts"] == expected.sources["texts"]


def test_dask_refuses_a_text_that_shares_a_calls_id() -> None:
    dd = pytest.importorskip("dask.dataframe")
    with pytest.raises(AuditInputError, match="texts.message_id holds an id") as raised:
        audit(dd.from_pandas(CALLS, npartitions=2),
              texts=texts("2026-06-01T15:00Z").assign(message_id="call_2"))
    assert raised.value.frame == "texts"


CONTACTS = st.lists(st.tuples(st.sampled_from([FLORIDA, NEW_YORK]),
                              st.integers(0, 48 * 60)), max_size=6)
"""Contacts as (number, minutes after 2026-06-01 10:00 UTC): two days, two people."""


def _contacts(prefix: str, made: list[tuple[str, int]]) -> tuple[pd.Series, pd.Series,
                                                                  pd.DatetimeIndex]:
    """Ids, numbers (as text, however few) and times of generated contacts."""
    at = pd.Timestamp("2026-06-01T10:00Z") + pd.to_timedelta([m for _, m in made], "min")
    return (pd.Series([f"{prefix}_{n}" for n in range(len(made))], dtype="string"),
            pd.Series([p for p, _ in made], dtype="string"), at)


@settings(max_examples=25, deadline=None)
@given(called=CONTACTS, texted=CONTACTS)
def test_texts_only_add_findings_and_each_names_its_channel(
        called: list[tuple[str, int]], texted: list[tuple[str, int]]) -> None:
    ids, phones, at = _contacts("call", called)
    calls = pd.DataFrame({"id": ids, "direction": "outbound", "from_number": "+13055550100",
                          "to_number": phones, "created_at": at, "answered_at": pd.NaT,
                          "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None})
    message_ids, to, sent = _contacts("msg", texted)
    given_texts = pd.DataFrame({"message_id": message_ids, "to": to, "status": "delivered",
                                "created_at": sent})
    leads = pd.DataFrame({"id": ["lead_1", "lead_2"], "campaign_id": "cmp_1",
                          "phone": [FLORIDA, NEW_YORK], "status": "contacted"})
    without = audit(calls, leads=leads)
    with_texts = audit(calls, leads=leads, texts=given_texts)
    pairs = {(f.rule, f.call_id) for f in without.findings.itertuples()}
    assert pairs <= {(f.rule, f.call_id) for f in with_texts.findings.itertuples()}
    channel = with_texts.findings.set_index("call_id")["channel"]
    assert set(channel[channel == "text"].index) <= set(message_ids)
    assert set(channel[channel == "call"].index) <= set(ids)
    assert (with_texts.calls_audited, with_texts.texts_audited) == (len(ids), len(message_ids))
