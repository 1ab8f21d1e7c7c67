"""Removing a piece of evidence never turns a finding of law into an all-clear unless the
law says that evidence is what forbids the call (issue 61, metamorphic test (c)).

For generated small accounts (numbers of New York, Utah, Florida, the UK and Canada; a
few calls each; DNC results, consent records, reassigned-number answers), the findings
of law (``(rule, call_id, lead_id)``, ``basis`` ``law``) after removing one piece of
evidence are compared with those before. The property, per kind of evidence:

- a consent record never revoked, or a ``listed_at``: nothing is lost (a consent only
  exempts or lifts a rule; an unknown listing date makes every call to the number a
  finding);
- a revoked consent record (a revocation is an opt-out, a listing), a DNC row (a
  listing, or a check a lead's screening or the registry's safe harbor rests on), a
  reassigned ``yes`` (it voids consents): only findings of calls to that record's
  number, or of its lead, may be lost;
- a reassigned ``no`` or ``no_data``: nothing changes at all.
"""

from __future__ import annotations

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dialkit.compliance import audit

PHONES = ("+12125550123", "+18015550123", "+13055550123", "+442079460000",
          "+14165550123")
START = pd.Timestamp("2026-01-05", tz="UTC")
AS_OF = "2026-10-01"
HOURS = st.integers(0, 24 * 240)
"""A moment, in hours after START (within the 240 days before AS_OF)."""


def _at(hours: int) -> pd.Timestamp:
    return START + pd.Timedelta(hours=hours)


@st.composite
def accounts(draw: st.DrawFn) -> dict[str, pd.DataFrame]:
    """A small account: calls, leads, DNC results, consent records, reassigned answers."""
    phones = draw(st.lists(st.sampled_from(PHONES), min_size=1, max_size=3, unique=True))
    placed = draw(st.lists(st.tuples(st.sampled_from(phones), HOURS, st.booleans()),
                           min_size=1, max_size=8))
    calls = pd.DataFrame({
        "id": [f"call_{n}" for n in range(len(placed))], "direction": "outbound",
        "from_number": "+14155550100", "to_number": [p for p, _, _ in placed],
        "created_at": pd.to_datetime([_at(h) for _, h, _ in placed], utc=True),
        "answered_at": pd.NaT,
        "ended_at": pd.to_datetime([_at(h) + pd.Timedelta(minutes=1) for _, h, _ in placed],
                                   utc=True),
        "campaign_id": "cmp_1",
        "disposition": ["do_not_call" if asked else None for _, _, asked in placed]})
    leads = pd.DataFrame({"id": [f"lead_{n}" for n in range(len(phones))],
                          "campaign_id": "cmp_1", "phone": phones, "status": "new"})
    return {"calls": calls, "leads": leads, "dnc": _dnc(draw, phones),
            "consents": _consents(draw, phones), "reassigned": _reassigned(draw, phones)}


def _dnc(draw: st.DrawFn, phones: list[str]) -> pd.DataFrame:
    rows = draw(st.lists(st.tuples(st.sampled_from(phones), st.booleans(), HOURS,
                                   st.integers(0, 24 * 60), st.booleans(),
                                   st.sampled_from(["national", "company", None])),
                         min_size=1, max_size=5))
    return pd.DataFrame({
        "phone": [p for p, *_ in rows], "listed": [listed for _, listed, *_ in rows],
        "listed_at": pd.to_datetime([_at(h) if dated else None
                                     for _, _, h, _, dated, _ in rows], utc=True),
        "checked_at": pd.to_datetime([_at(h + later) for _, _, h, later, _, _ in rows],
                                     utc=True),
        "list": [kind for *_, kind in rows]})


def _consents(draw: st.DrawFn, phones: list[str]) -> pd.DataFrame:
    rows = draw(st.lists(st.tuples(st.sampled_from(phones),
                                   st.sampled_from(["written", "oral", "ebr"]), HOURS,
                                   st.one_of(st.none(), st.integers(0, 24 * 120)),
                                   st.sampled_from(["purchase", "inquiry", None])),
                         min_size=1, max_size=4))
    return pd.DataFrame({
        "phone": [p for p, *_ in rows], "kind": [kind for _, kind, *_ in rows],
        "given_at": pd.to_datetime([_at(h) for _, _, h, _, _ in rows], utc=True),
        "revoked_at": pd.to_datetime([None if after is None else _at(h + after)
                                      for _, _, h, after, _ in rows], utc=True),
        "relationship": [kind for *_, kind in rows]})


