"""No all-clear where no law was read (issue 98), for the judges before a call.

The presets hold the law of the US (and its territories), Canada and the UK. Before issue
98 ``next_allowed`` answered ``allowed: True`` for a French mobile at 22:30 Paris time on
a Saturday, an Australian one at 22:30 Sydney time on a Sunday, a German one with no
consent and a Spanish one at 22:30 on a Saturday, and ``upcoming`` found a callback to
each "ok". Each is now *not judged* (``no_law_held``), with its reason; accepted
(``accept_unjudged``), it is allowed by what is held, and still refused by the policy
where the policy says so. The numbers are libphonenumber's example mobiles; the guard's
and the tool server's answers: tests/client/test_guard_unjudged.py,
tests/mcp/test_mcp_guard_unjudged.py.
"""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import phonenumbers
import pytest
from phonenumbers import PhoneNumberFormat, PhoneNumberType
from typer.testing import CliRunner

from dialkit.cli import app
from dialkit.compliance import HOUSE_RULES, UK, US, US_FEDERAL, next_allowed, repair, upcoming
from dialkit.compliance._rules._held import held_said
from dialkit.errors import InputError


def mobile(region: str) -> str:
    """libphonenumber's example mobile number of ``region``, in E.164."""
    example = phonenumbers.example_number_for_type(region, PhoneNumberType.MOBILE)
    return phonenumbers.format_number(example, PhoneNumberFormat.E164)


ASKED = {
    "FR": ("France", pd.Timestamp("2026-11-07T21:30Z")),  # Saturday 22:30 in Paris
    "AU": ("Australia", pd.Timestamp("2026-11-08T11:30Z")),  # Sunday 22:30 in Sydney
    "DE": ("Germany", pd.Timestamp("2026-11-02T15:00Z")),  # Monday 16:00, no consent given
    "ES": ("Spain", pd.Timestamp("2026-11-07T21:30Z")),  # Saturday 22:30 in Madrid
}
"""The issue's examples: each country, and the moment a call to its mobile is asked about."""
LATE = {"FR", "AU", "ES"}
"""The countries asked about at 22:30, which the house rules' window (08:00-21:00) refuses."""
CALLS = pd.DataFrame({
    "id": pd.Series(dtype=object), "direction": pd.Series(dtype=object),
    "from_number": pd.Series(dtype=object), "to_number": pd.Series(dtype=object),
    "created_at": pd.Series(dtype="datetime64[ns, UTC]"),
    "answered_at": pd.Series(dtype="datetime64[ns, UTC]"),
    "ended_at": pd.Series(dtype="datetime64[ns, UTC]"),
    "campaign_id": pd.Series(dtype=object), "disposition": pd.Series(dtype=object)})


def said_of(region: str, where: str) -> list[str]:
    """What a refusal's words must name: the country, the law held and how to accept it."""
    return [f"not judged: dialkit holds no law for {ASKED[region][0]} ({region})",
            held_said(US), f"{where}(accept_unjudged=['{region}'])"]


def scheduled(region: str) -> dict[str, pd.DataFrame]:
    """The account's frames with one pending callback to ``region``'s mobile at its moment."""
    at = ASKED[region][1]
    leads = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [mobile(region)],
                          "status": ["callback"], "next_attempt_at": [pd.NaT]})
    callbacks = pd.DataFrame({"id": ["cb_1"], "lead_id": ["lead_1"], "campaign_id": ["cmp_1"],
                              "scheduled_at": [at], "status": ["pending"]})
    return {"calls": CALLS, "leads": leads, "callbacks": callbacks}


@pytest.mark.parametrize("region", ASKED)
def test_next_allowed_says_not_judged_never_allowed(region: str) -> None:
    answer = next_allowed(mobile(region), ASKED[region][1]).iloc[0]
    assert (answer["allowed"], answer["judged"], answer["rule"], answer["basis"],
            answer["jurisdiction"]) == (False, False, "no_law_held", "risk", region)
    assert pd.isna(answer["next_allowed_at"]) and pd.isna(answer["next_local_time"])
    assert all(part in answer["forbidden_by"] for part in said_of(region, "next_allowed"))


@pytest.mark.parametrize("region", ASKED)
def test_next_allowed_of_an_accepted_country_is_judged_by_the_policy_alone(region: str) -> None:
    number, at = mobile(region), ASKED[region][1]
    accepted = next_allowed(number, at, accept_unjudged=[region]).iloc[0]
    assert (accepted["allowed"], accepted["judged"], accepted["next_allowed_at"]) == (
        True, False, at)
    by_name = next_allowed(number, at, accept_unjudged=ASKED[region][0]).iloc[0]
    assert (by_name["allowed"], by_name["judged"]) == (True, False)  # read as blocked_countries
    policed = next_allowed(number, at, accept_unjudged=[region], policy=HOUSE_RULES).iloc[0]
    assert policed["allowed"] == (region not in LATE)
    if region in LATE:
        assert (policed["rule"], policed["basis"]) == ("calling_hours", "policy")
        assert policed["next_allowed_at"] > at and not policed["judged"]


