"""The audit's named values read as a spreadsheet or another system writes them: a
consent's ``kind`` ``Written`` or ``EBR``, a reassigned ``answer`` ``YES``, a lead's
``line`` ``Business``, in any case and with spaces around them, give the findings of the
values as the audit names them (they were refused); a value that names none is still
refused by name, never read as one of them.

A Toronto number on Canada's DNCL since January, checked in May, called on Tuesday 2 June
2026 at 13:00 in Toronto: a business line is no subscriber the DNCL protects, and a
written consent standing at the call exempts it (the DNCL's row, ``_law/dnc_lists.toml``).
"""

from __future__ import annotations

import pandas as pd
import pytest

from dialkit.compliance import AuditInputError, audit

TORONTO = "+14165550142"
CALLS = pd.DataFrame({"id": ["call_1"], "direction": "outbound",
                      "from_number": "+14155550100", "to_number": [TORONTO],
                      "created_at": [pd.Timestamp("2026-06-02T17:00Z")], "answered_at": pd.NaT,
                      "ended_at": pd.NaT, "campaign_id": "cmp_1", "disposition": None})
DNC = pd.DataFrame({"phone": [TORONTO], "listed": [True],
                    "listed_at": [pd.Timestamp("2026-01-05T00:00Z")],
                    "checked_at": [pd.Timestamp("2026-05-20T00:00Z")]})


def leads(line: str) -> pd.DataFrame:
    return pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [TORONTO],
                         "status": ["callback"], "line": [line]})


def consents(kind: str, relationship: str = "purchase") -> pd.DataFrame:
    return pd.DataFrame({"phone": [TORONTO], "kind": [kind], "relationship": [relationship],
                         "given_at": ["2026-02-01T00:00Z"]})


def reassigned(answer: str) -> pd.DataFrame:
    return pd.DataFrame({"phone": [TORONTO], "asked_at": ["2026-03-01T00:00Z"],
                         "answer": [answer]})


def found(**given: pd.DataFrame) -> list[str]:
    given.setdefault("leads", leads("residential"))
    return sorted(audit(CALLS, dnc=DNC, **given).findings["rule"].astype(str))


@pytest.mark.parametrize(("as_named", "as_written"), [
    ({"leads": leads("business")}, {"leads": leads("Business")}),
    ({"leads": leads("residential")}, {"leads": leads(" RESIDENTIAL ")}),
    ({"consents": consents("written")}, {"consents": consents("Written")}),
    ({"consents": consents("ebr", "inquiry")}, {"consents": consents("EBR", "Inquiry")}),
    ({"consents": consents("written"), "reassigned": reassigned("yes")},
     {"consents": consents("written"), "reassigned": reassigned("YES")}),
], ids=["business line", "residential line", "written consent", "ebr inquiry",
        "reassigned yes"])
def test_a_value_written_in_another_case_gives_the_same_findings(
        as_named: dict[str, pd.DataFrame], as_written: dict[str, pd.DataFrame]) -> None:
    assert found(**as_written) == found(**as_named)


def test_the_cases_compared_differ_from_one_another() -> None:
    """The facts matter: what the values say changes the findings compared above."""
    assert "dnc_call" in found()
    assert "dnc_call" not in found(leads=leads("business"))
    assert "dnc_call" not in found(consents=consents("written"))
    assert "dnc_call" in found(consents=consents("written"), reassigned=reassigned("yes"))


@pytest.mark.parametrize(("given", "said"), [
    ({"consents": consents("verbal")}, "consents.kind holds 'verbal'"),
    ({"consents": consents("written", "bought")}, "consents.relationship holds 'bought'"),
    ({"reassigned": reassigned("maybe")}, "reassigned.answer holds 'maybe'"),
    ({"leads": leads("office")}, "leads.line holds 'office'"),
])
def test_a_value_that_names_none_is_refused_by_name(given: dict[str, pd.DataFrame],
                                                    said: str) -> None:
    with pytest.raises(AuditInputError, match=said):
        found(**given)