def _reassigned(draw: st.DrawFn, phones: list[str]) -> pd.DataFrame:
    rows = draw(st.lists(st.tuples(st.sampled_from(phones), HOURS,
                                   st.sampled_from(["yes", "no", "no_data"])),
                         min_size=1, max_size=3))
    return pd.DataFrame({"phone": [p for p, _, _ in rows],
                         "asked_at": pd.to_datetime([_at(h) for _, h, _ in rows], utc=True),
                         "answer": [answer for *_, answer in rows]})


def _law(frames: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """The findings of law of the account, one row per (rule, call, lead), with the
    number each is about."""
    found = audit(frames["calls"], leads=frames["leads"], dnc=frames["dnc"],
                  consents=frames["consents"], reassigned=frames["reassigned"],
                  as_of=AS_OF).findings
    return found[found["basis"] == "law"][["rule", "call_id", "lead_id", "phone"]]


def _lost(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """The findings of ``before`` that ``after`` no longer has."""
    keys = ["rule", "call_id", "lead_id"]
    joined = before.merge(after[keys].drop_duplicates(), on=keys, how="left", indicator=True)
    return joined[joined["_merge"] == "left_only"]


def _without(frames: dict[str, pd.DataFrame], name: str, row: int) -> dict[str, pd.DataFrame]:
    return {**frames, name: frames[name].drop(index=frames[name].index[row])
            .reset_index(drop=True)}


SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@SETTINGS
@given(accounts(), st.data())
def test_removing_a_consent_record_loses_only_its_revocations_findings(
        frames: dict[str, pd.DataFrame], data: st.DataObject) -> None:
    row = data.draw(st.integers(0, len(frames["consents"]) - 1))
    record = frames["consents"].iloc[row]
    lost = _lost(_law(frames), _law(_without(frames, "consents", row)))
    if pd.isna(record["revoked_at"]):
        assert lost.empty, lost
    else:  # a revocation is an opt-out: the number's own listing
        assert set(lost["phone"]) <= {record["phone"]}, (record, lost)


@SETTINGS
@given(accounts(), st.data())
def test_removing_a_dnc_row_loses_only_findings_of_its_number(
        frames: dict[str, pd.DataFrame], data: st.DataObject) -> None:
    row = data.draw(st.integers(0, len(frames["dnc"]) - 1))
    phone = frames["dnc"].iloc[row]["phone"]
    lost = _lost(_law(frames), _law(_without(frames, "dnc", row)))
    assert set(lost["phone"]) <= {phone}, (frames["dnc"].iloc[row], lost)


@SETTINGS
@given(accounts(), st.data())
def test_removing_a_listed_at_loses_nothing(frames: dict[str, pd.DataFrame],
                                            data: st.DataObject) -> None:
    row = data.draw(st.integers(0, len(frames["dnc"]) - 1))
    undated = frames["dnc"].copy()
    undated.loc[undated.index[row], "listed_at"] = pd.NaT
    lost = _lost(_law(frames), _law({**frames, "dnc": undated}))
    assert lost.empty, (frames["dnc"].iloc[row], lost)


@SETTINGS
@given(accounts(), st.data())
def test_removing_a_reassigned_answer_loses_only_a_yes_numbers_findings(
        frames: dict[str, pd.DataFrame], data: st.DataObject) -> None:
    row = data.draw(st.integers(0, len(frames["reassigned"]) - 1))
    answer = frames["reassigned"].iloc[row]
    lost = _lost(_law(frames), _law(_without(frames, "reassigned", row)))
    allowed = {answer["phone"]} if answer["answer"] == "yes" else set()
    assert set(lost["phone"]) <= allowed, (answer, lost)
