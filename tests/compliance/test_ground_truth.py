"""On the emulator's seeded worlds, the audit finds exactly the problems it planted, and
``upcoming`` exactly the scheduled calls it planted against the law (issue 38).

Each scale's world is built and loaded once for the module (loading the medium one's
calls page by page is most of this module's time) and audited through the client over
real HTTP, as a user would: ``audit(**load(client), policy=HOUSE_RULES)`` with the
account's verified caller ids from the emulator's admin surface. The world plants law's
problems and policy's (bursts of calls that no law of the place forbids), and says which
is which; the audit's ``basis`` tells them apart the same way. Its scheduled calls: a
pending callback at 22:30 local time, a lead's next attempt at 07:00, a callback whose
number was listed after it was set; every other pending callback and next attempt lies
where the law of the place allows it.

The world's DNC results hold no state's own list, so each number it called of a state
whose law obliges a caller to obtain its list (``dnc_lists.toml``'s ``required``) is one
``dnc_call`` risk, on its first call (issue 73): derived here from the world's calls, the
law's file and libphonenumber's geocoder, apart from the audit's own tables.
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import openpyxl
import pandas as pd
import phonenumbers
import pycountry
import pytest
from phonenumbers import geocoder

from conftest import START
from dialkit import Client
from dialkit.compliance import HOUSE_RULES, US, AuditReport, audit, load, upcoming
from dialkit.sandbox import parse_config, start

Truth = dict[str, set[str]]
Bases = dict[str, set[str]]

AUDITOR_KEY = "svc_test_auditor01_AAAAbbbbCCCCddddEEEEffff0010"
"""A key with only what an audit reads: calls, leads, DNC checks."""
PLANNER_KEY = "svc_test_planner01_AAAAbbbbCCCCddddEEEEffff0011"
"""A key that reads the pending callbacks ``upcoming`` judges beside an audit's frames."""
KIND_OF = {"upcoming_callback_hours": "callback", "upcoming_callback_dnc": "callback",
           "upcoming_attempt_hours": "next_attempt"}

RULE_OF_KIND = {"outside_calling_hours": "calling_hours", "frequency": "call_frequency",
                "dnc_call": "dnc_call", "state_calling_hours": "calling_hours",
                "state_day_ban": "calling_hours", "state_holiday": "calling_hours",
                "state_frequency": "call_frequency", "split_zone_hours": "calling_hours",
                "caller_id": "caller_id", "abandonment_period": "abandonment",
                "person_frequency": "call_frequency"}
"""Each planted kind whose every call is a finding of one rule: the federal kinds, the
law of the place's (a state's or Canada's row, which the ``US`` preset applies), a call
judged in every zone of a split area code, a call that showed no number and an abandoned
call of a campaign's 30-day period over 3%, and the fourth call in a day to a Florida
person on two numbers (issue 47)."""
FEDERAL_KINDS = {"outside_calling_hours", "frequency", "dnc_call"}
LISTED_LATE = "upcoming_callback_dnc"
"""Leads whose number was listed after their pending callback was set (issue 38): the
audit's ``dnc_lead`` finds them, a lead still to be called at a listed number."""
Details = dict[str, list[dict[str, Any]]]
Audited = tuple[AuditReport, Truth, Bases, AuditReport, Details]
REQUIRED = {row["state"] for row in tomllib.loads(resources.files("dialkit._law").joinpath(
    "dnc_lists.toml").read_text("utf-8"))["list"] if row.get("required")}
"""The states whose law obliges a caller to obtain their own list, read from the law's file."""
STATES = {place.name: place.code.removeprefix("US-")
          for place in pycountry.subdivisions.get(country_code="US")}
UNSCRUBBED = "unscrubbed_state_list"
"""The truth's key of the calls the audit must find a risk of: each the first call to a
number of a state in :data:`REQUIRED` (:func:`_unscrubbed`); the details' key of what each
one's evidence says of its number's calls."""


