"""A lead's line as carriers' lookups and CRMs write it (issue 79, item 4): ``Mobile``,
``Landline``, ``Wireless``, ``VoIP`` were refused, and with a written-permission list given
every campaign call without one was a risk, for no call's line was known. Each is now the
fact it says, read by the rules it decides: wireless makes the consent rule's finding one
of law, a landline needs no written consent for an autodialled call (a prerecorded one
still does), VoIP stays a risk, and every such risk names the fact that would settle it.

Two New York numbers the numbering plan cannot tell wireless from landline (``fixed line
or mobile``, as nearly every US number), called by a campaign on a Tuesday afternoon, with
a consent list that holds a written consent for neither.
"""

from __future__ import annotations

import pandas as pd
import pytest

from dialkit._phones._types import MAYBE_MOBILE, number_types
from dialkit.compliance import AuditInputError, audit

FIRST, SECOND = "+12125550123", "+12125550187"
SETTLE = "the number's line (leads' line: wireless or landline) would settle it"


def calls(prerecorded: bool | None = None) -> pd.DataFrame:
    placed = pd.DataFrame({
        "id": ["call_1", "call_2"], "direction": "outbound",
        "from_number": "+14155550100", "to_number": [FIRST, SECOND],
        "created_at": pd.to_datetime(["2026-06-02T17:00Z", "2026-06-02T17:05Z"], utc=True),
        "answered_at": pd.NaT, "ended_at": pd.NaT, "campaign_id": "cmp_1",
        "disposition": None})
    return placed if prerecorded is None else placed.assign(prerecorded=prerecorded)


def leads(*lines: str | None, phones: tuple[str, ...] = (FIRST, SECOND)) -> pd.DataFrame:
    return pd.DataFrame({"id": [f"lead_{n}" for n in range(len(lines))], "campaign_id": "cmp_1",
                         "phone": list(phones), "status": "callback", "line": list(lines)})


CONSENTS = pd.DataFrame({"phone": ["+12125550999"], "kind": ["written"],
                         "given_at": pd.to_datetime(["2026-01-01"], utc=True)})


def consent_findings(**given: object) -> pd.DataFrame:
    given.setdefault("consents", CONSENTS)
    found = audit(given.pop("calls", calls()), **given).findings  # type: ignore[arg-type]
    return found[found["rule"] == "no_written_consent"].set_index("phone")


def test_the_numbers_are_ones_the_numbering_plan_cannot_tell() -> None:
    assert (number_types(pd.Series([FIRST, SECOND])) == MAYBE_MOBILE).all()


def test_without_a_line_each_call_is_a_risk_naming_what_would_settle_it() -> None:
    found = consent_findings(leads=leads(None, None))
    assert found["basis"].tolist() == ["risk", "risk"]
    assert found["evidence"].str.contains(SETTLE, regex=False).all()


@pytest.mark.parametrize("word", ["Mobile", "Wireless", "CELL", " cellular ", "wireless"])
def test_a_wireless_line_makes_the_finding_one_of_law(word: str) -> None:
    found = consent_findings(leads=leads(word, None))
    assert found.loc[FIRST, "basis"] == "law"
    assert "its leads' line says so" in found.loc[FIRST, "evidence"]
    assert found.loc[SECOND, "basis"] == "risk"


@pytest.mark.parametrize("word", ["Landline", "Land Line", "wireline", "Fixed Line"])
def test_a_landline_needs_no_written_consent_for_an_autodialled_call(word: str) -> None:
    found = consent_findings(leads=leads(word, word))
    assert found.empty


def test_a_prerecorded_call_to_a_landline_still_needs_one() -> None:
    found = consent_findings(calls=calls(prerecorded=True), leads=leads("Landline", "Landline"))
    assert found["basis"].tolist() == ["law", "law"]
    assert found["citation"].str.contains("64.1200(a)(3)", regex=False).all()


@pytest.mark.parametrize("word", ["VoIP", "nonFixedVoip", "fixedVoip"])
def test_a_voip_line_stays_a_risk_that_says_why(word: str) -> None:
    found = consent_findings(leads=leads(word, "Landline"))
    assert found.index.tolist() == [FIRST]
    assert found.loc[FIRST, "basis"] == "risk"
    assert "VoIP line" in found.loc[FIRST, "evidence"]
    assert SETTLE in found.loc[FIRST, "evidence"]


def test_a_number_any_lead_says_is_wireless_is_read_so() -> None:
    """Two leads of one number disagree: the stricter reading, wireless, decides."""
    both = leads("Landline", "Mobile", phones=(FIRST, FIRST))
    found = consent_findings(leads=both)
    assert found.loc[FIRST, "basis"] == "law"


def test_unknown_is_no_line_at_all() -> None:
    """A lookup's ``unknown`` is read as an empty cell: the risk stays, as without a line."""
    assert consent_findings(leads=leads("unknown", "Unknown"))["basis"].tolist() == [
        "risk", "risk"]


def test_a_wireless_line_is_residential_to_the_registry() -> None:
    """A mobile is a residential subscriber's line (47 CFR 64.1200(e)): the registry
    judges a call to it as it judges one to a lead that says nothing."""
    dnc = pd.DataFrame({"phone": [FIRST], "listed": [True],
                        "listed_at": pd.to_datetime(["2026-01-05"], utc=True),
                        "checked_at": pd.to_datetime(["2026-05-20"], utc=True)})

    def registry(line: str | None) -> list[str]:
        found = audit(calls(), dnc=dnc, leads=leads(line, None)).findings
        return found.loc[found["rule"] == "dnc_call", "citation"].tolist()

    assert registry("Mobile") == registry(None) != []
    assert registry("Business") == []


def test_a_line_that_names_no_type_is_refused_naming_every_value() -> None:
    with pytest.raises(AuditInputError) as refused:
        audit(calls(), leads=leads("office", "Mobile"), consents=CONSENTS)
    said = str(refused.value)
    assert "leads.line holds 'office'" in said
    assert all(word in said for word in ("wireless", "landline", "voip"))


def test_dask_reads_the_line_types_as_pandas_does() -> None:
    dd = pytest.importorskip("dask.dataframe")
    given = {"leads": leads("Mobile", "VoIP"), "consents": CONSENTS}
    on_pandas = audit(calls(), **given).findings  # type: ignore[arg-type]
    on_dask = audit(dd.from_pandas(calls(), npartitions=2), **given).findings  # type: ignore[arg-type]
    columns = ["rule", "phone", "basis", "evidence"]
    assert on_dask[columns].sort_values("phone").to_dict("records") == (
        on_pandas[columns].sort_values("phone").to_dict("records"))
