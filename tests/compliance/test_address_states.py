"""A lead's address state read the ways people and systems write it, by every reader; and
one it cannot read said aloud, never dropped (issue 61, item 7).

A New York number called at 20:30 New York time: the federal hours (08:00-21:00) allow
it; Florida's (Fla. Stat. 501.616(6)(a): 08:00-20:00) do not, so a lead living in
Florida makes it a finding of law, however its state is written.
"""

from __future__ import annotations

import json
import tomllib
from importlib import resources

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dialkit._guarding import GuardSettings, LiveDnc
from dialkit._places._subdivisions import subdivision_name, subdivision_of
from dialkit.compliance import LawJudge, audit, jurisdictions, next_allowed
from dialkit.compliance._report._evidence import cover
from dialkit.compliance._rules._checked_states import checked
from dialkit.contract import DncCheckResult

NEW_YORK = "+12125550123"
LATE = pd.Timestamp("2026-11-25T01:30Z")  # Tue 20:30 in New York and in most of Florida
FLORIDA = ["FL", "Florida", "florida", "US-FL", "ＦＬ", "Fla.", " FLORIDA ", "us - fl", "fla"]
UNREADABLE = ["Flordia", "XX", "FL 33101", "12"]
TABLE = tomllib.loads(resources.files("dialkit._places").joinpath(
    "subdivisions.toml").read_text("utf-8"))


