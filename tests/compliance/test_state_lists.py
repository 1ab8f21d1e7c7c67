"""A US state's own Do-Not-Call list and Canada's exemptions (issue 73, items 1 and 2),
each case derived by hand from the words the rows of ``dnc_lists.toml`` quote.

- A number on a state's list (the DNC results' ``list`` is the state's id, ``US-TX``) is
  judged by that state's row and cited by it; the state's grace (73 P.S. 2245.2(a):
  "effective 30 days after a quarterly do-not-call list is issued") and its own
  exemptions (Tennessee's business relationship "within the previous twelve (12)
  months"; none read for Colorado) decide, not the federal ones.
- Canada's DNCL "do not apply to telemarketing calls made to businesses"; a registered
  charity's and a newspaper's calls are exempt, each its own fact; a written contract
  "still in effect or expired within the last eighteen (18) months" exempts.
- Where the DNC results hold no scrub of a state's list, the note says so; where the
  state's law obliges a caller to obtain its list (Colorado: "shall ... obtain a copy"),
  a number of that state called is a risk, whether or not other states' lists were
  given: one a number, on its first call that the list's law would not exempt.
"""

from __future__ import annotations

import pandas as pd
import pytest
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure

from dialkit.compliance import AuditInputError, audit, next_allowed, plot_by_state, plot_summary
from dialkit.compliance._report._evidence import COLOURS
from dialkit.errors import ComplianceRiskWarning

AUSTIN, DENVER, PHILADELPHIA, NASHVILLE, MIAMI, BOSTON = (
    "+15125550123", "+13035550123", "+12155550123", "+16155550123", "+13055550123",
    "+16175550123")
TORONTO = "+14165550123"
TEXAS, COLORADO, PENNSYLVANIA, TENNESSEE, MASSACHUSETTS = (
    "Tex. Bus. & Com. Code 304.052", "C.R.S. 6-1-904(1)(a)", "73 P.S. 2245.2(a)",
    "T.C.A. 65-4-404", "201 CMR 12.02(1); M.G.L. c. 159C, s. 3")
DNCL = ("CRTC Unsolicited Telecommunications Rules, Part II (National DNCL Rules); "
        "Telecommunications Act 41.7")


