"""The judges before a call are told what the audit is told (issue 79, item 5): consents
and the account's leads, given to ``next_allowed`` and to ``dialkit compliance when``, decide
as they decide the audit of the same call made at that moment.

- A written consent standing at the call lifts the hours of the rows whose words bind
  only calls made "without the prior consent of a person" (16 CFR 310.4(c); Utah Code
  13-25a-103(3), whose Sunday ban is one), and exempts a listed number from the
  National Registry's rule (47 CFR 64.1200(c)(2)(ii): "the person's prior express
  invitation or permission ... evidenced by a signed, written agreement"). Revoked, or
  voided by a reassigned ``yes``, it does neither.
- A lead's other number is the person's: Florida counts "calls ... to a person ...
  regardless of the phone number used" (Fla. Stat. 501.616(6)(b)), so the CLI's ``when``
  with ``--leads`` counts the calls to the person's other number.
"""

from __future__ import annotations

import pandas as pd
import pytest
from typer.testing import CliRunner

from dialkit.cli import app
from dialkit.compliance import audit, next_allowed

UTAH, MIAMI, MIAMI_MOBILE = "+18015550123", "+13055550123", "+13055550199"
SUNDAY_NOON_UTAH = "2026-11-22T19:00Z"
MONDAY_NOON_MIAMI = "2026-11-23T17:00Z"
runner = CliRunner()


def consent(phone: str, *, revoked: str | None = None, kind: str = "written") -> pd.DataFrame:
    return pd.DataFrame({"phone": [phone], "kind": [kind],
                         "given_at": pd.to_datetime(["2026-01-01"], utc=True),
                         "revoked_at": pd.to_datetime([revoked], utc=True)})


def listed(phone: str) -> pd.DataFrame:
    return pd.DataFrame({"phone": [phone], "listed": [True], "list": ["national"],
                         "listed_at": pd.to_datetime(["2025-01-01"], utc=True),
                         "checked_at": pd.to_datetime(["2026-11-01"], utc=True)})