def calls() -> pd.DataFrame:
    return pd.DataFrame({
        "id": ["call_1"], "direction": "outbound", "from_number": "+14155550100",
        "to_number": [NEW_YORK], "created_at": [LATE], "answered_at": pd.NaT,
        "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None})


def lead(state: object, *, in_fields: bool = False) -> pd.DataFrame:
    """The called number's lead, its address state in a ``state`` column or in
    ``custom_fields`` (as the service keeps it)."""
    where = ({"custom_fields": [json.dumps({"state": state}, ensure_ascii=False)]}
             if in_fields else {"state": [state]})
    return pd.DataFrame({"id": ["lead_1"], "campaign_id": "cmp_1", "phone": [NEW_YORK],
                         "status": "new", **where})


def judged(state: object, *, in_fields: bool = False) -> list[tuple[object, ...]]:
    findings = audit(calls(), leads=lead(state, in_fields=in_fields)).findings
    return list(findings[["rule", "basis", "jurisdiction", "decided_by",
                          "evidence"]].itertuples(index=False))


@pytest.mark.parametrize("in_fields", [False, True])
@pytest.mark.parametrize("state", FLORIDA)
def test_every_spelling_of_a_state_gives_the_same_findings(state: str, in_fields: bool) -> None:
    """Part (b) of the issue's metamorphic tests: the same fact in every form."""
    assert judged(state, in_fields=in_fields) == judged("FL")
    [(rule, basis, jid, by, _)] = judged("FL")
    assert (rule, basis, jid, by) == ("calling_hours", "law", "US-FL", "address")


@pytest.mark.parametrize("state", FLORIDA)
def test_next_allowed_and_the_guard_read_the_state_as_the_audit_does(state: str) -> None:
    answer = next_allowed(lead(state), LATE).iloc[0]
    assert (bool(answer["allowed"]), answer["jurisdiction"]) == (False, "US-FL")
    verdict = LawJudge().contact(NEW_YORK, LATE.to_pydatetime(), state=state,
                                 campaign_id="cmp_1", calls=(), texts=(),
                                 dnc=LiveDnc(DncCheckResult(phone=NEW_YORK, listed=False),
                                             LATE.to_pydatetime()),
                                 settings=GuardSettings())
    assert verdict is not None and verdict.rule == "calling_hours"


@pytest.mark.parametrize("state", UNREADABLE)
def test_an_unreadable_state_is_a_risk_of_the_lead_and_a_note(state: str) -> None:
    report = audit(calls(), leads=lead(state))
    [(rule, basis, jid, _, evidence)] = judged(state)  # and no finding of the hours
    assert (rule, basis) == ("unknown_address_state", "risk") and pd.isna(jid)
    assert f"the address state {state!r} names no US state" in evidence
    found = report.findings.iloc[0]
    assert (found["lead_id"], found["address_state"]) == ("lead_1", state)
    assert pd.isna(found["call_id"])
    assert report.notes["unknown_address_state"].startswith(
        f"the address state of 1 lead could not be read ({state!r}): their calls were "
        "judged by their number's place alone")
    assert "unknown_address_state" in report.ran
    assert report.risks.to_dict() == {"calls": 0, "leads": 1}
    said = cover(report, {}).set_index("item")["value"]
    assert said["note: unknown_address_state"] == report.notes["unknown_address_state"]
    assert f"unknown_address_state: the address state of 1 lead could not be read ({state!r})" \
        in report.to_text()


def test_a_lead_of_a_readable_or_no_state_is_no_risk_and_no_note() -> None:
    for state in ("Ont.", "CA-ON", "Québec", "US-PR", None, " "):
        report = audit(calls(), leads=lead(state))
        assert "unknown_address_state" not in set(report.findings["rule"])
        assert "unknown_address_state" not in report.notes
        assert report.passed["unknown_address_state"]


def test_the_rule_runs_only_where_the_law_reads_address_states() -> None:
    from dialkit.compliance import US_FEDERAL

    report = audit(calls(), leads=lead("Flordia"), rules=US_FEDERAL)
    assert "unknown_address_state" not in report.ran and report.findings.empty


_FULL_WIDTH = {code: code + 0xFEE0 for code in range(0x21, 0x7F)}
"""ASCII's printable characters to their full-width forms (NFKC maps them back)."""


def _respelled(text: str, data: st.DataObject) -> str:
    """``text`` as people and systems also write it: any case, any width, more spaces."""
    cased = "".join(c.upper() if data.draw(st.booleans()) else c.lower() for c in text)
    if data.draw(st.booleans()):
        cased = cased.translate(_FULL_WIDTH)
    pad = data.draw(st.sampled_from(["", " ", "  ", "\t", "\u3000"]))
    return pad + cased.replace(" ", data.draw(st.sampled_from([" ", "  ", "\t"]))) + pad


_SPELLINGS = [(f"{country}-{postal}", spelling) for country, places in TABLE.items()
              for postal, spelled in places.items()
              for spelling in (postal, f"{country}-{postal}", *spelled)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_SPELLINGS), st.data())
def test_every_spelling_in_any_case_width_and_spacing_reads_as_its_place(
        spelled: tuple[str, str], data: st.DataObject) -> None:
    code, spelling = spelled
    assert subdivision_of(_respelled(spelling, data)) == code


def test_no_spelling_names_two_places() -> None:
    """A bare two-letter code is a US state's first (``CA`` is California): no Canadian
    spelling may also be a US one, or a province would be read as a state."""
    read = {code: subdivision_of(spelling) for code, spelling in _SPELLINGS}
    assert all(subdivision_of(spelling) == code for code, spelling in _SPELLINGS), read
    assert subdivision_of("CA") == "US-CA" and subdivision_of("CA-ON") == "CA-ON"


def test_the_places_table_names_each_state_as_the_law_tables_do() -> None:
    """One name per state: the jurisdiction table's rows and checked states, the area
    codes' states and provinces, all in the places' table."""
    for row in jurisdictions.all():
        if row.subdivision:
            assert subdivision_name(f"{row.country}-{row.subdivision}") == row.name
    for state in checked():
        assert subdivision_name(state.id) == state.name
    codes = tomllib.loads(resources.files("dialkit._places").joinpath(
        "area_codes.toml").read_text("utf-8"))
    assert set(codes["states"]) <= set(TABLE["US"])
    assert set(codes["provinces"]) <= set(TABLE["CA"])


def test_the_ap_abbreviations_are_the_stylebooks() -> None:
    """The AP Stylebook's list (its "state names" entry): 42 abbreviations, the eight
    short states never abbreviated."""
    ap = {postal: spelled[1] for postal, spelled in TABLE["US"].items()
          if len(spelled) > 1 and postal not in ("DC", "AS", "GU", "MP", "PR", "VI")}
    assert len(ap) == 42
    assert not {"AK", "HI", "ID", "IA", "ME", "OH", "TX", "UT"} & set(ap)
    assert (ap["FL"], ap["CA"], ap["MA"], ap["WV"]) == ("Fla.", "Calif.", "Mass.", "W.Va.")



def test_the_dask_audit_reads_and_flags_states_as_pandas_does() -> None:
    import dask.dataframe as dd

    both = pd.concat([calls(), calls().assign(id="call_2", to_number="+13055550123")])
    leads = pd.concat([lead("Flordia"), lead("Fla.").assign(id="lead_2", phone="+13055550123")])
    on_pandas = audit(both, leads=leads)
    on_dask = audit(dd.from_pandas(both, npartitions=2), leads=dd.from_pandas(leads, npartitions=2))
    columns = ["rule", "basis", "lead_id", "address_state", "evidence"]
    assert (on_dask.findings[columns].astype(str).values.tolist()
            == on_pandas.findings[columns].astype(str).values.tolist())
    assert on_dask.notes["unknown_address_state"] == on_pandas.notes["unknown_address_state"]
    assert on_pandas.findings["rule"].tolist() == ["calling_hours", "unknown_address_state"]