def test_another_country_accepted_accepts_none_but_itself() -> None:
    answer = next_allowed([mobile(region) for region in ASKED], ASKED["DE"][1],
                          accept_unjudged="DE")
    assert answer["allowed"].tolist() == [False, False, True, False]
    assert answer["rule"].tolist()[:2] == ["no_law_held", "no_law_held"]


@pytest.mark.parametrize(("rules", "region"), [
    (US, "US"), (US, "PR"), (US, "CA"), (US, "GB"), (UK, "GB"), (US_FEDERAL, "VI")])
def test_a_number_whose_law_is_held_is_judged_as_before(rules: object, region: str) -> None:
    answer = next_allowed(mobile(region), "2026-11-04T18:00Z", rules=rules).iloc[0]
    assert (answer["allowed"], answer["judged"]) == (True, True)


def test_a_policy_alone_holds_no_law_and_judges_every_number_by_itself() -> None:
    answer = next_allowed(mobile("FR"), ASKED["FR"][1], rules=HOUSE_RULES).iloc[0]
    assert (answer["allowed"], answer["rule"], answer["basis"]) == (
        False, "calling_hours", "policy")


def test_accept_unjudged_naming_no_country_is_refused_by_its_name() -> None:
    with pytest.raises(InputError, match=r"^accept_unjudged holds '\+33', a calling code, "
                                         r"not a country: pass 'FR'"):
        next_allowed(mobile("FR"), ASKED["FR"][1], accept_unjudged=["+33"])


@pytest.mark.parametrize("region", ASKED)
def test_upcoming_finds_a_callback_no_law_judges_and_repair_leaves_it(region: str) -> None:
    at = ASKED[region][1]
    found = upcoming(scheduled(region), as_of=at - pd.Timedelta(hours=1))
    assert found[["rule", "call_id", "basis", "jurisdiction"]].to_dict("records") == [
        {"rule": "no_law_held", "call_id": "cb_1", "basis": "risk", "jurisdiction": region}]
    evidence = found["evidence"].iloc[0]
    assert evidence.startswith("due ") and all(
        part in evidence for part in said_of(region, "upcoming"))
    plan = repair(found, None, frames={"dnc": pd.DataFrame({"phone": [mobile(region)],
                                                            "listed": [False]})})
    row = plan.iloc[0]
    assert (row["action"], row["rules"], row["status"]) == ("leave", "no_law_held", "left")
    assert pd.isna(row["new_at"]) and row["reason"].startswith(
        "no law of the country called is held, so no moment is judged allowed")


@pytest.mark.parametrize("region", ASKED)
def test_upcoming_judges_an_accepted_country_by_the_policy_alone(region: str) -> None:
    as_of = ASKED[region][1] - pd.Timedelta(hours=1)
    assert upcoming(scheduled(region), as_of=as_of, accept_unjudged=[region]).empty
    policed = upcoming(scheduled(region), as_of=as_of, accept_unjudged=[region],
                       policy=HOUSE_RULES)
    assert policed[["rule", "basis"]].to_dict("records") == (
        [{"rule": "calling_hours", "basis": "policy"}] if region in LATE else [])


def test_when_says_not_judged_and_how_to_accept_it_in_its_flags() -> None:
    asked = ["compliance", "when", mobile("FR"), "--at", "2026-11-07T21:30Z"]
    shown = CliRunner().invoke(app, asked)
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith(f"{mobile('FR')}: not allowed (not judged: dialkit holds "
                                   "no law for France (FR)")
    assert "accept it with --accept-unjudged FR); no allowed moment is known" in shown.output
    accepted = CliRunner().invoke(app, [*asked, "--accept-unjudged", "France"])
    assert accepted.output == (f"{mobile('FR')}: allowed, by no law read: its country is "
                               "accepted unjudged (2026-11-07 22:30 Europe/Paris)\n")


def test_the_upcoming_command_finds_it_and_takes_the_country_accepted(tmp_path: Path) -> None:
    """``dialkit compliance upcoming`` of exports says a callback to Paris is not judged, and
    ``--accept-unjudged France`` passes it to the policy alone, as ``upcoming`` does."""
    paths = []
    for name, frame in scheduled("FR").items():
        paths += [f"--{name}", str(tmp_path / f"{name}.csv")]
        frame.to_csv(tmp_path / f"{name}.csv", index=False)
    asked = ["compliance", "upcoming", *paths, "--as-of",
             (ASKED["FR"][1] - pd.Timedelta(hours=1)).isoformat(), "--csv"]
    found = CliRunner().invoke(app, asked)
    assert found.exit_code == 0, found.output
    rows = pd.read_csv(io.StringIO(found.stdout))
    assert rows[["rule", "call_id", "jurisdiction"]].values.tolist() == [
        ["no_law_held", "cb_1", "FR"]]
    assert "accept it with --accept-unjudged FR" in rows["evidence"].iloc[0]
    accepted = CliRunner().invoke(app, [*asked, "--accept-unjudged", "France"])
    assert accepted.exit_code == 0, accepted.output
    assert pd.read_csv(io.StringIO(accepted.stdout)).empty
    refused = CliRunner().invoke(app, [*asked, "--accept-unjudged", "Atlantis"])
    assert refused.exit_code == 2
    assert refused.stderr.startswith("error: --accept-unjudged holds 'Atlantis', which names")
