"""Every state's own Do-Not-Call list is judged alike by the audit, ``next_allowed`` and
``upcoming`` (issue 73: "the audit, upcoming, next_allowed and the guard read them
alike"), each fact of the account and a business line lifting it exactly where the row's
words do. Generated from ``_law/dnc_lists.toml``: a row added there is a case here.

For each state list, a number of that state (by its area code, the North American
Numbering Plan's) is listed on it since January, the list last scrubbed in May, and a call
to it is asked about on Tuesday 2 June 2026 at 17:00 UTC: 13:00 in the Eastern states,
12:00 in the Central, 11:00 in Denver, inside every state's hours, on no holiday. The
guard's reading of a state's scrub is tested over real HTTP in
``tests/client/test_guard_inputs.py``.
"""

from __future__ import annotations

import pandas as pd
import pytest

from dialkit._law import _dnc_lists as lists
from dialkit.compliance import audit, next_allowed, upcoming

AREA = {"CO": "303", "FL": "305", "IN": "317", "LA": "504", "MA": "617", "MS": "601",
        "MO": "314", "OK": "405", "PA": "215", "TN": "615", "TX": "214", "WY": "307"}
"""An area code of each state whose law names a list (Denver, Miami, Indianapolis, New
Orleans, Boston, Jackson, St. Louis, Oklahoma City, Philadelphia, Nashville, Dallas,
Cheyenne)."""
AT = pd.Timestamp("2026-06-02T17:00Z")
STATE_LISTS = [row for row in lists.all() if row.state]
CASES = [(row, told) for row in STATE_LISTS
         for told in (None, *sorted(lists.FACTS), "business line")]


def test_every_state_list_of_the_table_has_a_case() -> None:
    assert {row.state for row in STATE_LISTS} == set(AREA)


def frames(row: lists.DncList, line: str | None) -> dict[str, pd.DataFrame]:
    phone = f"+1{AREA[row.state]}5550142"
    leads = pd.DataFrame({"id": ["lead_1"], "campaign_id": ["cmp_1"], "phone": [phone],
                          "status": ["callback"], "next_attempt_at": [pd.NaT],
                          **({} if line is None else {"line": [line]})})
    return {
        "leads": leads,
        "dnc": pd.DataFrame({"phone": [phone], "listed": [True], "list": [row.id],
                             "listed_at": [pd.Timestamp("2026-01-05T00:00Z")],
                             "checked_at": [pd.Timestamp("2026-05-20T00:00Z")]}),
        "calls": pd.DataFrame({"id": ["call_1"], "direction": "outbound",
                               "from_number": "+14155550100", "to_number": [phone],
                               "created_at": [AT], "answered_at": pd.NaT,
                               "ended_at": pd.NaT, "campaign_id": "cmp_1",
                               "disposition": None}),
        "callbacks": pd.DataFrame({"id": ["cb_1"], "lead_id": ["lead_1"],
                                   "campaign_id": ["cmp_1"], "scheduled_at": [AT],
                                   "status": ["pending"]})}


@pytest.mark.parametrize(("row", "told"), CASES,
                         ids=[f"{row.state}-{told or 'nothing'}" for row, told in CASES])
def test_a_number_on_a_states_list_is_judged_alike_before_and_after_the_call(
        row: lists.DncList, told: str | None) -> None:
    line = "business" if told == "business line" else "residential"
    facts = {told: True} if told in lists.FACTS else {}
    lifted = (told in row.exempt_facts if told in lists.FACTS
              else told == "business line" and row.residential_only)
    given = frames(row, line)
    made = audit(given["calls"], leads=given["leads"], dnc=given["dnc"], **facts).findings
    after = made[(made["rule"] == "dnc_call") & (made["basis"] == "law")]
    assert after["jurisdiction"].astype(str).tolist() == ([] if lifted else [row.id])
    asked = next_allowed(given["leads"].drop(columns="next_attempt_at"), AT,
                         dnc=given["dnc"], **facts)
    assert asked["allowed"].tolist() == [lifted]
    assert asked["rule"].dropna().tolist() == ([] if lifted else ["dnc_call"])
    due = upcoming({name: given[name] for name in ("leads", "dnc", "callbacks")}
                   | {"calls": given["calls"].iloc[:0]},
                   as_of=AT - pd.Timedelta(hours=1), **facts)
    before = due[due["rule"] == "dnc_call"]
    assert before["jurisdiction"].astype(str).tolist() == ([] if lifted else [row.id])
