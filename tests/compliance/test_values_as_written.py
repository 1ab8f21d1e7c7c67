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

from dialkit.compliance import AuditInputError, audit, upcoming

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


def listed_lead(status: str) -> pd.DataFrame:
    return leads("residential").assign(status=status)


def test_a_leads_status_in_another_case_is_that_status() -> None:
    """A lead ``DNC`` (as a CRM exports it) was read as an open lead: a ``dnc_lead``
    finding ("on the list but the lead is DNC") for a lead already closed."""
    assert found(leads=listed_lead("DNC")) == found(leads=listed_lead("dnc"))
    assert "dnc_lead" not in found(leads=listed_lead("DNC"))
    assert "dnc_lead" in found(leads=listed_lead("new"))


@pytest.mark.parametrize(("status", "kinds"), [
    ("pending", ["callback"]), ("Pending", ["callback"]), (" PENDING ", ["callback"]),
    ("cancelled", []), ("Cancelled", [])])
def test_a_callbacks_status_in_another_case_is_that_status(status: str,
                                                          kinds: list[str]) -> None:
    """A callback ``Pending`` in an export edited by hand was silently not scheduled."""
    given = {"calls": CALLS.iloc[:0], "dnc": DNC,
             "leads": listed_lead("callback").assign(next_attempt_at=pd.NaT),
             "callbacks": pd.DataFrame({"id": ["cb_1"], "lead_id": ["lead_1"],
                                        "campaign_id": ["cmp_1"], "status": [status],
                                        "scheduled_at": [pd.Timestamp("2026-06-03T03:00Z")]})}
    due = upcoming(given, as_of="2026-06-02T18:00Z")  # 23:00 in Toronto: a finding
    assert sorted(set(due["kind"].astype(str))) == kinds


@pytest.mark.parametrize(("frame", "said"), [
    ("leads", "leads.status holds 'open'"), ("callbacks", "callbacks.status holds 'done'")])
def test_a_status_the_contract_does_not_name_is_refused_by_name(frame: str, said: str) -> None:
    given = {"calls": CALLS.iloc[:0], "dnc": DNC,
             "leads": listed_lead("open" if frame == "leads" else "new").assign(
                 next_attempt_at=pd.NaT),
             "callbacks": pd.DataFrame({"id": ["cb_1"], "lead_id": ["lead_1"],
                                        "campaign_id": ["cmp_1"],
                                        "status": ["done" if frame == "callbacks" else "pending"],
                                        "scheduled_at": [pd.Timestamp("2026-06-03T03:00Z")]})}
    with pytest.raises(AuditInputError, match=said):
        upcoming(given, as_of="2026-06-02T18:00Z")