def call_at(phone: str, at: str) -> pd.DataFrame:
    return pd.DataFrame({"id": ["call_asked"], "direction": "outbound",
                         "from_number": "+14155550100", "to_number": [phone],
                         "created_at": pd.to_datetime([at], utc=True), "answered_at": pd.NaT,
                         "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None})


def audit_allows(phone: str, at: str, **given: object) -> bool:
    """Whether the audit of a call to ``phone`` made at ``at`` finds no breach of law of
    the rules a judge before the call answers for."""
    found = audit(call_at(phone, at), as_of="2026-12-31", **given).findings  # type: ignore[arg-type]
    return found[(found["basis"] == "law")
                 & found["rule"].isin(["calling_hours", "dnc_call"])].empty


REASSIGNED = pd.DataFrame({"phone": [UTAH], "answer": ["yes"],
                           "asked_at": pd.to_datetime(["2026-06-01"], utc=True)})
CASES = {
    "Utah Sunday, no consent": (UTAH, SUNDAY_NOON_UTAH, {}, False),
    "Utah Sunday, written consent": (UTAH, SUNDAY_NOON_UTAH, {"consents": consent(UTAH)}, True),
    "Utah Sunday, oral consent": (UTAH, SUNDAY_NOON_UTAH,
                                  {"consents": consent(UTAH, kind="oral")}, True),
    "Utah Sunday, an ebr is no consent": (UTAH, SUNDAY_NOON_UTAH,
                                          {"consents": consent(UTAH, kind="ebr")}, False),
    "Utah Sunday, consent revoked": (UTAH, SUNDAY_NOON_UTAH,
                                     {"consents": consent(UTAH, revoked="2026-11-01")}, False),
    "Utah Sunday, consent voided by a reassigned yes": (
        UTAH, SUNDAY_NOON_UTAH, {"consents": consent(UTAH), "reassigned": REASSIGNED}, False),
    "Miami listed, no consent": (MIAMI, MONDAY_NOON_MIAMI, {"dnc": listed(MIAMI)}, False),
    "Miami listed, written consent": (MIAMI, MONDAY_NOON_MIAMI,
                                      {"dnc": listed(MIAMI), "consents": consent(MIAMI)}, True),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_next_allowed_answers_as_the_audit_of_the_call_made_then(case: str) -> None:
    phone, at, given, allowed = CASES[case]
    answer = next_allowed(phone, at, **given)  # type: ignore[arg-type]
    assert answer["allowed"].tolist() == [allowed]
    assert audit_allows(phone, at, **given) == allowed


def test_a_consent_naming_a_lead_by_id_lifts_the_hours_of_its_number() -> None:
    leads = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [UTAH],
                          "status": ["new"]})
    by_id = consent(UTAH).drop(columns="phone").assign(lead_id="lead_1")
    assert next_allowed(leads, SUNDAY_NOON_UTAH, consents=by_id)["allowed"].tolist() == [True]
    assert next_allowed(leads, SUNDAY_NOON_UTAH)["allowed"].tolist() == [False]


def test_a_consent_given_after_the_moment_asked_lifts_nothing_then() -> None:
    later = consent(UTAH).assign(given_at=pd.to_datetime(["2026-11-23"], utc=True))
    answer = next_allowed(UTAH, SUNDAY_NOON_UTAH, consents=later).iloc[0]
    assert (answer["allowed"], answer["rule"]) == (False, "calling_hours")


# the command line ---------------------------------------------------------------------------

def _when(*arguments: str) -> str:
    result = runner.invoke(app, ["compliance", "when", *arguments])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_when_takes_the_consents_the_audit_takes(tmp_path: pytest.TempPathFactory) -> None:
    dnc, consents = tmp_path / "dnc.csv", tmp_path / "consents.csv"  # type: ignore[operator]
    listed(MIAMI).to_csv(dnc, index=False)
    consent(MIAMI).to_csv(consents, index=False)
    without = _when(MIAMI, "--at", MONDAY_NOON_MIAMI, "--dnc", str(dnc))
    assert without.startswith(f"{MIAMI}: not allowed (the number is on the US National")
    assert "no allowed moment is known" in without
    told = _when(MIAMI, "--at", MONDAY_NOON_MIAMI, "--dnc", str(dnc), "--consents",
                 str(consents))
    assert told.startswith(f"{MIAMI}: allowed (2026-11-23 12:00 America/New_York")


def test_when_counts_the_calls_to_a_persons_other_number_with_leads(
        tmp_path: pytest.TempPathFactory) -> None:
    """Three calls to the mobile of a Miami lead today: a fourth to its own number breaks
    Florida's cap, which the audit counts (and ``when`` without the leads cannot)."""
    calls_file, leads_file = tmp_path / "calls.csv", tmp_path / "leads.csv"  # type: ignore[operator]
    made = pd.concat([call_at(MIAMI_MOBILE, f"2026-11-23T{hour}:00Z").assign(id=f"call_{hour}")
                      for hour in (14, 15, 16)], ignore_index=True)
    made.to_csv(calls_file, index=False)
    lead = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [MIAMI],
                         "status": ["contacted"], "other_phones": [MIAMI_MOBILE]})
    lead.to_csv(leads_file, index=False)
    asked = (MIAMI, "--at", MONDAY_NOON_MIAMI, "--calls", str(calls_file))
    assert _when(*asked).startswith(f"{MIAMI}: allowed")
    told = _when(*asked, "--leads", str(leads_file))
    assert told.startswith(f"{MIAMI} (lead lead_1): not allowed (4th call in the 24 hours")
    found = audit(pd.concat([made, call_at(MIAMI, MONDAY_NOON_MIAMI)], ignore_index=True),
                  leads=lead).findings
    assert found.loc[found["rule"] == "call_frequency", "call_id"].tolist() == ["call_asked"]


def test_when_with_leads_alone_asks_about_every_lead_and_numbers_beside_them(
        tmp_path: pytest.TempPathFactory) -> None:
    leads_file = tmp_path / "leads.csv"  # type: ignore[operator]
    pd.DataFrame({"id": ["lead_1", "lead_2"], "campaign_id": "cmp_1", "phone": [MIAMI, UTAH],
                  "status": "new"}).to_csv(leads_file, index=False)
    every = _when("--at", SUNDAY_NOON_UTAH, "--leads", str(leads_file), "--csv")
    assert pd.read_csv(pd.io.common.StringIO(every))["lead_id"].tolist() == ["lead_1", "lead_2"]
    beside = _when(UTAH, "+12125550123", "--at", SUNDAY_NOON_UTAH, "--leads", str(leads_file))
    assert [line.split(":")[0] for line in beside.splitlines()] == [
        f"{UTAH} (lead lead_2)", "+12125550123"]
    refused = runner.invoke(app, ["compliance", "when"])
    assert refused.exit_code == 2 and "give numbers to ask about, or --leads FILE" in (
        refused.output)