def calls(phone: str, *times: str) -> pd.DataFrame:
    return pd.DataFrame({
        "id": [f"call_{n}" for n in range(len(times))], "direction": "outbound",
        "from_number": "+14155550100", "to_number": phone,
        "created_at": pd.to_datetime(list(times), utc=True), "answered_at": pd.NaT,
        "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None})


def listed(phone: str, on: str, since: str, *more: tuple[str, str, str]) -> pd.DataFrame:
    rows = [(phone, on, since), *more]
    return pd.DataFrame({"phone": [r[0] for r in rows], "listed": True,
                         "list": [r[1] for r in rows],
                         "listed_at": pd.to_datetime([r[2] for r in rows], utc=True),
                         "checked_at": pd.to_datetime([r[2] for r in rows], utc=True)})


def lead(phone: str, line: str | None = None) -> pd.DataFrame:
    frame = pd.DataFrame({"id": ["lead_1"], "campaign_id": "cmp_1", "phone": [phone],
                          "status": "completed"})
    return frame if line is None else frame.assign(line=line)


def dnc_found(report: object) -> pd.DataFrame:
    found: pd.DataFrame = report.findings  # type: ignore[attr-defined]
    return found[found["rule"] == "dnc_call"]


def cited(phone: str, on: str, since: str, at: str, **given: object) -> list[str]:
    report = audit(calls(phone, at), dnc=listed(phone, on, since), as_of="2026-11-27",
                   **given)  # type: ignore[arg-type]
    return dnc_found(report)["citation"].tolist()


@pytest.mark.parametrize(("at", "found"), [
    ("2026-02-27T16:00Z", []),          # before the listing
    ("2026-06-02T16:00Z", [TEXAS]),     # after it: no grace was read in 304.052
])
def test_a_number_on_a_states_list_is_judged_by_that_states_row(at: str,
                                                                found: list[str]) -> None:
    assert cited(AUSTIN, "US-TX", "2026-03-01", at) == found


def test_the_finding_names_the_state_list_and_its_row() -> None:
    report = audit(calls(AUSTIN, "2026-06-02T16:00Z"), dnc=listed(AUSTIN, "US-TX", "2026-03-01"),
                   as_of="2026-11-27")
    row = dnc_found(report).iloc[0]
    assert row["jurisdiction"] == "US-TX" and row["basis"] == "law"
    assert "Texas no-call list" in row["evidence"] and "doubtful" in row["evidence"]


@pytest.mark.parametrize(("at", "found"), [
    ("2026-06-30T16:00Z", []),                # 29 days after the list's issue
    ("2026-07-01T16:00Z", [PENNSYLVANIA]),    # the 30th day: the prohibition is effective
])
def test_pennsylvanias_prohibition_is_effective_30_days_after_the_list(
        at: str, found: list[str]) -> None:
    assert cited(PHILADELPHIA, "US-PA", "2026-06-01", at) == found


@pytest.mark.parametrize(("at", "found"), [
    ("2026-06-09T16:00Z", []),              # within twelve months of the purchase
    ("2026-06-11T16:00Z", [TENNESSEE]),     # after them (the TSR's 540 days would still hold)
])
def test_tennessee_counts_a_business_relationship_twelve_months(at: str,
                                                               found: list[str]) -> None:
    ebr = pd.DataFrame({"phone": [NASHVILLE], "kind": "ebr", "relationship": "purchase",
                        "given_at": pd.to_datetime(["2025-06-10"], utc=True)})
    assert cited(NASHVILLE, "US-TN", "2026-01-01", at, consents=ebr) == found


def test_a_consent_does_not_lift_a_list_whose_exemptions_were_not_read() -> None:
    """Massachusetts's 159C definitions were not read: no record exempts (stricter)."""
    written = pd.DataFrame({"phone": [BOSTON], "kind": "written",
                            "given_at": pd.to_datetime(["2026-01-01"], utc=True)})
    assert cited(BOSTON, "US-MA", "2026-01-01", "2026-06-02T16:00Z",
                 consents=written) == [MASSACHUSETTS]


@pytest.mark.parametrize(("phone", "on", "line", "found"), [
    (AUSTIN, "US-TX", "business", []),            # 'Business telephone numbers are NOT eligible'
    (AUSTIN, "US-TX", "residential", [TEXAS]),
    (PHILADELPHIA, "US-PA", "business", [PENNSYLVANIA]),   # business subscribers since 2019
])
def test_a_business_line_lifts_a_list_of_residential_subscribers_only(
        phone: str, on: str, line: str, found: list[str]) -> None:
    report = audit(calls(phone, "2026-07-15T16:00Z"), leads=lead(phone, line),
                   dnc=listed(phone, on, "2026-01-01"), as_of="2026-11-27")
    assert dnc_found(report)["citation"].tolist() == found


@pytest.mark.parametrize(("facts", "found"), [
    ({}, [TEXAS]), ({"nonprofit": True}, []),    # a charity's call is no telephone solicitation
    ({"charity": True}, [TEXAS]),                # Canada's registered charity: not Texas's fact
])
def test_a_fact_lifts_only_the_lists_whose_law_names_it(facts: dict[str, bool],
                                                      found: list[str]) -> None:
    assert cited(AUSTIN, "US-TX", "2026-01-01", "2026-06-02T16:00Z", **facts) == found


@pytest.mark.parametrize(("line", "facts", "found"), [
    (None, {}, [DNCL]),
    ("residential", {}, [DNCL]),
    ("business", {}, []),                  # "do not apply to ... calls made to businesses"
    (None, {"charity": True}, []),         # 41.7(1)(a)
    (None, {"newspaper": True}, []),       # 41.7(1)(g)
    (None, {"nonprofit": True}, [DNCL]),   # a nonprofit is not a registered charity
])
def test_canadas_dncl_exemptions(line: str | None, facts: dict[str, bool],
                                 found: list[str]) -> None:
    report = audit(calls(TORONTO, "2026-06-02T16:00Z"), leads=lead(TORONTO, line),
                   dnc=listed(TORONTO, "national", "2026-01-01"), as_of="2026-11-27",
                   **facts)  # type: ignore[arg-type]
    assert dnc_found(report)["citation"].tolist() == found


def test_the_accounts_own_list_still_binds_a_canadian_business_line() -> None:
    """The Telemarketing Rules (Part III) bind exempt callers too: a request not to be
    called still forbids the next call to a business line."""
    made = calls(TORONTO, "2026-06-01T16:00Z", "2026-06-02T16:00Z").assign(
        disposition=["do_not_call", None],
        ended_at=pd.to_datetime(["2026-06-01T16:01Z", "2026-06-02T16:01Z"], utc=True))
    report = audit(made, leads=lead(TORONTO, "business"),
                   dnc=listed(TORONTO, "national", "2026-01-01"), as_of="2026-11-27")
    assert dnc_found(report)["citation"].tolist() == [
        "CRTC Unsolicited Telecommunications Rules, Part III (Telemarketing Rules)"]


@pytest.mark.parametrize(("signed", "ends", "found"), [
    ("2025-01-01", None, []),                 # in force
    ("2025-01-01", "2025-03-01", []),         # expired, within 18 months of the call
    ("2024-01-01", "2024-11-01", [DNCL]),     # expired 19 months before
    ("2026-07-01", None, [DNCL]),             # signed after the call
])
def test_a_written_contract_exempts_while_in_force_and_18_months_after(
        signed: str, ends: str | None, found: list[str]) -> None:
    contracts = pd.DataFrame({"phone": [TORONTO],
                              "signed_at": pd.to_datetime([signed], utc=True),
                              "ends_at": pd.to_datetime([ends], utc=True)})
    assert cited(TORONTO, "national", "2026-01-01", "2026-06-02T16:00Z",
                 contracts=contracts) == found


def test_a_contract_does_not_lift_the_us_registry() -> None:
    contracts = pd.DataFrame({"phone": [AUSTIN],
                              "signed_at": pd.to_datetime(["2025-01-01"], utc=True)})
    assert cited(AUSTIN, "national", "2026-01-01", "2026-06-02T16:00Z",
                 contracts=contracts) == ["16 CFR 310.4(b)(1)(iii)(B); 47 CFR 64.1200(c)(2)"]


@pytest.mark.parametrize("given", ["national", "US-TX"])
def test_a_required_list_missing_is_a_risk_whatever_other_lists_were_given(
        given: str) -> None:
    """Colorado's list is required, Florida's is not: its call is judged by the national
    registry and the account's own list only, and the note says so."""
    dnc = listed(AUSTIN, given, "2026-01-01").assign(listed=False)
    made = pd.concat([calls(DENVER, "2026-06-02T16:00Z"),
                      calls(MIAMI, "2026-06-02T17:00Z").assign(id="call_9")])
    report = audit(made, dnc=dnc, as_of="2026-11-27")
    found = dnc_found(report)
    assert found["call_id"].tolist() == ["call_0"]      # Colorado's, not Florida's
    assert found["basis"].tolist() == ["risk"] and found["citation"].tolist() == [COLORADO]
    assert found["jurisdiction"].tolist() == ["US-CO"]
    assert report.risks["calls"] == 1 and report.by_basis["law"] == 0
    note = report.notes["state_lists"]
    assert "Colorado No-Call List (US-CO, required)" in note and "(1 number)" in note
    assert "Florida Do Not Call List (US-FL)" in note and "Texas" not in note


def test_a_number_is_one_risk_on_its_first_call() -> None:
    """Three calls to one Denver number, two to another: two risks, each on its number's
    first call, its evidence counting the calls."""
    made = calls(DENVER, "2026-06-03T16:00Z", "2026-06-01T16:00Z", "2026-06-02T16:00Z")
    made = pd.concat([made, calls("+17205550123", "2026-06-04T16:00Z", "2026-06-05T16:00Z")
                      .assign(id=["call_7", "call_8"])], ignore_index=True)
    report = audit(made, dnc=listed(AUSTIN, "national", "2020-01-01"), as_of="2026-11-27")
    found = dnc_found(report)
    assert found["call_id"].tolist() == ["call_1", "call_7"]
    assert report.risks["calls"] == 2 and report.by_basis["risk"] == 2
    evidence = found["evidence"].tolist()
    assert "called 3 times" in evidence[0] and "the last on 2026-06-03 16:00:00" in evidence[0]
    assert "called 2 times" in evidence[1] and "(2 numbers)" in report.notes["state_lists"]


def test_the_risk_is_the_first_call_of_the_period_asked() -> None:
    made = calls(DENVER, "2026-05-01T16:00Z", "2026-06-02T16:00Z", "2026-06-03T16:00Z")
    report = audit(made, dnc=listed(AUSTIN, "national", "2020-01-01"), as_of="2026-11-27",
                   since="2026-06-01", until="2026-07-01")
    found = dnc_found(report)
    assert found["call_id"].tolist() == ["call_1"] and "called 2 times" in found[
        "evidence"].iloc[0]


@pytest.mark.parametrize(("phone", "line", "facts", "found", "noted"), [
    (DENVER, "business", {}, [], "US-CO"),       # Colorado's list: residential subscribers
    (PHILADELPHIA, "business", {}, [PENNSYLVANIA], "US-PA"),  # business ones since 2019
    (PHILADELPHIA, None, {"nonprofit": True}, [], None),  # lifts Pennsylvania's list: no note
    (DENVER, None, {"nonprofit": True}, [], None),    # and Colorado's (its charities)
    (BOSTON, None, {"nonprofit": True}, [MASSACHUSETTS], "US-MA"),    # not Massachusetts's
])
def test_what_exempts_a_listed_numbers_call_lifts_its_risk(
        phone: str, line: str | None, facts: dict[str, bool], found: list[str],
        noted: str | None) -> None:
    report = audit(calls(phone, "2026-06-02T16:00Z"), leads=lead(phone, line),
                   dnc=listed(AUSTIN, "national", "2020-01-01"), as_of="2026-11-27",
                   **facts)  # type: ignore[arg-type]
    assert dnc_found(report)["citation"].tolist() == found
    note = report.notes.get("state_lists")
    assert (note is None) if noted is None else (noted in note)


def test_a_consent_its_law_names_moves_the_risk_to_the_first_call_it_does_not_cover() -> None:
    """T.C.A. 65-4-404 exempts a call with the person's "express invitation or
    permission": the calls after a written consent are no risk; the one before it is."""
    made = calls(NASHVILLE, "2026-06-01T16:00Z", "2026-06-03T16:00Z", "2026-06-04T16:00Z")
    written = pd.DataFrame({"phone": [NASHVILLE], "kind": "written",
                            "given_at": pd.to_datetime(["2026-06-02"], utc=True)})
    report = audit(made, dnc=listed(AUSTIN, "national", "2020-01-01"), consents=written,
                   as_of="2026-11-27")
    found = dnc_found(report)
    assert found["call_id"].tolist() == ["call_0"] and found["citation"].tolist() == [TENNESSEE]
    assert "called once" in found["evidence"].iloc[0]


def test_a_list_the_table_does_not_know_is_refused_by_name() -> None:
    with pytest.raises(AuditInputError, match=r"dnc\.list holds 'US-ZZ'"):
        cited(AUSTIN, "US-ZZ", "2026-01-01", "2026-06-02T16:00Z")


def test_next_allowed_reads_a_state_list_as_the_audit_does() -> None:
    """Texas's listing forbids the Austin call; the Denver number, which no scrub of
    Colorado's required list answers for, is the audit's risk: allowed, its ``risk``
    saying so, and a warning (issue 81: a risk is no refusal)."""
    dnc = listed(AUSTIN, "US-TX", "2026-01-01")
    with pytest.warns(ComplianceRiskWarning, match="1 number allowed may be a call the law"):
        answer = next_allowed([AUSTIN, DENVER], "2026-06-02T16:00Z", dnc=dnc)
    assert answer["allowed"].tolist() == [False, True]
    assert answer[["rule", "jurisdiction", "basis"]].iloc[0].tolist() == [
        "dnc_call", "US-TX", "law"]
    assert answer["risk"].isna().tolist() == [True, False]
    assert "Colorado No-Call List (list US-CO)" in answer["risk"].iloc[1]
    assert COLORADO in answer["risk"].iloc[1]
    assert pd.isna(answer["next_allowed_at"].iloc[0])


def test_the_dask_path_reads_state_lists_and_their_absence_alike() -> None:
    """The same inputs on Dask (two partitions each): the state's finding, the missing
    required list's risk (on the number's first call, whichever partition held it) and
    the note, as pandas gives them."""
    dd = pytest.importorskip("dask.dataframe")
    made = pd.concat([calls(AUSTIN, "2026-06-02T16:00Z"),
                      calls(DENVER, "2026-06-03T17:00Z", "2026-06-02T17:00Z").assign(
                          id=["call_8", "call_9"])], ignore_index=True)
    dnc = listed(AUSTIN, "US-TX", "2026-01-01")
    pandas = audit(made, dnc=dnc, as_of="2026-11-27")
    dask = audit(dd.from_pandas(made, npartitions=2), dnc=dd.from_pandas(dnc, npartitions=2),
                 as_of="2026-11-27")
    keys = ["call_id", "basis", "citation", "jurisdiction"]
    assert (dnc_found(dask)[keys].sort_values("call_id").values.tolist()
            == dnc_found(pandas)[keys].sort_values("call_id").values.tolist()
            == [["call_0", "law", TEXAS, "US-TX"], ["call_9", "risk", COLORADO, "US-CO"]])
    assert dask.notes == pandas.notes


def test_the_rate_of_a_rule_counts_its_violations_and_not_its_risks() -> None:
    """Issue 79: of three calls, one broke Texas's list (law) and one is Colorado's risk
    (its required list missing). The rate is of the calls that broke a law, 1 of 3: the
    risk is counted in its own column, not in the rate (which said 2 of 3)."""
    made = pd.concat([calls(AUSTIN, "2026-06-02T16:00Z"),
                      calls(DENVER, "2026-06-03T17:00Z", "2026-06-02T17:00Z").assign(
                          id=["call_8", "call_9"])], ignore_index=True)
    report = audit(made, dnc=listed(AUSTIN, "US-TX", "2026-01-01"), as_of="2026-11-27")
    row = report.totals.loc["dnc_call"]
    assert row[["findings", "law", "policy", "risk", "audited"]].tolist() == [2, 1, 0, 1, 3]
    assert row["rate"] == round(1 / 3, 4)
    assert report.summary.set_index("rule").loc["dnc_call", "rate"] == 1 / 3
    line = next(line for line in report.to_text().splitlines() if line.startswith("dnc_call"))
    assert line.split()[1:] == ["2", "1", "0", "1", "3", "outbound", "calls", "33.33%",
                                "broken"]
    ax = plot_summary(report, ax=Figure().add_subplot())
    assert "2 of 3 outbound calls (violations 33.33%; 1 law, 1 risk)" in [
        text.get_text() for text in ax.texts]


def test_a_lead_on_a_states_list_still_dialable_names_the_states_law() -> None:
    leads = lead(AUSTIN).assign(status="contacted")
    report = audit(calls(DENVER, "2026-06-02T16:00Z"), leads=leads,
                   dnc=listed(AUSTIN, "US-TX", "2026-01-01"), as_of="2026-11-27")
    found = report.findings[report.findings["rule"] == "dnc_lead"]
    assert found["citation"].tolist() == [TEXAS] and found["jurisdiction"].tolist() == ["US-TX"]
    assert "Texas no-call list" in found["evidence"].iloc[0]


def test_findings_by_state_name_a_state_list_the_law_of_the_place_has_no_row_of() -> None:
    """Colorado keeps a list but no row of ``jurisdictions.toml``: its risk is drawn as
    Colorado's."""
    report = audit(calls(DENVER, "2026-06-02T16:00Z"),
                   dnc=listed(AUSTIN, "national", "2020-01-01"), as_of="2026-11-27")
    ax = plot_by_state(report, ax=Figure().subplots())
    assert [label.get_text() for label in ax.get_yticklabels()] == ["Colorado (US-CO)"]
    risk = [patch for patch in ax.patches if patch.get_width() > 0]
    assert len(risk) == 1 and risk[0].get_facecolor() == to_rgba(COLOURS["risk"])
    assert [text.get_text() for text in ax.get_legend().get_texts()] == [
        "a risk, whoever decided: no law known broken"]


@pytest.mark.parametrize("asked", [{"since": "2026-06-01"}, {"campaign_id": "cmp_1"}])
def test_the_note_names_the_states_of_the_calls_audited_alone(asked: dict[str, str]) -> None:
    """A Miami number called before the window, or by another campaign, is of no call
    audited: the note names Colorado's list alone, though every call's numbers are read
    together (one dictionary of numbers: the note named Florida's too)."""
    made = pd.concat([calls(MIAMI, "2026-05-02T16:00Z").assign(id="call_9",
                                                               campaign_id="cmp_2"),
                      calls(DENVER, "2026-06-02T16:00Z")], ignore_index=True)
    report = audit(made, dnc=listed(AUSTIN, "national", "2020-01-01"), as_of="2026-11-27",
                   **asked)  # type: ignore[arg-type]
    note = report.notes["state_lists"]
    assert "US-CO" in note and "Florida" not in note
    everything = audit(made, dnc=listed(AUSTIN, "national", "2020-01-01"), as_of="2026-11-27")
    assert "Florida Do Not Call List (US-FL)" in everything.notes["state_lists"]


INDIANAPOLIS = "+13175550123"
INDIANA = "IC 24-4.7-4-1"


@pytest.mark.parametrize(("ends", "found"), [(None, []), ("2026-05-01", [INDIANA])])
def test_indianas_list_spares_a_contract_not_yet_performed(ends: str | None,
                                                           found: list[str]) -> None:
    """IC 24-4.7-1-1(2): a call 'in connection with an existing debt or contract for which
    payment or performance has not been completed': a contract in force, not one ended."""
    contracts = pd.DataFrame({"phone": [INDIANAPOLIS],
                              "signed_at": pd.to_datetime(["2025-01-01"], utc=True),
                              "ends_at": pd.to_datetime([ends], utc=True)})
    assert cited(INDIANAPOLIS, "US-IN", "2026-01-01", "2026-06-02T16:00Z",
                 contracts=contracts) == found