@pytest.fixture(scope="module", params=["small", "medium"])
def account(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
            ) -> dict[str, Any]:
    """The scale's world as the tests read it, loaded once: its frames through an
    auditor's key (``load``), its pending callbacks through a planner's (as ``upcoming``
    loads them), and what the emulator's admin surface says it planted."""
    clients = [{"name": "auditor", "keys": [{"key": AUDITOR_KEY}],
                "scopes": ["calls:read", "leads:read", "dnc:check"]},
               {"name": "planner", "keys": [{"key": PLANNER_KEY}],
                "scopes": ["callbacks:read"]}]
    config = {"server": {"rate_limit_scale": 0, "clock": "manual", "start_time": START},
              "accounts": [{"name": "acme", "seed": 7, "scale": request.param,
                            "clients": clients}]}
    with pytest.MonkeyPatch.context() as patch, start(parse_config(config)) as sandbox:
        patch.setenv("DIALKIT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        admin = f"{sandbox.base_url}/_sandbox"
        said = {name: httpx.get(f"{admin}/{name}", params={"account": "acme", **law}).json()
                for name, law in (("ground-truth", {"law": "all"}),
                                  ("caller-ids", {"law": "all"}), ("upcoming-truth", {}),
                                  ("dnc-lists", {}))}
        with Client(AUDITOR_KEY, base_url=sandbox.base_url, rate_limit=None) as client:
            frames = load(client)
        campaigns = sorted(set(frames["leads"]["campaign_id"].dropna().astype(object)))
        with Client(PLANNER_KEY, base_url=sandbox.base_url, rate_limit=None) as client:
            callbacks = client.frames.callbacks(campaigns, status="pending")
    return {**said, "frames": frames, "callbacks": callbacks}


@pytest.fixture(scope="module")
def audited(account: dict[str, Any]) -> Audited:
    problems, verified = account["ground-truth"], account["caller-ids"]
    lists = account["dnc-lists"]
    frames = {**account["frames"], "dnc": _with_lists(
        account["frames"]["dnc"], lists["listings"], problems["problems"].get("dnc_grace", []))}
    report = audit(**frames, blocked_countries=["KP", "IR"], policy=HOUSE_RULES,
                   verified_caller_ids=verified["caller_ids"])
    law_only = audit(**frames, blocked_countries=["KP", "IR"], rules=US,
                     verified_caller_ids=verified["caller_ids"])
    truth = {kind: {p["call_id"] for p in found} for kind, found in problems["problems"].items()}
    late = {p["lead_id"] for p in account["upcoming-truth"]["problems"].get(LISTED_LATE, [])}
    truth.update({LISTED_LATE: late} if late else {})
    said = _unscrubbed(frames["calls"], frames.get("texts"))
    truth[UNSCRUBBED] = set(said)
    bases: Bases = {"law": set(), "policy": set()}
    for kind, found in problems["problems"].items():
        if kind in RULE_OF_KIND:
            for problem in found:
                bases[problem["basis"]].add(f"{RULE_OF_KIND[kind]} {problem['call_id']}")
    derived = [{"call_id": call, "said": words} for call, words in said.items()]
    return report, truth, bases, law_only, {**problems["problems"], UNSCRUBBED: derived}


def _with_lists(dnc: pd.DataFrame, listings: list[dict[str, Any]],
                graced: list[dict[str, Any]]) -> pd.DataFrame:
    """The DNC results as a scrub vendor and the account's records tell them (issue 47):
    each listed number's ``list`` and ``listed_at``, and the registry checks the account
    made before a ``dnc_grace`` number was listed (then not yet listed)."""
    known = pd.DataFrame(listings).set_index("phone")
    listed = dnc["phone"].map(known["list"])
    dnc = dnc.assign(list=listed.where(dnc["listed"].astype(bool)),
                     listed_at=pd.to_datetime(dnc["phone"].map(known["listed_at"]), utc=True))
    checks = pd.DataFrame({"phone": [p["phone"] for p in graced], "listed": False,
                           "checked_at": pd.to_datetime([p["detail"]["checked_at"]
                                                         for p in graced], utc=True)})
    return pd.concat([dnc, checks.astype({"checked_at": dnc["checked_at"].dtype})],
                     ignore_index=True)


def _state(phone: str) -> str | None:
    """A US number's state by libphonenumber's geocoder (``Colorado``, ``New York, NY``);
    None for another number, or a place pycountry does not name a state."""
    number = phonenumbers.parse(phone)
    if phonenumbers.region_code_for_number(number) != "US":
        return None
    said = geocoder.description_for_number(number, "en")
    code = re.search(r", ([A-Z]{2})$", said)
    return code.group(1) if code else STATES.get(said)


def _unscrubbed(calls: pd.DataFrame, texts: pd.DataFrame | None) -> dict[str, str]:
    """The first call (or text, which the audit judges as a call) to each number of a
    state in :data:`REQUIRED` (earliest, then in the frames' order), and what its
    evidence must say of the number's calls: how many, and the last one's time."""
    made = [calls.loc[calls["direction"] == "outbound", ["id", "to_number", "created_at"]]]
    if texts is not None:
        made.append(texts.rename(columns={"message_id": "id", "to": "to_number"})[
            ["id", "to_number", "created_at"]])
    made = pd.concat(made, ignore_index=True).astype({"to_number": object})
    states = made["to_number"].drop_duplicates()
    risky = made[made["to_number"].map(dict(zip(states, states.map(_state), strict=True)))
                 .isin(REQUIRED)].sort_values("created_at", kind="stable")
    by_number = risky.groupby("to_number")["created_at"].agg(["size", "max"])
    said = by_number["size"].map(lambda n: "called once " if n == 1 else f"called {n} times")
    said = said.where(by_number["size"] == 1, said + " in the calls audited with no exemption "
                      "from its list, this the first, the last on "
                      + by_number["max"].dt.strftime("%Y-%m-%d %H:%M:%S") + " UTC;")
    first = risky.drop_duplicates("to_number")
    return dict(zip(first["id"], first["to_number"].map(said), strict=True))


def _found(report: AuditReport, rule: str) -> set[str]:
    """The calls a rule found broke the law or the policy (its risks apart)."""
    found = report.findings
    return set(found.loc[(found["rule"] == rule) & (found["basis"] != "risk"), "call_id"])


def _risks(report: AuditReport, rule: str) -> set[str]:
    found = report.findings
    return set(found.loc[(found["rule"] == rule) & (found["basis"] == "risk"), "call_id"])


def _leads_found(report: AuditReport, rule: str) -> set[str]:
    return set(report.findings.loc[report.findings["rule"] == rule, "lead_id"])


def test_the_world_plants_every_kind(audited: Audited) -> None:
    _, truth, _, _, _ = audited
    assert {*FEDERAL_KINDS, "abandoned", "state_calling_hours", "state_day_ban",
            "split_zone_hours", "caller_id", "dnc_grace", "abandonment_period",
            "person_frequency"} <= set(truth)
    assert set(truth) <= {*RULE_OF_KIND, "abandoned", LISTED_LATE, "dnc_grace",
                          UNSCRUBBED} and all(truth.values())


@pytest.mark.parametrize("rule", sorted(set(RULE_OF_KIND.values())))
def test_the_audit_finds_exactly_the_planted_calls(audited: Audited,
                                                   rule: str) -> None:
    """Each rule's findings are the calls of every kind planted for it: under ``US``, a
    Sunday call to Louisiana and a 20:30 one to Florida are calling-hours findings too."""
    report, truth, _, _, _ = audited
    planted = set().union(*(truth.get(kind, set()) for kind, of in RULE_OF_KIND.items()
                            if of == rule))
    assert _found(report, rule) == planted


def test_a_number_of_a_state_whose_list_is_required_is_one_risk(audited: Audited) -> None:
    """No state's list is in the world's DNC results: each number called of a state whose
    law obliges a caller to obtain its list is one risk, on its first call, citing that
    state's section; the calls to other states' numbers are none."""
    report, truth, _, _, derived = audited
    assert _risks(report, "dnc_call") == truth[UNSCRUBBED]
    risks = report.findings[(report.findings["rule"] == "dnc_call")
                            & (report.findings["basis"] == "risk")]
    said = {problem["call_id"]: problem["said"] for problem in derived[UNSCRUBBED]}
    assert all(said[call] in evidence for call, evidence in zip(
        risks["call_id"], risks["evidence"], strict=True))  # how many calls, the last when
    assert risks["phone"].is_unique and risks["jurisdiction"].str.removeprefix("US-").isin(
        REQUIRED).all()
    assert (risks["decided_by"] == "number").all() and risks["citation"].notna().all()
    assert risks["evidence"].str.contains("no scrub of the").all()
    assert f"({len(risks):,} number" in report.notes["state_lists"]


def test_counts_stay_whole_numbers_beside_other_rules(audited: Audited) -> None:
    report, _, _, _, _ = audited
    assert str(report.findings["calls_in_24h"].dtype) == "Int64"
    frequent = report.findings[report.findings["rule"] == "call_frequency"]
    assert (frequent["calls_in_24h"] >= 4).all()


def test_a_split_area_codes_call_is_judged_in_its_later_zone(audited: Audited) -> None:
    """47 CFR 64.1200(c)(1): no call "after 9 p.m. (local time at the called party's
    location)"; the exchange does not say which zone the person is in, so the call the
    number's own zone allows (before 21:00) is found in the zone already past it."""
    report, _, _, _, planted = audited
    found = report.findings[report.findings["rule"] == "calling_hours"].set_index("call_id")
    for problem in planted["split_zone_hours"]:
        detail, row = problem["detail"], found.loc[problem["call_id"]]
        assert detail["local_time"] < "21:00" <= detail["stricter_local_time"]
        assert row["timezone"] == detail["stricter_timezone"]
        assert row["basis"] == "law" and "64.1200(c)(1)" in row["citation"]


def test_a_call_that_showed_no_number_breaks_the_law(audited: Audited) -> None:
    """16 CFR 310.4(a)(8): "Failing to transmit ... the telephone number ... to any caller
    identification service in use by a recipient": a finding of law, whose evidence says
    which id was shown."""
    report, truth, _, _, _ = audited
    found = report.findings[report.findings["rule"] == "caller_id"]
    assert set(found["call_id"]) == truth["caller_id"]
    assert (found["basis"] == "law").all() and (found["citation"] == "16 CFR 310.4(a)(8)").all()
    assert found["evidence"].str.startswith("caller id: 'anonymous', a blocked id").all()


def test_dnc_calls_are_dated_by_the_listing(audited: Audited) -> None:
    report, _, _, _, _ = audited
    calls = report.findings[(report.findings["rule"] == "dnc_call")
                            & (report.findings["basis"] == "law")]
    assert calls["listed_at"].notna().all() and (calls["at"] > calls["listed_at"]).all()
    assert calls["evidence"].str.contains(", listed on ").all()
    assert calls["citation"].notna().all() and (calls["decided_by"] == "list").all()


def test_a_person_is_counted_across_their_numbers(audited: Audited) -> None:
    """Fla. Stat. 501.616(6)(b): "more than three commercial telephone sales calls from any
    number to a person over a 24-hour period on the same subject matter or issue,
    regardless of the phone number used": a lead called on its own number and on its
    other one (``custom_fields``' ``other_phones``) is one person; no number had four."""
    report, truth, _, _, planted = audited
    found = report.findings[report.findings["rule"] == "call_frequency"].set_index("call_id")
    rows = found.loc[sorted(truth["person_frequency"])]
    assert (rows["basis"] == "law").all() and (rows["jurisdiction"] == "US-FL").all()
    assert rows["citation"].str.contains("501.616(6)(b)", regex=False).all()
    assert (rows["calls_in_24h"] >= 4).all()
    for problem in planted["person_frequency"]:
        detail = problem["detail"]
        assert detail["lead_phone"] != detail["other_phone"]
        assert problem["phone"] in {detail["lead_phone"], detail["other_phone"]}
    assert not {f"call_frequency {call}" for call in truth["person_frequency"]} & {
        f"{row.rule} {row.call_id}" for row in report.findings.itertuples()
        if row.basis == "policy"}  # no number had more than three: no policy finding


def test_each_list_judges_its_calls_with_its_own_grace(audited: Audited) -> None:
    """16 CFR 310.4(b)(1)(iii)(A) gives a request to the account no grace: a call after it
    is a finding. 47 CFR 64.1200(c)(2)(i)(D): a call is safe where the caller uses "a
    version of the national do-not-call registry obtained ... no more than 31 days prior
    to the date any call is made": a call to a registry-listed number checked before its
    listing and within 31 days is none; one with no such check is a finding."""
    report, truth, _, _, planted = audited
    found = report.findings[(report.findings["rule"] == "dnc_call")
                            & (report.findings["basis"] == "law")].set_index("call_id")
    on = {p["call_id"]: p["detail"]["list"] for p in planted["dnc_call"]}
    assert {"company", "national"} <= set(on.values())
    for call, listed in on.items():
        assert ("310.4(b)(1)(iii)(A)" if listed == "company" else "64.1200(c)(2)") in (
            found.loc[call, "citation"])
    for problem in planted["dnc_grace"]:
        detail = problem["detail"]
        assert detail["list"] == "national" and detail["checked_at"] < detail["listed_at"]
    graced = set(report.findings.loc[report.findings["basis"] != "risk", "call_id"])
    assert truth["dnc_grace"] and not truth["dnc_grace"] & graced


def test_the_abandoned_calls_are_exactly_the_planted_ones(
        audited: Audited) -> None:
    report, truth, _, _, _ = audited
    assert set(report.abandoned["call_id"]) == truth["abandoned"] | truth["abandonment_period"]
    assert report.notes["abandonment"].startswith("agent_joined_at")


def test_each_campaigns_periods_are_counted_as_the_world_counted_them(
        audited: Audited) -> None:
    """47 CFR 64.1200(a)(7): no more than "three percent of all telemarketing calls that
    are answered live by a person, as measured over a 30-day period for a single calling
    campaign", "calculated separately for each successive 30-day period". The world
    counted each abandoned call's period itself: the spread ones' periods are at most 3%
    (no finding), the clustered ones' one period is over (each a finding of law)."""
    report, _, _, _, planted = audited
    windows = report.abandoned.set_index("call_id")
    for kind, over in (("abandoned", False), ("abandonment_period", True)):
        for problem in planted[kind]:
            detail, row = problem["detail"], windows.loc[problem["call_id"]]
            assert (row["window_answered"], row["window_abandoned"]) == (
                detail["answered"], detail["abandoned"])
            assert row["window_start"] == pd.Timestamp(detail["period_start"])
            assert (detail["abandoned"] > 0.03 * detail["answered"]) is over
    found = report.findings[report.findings["rule"] == "abandonment"]
    assert (found["basis"] == "law").all() and found["citation"].str.contains(
        "64.1200(a)(7)", regex=False).all()
    assert len({p["detail"]["period_start"] for p in planted["abandonment_period"]}) == 1


def test_the_world_has_no_other_findings(audited: Audited) -> None:
    report, truth, _, _, _ = audited
    assert set(report.ran) == {"calling_hours", "unknown_timezone", "call_frequency",
                               "dnc_call", "dnc_lead", "unscreened_lead", "abandonment",
                               "blocked_country", "unverified_caller_id",
                               "unknown_jurisdiction", "short_ring", "caller_id",
                               "unknown_address_state", "no_law_held"}
    assert not set(report.findings["rule"]) & {"unknown_timezone", "blocked_country",
                                                "no_law_held",
                                                "unknown_jurisdiction", "unscreened_lead",
                                                "unknown_address_state",
                                                "unverified_caller_id"}
    assert _leads_found(report, "dnc_lead") == truth.get(LISTED_LATE, set())
    leads = report.findings[report.findings["rule"] == "dnc_lead"]
    assert (leads["basis"] == "risk").all()  # a lead held, not called: no violation
    assert report.by_basis["risk"] == len(leads) + len(truth[UNSCRUBBED])
    assert report.risks.to_dict() == {"calls": len(truth[UNSCRUBBED]),
                                      "leads": leads["lead_id"].nunique()}


def test_the_evidence_workbook_and_page(audited: Audited,
                                        tmp_path: Path) -> None:
    report, _, _, _, _ = audited
    path = tmp_path / "evidence.xlsx"
    report.to_excel(path, mask_pii=True, about={"account": "acme"})
    book = openpyxl.load_workbook(path, read_only=False)
    assert book.sheetnames[:2] == ["cover", "summary"]
    assert set(book.sheetnames[2:]) == set(report.ran)
    for rule in report.ran:
        sheet = book[rule]
        header = [cell.value for cell in sheet[1]]
        assert header[:11] == ["rule", "severity", "campaign_id", "call_id", "channel",
                               "lead_id", "phone", "at", "local_time", "timezone", "evidence"]
        assert sheet.max_row - 1 == (report.findings["rule"] == rule).sum()
        assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref
    phones = [row[6].value for row in book["calling_hours"].iter_rows(min_row=2)]
    assert phones and all("*****" in phone for phone in phones)
    cover = {row[0].value: row[1].value for row in book["cover"].iter_rows(min_row=2)}
    assert cover["account"] == "acme" and "08:00-21:00" in cover["policy: calling window"]
    assert cover["policy"] == HOUSE_RULES.name and "jurisdictions applied" in cover
    assert "agent_joined_at" in cover["abandonment told by"]
    assert report.to_html(tmp_path / "report.html", mask_pii=True) is None
    page = (tmp_path / "report.html").read_text()
    assert page == report.to_html(mask_pii=True)
    charts = report.findings[report.findings["at"].notna()].groupby(["basis", "rule"]).ngroups
    assert page.count("data:image/png;base64,") == charts
    law, policy, risk = report.by_basis
    assert f"<h2>Findings of law: {law:,}</h2>" in page
    assert f"<h2>Findings of the account's policy: {policy:,}</h2>" in page
    assert page.index("Findings of law") < page.index("Findings of the account's policy")
    assert (cover["findings of law"], cover["findings of policy"],
            cover["risks: calls that may have broken a law"],
            cover["risks: leads that could be called wrongly"]) == (
        str(law), str(policy), *(str(n) for n in report.risks[["calls", "leads"]]))
    assert report.risks.sum() == risk
    summary = pd.read_excel(path, sheet_name="summary", engine="calamine")
    assert (summary["law"].sum(), summary["policy"].sum(), summary["risk"].sum()) == (
        law, policy, risk)
    assert not any(phone in page for phone in report.findings["phone"].dropna())


def test_law_and_policy_findings_are_told_apart_as_the_world_planted_them(
        audited: Audited) -> None:
    """A burst to a number whose place sets no cap is the house rules' finding; the same
    burst to Florida, Maryland or Oklahoma, and every hours and day ban, the law's."""
    report, _, bases, law_only, _ = audited
    found = report.findings[report.findings["rule"].isin(set(RULE_OF_KIND.values()))]
    said = {basis: set(rows["rule"] + " " + rows["call_id"])
            for basis, rows in found.groupby("basis")}
    assert said.get("law", set()) == bases["law"] and said["policy"] == bases["policy"]
    assert bases["policy"] and bases["law"]
    assert (found.loc[found["basis"] == "policy", "policy"] == HOUSE_RULES.name).all()
    assert found.loc[found["basis"] == "law", "policy"].isna().all()
    # the law alone finds the law's findings and nothing of the policy's
    law = law_only.findings
    ofcom = law_only.findings["policy"] == "Ofcom persistent misuse policy (not law)"
    assert law_only.by_basis["policy"] == ofcom.sum()  # a UK number's abandonment, policy
    assert set(law["rule"] + " " + law["call_id"].fillna("")) & bases["policy"] == set()
    assert bases["law"] <= set(law["rule"] + " " + law["call_id"].fillna(""))
    assert report.by_basis["law"] == law_only.by_basis["law"]


Judged = tuple[pd.DataFrame, dict[str, list[dict[str, str]]], pd.DataFrame]


@pytest.fixture(scope="module")
def judged(account: dict[str, Any]) -> Judged:
    """``upcoming`` of the frames a client gives it (``upcoming(client)``, which loads them
    the same way, is tested in ``test_upcoming.py``)."""
    frames = {**account["frames"], "callbacks": account["callbacks"]}
    found = upcoming(frames, horizon="14D", as_of=START)
    with_policy = upcoming(frames, horizon="14D", as_of=START, policy=HOUSE_RULES)
    return found, account["upcoming-truth"]["problems"], with_policy


def test_the_world_plants_every_upcoming_kind(judged: Judged,
                                              request: pytest.FixtureRequest) -> None:
    """Every kind at medium; the small world's paused campaigns may hold one pending
    callback only, so it plants the hours kinds at least."""
    _, truth, _ = judged
    hours = {"upcoming_callback_hours", "upcoming_attempt_hours"}
    assert hours <= set(truth) <= set(KIND_OF) and all(truth.values())
    if "medium" in request.node.name:
        assert set(truth) == set(KIND_OF)


def test_upcoming_finds_exactly_the_planted_calls(judged: Judged) -> None:
    """Besides the planted calls, a call to come to a number of a state in :data:`REQUIRED`
    (the world's DNC results hold no state's scrub) is a risk, as the audit's first call
    to it is (issue 79: it was the number's first past call's alone)."""
    found, truth, _ = judged
    risks = found[(found["basis"] == "risk").to_numpy(bool)]
    assert (risks["rule"] == "dnc_call").all()
    assert risks["jurisdiction"].astype(str).str.removeprefix("US-").isin(REQUIRED).all()
    found = found[(found["basis"] != "risk").to_numpy(bool)]
    planted = {(p["lead_id"], p["rule"], KIND_OF[kind]) for kind, problems in truth.items()
               for p in problems}
    assert set(zip(found["lead_id"], found["rule"], found["kind"].astype(str),
                   strict=True)) == planted
    due = {p["lead_id"]: pd.Timestamp(p["due_at"]) for problems in truth.values()
           for p in problems}
    assert (found["at"] == found["lead_id"].map(due)).all()
    assert (found["basis"] == "law").all()
    assert (found["due_in"] == found["at"] - pd.Timestamp(START)).all()


def test_a_policy_adds_only_policy_findings_upcoming(judged: Judged) -> None:
    found, _, with_policy = judged
    law, found = (frame[frame["basis"] == "law"] for frame in (with_policy, found))
    assert set(zip(law["lead_id"], law["rule"], strict=True)) == set(
        zip(found["lead_id"], found["rule"], strict=True))
    assert (with_policy.loc[with_policy["basis"] == "policy", "policy"]
            == HOUSE_RULES.name).all()
